"""The experiments, one door to each: Python (a notebook, a script), the command and the page
start them here, as one options object each.

>>> import gamelearn
>>> result = gamelearn.tournament("tictactoe", ["random", "perfect"], games=4)
>>> [s.spec for s in result.standings]
['random', 'perfect']

``tournament``, ``curves``, ``grade`` and ``train`` take their options as one object
(:class:`TournamentOptions`, :class:`CurvesOptions`, :class:`GradeOptions`,
:class:`TrainOptions`, where each default is written once), or as its fields, positional or by
keyword, from which they build it: ``gamelearn.curves("hexapawn", ["her"], games=9)`` is
``gamelearn.curves(CurvesOptions("hexapawn", ["her"], games=9))``.  They check the options before
any work (a ValueError naming what is wrong, in one line) and return typed results: each has
``to_dict()`` (the command's ``--json``) and ``to_dataframe()`` (pandas, imported only then).
``progress=True`` prints a few plain lines as the work goes (a notebook keeps them all: no
redrawn bar); a function instead hears each count of work done.  The command line
(``gamelearn tournament``, ``curves``, ``grade``, ``train``) fills the same options from its own
and renders these same results.

Nothing here writes the store except ``train`` with a ``name`` (the learner is kept under it, as
``gamelearn train`` keeps it); the command keeps its tournaments and curves in the store itself.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing, nullcontext
from typing import Any, TypeVar

from ..keeper import Keeper
from .budget import Budget
from .curves import DEFAULT_GAMES as DEFAULT_CURVE_GAMES
from .curves import MAX_SEEDS, CurvesInterrupted, CurvesOptions, run_curves
from .curves_output import MEASURES, X_AXES, CurvesResult, Point, default_stem, free_stem, keep_run, taken
from .grading import GradeOptions, GradeReport, Grades, check_arguments, grade_player, graded_player, run_grade
from .interrupts import Stop, signals_deferred, stopping_on_signals
from .matchbox import HerOptions, MatchboxInterrupted, MenaceOptions, chart, plot_learning_curve, run_her, run_menace
from .pairs import Sprt
from .progress import Milestones, progress_of
from .review import GameReview, review_moves
from .runners import default_workers
from .suites import Suite, get_suite
from .tournament import TournamentOptions, run_tournament
from .tournament_games import TournamentInterrupted
from .tournament_summary import TournamentResult
from .training import (
    MAX_PARALLEL,
    MAX_TRAIN_MINUTES,
    Checkpoint,
    Training,
    TrainingInterrupted,
    TrainingResult,
    TrainOptions,
    grade_learner,
)

#: What the interfaces (the command, the page) and Python take from the experiments: the four
#: experiments and their options, their results, and what the command needs to check, render and
#: stop them.
__all__ = [
    "DEFAULT_CURVE_GAMES",
    "MAX_PARALLEL",
    "MAX_SEEDS",
    "MAX_TRAIN_MINUTES",
    "MEASURES",
    "X_AXES",
    "Budget",
    "Checkpoint",
    "CurvesInterrupted",
    "CurvesOptions",
    "CurvesResult",
    "GameReview",
    "GradeOptions",
    "GradeReport",
    "Grades",
    "HerOptions",
    "MatchboxInterrupted",
    "MenaceOptions",
    "Milestones",
    "Point",
    "Sprt",
    "Stop",
    "Suite",
    "TournamentInterrupted",
    "TournamentOptions",
    "TournamentResult",
    "TrainOptions",
    "Training",
    "TrainingInterrupted",
    "TrainingResult",
    "chart",
    "check_arguments",
    "curves",
    "default_stem",
    "default_workers",
    "free_stem",
    "get_suite",
    "grade",
    "grade_learner",
    "grade_player",
    "graded_player",
    "keep_run",
    "plot_learning_curve",
    "review_moves",
    "run_her",
    "run_menace",
    "signals_deferred",
    "stopping_on_signals",
    "taken",
    "tournament",
    "train",
]

#: What ``progress=`` may be: None or False (nothing), True (a few lines), or a function of a count.
Progress = bool | Callable[[int], None] | None

Options = TypeVar("Options")


def _options(kind: type[Options], args: tuple[Any, ...], fields: dict[str, Any]) -> Options:
    """The options object given, or the one its fields build (TypeError for a field it has not)."""
    if args and isinstance(args[0], kind):
        if len(args) > 1 or fields:
            raise TypeError(f"give a {kind.__name__} alone, or its fields as arguments, not both")
        return args[0]
    return kind(*args, **fields)


def tournament(*args: Any, progress: Progress = None, **fields: Any) -> TournamentResult:
    """A round robin (docs/tournament.md), as ``gamelearn tournament``: a :class:`TournamentOptions`,
    or its fields (``game, specs, games=10, *, openings, seed, max_plies, grade, sprt, workers,
    dask``).  ``sprt=(elo0, elo1)`` stops a two-player match when the pentanomial GSPRT decides.
    ``progress`` counts games."""
    options = _options(TournamentOptions, args, fields)
    return run_tournament(options, progress_of(progress, "tournament", options.total_games, "games"))


def curves(
    *args: Any,
    progress: Progress = None,
    on_learner: Callable[[list[Point]], None] | None = None,
    **fields: Any,
) -> CurvesResult:
    """Learning curves of learner specs (docs/curves.md), as ``gamelearn curves``: a
    :class:`CurvesOptions`, or its fields (``game, specs, against="random", *, games, seconds,
    every, points, seeds, side, eval_games, seed, max_plies, workers, dask``): ``games`` training
    games a learner (100 when neither it nor ``seconds`` is given), measured every ``every`` games,
    ``seeds`` learners a spec.  ``progress`` counts learners finished; ``on_learner`` hears each
    learner's points as it finishes."""
    options = _options(CurvesOptions, args, fields)
    options.check()
    told = progress_of(progress, "curves", options.learners, "learners")

    def finished(found: list[Point]) -> None:
        if on_learner is not None:
            on_learner(found)
        if told is not None:
            told(1)

    return run_curves(options, finished)


