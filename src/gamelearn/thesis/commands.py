"""``gamelearn teeko``: the tools around the 1999 thesis program (Despotović 1999), every command
of it registered in one place (:func:`register`):

* ``memory import/export/list/show/delete`` and ``stat show/reset/import/export``: the thesis's
  memory.m and stat.m in and out of the store.  Parsing is :mod:`.files`' (one policy: a file the
  original could not have written is refused naming the record, its byte offset and what is
  wrong); the store's side is :mod:`.memories`'.  A refused file is one line on stderr, exit
  status 2, nothing changed.
* ``console``, ``batch`` and ``experiment``: the program at play.  The console game is
  :mod:`.console`'s (one session the web app's console page drives too: this command only prints
  its screens and reads lines); the games of batch and experiment are :mod:`.batch_run`'s (a plan
  and its runner) and :mod:`.experiment`'s.

The commands only parse, validate and render.  The modules that play load the thesis engine
(numba), so each playing command imports its own when it runs, not when the CLI starts.
"""

from __future__ import annotations

import importlib.util
import os
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich import box
from rich.table import Table

from ..cli.common import (
    HELP_MARKUP,
    MAX_WORKERS,
    SEED_MAX,
    SEED_MIN,
    check_name,
    console,
    err_console,
    fail,
    output_dir,
    print_json,
)
from ..cli.common import open_store as open_checked
from ..cli.progress import QUIET_HELP, progress_bar
from ..cli.stops import kept_when_stopped
from ..experiments.runners import Interrupted
from ..files import MissingFolderError, NotWritableTargetError
from .batch_run import MAX_BATCH_GAMES, BatchInterrupted, BatchPlan, BatchRun
from .memories import (
    STAT_FIELDS,
    MemorySummary,
    check_memory_import,
    delete_memory,
    export_memory,
    export_stat,
    has_memory,
    import_memory,
    import_stat,
    iter_memory,
    list_memories,
    load_stat,
    read_memory_entries,
    read_stat,
    save_stat,
    write_stat,
)

if TYPE_CHECKING:
    from ..store.store import Store
    from .batch_run import BatchOutcome


TEEKO_HELP = (
    "The 1999 thesis Teeko program: its memories and scores, batch self-play, the console game, the experiment."
)


def register(app: typer.Typer) -> None:
    teeko_app = typer.Typer(rich_markup_mode=HELP_MARKUP, name="teeko", help=TEEKO_HELP, no_args_is_help=True)
    memory_app = typer.Typer(
        rich_markup_mode=HELP_MARKUP,
        help="Thesis memories (memory.m) in the store: import, export, list, show, delete.",
        no_args_is_help=True,
    )
    stat_app = typer.Typer(
        rich_markup_mode=HELP_MARKUP,
        help="The thesis score (stat.m): show, reset, import or export, in the store or in a file.",
        no_args_is_help=True,
    )
    memory_app.command("import")(memory_import)
    memory_app.command("export")(memory_export)
    memory_app.command("list")(memory_list)
    memory_app.command("show")(memory_show)
    memory_app.command("delete")(memory_delete)
    stat_app.command("show")(stat_show)
    stat_app.command("reset")(stat_reset)
    stat_app.command("import")(stat_import)
    stat_app.command("export")(stat_export)
    teeko_app.add_typer(memory_app, name="memory")
    teeko_app.add_typer(stat_app, name="stat")
    teeko_app.command("console")(console_game)
    teeko_app.command("batch")(batch)
    teeko_app.command("experiment")(experiment)
    app.add_typer(teeko_app, name="teeko")


# --- what the commands share ------------------------------------------------------------------


def open_store(readonly: bool = False, check: bool = True) -> Store:
    """The store (cli.common.open_store, checked whole unless ``check=False``): ``readonly`` for
    commands that only read; one line naming the cause where it cannot be used."""
    store: Store = open_checked(readonly=readonly, check=check)
    return store


def percent(part: int, whole: int) -> str:
    """A percentage with 2 decimals, as the original's statistics screen showed it."""
    return f"{100.0 * part / whole:.2f}%" if whole else "-"


# --- memory and stat ------------------------------------------------------------------------


def writable_file(path: Path) -> None:
    """Refuse, in one line, a target that is a folder or lies in a folder that does not exist."""
    if path.is_dir():
        fail(f"{path} is a folder; give the file to write")
    if not path.absolute().parent.is_dir():
        fail(f"folder {path.parent} does not exist")


