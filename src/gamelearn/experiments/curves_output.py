"""A learning-curves run's result and its files: the points measured (:class:`Point`), the
result over seeds (:class:`CurvesResult`: a mean and a 95% band a spec and checkpoint), and what
is written of it: the summary CSV (a row per spec and checkpoint, mean and band over seeds), the
per-seed CSV (a row per spec, seed and checkpoint: the raw points, for a researcher's own
statistics) and the PNG (keeps on the suite, and the score against the opponent, against training
games or seconds).  Each file is written whole or not at all, and never over an earlier run's:
default names carry the game, the learners and a UTC time stamp.  The run itself is
:mod:`.curves`'."""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..files import atomic_write_bytes
from ..store.store import Store
from .grading import yardstick_words
from .notebook import dataframe, percent, png_image, table
from .statistics import mean_interval

#: The measures of a point, in the CSV's order (docs/curves.md documents them).
MEASURES = ("keeps", "best", "blunders", "score")
#: The summary CSV's columns, in order: one row per spec and checkpoint.
CSV_COLUMNS = ("spec", "point", "games", "seconds", "seeds") + tuple(
    f"{measure}_{part}" for measure in MEASURES for part in ("mean", "low", "high")
)
#: The per-seed CSV's columns: one row per spec, seed and checkpoint.
POINT_COLUMNS = ("spec", "seed", "point", "games", "seconds", *MEASURES)


@dataclass(frozen=True)
class Point:
    """One measurement of one learner: checkpoint ``point`` (0 before training), after ``games``
    games and ``seconds`` of training; the suite's shares and the score against the opponent."""

    spec_index: int
    learner: int
    point: int
    games: int
    seconds: float
    keeps: float
    best: float
    blunders: float
    score: float

    def value(self, measure: str) -> float:
        return float(getattr(self, measure))


# Statistics over seeds ----------------------------------------------------------------------------


