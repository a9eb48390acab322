"""``gamelearn her``, ``him`` and ``menace`` without a sub-command: the matchbox experiments
(Gardner 1962, Michie 1961), run by experiments.matchbox and rendered here: the tables, the
charts of one learner per opponent, the learning curve's PNG, the result kept in the store."""

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich import box
from rich.table import Table

from ..experiments.api import (
    HerOptions,
    MatchboxInterrupted,
    MenaceOptions,
    chart,
    plot_learning_curve,
    run_her,
    run_menace,
)
from ..files import MissingFolderError
from ..players.matchbox.fast import check_opponent
from .common import check_store, console, err_console, fail, open_store, output_dir, print_json, spec_column
from .progress import progress_bar
from .stops import kept_when_stopped

#: The most games of one opponent's run, learners x games: their records take a byte a game, and
#: a run of this size takes some minutes (HER plays about 25,000 games a second on one core).
MAX_GAMES_IN_ALL = 20_000_000


def check_opponents(against: list[str], valid: tuple[str, ...]) -> list[str]:
    """The opponents once each, every one of ``valid`` or a mixed teacher ``perfect:random=P``."""
    chosen = []
    for opponent in against:
        try:
            check_opponent(opponent, valid)
        except ValueError as error:
            fail(f"--against: {error}")
        if opponent not in chosen:
            chosen.append(opponent)
    return chosen


def print_chart(title: str, record: str) -> None:
    console.print(f"\n{title}")
    for line in chart(record):
        console.print("  " + line, markup=False)


def save_and_plot(kind: str, result: dict[str, Any], folder: Path, title: str, as_json: bool) -> None:
    """Save the result in the store, then draw the learning curve into ``folder``: a plot that
    cannot be written (a full disk) costs the picture, never the run's figures.  With ``as_json``
    the result, its number in the store and the plot's path go to stdout as one JSON object."""
    number = open_store().save_result(kind, result)
    said = err_console if as_json else console
    said.print(f"\nResult saved in the store: {kind} #{number}")
    side = "-as-white" if result.get("side") == "W" else ""
    path = folder / f"{kind}{side}-learning-curve-seed{result['seed']}.png"
    saved = f" (the result is saved: {kind} #{number})"
    try:
        plot_learning_curve(result, path, title)
    except MissingFolderError as error:
        fail(f"--out: {error}{saved}")
    except OSError as error:
        fail(f"--out: cannot write {path}: {error.strerror or error}{saved}")
    except ValueError as error:  # a FIFO or a device where the chart goes: refused, nothing written
        fail(f"--out: {error}{saved}")
    if as_json:
        print_json({**result, "kind": kind, "result_id": number, "plot": str(path)})
    else:
        console.print(f"Learning curve: {path}", markup=False, soft_wrap=True)


class StoppedRun:
    """What ``kept_when_stopped`` keeps of a matchbox experiment stopped by ^C or SIGTERM: the
    result of the learners that had finished, saved in the store (marked stopped) and drawn, and
    the line that says so; ``then`` prints it as JSON for ``--json``."""

    def __init__(self, kind: str, folder: Path, title: str, as_json: bool) -> None:
        self.kind, self.folder, self.title, self.as_json = kind, folder, title, as_json
        self.kept: dict[str, Any] | None = None

    def keep(self, stopped: KeyboardInterrupt) -> str:
        if not isinstance(stopped, MatchboxInterrupted) or stopped.result is None:
            return "Interrupted before the first learner had finished; nothing to keep"
        result = stopped.result
        number = open_store().save_result(self.kind, result)
        side = "-as-white" if result.get("side") == "W" else ""
        path = self.folder / f"{self.kind}{side}-learning-curve-seed{result['seed']}-stopped.png"
        try:
            plot_learning_curve(result, path, self.title + " (stopped)")
            drawn = f"learning curve {path}"
        except (OSError, ValueError) as error:  # the figures are kept; the picture is not
            drawn = f"no learning curve ({getattr(error, 'strerror', None) or error})"
        self.kept = {**result, "kind": self.kind, "result_id": number, "plot": str(path)}
        return (
            f"Interrupted: {stopped.finished:,} of {stopped.total:,} learners had finished; they are kept: "
            f"{self.kind} #{number} in the store (marked stopped), {drawn}"
        )

    def then(self, stopped: KeyboardInterrupt) -> None:
        if self.as_json and self.kept is not None:
            print_json(self.kept)


def check_size(learners: int, games: int) -> None:
    """A run keeps each learner's record (a letter a game) to draw its curves: learners x games
    letters an opponent.  Above MAX_GAMES_IN_ALL that is gigabytes and hours: refused in one line."""
    if learners * games > MAX_GAMES_IN_ALL:
        fail(
            f"--learners {learners:,} x --games {games:,} is {learners * games:,} games an opponent, more than "
            f"the {MAX_GAMES_IN_ALL:,} a run holds (each game's result is kept for the curves); give fewer"
        )


