"""Training a self-play learner (``az``, and any learner with ``self_play``) for a time or a number
of games, with checkpoints graded on the game's suite (``gamelearn.experiments.suites``).

At each checkpoint a frozen, greedy copy of the learner (its knowledge loaded into a new player made
from ``graded_spec(game, spec)``) chooses a move in every position of the suite, and each is graded
against the exact solution (``grade_player``): the share of moves that keep the position's value
(*keeps*, the headline), of best moves and of blunders.  ``gamelearn train`` and
``gamelearn curves`` grade the same way, so their figures are the same measure.

Time is *training* time, on two clocks: the wall clock's seconds while the learner plays and
learns, and this process's CPU seconds over the same spans (``time.process_time``: every thread).
Both count from the first game (a learner that compiles, az or ntuple, compiles before the clocks start) and
leave out the time spent grading, so that a checkpoint more or less does not change how long it
trained.  A budget (:class:`Budget`) is on one clock, named with every figure it gives: on a
shared machine a wall minute may buy a fraction of a CPU minute.

A run is kept as it goes (:class:`TrainingRun`): the learner's weights and
counters and the run's checkpoints, in one transaction, at every checkpoint and at least every
``KEEP_EVERY_SECONDS`` between them, so a crash loses at most that much.  A batch of self-play games is learnt whole: ^C
and SIGTERM wait for its end (``signals_deferred``), so what is kept is always the learner after
some number of whole batches, which the same seed replays exactly.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Protocol, TypeVar, runtime_checkable

from ..games import Game, get_game
from ..keeper import Keeper
from ..players.knowledge import K, Learner
from ..players.registry import graded_spec, kind_of, make_player, with_options
from ..store.failures import StoreError
from .budget import Budget
from .grading import GradeReport, grade_player
from .interrupts import signals_deferred
from .notebook import dataframe
from .suites import get_suite

#: Between checkpoints, a training run keeps its learner at least this often (seconds).
KEEP_EVERY_SECONDS = 30.0

S = TypeVar("S", bound=Hashable)


class BatchSettings(Protocol):
    """What a run reads of a self-play trainer's settings."""

    @property
    def games_per_batch(self) -> int: ...


class SelfPlayTrainer(Protocol):
    """What a run reads of a self-play learner's trainer (az's and ntuple's): its counters."""

    games: int
    positions: int
    steps: int
    last_loss: tuple[float, float]

    @property
    def settings(self) -> BatchSettings: ...

    def play_in_batches_of(self, games: int) -> None: ...


@runtime_checkable
class SelfPlaying(Protocol):
    """A learner that teaches itself by self-play batches (az, ntuple): ``self_play(batches)``
    plays and learns that many batches and returns the positions it played."""

    trainer: SelfPlayTrainer

    def self_play(self, batches: int = 1) -> int: ...


def frozen_copy(player: Learner[S, K], spec: str, seed: int | None = None) -> Learner[S, K]:
    """A new player made from ``spec`` (a frozen one: train=off) holding ``player``'s knowledge."""
    copy = make_player(player.game, spec, seed=player.seed if seed is None else seed)
    if not isinstance(copy, Learner):
        raise ValueError(f"{spec!r} is not a learner")
    copy.load(player.knowledge())
    return copy


def grade_learner(
    game: Game[S], spec: str, learner: Learner[S, Any], seed: int = 0, side: int | None = None
) -> GradeReport:
    """Grade ``learner`` (made from ``spec``) as it is now: a frozen, greedy copy on the suite's
    positions where ``side`` moves (the whole suite for None)."""
    copy = frozen_copy(learner, graded_spec(game, spec), seed)
    return grade_player(copy, get_suite(game), seed=seed, spec=spec, side=side)


def suite_label(game: Game[Any]) -> str:
    """The suite's name and size, as a chart's title or a header says it: 'hexapawn-v1, 27 positions'."""
    suite = get_suite(game)
    return f"{suite.name}, {len(suite):,} positions"


