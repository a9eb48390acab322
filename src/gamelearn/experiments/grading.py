"""Grading players on a suite of positions: the one yardstick (``gamelearn grade``, and the measure
of ``train``, ``curves`` and ``tournament --grade``).

A player is graded frozen and greedy (:func:`gamelearn.players.registry.graded_spec`: a learner
learns nothing, and exploration is switched off), and chooses one move in every position of the
suite (:mod:`.suites`), each position on its own: before each choice the player is reseeded from
the grade's seed and the position's place in the suite, so a stochastic player (random, MENACE's
beads, MCTS) is graded the same way on every run, in any order, in any number of processes.

The measures, each a share of the suite's positions:

* **keeps**: the chosen move keeps the position's value (a win stays a win, a draw a draw).  The
  headline figure; a suite holds no lost position, where every move would keep the value.
* **best**: the move perfect play would choose (for a win, the fastest; for a draw, any move that
  holds it).
* **blunders**: a win or a draw thrown to a loss.  A player that resigns blunders.

Each is split by phase (Teeko's placement and moving; the other games' opening and endgame) and by
value (the positions the mover wins, and the drawn ones).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..games import Game, get_game
from ..keeper import Keeper, default_keeper, reading_keeper
from ..players.base import Player
from ..players.knowledge import Learner
from ..players.registry import graded_spec, make_player
from .runners import default_workers, run_all
from .suites import Suite, SuitePosition, get_suite

#: The measures, in the order tables show them.
MEASURES = ("keeps", "best", "blunders")


def position_seed(seed: int, index: int) -> int:
    """The seed a player is given before choosing in the suite's position ``index``."""
    digest = hashlib.blake2b(f"grade:{seed}:{index}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


@dataclass(frozen=True)
class Tally:
    """Counts over some positions: how many, and how many moves kept, were best, blundered."""

    positions: int = 0
    keeps: int = 0
    best: int = 0
    blunders: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.positions + other.positions,
            self.keeps + other.keeps,
            self.best + other.best,
            self.blunders + other.blunders,
        )

    def shares(self) -> dict[str, float | None]:
        """Each measure as a share of the positions (None where there are none)."""
        if not self.positions:
            return dict.fromkeys(MEASURES)
        return {measure: getattr(self, measure) / self.positions for measure in MEASURES}


def judge(position: SuitePosition, move: str | None) -> Tally:
    """One position's tally for the move a player chose there (None: it resigned)."""
    if move is None:
        return Tally(1, 0, 0, 1)
    return Tally(1, int(move in position.keeping), int(move in position.best), int(move in position.losing))


@dataclass(frozen=True)
class GradeReport:
    """One player graded on one suite."""

    spec: str
    suite: str
    size: int
    keeps: float
    best: float
    blunders: float
    by_phase: dict[str, dict[str, float | None]] = field(default_factory=dict)
    by_value: dict[str, dict[str, float | None]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "suite": self.suite,
            "size": self.size,
            "keeps": self.keeps,
            "best": self.best,
            "blunders": self.blunders,
            "by_phase": self.by_phase,
            "by_value": self.by_value,
            "counts": self.counts,
        }


def report(spec: str, suite: Suite, tallies: Sequence[Tally]) -> GradeReport:
    """The report of ``spec`` from one tally per position of ``suite``, in the suite's order."""
    total = sum(tallies, Tally())
    by_phase: dict[str, Tally] = {}
    by_value: dict[str, Tally] = {}
    for position, tally in zip(suite.positions, tallies, strict=True):
        by_phase[position.phase] = by_phase.get(position.phase, Tally()) + tally
        by_value[position.value_name] = by_value.get(position.value_name, Tally()) + tally
    shares = total.shares()
    return GradeReport(
        spec=spec,
        suite=suite.name,
        size=len(suite),
        keeps=shares["keeps"] or 0.0,
        best=shares["best"] or 0.0,
        blunders=shares["blunders"] or 0.0,
        by_phase={phase: by_phase[phase].shares() for phase in suite.phases() if phase in by_phase},
        by_value={value: by_value[value].shares() for value in ("win", "draw") if value in by_value},
        counts={"positions": total.positions, "keeps": total.keeps, "best": total.best, "blunders": total.blunders},
    )


