"""``gamelearn train GAME LEARNER --name NAME`` (self-play training, kept in the store by the
keeper) and ``gamelearn curves GAME SPEC [SPEC...]`` (learning curves graded on the game's suite).
Parsing and rendering only: the work is gamelearn.train's (experiments.api, one training loop for
Python and the command) and gamelearn.curves'."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from ..experiments import api
from ..experiments.api import (
    Budget,
    Checkpoint,
    CurvesInterrupted,
    CurvesOptions,
    CurvesResult,
    Point,
    TrainingInterrupted,
    TrainingResult,
    TrainOptions,
)
from ..games import GAME_NAMES, get_game
from ..keeper import Keeper
from .common import (
    MAX_LEARNER_GAMES,
    SEED_MAX,
    SEED_MIN,
    check_name,
    check_store,
    complete_game,
    console,
    err_console,
    fail,
    output_dir,
    print_json,
    title_fits,
)
from .progress import QUIET_HELP, progress_bar
from .stops import kept_when_stopped

#: curves: the most seconds of training a learner, measurements of a timed run, games a score takes.
MAX_CURVE_SECONDS = 24 * 60 * 60
MAX_POINTS = 1_000
MAX_EVAL_GAMES = 100_000
#: The most self-play games one `train` run is asked for, and the most checkpoints it grades.
MAX_TRAIN_GAMES = 100_000_000
MAX_CHECKPOINTS = 1_000


def register(app: typer.Typer) -> None:
    app.command("train")(train)
    app.command("curves")(curves)


def train(
    game_name: Annotated[
        str, typer.Argument(metavar="GAME", help=f"one of {', '.join(GAME_NAMES)}", autocompletion=complete_game)
    ],
    learner: Annotated[
        str,
        typer.Argument(metavar="LEARNER", help="a self-play learner: ntuple or az (a spec, e.g. az:simulations=16)"),
    ],
    name: Annotated[str, typer.Option("--name", help="the name the learner is kept under in the store")],
    minutes: Annotated[
        float | None,
        typer.Option(
            "--minutes",
            min=0,
            max=api.MAX_TRAIN_MINUTES,
            help="train for this long on the wall clock (grading left out)",
        ),
    ] = None,
    cpu_minutes: Annotated[
        float | None,
        typer.Option(
            "--cpu-minutes",
            min=0,
            max=api.MAX_TRAIN_MINUTES,
            help="train for this much of the process's CPU time (grading left out): the same on a busy machine",
        ),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option("--games", min=1, max=MAX_TRAIN_GAMES, help="train for exactly this many self-play games"),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="seed of a new learner (a kept one goes on with its own)")
    ] = TrainOptions.seed,
    checkpoints: Annotated[
        int, typer.Option("--checkpoints", min=1, max=MAX_CHECKPOINTS, help="graded checkpoints along the way")
    ] = TrainOptions.checkpoints,
    grade: Annotated[
        bool, typer.Option("--grade/--no-grade", help="grade checkpoints on the game's suite")
    ] = TrainOptions.grade,
    full_grade: Annotated[
        bool,
        typer.Option(
            "--full-grade",
            help="grade every checkpoint as the learner plays, search and all (Teeko's ntuple: minutes of CPU a "
            "checkpoint, outside the budget); by default a learner that searches is graded as its raw network",
        ),
    ] = TrainOptions.full_grade,
    parallel: Annotated[
        int | None,
        typer.Option(
            "--parallel",
            min=1,
            max=api.MAX_PARALLEL,
            help="self-play games at once (default per game; hundreds on a GPU)",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the checkpoints as JSON")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
) -> None:
    """Train a self-play learner (ntuple: an n-tuple network by TD; az: AlphaZero-style, the
    neural extra) for --minutes (wall clock), --cpu-minutes or --games and keep it in the store
    under --name (a name already kept goes on from where it was); checkpoints show the loss, the
    self-play speed and the grade on the game's suite: keeps (value-keeping moves), best moves,
    blunders.  It is kept as it goes (every checkpoint, and at least every 30 s); ^C or
    SIGTERM stops it and keeps what it learnt; a second trainer of the same name is refused."""
    try:
        game = get_game(game_name)
    except ValueError as error:
        fail(str(error))
    name = check_name("--name", name)
    cpu_seconds = None if cpu_minutes is None else 60 * cpu_minutes
    options = TrainOptions(
        game, learner, name, games, minutes, cpu_seconds, seed, checkpoints, grade, parallel, full_grade
    )
    try:
        options.check()
    except ValueError as error:
        fail(str(error))
    # a damaged store is named before the learner is built, and nothing is made: the keeper makes
    # the store (and finds it read-only or locked) once the learner's arguments have all passed
    check_store(readonly=True)
    shown: Console = err_console if as_json else console
    kind = learner.strip().partition(":")[0]

    def on_start(training: api.Training) -> None:
        counts = training.player.describe()
        shown.print(
            f"{'Going on with' if training.resumed else 'A new'} {kind} {name!r} for {game.name}: "
            f"{counts['games']:,} games, {counts.get('steps', 0):,} steps, {counts.get('weights', 0):,} weights.",
            markup=False,
        )
        graded = f"the grade on the suite ({training.label}): keeps, best, blunders." if training.label else None
        if training.label and training.quick:
            options = ",".join(f"{key}={value}" for key, value in training.quick.items())
            graded = (
                f"the grade of its raw network ({options}) on the suite ({training.label}): keeps, best, "
                f"blunders; seconds of CPU each. Its own play searches: grading that takes minutes of CPU a "
                f"checkpoint (--full-grade), so grade it once after: gamelearn grade {game.spec} {kind}:name={name}."
            )
        shown.print(
            f"Checkpoints: training time on the {clock} clock (grading left out), loss (az: policy + value; "
            "ntuple: squared TD error), self-play speed after the first batch, and "
            + (graded or "no grade (--no-grade)."),
            markup=False,
        )
        shown.print(checkpoint_header(clock), markup=False)

    def kept(stopped: KeyboardInterrupt) -> str:
        if not isinstance(stopped, TrainingInterrupted):
            return "Interrupted before the first game of training; nothing was kept"
        run = stopped.result
        last = "no checkpoint yet"
        if run.checkpoints:
            last = f"the last checkpoint: {checkpoint_line(run.checkpoints[-1], clock).strip()}"
        return (
            f"Interrupted after {run.games_after - run.games_before:,} games of training "
            f"({run.seconds:.0f} s wall, grading included); kept as {kind} {name!r} with its weights "
            f"({run.games_after:,} games in all; train #{run.result_id} in the store); {last}"
        )

    def stopped_json(stopped: KeyboardInterrupt) -> None:
        if as_json and isinstance(stopped, TrainingInterrupted):
            print_json(train_json(game.name, name, stopped.result))

    budget = options.budget
    clock = budget.clock
    keeper = Keeper()  # opens the store when the run first needs it
    with closing(keeper), progress_bar(shown, "self-play", budget.total, budget.unit, quiet) as progress:
        with kept_when_stopped(progress, kept, stopped_json):
            try:
                result = api.train(
                    options,
                    progress=progress.advance,
                    on_checkpoint=lambda point: progress.print(checkpoint_line(point, clock)),
                    keeper=keeper,
                    on_start=on_start,
                )
            except ValueError as error:
                fail(str(error))
    if as_json:
        print_json(train_json(game.name, name, result))
        return
    console.print(trained_line(budget, result), markup=False)
    console.print(
        f"Kept as {kind} {name!r} (train #{result.result_id}); play it with --second {kind}:name={name}.",
        markup=False,
    )


def trained_line(budget: Budget, result: TrainingResult) -> str:
    """What the run used of its budget, on the budget's own clock, and the other clock beside it:
    'Trained 300 of 300 games: 4.1 s wall, 4.0 s CPU (grading left out).'"""
    last = result.checkpoints[-1] if result.checkpoints else None
    wall, cpu = (last.seconds, last.cpu_seconds) if last is not None else (0.0, 0.0)
    played = result.games_after - result.games_before
    done = played if budget.seconds is None else (cpu if budget.clock == "CPU" else wall)
    if budget.seconds is None:
        return f"Trained {budget.describe(done)}: {wall:,.1f} s wall, {cpu:,.1f} s CPU (grading left out)."
    over = ""
    if round(done, 1) > budget.seconds:
        over = "; its last batch ended past the budget, a batch being learnt whole"
    return (
        f"Trained {budget.describe(done)} ({played:,} games): {wall:,.1f} s wall, {cpu:,.1f} s CPU "
        f"(grading left out){over}."
    )


def train_json(game: str, name: str, result: TrainingResult) -> dict[str, Any]:
    """``train --json``: the learner's games as kept, the ``train`` result, the checkpoints."""
    payload: dict[str, Any] = {"game": game, "name": name, "games": result.games_after, "result_id": result.result_id}
    payload["graded"] = result.graded  # the spec the checkpoints were graded as (Teeko's ntuple: its raw network)
    if result.stopped:
        payload["stopped"] = True
    return payload | {"checkpoints": [point.to_dict() for point in result.checkpoints]}


