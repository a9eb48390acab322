"""What a self-play training run gives back (:mod:`.training`): a :class:`Checkpoint` of the
learner at each graded point, the :class:`TrainingResult` of the run, and
:class:`TrainingInterrupted`, which carries the result of a run stopped by ^C or SIGTERM."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from ..players.knowledge import Learner


@dataclass(frozen=True)
class Checkpoint:
    """The learner at one point of a training run; ``keeps``, ``best``, ``blunders`` are shares of
    the suite's positions (None when not graded)."""

    seconds: float
    games: int
    positions: int
    steps: int
    loss: float
    value_loss: float
    games_per_second: float
    positions_per_second: float
    keeps: float | None
    best: float | None
    blunders: float | None
    #: this process's CPU seconds while training (``seconds`` is the wall clock's)
    cpu_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("keeps", "best", "blunders", "loss", "value_loss"):
            value = data[key]
            data[key] = None if value is None or math.isnan(value) else round(value, 5)
        return data


@dataclass(frozen=True)
class TrainingResult:
    """A training run: the learner (its ``spec``; kept under ``name``, or in memory only when None),
    the games it had played before (``resumed``: it went on from the store) and its checkpoints;
    kept, the ``train`` result it is kept as (``result_id``), ``stopped`` by ^C or SIGTERM."""

    game: str
    spec: str
    name: str | None
    resumed: bool
    games_before: int
    games_after: int
    seconds: float
    checkpoints: tuple[Checkpoint, ...]
    #: the trained learner itself, to play or grade from Python (not part of the dict)
    player: Learner[Any, Any] | None = field(default=None, repr=False, compare=False)
    result_id: int | None = None
    stopped: bool = False
    #: the spec its checkpoints were graded as ("" when not graded): ntuple on Teeko, its raw network
    graded: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "spec": self.spec,
            "graded": self.graded,
            "name": self.name,
            "resumed": self.resumed,
            "games_before": self.games_before,
            "games_after": self.games_after,
            "seconds": round(self.seconds, 3),
            "checkpoints": [point.to_dict() for point in self.checkpoints],
            "result_id": self.result_id,
            "stopped": self.stopped,
        }

    def to_dataframe(self) -> Any:
        """A row a checkpoint: seconds, games, steps, losses, speeds, and the grade's shares."""
        from dataclasses import fields

        from .api_frames import dataframe

        return dataframe([point.to_dict() for point in self.checkpoints], [f.name for f in fields(Checkpoint)])


class TrainingInterrupted(KeyboardInterrupt):
    """A training run stopped by ^C or SIGTERM, after it kept what it had learnt (``result``)."""

    def __init__(self, result: TrainingResult) -> None:
        super().__init__("interrupted")
        self.result = result
