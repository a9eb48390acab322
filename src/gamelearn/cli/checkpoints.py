"""The lines ``gamelearn train`` prints at each checkpoint, under their header, in columns that fit
80 and stay put however large the counts grow."""

from __future__ import annotations

from ..experiments.training import Checkpoint


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