def run_her_command(
    asked: HerOptions, out: Path | None, charts: bool, as_json: bool = False, quiet: bool = False
) -> None:
    options = replace(asked, opponents=check_opponents(list(asked.opponents), ("random", "sharp", "perfect")))
    kind, learners, games, opponents, seed, side = (
        options.kind, options.learners, options.games, options.opponents, options.seed, options.side
    )  # fmt: skip
    check_size(learners, games)
    if out is not None:
        output_dir(out, "plots")  # a --out folder that is not there is refused before the store is made
    check_store()  # the result is kept there: a store that cannot take it is named before the games
    folder = output_dir(out, "plots")
    runs = len(opponents) * (2 if kind == "him" else 1)  # HIM is compared with HER on the same games
    name = kind.upper()
    title = f"{name}: losses per game, {learners} learners, seed {seed}"
    stop = StoppedRun(kind, folder, title, as_json)
    with progress_bar(err_console, "games", runs * learners * games, "games", quiet) as bar:
        with kept_when_stopped(bar, stop.keep, stop.then):
            result = run_her(options, progress=bar.advance)
            if kind == "him":
                compare_with_her(result, options, quiet=True, progress=bar.advance)
    if as_json:
        save_and_plot(kind, result, folder, title, as_json=True)
        return
    colour = ("White", "Black")[side]
    table = Table(title=f"{learners} fresh {name}s as {colour}, {games} games each, seed {seed}")
    # a mixed teacher's spec breaks only after its ':' (never mid-word)
    against = spec_column(table, "against", [item["opponent"].capitalize() for item in result["opponents"]], 10)
    for heading in ("most losses", "average", "good beads taken out", "bad beads taken out", "last loss (game)"):
        table.add_column(heading)
    for item, opponent in zip(result["opponents"], against, strict=True):
        table.add_row(
            opponent,
            str(item["most_losses"]),
            f"{item['average_losses']:.2f}",
            str(item["good_beads_taken_out"]),
            str(item["bad_beads_taken_out"]),
            str(item["last_loss_game"]),
        )
    console.print(table)
    counted, opened = result["boxes_counted"], result["boxes_opened"]
    console.print(
        f"Boxes counted without playing: {counted['boxes']} boxes, {counted['beads']} beads, {counted['bad_beads']} of them bad."
    )
    console.print(
        f"Boxes these runs opened: {opened['boxes']}, with {opened['beads']} beads, {opened['bad_beads']} of them bad."
    )
    bad = counted["bad_beads"]
    most = result["most_losses_overall"]
    if side == 0:
        console.print(
            f"Most losses of any {name} as White: {most}. White loses hexapawn with best play, so every bead of its first "
            "box is bad: once they are gone it resigns every game, and losses have no bound."
        )
    elif kind == "her":
        verdict = f"confirmed: no HER lost game number {bad + 1}" if most <= bad else "NOT confirmed"
        console.print(f"Most losses of any HER: {most}; the bound is the {bad} bad beads ({verdict}).")
    else:
        console.print(
            f"Most losses of any HIM: {most}. HIM can lose more than {bad} games: a win puts back a second copy of a bead, "
            "bad ones included, so a bad move can cost more than one loss."
        )
    good = result["good_beads_taken_out"]
    console.print(
        f"Good beads taken out: {good}"
        + (" (Gardner's rule only ever threw away bad moves)." if good == 0 else " (a good bead was lost!).")
    )
    if kind == "him":
        tell_him_against_her(result)
    if charts:
        for item in result["opponents"]:
            letters = item["chart"]
            print_chart(
                f"Gardner's chart, {name} no. 1 against {item['opponent'].capitalize()} (W won, L lost; ten games a line): "
                f"lost {letters.count('L')} of {games}, the last loss in game {letters.rfind('L') + 1}",
                letters,
            )
    save_and_plot(kind, result, folder, title, as_json=False)


def compare_with_her(
    him: dict[str, Any], options: HerOptions, quiet: bool = False, progress: Callable[[int], None] | None = None
) -> None:
    """The classroom page's question: does HIM lose more games than HER, or fewer?  The same seeds for both."""
    try:
        her = run_her(replace(options, kind="her"), progress=progress)
    except MatchboxInterrupted as stopped:  # HIM's run is whole: kept, with what HER had finished
        him["stopped"] = True
        him["her_for_comparison"] = [] if stopped.result is None else comparison(stopped.result)
        learners = options.learners * len(options.opponents)
        raise MatchboxInterrupted(him, learners, learners) from None
    him["her_for_comparison"] = comparison(her)
    if not quiet:
        tell_him_against_her(him)


