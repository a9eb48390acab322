"""``gamelearn teeko``: the tools around the 1999 thesis program (seed 000, THESIS-FACTS.md).

memory import/export/list/show/delete and stat show/reset move the thesis's files in and out of
the store; batch, console and experiment are added below.  This module only parses, validates and
renders: the logic lives in store.thesis_memories and experiments.thesis_*.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from ..store.thesis_memories import (
    STAT_FIELD_NAMES,
    STAT_FIELDS,
    export_memory,
    import_memory,
    load_stat,
    read_stat_counts,
    save_stat,
    summarize,
    write_stat_counts,
)
from .common import console, fail

if TYPE_CHECKING:
    from ..experiments.thesis_batch import GameSummary
    from ..store.db import Store

teeko_app = typer.Typer(
    name="teeko",
    help="The 1999 thesis Teeko program: its memories and scores, batch self-play, the console game, the experiment.",
    no_args_is_help=True,
)
memory_app = typer.Typer(
    help="Thesis memories (memory.m) in the store: import, export, list, show, delete.", no_args_is_help=True
)
stat_app = typer.Typer(
    help="The thesis score (stat.m): show or reset, in the store or in a file.", no_args_is_help=True
)
teeko_app.add_typer(memory_app, name="memory")
teeko_app.add_typer(stat_app, name="stat")


def register(app: typer.Typer) -> None:
    app.add_typer(teeko_app, name="teeko")


def open_store() -> Store:  # imported late so that `gamelearn --help` stays quick
    from ..store.db import Store

    try:
        return Store()
    except ValueError as error:
        fail(str(error))


# --- memory -----------------------------------------------------------------------------------


@memory_app.command("import")
def memory_import(
    path: Annotated[Path, typer.Argument(help="a thesis memory file (memory.m format: 33-byte records)")],
    name: str | None = typer.Option(None, "--name", help="the name in the store (default: the file's name)"),
    replace: bool = typer.Option(False, "--replace", help="replace a memory of that name already in the store"),
) -> None:
    """Import a thesis memory file into the store; a bad file is refused and nothing changes."""
    store = open_store()
    try:
        summary = import_memory(store, path, name=name, replace=replace)
    except ValueError as error:
        fail(str(error))
    console.print(
        f"Imported {summary.records} records ({summary.x_wins} wins of side 1, {summary.o_wins} of side 2) "
        f"from {path} as [bold]{summary.name}[/bold]."
    )


@memory_app.command("export")
def memory_export(
    name: Annotated[str, typer.Argument(help="a memory in the store (see: gamelearn teeko memory list)")],
    path: Annotated[Path, typer.Argument(help="the file to write, in the thesis format (written atomically)")],
) -> None:
    """Write a stored memory to PATH byte for byte in the thesis format."""
    store = open_store()
    if path.is_dir():
        fail(f"{path} is a folder; give the file to write")
    if not path.parent.is_dir() and str(path.parent):
        fail(f"folder {path.parent} does not exist")
    try:
        summary = export_memory(store, name, path)
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")
    except ValueError as error:
        fail(str(error))
    console.print(f"Wrote {summary.records} records ({summary.bytes} bytes) of {name} to {path}.")


@memory_app.command("list")
def memory_list() -> None:
    """The memories in the store, with their sizes."""
    store = open_store()
    names = store.list_memories()
    if not names:
        console.print("No memories in the store (import one: gamelearn teeko memory import PATH).")
        return
    table = Table("name", "records", "side 1 wins", "side 2 wins")
    for name in names:
        summary = summarize(name, store.load_memory(name) or [])
        table.add_row(name, str(summary.records), str(summary.x_wins), str(summary.o_wins))
    console.print(table)


@memory_app.command("show")
def memory_show(
    name: str = typer.Argument(..., help="a memory in the store"),
    records: int = typer.Option(0, "--records", min=0, help="also list the first N records"),
) -> None:
    """A stored memory: its records and the sums of both counts."""
    store = open_store()
    entries = store.load_memory(name)
    if entries is None:
        fail(f"no memory named {name!r} in the store (see: gamelearn teeko memory list)")
    summary = summarize(name, entries)
    console.print(f"[bold]{name}[/bold]: {summary.records} records ({summary.bytes} bytes as memory.m)")
    console.print(f"  games won by side 1 (X in self-play), summed over records: {summary.x_wins}")
    console.print(f"  games won by side 2 (O in self-play), summed over records: {summary.o_wins}")
    if records:
        table = Table("#", "board (rows from the top)", "side 1", "side 2")
        for index, (board, x_wins, o_wins) in enumerate(entries[:records]):
            rows = " ".join(board[r * 5 : r * 5 + 5] for r in range(5))
            table.add_row(str(index + 1), rows, str(x_wins), str(o_wins))
        console.print(table)


@memory_app.command("delete")
def memory_delete(name: str = typer.Argument(..., help="a memory in the store")) -> None:
    """Delete a stored memory."""
    store = open_store()
    if not store.delete_memory(name):
        fail(f"no memory named {name!r} in the store (see: gamelearn teeko memory list)")
    console.print(f"Deleted {name}.")


# --- stat -------------------------------------------------------------------------------------


def percent(part: int, whole: int) -> str:
    """A percentage with 2 decimals, as the original's statistics screen showed it."""
    return f"{100.0 * part / whole:.2f}%" if whole else "-"


