"""Ratings of a tournament's players with their uncertainty (the experiments layer).

- :func:`bradley_terry_ratings`: a Bradley-Terry model, P(i beats j) = g_i / (g_i + g_j), fitted
  by maximum likelihood with Hunter's (2004) minorize-maximize iteration, on the Elo scale.
- :func:`bootstrap_ratings`: a 95% interval for each rating from a seeded bootstrap over game
  pairs (Efron 1979): every pair of specs' game pairs (one opening, both colours) are resampled
  with replacement, as many as it played, the model refitted, and the 2.5% and 97.5% quantiles of
  each rating taken.  The game pair, not the game, is resampled: its two games share an opening
  and are not independent.  The first spec is the anchor (1500), so its interval has no width and
  the others' are relative to it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

ELO_ANCHOR = 1500.0
#: Resamples of the bootstrap: enough for 2.5% quantiles that move by a few points, and fast.
RESAMPLES = 200


def bradley_terry_ratings(
    count: int, scores: dict[tuple[int, int], tuple[float, int]], prior_draws: float = 1.0, anchor: int = 0
) -> list[float]:
    """Elo-scale ratings fitted by maximum likelihood to ``scores[(i, j)] = (points of i against j,
    games)`` under the Bradley-Terry model P(i beats j) = g_i / (g_i + g_j).

    Hunter's (2004) minorize-maximize iteration: g_i <- W_i / sum_j n_ij / (g_i + g_j), W_i the
    points of i.  ``prior_draws`` virtual drawn games are added to every pair that played, so a
    player with every point (or none) still has a finite rating.  Rating = anchor's 1500 + 400 *
    log10(g_i / g_anchor)."""
    wins = [0.0] * count
    played: dict[tuple[int, int], float] = {}
    for (i, j), (points, games) in scores.items():
        if games <= 0:
            continue
        # A virtual draw is one more game and half a point to each side.
        wins[i] += points + prior_draws / 2
        wins[j] += games - points + prior_draws / 2
        key = (min(i, j), max(i, j))
        played[key] = played.get(key, 0.0) + games + prior_draws
    strength = [1.0] * count
    for _ in range(10_000):
        new = []
        for i in range(count):
            denominator = sum(
                n / (strength[i] + strength[j if a == i else a]) for (a, j), n in played.items() if i in (a, j)
            )
            new.append(wins[i] / denominator if denominator > 0 else strength[i])
        # Normalise (the model only fixes ratios) so the numbers stay in range.
        total = math.exp(sum(math.log(g) for g in new) / count)
        new = [g / total for g in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < 1e-10:
            break
    return [ELO_ANCHOR + 400 * math.log10(g / strength[anchor]) for g in strength]


def bootstrap_ratings(
    count: int,
    units: Mapping[tuple[int, int], Sequence[tuple[float, int]]],
    seed: int,
    resamples: int = RESAMPLES,
) -> list[tuple[float, float]]:
    """A 95% percentile interval per player for :func:`bradley_terry_ratings`, from ``resamples``
    bootstrap samples of ``units[(i, j)]``: the game pairs (or games left unpaired) of i against
    j, each as (points of i, games).  Seeded: the same seed gives the same intervals."""
    rng = random.Random(f"bootstrap:{seed}")
    samples: list[list[float]] = [[] for _ in range(count)]
    keys = sorted(units)
    for _ in range(resamples):
        scores: dict[tuple[int, int], tuple[float, int]] = {}
        for key in keys:
            own = units[key]
            if not own:
                continue
            drawn = [own[rng.randrange(len(own))] for _ in own]
            scores[key] = (sum(points for points, _ in drawn), sum(games for _, games in drawn))
        for player, rating in enumerate(bradley_terry_ratings(count, scores)):
            samples[player].append(rating)
    return [_percentiles(values) for values in samples]


def _percentiles(values: list[float]) -> tuple[float, float]:
    """The 2.5% and 97.5% quantiles (linear interpolation between order statistics)."""
    ordered = sorted(values)

    def quantile(share: float) -> float:
        position = share * (len(ordered) - 1)
        below = math.floor(position)
        above = min(below + 1, len(ordered) - 1)
        return ordered[below] + (ordered[above] - ordered[below]) * (position - below)

    return (quantile(0.025), quantile(0.975))