def self_play_games(player: SelfPlaying) -> int:
    """The games a self-play learner has learnt from (its trainer's count)."""
    return int(player.trainer.games)


def busy_batches_refused(games: int, per_batch: int) -> ValueError:
    """The one line that refuses ``games`` games to a learner playing ``per_batch`` in busy slots."""
    return ValueError(
        f"--games {games:,}: this learner plays {per_batch} games at once and starts "
        "a new one in a slot as soon as one ends, so a batch ends a varying number of games; "
        "train it for --minutes or --cpu-minutes"
    )


class _SelfPlayRun:
    """One :func:`train_self_play` run's state, a named step a method: play a batch (the last one
    cut to the games left), take a checkpoint, keep the learner."""

    def __init__(self, player: SelfPlaying, budget: Budget, grade: Callable[[], GradeReport] | None) -> None:
        self.player, self.trainer, self.budget, self.grade = player, player.trainer, budget, grade
        self.per_batch = int(self.trainer.settings.games_per_batch)
        self.start_games = int(self.trainer.games)
        self.target = None if budget.games is None else self.start_games + budget.games
        self.wall = 0.0  # seconds of training, grading left out, on each clock
        self.cpu = 0.0
        # The speed is measured from the end of the first batch, which compiles the self-play.
        self.play_seconds = 0.0
        self.timed_games = self.timed_positions = 0
        self.batches = 0
        self.results: list[Checkpoint] = []

    def check(self) -> None:
        """Refuse, before any game, a budget of games this learner cannot end on exactly."""
        if self.budget.games is not None and not getattr(self.trainer, "whole_batches", False):
            raise busy_batches_refused(self.budget.games, self.per_batch)

    def spent(self) -> float:
        """The budget used so far, in its unit (games on top of the start, or seconds on its clock)."""
        if self.budget.seconds is None:
            return float(self.trainer.games - self.start_games)
        return self.cpu if self.budget.clock == "CPU" else self.wall

    def finished(self) -> bool:
        b = self.budget
        return (
            (b.wall_seconds is not None and self.wall >= b.wall_seconds)
            or (b.cpu_seconds is not None and self.cpu >= b.cpu_seconds)
            or (self.target is not None and self.trainer.games >= self.target)
        )

    def play_batch(self) -> None:
        """One self-play batch, learnt whole (a stop signal waits for its end); with a budget of
        games, the last batch plays only the games left."""
        trainer = self.trainer
        left = self.per_batch if self.target is None else self.target - trainer.games
        cut = left < int(trainer.settings.games_per_batch)
        if cut:
            trainer.play_in_batches_of(left)
        wall, cpu = time.perf_counter(), time.process_time()
        games_before = trainer.games
        try:
            with signals_deferred():  # a batch is learnt whole, its counters included
                played = self.player.self_play(1)
        finally:
            if cut:
                trainer.play_in_batches_of(self.per_batch)
        seconds = time.perf_counter() - wall
        self.wall += seconds
        self.cpu += time.process_time() - cpu
        if self.batches:
            self.play_seconds += seconds
            self.timed_games += trainer.games - games_before  # az's busy slots finish a varying number
            self.timed_positions += played
        self.batches += 1

    def checkpoint(self) -> Checkpoint:
        report = self.grade() if self.grade is not None else None
        trainer = self.trainer
        loss = getattr(trainer, "last_loss", (math.nan, math.nan))
        timed = self.play_seconds
        point = Checkpoint(
            seconds=round(self.wall, 2),
            games=trainer.games,
            positions=int(getattr(trainer, "positions", 0)),
            steps=int(getattr(trainer, "steps", 0)),
            loss=round(loss[0], 5),
            value_loss=round(loss[1], 5),
            games_per_second=round(self.timed_games / timed, 2) if timed else 0.0,
            positions_per_second=round(self.timed_positions / timed, 1) if timed else 0.0,
            keeps=None if report is None else report.keeps,
            best=None if report is None else report.best,
            blunders=None if report is None else report.blunders,
            cpu_seconds=round(self.cpu, 2),
        )
        self.results.append(point)
        return point


