"""The thesis experiment's runs: its conditions, one batch run of a condition, and the training of
a memory by our fixed program (Despotović 1999: player O reads the memory backwards).

A run is a picklable task with its own seed (:class:`RunTask`), so the runners
(:mod:`gamelearn.experiments.runners`) may play it anywhere; :mod:`.experiment` plans and summarises them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..experiments.statistics import Interval, wilson
from .batch import BatchConfig, BatchHang, run_batch
from .engine import Settings
from .fixes import Fixes
from .memory import Memory

MODES = ("original", "fixed")
VARIANTS = ("none", "original-sign", "fixed-sign")
MEMORIES = ("thesis", "trained")
#: The author's figures (Despotović 1999): O's share of 3,000 games in the original program, X and O with memories.
AUTHOR_FIGURES = {
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


def fixes_for(mode: str, variant: str) -> Fixes:
    """The program of ``mode`` with O's memory sign as ``variant`` says (the author's one-bug study)."""
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
    memories, which stay identical); the memory at each checkpoint (games played)."""
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
