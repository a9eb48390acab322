"""``gamelearn solve GAME`` and ``gamelearn analyze GAME [MOVES...]``: the exact solutions,
the Teeko table's build with a progress bar, and the grade of every move of a position.  Parsing and
rendering only: the solving lives in gamelearn.solver."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..files import atomic_write_bytes, read_regular_file
from ..games import Game, IllegalMove, get_game
from ..games.base import shown_text
from ..games.teeko_forms import GOALS
from ..solver import Solution, solve
from ..solver.forms import markdown, replace_section, solve_forms
from ..solver.paths import table_path
from ..solver.table import TableError, check_moving, check_room, clear_stale_temporaries, table_size
from ..solver.teeko import build_table, default_path, solve_teeko, variant_of
from .common import GAME_HELP, MAX_WORKERS, complete_game, console, err_console, fail, print_json, title_fits
from .progress import progress_bar
from .stops import kept_when_stopped

if TYPE_CHECKING:
    from ..solver.connect4.book import Book

GameArgument = Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP, autocompletion=complete_game)]


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
    table = title_fits(Table("outcome for the side to move", "positions", title=title))
    for key in ("won", "drawn", "lost", "finished", "impossible"):
        if key in census:
            table.add_row(key, f"{census[key]:,}")
    return table


def _progress_columns() -> tuple[Any, ...]:
    return (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )


def _build_teeko(game: Game, path: Path) -> dict[str, Any]:
    with Progress(*_progress_columns(), console=err_console, transient=False) as progress:
        tasks: dict[str, TaskID] = {}

        def report(stage: str, done: int, total: int) -> None:
            # Every stage knows its total from its first report (the retrograde analysis counts
            # the arrangements it has settled out of all of them), so each bar's fraction is true.
            if stage not in tasks:
                tasks[stage] = progress.add_task(stage, total=total)
            progress.update(tasks[stage], completed=done, total=total)

        return build_table(variant_of(game), path, report)


def _solve_teeko_command(game: Game, stats: bool, force: bool, path: Path | None, verify: bool, as_json: bool) -> None:
    target = path or default_path(game)
    clear_stale_temporaries(target)  # what a build killed while it wrote left behind
    built = None
    missing = ""
    if not force:
        try:
            solution = solve_teeko(game, path=target)
        except TableError as error:
            if stats:  # the census of a table that is not there: say how to build it
                fail(str(error))
            missing, force = str(error).split(";")[0], True
    if force:
        try:  # a folder that cannot take the table: one line, before the build
            check_room(target, table_size(variant_of(game)))
        except TableError as error:
            fail(str(error))
        if missing:
            err_console.print(f"{missing}: building it.", markup=False)
        built = _build_teeko(game, target)
        solution = solve_teeko(game, path=target)
    _print_teeko(solution, target, built, stats, as_json)
    if verify:
        _verify_teeko(solution)


def _verify_teeko(solution: Any) -> None:
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
    start = game.initial()
    mover = game.to_move(start)  # who chooses the first square (O in an Alternate first round)
    value, distance = solution.outcome(start)
    size = path.stat().st_size
    firsts = {solution.result_of(start, move) for move in game.legal_moves(start)}
    title = "Teeko" if game.spec == "teeko" else game.spec
    if as_json:
        report: dict[str, Any] = {
            "game": game.spec,
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
        shared = f", moving phase from {built['moving_from']}" if built.get("moving_from") else ""
        console.print(
            f"Built the {title} table in {built['total_seconds']:.1f} s{shared}: {path} ({size / 1e6:.1f} MB)",
            markup=False,
        )
    else:
        console.print(f"{title} table: {path} ({size / 1e6:.1f} MB, checksum verified)", markup=False)
    if game.spec != "teeko":
        console.print(f"The form: {game.form.describe()}.", markup=False)
    console.print(f"The start: {describe(game, mover, value, distance)}.")
    chooser = "" if mover == 0 else f" (for {game.symbols[mover]}, who chooses)"
    console.print(f"The {len(game.legal_moves(start))} first placements{chooser}: {first_words(solution, start)}.")
    if not stats:
        spec = game.spec if ":" not in game.spec else f'"{game.spec}"'
        console.print(f"The census of the moving phase: gamelearn solve {spec} --stats", markup=False)
        return
    census = solution.census()
    console.print(_census_table(census.to_dict(), "The moving phase, 4 pawns each"))
    total = census.won + census.drawn + census.lost
    console.print(f"Non-terminal arrangements: {total:,}; longest forced win: {census.longest_win} plies.")


def first_words(solution: Any, start: Any) -> str:
    """The first moves' results in words, from the view of the side that chooses them:
    'all draws', or '12 draws, 13 win in 13 plies'."""
    game = solution.game
    counts: dict[tuple[int, int | None], int] = {}
    for move in game.legal_moves(start):
        outcome = solution.result_of(start, move)
        counts[outcome] = counts.get(outcome, 0) + 1
    if set(counts) == {(0, None)}:
        return "all draws"
    words = {1: ("win", "wins"), 0: ("draw", "draws"), -1: ("loss", "losses")}
    parts = []
    for (value, distance), count in sorted(counts.items(), key=lambda item: (-item[0][0], item[0][1] or 0)):
        word = words[value][count != 1]
        parts.append(f"{count} {word}" + ("" if distance is None else f" in {plies(distance)}"))
    return ", ".join(parts)


def _solve_forms_command(game: Game, keep: bool, doc: Path | None) -> None:
    """Steele's table: the 2 goal sets x 8 drop patterns x 2 centre rules of Scarne's book."""
    steps = game.form.steps  # type: ignore[attr-defined]
    folder = table_path("teeko").parent
    # the two forms one plays (standard and Advanced Teeko) are kept unless there; --keep: all 32
    defaults = [get_game(f"teeko:goals={goals},steps={steps}").spec for goals in GOALS]
    with progress_bar(err_console, "solving the forms", 32, "forms") as progress:

        def report(spec: str, done: int, total: int) -> None:
            # a bar names the last form solved; plain lines (off a terminal) keep their one label
            progress.set(done, total=total, description=f"solved {spec}" if progress.rich is not None else None)

        result = solve_forms(steps=steps, report=report, keep=folder, keep_only=None if keep else set(defaults))
    table = Table(
        "goals",
        "drops",
        "centre",
        "solved (X's view)",
        "published (Steele)",
        "agrees",
        title=f"The forms of Teeko ({steps} steps): {result.total_seconds:.1f} s, {result.cpu_seconds:.1f} s of CPU",
    )
    for row in result.results:
        published = row.published[1].replace("first-player win", "X wins") if row.published else "not found"
        agrees = {True: "yes", False: "NO", None: "-"}[row.agrees]
        solved = row.words().replace("first-player win", "X wins").replace("second-player win", "O wins")
        table.add_row(row.goals, row.drops, row.centre, solved, published, agrees)
    console.print(title_fits(table))
    for goals, census in result.census.items():
        title = f"Moving phase census, {goals} goals ({census.longest_win} plies the longest forced win)"
        console.print(_census_table(census.to_dict(), title))
    if keep:
        console.print(f"Kept every form's table in {folder}.", markup=False)
    else:
        named = " and ".join(f'"{spec}"' if ":" in spec else spec for spec in defaults)
        console.print(
            f"Kept the tables of {named} in {folder} (13 MB each), for perfect play and grading; "
            "--keep keeps all 32 (about 420 MB).",
            markup=False,
        )
    if doc is not None:
        command = "gamelearn solve teeko --variants" + (f" (steps={steps})" if steps != "king" else "")

        try:  # through the one writer of files: whole or not at all, never over a FIFO or device
            text = read_regular_file(doc, 16 * 1024 * 1024, "a Markdown page").decode() if doc.exists() else ""
            updated = replace_section(text, markdown(result, command))
            atomic_write_bytes(doc, updated.encode())
        except OSError as error:
            fail(f"--doc {doc}: {error.strerror or error}")
        except ValueError as error:  # a FIFO, a device or a folder; a missing folder
            fail(f"--doc: {error}")
        console.print(f"Wrote the table into {doc}.", markup=False)
    disagreements = [row.spec for row in result.results if row.agrees is False]
    if disagreements:
        fail(f"these forms disagree with the published values: {', '.join(disagreements)}")


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
    variants: Annotated[
        bool,
        typer.Option(
            "--variants",
            help="Teeko: solve the 32 forms of Scarne's book (2 goal sets x 8 drop patterns x 2 centre rules)",
        ),
    ] = False,
    keep: Annotated[bool, typer.Option("--keep", help="with --variants: keep every form's table (13 MB each)")] = False,
    doc: Annotated[
        Path | None, typer.Option("--doc", help="with --variants: write the table into this Markdown file")
    ] = None,
    plies: Annotated[
        int | None,
        typer.Option(
            "--plies", min=0, max=12, help="Connect Four: the plies its opening book covers (built with --force)"
        ),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", min=1, max=MAX_WORKERS, help="Connect Four's book: local processes (default: the CPUs)"
        ),
    ] = None,
    dask: Annotated[
        str | None,
        typer.Option("--dask", metavar="ADDRESS|local", help="Connect Four's book: search it on a Dask cluster"),
    ] = None,
) -> None:
    """Solve GAME exactly.  Teeko, in any form: build its table (retrograde analysis, about 20 s of
    CPU) into the data directory; --variants: every form of Scarne's book, beside Steele's published
    results; Connect Four: build its opening book (--plies), searched by the project's solver."""
    game = _game(game_name)
    if game.name == "connect4":
        if variants or keep or doc is not None or verify or stats:
            fail("connect4 takes --plies, --force, --table, --workers, --dask and --json")
        _solve_connect4_command(game, plies, force, table, as_json, workers, dask)
        return
    if plies is not None or workers is not None or dask is not None:
        fail("--plies, --workers and --dask are for Connect Four's opening book")
    if variants:
        if game.name != "teeko":
            fail(f"--variants is for Teeko's forms, not {game.name}")
        if game.spec not in ("teeko", "teeko:steps=knight"):
            fail(f"--variants solves every goal set, drop pattern and centre rule; name only steps=, not {game.spec}")
        if stats or force or table is not None or verify or as_json:
            fail("--variants takes --keep and --doc only")
        _solve_forms_command(game, keep, doc)
        return
    if keep or doc is not None:
        fail("--keep and --doc go with --variants")
    if game.name == "teeko":
        _solve_teeko_command(game, stats, force, table, verify, as_json)
        return
    if table is not None or force or verify:
        fail(f"--table, --force and --verify are for Teeko's table; {game.name} is solved on the spot")
    _solve_small(_solution_or_fail(game), stats, as_json)


