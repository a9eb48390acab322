"""``gamelearn teeko console``, ``batch`` and ``experiment``: the thesis program at play.

The games are experiments.thesis_console's, thesis_batch's and thesis_experiment's; the original's
batch screen output (for ``--trace``) is experiments.thesis_transcript's.  This module parses the
options, refuses bad ones in one line (exit 2) and renders.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from ..store.thesis_memories import STAT_FIELDS, read_stat
from .common import console, fail
from .teeko import open_store, percent, positive_whole

if TYPE_CHECKING:
    from ..experiments.thesis_batch import GameSummary


def register(teeko_app: typer.Typer) -> None:
    teeko_app.command("console")(console_game)
    teeko_app.command("batch")(batch)
    teeko_app.command("experiment")(experiment)


# --- console ----------------------------------------------------------------------------------


def console_game(
    memory: Annotated[str, typer.Option("--memory", help="the memory in the store it recalls and learns")] = "console",
    seed: Annotated[int | None, typer.Option("--seed", help="seed of the program's random choices")] = None,
) -> None:
    """The thesis program's console game: you against it, or autoplay; it learns as it plays."""
    from ..experiments.thesis_console import ConsoleSession, EngineBrain

    store = open_store()
    try:
        session = ConsoleSession(store, EngineBrain(seed), memory_name=memory)
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
        except EOFError:  # end of input: leave as q would, abandoning any game in progress
            console.print()
            return
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
    games: Annotated[str | None, typer.Option("--games", help="the number of games (required)")] = None,
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
    seed: Annotated[str, typer.Option("--seed", help="the seed (the original's srand(time) value)")] = "1",
    original: Annotated[bool, typer.Option("--original", help="the 1999 program as it was, Microsoft rand()")] = False,
    trace: Annotated[
        Path | None, typer.Option("--trace", help="write the original's output with TRACE lines to FILE")
    ] = None,
) -> None:
    """The program plays itself N games, as `teeko <I flags> <II flags> mem2.m N` did."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ..experiments.thesis_batch import BatchConfig, BatchHang, KeptMemory, keep_outcome, run_batch
    from ..experiments.thesis_transcript import Transcript, settings_table
    from ..players.thesis.engine import Settings
    from ..players.thesis.memory import Memory
    from ..store.files import AtomicFile
    from ..store.thesis_memories import resolve_memory

    if games is None:
        fail("--games N is required: the number of games to play")
    count = positive_whole("--games", games)
    flags = {}
    for option, value in (("--first", first), ("--second", second)):
        try:
            flags[option] = Settings.parse(value)
        except ValueError as error:
            fail(f"{option}: {error}")
        if len(value.strip()) != 6:
            fail(f"{option}: flags are exactly six characters such as +h+s-l, not {value!r}")
    seed_text = seed.strip()
    if not seed_text.isascii() or not seed_text.isdigit() or int(seed_text) >= 2**32:
        fail(f"--seed must be a whole number from 0 to 4294967295, not {seed!r}")
    for option, target in (("--trace", trace), ("--stat", stat)):
        if target is not None and (target.is_dir() or not target.absolute().parent.is_dir()):
            fail(f"{option}: cannot write {target}: " + ("it is a folder" if target.is_dir() else "no such folder"))
    counts_at_start: tuple[int, ...] = (0,) * STAT_FIELDS
    if stat is not None and stat.exists():
        try:
            counts_at_start = read_stat(stat)
        except ValueError as error:
            fail(str(error))
    store = open_store()
    refs = {}
    for option, spec in (("--first-memory", first_memory), ("--second-memory", second_memory)):
        if spec is not None:
            try:
                refs[option] = resolve_memory(store, spec)
            except ValueError as error:
                fail(f"{option}: {error}")
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
    transcript = Transcript(trace_file.stream, header) if trace_file is not None else None
    results = {"X": 0, "D": 0, "O": 0}
    per_game: list[list[object]] = []
    hang = None
    mode = "original" if original else "fixed"
    console.print(
        f"{count} games, {mode} mode, seed {seed_text}: player I {first_settings.flags()}, "
        f"player II {second_settings.flags()}"
    )
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("playing", total=count)

        def on_game(summary: GameSummary) -> None:
            results[summary.result] += 1
            per_game.append([summary.result, summary.plies, summary.reason])
            if transcript is not None:
                transcript.game_done(summary)
            progress.advance(task)

        config = BatchConfig(
            games=count,
            first=first_settings,
            second=second_settings,
            original=original,
            seed=int(seed_text),
            first_memory=memories.get("--first-memory"),
            second_memory=memories.get("--second-memory"),
            stat=counts_at_start,
            trace=transcript,  # type: ignore[arg-type]
            progress=on_game,
        )
        try:
            run_batch(config)
        except BatchHang as error:
            hang = str(error)
        except ValueError as error:  # a count past 9999 (fatal in the original too)
            hang = str(error)
        except BaseException:
            if trace_file is not None:
                trace_file.discard()
            raise
        if trace_file is not None:
            if hang is None:
                trace_file.commit()
            else:
                trace_file.discard()
    # What finished games taught is kept even when a later game hung, as the original's files were.
    played = sum(results.values())
    record = {
        "games": played,
        "asked": count,
        "mode": mode,
        "seed": int(seed_text),
        "first": first_settings.flags(),
        "second": second_settings.flags(),
        "first_memory": refs["--first-memory"].label if "--first-memory" in refs else None,
        "second_memory": refs["--second-memory"].label if "--second-memory" in refs else None,
        "x_wins": results["X"],
        "draws": results["D"],
        "o_wins": results["O"],
        "per_game": per_game,
        "stopped": hang,
    }
    kept = [KeptMemory(option, ref, memories[option]) for option, ref in refs.items()]
    try:
        keep_outcome(store, kept, results, counts_at_start, stat, record)
    except ValueError as error:
        fail(str(error))
    console.print(score_table(results["X"], results["D"], results["O"]))
    for option, ref in refs.items():
        console.print(
            f"{'Player I' if option == '--first-memory' else 'Player II'}'s memory: {ref.label}, "
            f"{len(memories[option])} records"
        )
    if hang is not None:
        fail(f"stopped after {played} of {count} games: {hang}")


# --- experiment -------------------------------------------------------------------------------


def experiment(
    games: Annotated[str, typer.Option("--games", help="games per run")] = "3000",
    seeds: Annotated[str, typer.Option("--seeds", help="runs (seeds) per condition")] = "5",
    first_seed: Annotated[
        str, typer.Option("--first-seed", help="the first seed; runs use it and the next ones")
    ] = "1",
    train_games: Annotated[
        str, typer.Option("--train-games", help="games our fixed program trains its memory")
    ] = "10000",
    chart_games: Annotated[
        str | None, typer.Option("--chart-games", help="games per chart point (default --games)")
    ] = None,
    thesis_memory: Annotated[
        Path | None, typer.Option("--thesis-memory", help="the thesis's 10,000-game memory file")
    ] = None,
    x_memory: Annotated[str, typer.Option("--x-memory", help="X's memory: 'same' as O's, or 'empty'")] = "same",
    chart: Annotated[Path, typer.Option("--chart", help="the PNG chart to write")] = Path("teeko-experiment.png"),
    workers: Annotated[str | None, typer.Option("--workers", help="local processes (default: the CPUs)")] = None,
    dask: Annotated[str | None, typer.Option("--dask", help="a Dask scheduler ADDRESS, or 'local'")] = None,
) -> None:
    """Rerun the thesis's memory experiment over several seeds, with 95% intervals and a chart."""
    import os

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..experiments import thesis_experiment
    from ..experiments.thesis_experiment import ExperimentConfig, run_experiment, write_chart
    from ..store.files import MissingFolderError

    numbers = {
        "--games": positive_whole("--games", games),
        "--seeds": positive_whole("--seeds", seeds),
        "--train-games": positive_whole("--train-games", train_games),
        "--workers": positive_whole("--workers", workers) if workers is not None else max(1, os.cpu_count() or 1),
    }
    chart_count = positive_whole("--chart-games", chart_games) if chart_games is not None else None
    seed_text = first_seed.strip()
    if not seed_text.isascii() or not seed_text.isdigit():
        fail(f"--first-seed must be a whole number, not {first_seed!r}")
    if x_memory not in ("same", "empty"):
        fail(f"--x-memory is 'same' or 'empty', not {x_memory!r}")
    memory_path = thesis_memory if thesis_memory is not None else thesis_experiment.default_thesis_memory()
    if memory_path is None:
        fail(
            "the thesis's memory after 10000 games was not found (set GAMELEARN_THESIS_DATA to its folder); give --thesis-memory PATH"
        )
    if chart.is_dir() or not chart.absolute().parent.is_dir():
        fail(f"--chart: cannot write {chart}: " + ("it is a folder" if chart.is_dir() else "no such folder"))
    if dask is not None:
        import importlib.util

        if importlib.util.find_spec("dask") is None or importlib.util.find_spec("dask.distributed") is None:
            fail("--dask needs dask[distributed] (pip install 'gamelearn[dask]')")
    try:
        from ..store.thesis_memories import read_memory_entries

        read_memory_entries(memory_path)  # a bad file is refused before any run starts
        config = ExperimentConfig(
            thesis_memory=memory_path,
            games=numbers["--games"],
            seeds=numbers["--seeds"],
            first_seed=int(seed_text),
            train_games=numbers["--train-games"],
            chart_games=chart_count,
            x_memory=x_memory,
            workers=numbers["--workers"],
            dask=dask,
        )
    except ValueError as error:
        fail(str(error))
    store = open_store()
    console.print(
        f"Teeko thesis experiment: {config.games} games a run, seeds {config.seed_list[0]}..{config.seed_list[-1]}, "
        f"our memory trained over {config.train_games} games; {config.workers} "
        + (f"Dask workers ({dask})" if dask else "local processes")
    )
    with Progress(
        TextColumn("runs"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=True
    ) as progress:
        task = progress.add_task("runs", total=None)

        def on_progress(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        report = run_experiment(config, progress=on_progress)
    runs_table = Table("memory", "program", "O's memory", "seed", "X", "draw", "O", "O % (Wilson 95%)")
    for run in report.runs:
        if run.training_games is None:
            runs_table.add_row(run.memory, run.mode, run.variant, str(run.seed), str(run.x_wins), str(run.draws),
                               str(run.o_wins), run.o_rate.percent())  # fmt: skip
    console.print(runs_table)
    for run in report.runs:
        if run.stopped:
            console.print(f"{run.memory}/{run.mode}/{run.variant} seed {run.seed}: stopped after {run.games} games "
                          f"where the original hangs ({run.stopped})")  # fmt: skip
    summary = Table("memory", "program", "O's memory", "games", "O % pooled (Wilson)", "O % of seeds (t)", "the author")
    for row in report.conditions:
        summary.add_row(
            row.memory, row.mode, row.variant, str(row.games), row.pooled.percent(), row.across_seeds.percent(),
            f"{100 * row.seed_figure:.1f}" if row.seed_figure is not None else "",
        )  # fmt: skip
    console.print(summary)
    # the results first: a chart that cannot be written costs the picture, never the runs
    result_id = store.save_result("teeko-thesis-experiment", report.to_payload())
    console.print(f"Results saved in the store (teeko-thesis-experiment #{result_id}).")
    try:
        write_chart(report, chart)
    except MissingFolderError as error:
        fail(f"--chart: {error} (the results are saved: teeko-thesis-experiment #{result_id})")
    except OSError as error:
        fail(f"--chart: cannot write {chart}: {error.strerror or error} "
             f"(the results are saved: teeko-thesis-experiment #{result_id})")  # fmt: skip
    console.print(f"Chart: {chart}.")
