"""The experiments' intervals (experiments/statistics.py) against published values and closed forms."""

from __future__ import annotations

import math

import pytest

from gamelearn.experiments import statistics


@pytest.mark.parametrize(
    "successes,trials,low,high",
    [  # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_newcombes_table(successes: int, trials: int, low: float, high: float):
    interval = statistics.wilson(successes, trials)
    assert interval.estimate == successes / trials
    assert round(interval.low, 4) == low and round(interval.high, 4) == high


def test_wilson_closed_forms_and_symmetry():
    z2 = statistics.Z_95**2
    assert math.isclose(statistics.wilson(0, 10).high, z2 / (10 + z2))
    assert math.isclose(statistics.wilson(10, 10).low, 10 / (10 + z2))
    a, b = statistics.wilson(627, 3000), statistics.wilson(3000 - 627, 3000)
    assert math.isclose(a.low, 1 - b.high) and math.isclose(a.high, 1 - b.low)
    assert a.low < 0.209 < a.high and a.high - a.low < 0.03  # 3,000 games: about +-1.5 points
    for bad in ((1, 0), (-1, 5), (6, 5)):
        with pytest.raises(ValueError):
            statistics.wilson(*bad)


def test_mean_interval_uses_student_t_and_stays_within_rates():
    values = [0.10, 0.20, 0.30]  # mean 0.2, sd 0.1, t(2) = 4.302653
    interval = statistics.mean_interval(values)
    half = 4.302653 * 0.1 / math.sqrt(3)
    assert math.isclose(interval.estimate, 0.2)
    assert interval.low == 0.0  # 0.2 - 0.248 is clipped: a rate is not negative
    assert math.isclose(interval.high, 0.2 + half, rel_tol=1e-6)
    narrow = statistics.mean_interval([0.30, 0.32, 0.34, 0.36, 0.38])  # sd 0.0316, t(4) = 2.776445
    assert math.isclose(narrow.high - narrow.estimate, 2.776445 * math.sqrt(0.001) / math.sqrt(5), rel_tol=1e-6)
    assert statistics.mean_interval([0.4]) == statistics.Interval(0.4, 0.4, 0.4)
    # Published quantiles (Fisher & Yates' tables): t(1) 12.706, t(2) 4.303, t(4) 2.776, t(30) 2.042.
    for df, published in ((1, 12.706205), (2, 4.302653), (4, 2.776445), (30, 2.042272)):
        assert math.isclose(statistics.t_quantile_975(df), published, rel_tol=1e-6)
    assert math.isclose(statistics.t_quantile_975(10**6), statistics.Z_95, rel_tol=1e-5)  # t tends to z
    assert statistics.t_quantile_975(35) < statistics.t_quantile_975(30)  # exact, not a table's step
    with pytest.raises(ValueError):
        statistics.t_quantile_975(0)


def test_wilson_of_a_score_with_half_points_follows_the_same_formula() -> None:
    """Tournaments count a draw as half a point; scipy takes whole counts only, so half points use
    the score formula directly: it agrees with scipy's interval on whole counts and lies between
    its neighbours."""
    z = statistics.Z_95

    def closed_form(points: float, games: int) -> tuple[float, float]:
        p = points / games
        centre = (p + z * z / (2 * games)) / (1 + z * z / games)
        half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
        return centre - half, centre + half

    for points, games in ((5, 10), (81, 263), (3, 7)):
        interval = statistics.wilson(points, games)
        assert interval.low == pytest.approx(closed_form(points, games)[0], abs=1e-12)
        assert interval.high == pytest.approx(closed_form(points, games)[1], abs=1e-12)
    half = statistics.wilson(5.5, 10)
    assert (half.low, half.high) == pytest.approx(closed_form(5.5, 10), abs=1e-12)
    assert statistics.wilson(5, 10).low < half.low < statistics.wilson(6, 10).low


def test_z_is_the_normal_quantile() -> None:
    from scipy import stats

    assert statistics.Z_95 == float(stats.norm.ppf(0.975))


def test_wilson_in_closed_form_is_scipys_interval_on_whole_counts() -> None:
    """The closed form replaced scipy.stats.binomtest's Wilson interval; scipy stays the oracle."""
    from scipy import stats

    for successes, trials in ((0, 1), (1, 1), (3, 7), (81, 263), (627, 3000), (999, 1000), (0, 100_000)):
        expected = stats.binomtest(successes, trials).proportion_ci(statistics.CONFIDENCE, method="wilson")
        interval = statistics.wilson(successes, trials)
        assert interval.low == pytest.approx(float(expected.low), abs=1e-12)
        assert interval.high == pytest.approx(float(expected.high), abs=1e-12)