def curves(
    game_name: Annotated[
        str, typer.Argument(metavar="GAME", help=f"one of {', '.join(GAME_NAMES)}", autocompletion=complete_game)
    ],
    specs: Annotated[
        list[str],
        typer.Argument(metavar="SPEC [SPEC...]", help="learner specs: her, him, menace, td, thesis, ntuple, az"),
    ],
    against: Annotated[
        str, typer.Option("--against", help="the opponent they train against (self-play learners: only measured)")
    ] = CurvesOptions.against,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            min=1,
            max=MAX_LEARNER_GAMES,
            help=f"training games per learner (default {api.DEFAULT_CURVE_GAMES} without --seconds)",
        ),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option(
            "--seconds",
            min=0,
            max=MAX_CURVE_SECONDS,
            help="training time per learner instead, on the wall clock (measuring left out)",
        ),
    ] = None,
    every: Annotated[
        int,
        typer.Option("--every", max=MAX_LEARNER_GAMES, help="with --games: measure every this many games"),
    ] = CurvesOptions.every,
    points: Annotated[
        int, typer.Option("--points", min=1, max=MAX_POINTS, help="with --seconds: measurements, evenly in time")
    ] = CurvesOptions.points,
    seeds: Annotated[
        int, typer.Option("--seeds", min=1, max=api.MAX_SEEDS, help="independent learners per spec")
    ] = CurvesOptions.seeds,
    side: Annotated[
        str,
        typer.Option(
            "--side",
            metavar="usual|first|second|alternate",
            help="the learner's seat in every game (usual: its own, HER's and HIM's second, MENACE's first, "
            "the others alternating); a learner on one side is graded on its side's positions",
        ),
    ] = CurvesOptions.side,
    x_axis: Annotated[
        str | None, typer.Option("--x", metavar="games|seconds", help="the chart's x axis (default: the budget's)")
    ] = None,
    eval_games: Annotated[
        int, typer.Option("--eval-games", min=1, max=MAX_EVAL_GAMES, help="games a score measurement plays")
    ] = CurvesOptions.eval_games,
    seed: Annotated[
        int, typer.Option("--seed", min=SEED_MIN, max=SEED_MAX, help="seed of every game (same seed, same curves)")
    ] = CurvesOptions.seed,
    max_plies: Annotated[
        int, typer.Option("--max-plies", help="ply limit; reaching it is a draw")
    ] = CurvesOptions.max_plies,
    workers: Annotated[int | None, typer.Option("--workers", help="local processes (1: in this process)")] = None,
    dask: Annotated[str | None, typer.Option("--dask", metavar="ADDRESS|local", help="run on a Dask cluster")] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="DIR|STEM",
            help="a folder for the files (default: plots/ in the data directory), or their name without suffix",
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="replace the files an --out STEM names")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
) -> None:
    """Learning curves on shared axes: each learner SPEC trained --seeds times for --games games
    or --seconds of training (self-play learners by self-play, the others against --against,
    seated by --side), a frozen greedy copy measured along the way: keeps on the game's suite,
    and the score against --against; mean and 95% band over seeds as CSV (and per seed) and PNG,
    kept in the store.  ^C keeps the learners that had finished."""
    try:
        game = get_game(game_name)
    except ValueError as error:
        fail(str(error))
    options = CurvesOptions(
        game, specs, against, games, seconds, every, points, seeds, side, eval_games, seed, max_plies, workers, dask
    )
    if x_axis is None:
        x_axis = "games" if seconds is None else "seconds"
    if x_axis not in api.X_AXES:
        fail(f"--x is games or seconds, not {x_axis!r}")
    try:
        options.check()
    except ValueError as error:
        fail(str(error))
    named = None if out is None else _curves_destination(out, force)  # refused before the store is made
    check_store()  # the result is kept there: a store that cannot be opened is named before any game
    keeping = _CurvesFiles(game.name, *(named or _curves_destination(None, force)), x_axis)

    def run(on_learner: Callable[[list[Point]], None]) -> CurvesResult:
        return api.curves(options, on_learner=on_learner)

    shown: Console = err_console if as_json else console
    result = _run_curves(shown, quiet, keeping, list(options.specs), options.learners, run)
    number, files = keeping.save(result, stopped=False)
    if isinstance(files, str):
        fail(files)
    if as_json:
        payload = result.to_dict() | {"seconds_taken": round(keeping.seconds(), 3), "stopped": False}
        print_json({**payload, "result_id": number, "files": [str(path) for path in files]})
        return
    csv_path, points_path, png_path = files
    console.print(curves_table(game.name, result, against, options.games, seconds, seeds))
    console.print(
        f"In %: keeps (mean [95% band]), best, blunders: shares of {result.yardsticks()}; "
        f"score: against {against}, {eval_games} games a point.",
        markup=False,
    )
    console.print(f"{csv_path}, {points_path.name} and {png_path.name} written; kept in the store as result {number}.")


