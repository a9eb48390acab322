"""The thesis's memory experiment, rerun with confidence intervals (seed 000, "Player O reads the
memory backwards"; THESIS-FACTS.md, "Measured on the original").

The seed reports, for batch self-play where O is player II: O with the memory after 10,000 games
won 20.9% of 3,000 games, O with no memory 24.8%, O with only the sign fixed 34.0%.  One run of
3,000 games is noisy (the same setting gave O 37.7%, 37.1% and 13.3% in three runs), so this
module runs each condition with several seeds and reports every run, the pooled rate with a
Wilson interval, and the spread across seeds with a t interval.

Conditions, each in original mode (the 1999 program, Microsoft rand()) and in fixed mode:

- ``none``: O plays +h+s-l (no memory);
- ``original-sign``: O plays +h+s+l from the memory, reading it with X's sign (the bug);
- ``fixed-sign``: the same with the sign fixed for O;

with the thesis's 10,000-game memory, and again with a memory our fixed program trains itself
(both sides +h+s+l from empty memories, ``train_games`` games).  X plays +h+s+l from an empty
memory.m in every run, as in the reference traces' setting C.  Learning stays on for O during a
run (as in the original's batch mode), so each run starts from the same memory and then learns.

Runs are independent, so they go to local processes (concurrent.futures) or a Dask cluster.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

Z_95 = 1.959963984540054  # the standard normal's 97.5% quantile

#: Student's t 97.5% quantiles by degrees of freedom (for a 95% interval of a mean of a few seeds).
_T_975 = {
    1: 12.706205, 2: 4.302653, 3: 3.182446, 4: 2.776445, 5: 2.570582, 6: 2.446912, 7: 2.364624,
    8: 2.306004, 9: 2.262157, 10: 2.228139, 11: 2.200985, 12: 2.178813, 13: 2.160369, 14: 2.144787,
    15: 2.131450, 16: 2.119905, 17: 2.109816, 18: 2.100922, 19: 2.093024, 20: 2.085963, 25: 2.059539,
    30: 2.042272, 40: 2.021075, 60: 2.000298, 120: 1.979930,
}  # fmt: skip


def t_quantile_975(df: int) -> float:
    """Student's t 97.5% quantile; between tabulated values the next smaller df (conservative)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if df > 120:
        return Z_95
    return _T_975[max(k for k in _T_975 if k <= df)]


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float

    def percent(self) -> str:
        """In percent: '20.9 (19.5-22.4)'."""
        return f"{100 * self.estimate:.1f} ({100 * self.low:.1f}-{100 * self.high:.1f})"


def wilson(successes: int, trials: int, z: float = Z_95) -> Interval:
    """The Wilson score interval for a proportion (Wilson 1927): good for small counts and for
    rates near 0 or 1, where the normal approximation is not."""
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials > 0, not {successes}/{trials}")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], bounds: tuple[float, float] = (0.0, 1.0)) -> Interval:
    """Mean of per-seed rates with a 95% t interval (n - 1 degrees of freedom); one value: no width.

    The interval is clipped to ``bounds`` (a rate lies in 0..1), which a t interval of a few
    spread-out rates can otherwise pass."""
    if not values:
        raise ValueError("no values")
    n = len(values)
    mean = sum(values) / n
    if n == 1:
        return Interval(mean, mean, mean)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile_975(n - 1) * sd / math.sqrt(n)
    return Interval(mean, max(bounds[0], mean - half), min(bounds[1], mean + half))


# --- the conditions -----------------------------------------------------------------------------

