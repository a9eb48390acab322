"""``gamelearn tournament GAME SPEC SPEC [SPEC...]``: a round robin between player specs, with a
progress bar, a crosstable and a standings table, saved to the store.  Parsing and rendering only:
the tournament lives in gamelearn.experiments.tournament."""

from __future__ import annotations

import time
from typing import Annotated

import typer
from rich import box
from rich.table import Table

from ..experiments import api
from ..experiments.api import Sprt, TournamentInterrupted, TournamentOptions, TournamentResult
from ..games import Game, get_game
from ..store.store import Store
from .common import (
    GAME_HELP,
    MAX_WORKERS,
    SEED_MAX,
    SEED_MIN,
    check_store,
    complete_game,
    console,
    err_console,
    fail,
    print_json,
    room_left,
    spec_column,
    title_fits,
)
from .grading import grades_table
from .progress import QUIET_HELP, progress_bar
from .stops import kept_when_stopped

#: The most games a pair plays.
MAX_PAIR_GAMES = 1_000_000
#: The most plies --max-plies allows.
MAX_PLIES_LIMIT = 100_000

SUITE_LEGEND = (
    "The suite: each player as given (a learner as it starts), frozen and greedy, on the game's "
    "positions where a move loses value; keeps: its move keeps the value; blund.: a win or a draw "
    "thrown to a loss. Graded with the tournament's seed, as `gamelearn grade {game} SPEC --seed "
    "{seed}` grades it: a player that draws at random (random, MENACE's beads, MCTS) keeps a share "
    "that moves with the seed, so `gamelearn grade` (seed 0 unless given) can differ by a few tenths."
)
RATING_LEGEND = "rating: Bradley-Terry, player 1 = 1500, the anchor; its 95% CI bootstraps over game pairs."
GRADES_LEGEND = (
    "best: the share of moves perfect play would make; mist.: mistakes (a win thrown to a draw, "
    "or a draw to a loss); blun.: blunders (a win thrown to a loss)."
)


def crosstable(result: TournamentResult) -> Table:
    """Row player's wins-draws-losses against each column player."""
    table = title_fits(Table(title=f"{result.game}: row's W-D-L against column", box=box.SIMPLE_HEAD))
    # a long spec breaks after a ':' or a ',' where the console has no room for it; the results never wrap
    grid = [
        ["-" if i == j else "{}-{}-{}".format(*result.pair(i, j)) for j in range(len(result.specs))]
        for i in range(len(result.specs))
    ]
    others = [[str(j + 1), *(row[j] for row in grid)] for j in range(len(result.specs))]
    names = [f"{i + 1} {spec}" for i, spec in enumerate(result.specs)]
    players = spec_column(table, "player", names, width=room_left(others))
    for index in range(len(result.specs)):
        table.add_column(str(index + 1), justify="center", no_wrap=True)
    for player, cells in zip(players, grid, strict=True):
        table.add_row(player, *cells)
    return table


