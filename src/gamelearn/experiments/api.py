"""The experiments, callable from Python (a notebook, a script) as the command runs them:

>>> import gamelearn
>>> result = gamelearn.tournament("tictactoe", ["random", "perfect"], games=4)
>>> [s.spec for s in result.standings]
['random', 'perfect']

``tournament``, ``curves``, ``grade`` and ``train`` take the command's options as keyword
arguments, check them before any work (a ValueError naming what is wrong, in one line) and return
typed results: each has ``to_dict()`` (the command's ``--json``) and ``to_dataframe()`` (pandas,
imported only then).  ``progress=True`` prints a few plain lines as the work goes (a notebook keeps
them all: no redrawn bar); a function instead hears each count of work done.  The command line
(``gamelearn tournament``, ``curves``, ``grade``, ``train``) renders these same results.

Nothing here writes the store except ``train`` with a ``name`` (the learner is kept under it, as
``gamelearn train`` keeps it); the command keeps its tournaments and curves in the store itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..games import Game, get_game
from ..keeper import Keeper
from ..match import DEFAULT_MAX_PLIES
from .api_frames import dataframe
from .api_progress import progress_of
from .budget import Budget
from .curves import run_curves
from .curves_output import CurvesResult, Point
from .grading import GradeReport
from .grading import grade as grade_specs
from .pairs import Sprt
from .tournament import run_tournament
from .tournament_summary import TournamentResult
from .training import Checkpoint, Training, TrainingResult

#: The most minutes one training run may be asked for: a week.  A longer run is a typo (``1e12``).
MAX_TRAIN_MINUTES = 7 * 24 * 60
#: The most self-play games played at once: a GPU's batch holds hundreds to a few thousand; more
#: only exhausts its memory (unbounded, ``--parallel 100000000`` ends in JAX's out-of-memory error).
MAX_PARALLEL = 4096
#: The most independent learners a spec of curves trains: each is a task with its own points
#: (unbounded, ``--seeds 1000000000`` grows by 90 MB/s before any game).
MAX_SEEDS = 1000


def _game(game: Game[Any] | str) -> Game[Any]:
    return get_game(game) if isinstance(game, str) else game


def parse_openings(openings: str | Sequence[Sequence[str]]) -> tuple[str | Sequence[Sequence[str]], int | None]:
    """``openings`` as the tournament takes it: "auto", "balanced", "balanced:plies=K", "none", or
    a list of move sequences; (mode or book, plies or None).  ValueError, one line."""
    if not isinstance(openings, str):
        return openings, None
    name, _, options = openings.strip().partition(":")
    if name in ("auto", "balanced", "none") and not options:
        return name, None
    key, _, value = options.partition("=")
    if name == "balanced" and key.strip() == "plies" and value.strip().isdigit():
        return "balanced", int(value)
    raise ValueError(f"openings: {openings!r} is not 'balanced', 'balanced:plies=K', 'none' or 'auto'")


def tournament(
    game: Game[Any] | str,
    specs: Sequence[str],
    games: int = 10,
    *,
    openings: str | Sequence[Sequence[str]] = "auto",
    seed: int = 0,
    max_plies: int = DEFAULT_MAX_PLIES,
    grade: bool = False,
    sprt: tuple[float, float] | Sprt | None = None,
    workers: int | None = None,
    dask: str | None = None,
    progress: bool | Callable[[int], None] | None = None,
) -> TournamentResult:
    """A round robin between ``specs``, ``games`` games per pair (docs/tournament.md): as
    ``gamelearn tournament``, whose options these are.  ``sprt=(elo0, elo1)`` stops a two-player
    match when the pentanomial GSPRT decides.  ``progress`` counts games."""
    chosen = _game(game)
    mode, plies = parse_openings(openings)
    test = Sprt(*sprt) if isinstance(sprt, tuple) else sprt
    pairs = len(specs) * (len(specs) - 1) // 2
    return run_tournament(
        chosen,
        list(specs),
        games,
        seed,
        max_plies=max_plies,
        grade=grade,
        workers=workers,
        dask=dask,
        progress=progress_of(progress, "tournament", pairs * games, "games"),
        openings=mode,
        opening_plies=plies,
        sprt=test,
    )


def curves(
    game: Game[Any] | str,
    specs: Sequence[str],
    against: str = "random",
    *,
    games: int | None = None,
    seconds: float | None = None,
    every: int = 10,
    points: int = 10,
    seeds: int = 5,
    side: str = "usual",
    eval_games: int = 20,
    seed: int = 0,
    max_plies: int = DEFAULT_MAX_PLIES,
    workers: int | None = None,
    dask: str | None = None,
    progress: bool | Callable[[int], None] | None = None,
    on_learner: Callable[[list[Point]], None] | None = None,
) -> CurvesResult:
    """Learning curves of the learner ``specs`` against ``against`` (docs/curves.md), as
    ``gamelearn curves``: ``games`` training games a learner (100 when neither it nor ``seconds``
    is given), measured every ``every`` games, ``seeds`` learners a spec.  ``progress`` counts
    learners finished; ``on_learner`` hears each learner's points as it finishes."""
    if games is None and seconds is None:
        games = 100
    check_seeds(seeds)
    told = progress_of(progress, "curves", len(specs) * seeds, "learners")

    def finished(found: list[Point]) -> None:
        if on_learner is not None:
            on_learner(found)
        if told is not None:
            told(1)

    return run_curves(
        _game(game),
        list(specs),
        against,
        games,
        every,
        seeds,
        seed=seed,
        eval_games=eval_games,
        max_plies=max_plies,
        workers=workers,
        dask=dask,
        progress=finished,
        seconds=seconds,
        points=points,
        side=side,
    )