MODES = ("original", "fixed")
VARIANTS = ("none", "original-sign", "fixed-sign")
MEMORIES = ("thesis", "trained")
#: The seed's figures (000): O's share of 3,000 games in the original program, X and O with memories.
SEED_FIGURES = {
    ("thesis", "original", "original-sign"): 0.209,
    ("thesis", "original", "none"): 0.248,
    ("thesis", "original", "fixed-sign"): 0.340,
}
#: Series of the chart: O's win rate against the training games of the memory (mode, variant).
CHART_SERIES = (("original", "original-sign"), ("original", "fixed-sign"), ("fixed", "fixed-sign"))
#: The thesis's own memories after so many games (files beside the 10,000-game one), for the chart.
THESIS_CHECKPOINTS = {
    2000: "memory after 2000 games.txt",
    2500: "memory after 2500 games.txt",
    3000: "memory after 3000 games.txt",
    10000: "memory after 10000 games.txt",
}


@dataclass(frozen=True)
class RunTask:
    """One batch run: ``games`` games, X +h+s+l with ``x_memory``, O by ``variant`` with ``o_memory``."""

    memory: str  # "thesis", "trained", or a chart point's label
    mode: str  # "original" or "fixed"
    variant: str  # "none", "original-sign" or "fixed-sign"
    seed: int
    games: int
    o_memory: tuple[tuple[str, int, int], ...]
    x_memory: tuple[tuple[str, int, int], ...]
    training_games: int | None = None  # for chart points: the games the memory was trained over


@dataclass(frozen=True)
class RunResult:
    memory: str
    mode: str
    variant: str
    seed: int
    games: int
    x_wins: int
    draws: int
    o_wins: int
    seconds: float
    training_games: int | None = None
    stopped: str | None = None  # where the original would have hung, the run stops: what and where

    @property
    def o_rate(self) -> Interval:
        return wilson(self.o_wins, self.games)


def fixes_for(mode: str, variant: str):  # -> Fixes
    """The program of ``mode`` with O's memory sign as ``variant`` says (the seed's one-bug study)."""
    from ..players.thesis.fixes import Fixes

    if mode not in MODES or variant not in VARIANTS:
        raise ValueError(f"unknown condition {mode}/{variant}")
    base = Fixes.original() if mode == "original" else Fixes.fixed()
    if variant == "none":
        return base
    return base.but(memory_sign_by_side=variant == "fixed-sign")


def run_task(task: RunTask) -> RunResult:
    """Play one run (in a worker process or a Dask worker: everything it needs is in ``task``).

    Where the original would have hung (original mode: an opening pick with its four cells taken,
    a random move with no move), the run stops there and reports the games it finished.
    """
    import time

    from ..players.thesis.engine import Settings
    from ..players.thesis.memory import Memory
    from .thesis_batch import BatchConfig, BatchHang, run_batch

    started = time.perf_counter()
    o_learns = task.variant != "none"
    tally = {"X": 0, "D": 0, "O": 0}
    config = BatchConfig(
        games=task.games,
        first=Settings(True, True, True),
        second=Settings(True, True, o_learns),
        original=task.mode == "original",
        seed=task.seed,
        first_memory=Memory(task.x_memory),
        second_memory=Memory(task.o_memory) if o_learns else None,
        fixes=fixes_for(task.mode, task.variant),
        progress=lambda game: tally.__setitem__(game.result, tally[game.result] + 1),
    )
    stopped = None
    try:
        run_batch(config)
    except BatchHang as error:
        stopped = str(error)
    return RunResult(
        task.memory, task.mode, task.variant, task.seed, sum(tally.values()), tally["X"], tally["D"], tally["O"],
        time.perf_counter() - started, task.training_games, stopped,
    )  # fmt: skip


