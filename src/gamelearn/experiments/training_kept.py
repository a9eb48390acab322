"""A training run's checkpoints (:class:`Checkpoint`) and how the run is kept as it goes
(:class:`TrainingRun`): the learner and the run, in one transaction, and, when the store refuses
a keep (a full disk), one line saying what it holds.  Split from :mod:`.training` along that seam:
this module keeps, :mod:`.training` trains."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from ..games import Game
from ..keeper import Keeper
from ..players.knowledge import Learner
from ..store.failures import StoreError
from .interrupts import signals_deferred


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


class TrainingRun:
    """A training run kept through the keeper as it goes: the learner under its name and the
    run (its checkpoints so far, the games it holds) as a ``train`` result, both in one
    transaction, so that they always describe the same moment.  ^C and SIGTERM wait while it is
    kept.  Hold the name first (``Keeper.writing_whole``): a second trainer is refused."""

    def __init__(self, keeper: Keeper, player: Learner[Any, Any], game: Game[Any], spec: str) -> None:
        self.keeper, self.player, self.game, self.spec = keeper, player, game, spec
        self.result_id: int | None = None
        #: The learner's games when it was last kept (None: not kept by this run yet).
        self.games: int | None = None

    def keep(self, points: list[Checkpoint], stopped: bool = False) -> int:
        """Keep the learner as it is now, and the run; the learner's games, as kept."""
        games = int(self.player.describe()["games"])
        payload = {
            "game": self.game.name,
            "spec": self.spec,
            "name": self.player.keep_name(),
            "seed": self.player.seed,
            "games": games,
            "stopped": stopped,
            "checkpoints": [point.to_dict() for point in points],
        }
        store = self.keeper.store
        with signals_deferred():  # the bookkeeping too: a signal after COMMIT must not lose the result's number
            try:
                with store.transaction():
                    self.keeper.save(self.player)
                    if self.result_id is None:
                        number = store.save_result("train", payload)
                    else:
                        store.update_result(self.result_id, payload)
                        number = self.result_id
            except StoreError as error:  # a full disk, say: the line says what the store holds
                raise type(error)(f"{error}; {self.kept_so_far()}") from None
            self.result_id, self.games = number, games
        return games

    def kept_so_far(self) -> str:
        """What the store holds of a run it stopped (a full disk): the learner as of the run's
        last keep, and how many games trained after it were lost."""
        name = f"{self.player.kind} {getattr(self.player, 'name', None) or self.player.keep_name()!r}"
        if self.games is None or self.result_id is None:
            return f"none of this run's games was kept: {name} is in the store as it was before the run"
        now = int(self.player.describe()["games"])
        lost = f"; the {now - self.games:,} games trained after it are not kept" if now > self.games else ""
        return f"{name} is kept as of the run's last keep, at {self.games:,} games (train #{self.result_id}){lost}"
