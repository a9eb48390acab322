"""Confidence intervals for the experiments: a proportion (Wilson's score interval, in closed form)
and the mean of a few runs (Student's t, from scipy.stats).

Every experiment that reports a rate goes through here: the thesis experiment (O's share of the
games, pooled and across seeds) and the tournaments (a player's score, draws counted as half a
point).

scipy.stats is imported on first use of a t quantile, not with the module: the command line
imports the experiments for every command, and scipy.stats takes longer to import than most
commands run; a Wilson interval never needs it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

CONFIDENCE = 0.95
#: The standard normal's 97.5% quantile, z of a two-sided 95% interval: scipy.stats.norm.ppf(0.975)
#: (tests/experiments/test_statistics.py checks it against scipy).
Z_95 = 1.959963984540054


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float
    high: float

    def percent(self) -> str:
        """In percent: '20.9 (19.5-22.4)'."""
        return f"{100 * self.estimate:.1f} ({100 * self.low:.1f}-{100 * self.high:.1f})"


def wilson(successes: float, trials: int) -> Interval:
    """The Wilson score interval (Wilson 1927) for the proportion ``successes / trials``, 95%: good
    for small counts and for rates near 0 or 1, where the normal approximation is not.

    The closed form: centre ``(p + z^2/2n) / (1 + z^2/n)``, half-width
    ``z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n)``, the interval scipy.stats.binomtest's
    ``proportion_ci(method="wilson")`` gives for whole counts (tests/experiments/test_statistics.py checks it
    against scipy).  A score with half points (a draw counted as half a win, as tournaments count)
    is not a binomial count; the same formula is applied to it (the usual approximation for
    chess-like scores).
    """
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials > 0, not {successes}/{trials}")
    p = successes / trials
    z2 = Z_95 * Z_95
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = Z_95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    low, high = centre - half, centre + half
    return Interval(p, max(0.0, low), min(1.0, high))


def t_quantile_975(df: int) -> float:
    """Student's t 97.5% quantile with ``df`` degrees of freedom (scipy.stats.t)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    # a tournament's interval alone: scipy.stats is 0.6 CPU s to import, more than the command's start
    from scipy import stats

    return float(stats.t.ppf(0.5 + CONFIDENCE / 2, df))


def mean_interval(values: Sequence[float], bounds: tuple[float, float] = (0.0, 1.0)) -> Interval:
    """Mean of per-seed rates with a 95% t interval (n - 1 degrees of freedom); one value: no width.

    The interval is clipped to ``bounds`` (a rate lies in 0..1), which a t interval of a few
    spread-out rates can otherwise pass."""
    if not values:
        raise ValueError("no values")
    n = len(values)
    mean = sum(values) / n
    if n == 1:
        return Interval(mean, mean, mean)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile_975(n - 1) * sd / math.sqrt(n)
    return Interval(mean, max(bounds[0], mean - half), min(bounds[1], mean + half))
