"""Positions met in seeded random games, for tests that check a player or a kernel position by
position against an oracle."""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any


def unfinished_positions(game: Any, count: int, seed: int) -> list[Hashable]:
    """The first ``count`` unfinished positions of random games played with ``random.Random(seed)``,
    every stage of the game, in the order they were met (the same seed, the same positions)."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = game.initial()
        while not game.is_over(state):
            found.append(state)
            state = game.play(state, rng.choice(game.legal_moves(state)))
    return found[:count]