def check_seeds(seeds: int) -> None:
    """ValueError, one line, for learners a spec outside 1..MAX_SEEDS."""
    if not 1 <= seeds <= MAX_SEEDS:
        raise ValueError(
            f"seeds: {seeds} is outside 1..{MAX_SEEDS} (each seed is a learner trained and kept in memory)"
        )


class Grades(list[GradeReport]):
    """``grade``'s reports, one a spec in the order given (a list), as a table too."""

    def to_dict(self) -> dict[str, Any]:
        return {"grades": [report.to_dict() for report in self]}

    def _repr_html_(self) -> str:
        from .grading import grades_html

        return grades_html(self)

    def to_dataframe(self) -> Any:
        """A row a spec: its suite, the side graded ("" for both), the positions graded, and the
        shares keeps, best, blunders."""
        columns = ("spec", "suite", "side_name", "size", "keeps", "best", "blunders")
        return dataframe([{key: report.to_dict()[key] for key in columns} for report in self], columns)


def grade(
    game: Game[Any] | str,
    specs: Sequence[str],
    suite: str | None = None,
    seed: int = 0,
    workers: int | None = None,
    dask: str | None = None,
    progress: bool | Callable[[int], None] | None = None,
    sides: Sequence[int | None] | None = None,
) -> Grades:
    """Each spec, frozen and greedy, graded on the game's suite (docs/grading.md), as
    ``gamelearn grade``: a player that plays one side on its side's positions
    (``sides``, one a spec, 0 moves first, None both; by default each player's own word).
    ``progress`` counts positions graded."""
    chosen = _game(game)
    told: Callable[[int], None] | None = None
    if progress is not None and progress is not False:
        from .grading import check_arguments, spec_side

        graded = check_arguments(chosen, [spec.strip() for spec in specs], suite)
        if sides is None:
            sides = [spec_side(chosen, spec.strip()) for spec in specs]
        told = progress_of(progress, "grade", sum(len(graded.of_side(side)) for side in sides), "positions")
    return Grades(grade_specs(chosen, specs, suite, seed=seed, workers=workers, dask=dask, progress=told, sides=sides))


