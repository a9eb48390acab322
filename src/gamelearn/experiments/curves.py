"""Learning curves: how fast each learner learns, graded move by move against the exact solution.

For each learner spec, ``seeds`` independent learners each play ``games`` training games against
the opponent (``against``), colours alternating (the learner first in even games).  Before the first
game and after every ``every`` games a frozen copy is measured: the learner's knowledge is loaded
into a new player made from its spec with ``train=off``, which plays ``eval_games`` games against a
fresh opponent (colours alternating, nobody learning).  Two things are measured:

* its **score** against the opponent: 1 a win, 1/2 a draw (a repetition or the ply cap included),
  0 a loss, averaged over the games;
* the **grades of its moves** in those games, each judged by the perfect player
  (``gamelearn.solve(game).grade``): the shares of best moves, of moves that keep the value
  (best or keeps), of mistakes (a win thrown to a draw, a draw to a loss) and of blunders (a win
  thrown to a loss), over every position it met.

Over the seeds each point gets its mean and a 95% band: mean +/- t(0.975, S-1) * s / sqrt(S),
Student's t (scipy.stats), s the sample standard deviation; one seed has no band (the mean alone); a band is cut to [0, 1], where every measure lies.

Every game is seeded by a hash of (seed, spec, learner, game), so a run replays exactly; the
(spec, seed) tasks are independent and run in local processes or on a Dask cluster, with the same
result either way.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..games import Game, get_game
from ..match import DEFAULT_MAX_PLIES, play_game
from ..players.knowledge import Learner
from ..players.registry import make_player
from ..solve import Grade, solve
from ..store.files import atomic_write_bytes
from .runners import default_workers, run_all
from .statistics import mean_interval

#: The CSV's columns, in order (``docs/curves.md`` documents them).
MEASURES = ("score", "best", "keeps_value", "mistake", "blunder")
CSV_COLUMNS = ("spec", "games", "seeds") + tuple(
    f"{measure}_{part}" for measure in MEASURES for part in ("mean", "low", "high")
)


def curve_seed(seed: int, spec: int, learner: int, index: int) -> int:
    """The seed of game ``index`` of learner ``learner`` of spec ``spec`` (negative indices: the
    players' own seeds, and the measurements'); a hash, 48 bits."""
    digest = hashlib.blake2b(f"curves:{seed}:{spec}:{learner}:{index}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


def frozen_spec(spec: str) -> str:
    """``spec`` with train=off (replacing any train option it has)."""
    name, _, rest = spec.partition(":")
    options = [part for part in rest.split(",") if part.strip() and not part.strip().startswith("train=")]
    return f"{name}:{','.join([*options, 'train=off'])}"


@dataclass(frozen=True)
class CurveTask:
    """One learner's run (names, not objects: it is pickled to a worker)."""

    game: str
    spec: str
    spec_index: int
    learner: int
    against: str
    games: int
    every: int
    eval_games: int
    seed: int
    max_plies: int


@dataclass(frozen=True)
class Point:
    """One measurement of one learner after ``games`` training games."""

    spec_index: int
    learner: int
    games: int
    score: float
    grades: dict[str, int]

    def share(self, measure: str) -> float:
        moves = sum(self.grades.values())
        if not moves:
            return math.nan
        if measure == "keeps_value":
            return (self.grades["best"] + self.grades["keeps"]) / moves
        return self.grades[measure] / moves

    def value(self, measure: str) -> float:
        return self.score if measure == "score" else self.share(measure)


