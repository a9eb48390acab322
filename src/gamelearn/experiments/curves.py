"""Learning curves: how fast each learner learns, graded on the game's suite, on shared axes.

For each learner spec, ``seeds`` independent learners train for a budget: ``games`` training games,
or ``seconds`` of training (wall time while it plays and learns; measuring it is not counted).  A
learner that trains by self-play (``az``: it has ``self_play``) trains by its own self-play
trainer, as ``gamelearn train`` does (one batch played first, off the clock, by a copy that is
thrown away: it compiles the self-play, which costs the first learner in a process seconds and
the next ones nothing, so that every seed's time is training); any other plays the opponent (``against``), its seat set by
``side``: ``first``, ``second``, ``alternate`` (first in even games) or ``usual``, the default: each
learner's own side (:attr:`~gamelearn.players.base.Player.usual_side`: Gardner 1962's HER and HIM
play Black, second; Michie 1961's MENACE X, first; any other alternates).

Before the first game, and at each checkpoint (every ``every`` games, or ``points`` times evenly in
the training time, and at the end), a frozen, greedy copy is measured (its knowledge loaded into
a new player made from ``graded_spec(game, spec)``: train=off, exploration off):

* its grade on the suite (``grade_player``, the same measure as ``gamelearn train`` and
  ``gamelearn grade``): the shares of positions where its move keeps the value (*keeps*, the
  headline), is a best move (*best*), or throws a win to a loss (*blunders*); a learner seated
  on one side (first or second) is graded on its side's positions, those where it moves and can
  be while keeping its value (:mod:`.grading`);
* its **score** against the opponent in ``eval_games`` games (seats by ``side``, nobody learning):
  1 a win, 1/2 a draw (a repetition or the ply cap included), 0 a loss, averaged.

Each point records the games played and the seconds trained.  Over the seeds each point gets its
mean and a 95% band: mean +/- t(0.975, S-1) * s / sqrt(S), Student's t (scipy.stats), s the sample
standard deviation; one seed has no band (the mean alone); a band is cut to [0, 1].

Every game is seeded by a hash of (seed, spec, learner, game), so a run by games replays exactly,
in local processes or on a Dask cluster (a run by seconds is cut by the clock: its games replay,
but how many fit in the time depends on the machine).  ^C keeps the learners that had finished
(:class:`CurvesInterrupted`).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..games import Game, get_game
from ..match import DEFAULT_MAX_PLIES, GameRecord
from ..play import play_and_keep
from ..players.knowledge import Learner
from ..players.registry import graded_spec, make_player
from .curves_output import CurvesResult, Point
from .grading import grade_player, side_name
from .runners import Interrupted, default_workers, run_all
from .suites import get_suite
from .training import SelfPlaying, frozen_copy, self_play_games

#: Where the learner sits: in training games against the opponent, and in the score's games
#: (``usual``: its kind's own side, :func:`seat_of_spec`).
SIDES = ("usual", "first", "second", "alternate")
#: The side (0 moves first) a seat grades, None for both.
GRADED_SIDE = {"first": 0, "second": 1}


def curve_seed(seed: int, spec: int, learner: int, index: int) -> int:
    """The seed of game ``index`` of learner ``learner`` of spec ``spec`` (negative indices: the
    players' own seeds, and the measurements'); a hash, 48 bits."""
    digest = hashlib.blake2b(f"curves:{seed}:{spec}:{learner}:{index}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


def seat_of_spec(game: Game[Any], spec: str, side: str) -> str:
    """Where ``spec``'s learner sits when asked to sit ``side``: ``usual`` is its kind's own side
    (first, second), or alternate for a kind that plays both; a learner that trains by self-play
    plays both sides whatever it is asked (alternate)."""
    player = make_player(game, spec, seed=0)
    if isinstance(player, SelfPlaying):
        return "alternate"
    if side != "usual":
        return side
    return {0: "first", 1: "second"}.get(player.usual_side if player.usual_side is not None else -1, "alternate")


def learner_seat(side: str, index: int) -> int:
    """The learner's seat (0 moves first) in game ``index`` when it sits ``side``."""
    return {"first": 0, "second": 1}.get(side, index % 2)


@dataclass(frozen=True)
class CurveTask:
    """One learner's run (names, not objects: it is pickled to a worker).  ``games`` or
    ``seconds`` is the budget; checkpoints every ``every`` games, or ``points`` evenly in time."""

    game: str
    spec: str
    spec_index: int
    learner: int
    against: str
    games: int | None
    seconds: float | None
    every: int
    points: int
    eval_games: int
    seed: int
    max_plies: int
    side: str = "alternate"