def grade(*args: Any, progress: Progress = None, **fields: Any) -> Grades:
    """Each spec, frozen and greedy, graded on the game's suite (docs/grading.md), as
    ``gamelearn grade``: a :class:`GradeOptions`, or its fields (``game, specs, suite=None,
    seed=0, workers, dask, sides``): a player that plays one side is graded on its side's positions
    (``sides``, one a spec, 0 moves first, None both; by default each player's own
    word).  ``progress`` counts positions graded."""
    options = _options(GradeOptions, args, fields)
    told = (
        None
        if progress is None or progress is False
        else progress_of(progress, "grade", options.positions(), "positions")
    )
    return run_grade(options, told)


def train(
    *args: Any,
    progress: Progress = None,
    on_checkpoint: Callable[[Checkpoint], None] | None = None,
    keeper: Keeper | None = None,
    on_start: Callable[[Training], None] | None = None,
    **fields: Any,
) -> TrainingResult:
    """Train a self-play learner (docs/az.md), as ``gamelearn train``: a :class:`TrainOptions`, or
    its fields (``game, learner="az", *, name, games, minutes, cpu_seconds, seed, checkpoints,
    grade, parallel, full_grade``): for exactly ``games`` games, ``minutes`` of training on the
    wall clock or ``cpu_seconds`` of this process's CPU time (the first reached when several are
    given), its checkpoints graded on the game's suite unless ``grade=False`` (grading is outside
    the budget).  With a ``name`` it goes on from what the store keeps under that name and is kept
    there as it goes (every checkpoint, at least every 30 s, at the end; the ``keeper`` given, else
    the default store's), as ``gamelearn train`` does; without one it learns in memory
    (``result.player``).  ``progress`` counts the budget's unit (games, or whole seconds of
    training on its clock); ``on_start`` hears the :class:`~.training.Training` once it is set up
    (``resumed``, the learner), before the first game.  ^C keeps what it learnt and raises
    :class:`~.training.TrainingInterrupted`, whose ``result`` is the run so far.

    >>> run = train("tictactoe", "ntuple", games=300, grade=False)
    >>> run.games_after - run.games_before
    300
    """
    options = _options(TrainOptions, args, fields)
    options.check()
    budget = options.budget
    owned = None
    if options.name is not None and keeper is None:
        # the default store, opened when the run first needs it: a learner refused for its spec
        # or its settings makes no store in a fresh data folder
        keeper = owned = Keeper()
    told = progress_of(progress, "train", budget.total, budget.unit)
    shown = [0]

    def on_batch(done: float, total: float) -> None:
        if told is None:
            return
        whole = int(done)
        if whole > shown[0]:
            told(whole - shown[0])
            shown[0] = whole

    with (
        closing(owned) if owned is not None else nullcontext(),
        Training(
            options.chosen,
            options.learner,
            name=options.name,
            keeper=keeper,
            seed=options.seed,
            grade=options.grade,
            parallel=options.parallel,
            full_grade=options.full_grade,
            games=options.games,
        ) as training,
    ):
        if on_start is not None:
            on_start(training)
        return training.run(
            options.minutes,
            options.games,
            options.checkpoints,
            on_batch=on_batch,
            on_checkpoint=on_checkpoint,
            cpu_minutes=None if options.cpu_seconds is None else options.cpu_seconds / 60,
        )