def measure(task: CurveTask, learner: Any, games_played: int) -> Point:
    game = get_game(task.game)
    solution = solve(game)
    copy = make_player(game, frozen_spec(task.spec), seed=curve_seed(task.seed, task.spec_index, task.learner, -2))
    assert isinstance(copy, Learner)  # check_arguments made sure, before anything was played
    copy.load(learner.knowledge())
    points = 0.0
    grades = {grade.value: 0 for grade in Grade}
    for index in range(task.eval_games):
        opponent = make_player(game, task.against, seed=curve_seed(task.seed, -1, task.learner, -3 - index))
        side = index % 2
        seats = [copy, opponent] if side == 0 else [opponent, copy]

        def grade(before: Any, move: str, after: Any, side: int = side) -> None:
            if game.to_move(before) == side:
                grades[solution.grade(before, move).value] += 1

        seed = curve_seed(task.seed, task.spec_index, task.learner, 1_000_000 + games_played * 1000 + index)
        record = play_game(game, seats, seed=seed, max_plies=task.max_plies, learn=False, on_move=grade)
        points += 0.5 if record.winner is None else float(record.winner == side)
    return Point(task.spec_index, task.learner, games_played, points / task.eval_games, grades)


def run_curve(task: CurveTask) -> list[Point]:
    """Train one learner against the opponent, measuring a frozen copy every ``every`` games."""
    game = get_game(task.game)
    learner = make_player(game, task.spec, seed=curve_seed(task.seed, task.spec_index, task.learner, -1))
    opponent = make_player(game, task.against, seed=curve_seed(task.seed, -1, task.learner, -1))
    found = [measure(task, learner, 0)]
    for index in range(task.games):
        seats = [learner, opponent] if index % 2 == 0 else [opponent, learner]
        play_game(
            game, seats, seed=curve_seed(task.seed, task.spec_index, task.learner, index), max_plies=task.max_plies
        )
        if (index + 1) % task.every == 0 or index + 1 == task.games:
            found.append(measure(task, learner, index + 1))
    return found


# Statistics over seeds ----------------------------------------------------------------------------


def band(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean with a 95% Student-t interval cut to [0, 1]; one value: no band.
    Values that are NaN (a measurement with no move graded) are left out."""
    clean = [v for v in values if not math.isnan(v)]
    if not clean:
        return (math.nan, math.nan, math.nan)
    interval = mean_interval(clean)
    return (interval.estimate, interval.low, interval.high)


@dataclass(frozen=True)
class CurvesResult:
    game: str
    specs: tuple[str, ...]
    against: str
    games: int
    every: int
    seeds: int
    eval_games: int
    seed: int
    max_plies: int
    points: tuple[Point, ...]

    def rows(self) -> list[dict[str, Any]]:
        """One row per spec and measurement point: the CSV_COLUMNS."""
        rows = []
        for spec_index, spec in enumerate(self.specs):
            for games in sorted({p.games for p in self.points if p.spec_index == spec_index}):
                here = [p for p in self.points if p.spec_index == spec_index and p.games == games]
                row: dict[str, Any] = {"spec": spec, "games": games, "seeds": len(here)}
                for name in MEASURES:
                    mean, low, high = band([p.value(name) for p in here])
                    row |= {f"{name}_mean": mean, f"{name}_low": low, f"{name}_high": high}
                rows.append(row)
        return rows

    def to_dict(self) -> dict[str, Any]:
        data = {key: value for key, value in asdict(self).items() if key != "points"}
        data["specs"] = list(self.specs)
        data["columns"] = list(CSV_COLUMNS)
        data["rows"] = [{k: _number(v) for k, v in row.items()} for row in self.rows()]
        data["points"] = [asdict(p) for p in self.points]
        return data


def _number(value: Any) -> Any:
    if isinstance(value, float):
        return None if math.isnan(value) else round(value, 5)
    return value


def to_csv(result: CurvesResult) -> str:
    lines = [",".join(CSV_COLUMNS)]
    for row in result.rows():
        cells = []
        for column in CSV_COLUMNS:
            value = row[column]
            cells.append(
                ""
                if isinstance(value, float) and math.isnan(value)
                else f"{value:.5f}"
                if isinstance(value, float)
                else str(value)
            )
        lines.append(",".join(cells))
    return "\n".join(lines) + "\n"


def render_png(result: CurvesResult) -> bytes:
    """Two panels, score and best-move share against games, a line and a 95% band per spec."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(11, 4.2), constrained_layout=True)
    rows = result.rows()
    for spec in result.specs:
        mine = [row for row in rows if row["spec"] == spec]
        x = [row["games"] for row in mine]
        for axis, name in zip(axes, ("score", "best"), strict=True):
            line = axis.plot(x, [row[f"{name}_mean"] for row in mine], marker="o", markersize=3, label=spec)[0]
            axis.fill_between(
                x,
                [row[f"{name}_low"] for row in mine],
                [row[f"{name}_high"] for row in mine],
                color=line.get_color(),
                alpha=0.2,
            )
    axes[0].set_title(f"score against {result.against}")
    axes[1].set_title("share of best moves (perfect player's grade)")
    for axis in axes:
        axis.set_xlabel("training games")
        axis.set_ylim(-0.02, 1.02)
        axis.grid(alpha=0.3)
    axes[0].legend(loc="lower right", fontsize=8)
    figure.suptitle(f"{result.game}: mean over {result.seeds} seed(s), 95% band")
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110)
    plt.close(figure)
    return buffer.getvalue()