def train_self_play(
    player: SelfPlaying,
    grade: Callable[[], GradeReport] | None,
    minutes: float | None = None,
    games: int | None = None,
    checkpoints: int = 10,
    on_batch: Callable[[float, float], None] | None = None,
    on_checkpoint: Callable[[Checkpoint], None] | None = None,
    keep: Callable[[list[Checkpoint]], object] | None = None,
    keep_every: float = KEEP_EVERY_SECONDS,
    cpu_minutes: float | None = None,
) -> list[Checkpoint]:
    """Train ``player`` by self-play batches for a :class:`Budget`: ``minutes`` of training on the
    wall clock, ``cpu_minutes`` of this process's CPU time, or exactly ``games`` more games (the
    last batch cut to the games left; a learner whose batches end a varying number of games is
    refused a budget of games); given several, the first reached.  It is graded (``grade``, a
    report of the learner as it is, e.g. by :func:`grade_learner`; None: not graded) ``checkpoints`` times along the way, evenly on the
    budget's measure, and once at the end.  ``on_batch(done, total)`` after every batch, in the
    budget's unit (:attr:`Budget.unit`).  An interrupt (^C) stops it between two statements: the
    learner keeps what it has learnt, and ``on_checkpoint`` has heard every checkpoint taken.
    ``keep(checkpoints so far)`` (a :meth:`TrainingRun.keep`) after every checkpoint, the last
    included, and at least every ``keep_every`` seconds between them.  A batch is learnt whole: a
    stop signal that arrives during it is acted on after it."""
    budget = Budget(
        wall_seconds=None if minutes is None else 60 * minutes,
        cpu_seconds=None if cpu_minutes is None else 60 * cpu_minutes,
        games=games,
    )
    run = _SelfPlayRun(player, budget, grade)
    run.check()
    last_kept = time.perf_counter()

    def kept() -> None:
        nonlocal last_kept
        if keep is not None:
            keep(run.results)
        last_kept = time.perf_counter()

    def checkpoint() -> None:
        point = run.checkpoint()
        if on_checkpoint is not None:
            on_checkpoint(point)
        kept()

    # Training time counts from the first game: a learner that can compile first (az, ntuple) does so here.
    compile_first = getattr(run.trainer, "compile", None)
    if callable(compile_first):
        with signals_deferred():  # a KeyboardInterrupt inside numba's compiler would come out as its RuntimeError
            compile_first()
    every = budget.total / max(1, checkpoints)
    if budget.seconds is None:
        every = max(run.per_batch, int(every))
    next_due = every
    while not run.finished():
        run.play_batch()
        if on_batch is not None:
            on_batch(run.spent(), budget.total)
        if run.finished():
            break
        if run.spent() >= next_due:
            checkpoint()
            next_due = run.spent() + every
        elif time.perf_counter() - last_kept >= keep_every:
            kept()
    checkpoint()
    return run.results


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
        return dataframe([point.to_dict() for point in self.checkpoints], [f.name for f in fields(Checkpoint)])


class TrainingInterrupted(KeyboardInterrupt):
    """A training run stopped by ^C or SIGTERM, after it kept what it had learnt (``result``)."""

    def __init__(self, result: TrainingResult) -> None:
        super().__init__("interrupted")
        self.result = result


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


#: The most minutes one training run may be asked for: a week.  A longer run is a typo (``1e12``).
MAX_TRAIN_MINUTES = 7 * 24 * 60
#: The most self-play games played at once: a GPU's batch holds hundreds to a few thousand; more
#: only exhausts its memory (unbounded, ``--parallel 100000000`` ends in JAX's out-of-memory error).
MAX_PARALLEL = 4096