def check_training(
    minutes: float | None,
    games: int | None,
    checkpoints: int,
    parallel: int | None,
    cpu_seconds: float | None = None,
) -> None:
    """ValueError, one line, for a budget or a batch outside what a run can hold."""
    if minutes is None and games is None and cpu_seconds is None:
        raise ValueError("say how long to train: --minutes M (wall), --cpu-minutes M or --games N")
    if minutes is not None and not 0 < minutes <= MAX_TRAIN_MINUTES:
        raise ValueError(f"--minutes: {minutes:g} is outside (0, {MAX_TRAIN_MINUTES}] (a week at most)")
    if cpu_seconds is not None and not 0 < cpu_seconds <= 60 * MAX_TRAIN_MINUTES:
        raise ValueError(f"--cpu-minutes: {cpu_seconds / 60:g} is outside (0, {MAX_TRAIN_MINUTES}] (a week at most)")
    if games is not None and games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    if checkpoints < 1:
        raise ValueError(f"--checkpoints must be at least 1, not {checkpoints}")
    if parallel is not None and not 1 <= parallel <= MAX_PARALLEL:
        raise ValueError(f"--parallel: {parallel} is outside 1..{MAX_PARALLEL} (games a batch holds in memory)")


def train(
    game: Game[Any] | str,
    learner: str = "az",
    *,
    name: str | None = None,
    games: int | None = None,
    minutes: float | None = None,
    cpu_seconds: float | None = None,
    seed: int = 0,
    checkpoints: int = 5,
    grade: bool = True,
    parallel: int | None = None,
    progress: bool | Callable[[int], None] | None = None,
    on_checkpoint: Callable[[Checkpoint], None] | None = None,
    keeper: Keeper | None = None,
    on_start: Callable[[Training], None] | None = None,
    full_grade: bool = False,
) -> TrainingResult:
    """Train a self-play learner (``az``, ``ntuple``: a spec) for exactly ``games`` games,
    ``minutes`` of training on the wall clock or ``cpu_seconds`` of this process's CPU time (the
    first reached when several are given; docs/az.md), its checkpoints graded on the game's suite
    unless ``grade=False``: as the learner plays, or where that searches (ntuple on Teeko) as its
    raw network, unless ``full_grade`` (grading is outside the budget: Teeko's search takes minutes
    a checkpoint).  With a ``name`` it goes on from what the store keeps under that name
    and is kept there as it goes (every checkpoint, at least every 30 s, at the end; the ``keeper``
    given, else the default store's), as ``gamelearn train`` does; without one it learns in memory
    (``result.player``).  ``progress`` counts the budget's unit (games, or whole seconds of
    training on its clock); ``on_start`` hears the :class:`~.training.Training` once it is set up
    (``resumed``, the learner), before the first game.  ^C keeps what it learnt and raises
    :class:`~.training.TrainingInterrupted`, whose ``result`` is the run so far.

    >>> run = train("tictactoe", "ntuple", games=300, grade=False)
    >>> run.games_after - run.games_before
    300
    """
    chosen = _game(game)
    check_training(minutes, games, checkpoints, parallel, cpu_seconds)
    budget = Budget(None if minutes is None else 60 * minutes, cpu_seconds, games)
    if name is not None and keeper is None:
        from ..keeper import default_keeper

        keeper = default_keeper()
    told = progress_of(progress, "train", budget.total, budget.unit)
    shown = [0]

    def on_batch(done: float, total: float) -> None:
        if told is None:
            return
        whole = int(done)
        if whole > shown[0]:
            told(whole - shown[0])
            shown[0] = whole

    with Training(
        chosen, learner, name=name, keeper=keeper, seed=seed, grade=grade, parallel=parallel, full_grade=full_grade
    ) as training:
        if on_start is not None:
            on_start(training)
        return training.run(
            minutes,
            games,
            checkpoints,
            on_batch=on_batch,
            on_checkpoint=on_checkpoint,
            cpu_minutes=None if cpu_seconds is None else cpu_seconds / 60,
        )
