"""Game pairs: one opening played twice, colours swapped, is the trial of a tournament.

The two games of a pair are not independent (the opening favours one side, and the players meet it
once with each colour), so the statistics here count pairs, not games:

- the **pentanomial**: how many pairs gave spec A 0, 1/2, 1, 3/2 or 2 points of 2;
- the **score over pairs**: the mean of the pair scores (points / 2) with a Student t 95% interval
  over the pairs (:func:`.statistics.mean_interval`);
- the **GSPRT** (a sequential test, :class:`Sprt`): after every pair, the generalized log-likelihood
  ratio of the pentanomial results between H0: Elo = elo0 and H1: Elo = elo1, the way
  Fishtest, cutechess-cli and fastchess test engines.  This is Michel Van den Bergh's
  pentanomial GSPRT, the test of Fishtest's statistics (his notes are listed on the
  "Fishtest mathematics" page of the Fishtest wiki): the unknown pentanomial distribution is
  replaced under each hypothesis by its maximum-likelihood estimate given that hypothesis'
  expected score; the GSPRT's theory is Li, Liu and Ying, "Generalized sequential probability
  ratio test for separate families of hypotheses", Sequential Analysis 33 (2014).  Elo here is
  logistic Elo, expected score 1 / (1 + 10^(-Elo/400)) (fastchess's ``model=logistic``); Van den
  Bergh's normalized-Elo form is not implemented.  Bounds are Wald's (1945) log(beta / (1 -
  alpha)) and log((1 - beta) / alpha), alpha = beta = 0.05 unless given.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .statistics import Interval, mean_interval

#: The points of a pair, in the pentanomial's order.
PAIR_POINTS: tuple[float, ...] = (0.0, 0.5, 1.0, 1.5, 2.0)
#: Fishtest's regularization: every pentanomial count is at least this in the GSPRT, so that a
#: lopsided start (every pair won) still has a maximum-likelihood estimate under both hypotheses.
EPSILON = 1e-3


def pentanomial(pair_points: Sequence[float]) -> tuple[int, int, int, int, int]:
    """Counts of pairs scoring 0, 1/2, 1, 3/2 and 2 points (of 2)."""
    counts = [0] * len(PAIR_POINTS)
    for points in pair_points:
        counts[PAIR_POINTS.index(points)] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def pair_interval(pair_points: Sequence[float]) -> Interval:
    """The score (points / 2 per pair) with a t 95% interval over the pairs; (0.5, 0, 1) for none."""
    if not pair_points:
        return Interval(0.5, 0.0, 1.0)
    return mean_interval([points / 2 for points in pair_points])


def expected_score(elo: float) -> float:
    """The logistic Elo model's expected score per game."""
    return 1 / (1 + 10 ** (-elo / 400))


def constrained_mle(counts: Sequence[float], score: float) -> list[float]:
    """The maximum-likelihood pentanomial distribution with expected score ``score`` (per game)
    given ``counts``: p_i = q_i / (1 + lam (a_i - score)), q the observed shares and a_i the pair
    scores a game, lam found by bisection so that the p_i add up to 1 (Lagrange's condition)."""
    total = sum(counts)
    shares = [count / total for count in counts]
    scores = [points / 2 for points in PAIR_POINTS]
    offsets = [a - score for a in scores]
    # 1 + lam * offset > 0 for every outcome seen: lam lies between these two.
    low = max((-1 / d for d, q in zip(offsets, shares, strict=True) if q > 0 and d > 0), default=-1e9)
    high = min((-1 / d for d, q in zip(offsets, shares, strict=True) if q > 0 and d < 0), default=1e9)

    def excess(lam: float) -> float:  # decreasing in lam; zero at the solution
        return sum(q * d / (1 + lam * d) for q, d in zip(shares, offsets, strict=True))

    for _ in range(200):
        middle = (low + high) / 2
        if excess(middle) > 0:
            low = middle
        else:
            high = middle
    lam = (low + high) / 2
    return [q / (1 + lam * d) for q, d in zip(shares, offsets, strict=True)]


def llr(counts: Sequence[int], elo0: float, elo1: float) -> float:
    """The GSPRT's log-likelihood ratio of H1 (Elo = elo1) to H0 (Elo = elo0) for the pentanomial
    ``counts``, each count regularized to at least :data:`EPSILON` as Fishtest does."""
    regular = [max(float(count), EPSILON) for count in counts]
    under0 = constrained_mle(regular, expected_score(elo0))
    under1 = constrained_mle(regular, expected_score(elo1))
    return sum(n * math.log(p1 / p0) for n, p0, p1 in zip(regular, under0, under1, strict=True))


@dataclass(frozen=True)
class Sprt:
    """The sequential test's settings: H0 Elo = elo0 against H1 Elo = elo1 (logistic Elo of spec 1
    over spec 2), error rates alpha (accepting H1 when H0 holds) and beta (the reverse)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT bounds: ELO0 must be below ELO1, not {self.elo0:g},{self.elo1:g}")
        for name, rate in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < rate < 0.5:
                raise ValueError(f"SPRT {name} must lie between 0 and 0.5, not {rate:g}")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def decide(self, counts: Sequence[int]) -> tuple[float, str | None]:
        """(LLR, "H0", "H1" or None while the test goes on) after the pairs counted."""
        ratio = llr(counts, self.elo0, self.elo1) if sum(counts) else 0.0
        if ratio >= self.upper:
            return ratio, "H1"
        if ratio <= self.lower:
            return ratio, "H0"
        return ratio, None

    def report(self, counts: Sequence[int]) -> dict[str, Any]:
        ratio, decision = self.decide(counts)
        return {
            "elo0": self.elo0,
            "elo1": self.elo1,
            "alpha": self.alpha,
            "beta": self.beta,
            "elo_model": "logistic",
            "llr": ratio,
            "lower": self.lower,
            "upper": self.upper,
            "decision": decision,
            "pairs": sum(counts),
        }