@dataclass(frozen=True)
class TrainOptions:
    """What a self-play training run is asked, each default written here once: ``gamelearn train``
    fills it from its options, ``gamelearn.train`` from its arguments.  The ``learner`` (a spec:
    ``az``, ``ntuple``) is kept under ``name`` (None: it learns in memory) and trains for exactly
    ``games`` games, ``minutes`` on the wall clock or ``cpu_seconds`` of the process's CPU time
    (the first reached when several are given), ``parallel`` games at once (None: the game's
    default); ``checkpoints`` are graded on the game's suite unless ``grade`` is off, as the learner
    plays or, where that searches (ntuple on Teeko), as its raw network unless ``full_grade``."""

    game: Game[Any] | str
    learner: str = "az"
    name: str | None = None
    games: int | None = None
    minutes: float | None = None
    cpu_seconds: float | None = None
    seed: int = 0
    checkpoints: int = 5
    grade: bool = True
    parallel: int | None = None
    full_grade: bool = False

    @property
    def chosen(self) -> Game[Any]:
        """The game, made from its name where a name was given."""
        return get_game(self.game) if isinstance(self.game, str) else self.game

    @property
    def budget(self) -> Budget:
        """The run's budget: games, or seconds on the wall or the CPU clock."""
        return Budget(None if self.minutes is None else 60 * self.minutes, self.cpu_seconds, self.games)

    def check(self) -> None:
        """ValueError, one line, for a budget or a batch outside what a run can hold."""
        minutes, cpu_seconds, games, parallel = self.minutes, self.cpu_seconds, self.games, self.parallel
        if minutes is None and games is None and cpu_seconds is None:
            raise ValueError("say how long to train: --minutes M (wall), --cpu-minutes M or --games N")
        if minutes is not None and not 0 < minutes <= MAX_TRAIN_MINUTES:
            raise ValueError(f"--minutes: {minutes:g} is outside (0, {MAX_TRAIN_MINUTES}] (a week at most)")
        if cpu_seconds is not None and not 0 < cpu_seconds <= 60 * MAX_TRAIN_MINUTES:
            raise ValueError(
                f"--cpu-minutes: {cpu_seconds / 60:g} is outside (0, {MAX_TRAIN_MINUTES}] (a week at most)"
            )
        if games is not None and games < 1:
            raise ValueError(f"--games must be at least 1, not {games}")
        if self.checkpoints < 1:
            raise ValueError(f"--checkpoints must be at least 1, not {self.checkpoints}")
        if parallel is not None and not 1 <= parallel <= MAX_PARALLEL:
            raise ValueError(f"--parallel: {parallel} is outside 1..{MAX_PARALLEL} (games a batch holds in memory)")