def _curves_destination(out: Path | None, force: bool) -> tuple[Path, Path | None]:
    """Where ``curves`` writes: the folder, and the stem --out STEM names (None: a free one is
    chosen); a STEM in a missing folder, or whose files exist without --force, is refused."""
    if out is None or out.is_dir():
        return output_dir(out, "plots"), None
    stem = out.with_suffix("") if out.suffix in (".csv", ".png") else out
    if not stem.parent.is_dir():
        fail(f"--out: no such folder {stem.parent}")
    if api.taken(stem) and not force:
        fail(f"--out: {api.taken(stem)[0]} exists; give another name, or --force to replace it")
    return stem.parent.resolve(), stem.resolve()


@dataclass
class _CurvesFiles:
    """Keeps a curves run: its files under ``folder`` (named ``chosen``, else a free default name
    stamped with the run's start) and its result in the store."""

    game: str
    folder: Path
    chosen: Path | None
    x_axis: str
    stamp: datetime = field(default_factory=lambda: datetime.now(UTC))
    started: float = field(default_factory=time.perf_counter)

    def seconds(self) -> float:
        return time.perf_counter() - self.started

    def save(self, result: CurvesResult, stopped: bool) -> tuple[int, tuple[Path, Path, Path] | str]:
        stem = self.chosen or api.free_stem(self.folder, api.default_stem(self.game, result.specs, self.stamp))
        return api.keep_run(result, self.seconds(), stopped, stem, self.x_axis)

    def kept(self, stopped: KeyboardInterrupt) -> str:
        """^C or SIGTERM: the finished learners are kept; what was kept, in a sentence."""
        if not isinstance(stopped, CurvesInterrupted):
            return "Interrupted before the first learner; nothing to keep"
        kept = "nothing to keep"
        if stopped.finished:
            number, files = self.save(stopped.result, stopped=True)
            where = files if isinstance(files, str) else f"{files[0]}, {files[1]} and {files[2]}"
            kept = f"they are kept: curves #{number} in the store (marked stopped), {where}"
        return f"Interrupted: {stopped.finished} of {stopped.total} learners had finished; {kept}"