# --- memory -----------------------------------------------------------------------------------

#: What the sums of a memory's counts are: a won game adds one to the record of every position it
#: went through (Despotović 1999), so they count positions of won games, not games (issue 50: a
#: batch that X won 716 times read "16242 wins of side 1").
SUMMED = (
    "Summed over the records, side 1's wins come to {first:,} and side 2's to {second:,}: a won game "
    "counts once in the record of each of its positions (some 20 a game), so these are no count of games."
)


def memory_import(
    path: Annotated[Path, typer.Argument(help="a thesis memory file (memory.m format: 33-byte records)")],
    name: str | None = typer.Option(None, "--name", help="the name in the store (default: the file's name)"),
    replace: bool = typer.Option(False, "--replace", help="replace a memory of that name already in the store"),
) -> None:
    """Import a thesis memory file into the store; a bad file is refused and nothing changes."""
    try:
        check_memory_import(path, name)  # a refused file or name makes no store
    except ValueError as error:
        fail(str(error))
    store = open_store()
    try:
        summary = import_memory(store, path, name=name, replace=replace)
    except ValueError as error:
        fail(str(error))
    console.print(
        f"Imported {summary.records:,} records from {path} as [bold]{summary.name}[/bold]: each a position and "
        "the won games that went through it, by side 1 and by side 2."
    )
    console.print(SUMMED.format(first=summary.x_wins, second=summary.o_wins), markup=False)


def memory_export(
    name: Annotated[str, typer.Argument(help="a memory in the store (see: gamelearn teeko memory list)")],
    path: Annotated[Path, typer.Argument(help="the file to write, in the thesis format (written atomically)")],
) -> None:
    """Write a stored memory to PATH byte for byte in the thesis format."""
    writable_file(path)
    store = open_store(readonly=True)
    try:
        summary = export_memory(store, name, path)
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")
    except ValueError as error:
        fail(str(error))
    console.print(f"Wrote {summary.records} records ({summary.bytes} bytes) of {name} to {path}.")


def memory_list() -> None:
    """The memories in the store, with their sizes."""
    store = open_store(readonly=True)
    names = list_memories(store)
    if not names:
        console.print("No memories in the store (import one: gamelearn teeko memory import PATH).")
        return
    table = Table("name", "records", "side 1's wins, summed", "side 2's wins, summed")
    for name in names:
        summary, _ = streamed_summary(store, name)
        table.add_row(name, f"{summary.records:,}", f"{summary.x_wins:,}", f"{summary.o_wins:,}")
    console.print(table)
    console.print(
        "A won game counts once in the record of each of its positions (some 20 a game): the sums are no "
        "count of games.",
        markup=False,
    )


def streamed_summary(store: Any, name: str, keep: int = 0) -> tuple[Any, list[Any]]:
    """A stored memory's summary and its first ``keep`` entries, read as a stream: the memory held
    is the ``keep`` entries and a batch of rows, not the whole memory as Python tuples (several
    times the memory's size)."""
    records = x_wins = o_wins = 0
    first: list[Any] = []
    for entry in iter_memory(store, name):
        records, x_wins, o_wins = records + 1, x_wins + entry[1], o_wins + entry[2]
        if len(first) < keep:
            first.append(entry)
    return MemorySummary(name, records, x_wins, o_wins), first


def memory_show(
    name: str = typer.Argument(..., help="a memory in the store"),
    records: int = typer.Option(0, "--records", min=0, max=1_000_000, help="also list the first N records"),
) -> None:
    """A stored memory: its records and the sums of both counts."""
    store = open_store(readonly=True)
    if not has_memory(store, name):
        fail(f"no memory named {name!r} in the store (see: gamelearn teeko memory list)")
    summary, entries = streamed_summary(store, name, keep=records)
    console.print(f"[bold]{name}[/bold]: {summary.records} records ({summary.bytes} bytes as memory.m)")
    console.print(SUMMED.format(first=summary.x_wins, second=summary.o_wins), markup=False)
    if records:
        table = Table("#", "board (rows from the top)", "side 1", "side 2")
        for index, (board, x_wins, o_wins) in enumerate(entries[:records]):
            rows = " ".join(board[r * 5 : r * 5 + 5] for r in range(5))
            table.add_row(str(index + 1), rows, str(x_wins), str(o_wins))
        console.print(table)