#: The plies of Connect Four's book when --plies is not given: the positions before ply 8, where
#: the search takes more than a second (docs/connect4.md: what it costs).
CONNECT4_BOOK_PLIES = 7


def _solve_connect4_command(
    game: Game,
    plies: int | None,
    force: bool,
    path: Path | None,
    as_json: bool,
    workers: int | None = None,
    dask: str | None = None,
) -> None:
    """Connect Four's opening book: loaded where built (and the same plies asked for), else built
    with a progress bar, its deepest ply searched by ``workers`` processes (or on Dask), then the
    start's value and the first moves' values."""
    # `gamelearn solve connect4` alone: its compiled search would bring numba (0.2 CPU s) to every command
    from ..experiments.runners import check_workers, max_workers
    from ..solver.connect4 import Connect4Solution, fits
    from ..solver.connect4.book import book_path, load_book, partial_path, read_partial

    workers = workers or max_workers()
    try:
        check_workers(workers, dask)
    except ValueError as error:
        fail(str(error))

    if not fits(game.columns, game.rows):  # type: ignore[attr-defined]
        fail(str(_solution_error(game)))
    target = path or book_path(game.columns, game.rows)  # type: ignore[attr-defined]
    try:  # the data directory's book or the one shipped with the package, unless a file is named
        book = None if force else load_book(game.columns, game.rows, path)  # type: ignore[attr-defined]
    except ValueError as error:
        fail(str(error))
    wanted = CONNECT4_BOOK_PLIES if plies is None else plies
    built = False
    partial = partial_path(target)
    try:  # what a build stopped half-way kept (a damaged file is named before any search)
        half_built = read_partial(partial)
    except ValueError as error:
        fail(str(error))
    if book is None or (plies is not None and book.plies != plies):
        if half_built is not None and half_built.plies != wanted:  # hours of search: never overwritten
            fail(
                f"a half-built book of {game.spec} to ply {half_built.plies} is kept in {partial} "
                f"({len(half_built):,} positions of ply {half_built.plies} searched): go on with "
                f"--plies {half_built.plies}, or remove it to build another"
            )
        book = _build_connect4_book(game, target, wanted, workers, dask)
        built = True
    solution = Connect4Solution(game, book)  # type: ignore[arg-type]
    start = game.initial()
    value, distance = solution.outcome(start)
    firsts = {move: solution.result_of(start, move) for move in game.legal_moves(start)}
    if as_json:
        print_json(
            {
                "game": game.spec,
                "book": str(Path(book.source).absolute()),
                "book_shipped": book.shipped,
                "book_plies": book.plies,
                "book_positions": len(book),
                "book_bytes": len(book.to_bytes()),
                "book_cpu_seconds": round(book.cpu_seconds, 1),
                "start_value": value,
                "start_distance": distance,
                "first_moves": {move: list(outcome) for move, outcome in firsts.items()},
                "half_built": None
                if built or half_built is None
                else {"plies": half_built.plies, "positions": len(half_built), "path": str(partial.absolute())},
            }
        )
        return
    verb = "Built the" if built else "Read the shipped" if book.shipped else "Read the"
    console.print(
        f"{verb} opening book of {game.spec} to ply {book.plies}: {len(book):,} positions, "
        f"{len(book.to_bytes()) / 1e3:.1f} kB, {book.cpu_seconds:.1f} CPU s to build: {book.source}",
        markup=False,
    )
    console.print(f"The start: {describe(game, 0, value, distance)}.")
    words = {1: "wins", 0: "draws", -1: "loses"}
    console.print(
        "The first moves, for X: "
        + ", ".join(
            f"{move} {words[outcome[0]]}" + ("" if outcome[1] is None else f" in {outcome[1]}")
            for move, outcome in firsts.items()
        )
        + ".",
        markup=False,
    )
    if half_built is not None and not built:
        console.print(
            f"A half-built book to ply {half_built.plies} is kept: {len(half_built):,} positions of ply "
            f"{half_built.plies} searched so far, in {partial}; `gamelearn solve {game.spec} --plies "
            f"{half_built.plies}` goes on from there.",
            markup=False,
        )