def stat_table(counts: tuple[int, ...]) -> Table:
    """The statistics screen (section b): self-play, games the program began, games it played second."""
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


@stat_app.command("show")
def stat_show(
    file: Annotated[
        Path | None, typer.Option("--file", help="a thesis stat.m file instead of the store's score")
    ] = None,
) -> None:
    """The score: self-play results and games against people, with percentages."""
    if file is not None:
        try:
            counts = read_stat_counts(file)
        except ValueError as error:
            fail(str(error))
        source = str(file)
    else:
        try:
            counts = load_stat(open_store())
        except ValueError as error:
            fail(str(error))
        source = "the store"
    console.print(f"Statistics from {source}:")
    console.print(stat_table(counts))


@stat_app.command("reset")
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
            write_stat_counts(zeros, file)
        except OSError as error:
            fail(f"cannot write {file}: {error.strerror or error}")
        console.print(f"Reset {file}.")
        return
    save_stat(open_store(), zeros)
    console.print("Reset the score in the store.")


__all__ = ["register", "teeko_app", "STAT_FIELD_NAMES"]


# --- console ----------------------------------------------------------------------------------


@teeko_app.command("console")
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

RESULT_LINES = {"X": "Player I (X) has won.", "O": "Player II (O) has won.", "D": "The game has been drawn."}


def settings_table(games: int, first_flags: str, second_flags: str) -> str:
    """The batch header the original printed (its spacing kept, for byte-exact transcripts)."""

    def row(label: str, flags: str) -> str:
        on = ["ON" if flags[k] == "+" else "OFF" for k in (0, 2, 4)]
        return f"{label}{on[0]:>8}{on[1]:>9}{on[2]:>11}\n"

    rule = "-" * 39 + "\n"
    return (
        f"\nPlaying {games} games in batch mode.\n{rule}          Heuristics Searching Learning\n"
        + row("Player 1", first_flags)
        + row("Player 2", second_flags)
        + rule
    )


class Transcript:
    """The original's standard output with the trace lines, in the reference traces' order: the
    settings table, then per game its own lines ("Playing game k... [last move was M]", the result)
    followed by that game's TRACE lines (../shared/thesis-data/original-traces/README.md)."""

    def __init__(self, stream: IO[str], header: str) -> None:
        self.stream = stream
        self.header = header
        self.header_written = False
        self.pending: list[str] = []

    def _header(self) -> None:
        if not self.header_written:
            self.stream.write(self.header)
            self.header_written = True

    def write(self, text: str) -> int:
        for line in text.splitlines(keepends=True):
            if line.startswith("TRACE SEED"):
                self.stream.write(line)
                self._header()
            else:
                self.pending.append(line)
        return len(text)

    def game_done(self, summary: GameSummary) -> None:
        self._header()
        if summary.reason == "cap100":
            self.stream.write(f"Playing game {summary.number}...100 moves reached! Draw!\n")
            self.stream.write(f" [last move was {summary.last_move}]\n")
        else:
            self.stream.write(f"Playing game {summary.number}... [last move was {summary.last_move}]\n")
        self.stream.write(RESULT_LINES[summary.result] + "\n")
        self.stream.writelines(self.pending)
        self.pending.clear()

    def flush(self) -> None:
        self.stream.flush()