def band(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean with a 95% Student-t interval cut to [0, 1]; one value: no band.
    Values that are NaN are left out."""
    clean = [v for v in values if not math.isnan(v)]
    if not clean:
        return (math.nan, math.nan, math.nan)
    interval = mean_interval(clean)
    return (interval.estimate, interval.low, interval.high)


@dataclass(frozen=True)
class CurvesResult:
    game: str
    suite: str
    suite_size: int
    specs: tuple[str, ...]
    against: str
    games: int | None
    seconds: float | None
    every: int
    checkpoints: int | None  # a timed run's measurements, evenly in time
    seeds: int
    side: str
    eval_games: int
    seed: int
    max_plies: int
    points: tuple[Point, ...]
    #: Each spec's seat (``side`` resolved: first, second or alternate), and the suite's positions
    #: its grade is a share of (its side's, :meth:`Suite.of_side`; all of them when it alternates).
    seats: tuple[str, ...] = ()
    graded: tuple[int, ...] = ()
    side_names: tuple[str, ...] = ()

    def yardstick(self, spec_index: int) -> str:
        """What a spec's shares are of: 'hexapawn-v1, 27 positions', or for a learner seated on
        one side 'hexapawn-v1, Black's 15 of 27 positions'."""
        if spec_index >= len(self.graded):
            return yardstick_words(self.suite, self.suite_size, self.suite_size)
        return yardstick_words(self.suite, self.graded[spec_index], self.suite_size, self.side_names[spec_index])

    def yardsticks(self) -> str:
        """The yardsticks of every spec in a phrase: one where they share it, else each named."""
        found = [self.yardstick(index) for index in range(len(self.specs))]
        if len(set(found)) <= 1:
            return found[0] if found else self.suite
        return "; ".join(f"{spec}: {words}" for spec, words in zip(self.specs, found, strict=True))

    def rows(self) -> list[dict[str, Any]]:
        """One row per spec and checkpoint: the CSV_COLUMNS (games and seconds: means over seeds)."""
        rows = []
        for spec_index, spec in enumerate(self.specs):
            for point in sorted({p.point for p in self.points if p.spec_index == spec_index}):
                here = [p for p in self.points if p.spec_index == spec_index and p.point == point]
                games = sum(p.games for p in here) / len(here)
                row: dict[str, Any] = {
                    "spec": spec,
                    "point": point,
                    "games": int(games) if games == int(games) else round(games, 1),
                    "seconds": round(sum(p.seconds for p in here) / len(here), 3),
                    "seeds": len(here),
                }
                for name in MEASURES:
                    mean, low, high = band([p.value(name) for p in here])
                    row |= {f"{name}_mean": mean, f"{name}_low": low, f"{name}_high": high}
                rows.append(row)
        return rows

    def seed_rows(self) -> list[dict[str, Any]]:
        """One row per spec, seed and checkpoint: the POINT_COLUMNS."""
        return [
            {"spec": self.specs[p.spec_index], "seed": p.learner, **{k: getattr(p, k) for k in POINT_COLUMNS[2:]}}
            for p in self.points
        ]

    def finished_learners(self) -> int:
        return len({(p.spec_index, p.learner) for p in self.points})

    def to_dict(self) -> dict[str, Any]:
        data = {key: value for key, value in asdict(self).items() if key != "points"}
        data["specs"] = list(self.specs)
        for key in ("seats", "graded", "side_names"):
            data[key] = list(data[key])
        data["columns"] = list(CSV_COLUMNS)
        data["rows"] = [{k: _number(v) for k, v in row.items()} for row in self.rows()]
        data["points"] = [{k: _number(v) for k, v in row.items()} for row in self.seed_rows()]
        return data

    def _repr_html_(self) -> str:
        """The chart (an inline PNG, x the budget's axis) over a table of each spec's last point:
        games, wall seconds of training, keeps with its 95% band over seeds, best, blunders, score."""
        last: dict[str, dict[str, Any]] = {}
        for row in self.rows():
            last[row["spec"]] = row
        columns = ["spec", "games", "wall s", "keeps", "95% band", "best", "blunders", "score"]
        rows = [
            [spec, f"{row['games']:,}", f"{row['seconds']:.1f}", percent(row["keeps_mean"])]
            + [f"{percent(row['keeps_low'])}-{percent(row['keeps_high'])}", percent(row["best_mean"])]
            + [percent(row["blunders_mean"]), percent(row["score_mean"])]
            for spec, row in last.items()
        ]
        x_axis = "games" if self.seconds is None else "seconds"
        caption = f"{self.game}, at the last point; {self.seeds} seeds, against {self.against}; {self.yardsticks()}"
        return png_image(render_png(self, x_axis), f"learning curves, {self.game}") + table(columns, rows, caption)

    def to_dataframe(self, per_seed: bool = False) -> Any:
        """The curves as a pandas DataFrame (pandas imported here): a row a spec and checkpoint,
        means and 95% bands over seeds (the CSV_COLUMNS), or with ``per_seed`` a row a learner and
        checkpoint (the POINT_COLUMNS)."""
        if per_seed:
            return dataframe(self.seed_rows(), POINT_COLUMNS)
        return dataframe(self.rows(), CSV_COLUMNS)


def _number(value: Any) -> Any:
    if isinstance(value, float):
        return None if math.isnan(value) else round(value, 5)
    return value


#: How a chart's title says where the learner sat.
SEATS = {
    "usual": "each learner on its usual side",
    "first": "the learner moving first",
    "second": "the learner moving second",
    "alternate": "seats alternating",
}
#: The x axes a chart can have.
X_AXES = ("games", "seconds")


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return "" if math.isnan(value) else f"{value:.5f}"
    return str(value)


def _table(columns: Sequence[str], rows: list[dict[str, Any]]) -> str:
    lines = [",".join(columns)]
    lines += [",".join(_cell(row[column]) for column in columns) for row in rows]
    return "\n".join(lines) + "\n"


def to_csv(result: CurvesResult) -> str:
    """The summary: CSV_COLUMNS, a row per spec and checkpoint."""
    return _table(CSV_COLUMNS, result.rows())


def to_points_csv(result: CurvesResult) -> str:
    """The raw points: POINT_COLUMNS, a row per spec, seed and checkpoint."""
    return _table(POINT_COLUMNS, result.seed_rows())


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.=]+", "-", text).strip("-")


def default_stem(result_game: str, specs: Sequence[str], now: datetime | None = None) -> str:
    """``curves-GAME-SPEC-SPEC-YYYYmmddTHHMMSS`` (UTC); long spec lists are cut to stay readable."""
    learners = "-".join(_slug(spec) for spec in specs)[:80].strip("-")
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%S")
    return f"curves-{_slug(result_game)}-{learners}-{stamp}"