def _run_curves(
    shown: Console,
    quiet: bool,
    keeping: _CurvesFiles,
    specs: list[str],
    learners: int,
    run: Callable[[Callable[[list[Point]], None]], CurvesResult],
) -> CurvesResult:
    """``run`` under a progress bar that notes each finished learner; ^C keeps what had finished."""
    with progress_bar(shown, "learners", learners, "learners", quiet) as progress:

        def on_learner(found: list[Point]) -> None:
            last = found[-1]
            progress.note(
                f"{specs[last.spec_index].strip()} seed {last.learner} finished: {last.games:,} games, "
                f"{last.seconds:.1f} s wall of training; keeps {100 * last.keeps:.1f}%, score {100 * last.score:.0f}%"
            )
            progress.advance(1)

        with kept_when_stopped(progress, keeping.kept):
            try:
                return run(on_learner)
            except ValueError as error:
                fail(str(error))


def curves_table(game: str, result: CurvesResult, against: str, games: int | None,
                 seconds: float | None, seeds: int) -> Table:  # fmt: skip
    """A row a spec at its last point: games, time, keeps (its band over seeds), best, blunders, score."""
    budget = f"{games:,} games" if seconds is None else f"{seconds:g} wall seconds of training"
    seeded = f"{seeds} seed{'s' if seeds != 1 else ''}"
    title = f"{game}, {budget} a learner, {seeded}, against {against}"
    table = title_fits(Table(box=box.SIMPLE_HEAD, title=title))
    for heading in ("spec", "games", "wall", "keeps", "best", "blund.", "score"):
        table.add_column(heading, justify="left" if heading == "spec" else "right")
    for row in result.rows():
        cells = [row["spec"], f"{row['games']:,.0f}", f"{row['seconds']:.{2 if row['seconds'] < 10 else 0}f} s"]
        for measure in api.MEASURES:
            mean, low, high = row[f"{measure}_mean"], row[f"{measure}_low"], row[f"{measure}_high"]
            if mean != mean:  # NaN
                cells.append("-")
            elif measure == "keeps" and seeds > 1:
                cells.append(f"{100 * mean:.0f} [{100 * low:.0f}-{100 * high:.0f}]")
            else:
                cells.append(f"{100 * mean:.0f}")
        table.add_row(*cells)
    return table