def positive_whole(option: str, text: str) -> int:
    cleaned = text.strip()
    if not cleaned.isascii() or not cleaned.isdigit() or int(cleaned) < 1:
        fail(f"{option} must be a positive whole number, not {text!r}")
    return int(cleaned)


def score_table(x_wins: int, draws: int, o_wins: int) -> Table:
    total = x_wins + draws + o_wins
    table = Table("", "games", "share")
    for label, count in (("X wins (player I)", x_wins), ("draws", draws), ("O wins (player II)", o_wins)):
        table.add_row(label, str(count), percent(count, total))
    table.add_row("all", str(total), "")
    return table


@teeko_app.command("batch")
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
    """The program plays itself N games, as `teeko <I flags> <II flags> mem2.m N` did (section f)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ..experiments.thesis_batch import BatchConfig, BatchHang, run_batch
    from ..players.thesis.engine import Settings
    from ..players.thesis.memory import Memory
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
            counts_at_start = read_stat_counts(stat)
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
    trace_stream = open(trace, "w", encoding="ascii", newline="\n") if trace is not None else None  # noqa: SIM115
    transcript = Transcript(trace_stream, header) if trace_stream is not None else None
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
        finally:
            if trace_stream is not None:
                trace_stream.close()
    # What finished games taught is kept even when a later game hung, as the original's files were.
    for option, ref in refs.items():
        memory = memories[option]
        try:
            ref.save(store, list(memory.entries()), memory.take_changes())
        except (OSError, ValueError) as error:
            fail(f"{option}: cannot write {ref.label}: {error}")
    final = list(counts_at_start)
    final[0] += results["X"]
    final[1] += results["D"]
    final[2] += results["O"]
    if stat is not None:
        try:
            write_stat_counts(final, stat)
        except (OSError, ValueError) as error:
            fail(f"--stat: cannot write {stat}: {error}")
    else:  # the store's score, as the original's stat.m counted every batch game
        with store.transaction():
            kept = list(load_stat(store))
            for field_index, result in enumerate("XDO"):
                kept[field_index] += results[result]
            save_stat(store, kept)
    played = sum(results.values())
    store.save_result(
        "teeko-batch",
        {
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
        },
    )
    console.print(score_table(results["X"], results["D"], results["O"]))
    for option, ref in refs.items():
        console.print(
            f"{'Player I' if option == '--first-memory' else 'Player II'}'s memory: {ref.label}, "
            f"{len(memories[option])} records"
        )
    if hang is not None:
        fail(f"stopped after {played} of {count} games: {hang}")


# --- experiment -------------------------------------------------------------------------------


@teeko_app.command("experiment")
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
        fail("the thesis's memory after 10000 games was not found in ../shared/thesis-data; give --thesis-memory PATH")
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
    summary = Table("memory", "program", "O's memory", "games", "O % pooled (Wilson)", "O % of seeds (t)", "seed 000")
    for row in report.conditions:
        summary.add_row(
            row.memory, row.mode, row.variant, str(row.games), row.pooled.percent(), row.across_seeds.percent(),
            f"{100 * row.seed_figure:.1f}" if row.seed_figure is not None else "",
        )  # fmt: skip
    console.print(summary)
    try:
        write_chart(report, chart)
    except OSError as error:
        fail(f"--chart: cannot write {chart}: {error.strerror or error}")
    result_id = store.save_result("teeko-thesis-experiment", report.to_payload())
    console.print(f"Chart: {chart}.  Results saved in the store (teeko-thesis-experiment #{result_id}).")
