"""``gamelearn teeko console``, ``batch`` and ``experiment``: the thesis program at play.

The console game is :mod:`.teeko_console`'s (a user interface, so it lives here), the games of
batch and experiment are experiments.thesis_batch's and thesis_experiment's; the original's batch
screen output (for ``--trace``) is :mod:`.teeko_transcript`'s.  This module parses the options,
refuses bad ones in one line (exit 2) and renders.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from ..experiments.interrupts import stopping_on_signals
from ..paths import looks_like_path
from ..store.thesis_memories import STAT_FIELDS, read_stat
from .common import (
    MAX_BATCH_GAMES,
    SEED_MAX,
    SEED_MIN,
    check_name,
    console,
    err_console,
    fail,
    output_dir,
    print_json,
)
from .progress import QUIET_HELP, progress_bar
from .teeko import open_store, percent

if TYPE_CHECKING:
    from ..store.db import Store
    from ..store.thesis_memories import MemoryRef

if TYPE_CHECKING:
    from ..experiments.thesis_batch import GameSummary


def register(teeko_app: typer.Typer) -> None:
    teeko_app.command("console")(console_game)
    teeko_app.command("batch")(batch)
    teeko_app.command("experiment")(experiment)


# --- console ----------------------------------------------------------------------------------


def console_game(
    memory: Annotated[str, typer.Option("--memory", help="the memory in the store it recalls and learns")] = "console",
    seed: Annotated[
        int | None, typer.Option("--seed", min=SEED_MIN, max=SEED_MAX, help="seed of the program's random choices")
    ] = None,
) -> None:
    """The thesis program's console game: you against it, or autoplay; it learns as it plays."""
    from .teeko_console import ConsoleSession, EngineBrain

    store = open_store()
    try:
        session = ConsoleSession(store, EngineBrain(seed), memory_name=check_name("--memory", memory))
    except ValueError as error:
        fail(str(error))
    screen = session.start()
    while True:
        for line in screen.lines:
            console.print(line, markup=False, highlight=False)
        if screen.board:
            console.print(screen.board, markup=False, highlight=False)
        if screen.finished:
            return
        try:
            text = console.input(screen.prompt, markup=False)
        except (EOFError, KeyboardInterrupt) as stop:  # Ctrl-D, Ctrl-C: leave as q would, on a line of its own
            console.print()
            if isinstance(stop, KeyboardInterrupt):  # ^C: the status a shell reports for it
                raise typer.Exit(130) from None
            return
        screen = session.send(text)


# --- batch ------------------------------------------------------------------------------------


def check_memory(store: Store, option: str, ref: MemoryRef, new: bool) -> None:
    """Refuse, before any game, a memory the run could not keep or did not mean: a store NAME that
    does not exist (a typo would silently start an empty memory) unless --new, naming the closest
    one; a memory FILE the run could not write back."""
    import difflib
    import os

    if ref.created and not new:
        known = store.list_memories()
        close = difflib.get_close_matches(ref.spec, known, n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}? " if close else f"known: {', '.join(known)}; " if known else ""
        fail(f"{option}: no memory named {ref.spec!r} in the store ({hint}--new starts an empty one)")
    if ref.path is not None and not os.access(ref.path, os.W_OK):
        fail(f"{option}: {ref.path} is read-only, and a batch updates its memory file in place "
             "(copy it, or import it: gamelearn teeko memory import FILE)")  # fmt: skip


def hold_lock(context: typer.Context, option: str, path: Path, shown: str, held: dict[Path, Any]) -> None:
    """Lock ``path`` for the rest of the command (released when its context closes, however it
    ends, or by the kernel when the process dies), or refuse in one line: another gamelearn is
    using it."""
    from ..store.files import FileLock

    lock = FileLock(path, shown)
    if lock.path in held:  # the same file twice in one run: refused below, by what it names
        return
    try:
        lock.acquire()
    except ValueError as error:
        fail(f"{option}: {error}")
    held[lock.path] = lock
    context.call_on_close(lock.release)


def score_table(x_wins: int, draws: int, o_wins: int) -> Table:
    total = x_wins + draws + o_wins
    table = Table("", "games", "share")
    for label, count in (("X wins (player I)", x_wins), ("draws", draws), ("O wins (player II)", o_wins)):
        table.add_row(label, str(count), percent(count, total))
    table.add_row("all", str(total), "")
    return table