def write_files(result: CurvesResult, out: Path) -> tuple[Path, Path]:
    """OUT.csv and OUT.png, each written whole or not at all; ValueError for a missing folder."""
    csv_path, png_path = out.with_suffix(".csv"), out.with_suffix(".png")
    atomic_write_bytes(csv_path, to_csv(result).encode("utf-8"))
    atomic_write_bytes(png_path, render_png(result))
    return csv_path, png_path


# Running -------------------------------------------------------------------------------------------


def check_arguments(
    game: Game, specs: Sequence[str], against: str, games: int, every: int, seeds: int, eval_games: int, workers: int
) -> None:
    """ValueError naming what is wrong, before anything is played."""
    if not specs:
        raise ValueError("name at least one learner spec")
    for name, value, low in (
        ("--games", games, 1),
        ("--every", every, 1),
        ("--seeds", seeds, 1),
        ("--eval-games", eval_games, 1),
        ("--workers", workers, 1),
    ):
        if value < low:
            raise ValueError(f"{name} must be at least {low}, not {value}")
    for spec in specs:
        player = make_player(game, spec, seed=0)
        if not isinstance(player, Learner):
            raise ValueError(
                f"{spec!r} is not a learner: curves measure players that learn (her, him, menace, td, thesis, az)"
            )
        if player.keep_name() is not None:
            raise ValueError(f"{spec!r}: curves train fresh learners in memory; drop the stored name from the spec")
        if not player.trains:
            raise ValueError(f"{spec!r}: a frozen learner (train=off) learns nothing; drop train=off")
        make_player(game, frozen_spec(spec), seed=0)
    opponent = make_player(game, against, seed=0)
    if opponent.is_human:
        raise ValueError("--against: curves play machines only, not a person")
    try:
        solve(game)
    except ValueError as error:
        raise ValueError(
            f"grading {game.name} needs its solved table: run `gamelearn solve {game.name}` first ({error})"
        ) from None


def run_curves(
    game: Game | str,
    specs: Sequence[str],
    against: str,
    games: int,
    every: int,
    seeds: int,
    seed: int = 0,
    eval_games: int = 20,
    max_plies: int = DEFAULT_MAX_PLIES,
    workers: int | None = None,
    dask: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> CurvesResult:
    """The learning curves of ``specs`` (see the module's text).  ``progress(1)`` after each
    learner's run.  ValueError for bad arguments, before anything is played."""
    if isinstance(game, str):
        game = get_game(game)
    workers = default_workers() if workers is None else workers
    specs = [spec.strip() for spec in specs]
    check_arguments(game, specs, against, games, every, seeds, eval_games, workers)
    tasks = [
        CurveTask(game.name, spec, index, learner, against, games, every, eval_games, seed, max_plies)
        for index, spec in enumerate(specs)
        for learner in range(seeds)
    ]
    found: list[Point] = []

    def done(points: list[Point]) -> None:
        if progress is not None:
            progress(1)

    for points in run_all(run_curve, tasks, workers, dask, on_done=done):
        found.extend(points)
    found.sort(key=lambda p: (p.spec_index, p.learner, p.games))
    return CurvesResult(
        game.name, tuple(specs), against, games, every, seeds, eval_games, seed, max_plies, tuple(found)
    )