def comparison(her: dict[str, Any]) -> list[dict[str, Any]]:
    """HER's figures beside HIM's: per opponent, the learners, the average and most losses."""
    return [
        {
            "opponent": t["opponent"],
            "learners": t["learners"],
            "average_losses": t["average_losses"],
            "most_losses": t["most_losses"],
        }
        for t in her["opponents"]
    ]


def tell_him_against_her(him: dict[str, Any]) -> None:
    """The answer to the classroom page's question, from HIM's result with HER's beside it."""
    console.print("\nDoes HIM lose more games than HER, or fewer? (same games' seeds for both)")
    for mine, theirs in zip(him["opponents"], him["her_for_comparison"], strict=True):
        a, b = mine["average_losses"], theirs["average_losses"]
        answer = "more" if a > b else "fewer" if a < b else "as many"
        console.print(
            f"  against {mine['opponent'].capitalize()}: HIM loses {a:.2f} on average (most {mine['most_losses']}), "
            f"HER {b:.2f} (most {theirs['most_losses']}): HIM loses [bold]{answer}[/bold]."
        )


def run_menace_command(
    asked: MenaceOptions, out: Path | None, charts: bool, as_json: bool = False, quiet: bool = False
) -> None:
    options = replace(asked, opponents=check_opponents(list(asked.opponents), ("random", "perfect", "self", "sharp")))
    learners, games, opponents, seed, side = (
        options.learners, options.games, options.opponents, options.seed, options.side
    )  # fmt: skip
    beads, rewards, restock = options.beads, options.rewards, options.restock
    check_size(learners, games)
    if out is not None:
        output_dir(out, "plots")  # a --out folder that is not there is refused before the store is made
    check_store()  # the result is kept there: a store that cannot take it is named before the games
    folder = output_dir(out, "plots")
    symbol = "XO"[side]
    title = f"MENACE as {symbol}: losses per game, {learners} learners, seed {seed}"
    stop = StoppedRun("menace", folder, title, as_json)
    with progress_bar(err_console, "games", len(opponents) * learners * games, "games", quiet) as bar:
        with kept_when_stopped(bar, stop.keep, stop.then):
            result = run_menace(options, progress=bar.advance)
    if as_json:
        save_and_plot("menace", result, folder, title, as_json=True)
        return
    window = result["opponents"][0]["window"]
    table = Table(
        title=f"{learners} fresh MENACEs as {symbol}, {games} games each, seed {seed}: one MENACE on average",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    against = spec_column(table, "against", [item["opponent"] for item in result["opponents"]], 8)
    for heading in ("wins", "draws", "losses", f"loss rate, first {window}", f"loss rate, last {window}"):
        table.add_column(heading, justify="right")
    for heading in (f"draw rate, last {window}", "boxes opened"):
        table.add_column(heading, justify="right")
    for item, opponent in zip(result["opponents"], against, strict=True):
        table.add_row(
            opponent,
            f"{item['average_wins']:.1f}",
            f"{item['average_draws']:.1f}",
            f"{item['average_losses']:.1f}",
            f"{item['loss_rate_first']:.3f}",
            f"{item['loss_rate_last']:.3f}",
            f"{item['draw_rate_last']:.3f}",
            f"{item['boxes_opened_average']:.0f}",
        )
    console.print(table)
    console.print(
        f"Beads {'-'.join(map(str, beads))} by stage; beads added per bead drawn after a win, a draw, a loss: "
        f"{rewards[0]:+d}, {rewards[1]:+d}, {rewards[2]:+d}"
        + ("; an emptied box is restocked with its first beads." if restock else "; an emptied box resigns.")
    )
    stuck = [item for item in result["opponents"] if item["loss_rate_last"] >= 0.99 and item["opponent"] != "self"]
    if stuck and not restock:
        console.print(
            f"Against {', '.join(item['opponent'] for item in stuck)} MENACE lost (nearly) every one of its last "
            f"{window} games: its early boxes emptied and it resigns. The remedies: --restock on, a mixed teacher "
            "--against perfect:random=0.5, with them a draw worth a win --draw 3 (docs/matchbox.md)."
        )
    counted = result["boxes_counted"]
    console.print(
        f"MENACE's boxes as {symbol}, counted without playing: {counted['boxes']} boxes, {counted['colours']} bead colours."
    )
    console.print("In self-play one MENACE plays both sides; its letters are X's results.")
    if charts:
        for item in result["opponents"]:
            letters = item["chart"]
            shown = letters[:200]
            print_chart(
                f"Chart of MENACE no. 1 against {item['opponent']} (W won, D drew, L lost; ten games a line"
                + (f"; the first 200 of {games}" if len(letters) > 200 else "")
                + ")",
                shown,
            )
    save_and_plot("menace", result, folder, title, as_json=False)