def _build_connect4_book(game: Game, target: Path, plies: int, workers: int, dask: str | None) -> Book:
    """Build the board's book to ``plies`` into ``target`` with a progress bar, its deepest ply
    searched by ``workers`` processes (or on Dask), holding the book's lock throughout; ^C keeps
    what was searched (``.book.partial``) and says so."""
    from ..experiments.runners import run_all
    from ..files import FileLock
    from ..solver.connect4 import Connect4Solution
    from ..solver.connect4.book import BookChunk, ChunkScores, build_book, partial_path, read_partial, save_book

    partial = partial_path(target)
    build_lock = FileLock(target)  # one build of a book at a time: each would save over the other's
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        build_lock.acquire()
    except OSError as error:
        fail(f"cannot write the book's folder {target.parent}: {error.strerror or error}")
    except ValueError as error:  # another gamelearn is building it (FileInUseError), or no lock
        fail(str(error))
    try:
        solution = Connect4Solution(game)  # type: ignore[arg-type]

        def search_everywhere(
            search: Callable[[BookChunk], ChunkScores],
            chunks: list[BookChunk],
            on_done: Callable[[ChunkScores], None],
        ) -> None:
            run_all(search, chunks, workers, dask, on_done)

        def kept(stopped: KeyboardInterrupt) -> str:
            # build_book has saved what was searched before it let the interrupt through
            try:
                kept_book = read_partial(partial)
            except ValueError:
                kept_book = None
            searched = 0 if kept_book is None else len(kept_book)
            return (
                f"stopped: the {searched:,} positions of ply {plies} searched so far are kept in {partial}; "
                f"`gamelearn solve {game.spec} --plies {plies}` goes on from there"
            )

        with progress_bar(err_console, "building the opening book", 1, "positions") as progress:

            def report(stage: str, done: int, total: int) -> None:
                progress.set(done, total=total, description=stage if progress.rich is not None else None)

            # A build of hours can stop half-way: the positions searched so far are kept beside the
            # book and read back by the next build of the same plies.
            with kept_when_stopped(progress, kept):
                book = build_book(
                    solution.searcher,
                    plies,
                    report,
                    partial=partial,
                    run=None if workers == 1 and dask is None else search_everywhere,
                )
        save_book(book, target)
        book.source = str(target)
        return book
    finally:
        build_lock.release()


def _solution_error(game: Game) -> ValueError:
    try:
        solve(game)
    except ValueError as error:
        return error
    return ValueError(f"{game.spec} cannot be solved")


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
            fail(f"move {number} {shown_text(move)}: {error.reason}")
    solution = _solution_or_fail(game)
    mover = game.to_move(state)
    value, distance = solution.outcome(state)
    rows = solution.analyze(state)
    best = [row.move for row in rows if row.grade.value == "best"]
    if as_json:
        winner = game.winner(state)
        report = {
            "game": game.spec,
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
