"""``gamelearn solve GAME`` and ``gamelearn analyze GAME [MOVES...]`` (issue 4): the exact solutions,
the Teeko table's build with a progress bar, and the grade of every move of a position.  Parsing and
rendering only: the solving lives in gamelearn.solve."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..games import GAME_NAMES, Game, IllegalMove, get_game
from ..solve import Solution, solve
from .common import console, err_console, fail, print_json

GameArgument = Annotated[str, typer.Argument(metavar="GAME", help=f"one of {', '.join(GAME_NAMES)}")]


def _game(name: str) -> Game:
    try:
        return get_game(name)
    except ValueError as error:
        fail(str(error))


def describe(game: Game, mover: int, value: int, distance: int | None) -> str:
    """The value in words, from the view of the side to move."""
    side, other = game.symbols[mover], game.symbols[1 - mover]
    if value > 0:
        return f"{side} (to move) wins in {plies(distance)} with best play"
    if value < 0:
        if distance == 0:
            return f"{other} has won"
        return f"{side} (to move) loses in {plies(distance)} with best play"
    return "a draw with best play"


def plies(count: int | None) -> str:
    return f"{count} {'ply' if count == 1 else 'plies'}"


def _census_table(census: dict[str, int], title: str) -> Table:
    table = Table("outcome for the side to move", "positions", title=title)
    for key in ("won", "drawn", "lost", "finished", "impossible"):
        if key in census:
            table.add_row(key, f"{census[key]:,}")
    return table


def _build_teeko(path: Path) -> dict[str, Any]:
    from ..solve.teeko import build_table
    from ..solve.variant import teeko

    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=err_console, transient=False) as progress:
        tasks: dict[str, TaskID] = {}

        def report(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = progress.add_task(stage, total=total)
            label = f"{stage} (distance {done})" if stage == "retrograde analysis" else stage
            progress.update(tasks[stage], completed=done, total=total, description=label)

        return build_table(teeko(), path, report)


def _solve_teeko_command(game: Game, stats: bool, force: bool, path: Path | None, verify: bool, as_json: bool) -> None:
    from ..solve.table import TableError
    from ..solve.teeko import default_path, solve_teeko

    target = path or default_path()
    built = None
    if not force:
        try:
            solution = solve_teeko(game, path=target)
        except TableError as error:
            if stats:  # the census of a table that is not there: say how to build it
                fail(str(error))
            err_console.print(f"{str(error).split(';')[0]}: building it.", markup=False)
            force = True
    if force:
        built = _build_teeko(target)
        solution = solve_teeko(game, path=target)
    _print_teeko(solution, target, built, stats, as_json)
    if verify:
        _verify_teeko(solution)


def _verify_teeko(solution: Any) -> None:
    from ..solve.table import check_moving

    with err_console.status("checking every stored moving-phase position against its moves"):
        wrong = check_moving(solution.variant, solution.layers)
    if wrong:
        fail(
            f"the table is inconsistent: {wrong} stored positions are not the best of their moves; rebuild it with --force"
        )
    console.print("Checked: every stored moving-phase position is the best of its moves.")


def _print_teeko(solution: Any, path: Path, built: dict[str, Any] | None, stats: bool, as_json: bool) -> None:
    """The table and the start's value; with ``stats`` the moving phase's census too."""
    game = solution.game
    value, distance = solution.outcome(game.initial())
    size = path.stat().st_size
    firsts = {solution.outcome(game.play(game.initial(), move)) for move in game.legal_moves(game.initial())}
    if as_json:
        report: dict[str, Any] = {
            "game": game.name,
            "table": str(path.absolute()),
            "table_bytes": size,
            "built_seconds": built["total_seconds"] if built else None,
            "start_value": value,
            "start_distance": distance,
            "first_placements": sorted([list(outcome) for outcome in firsts], key=str),
        }
        if stats:
            report["census"] = solution.census().to_dict()
        print_json(report)
        return
    if built:
        console.print(
            f"Built the Teeko table in {built['total_seconds']:.1f} s: {path} ({size / 1e6:.1f} MB)", markup=False
        )
    else:
        console.print(f"Teeko table: {path} ({size / 1e6:.1f} MB, checksum verified)", markup=False)
    console.print(f"The start: {describe(game, 0, value, distance)}.")
    console.print(f"The 25 first placements: {'all draws' if firsts == {(0, None)} else sorted(firsts, key=str)}.")
    if not stats:
        console.print("The census of the moving phase: gamelearn solve teeko --stats", markup=False)
        return
    census = solution.census()
    console.print(_census_table(census.to_dict(), "The moving phase, 4 pawns each"))
    total = census.won + census.drawn + census.lost
    console.print(f"Non-terminal arrangements: {total:,}; longest forced win: {census.longest_win} plies.")


def _solve_small(solution: Solution, stats: bool, as_json: bool) -> None:
    facts = solution.summary()
    game = solution.game
    if as_json:
        census = {key: facts[key] for key in ("won", "drawn", "lost", "finished") if key in facts}
        report = {key: facts[key] for key in ("game", "start_value", "start_distance", "positions")}
        if stats:
            report.update(census=census, longest_forced_win=facts["longest_forced_win"])
        print_json(report)
        return
    console.print(
        f"{game.name}: solved by exhaustive search over {facts['positions']:,} positions reachable from the start."
    )
    console.print(f"The start: {describe(game, 0, facts['start_value'], facts['start_distance'])}.")
    if not stats:
        console.print(f"The census of those positions: gamelearn solve {game.name} --stats", markup=False)
        return
    console.print(_census_table(facts, "Positions reachable from the start"))
    console.print(f"Longest forced win: {plies(facts['longest_forced_win'])}.")


def solve_command(
    game_name: GameArgument,
    stats: Annotated[
        bool, typer.Option("--stats", help="also print the census: positions won, drawn, lost for the side to move")
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="rebuild the Teeko table even if a good one exists")] = False,
    table: Annotated[
        Path | None, typer.Option("--table", help="the Teeko table file (default: in the data directory)")
    ] = None,
    verify: Annotated[
        bool, typer.Option("--verify", help="Teeko: check every stored position against its moves (about 20 s)")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="print the result as one JSON object on stdout (progress on stderr)")
    ] = False,
) -> None:
    """Solve GAME exactly.  Teeko: build its table (retrograde analysis, about 20 s) into the data directory."""
    game = _game(game_name)
    if game.name == "teeko":
        _solve_teeko_command(game, stats, force, table, verify, as_json)
        return
    if table is not None or force or verify:
        fail(f"--table, --force and --verify are for Teeko's table; {game.name} is solved on the spot")
    _solve_small(solve(game), stats, as_json)


def _solution_or_fail(game: Game) -> Solution:
    try:
        return solve(game)
    except ValueError as error:
        fail(str(error))


def analyze_command(
    game_name: GameArgument,
    moves: Annotated[
        list[str] | None, typer.Argument(metavar="[MOVES]...", help="moves from the start, in the game's notation")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON for programs")] = False,
) -> None:
    """The position after MOVES: its value and distance with best play, and the grade of every legal move."""
    game = _game(game_name)
    state = game.initial()
    played = list(moves or [])
    for number, move in enumerate(played, start=1):
        try:
            state = game.play(state, move)
        except IllegalMove as error:
            fail(f"move {number} {move!r}: {error.reason}")
    solution = _solution_or_fail(game)
    mover = game.to_move(state)
    value, distance = solution.outcome(state)
    rows = solution.analyze(state)
    best = [row.move for row in rows if row.grade.value == "best"]
    if as_json:
        winner = game.winner(state)
        report = {
            "game": game.name,
            "moves": played,
            "board": game.board(state),
            "to_move": game.symbols[mover],
            "over": game.is_over(state),
            "winner": None if winner is None else game.symbols[winner],
            "value": value,
            "distance": distance,
            "best_moves": best,
            "analysis": [row.to_dict() for row in rows],
        }
        print_json(report)
        return
    console.print(game.render(state), markup=False)
    console.print(f"{game.symbols[mover]} to move: {describe(game, mover, value, distance)}.", markup=False)
    if not rows:
        console.print("The game is over.")
        return
    table = Table("move", f"result for {game.symbols[mover]}", "plies", "grade")
    words = {1: "win", 0: "draw", -1: "loss"}
    for row in rows:
        table.add_row(row.move, words[row.value], "" if row.distance is None else str(row.distance), row.grade.value)
    console.print(table)


def register(app: typer.Typer) -> None:
    app.command("solve")(solve_command)
    app.command("analyze")(analyze_command)
