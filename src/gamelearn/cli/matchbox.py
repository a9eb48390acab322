"""``gamelearn boxes``, ``her``, ``him`` and ``menace``: Gardner's box count and experiments with
the matchbox learners, and moving a named learner's boxes in and out of the store as JSON.

This module only parses, validates and renders: the learners live in players.matchbox, the runs in
experiments.matchbox.
"""

# no "from __future__ import annotations": Typer reads the Annotated options of the nested
# commands at run time, and their help texts use the enclosing function's variables

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from .common import (
    HELP_MARKUP,
    MAX_LEARNER_GAMES,
    SEED_MAX,
    SEED_MIN,
    check_name,
    check_store,
    console,
    err_console,
    fail,
    open_store,
    output_dir,
    print_json,
)
from .progress import QUIET_HELP, progress_bar

#: The most fresh learners an experiment trains against each opponent.
MAX_LEARNERS = 100_000
#: The most games of one opponent's run, learners x games: their records take a byte a game, and
#: a run of this size takes some minutes (HER plays about 25,000 games a second on one core).
MAX_GAMES_IN_ALL = 20_000_000
SIZE_HELP = f"learners x games at most {MAX_GAMES_IN_ALL:,}"
#: Beads a result may add or take out per bead drawn (MENACE's rewards).
MAX_REWARD = 100

OUT_HELP = "folder for the learning-curve PNG (default: plots/ in the data directory)"
JSON_HELP = "print the result as one JSON object on stdout (the figures of the tables, the plot's path)"

#: The opponents of a MENACE run by default (experiments.matchbox.MENACE_OPPONENTS, kept here so
#: that `gamelearn --help` does not import the experiments).
MENACE_OPPONENTS = ("random", "perfect", "self")

HER_HELP = "Gardner's HER (1962): train fresh HERs as Black against Random and Sharp; export/import named ones."
HIM_HELP = (
    "HIM, HER with Gardner's reward: the same experiment, and the answer to the classroom page's question against HER."
)
MENACE_HELP = "Michie's MENACE: train fresh MENACEs against random, the perfect player and itself; export/import."


def register(app: typer.Typer) -> None:
    app.command("boxes")(boxes)
    for kind, help_text in (("her", HER_HELP), ("him", HIM_HELP), ("menace", MENACE_HELP)):
        app.add_typer(learner_app(kind), name=kind, help=help_text)


def boxes(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="hexapawn or tictactoe")],
    no_symmetry: Annotated[
        bool, typer.Option("--no-symmetry", help="count a position and its mirror images apart")
    ] = False,
    side: Annotated[
        str,
        typer.Option(
            "--side", help="whose boxes: W or B for hexapawn (default B, HER's side), X or O for tictactoe (default X)"
        ),
    ] = "",
) -> None:
    """Count a matchbox learner's boxes and beads without playing (Gardner 1962: a box per position)."""
    from ..games import get_game
    from ..players.matchbox_tables import count_boxes

    try:
        game = get_game(game_name)
    except ValueError as error:
        fail(str(error))
    if game.name not in ("hexapawn", "tictactoe"):
        fail(f"the matchbox learners play hexapawn (her, him) and tictactoe (menace), not {game.name}")
    symbol = side.strip().upper() or game.symbols[1 if game.name == "hexapawn" else 0]
    if symbol not in game.symbols:
        fail(f"--side must be {' or '.join(game.symbols)} for {game.name}, not {side!r}")
    mover = game.symbols.index(symbol)
    mirror = "up to the mirror image" if game.name == "hexapawn" else "up to the 8 symmetries of the square"
    how = "every position counted apart" if no_symmetry else mirror
    if game.name == "hexapawn":
        count = count_boxes("hexapawn", mover, use_symmetry=not no_symmetry)
        console.print(
            f"hexapawn, {symbol} to move in a game not over ({how}): [bold]{count.boxes} boxes, {count.beads} beads[/bold], "
            f"{count.bad_beads} of them bad (after them the other side can force a win)"
        )
        return
    moves = count_boxes("tictactoe", mover, use_symmetry=not no_symmetry, min_choices=2)
    colours = count_boxes("tictactoe", mover, use_symmetry=not no_symmetry, min_choices=2, merge_colours=True)
    console.print(
        f"tictactoe, {symbol} to move with more than one choice ({how}): [bold]{moves.boxes} boxes[/bold], "
        f"{moves.beads} moves in them, [bold]{colours.beads} bead colours[/bold] (symmetric moves of a box's own "
        f"position are one colour), {colours.bad_beads} colours that lose against best play"
    )


