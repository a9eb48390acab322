"""The files of a learning-curves run: the summary CSV (a row per spec and checkpoint, mean and
band over seeds), the per-seed CSV (a row per spec, seed and checkpoint: the raw points, for a
researcher's own statistics) and the PNG (keeps on the suite, and the score against the opponent,
against training games or seconds).  Each is written whole or not at all, and never over an
earlier run's: default names carry the game, the learners and a UTC time stamp."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..files import atomic_write_bytes
from .curves import CSV_COLUMNS, POINT_COLUMNS, CurvesResult

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
    import io

    import matplotlib

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
    from ..store.store import Store

    payload = result.to_dict()
    payload["seconds_taken"] = round(seconds_taken, 3)
    payload["stopped"] = stopped
    with Store() as store:
        number = store.save_result("curves", payload)
    try:
        return number, write_files(result, stem, x_axis)
    except (ValueError, OSError) as error:
        return number, f"--out: {error} (the result is saved: curves #{number})"