def measure(task: CurveTask, learner: Learner[Any, Any], point: int, games: int, seconds: float) -> Point:
    """Grade a frozen, greedy copy of ``learner`` on the suite, and its score in the eval games."""
    game = get_game(task.game)
    copy_seed = curve_seed(task.seed, task.spec_index, task.learner, -2)
    copy = frozen_copy(learner, graded_spec(game, task.spec), seed=copy_seed)
    side = GRADED_SIDE.get(task.side)
    report = grade_player(copy, get_suite(game), seed=copy_seed, spec=task.spec, side=side)
    total = 0.0
    for index in range(task.eval_games):
        opponent = make_player(game, task.against, seed=curve_seed(task.seed, -1, task.learner, -3 - index))
        seat = learner_seat(task.side, index)
        seats = [copy, opponent] if seat == 0 else [opponent, copy]
        seed = curve_seed(task.seed, task.spec_index, task.learner, 1_000_000 + games * 1000 + index)
        record = play_and_keep(game, seats, seed=seed, max_plies=task.max_plies, learn=False)
        total += 0.5 if record.winner is None else float(record.winner == seat)
    return Point(
        task.spec_index,
        task.learner,
        point,
        games,
        round(seconds, 3),
        report.keeps,
        report.best,
        report.blunders,
        total / task.eval_games,
    )


def run_curve(task: CurveTask, on_game: Callable[[GameRecord[Any], int], None] | None = None) -> list[Point]:
    """Train one learner for its budget, measuring a frozen copy at each checkpoint.
    ``on_game(record, learner's seat)`` hears each training game against the opponent."""
    game = get_game(task.game)
    learner = make_player(game, task.spec, seed=curve_seed(task.seed, task.spec_index, task.learner, -1))
    if not isinstance(learner, Learner):
        raise ValueError(f"{task.spec!r} is not a learner")
    opponent = make_player(game, task.against, seed=curve_seed(task.seed, -1, task.learner, -1))
    self_play = learner if isinstance(learner, SelfPlaying) else None
    if self_play is not None:  # compile the self-play (az: JAX) off the clock, on a copy thrown away
        warm_up = make_player(game, task.spec, seed=curve_seed(task.seed, task.spec_index, task.learner, -4))
        if isinstance(warm_up, SelfPlaying):
            warm_up.self_play(1)
    start = self_play_games(self_play) if self_play is not None else 0
    found = [measure(task, learner, 0, 0, 0.0)]
    played, trained, index = 0, 0.0, 0
    step = None if task.seconds is None else task.seconds / task.points
    last_mark = 0  # the last checkpoint measured: a game count, or a time step's number

    def finished() -> bool:
        return played >= task.games if task.games is not None else trained >= (task.seconds or 0.0)

    while not finished():
        started = time.perf_counter()
        if self_play is not None:
            self_play.self_play(1)
            played = self_play_games(self_play) - start
        else:
            seat = learner_seat(task.side, index)
            seats = [learner, opponent] if seat == 0 else [opponent, learner]
            seed = curve_seed(task.seed, task.spec_index, task.learner, index)
            record = play_and_keep(game, seats, seed=seed, max_plies=task.max_plies)
            played += 1
            if on_game is not None:
                on_game(record, seat)
        trained += time.perf_counter() - started
        index += 1
        mark = played // task.every if step is None else min(task.points, int(trained / step))
        if finished() or mark > last_mark:
            found.append(measure(task, learner, len(found) if step is None else max(mark, 1), played, trained))
            last_mark = mark
    if step is not None and found[-1].point != task.points:  # the end is the last time step
        found[-1] = Point(**{**asdict(found[-1]), "point": task.points})
    return found


# Running -------------------------------------------------------------------------------------------

#: Training games a learner plays when neither ``games`` nor ``seconds`` is given.
DEFAULT_GAMES = 100
#: The most independent learners a spec of curves trains: each is a task with its own points
#: (unbounded, ``--seeds 1000000000`` grows by 90 MB/s before any game).
MAX_SEEDS = 1000