def memory_delete(name: str = typer.Argument(..., help="a memory in the store")) -> None:
    """Delete a stored memory."""
    if not has_memory(open_store(readonly=True), name):  # read-only: a refused delete makes no store
        fail(f"no memory named {name!r} in the store (see: gamelearn teeko memory list)")
    store = open_store()
    if not delete_memory(store, name):
        fail(f"no memory named {name!r} in the store (see: gamelearn teeko memory list)")
    console.print(f"Deleted {name}.")


# --- stat -------------------------------------------------------------------------------------


def stat_table(counts: tuple[int, ...]) -> Table:
    """The statistics screen: self-play, games the program began, games it played second."""
    table = Table("games", "total", "won / X wins", "drawn", "lost / O wins")
    groups = (("self-play (X, draws, O)", 0), ("against you, program began", 3), ("against you, program second", 6))
    for label, start in groups:
        a, d, b = counts[start : start + 3]
        total = a + d + b
        table.add_row(
            label,
            str(total),
            f"{a} ({percent(a, total)})",
            f"{d} ({percent(d, total)})",
            f"{b} ({percent(b, total)})",
        )
    return table


def stat_show(
    file: Annotated[
        Path | None, typer.Option("--file", help="a thesis stat.m file instead of the store's score")
    ] = None,
) -> None:
    """The score: self-play results and games against people, with percentages."""
    if file is not None:
        try:
            counts = read_stat(file)
        except ValueError as error:
            fail(str(error))
        source = str(file)
    else:
        try:
            counts = load_stat(open_store(readonly=True))
        except ValueError as error:
            fail(str(error))
        source = "the store"
    console.print(f"Statistics from {source}:")
    console.print(stat_table(counts))


def stat_reset(
    file: Annotated[
        Path | None, typer.Option("--file", help="reset this stat.m file (36 spaces) instead of the store's score")
    ] = None,
) -> None:
    """Reset the score to nothing, as the original's ? then r did."""
    zeros = (0,) * STAT_FIELDS
    if file is not None:
        if file.is_dir():
            fail(f"{file} is a folder")
        try:
            write_stat(zeros, file)
        except OSError as error:
            fail(f"cannot write {file}: {error.strerror or error}")
        except ValueError as error:  # a FIFO, a device or a socket: refused, nothing written
            fail(str(error))
        console.print(f"Reset {file}.")
        return
    save_stat(open_store(), zeros)
    console.print("Reset the score in the store.")


def stat_import(
    path: Annotated[Path, typer.Argument(help="a thesis stat.m file (nine 4-character counts, 36 bytes)")],
    replace: bool = typer.Option(False, "--replace", help="overwrite a score in the store that already counts games"),
) -> None:
    """Make a thesis stat.m the store's score; a bad file is refused and nothing changes."""
    try:
        read_stat(path)  # a refused file makes no store
    except ValueError as error:
        fail(str(error))
    store = open_store()
    try:
        counts = import_stat(store, path, replace=replace)
    except ValueError as error:
        fail(str(error))
    console.print(f"Imported the score from {path}: {sum(counts)} games.")
    console.print(stat_table(counts))


def stat_export(
    path: Annotated[Path, typer.Argument(help="the stat.m file to write (written atomically)")],
) -> None:
    """Write the store's score to PATH byte for byte in the thesis's stat.m format."""
    writable_file(path)
    store = open_store(readonly=True)
    try:
        counts = export_stat(store, path)
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")
    except NotWritableTargetError as error:  # it names the path itself
        fail(str(error))
    except ValueError as error:
        fail(f"cannot write {path}: {error}")
    console.print(f"Wrote the score ({sum(counts)} games, 36 bytes) to {path}.")


# --- console ----------------------------------------------------------------------------------


def console_game(
    memory: Annotated[str, typer.Option("--memory", help="the memory in the store it recalls and learns")] = "console",
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            min=SEED_MIN,
            max=SEED_MAX,
            help="seed of the program's random choices (--original: its srand() value; default the clock)",
        ),
    ] = None,
    original: Annotated[
        bool, typer.Option("--original", help="the 1999 console as it was, its bugs and Microsoft rand()")
    ] = False,
) -> None:
    """The thesis program's console game: you against it, or autoplay; it learns as it plays."""
    from .console import ConsoleSession, EngineBrain, screen_text  # the thesis engine (numba): this command's alone

    store = open_store()
    try:
        session = ConsoleSession(
            store, EngineBrain(seed, original=original), memory_name=check_name("--memory", memory), original=original
        )
    except ValueError as error:
        fail(str(error))
    screen = session.start()
    while True:
        for line in screen_text(screen):
            console.print(line, markup=False, highlight=False)
        if screen.finished:
            return
        try:
            text = console.input(screen.prompt, markup=False)
        except EOFError:  # Ctrl-D: leave as q would, on a line of its own
            console.print()
            return
        except KeyboardInterrupt:  # ^C: the status a shell reports for it; the entry point ends the
            raise typer.Exit(130) from None  # prompt's line and says "interrupted" on the next
        screen = session.send(text)