def learner_app(kind: str) -> typer.Typer:
    """The sub-command ``kind``: without a sub-command it runs the experiment; export/import/show."""
    sub = typer.Typer(rich_markup_mode=HELP_MARKUP, no_args_is_help=False, invoke_without_command=True)
    is_menace = kind == "menace"

    if is_menace:

        @sub.callback(invoke_without_command=True)
        def menace_experiment(
            ctx: typer.Context,
            learners: Annotated[
                int,
                typer.Option("--learners", min=1, max=MAX_LEARNERS, help=f"fresh MENACEs per opponent; {SIZE_HELP}"),
            ] = 10,
            games: Annotated[
                int, typer.Option("--games", min=1, max=MAX_LEARNER_GAMES, help="games each MENACE plays")
            ] = 1000,
            against: Annotated[
                list[str] | None,
                typer.Option(
                    "--against",
                    help="random, perfect, self or sharp; repeat for several (default: random, perfect, self)",
                ),
            ] = None,
            side: Annotated[str, typer.Option("--side", help="X: MENACE moves first (Michie's), O: second")] = "X",
            beads: Annotated[
                str, typer.Option("--beads", help="beads per colour at its 1st, 2nd, ... move")
            ] = "4-3-2-1",
            win: Annotated[
                int,
                typer.Option("--win", min=-MAX_REWARD, max=MAX_REWARD, help="beads added per bead drawn after a win"),
            ] = 3,
            draw: Annotated[int, typer.Option("--draw", min=-MAX_REWARD, max=MAX_REWARD, help="after a draw")] = 1,
            loss: Annotated[
                int,
                typer.Option("--loss", min=-MAX_REWARD, max=MAX_REWARD, help="after a loss (negative: taken out)"),
            ] = -1,
            seed: Annotated[
                int, typer.Option("--seed", min=SEED_MIN, max=SEED_MAX, help="same seed, same games, same results")
            ] = 1,
            out: Annotated[Path | None, typer.Option("--out", metavar="DIR", help=OUT_HELP)] = None,
            chart: Annotated[
                bool, typer.Option("--chart/--no-chart", help="print the chart of one MENACE per opponent")
            ] = True,
            as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
            quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
        ) -> None:
            if ctx.invoked_subcommand is not None:
                return
            from ..players.matchbox import parse_beads

            try:
                bead_stages = parse_beads(beads)
            except ValueError as error:
                fail(f"--beads: {error}")
            if side.upper() not in ("X", "O"):
                fail(f"--side must be X or O, not {side!r}")
            run_menace_command(
                learners,
                games,
                against or list(MENACE_OPPONENTS),
                0 if side.upper() == "X" else 1,
                bead_stages,
                (win, draw, loss),
                seed,
                out,
                chart and not as_json,
                as_json,
                quiet,
            )

    else:

        @sub.callback(invoke_without_command=True)
        def her_experiment(
            ctx: typer.Context,
            learners: Annotated[
                int,
                typer.Option(
                    "--learners", min=1, max=MAX_LEARNERS, help=f"fresh {kind.upper()}s per opponent; {SIZE_HELP}"
                ),
            ] = 50,
            games: Annotated[
                int, typer.Option("--games", min=1, max=MAX_LEARNER_GAMES, help="games each one plays")
            ] = 200,
            against: Annotated[
                list[str] | None,
                typer.Option(
                    "--against", help="random or sharp (or perfect); repeat for several (default: random and sharp)"
                ),
            ] = None,
            side: Annotated[
                str, typer.Option("--side", help="B: the learner plays Black, second (Gardner's); W: White")
            ] = "B",
            seed: Annotated[
                int, typer.Option("--seed", min=SEED_MIN, max=SEED_MAX, help="same seed, same games, same results")
            ] = 1,
            out: Annotated[Path | None, typer.Option("--out", metavar="DIR", help=OUT_HELP)] = None,
            chart: Annotated[
                bool, typer.Option("--chart/--no-chart", help="print Gardner's chart of one learner per opponent")
            ] = True,
            as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
            quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
        ) -> None:
            if ctx.invoked_subcommand is not None:
                return
            if side.upper() not in ("W", "B"):
                fail(f"--side must be W or B, not {side!r}")
            run_her_command(
                kind,
                learners,
                games,
                against or ["random", "sharp"],
                seed,
                out,
                chart and not as_json,
                "WB".index(side.upper()),
                as_json,
                quiet,
            )

    from ..store.files import MissingFolderError
    from ..store.json_files import read_json_file, write_json_file

    @sub.command("export")
    def export(
        name: Annotated[str, typer.Argument(help=f"a {kind} kept in the store (player spec {kind}:name=NAME)")],
        path: Annotated[Path, typer.Argument(help="the JSON file to write (atomically)")],
    ) -> None:
        """Write a named learner's boxes to a JSON file."""
        store = open_store(readonly=True)
        player = stored_learner(kind, check_name("NAME", name), store)
        try:
            write_json_file(path, player.knowledge())
        except MissingFolderError as error:
            fail(str(error))
        except OSError as error:
            fail(f"cannot write {path}: {error.strerror or error}")
        except ValueError as error:  # a FIFO, a device, a socket or a folder: refused, nothing written
            fail(str(error))
        console.print(f"Exported {kind} [bold]{name}[/bold]: {len(player.boxes)} boxes to {path}.")

    @sub.command("import")
    def import_(
        path: Annotated[Path, typer.Argument(help="a JSON file written by export")],
        name: Annotated[
            str | None, typer.Option("--name", help="the name in the store (default: the file's name)")
        ] = None,
        replace: Annotated[
            bool, typer.Option("--replace", help="replace a learner of that name already in the store")
        ] = False,
    ) -> None:
        """Read boxes from a JSON file into the store; every box and bead is checked, a bad file changes nothing."""
        from ..keeper import Keeper

        store = open_store()
        target = check_name("--name", name or path.stem)
        player = make_learner(kind, target)
        try:
            player.load_payload(read_json_file(path), where=f"{path}: ")
            # the name is checked inside the write's transaction: of two imports, one wins
            Keeper(store).save(player, replace=replace)
        except ValueError as error:
            fail(str(error))
        console.print(f"Imported {len(player.boxes)} boxes from {path} as {kind} [bold]{target}[/bold].")

    @sub.command("show")
    def show(name: str = typer.Argument(..., help=f"a {kind} kept in the store")) -> None:
        """Print a named learner's boxes: each canonical board and its beads."""
        player = stored_learner(kind, check_name("NAME", name), open_store(readonly=True))
        table = Table(
            "box (canonical board)",
            "beads",
            title=f"{kind} {name}: {len(player.boxes)} boxes after {player.games_played} games",
        )
        for board, beads in sorted(player.boxes.items()):
            shown = (
                " ".join(f"{m}x{c}" for m, c in beads.items())
                if isinstance(beads, dict)
                else " ".join(beads) or "(empty: resigns)"
            )
            table.add_row(board, shown)
        console.print(table)

    return sub