def train_memory(games: int, seed: int, checkpoints: Sequence[int]) -> dict[int, tuple[tuple[str, int, int], ...]]:
    """Our fixed program trains a memory by self-play (both sides +h+s+l, both learning, from empty
    memories, which stay identical: section f); the memory at each checkpoint (games played)."""
    from ..players.thesis.engine import Settings
    from ..players.thesis.memory import Memory
    from .thesis_batch import BatchConfig, BatchHang, run_batch

    first, second = Memory(), Memory()
    snapshots: dict[int, tuple[tuple[str, int, int], ...]] = {0: ()}
    played = [0]  # games finished so far, counted as they end (a hang ends a stage early)
    done = attempt = 0
    for target in sorted({c for c in checkpoints if 0 < c <= games} | {games}):
        while done < target:
            config = BatchConfig(
                games=target - done,
                first=Settings(True, True, True),
                second=Settings(True, True, True),
                seed=seed * 1000 + attempt,  # a seed per stage: the same seed and stages give the same memory
                first_memory=first,
                second_memory=second,
                progress=lambda _: played.__setitem__(0, played[0] + 1),
            )
            attempt += 1
            try:
                run_batch(config)
            except BatchHang:  # a random move with no move: go on from the next game with the next seed
                pass
            done = played[0]
        snapshots[done] = tuple(first.entries())
    return snapshots


def default_thesis_memory() -> Path | None:
    """The thesis's 10,000-game memory: in $GAMELEARN_THESIS_DATA, ../shared/thesis-data from here,
    or ../shared/thesis-data beside this checkout; None where none of them holds it."""
    name = "memory after 10000 games.txt"
    folders = []
    if os.environ.get("GAMELEARN_THESIS_DATA"):
        folders.append(Path(os.environ["GAMELEARN_THESIS_DATA"]))
    folders.append(Path("..") / "shared" / "thesis-data")
    folders.append(Path(__file__).resolve().parents[3].parent / "shared" / "thesis-data")
    for folder in folders:
        if (folder / name).is_file():
            return folder / name
    return None


# --- running the experiment ---------------------------------------------------------------------


