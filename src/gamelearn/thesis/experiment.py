"""The thesis's memory experiment, rerun with confidence intervals (Despotović 1999:
player O reads the memory backwards).

The author reports, for batch self-play where O is player II: O with the memory after 10,000 games
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

Runs are independent, so they go to local processes (concurrent.futures) or a Dask cluster
(:mod:`gamelearn.experiments.runners`).  The parts: :mod:`gamelearn.experiments.statistics` (the intervals), :mod:`.runs` (the
conditions, one run, the training), :mod:`.chart` (the chart); this module plans the runs
and summarises them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ..experiments.runners import (
    Interrupted,
    check_workers,
    executor,
    finished_results,
    result_while_others_finish,
    wait_all,
)
from ..experiments.statistics import Z_95, Interval, mean_interval, t_quantile_975, wilson
from .memories import read_memory_entries
from .runs import (
    AUTHOR_FIGURES,
    CHART_SERIES,
    MEMORIES,
    MODES,
    THESIS_CHECKPOINTS,
    VARIANTS,
    RunResult,
    RunTask,
    fixes_for,
    run_task,
    train_memory,
)


def default_thesis_memory() -> Path | None:
    """The thesis's 10,000-game memory, ``memory after 10000 games.txt``: in the folder
    $GAMELEARN_THESIS_DATA names, else in the working folder; None where neither holds it."""
    name = "memory after 10000 games.txt"
    folders = [Path(os.environ["GAMELEARN_THESIS_DATA"])] if os.environ.get("GAMELEARN_THESIS_DATA") else []
    folders.append(Path.cwd())
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
        check_workers(self.workers, self.dask)  # at most the CPUs, before any run starts
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


def stopped_payload(config: ExperimentConfig, runs: Sequence[RunResult]) -> dict[str, Any]:
    """What a stopped experiment keeps: the runs that finished, as they are, marked stopped; no
    intervals, since a condition's interval needs every run of it."""
    return {
        "config": config.to_dict(),
        "stopped": True,
        "runs": [{f.name: getattr(run, f.name) for f in fields(run)} for run in runs],
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
                AUTHOR_FIGURES.get((memory, mode, variant)) if trained is None else None,
            )  # fmt: skip
        )
    return summaries


def _thesis_checkpoints(thesis_memory: Path) -> dict[int, tuple[tuple[str, int, int], ...]]:
    """The thesis's memories after 2000, 2500, 3000 and 10,000 games, where they lie beside it."""
    found = {}
    for games, name in THESIS_CHECKPOINTS.items():
        path = thesis_memory.parent / name
        if path.is_file():
            found[games] = tuple(read_memory_entries(path))
    return found


def run_experiment(config: ExperimentConfig, progress: Callable[[int, int], None] | None = None) -> ExperimentReport:
    """Every run of the experiment (see the module docstring), summarised per condition."""
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

    with executor(config.workers, config.dask) as running:
        training = running.submit(train_memory, config.train_games, config.first_seed, steps)
        thesis_tasks = condition_tasks("thesis", thesis) + chart_tasks(
            "thesis memories", _thesis_checkpoints(config.thesis_memory)
        )
        # the training, the thesis runs, and the trained runs (known in number before they exist)
        total = 1 + len(thesis_tasks) + (len(MODES) * len(VARIANTS) + len(steps) * len(CHART_SERIES)) * config.seeds
        thesis_futures = [running.submit(run_task, task) for task in thesis_tasks]
        try:  # the thesis runs are counted as they finish, while our memory trains
            snapshots, heard = result_while_others_finish(training, thesis_futures, tick)
        except KeyboardInterrupt:  # ^C while our memory trains: the thesis runs done so far are kept
            raise Interrupted(finished_results(thesis_futures)) from None
        tick(None)
        trained = snapshots[config.train_games]
        trained_tasks = condition_tasks("trained", trained) + chart_tasks("our training", snapshots)
        trained_futures = [running.submit(run_task, task) for task in trained_tasks]
        unheard = [future for index, future in enumerate(thesis_futures) if index not in heard]
        try:
            wait_all(unheard + trained_futures, tick)
        except Interrupted:
            raise Interrupted(finished_results(thesis_futures + trained_futures)) from None
        results = [future.result() for future in thesis_futures + trained_futures]
    main = [r for r in results if r.training_games is None]
    chart = [r for r in results if r.training_games is not None]
    return ExperimentReport(config, results, summarize_runs(main), summarize_runs(chart), len(trained))


__all__ = [
    "AUTHOR_FIGURES",
    "CHART_SERIES",
    "MEMORIES",
    "MODES",
    "THESIS_CHECKPOINTS",
    "VARIANTS",
    "Z_95",
    "ConditionSummary",
    "ExperimentConfig",
    "ExperimentReport",
    "Interval",
    "RunResult",
    "RunTask",
    "default_thesis_memory",
    "fixes_for",
    "mean_interval",
    "run_experiment",
    "run_task",
    "summarize_runs",
    "t_quantile_975",
    "train_memory",
    "wilson",
]
