"""Training a self-play learner (``az``) for a time or a number of games, with checkpoints that
grade it against the perfect player on a fixed set of positions from real games.

The positions: every unfinished position met in seeded games between classic players (random, a
shallow alpha-beta, both seats; for Teeko the thesis evaluation's alpha-beta), without repeats, in
the order met, the first ``count``.  At each checkpoint a frozen copy of the learner (its knowledge
loaded into a new player with ``train=off``) chooses a move in every one of them at once, and each
move is graded with ``gamelearn.solve(game).grade``: the share of best moves, and the share that
keeps the position's value (best or keeps).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import asdict, dataclass
from typing import Any

from ..games import Game
from ..match import play_game
from ..players.knowledge import Learner
from ..players.registry import make_player
from ..solve import Grade, Solution

#: The players whose games give each game's grading positions.
POSITION_PLAYERS: dict[str, tuple[str, ...]] = {
    "tictactoe": ("random", "alphabeta:depth=2,eval=better"),
    "hexapawn": ("random", "alphabeta:depth=2,eval=material"),
    "teeko": ("random", "alphabeta:depth=2,eval=thesis"),
}


def grading_positions(game: Game, count: int = 300, seed: int = 0, max_games: int = 400) -> list[Hashable]:
    """Up to ``count`` distinct unfinished positions from seeded games between classic players."""
    specs = POSITION_PLAYERS.get(game.name, ("random", "random"))
    pairs = [(a, b) for a in specs for b in specs]
    found: dict[Hashable, None] = {}
    for index in range(max_games):
        first, second = pairs[index % len(pairs)]
        players = [
            make_player(game, first, seed=seed + 2 * index),
            make_player(game, second, seed=seed + 2 * index + 1),
        ]
        record = play_game(game, players, seed=seed + 1000 * index, max_plies=60, learn=False)
        for state in record.states:
            if not game.is_over(state) and game.legal_moves(state):
                found.setdefault(state, None)
        if len(found) >= count:
            break
    return list(found)[:count]


def frozen_copy(player: Any, spec: str) -> Any:
    """A new player made from ``spec`` (with train=off) holding ``player``'s knowledge."""
    copy = make_player(player.game, spec, seed=player.seed)
    if not isinstance(copy, Learner):
        raise ValueError(f"{spec!r} is not a learner")
    copy.load(player.knowledge())
    return copy


def grade_moves(solution: Solution, states: list[Hashable], moves: list[str]) -> dict[str, int]:
    counts = {grade.value: 0 for grade in Grade}
    for state, move in zip(states, moves, strict=True):
        counts[solution.grade(state, move).value] += 1
    return counts


@dataclass(frozen=True)
class Checkpoint:
    """The learner at one point of a training run."""

    seconds: float
    games: int
    positions: int
    steps: int
    loss: float
    value_loss: float
    games_per_second: float
    positions_per_second: float
    grades: dict[str, int]

    @property
    def best_share(self) -> float:
        return self.grades["best"] / max(1, sum(self.grades.values()))

    @property
    def keeps_share(self) -> float:
        return (self.grades["best"] + self.grades["keeps"]) / max(1, sum(self.grades.values()))

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["best_share"] = round(self.best_share, 4)
        data["keeps_share"] = round(self.keeps_share, 4)
        return data


def train_self_play(
    player: Any,
    solution: Solution | None,
    positions: list[Hashable],
    minutes: float | None = None,
    games: int | None = None,
    checkpoints: int = 10,
    frozen_spec: str | None = None,
    on_batch: Callable[[int, int], None] | None = None,
    on_checkpoint: Callable[[Checkpoint], None] | None = None,
) -> list[Checkpoint]:
    """Train ``player`` by self-play batches until ``minutes`` have passed or ``games`` more games
    were played (whichever is given; both: the first reached), grading a frozen copy ``checkpoints``
    times along the way (evenly in games, or in time) and once at the end.  ``on_batch(games played,
    of games)`` after every batch (of 0 when training for a time)."""
    if minutes is None and games is None:
        raise ValueError("train for --minutes or for --games")
    if minutes is not None and minutes <= 0 or games is not None and games < 1:
        raise ValueError("--minutes must be above 0 and --games at least 1")
    trainer = player.trainer
    per_batch = trainer.settings.games_per_batch
    spec = frozen_spec or f"{player.kind}:simulations={player.simulations},train=off"
    start_games = trainer.games
    started = time.perf_counter()
    deadline = None if minutes is None else started + 60 * minutes
    target = None if games is None else start_games + games
    results: list[Checkpoint] = []
    # The speed is measured from the end of the first batch, which compiles the self-play.
    play_seconds = 0.0
    timed_games, timed_positions = 0, 0
    last_games = start_games

    def checkpoint() -> None:
        grades = {grade.value: 0 for grade in Grade}
        if solution is not None and positions:
            grades = grade_moves(solution, positions, frozen_copy(player, spec).choose_many(positions))
        point = Checkpoint(
            seconds=round(time.perf_counter() - started, 2),
            games=trainer.games,
            positions=trainer.positions,
            steps=trainer.steps,
            loss=round(trainer.last_loss[0], 5),
            value_loss=round(trainer.last_loss[1], 5),
            games_per_second=round(timed_games / play_seconds, 2) if play_seconds else 0.0,
            positions_per_second=round(timed_positions / play_seconds, 1) if play_seconds else 0.0,
            grades=grades,
        )
        results.append(point)
        if on_checkpoint is not None:
            on_checkpoint(point)

    every_games = None if games is None else max(per_batch, games // max(1, checkpoints))
    every_seconds = None if minutes is None else 60 * minutes / max(1, checkpoints)
    next_time = started + (every_seconds or 0)
    while True:
        now = time.perf_counter()
        if (deadline is not None and now >= deadline) or (target is not None and trainer.games >= target):
            break
        batch_started = time.perf_counter()
        first = trainer.games == start_games
        played = player.self_play(1)
        if not first:
            play_seconds += time.perf_counter() - batch_started
            timed_games += per_batch
            timed_positions += played
        if on_batch is not None:
            on_batch(trainer.games - start_games, games or 0)
        due = (every_games is not None and trainer.games - last_games >= every_games) or (
            every_seconds is not None and time.perf_counter() >= next_time
        )
        if due and not (target is not None and trainer.games >= target):
            checkpoint()
            last_games = trainer.games
            if every_seconds is not None:
                next_time = time.perf_counter() + every_seconds
    checkpoint()
    return results