def stored_learner(kind: str, name: str, store: Any) -> Any:
    """The learner kept in the store as ``name``; one line, exit 2, if there is none or it is
    damaged (the message then begins "KIND 'NAME' in the store:")."""
    from ..keeper import Keeper

    names = [n for _, n in store.list_learners(kind)]
    if name not in names:
        fail(f"no {kind} named {name!r} in the store (known: {', '.join(names) or 'none'})")
    player = make_learner(kind, name)
    try:
        Keeper(store).attach(player)
    except ValueError as error:
        fail(str(error))
    return player


def make_learner(kind: str, name: str) -> Any:
    from ..games import get_game
    from ..players.matchbox import HerPlayer, HimPlayer, MenacePlayer

    factory = {"her": HerPlayer, "him": HimPlayer, "menace": MenacePlayer}[kind]
    game = get_game("tictactoe" if kind == "menace" else "hexapawn")
    try:
        return factory(game, name=name)
    except ValueError as error:
        fail(str(error))


def check_opponents(against: list[str], valid: tuple[str, ...]) -> list[str]:
    chosen = []
    for opponent in against:
        if opponent not in valid:
            fail(f"--against: unknown opponent {opponent!r}; valid: {', '.join(valid)}")
        if opponent not in chosen:
            chosen.append(opponent)
    return chosen


def print_chart(title: str, record: str) -> None:
    from ..experiments.matchbox import chart

    console.print(f"\n{title}")
    for line in chart(record):
        console.print("  " + line, markup=False)


def save_and_plot(kind: str, result: dict[str, Any], folder: Path, title: str, as_json: bool) -> None:
    """Save the result in the store, then draw the learning curve into ``folder``: a plot that
    cannot be written (a full disk) costs the picture, never the run's figures.  With ``as_json``
    the result, its number in the store and the plot's path go to stdout as one JSON object."""
    from ..experiments.matchbox import plot_learning_curve
    from ..store.files import MissingFolderError

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


def check_size(learners: int, games: int) -> None:
    """A run keeps each learner's record (a letter a game) to draw its curves: learners x games
    letters an opponent.  Above MAX_GAMES_IN_ALL that is gigabytes and hours: refused in one line."""
    if learners * games > MAX_GAMES_IN_ALL:
        fail(
            f"--learners {learners:,} x --games {games:,} is {learners * games:,} games an opponent, more than "
            f"the {MAX_GAMES_IN_ALL:,} a run holds (each game's result is kept for the curves); give fewer"
        )


