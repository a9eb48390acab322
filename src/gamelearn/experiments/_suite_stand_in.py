"""A stand-in for the lead's gamelearn.experiments.suites/grading until they land (removed then)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ..games import Game
from ..solve import solve


@dataclass(frozen=True)
class Suite:
    name: str
    positions: tuple[Any, ...]

    def __len__(self) -> int:
        return len(self.positions)


@dataclass(frozen=True)
class GradeReport:
    spec: str
    suite: str
    size: int
    keeps: float
    best: float
    blunders: float


@cache
def _suite(name: str, game: Game) -> Suite:
    solution = solve(game)
    found = []
    seen, frontier = {game.initial()}, [game.initial()]
    while frontier:
        state = frontier.pop()
        for move in () if game.is_over(state) else game.legal_moves(state):
            after = game.play(state, move)
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    for state in sorted(seen, key=repr):
        if game.is_over(state) or not game.legal_moves(state):
            continue
        grades = {solution.grade(state, move).value for move in game.legal_moves(state)}
        if grades & {"best", "keeps"} and grades & {"mistake", "blunder"}:
            found.append(state)
    return Suite(f"{name}-v0", tuple(found))


def get_suite(game: Game, name: str | None = None) -> Suite:
    return _suite(game.name, game)


def graded_spec(game: Game, spec: str) -> str:
    name, _, rest = spec.partition(":")
    options = [p for p in rest.split(",") if p.strip() and p.split("=")[0].strip() not in ("train", "epsilon", "name")]
    extra = ["epsilon=0"] if name.strip() == "td" else []
    return f"{name}:{','.join([*options, *extra, 'train=off'])}"


def grade_player(player: Any, suite: Suite, seed: int = 0) -> GradeReport:
    game = player.game
    solution = solve(game)
    states = list(suite.positions)
    moves = player.choose_many(states) if hasattr(player, "choose_many") else [player.choose(s) for s in states]
    grades = [solution.grade(s, m).value for s, m in zip(states, moves, strict=True)]
    n = max(1, len(grades))
    return GradeReport(
        getattr(player, "kind", "?"),
        suite.name,
        len(states),
        sum(g in ("best", "keeps") for g in grades) / n,
        grades.count("best") / n,
        grades.count("blunder") / n,
    )