def standings_table(result: TournamentResult) -> Table:
    """Players by rating: W-D-L, score with its 95% interval over game pairs, rating with its
    bootstrap interval, and the grades of their moves.  It fits 80 columns: the figures never wrap
    or shrink, a long player spec folds."""
    games = {s.games for s in result.standings}
    each = f", {games.pop()} games each" if len(games) == 1 else ""
    table = Table(
        title=f"standings{each}; 95% CIs over game pairs",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    headers = ["W-D-L", "score", "95% CI", "rating"]  # points = wins + draws/2: in the score, and the JSON
    if result.graded:  # no room at 80 columns for the rating's interval too: rating_line has it
        headers += ["best", "mist.", "blun."]
    else:
        headers += ["95% CI"]
    order = sorted(range(len(result.specs)), key=lambda i: -result.standings[i].rating)
    rows = {}
    for i in order:
        s = result.standings[i]
        low, high = s.interval
        row = [f"{s.wins}-{s.draws}-{s.losses}", f"{100 * s.score:.1f}%", f"{100 * low:.0f}-{100 * high:.0f}%"]
        row.append(f"{s.rating:.0f}")
        if result.graded and s.grades is not None:
            share = s.best_share
            row += ["-" if share is None else f"{100 * share:.1f}%", str(s.grades["mistake"]), str(s.grades["blunder"])]
        elif not result.graded:
            row.append(rating_interval(result, i))
        rows[i] = row
    columns = [[str(i + 1) for i in order]] + [[h, *(rows[i][k] for i in order)] for k, h in enumerate(headers)]
    table.add_column("#", justify="right", no_wrap=True)
    # a long spec breaks after a ':' or a ',' where the console has no room for it; the figures never wrap
    players = spec_column(table, "player", list(result.specs), width=room_left(columns, per_column=2))
    for name in headers:
        table.add_column(name, justify="right", no_wrap=True)
    for i in order:
        table.add_row(str(i + 1), players[i], *rows[i])
    return table


def rating_interval(result: TournamentResult, index: int) -> str:
    """A rating's bootstrap interval as text; "-" for player 1, the anchor, whose rating is fixed."""
    if index == 0:
        return "-"
    low, high = result.standings[index].rating_interval
    return f"{low:.0f}-{high:.0f}"


def rating_line(result: TournamentResult) -> str:
    """The ratings' 95% intervals in one line, for the graded table, which has no room for them."""
    order = sorted(range(1, len(result.specs)), key=lambda i: -result.standings[i].rating)
    parts = ", ".join(f"{i + 1} {rating_interval(result, i)}" for i in order)
    return f"rating: Bradley-Terry, player 1 = 1500, the anchor; 95% CIs (bootstrap over game pairs): {parts}."


def pairs_table(result: TournamentResult) -> Table:
    """Each pair of specs' game pairs (one opening, both colours): the pentanomial of the first
    spec's points of 2, its score over the pairs with the t interval, and its different games."""
    table = Table(
        title="game pairs (both colours): first player's points of 2",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column("players", overflow="fold", min_width=8)
    for name in ("pairs", "0", "½", "1", "1½", "2", "score", "95% CI", "different"):
        table.add_column(name, justify="right", no_wrap=True)
    for pair in result.pairs:
        low, high = pair.pair_interval
        table.add_row(
            f"{pair.first + 1} - {pair.second + 1}",
            str(pair.pairs),
            *(str(count) for count in pair.pentanomial),
            f"{100 * pair.pair_score:.1f}%" if pair.pairs else "-",
            f"{100 * low:.0f}-{100 * high:.0f}%" if pair.pairs else "-",
            f"{pair.distinct}/{pair.games}",
        )
    return table


def openings_line(result: TournamentResult) -> str:
    """What the games started from, in one line."""
    book = result.book
    if not book.used:
        return book.note or "openings: none, every game from the start (games 2m and 2m+1 are a pair)."
    kind = (
        f"the balanced book of {result.game}, {book.plies} plies deep ({book.size} drawn positions, one a symmetry class)"
        if book.mode == "balanced"
        else f"a given book of {book.size}"
    )
    return f"openings: {kind}; {len(book.used)} used, each played with both colours."


def sprt_line(result: TournamentResult) -> str:
    """The sequential test's state, in one line."""
    test = result.sprt
    assert test is not None
    verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no decision"}[test["decision"]]
    return (
        f"SPRT H0: Elo {test['elo0']:g} against H1: Elo {test['elo1']:g} (pentanomial GSPRT, logistic Elo, "
        f"alpha {test['alpha']:g}, beta {test['beta']:g}): LLR {test['llr']:.2f} in "
        f"[{test['lower']:.2f}, {test['upper']:.2f}] after {test['pairs']} pairs: {verdict}."
    )


def parse_sprt(text: str) -> Sprt:
    """``--sprt ELO0,ELO1`` (alpha = beta = 0.05); ValueError, one line."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        elo0, elo1 = (float(part) for part in parts)
    except ValueError:
        raise ValueError(f"--sprt: {text!r} is not ELO0,ELO1 (two numbers, e.g. 0,100)") from None
    try:
        return Sprt(elo0, elo1)
    except ValueError as error:
        raise ValueError(f"--sprt: {error}") from None


def repeat_notes(result: TournamentResult) -> list[str]:
    """A line for each pair that played most of its games more than once: its intervals assume
    independent game pairs.  (Every pair's count of different games is in the pairs table.)"""
    notes = []
    for pair in result.pairs:
        if pair.games > 1 and 2 * pair.distinct < pair.games:
            first, second = result.specs[pair.first], result.specs[pair.second]
            notes.append(
                f"{first} - {second}: {pair.distinct} different games in {pair.games}; the players "
                "chose alike in the rest, so the 95% CIs, which count every game pair as independent, "
                "are too narrow."
            )
    return notes


def register(app: typer.Typer) -> None:
    app.command("tournament")(tournament)


def tournament(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP, autocompletion=complete_game)],
    specs: Annotated[list[str], typer.Argument(metavar="SPEC SPEC [SPEC...]", help="player specs, at least two")],
    games: Annotated[
        int,
        typer.Option(
            "--games",
            min=1,
            max=MAX_PAIR_GAMES,
            help="games per pair of players, colours alternating; with a book, 2 an opening",
        ),
    ] = TournamentOptions.games,
    seed: Annotated[
        int,
        typer.Option("--seed", min=SEED_MIN, max=SEED_MAX, help="seed of every game (same seed, same tournament)"),
    ] = TournamentOptions.seed,
    max_plies: Annotated[
        int, typer.Option("--max-plies", min=1, max=MAX_PLIES_LIMIT, help="ply limit; reaching it is a draw")
    ] = TournamentOptions.max_plies,
    grade: Annotated[
        bool, typer.Option("--grade", help="grade every move against the perfect player")
    ] = TournamentOptions.grade,
    workers: Annotated[
        int | None, typer.Option("--workers", min=1, max=MAX_WORKERS, help="local processes (1: in this process)")
    ] = None,
    dask: Annotated[
        str | None, typer.Option("--dask", metavar="ADDRESS|local", help="run the pairs on a Dask cluster")
    ] = None,
    openings: Annotated[
        str | None,
        typer.Option(
            "--openings",
            metavar="balanced[:plies=K]|none",
            help="start each game pair from a drawn position K plies in, one per symmetry class "
            "(default: balanced, where the game has such positions), or from the start",
        ),
    ] = None,
    sprt: Annotated[
        str | None,
        typer.Option(
            "--sprt",
            metavar="ELO0,ELO1",
            help="two players only: stop when the pentanomial GSPRT accepts Elo ELO0 or ELO1 "
            "(logistic Elo of the first over the second; alpha = beta = 0.05), or after --games",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON (tables go away)")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
) -> None:
    """A round robin between player SPECs: each pair plays --games games, every game seeded, every
    move graded against the perfect player with --grade; the result is saved to the store."""
    try:
        game = get_game(game_name)
    except ValueError as error:
        fail(str(error))
    try:  # every bad argument is refused before the progress bar shows
        test = None if sprt is None else parse_sprt(sprt)
        options = TournamentOptions(
            game, specs, games, "auto" if openings is None else openings, seed, max_plies, grade, test, workers, dask
        )
        options.check()
    except ValueError as error:
        fail(str(error))
    check_store()  # the result is kept there: a store that cannot be opened is named before any game
    started = time.perf_counter()
    total = options.total_games
    # progress on stderr, so that stdout holds the result alone (the tables, or the JSON)
    with progress_bar(err_console, "games", total, "games", quiet) as progress:
        with kept_when_stopped(progress, lambda stopped: kept_when_interrupted(stopped, total)):
            try:
                result = api.tournament(options, progress=progress.advance)
            except ValueError as error:
                fail(str(error))
    seconds = time.perf_counter() - started
    payload = result.to_dict()
    payload["seconds"] = round(seconds, 3)
    payload["runner"] = f"dask {dask}" if dask else f"{workers or api.default_workers()} worker(s)"
    with Store() as store:
        number = store.save_result("tournament", payload)
    if as_json:
        print_json(payload)
        return
    print_tables(game, result, grade)
    console.print(
        f"{len(result.games)} games in {seconds:.1f} s ({payload['runner']}); saved to the store as result {number}."
    )


def kept_when_interrupted(stopped: KeyboardInterrupt, total: int) -> str:
    """^C or SIGTERM: every finished game of the ``total`` is kept in the store; what was kept, in
    a sentence."""
    if not isinstance(stopped, TournamentInterrupted):
        return f"Interrupted: 0 of {total} games had finished; nothing to keep"
    kept = "nothing to keep"
    if stopped.games:
        payload = stopped.result.to_dict()
        payload["stopped"] = str(stopped)
        with Store() as store:
            number = store.save_result("tournament", payload)
        kept = f"they are kept: tournament result {number} in the store (marked stopped)"
    return (
        f"Interrupted: {stopped.games} of {total} games had finished ({stopped.pairs} of "
        f"{stopped.total} pairs whole); {kept}"
    )


def print_tables(game: Game, result: TournamentResult, grade: bool) -> None:
    """The crosstable, the standings, the pairs, the openings, and what each needs said about it."""
    console.print(crosstable(result))
    console.print(title_fits(standings_table(result)))
    if grade:
        console.print(rating_line(result), markup=False)
    else:  # the interval is in the table
        console.print(RATING_LEGEND, markup=False)
    console.print(title_fits(pairs_table(result)))
    console.print(openings_line(result), markup=False)
    if result.sprt is not None:
        console.print(sprt_line(result), markup=False)
    if grade:
        console.print(GRADES_LEGEND)
    if result.suite_grades:
        console.print(grades_table(api.get_suite(game), list(result.suite_grades)))
        console.print(SUITE_LEGEND.format(game=game.spec, seed=result.seed), markup=False)
    forfeits = sum(g.end == "forfeit" for g in result.games)
    if forfeits:
        console.print(
            f"{forfeits} games lost by forfeit: a player would have looped for ever (the original thesis "
            "program's opening in a position it never foresaw; see docs/tournament.md).",
            markup=False,
        )
    for line in repeat_notes(result):
        console.print(line, markup=False)