def file_paths(stem: Path) -> tuple[Path, Path, Path]:
    """STEM.csv, STEM-points.csv and STEM.png."""
    return (
        stem.with_name(stem.name + ".csv"),
        stem.with_name(stem.name + "-points.csv"),
        stem.with_name(stem.name + ".png"),
    )


def taken(stem: Path) -> list[Path]:
    """Those of the run's files that exist already."""
    return [path for path in file_paths(stem) if path.exists()]


def free_stem(folder: Path, stem: str) -> Path:
    """``folder/stem``, or ``stem-2``, ``stem-3``... where a run in the same second took it."""
    candidate, number = folder / stem, 2
    while taken(candidate):
        candidate, number = folder / f"{stem}-{number}", number + 1
    return candidate


def render_png(result: CurvesResult, x_axis: str = "games") -> bytes:
    """Two panels, keeps on the suite and score against the opponent, x training games or seconds;
    a line (mean over seeds) and a 95% band per spec."""
    import matplotlib  # the chart only: matplotlib is heavy, and only a chart needs it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(11, 4.4), constrained_layout=True)
    rows = result.rows()
    for spec in result.specs:
        mine = [row for row in rows if row["spec"] == spec]
        if not mine:
            continue
        x = [row[x_axis] for row in mine]
        for axis, name in zip(axes, ("keeps", "score"), strict=True):
            line = axis.plot(x, [row[f"{name}_mean"] for row in mine], marker="o", markersize=3, label=spec)[0]
            axis.fill_between(
                x,
                [row[f"{name}_low"] for row in mine],
                [row[f"{name}_high"] for row in mine],
                color=line.get_color(),
                alpha=0.2,
            )
    axes[0].set_title(f"keeps: value-keeping moves on {result.yardsticks()}", wrap=True)
    axes[1].set_title(f"score against {result.against} ({result.eval_games} games a point)")
    for axis in axes:
        axis.set_xlabel("training games" if x_axis == "games" else "training seconds, wall clock (measuring left out)")
        axis.set_ylim(-0.02, 1.02)
        axis.grid(alpha=0.3)
        axis.title.set_fontsize(10)
    axes[0].set_ylabel("share of the positions graded")
    axes[1].set_ylabel("score (win 1, draw 1/2)")
    axes[1].legend(loc="lower right", fontsize=8)
    budget = f"{result.games} games" if result.games is not None else f"{result.seconds:g} wall seconds of training"
    seeds = f"{result.seeds} seed{'s' if result.seeds != 1 else ''}"
    seat = result.seats[0] if len(set(result.seats)) == 1 else result.side
    figure.suptitle(
        f"{result.game}: {budget} per learner, {SEATS[seat]}; mean over {seeds}"
        + (", 95% band" if result.seeds > 1 else "")
    )
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110)
    plt.close(figure)
    return buffer.getvalue()


def write_files(result: CurvesResult, stem: Path, x_axis: str = "games") -> tuple[Path, Path, Path]:
    """STEM.csv, STEM-points.csv and STEM.png, each written whole or not at all; ValueError for a
    missing folder."""
    csv_path, points_path, png_path = file_paths(stem)
    atomic_write_bytes(csv_path, to_csv(result).encode("utf-8"))
    atomic_write_bytes(points_path, to_points_csv(result).encode("utf-8"))
    atomic_write_bytes(png_path, render_png(result, x_axis))
    return csv_path, points_path, png_path


def keep_run(
    result: CurvesResult, seconds_taken: float, stopped: bool, stem: Path, x_axis: str = "games"
) -> tuple[int, tuple[Path, Path, Path] | str]:
    """Keep a curves run: the result into the store first (a ``curves`` result, its time taken and
    whether it was stopped), then the files under ``stem``: a file that cannot be written costs the
    files, never the result.  The result's number, and the files' paths or the line that says why
    they could not be written."""
    payload = result.to_dict()
    payload["seconds_taken"] = round(seconds_taken, 3)
    payload["stopped"] = stopped
    with Store() as store:
        number = store.save_result("curves", payload)
    try:
        return number, write_files(result, stem, x_axis)
    except (ValueError, OSError) as error:
        return number, f"--out: {error} (the result is saved: curves #{number})"