# --- batch ------------------------------------------------------------------------------------


def score_table(x_wins: int, draws: int, o_wins: int) -> Table:
    total = x_wins + draws + o_wins
    table = Table("", "games", "share")
    for label, count in (("X wins (player I)", x_wins), ("draws", draws), ("O wins (player II)", o_wins)):
        table.add_row(label, str(count), percent(count, total))
    table.add_row("all", str(total), "")
    return table


def batch(
    games: Annotated[int, typer.Option("--games", min=1, max=MAX_BATCH_GAMES, help="the number of games")],
    first: Annotated[str, typer.Option("--first", help="player I's (X's) switches, such as +h+s+l")] = "+h+s+l",
    second: Annotated[str, typer.Option("--second", help="player II's (O's) switches")] = "+h+s+l",
    first_memory: Annotated[
        str | None, typer.Option("--first-memory", help="player I's memory: a thesis FILE or a store NAME")
    ] = None,
    second_memory: Annotated[
        str | None, typer.Option("--second-memory", help="player II's memory: a thesis FILE or a store NAME")
    ] = None,
    stat: Annotated[
        Path | None, typer.Option("--stat", help="a stat.m file to count in (default: the store's score)")
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", min=SEED_MIN, max=SEED_MAX, help="the seed (the original's srand(time) value)")
    ] = 1,
    original: Annotated[bool, typer.Option("--original", help="the 1999 program as it was, Microsoft rand()")] = False,
    trace: Annotated[
        Path | None, typer.Option("--trace", help="write the original's output with TRACE lines to FILE")
    ] = None,
    new: Annotated[
        bool, typer.Option("--new", help="a memory NAME not in the store yet starts empty (without: refused)")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="print the outcome as one JSON object on stdout (progress on stderr)")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
) -> None:
    """The program plays itself N games, as `teeko <I flags> <II flags> mem2.m N` did.

    A memory FILE is updated in place after the run, as the original did; a NAME in the store.
    """

    try:
        plan = BatchPlan(games, first, second, first_memory, second_memory, stat, seed, original, trace, new)
    except ValueError as error:
        fail(str(error))
    store = open_store()  # before any game: missing, read-only, locked or damaged is named
    with ExitStack() as held:
        try:
            run = held.enter_context(BatchRun(plan, store))  # the files it rewrites stay locked till the end
        except ValueError as error:
            fail(str(error))
        said = err_console if as_json else console  # --json keeps stdout for the JSON
        said.print(
            f"{plan.games} games, {plan.mode} mode, seed {plan.seed}: player I {plan.settings['--first'].flags()}, "
            f"player II {plan.settings['--second'].flags()}"
        )
        for side in run.sides:
            if side.ref.path is not None:
                said.print(f"{side.player}'s memory is the file {side.ref.path.resolve()}: it is updated in place "
                           "after the run.", markup=False)  # fmt: skip
            elif side.ref.created:
                said.print(f"{side.player}'s memory {side.ref.name} is new: it starts empty and is kept in the store.",
                           markup=False)  # fmt: skip

        def kept(stopped: KeyboardInterrupt) -> str:
            outcome = stopped.outcome if isinstance(stopped, BatchInterrupted) else run.outcome
            assert outcome is not None  # the runner keeps what it played before the interrupt leaves it
            return (f"Interrupted after {outcome.played} of {plan.games} games; all {outcome.played} are kept "
                    f"(memories, score and the result teeko-batch #{outcome.result_id})")  # fmt: skip

        def shown(stopped: KeyboardInterrupt) -> None:
            show_batch(stopped.outcome if isinstance(stopped, BatchInterrupted) else run.outcome, as_json)

        with progress_bar(err_console, "playing", plan.games, "games", quiet) as progress:
            with kept_when_stopped(progress, kept, shown):
                try:
                    outcome = run.play(on_game=lambda summary: progress.advance())
                except ValueError as error:  # the store could not keep the last games
                    fail(str(error))
    show_batch(outcome, as_json)
    if outcome.hang is not None:
        fail(f"stopped after {outcome.played} of {plan.games} games: {outcome.hang}")


def show_batch(outcome: BatchOutcome | None, as_json: bool) -> None:
    """The outcome: one JSON object, or the score and each memory's size."""
    if outcome is None:
        return
    if as_json:
        print_json(outcome.to_dict())
        return
    console.print(score_table(outcome.x_wins, outcome.draws, outcome.o_wins))
    for side in outcome.memories:
        console.print(f"{side.player}'s memory: {side.ref.label}, {len(side.memory)} records", markup=False)


# --- experiment -------------------------------------------------------------------------------


#: Bounds of the experiment's numbers: games a run (and a chart point), seeds, training games, processes.
MAX_RUN_GAMES = 1_000_000
MAX_SEEDS = 1000


def experiment(
    games: Annotated[int, typer.Option("--games", min=1, max=MAX_RUN_GAMES, help="games per run")] = 3000,
    seeds: Annotated[int, typer.Option("--seeds", min=1, max=MAX_SEEDS, help="runs (seeds) per condition")] = 5,
    first_seed: Annotated[
        int,
        typer.Option("--first-seed", min=SEED_MIN, max=SEED_MAX, help="the first seed; runs use it and the next ones"),
    ] = 1,
    train_games: Annotated[
        int,
        typer.Option("--train-games", min=1, max=MAX_RUN_GAMES, help="games our fixed program trains its memory"),
    ] = 10000,
    chart_games: Annotated[
        int | None,
        typer.Option("--chart-games", min=1, max=MAX_RUN_GAMES, help="games per chart point (default --games)"),
    ] = None,
    thesis_memory: Annotated[
        Path | None, typer.Option("--thesis-memory", help="the thesis's 10,000-game memory file")
    ] = None,
    x_memory: Annotated[str, typer.Option("--x-memory", help="X's memory: 'same' as O's, or 'empty'")] = "same",
    out: Annotated[
        Path | None,
        typer.Option("--out", metavar="DIR", help="folder for the PNG chart (default: plots/ in the data directory)"),
    ] = None,
    workers: Annotated[
        int | None, typer.Option("--workers", min=1, max=MAX_WORKERS, help="local processes (default: the CPUs)")
    ] = None,
    dask: Annotated[str | None, typer.Option("--dask", help="a Dask scheduler ADDRESS, or 'local'")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="print the report as one JSON object on stdout (progress on stderr)")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
) -> None:
    """Rerun the thesis's memory experiment over several seeds, with 95% intervals and a chart."""
    # the thesis engine (numba) loads for the command that plays it, not for every command
    from . import experiment as thesis_experiment
    from .chart import write_chart
    from .experiment import ExperimentConfig, RunResult, run_experiment, stopped_payload

    if first_seed + seeds - 1 > SEED_MAX:
        fail(f"--first-seed {first_seed} with --seeds {seeds} runs past the last seed, {SEED_MAX}")
    if x_memory not in ("same", "empty"):
        fail(f"--x-memory is 'same' or 'empty', not {x_memory!r}")
    memory_path = thesis_memory if thesis_memory is not None else thesis_experiment.default_thesis_memory()
    if memory_path is None:
        fail(
            "the thesis's 'memory after 10000 games.txt' is not in the working folder (or the folder GAMELEARN_THESIS_DATA names); give --thesis-memory PATH"
        )
    folder = output_dir(out, "plots")
    chart = folder / f"teeko-experiment-seed{first_seed}.png"
    if dask is not None:
        if importlib.util.find_spec("dask") is None or importlib.util.find_spec("dask.distributed") is None:
            fail("--dask needs dask[distributed] (pip install 'gamelearn[dask]')")
    try:
        read_memory_entries(memory_path)  # a bad file is refused before any run starts
        config = ExperimentConfig(
            thesis_memory=memory_path,
            games=games,
            seeds=seeds,
            first_seed=first_seed,
            train_games=train_games,
            chart_games=chart_games,
            x_memory=x_memory,
            workers=workers or max(1, os.cpu_count() or 1),
            dask=dask,
        )
    except ValueError as error:  # the memory file's format errors
        fail(str(error))
    store = open_store()
    said = err_console if as_json else console  # --json keeps stdout for the JSON
    first, last = config.seed_list[0], config.seed_list[-1]
    said.print(
        f"Teeko thesis experiment: {config.games} games a run, "
        + (f"seeds {first}..{last}" if last > first else f"seed {first}")
        + f", our memory trained over {config.train_games} games; {config.workers} "
        + (f"Dask workers ({dask})" if dask else "local processes")
    )
    training = f"training our memory ({config.train_games} games)"

    def kept(stopped: KeyboardInterrupt) -> str:  # ^C or SIGTERM: the runner has stopped the workers
        finished = stopped.finished if isinstance(stopped, Interrupted) else []
        runs = [result for result in finished if isinstance(result, RunResult)]
        kept = "nothing to keep"
        if runs:  # the runs that finished, kept as they are, marked stopped (no intervals: a
            # condition's interval needs every run of it)
            number = store.save_result("teeko-thesis-experiment", stopped_payload(config, runs))
            kept = f"they are saved as teeko-thesis-experiment #{number}, marked stopped, without intervals"
        return f"Interrupted: {len(runs)} runs had finished; the workers are stopped; {kept}"

    with progress_bar(err_console, training, None, "runs", quiet) as progress:

        def on_progress(done: int, total: int) -> None:  # the first step done is the training
            progress.set(done, total=total, description="runs")

        with kept_when_stopped(progress, kept):
            report = run_experiment(config, progress=on_progress)
    # the results first: a chart that cannot be written costs the picture, never the runs
    result_id = store.save_result("teeko-thesis-experiment", report.to_payload())
    saved = f"the results are saved: teeko-thesis-experiment #{result_id}"
    try:
        write_chart(report, chart)
    except MissingFolderError as error:
        fail(f"--out: {error} ({saved})")
    except OSError as error:
        fail(f"--out: cannot write {chart}: {error.strerror or error} ({saved})")
    except ValueError as error:  # a FIFO or a device where the chart goes: refused, nothing written
        fail(f"--out: {error} ({saved})")
    if as_json:
        print_json({**report.to_payload(), "result_id": result_id, "chart": str(chart)})
        return
    print_experiment(report)
    console.print(f"Results saved in the store (teeko-thesis-experiment #{result_id}).")
    console.print(f"Chart: {chart}", markup=False, soft_wrap=True)


def compact_table(*headers: str, title: str | None = None) -> Table:
    """A table of figures that fits 80 columns: rules under the header only, one space between
    columns; the figures never wrap or shrink."""
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for header in headers:
        table.add_column(header, no_wrap=True)
    return table


def print_experiment(report: Any) -> None:
    """The runs, then one row per condition: the pooled rate (Wilson) and the mean over seeds (t);
    one seed gives no interval across seeds, and says so."""
    runs_table = compact_table(
        "memory", "program", "O's memory", "seed", "X", "draw", "O", "O % (Wilson 95%)", title="Each run"
    )
    for run in report.runs:
        if run.training_games is None:
            runs_table.add_row(run.memory, run.mode, run.variant, str(run.seed), str(run.x_wins), str(run.draws),
                               str(run.o_wins), run.o_rate.percent())  # fmt: skip
    console.print(runs_table)
    for run in report.runs:
        if run.stopped:
            console.print(f"{run.memory}/{run.mode}/{run.variant} seed {run.seed}: stopped after {run.games} games "
                          f"where the original hangs ({run.stopped})")  # fmt: skip
    one_seed = report.config.seeds == 1
    games = {row.games for row in report.conditions}
    each = f"{games.pop()} games a condition" if len(games) == 1 else "games a condition vary"
    summary = compact_table(
        "memory", "program", "O's memory", "pooled (Wilson)", "mean" if one_seed else "mean of seeds (t)",
        "author", title=f"O's wins, % of the games, 95% intervals ({each})",
    )  # fmt: skip
    for row in report.conditions:
        across = f"{100 * row.across_seeds.estimate:.1f}" if one_seed else row.across_seeds.percent()
        summary.add_row(
            row.memory, row.mode, row.variant, row.pooled.percent(), across,
            f"{100 * row.seed_figure:.1f}" if row.seed_figure is not None else "",
        )  # fmt: skip
    console.print(summary)
    console.print("author: the thesis author's own figure for the condition.")
    if one_seed:
        console.print("One seed gives no interval across seeds: run --seeds 2 or more for one.")
