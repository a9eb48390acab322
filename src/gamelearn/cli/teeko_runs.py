"""``gamelearn teeko console``, ``batch`` and ``experiment``: the thesis program at play.

The console game is experiments.thesis_console's (one session the web app's console page drives
too: this command only prints its screens and reads lines), the games of batch and experiment are experiments.thesis_batch_run's (a plan and its runner) and
thesis_experiment's.  This module parses the options, refuses bad ones in one line (exit 2) and
renders.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from ..experiments.thesis_batch_run import MAX_BATCH_GAMES
from .common import SEED_MAX, SEED_MIN, check_name, console, err_console, fail, output_dir, print_json
from .progress import QUIET_HELP, progress_bar
from .stops import kept_when_stopped
from .teeko_common import open_store, percent

if TYPE_CHECKING:
    from ..experiments.thesis_batch_run import BatchOutcome


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
    from ..experiments.thesis_console import ConsoleSession, EngineBrain, screen_text

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
        except (EOFError, KeyboardInterrupt) as stop:  # Ctrl-D, Ctrl-C: leave as q would, on a line of its own
            console.print()
            if isinstance(stop, KeyboardInterrupt):  # ^C: the status a shell reports for it
                raise typer.Exit(130) from None
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
    from ..experiments.thesis_batch_run import BatchInterrupted, BatchPlan, BatchRun

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

    from ..experiments import thesis_experiment
    from ..experiments.runners import Interrupted
    from ..experiments.thesis_chart import write_chart
    from ..experiments.thesis_experiment import (
        ExperimentConfig,
        RunResult,
        run_experiment,
        stopped_payload,
    )
    from ..files import MissingFolderError

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
