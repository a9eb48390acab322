"""A training run's budget: how long it trains, on which clock (the wall's, or the process's CPU
time), or for exactly how many games; ``gamelearn train`` and ``gamelearn.train`` take it, and
every figure they print names its clock."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """How long a run trains: ``wall_seconds`` of training on the wall clock, ``cpu_seconds`` of this
    process's CPU time (all its threads) while training, or ``games`` self-play games; given several,
    it stops at the first reached.  Its *clock* is the one its checkpoints are spaced and shown on:
    CPU when ``cpu_seconds`` is given, else the wall's.

    >>> Budget(cpu_seconds=60).describe(61.5)
    '61.5 of 60 CPU seconds'
    """

    wall_seconds: float | None = None
    cpu_seconds: float | None = None
    games: int | None = None

    def __post_init__(self) -> None:
        if self.wall_seconds is None and self.cpu_seconds is None and self.games is None:
            raise ValueError("say how long to train: --minutes M, --cpu-minutes M or --games N")
        for label, value in (("--minutes", self.wall_seconds), ("--cpu-minutes", self.cpu_seconds)):
            if value is not None and not value > 0:
                raise ValueError(f"{label} must be above 0")
        if self.games is not None and self.games < 1:
            raise ValueError(f"--games must be at least 1, not {self.games}")

    @property
    def clock(self) -> str:
        """'CPU' or 'wall': the clock a timed budget counts (a budget of games: the wall's)."""
        return "CPU" if self.cpu_seconds is not None else "wall"

    @property
    def seconds(self) -> float | None:
        """The timed budget on its own clock (None: a budget of games only)."""
        return self.cpu_seconds if self.cpu_seconds is not None else self.wall_seconds

    @property
    def unit(self) -> str:
        """What progress counts: 'games', 'CPU seconds' or 'wall seconds'."""
        return "games" if self.seconds is None else f"{self.clock} seconds"

    @property
    def total(self) -> float:
        """The budget in :attr:`unit`."""
        return float(self.games or 0) if self.seconds is None else self.seconds

    def describe(self, done: float) -> str:
        """``done`` of the budget, in its unit: '300 of 300 games', '61.5 of 60 CPU seconds'."""
        if self.seconds is None:
            return f"{int(done):,} of {self.games:,} games"
        return f"{done:,.1f} of {self.seconds:g} {self.unit}"