def run_her_command(
    kind: str,
    learners: int,
    games: int,
    against: list[str],
    seed: int,
    out: Path | None,
    chart: bool,
    side: int = 1,
    as_json: bool = False,
    quiet: bool = False,
) -> None:
    from ..experiments.matchbox import run_her

    opponents = check_opponents(against, ("random", "sharp", "perfect"))
    check_size(learners, games)
    if out is not None:
        output_dir(out, "plots")  # a --out folder that is not there is refused before the store is made
    check_store()  # the result is kept there: a store that cannot take it is named before the games
    folder = output_dir(out, "plots")
    runs = len(opponents) * (2 if kind == "him" else 1)  # HIM is compared with HER on the same games
    with progress_bar(err_console, "games", runs * learners * games, "games", quiet) as bar:
        result = run_her(kind, learners, games, opponents, seed, side=side, progress=bar.advance)
        if kind == "him":
            compare_with_her(result, learners, games, opponents, seed, side, quiet=True, progress=bar.advance)
    name = kind.upper()
    title = f"{name}: losses per game, {learners} learners, seed {seed}"
    if as_json:
        save_and_plot(kind, result, folder, title, as_json=True)
        return
    colour = ("White", "Black")[side]
    table = Table(
        "against",
        "most losses",
        "average",
        "good beads taken out",
        "bad beads taken out",
        "last loss (game)",
        title=f"{learners} fresh {name}s as {colour}, {games} games each, seed {seed}",
    )
    for item in result["opponents"]:
        table.add_row(
            item["opponent"].capitalize(),
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
    if chart:
        for item in result["opponents"]:
            letters = item["chart"]
            print_chart(
                f"Gardner's chart, {name} no. 1 against {item['opponent'].capitalize()} (W won, L lost; ten games a line): "
                f"lost {letters.count('L')} of {games}, the last loss in game {letters.rfind('L') + 1}",
                letters,
            )
    save_and_plot(kind, result, folder, title, as_json=False)


def compare_with_her(
    him: dict[str, Any],
    learners: int,
    games: int,
    opponents: list[str],
    seed: int,
    side: int,
    quiet: bool = False,
    progress: Callable[[int], None] | None = None,
) -> None:
    """The classroom page's question: does HIM lose more games than HER, or fewer?  The same seeds for both."""
    from ..experiments.matchbox import run_her

    her = run_her("her", learners, games, opponents, seed, side=side, progress=progress)
    him["her_for_comparison"] = [
        {"opponent": t["opponent"], "average_losses": t["average_losses"], "most_losses": t["most_losses"]}
        for t in her["opponents"]
    ]
    if not quiet:
        tell_him_against_her(him)


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
    learners: int,
    games: int,
    against: list[str],
    side: int,
    beads: tuple[int, ...],
    rewards: tuple[int, int, int],
    seed: int,
    out: Path | None,
    chart: bool,
    as_json: bool = False,
    quiet: bool = False,
) -> None:
    from ..experiments.matchbox import run_menace

    opponents = check_opponents(against, ("random", "perfect", "self", "sharp"))
    check_size(learners, games)
    if out is not None:
        output_dir(out, "plots")  # a --out folder that is not there is refused before the store is made
    check_store()  # the result is kept there: a store that cannot take it is named before the games
    folder = output_dir(out, "plots")
    with progress_bar(err_console, "games", len(opponents) * learners * games, "games", quiet) as bar:
        result = run_menace(
            learners, games, opponents, seed, side=side, beads=beads, rewards=rewards, progress=bar.advance
        )
    symbol = "XO"[side]
    title = f"MENACE as {symbol}: losses per game, {learners} learners, seed {seed}"
    if as_json:
        save_and_plot("menace", result, folder, title, as_json=True)
        return
    window = result["opponents"][0]["window"]
    table = Table(
        "against",
        "wins",
        "draws",
        "losses",
        f"loss rate, first {window}",
        f"loss rate, last {window}",
        f"draw rate, last {window}",
        "boxes opened",
        title=f"{learners} fresh MENACEs as {symbol}, {games} games each, seed {seed}: one MENACE on average",
    )
    for item in result["opponents"]:
        table.add_row(
            item["opponent"],
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
        f"{rewards[0]:+d}, {rewards[1]:+d}, {rewards[2]:+d}."
    )
    counted = result["boxes_counted"]
    console.print(
        f"MENACE's boxes as {symbol}, counted without playing: {counted['boxes']} boxes, {counted['colours']} bead colours."
    )
    console.print("In self-play one MENACE plays both sides; its letters are X's results.")
    if chart:
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