@dataclass(frozen=True)
class CurvesOptions:
    """What a learning-curves run is asked, each default written here once: ``gamelearn curves``
    fills it from its options, ``gamelearn.curves`` from its arguments.  ``games`` training games a
    learner (:data:`DEFAULT_GAMES` when neither it nor ``seconds`` is given) or ``seconds`` of
    training, measured every ``every`` games or ``points`` times evenly in the time; ``seeds``
    learners a spec, each seated by ``side`` against ``against``; ``eval_games`` games a score;
    ``workers`` local processes (None: the machine's), or a ``dask`` cluster."""

    game: Game[Any] | str
    specs: Sequence[str]
    against: str = "random"
    games: int | None = None
    seconds: float | None = None
    every: int = 10
    points: int = 10
    seeds: int = 5
    side: str = "usual"
    eval_games: int = 20
    seed: int = 0
    max_plies: int = DEFAULT_MAX_PLIES
    workers: int | None = None
    dask: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "specs", tuple(spec.strip() for spec in self.specs))
        if self.games is None and self.seconds is None:
            object.__setattr__(self, "games", DEFAULT_GAMES)

    @property
    def chosen(self) -> Game[Any]:
        """The game, made from its name where a name was given."""
        return get_game(self.game) if isinstance(self.game, str) else self.game

    @property
    def learners(self) -> int:
        """The learners trained in all: ``seeds`` a spec."""
        return len(self.specs) * self.seeds

    def check(self) -> None:
        """ValueError naming what is wrong, before anything is played."""
        if not 1 <= self.seeds <= MAX_SEEDS:
            raise ValueError(
                f"seeds: {self.seeds} is outside 1..{MAX_SEEDS} (each seed is a learner trained and kept in memory)"
            )
        if not self.specs:
            raise ValueError("name at least one learner spec")
        if (self.games is None) == (self.seconds is None):
            raise ValueError("give one budget per learner: --games N or --seconds S")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"--seconds must be above 0, not {self.seconds}")
        if self.side not in SIDES:
            raise ValueError(f"--side is usual, first, second or alternate, not {self.side!r}")
        if self.max_plies < 1:
            raise ValueError(f"--max-plies must be at least 1, not {self.max_plies}")
        for name, value in (
            ("--games", 1 if self.games is None else self.games),
            ("--every", self.every),
            ("--points", self.points),
            ("--eval-games", self.eval_games),
            ("--workers", 1 if self.workers is None else self.workers),
        ):
            if value < 1:
                raise ValueError(f"{name} must be at least 1, not {value}")
        game = self.chosen
        for spec in self.specs:
            _check_learner(game, spec)
        opponent = make_player(game, self.against, seed=0)
        if opponent.is_human:
            raise ValueError("--against: curves play machines only, not a person")
        try:
            get_suite(game)
        except ValueError as error:
            raise ValueError(
                f"grading {game.name} needs its solved table: run `gamelearn solve {game.name}` first ({error})"
            ) from None


def _check_learner(game: Game[Any], spec: str) -> None:
    player = make_player(game, spec, seed=0)
    if not isinstance(player, Learner):
        raise ValueError(
            f"{spec!r} is not a learner: curves measure players that learn (her, him, menace, td, thesis, az)"
        )
    if player.keep_name() is not None:
        raise ValueError(f"{spec!r}: curves train fresh learners in memory; drop the stored name from the spec")
    if not player.trains:
        raise ValueError(f"{spec!r}: a frozen learner (train=off) learns nothing; drop train=off")
    make_player(game, graded_spec(game, spec), seed=0)


class CurvesInterrupted(KeyboardInterrupt):
    """Curves stopped by ^C: ``result`` holds the learners that had finished (``finished`` of
    ``total``); the others have no points."""

    def __init__(self, result: CurvesResult, finished: int, total: int) -> None:
        super().__init__(f"interrupted with {finished} of {total} learners finished")
        self.result, self.finished, self.total = result, finished, total


def run_curves(options: CurvesOptions, progress: Callable[[list[Point]], None] | None = None) -> CurvesResult:
    """The learning curves ``options`` ask for (see the module's text).  ``progress(points)`` hears
    each learner's points as it finishes.  ValueError for bad options, before anything is played;
    :class:`CurvesInterrupted` on ^C, with the learners that had finished."""
    options.check()
    game, specs, seconds, points = options.chosen, list(options.specs), options.seconds, options.points
    workers = default_workers() if options.workers is None else options.workers
    seats = [seat_of_spec(game, spec, options.side) for spec in specs]
    tasks = [
        CurveTask(
            game.name, spec, index, learner, options.against, options.games, seconds, options.every, points,
            options.eval_games, options.seed, options.max_plies, seats[index],
        )
        for index, spec in enumerate(specs)
        for learner in range(options.seeds)
    ]  # fmt: skip
    suite = get_suite(game)
    graded_sides = [GRADED_SIDE.get(seat) for seat in seats]

    def result(found: list[Point]) -> CurvesResult:
        found.sort(key=lambda p: (p.spec_index, p.learner, p.point))
        return CurvesResult(
            game.name, suite.name, len(suite), tuple(specs), options.against, options.games, seconds, options.every,
            None if seconds is None else points, options.seeds, options.side,
            options.eval_games, options.seed, options.max_plies, tuple(found), tuple(seats),
            tuple(len(suite.of_side(s)) for s in graded_sides), tuple(side_name(game, s) for s in graded_sides),
        )  # fmt: skip

    try:
        ran = run_all(run_curve, tasks, workers, options.dask, on_done=progress)
    except Interrupted as stopped:  # keep what finished: the learners measured to the end
        kept = [points for points in stopped.finished if points is not None]
        raise CurvesInterrupted(result([p for points in kept for p in points]), len(kept), len(tasks)) from None
    return result([p for points in ran for p in points])