# The lines `train` prints at each checkpoint, under their header, in columns that fit 80 and stay
# put however large the counts grow.


def checkpoint_header(clock: str = "wall") -> str:
    """The checkpoint lines' header, aligned with checkpoint_line (fits 80 columns); the time
    column is named by its clock, the budget's."""
    return (
        f"{clock + ' s':>7} {'games':>9} {'steps':>9} {'loss':>6} {'v.loss':>6} {'games/s':>7} {'pos/s':>8} "
        f"{'keeps':>6} {'best':>6} {'blund.':>6}"
    )


def _share(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def count(value: float, width: int) -> str:
    """``value`` with thousands separators, right-aligned in ``width``; where that is too wide (ten
    million steps in 9 columns), in millions, so that the columns never shift.

    >>> count(9_999_999, 9), count(12_345_678, 9), count(1_234_567_890, 9)
    ('9,999,999', '   12.35M', '1,234.57M')
    """
    whole = f"{value:,.0f}"
    if len(whole) <= width:
        return whole.rjust(width)
    for decimals in (2, 1, 0):
        millions = f"{value / 1e6:,.{decimals}f}M"
        if len(millions) <= width:
            return millions.rjust(width)
    return millions


def checkpoint_line(point: Checkpoint, clock: str = "wall") -> str:
    """One checkpoint, its time on ``clock`` ('wall' or 'CPU'), under :func:`checkpoint_header`."""
    seconds = point.cpu_seconds if clock == "CPU" else point.seconds
    return (
        f"{seconds:>6.0f}s {count(point.games, 9)} {count(point.steps, 9)} {point.loss:>6.4f} "
        f"{point.value_loss:>6.4f} {count(point.games_per_second, 7)} {count(point.positions_per_second, 8)} "
        f"{_share(point.keeps):>6} {_share(point.best):>6} {_share(point.blunders):>6}"
    )
