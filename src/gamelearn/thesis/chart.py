"""The thesis experiment's chart: O's win rate against the games its memory was trained over."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from ..files import atomic_write_bytes
from .runs import AUTHOR_FIGURES, CHART_SERIES

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from .experiment import ExperimentReport


def write_chart(report: ExperimentReport, path: Path | str) -> None:
    """O's win rate against the games its memory was trained over, one line per series through the
    mean over seeds, each seed's run a small point beside it (with few seeds a t interval is wider
    than the data; the runs themselves show the spread); rendered to bytes (matplotlib's Agg), then
    written whole by files.atomic_write_bytes: a new file gets open()'s mode, a missing folder
    is a ValueError."""
    # matplotlib is heavy and only the experiment's chart needs it: imported when one is drawn
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9, 5), dpi=100, layout="constrained")
    axes = figure.add_subplot()
    for family, linestyle in (("our training", "-"), ("thesis memories", "--")):
        for mode, variant in CHART_SERIES:
            _plot_series(axes, report, family, mode, variant, linestyle)
    _mark_author_figures(axes)
    axes.set_ylim(0, 100)
    axes.set_xlabel("games the memory was trained over")
    axes.set_ylabel("O's wins (% of games)")
    config = report.config
    axes.set_title(
        f"Teeko thesis program: O's win rate, each seed's run a point "
        f"({config.seeds} seeds, {config.chart_games or config.games} games each)"
    )
    axes.legend(fontsize=7)
    axes.grid(alpha=0.3)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    atomic_write_bytes(path, buffer.getvalue())


def _plot_series(axes: Axes, report: ExperimentReport, family: str, mode: str, variant: str, linestyle: str) -> None:
    """One series: a line through the mean over seeds at each training length, and each seed's run
    a small point of the line's colour; nothing where the report has no point of it."""
    points = sorted(
        (p for p in report.chart_points if p.memory == family and p.mode == mode and p.variant == variant),
        key=lambda p: p.training_games or 0,
    )
    if not points:
        return
    xs = [p.training_games or 0 for p in points]
    ys = [100 * p.across_seeds.estimate for p in points]
    (line,) = axes.plot(xs, ys, linestyle=linestyle, marker="o",
                        label=f"{family}: {mode} program, O {variant} (mean)")  # fmt: skip
    runs = [r for r in report.runs if r.memory == family and r.mode == mode and r.variant == variant
            and r.training_games is not None]  # fmt: skip
    axes.scatter([r.training_games or 0 for r in runs], [100 * r.o_rate.estimate for r in runs],
                 s=12, alpha=0.45, color=line.get_color(), linewidths=0)  # fmt: skip


def _mark_author_figures(axes: Axes) -> None:
    """The thesis author's own figures, a dotted grey line each, labelled at the right edge."""
    for (_, _, variant), figure_value in AUTHOR_FIGURES.items():
        axes.axhline(100 * figure_value, color="grey", linewidth=0.8, linestyle=":")
        axes.text(axes.get_xlim()[1], 100 * figure_value, f" author: O {variant}, {100 * figure_value:.1f}%",
                  fontsize=7, color="grey", va="center", ha="left")  # fmt: skip