class Training:
    """A self-play training run, set up and checked before any game (a ValueError, in one line):
    the learner made from ``learner`` (a spec; ``name`` added), and, with a ``keeper``, its name
    held for this run alone (``Keeper.writing_whole``: a second trainer of it is refused) and what
    the store keeps under it loaded (``resumed``).  A context manager: the name is released when
    it closes.  :meth:`run` trains it; ``gamelearn train`` and ``gamelearn.train`` both run it.
    ``games``, the budget :meth:`run` will be given, lets a learner that cannot end on it be
    refused before it is built."""

    def __init__(
        self,
        game: Game[Any],
        learner: str,
        *,
        name: str | None,
        keeper: Keeper | None,
        seed: int = 0,
        grade: bool = True,
        parallel: int | None = None,
        full_grade: bool = False,
        games: int | None = None,
    ) -> None:
        self.game, self.kind = game, learner.strip().partition(":")[0]
        self.learner = learner.strip()
        spec = self.learner
        if name is not None:
            spec = f"{spec}:name={name}" if ":" not in spec else f"{spec},name={name}"
        self.spec, self.name, self.keeper = spec, name, keeper if name is not None else None
        busy = None if games is None else kind_of(game, spec).busy_batch
        if games is not None and busy is not None:
            # A budget of ``games`` the learner cannot end on is refused before it is built (az's
            # network, seconds) and before the store is opened for writing: a new learner batches
            # as its game does, one the store keeps as it was kept (what it keeps is read, not
            # loaded).  train_self_play checks the learner again once loaded.
            kept = None if self.keeper is None or name is None else self.keeper.document(self.kind, name)
            per_batch = busy(game, kept)
            if per_batch is not None:
                raise busy_batches_refused(games, parallel or per_batch)
        player = make_player(game, spec, seed=seed)
        if not isinstance(player, Learner) or not isinstance(player, SelfPlaying):
            raise ValueError(
                f"{learner!r} does not learn by self-play; train learns az and ntuple "
                "(the others learn from games: play, curves)"
            )
        self.player: Learner[Any, Any] = player
        self.self_play: SelfPlaying = player  # the same learner, as train_self_play drives it
        self.label: str | None = None
        #: The spec its checkpoints are graded as: its own play, or where that searches (ntuple on
        #: Teeko) its raw network unless ``full_grade``, so that grading, outside the budget,
        #: adds seconds to the wait and not minutes (``quick``: the options that made it quick).
        quick: dict[str, str] = getattr(player, "quick_grade_options", dict)()
        self.quick: dict[str, str] = {} if full_grade else dict(quick)
        self.graded = with_options(game, self.learner, **self.quick) if self.quick else self.learner
        if grade:
            try:
                self.label = suite_label(game)
            except ValueError as error:
                raise ValueError(
                    f"grading needs {game.name}'s solution: run `gamelearn solve {game.name}` first, "
                    f"or --no-grade ({error})"
                ) from None
        self.parallel = parallel
        self.resumed = False
        self._held: ExitStack | None = None

    def __enter__(self) -> Training:
        self._held = ExitStack()
        try:
            if self.keeper is not None:
                self._held.enter_context(self.keeper.writing_whole(self.player))  # before it is loaded
                self.resumed = self.keeper.attach(self.player)
            if self.parallel is not None:
                try:
                    self.self_play.trainer.play_in_batches_of(self.parallel)
                except ValueError as error:
                    raise ValueError(f"--parallel: {error}") from None
        except BaseException:
            self._held.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self._held is not None:
            self._held.close()

    def run(
        self,
        minutes: float | None,
        games: int | None,
        checkpoints: int,
        on_batch: Callable[[float, float], None] | None = None,
        on_checkpoint: Callable[[Checkpoint], None] | None = None,
        cpu_minutes: float | None = None,
    ) -> TrainingResult:
        """Train for ``minutes`` (wall), ``cpu_minutes`` or ``games`` (:func:`train_self_play`), kept as it goes with a
        keeper (:class:`TrainingRun`: every checkpoint, at least every 30 s, at the end).  ^C or
        SIGTERM stops it: what it learnt is kept, marked stopped, and :class:`TrainingInterrupted`
        carries the result."""
        run = TrainingRun(self.keeper, self.player, self.game, self.learner) if self.keeper is not None else None
        before = int(self.player.describe()["games"])
        points: list[Checkpoint] = []
        started = time.perf_counter()

        def heard(point: Checkpoint) -> None:
            points.append(point)
            if on_checkpoint is not None:
                on_checkpoint(point)

        def result(stopped: bool) -> TrainingResult:
            return TrainingResult(
                game=self.game.spec,
                spec=self.spec,
                name=self.name,
                resumed=self.resumed,
                games_before=before,
                games_after=int(self.player.describe()["games"]),
                seconds=time.perf_counter() - started,
                checkpoints=tuple(points),
                player=self.player,
                result_id=run.result_id if run is not None else None,
                stopped=stopped,
                graded=self.graded if self.label else "",
            )

        grader = (lambda: grade_learner(self.game, self.graded, self.player)) if self.label else None
        try:
            train_self_play(
                self.self_play,
                grader,
                minutes,
                games,
                checkpoints,
                on_batch=on_batch,
                on_checkpoint=heard,
                keep=run.keep if run is not None else None,
                cpu_minutes=cpu_minutes,
            )
        except KeyboardInterrupt:  # what it learnt so far is kept, as a finished run's is
            if run is not None:
                run.keep(points, stopped=True)  # whole batches only; a signal waits for it
            raise TrainingInterrupted(result(stopped=True)) from None
        return result(stopped=False)