@dataclass(frozen=True)
class ExperimentConfig:
    thesis_memory: Path
    games: int = 3000
    seeds: int = 5
    first_seed: int = 1
    train_games: int = 10000
    chart_games: int | None = None  # games per chart point (default: ``games``)
    chart_steps: int = 4  # checkpoints of our training: 0, T/4, T/2, 3T/4, T
    x_memory: str = "same"  # X's memory: "same" as O's memory under test, or "empty"
    workers: int = 1
    dask: str | None = None  # a scheduler address, or "local" for a local Dask cluster

    def __post_init__(self) -> None:
        for name in ("games", "seeds", "train_games", "chart_steps", "workers"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name.replace('_', '-')} must be at least 1, not {getattr(self, name)}")
        if self.chart_games is not None and self.chart_games < 1:
            raise ValueError(f"chart-games must be at least 1, not {self.chart_games}")
        if self.x_memory not in ("same", "empty"):
            raise ValueError(f"x-memory is 'same' or 'empty', not {self.x_memory!r}")

    @property
    def seed_list(self) -> list[int]:
        return [self.first_seed + k for k in range(self.seeds)]

    def to_dict(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["thesis_memory"] = str(self.thesis_memory)
        return data


@dataclass(frozen=True)
class ConditionSummary:
    memory: str
    mode: str
    variant: str
    training_games: int | None
    runs: int
    games: int
    x_wins: int
    draws: int
    o_wins: int
    pooled: Interval  # Wilson over all the condition's games
    across_seeds: Interval  # mean of the runs' O rates, t interval
    lowest: float
    highest: float
    seed_figure: float | None


@dataclass
class ExperimentReport:
    config: ExperimentConfig
    runs: list[RunResult]
    conditions: list[ConditionSummary]
    chart_points: list[ConditionSummary]
    trained_records: int

    def to_payload(self) -> dict[str, Any]:
        def interval(i: Interval) -> list[float]:
            return [i.estimate, i.low, i.high]

        def summary(s: ConditionSummary) -> dict[str, Any]:
            data = {f.name: getattr(s, f.name) for f in fields(s)}
            data["pooled"], data["across_seeds"] = interval(s.pooled), interval(s.across_seeds)
            return data

        return {
            "config": self.config.to_dict(),
            "runs": [{f.name: getattr(r, f.name) for f in fields(r)} for r in self.runs],
            "conditions": [summary(s) for s in self.conditions],
            "chart_points": [summary(s) for s in self.chart_points],
            "trained_records": self.trained_records,
        }


def summarize_runs(runs: Sequence[RunResult]) -> list[ConditionSummary]:
    """One summary per (memory, mode, variant, training games), in the order first seen."""
    groups: dict[tuple[str, str, str, int | None], list[RunResult]] = {}
    for run in runs:
        groups.setdefault((run.memory, run.mode, run.variant, run.training_games), []).append(run)
    summaries = []
    for (memory, mode, variant, trained), all_members in groups.items():
        members = [r for r in all_members if r.games]  # a run that hung in its first game has no rate
        if not members:
            continue
        games = sum(r.games for r in members)
        o_wins = sum(r.o_wins for r in members)
        rates = [r.o_wins / r.games for r in members]
        summaries.append(
            ConditionSummary(
                memory,
                mode,
                variant,
                trained,
                len(members),
                games,
                sum(r.x_wins for r in members),
                sum(r.draws for r in members),
                o_wins,
                wilson(o_wins, games),
                mean_interval(rates),
                min(rates),
                max(rates),
                SEED_FIGURES.get((memory, mode, variant)) if trained is None else None,
            )  # fmt: skip
        )
    return summaries


class _InlineExecutor:
    """workers=1: run each task at once in this process (same results as the pools: every run is
    seeded, so where it runs does not matter)."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args))
        except BaseException as error:  # handed to whoever asks for the result, as a pool would
            future.set_exception(error)
        return future

    def shutdown(self) -> None:
        return None


@contextmanager
def _executor(workers: int, dask: str | None) -> Iterator[Any]:
    if dask is not None:
        from dask.distributed import Client, LocalCluster

        cluster = (
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, silence_logs=logging.CRITICAL)
            if dask == "local"
            else None
        )
        client = Client(cluster if cluster is not None else dask)
        try:
            yield client
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
        return
    if workers == 1:
        yield _InlineExecutor()
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield pool


def _wait_all(futures: list[Any], on_done: Callable[[Any], None]) -> list[Any]:
    """Results in submission order; ``on_done`` hears each as it completes (concurrent.futures or Dask)."""
    if futures and not isinstance(futures[0], Future):  # Dask futures
        from dask.distributed import as_completed as dask_completed

        for future in dask_completed(futures):
            on_done(future.result())
    else:
        for future in as_completed(futures):
            on_done(future.result())
    return [future.result() for future in futures]


def _thesis_checkpoints(thesis_memory: Path) -> dict[int, tuple[tuple[str, int, int], ...]]:
    """The thesis's memories after 2000, 2500, 3000 and 10,000 games, where they lie beside it."""
    from ..store.thesis_memories import read_memory_entries

    found = {}
    for games, name in THESIS_CHECKPOINTS.items():
        path = thesis_memory.parent / name
        if path.is_file():
            found[games] = tuple(read_memory_entries(path))
    return found


def run_experiment(config: ExperimentConfig, progress: Callable[[int, int], None] | None = None) -> ExperimentReport:
    """Every run of the experiment (see the module docstring), summarised per condition."""
    from ..store.thesis_memories import read_memory_entries

    thesis = tuple(read_memory_entries(config.thesis_memory))
    chart_games = config.chart_games or config.games
    steps = sorted({round(config.train_games * k / config.chart_steps) for k in range(config.chart_steps + 1)})
    done = total = 0

    def tick(_: Any) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    def x_of(memory: tuple[tuple[str, int, int], ...]) -> tuple[tuple[str, int, int], ...]:
        return memory if config.x_memory == "same" else ()

    def condition_tasks(label: str, memory: tuple[tuple[str, int, int], ...]) -> list[RunTask]:
        return [
            RunTask(label, mode, variant, seed, config.games, memory, x_of(memory))
            for mode in MODES
            for variant in VARIANTS
            for seed in config.seed_list
        ]

    def chart_tasks(label: str, snapshots: dict[int, tuple[tuple[str, int, int], ...]]) -> list[RunTask]:
        return [
            RunTask(label, mode, variant, seed, chart_games, memory, x_of(memory), training_games=trained)
            for trained, memory in sorted(snapshots.items())
            for mode, variant in CHART_SERIES
            for seed in config.seed_list
        ]

    with _executor(config.workers, config.dask) as executor:
        training = executor.submit(train_memory, config.train_games, config.first_seed, steps)
        thesis_tasks = condition_tasks("thesis", thesis) + chart_tasks(
            "thesis memories", _thesis_checkpoints(config.thesis_memory)
        )
        # the training, the thesis runs, and the trained runs (known in number before they exist)
        total = 1 + len(thesis_tasks) + (len(MODES) * len(VARIANTS) + len(steps) * len(CHART_SERIES)) * config.seeds
        thesis_futures = [executor.submit(run_task, task) for task in thesis_tasks]
        snapshots = training.result()
        tick(None)
        trained = snapshots[config.train_games]
        trained_tasks = condition_tasks("trained", trained) + chart_tasks("our training", snapshots)
        trained_futures = [executor.submit(run_task, task) for task in trained_tasks]
        results = _wait_all(thesis_futures + trained_futures, tick)
    main = [r for r in results if r.training_games is None]
    chart = [r for r in results if r.training_games is not None]
    return ExperimentReport(config, results, summarize_runs(main), summarize_runs(chart), len(trained))


def write_chart(report: ExperimentReport, path: Path | str) -> None:
    """O's win rate against the games its memory was trained over, one line per series through the
    mean over seeds, each seed's run a small point beside it (with few seeds a t interval is wider
    than the data; the runs themselves show the spread); rendered to bytes (matplotlib's Agg), then
    written whole by store.files.atomic_write_bytes: a new file gets open()'s mode, a missing folder
    is a ValueError."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from ..store.files import atomic_write_bytes

    figure = Figure(figsize=(9, 5), dpi=100, layout="constrained")
    axes = figure.add_subplot()
    styles = {"our training": "-", "thesis memories": "--"}
    for family in ("our training", "thesis memories"):
        for mode, variant in CHART_SERIES:
            points = sorted(
                (p for p in report.chart_points if p.memory == family and p.mode == mode and p.variant == variant),
                key=lambda p: p.training_games or 0,
            )
            if not points:
                continue
            xs = [p.training_games or 0 for p in points]
            ys = [100 * p.across_seeds.estimate for p in points]
            (line,) = axes.plot(xs, ys, linestyle=styles[family], marker="o",
                                label=f"{family}: {mode} program, O {variant} (mean)")  # fmt: skip
            runs = [r for r in report.runs if r.memory == family and r.mode == mode and r.variant == variant
                    and r.training_games is not None]  # fmt: skip
            axes.scatter([r.training_games or 0 for r in runs], [100 * r.o_rate.estimate for r in runs],
                         s=12, alpha=0.45, color=line.get_color(), linewidths=0)  # fmt: skip
    for (_, _, variant), figure_value in SEED_FIGURES.items():
        axes.axhline(100 * figure_value, color="grey", linewidth=0.8, linestyle=":")
        axes.text(axes.get_xlim()[1], 100 * figure_value, f" seed: O {variant}, {100 * figure_value:.1f}%",
                  fontsize=7, color="grey", va="center", ha="left")  # fmt: skip
    axes.set_ylim(0, 100)
    axes.set_xlabel("games the memory was trained over")
    axes.set_ylabel("O's wins (% of games)")
    config = report.config
    axes.set_title(
        f"Teeko thesis program: O's win rate, each seed's run a point "
        f"({config.seeds} seeds, {config.chart_games or config.games} games each)"
    )
    axes.legend(fontsize=7)
    axes.grid(alpha=0.3)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    atomic_write_bytes(path, buffer.getvalue())