def choose_all(player: Player[Any], states: Sequence[Any], seed: int, start: int = 0) -> list[str | None]:
    """The player's move in each state, reseeded before each (see the module's text); a player that
    chooses many at once (az's batched search) is asked once."""
    many = getattr(player, "choose_many", None)
    if many is not None:
        player.reseed(position_seed(seed, start))
        return list(many(list(states)))
    moves: list[str | None] = []
    for offset, state in enumerate(states):
        player.reseed(position_seed(seed, start + offset))
        moves.append(player.choose(state))
    return moves


def grade_player(player: Player[Any], suite: Suite, seed: int = 0, spec: str | None = None) -> GradeReport:
    """Grade a player already made frozen and greedy (a frozen copy of a learner in training) on
    every position of ``suite``."""
    states = [position.state for position in suite.positions]
    moves = choose_all(player, states, seed)
    tallies = [judge(position, move) for position, move in zip(suite.positions, moves, strict=True)]
    return report(spec or player.spec, suite, tallies)


def graded_player(game: Game[Any], spec: str, seed: int = 0) -> Player[Any]:
    """The player ``spec`` stands for, frozen and greedy; a stored learner comes loaded through a
    read-only store, so grading workers never wait on a writer's lock (:func:`check_arguments`
    has made sure something is kept under its name)."""
    player = make_player(game, graded_spec(game, spec), seed=seed)
    if Keeper.is_kept(player):
        reading_keeper().attach(player)
    return player


@dataclass(frozen=True)
class GradeTask:
    """One run of one spec over a slice of the suite (names, not objects: it is pickled)."""

    game: str
    spec: str
    suite: str
    seed: int
    start: int
    stop: int


def grade_slice(task: GradeTask) -> list[Tally]:
    game = get_game(task.game)
    suite = get_suite(game, task.suite)
    player = graded_player(game, task.spec, seed=task.seed)
    positions = suite.positions[task.start : task.stop]
    moves = choose_all(player, [p.state for p in positions], task.seed, task.start)
    return [judge(position, move) for position, move in zip(positions, moves, strict=True)]


def check_arguments(game: Game[Any], specs: Sequence[str], suite: str | None) -> Suite:
    """The suite, once every spec is known to make a machine player (ValueError naming what is
    wrong, before anything is graded)."""
    if not specs:
        raise ValueError("name at least one player spec to grade")
    for spec in specs:
        player = make_player(game, graded_spec(game, spec), seed=0)
        if player.is_human:
            raise ValueError(f"{spec!r}: grading measures machines, not a person")
        if isinstance(player, Learner) and Keeper.is_kept(player):
            if not default_keeper().exists(player):
                raise ValueError(f"{spec!r}: nothing is kept in the store under that name")
    return get_suite(game, suite)


def grade(
    game: Game[Any] | str,
    specs: Sequence[str],
    suite: str | None = None,
    seed: int = 0,
    workers: int | None = None,
    dask: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[GradeReport]:
    """Grade each spec, frozen and greedy, on the suite (the game's default suite when None).
    ``progress(n)`` after each slice of ``n`` positions.  ValueError for a bad spec or suite,
    before anything is graded."""
    if isinstance(game, str):
        game = get_game(game)
    specs = [spec.strip() for spec in specs]
    chosen = check_arguments(game, specs, suite)
    if workers is None:  # Teeko's players think for long: spread them; the small games' are quicker in-process
        workers = default_workers() if game.name == "teeko" else 1
    # Slices small enough to spread over the workers and show progress, large enough that making
    # a player (and warming its compiled kernels) is paid rarely.
    size = len(chosen)
    step = max(1, min(250, -(-size // max(1, workers))))
    slices = [(index, start) for index in range(len(specs)) for start in range(0, size, step)]
    tasks = [
        GradeTask(game.spec, specs[index], chosen.name, seed, start, min(size, start + step)) for index, start in slices
    ]

    def done(tallies: list[Tally]) -> None:
        if progress is not None:
            progress(len(tallies))

    results = run_all(grade_slice, tasks, workers, dask, done)
    reports = []
    for index, spec in enumerate(specs):
        tallies = [
            tally for (owner, _), found in zip(slices, results, strict=True) if owner == index for tally in found
        ]
        reports.append(report(spec, chosen, tallies))
    return reports