def batch(
    context: typer.Context,
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
    from ..experiments.thesis_batch import BatchConfig, BatchHang, BatchKeeper, KeptMemory, run_batch
    from ..players.thesis.engine import Settings
    from ..players.thesis.memory import Memory
    from ..store.files import AtomicFile
    from ..store.thesis_memories import resolve_memory
    from .teeko_transcript import Transcript, settings_table

    count = games
    flags = {}
    for option, value in (("--first", first), ("--second", second)):
        try:
            flags[option] = Settings.parse(value)
        except ValueError as error:
            fail(f"{option}: {error}")
        if len(value.strip()) != 6:
            fail(f"{option}: flags are exactly six characters such as +h+s-l, not {value!r}")
    for option, target in (("--trace", trace), ("--stat", stat)):
        if target is not None and (target.is_dir() or not target.absolute().parent.is_dir()):
            fail(f"{option}: cannot write {target}: " + ("it is a folder" if target.is_dir() else "no such folder"))
    # Each file the run rewrites is locked before it is read: a second batch on the same file
    # would rewrite it from its own copy and undo the first one's lessons (docs/store.md).
    locks: dict[Path, Any] = {}
    if stat is not None:
        hold_lock(context, "--stat", stat, str(stat), locks)
    counts_at_start: tuple[int, ...] = (0,) * STAT_FIELDS
    if stat is not None and stat.exists():
        try:
            counts_at_start = read_stat(stat)
        except ValueError as error:
            fail(str(error))
    store = open_store()  # before any game: missing, read-only, locked or damaged is named
    refs = {}
    for option, spec in (("--first-memory", first_memory), ("--second-memory", second_memory)):
        if spec is not None:
            spec = check_name(option, spec)
            if looks_like_path(spec) and Path(spec).exists():
                hold_lock(context, option, Path(spec), spec, locks)
            try:
                refs[option] = resolve_memory(store, spec)
            except ValueError as error:
                fail(f"{option}: {error}")
            check_memory(store, option, refs[option], new)
    if len(refs) == 2:
        a, b = refs["--first-memory"], refs["--second-memory"]
        same_file = a.path is not None and b.path is not None and a.path.resolve() == b.path.resolve()
        if same_file or (a.name is not None and a.name == b.name):
            fail("--first-memory and --second-memory name the same memory; each player keeps its own")
    memories = {option: Memory(ref.entries) for option, ref in refs.items()}
    first_settings, second_settings = flags["--first"], flags["--second"]
    header = settings_table(count, first.strip(), second.strip())
    # The trace goes to a file beside FILE, renamed over it once every game is played: a run that
    # stops early (an original-mode hang, a count past 9999, ^C) leaves FILE as it was.
    try:
        trace_file = AtomicFile(trace, encoding="ascii", newline="\n") if trace is not None else None
    except OSError as error:
        fail(f"--trace: cannot write {trace}: {error.strerror or error}")
    except ValueError as error:  # a FIFO, a device or a socket: refused, nothing written
        fail(f"--trace: {error}")
    transcript = Transcript(trace_file.stream, header) if trace_file is not None else None
    hang = None
    interrupted = False
    mode = "original" if original else "fixed"
    record = {
        "asked": count,
        "mode": mode,
        "seed": seed,
        "first": first_settings.flags(),
        "second": second_settings.flags(),
        "first_memory": refs["--first-memory"].label if "--first-memory" in refs else None,
        "second_memory": refs["--second-memory"].label if "--second-memory" in refs else None,
    }
    sides = {"--first-memory": 1, "--second-memory": -1}
    kept = [KeptMemory(option, ref, memories[option], sides[option]) for option, ref in refs.items()]
    # Progress is saved every few seconds and when the run ends or is stopped (^C, SIGTERM): a
    # crash loses at most the last few seconds of play (docs/store.md).
    keeper = BatchKeeper(store, kept, counts_at_start, stat, record)
    said = err_console if as_json else console  # --json keeps stdout for the JSON
    said.print(
        f"{count} games, {mode} mode, seed {seed}: player I {first_settings.flags()}, "
        f"player II {second_settings.flags()}"
    )
    for option, ref in refs.items():
        player = "Player I" if option == "--first-memory" else "Player II"
        if ref.path is not None:
            said.print(f"{player}'s memory is the file {ref.path.resolve()}: it is updated in place after the run.",
                       markup=False)  # fmt: skip
        elif ref.created:
            said.print(f"{player}'s memory {ref.name} is new: it starts empty and is kept in the store.", markup=False)
    with progress_bar(err_console, "playing", count, "games", quiet) as progress, stopping_on_signals() as stop:

        def on_game(summary: GameSummary) -> None:
            keeper.add(summary)
            if transcript is not None:
                transcript.game_done(summary)
            progress.advance()
            if keeper.due():
                keeper.save()

        config = BatchConfig(
            games=count,
            first=first_settings,
            second=second_settings,
            original=original,
            seed=seed,
            first_memory=memories.get("--first-memory"),
            second_memory=memories.get("--second-memory"),
            stat=counts_at_start,
            trace=transcript,  # type: ignore[arg-type]
            progress=on_game,
            keep_games=False,  # the keeper holds what it needs of each game
        )
        try:
            run_batch(config)
        except BatchHang as error:
            hang = str(error)
        except ValueError as error:  # a count past 9999 (fatal in the original too), a store failure
            hang = str(error)
        except KeyboardInterrupt:
            interrupted = True
        except BaseException:
            if trace_file is not None:
                trace_file.discard()
            raise
        if trace_file is not None:
            if hang is None and not interrupted:
                trace_file.commit()
            else:
                trace_file.discard()
    # What finished games taught is kept even when a later game hung or the run was stopped, as
    # the original's files were.
    with signals_held():  # a second ^C cannot cut the last save short
        try:
            played = keeper.save("interrupted" if interrupted else hang)
        except ValueError as error:
            fail(str(error))
    results = keeper.results(keeper.played[:played])
    if interrupted:
        err_console.print(
            f"Interrupted after {played} of {count} games; all {played} are kept "
            f"(memories, score and the result teeko-batch #{keeper.result_id})",
            markup=False,
            soft_wrap=True,
        )
    if as_json:
        summary = {key: value for key, value in keeper.payload(played, "interrupted" if interrupted else hang).items()
                   if key != "per_game"}  # fmt: skip
        summary["memories"] = {
            option.removeprefix("--").removesuffix("-memory"): {"memory": ref.label, "records": len(memories[option])}
            for option, ref in refs.items()
        }
        print_json(summary)
    else:
        console.print(score_table(results["X"], results["D"], results["O"]))
        for option, ref in refs.items():
            console.print(
                f"{'Player I' if option == '--first-memory' else 'Player II'}'s memory: {ref.label}, "
                f"{len(memories[option])} records",
                markup=False,
            )
    if interrupted:
        raise typer.Exit(stop.status)  # 130 for ^C, 143 for SIGTERM, as a shell reports a signal
    if hang is not None:
        fail(f"stopped after {played} of {count} games: {hang}")


@contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait (POSIX) until the block is done; elsewhere nothing is held."""
    held = {signal.SIGINT, signal.SIGTERM}
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


# --- experiment -------------------------------------------------------------------------------


#: Bounds of the experiment's numbers: games a run (and a chart point), seeds, training games, processes.
MAX_RUN_GAMES = 1_000_000
MAX_SEEDS = 1000
MAX_WORKERS = 256


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
    import os
    from dataclasses import fields

    from ..experiments import thesis_experiment
    from ..experiments.runners import Interrupted
    from ..experiments.thesis_experiment import ExperimentConfig, RunResult, run_experiment, write_chart
    from ..store.files import MissingFolderError

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
        import importlib.util

        if importlib.util.find_spec("dask") is None or importlib.util.find_spec("dask.distributed") is None:
            fail("--dask needs dask[distributed] (pip install 'gamelearn[dask]')")
    try:
        from ..store.thesis_memories import read_memory_entries

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
    with progress_bar(err_console, training, None, "runs", quiet) as progress:

        def on_progress(done: int, total: int) -> None:  # the first step done is the training
            progress.set(done, total=total, description="runs")

        try:
            with stopping_on_signals() as stop:
                report = run_experiment(config, progress=on_progress)
        except KeyboardInterrupt as stopped:  # ^C or SIGTERM: the runner has stopped the workers
            progress.stop()
            finished = stopped.finished if isinstance(stopped, Interrupted) else []
            runs = [result for result in finished if isinstance(result, RunResult)]
            kept = "nothing to keep"
            if runs:  # the runs that finished, kept as they are, marked stopped (no intervals: a
                # condition's interval needs every run of it)
                payload = {
                    "config": config.to_dict(),
                    "stopped": True,
                    "runs": [{f.name: getattr(run, f.name) for f in fields(run)} for run in runs],
                }
                number = store.save_result("teeko-thesis-experiment", payload)
                kept = f"they are saved as teeko-thesis-experiment #{number}, marked stopped, without intervals"
            err_console.print(
                f"Interrupted: {len(runs)} runs had finished; the workers are stopped; {kept}",
                markup=False,
                soft_wrap=True,
            )
            raise typer.Exit(stop.status) from None
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
    from rich import box

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
