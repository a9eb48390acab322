"""Random draws of the thesis program: Microsoft C's rand() (original mode) or random.Random (fixed).

The original's randomness: one generator for the whole run, seeded once;
``state = state * 214013 + 2531011 (mod 2**32)`` and each call returns ``(state >> 16) & 0x7fff``;
seed 1 gives 41, 18467, 6334, 26500, 19169.  Five places draw from it, each taking a remainder:
the diagonal ring of the opening (``oplayinthecorner``, mod 4), the orthogonal ring
(``oplayinthecross``, mod 4), the ply-3 coin (``oplayhv``, mod 2) and the random move
(``playrandom``: row mod 5, then column mod 5).

Both generators offer ``draw(site, modulus) -> int`` in ``0 .. modulus-1``; the site names are
the C functions', so a trace can say where each draw went.  ``calls`` counts draws since the
start (the traces' ``k`` and ``r``), and ``listener`` (if set) hears ``(site, raw value)`` after
each draw, before its remainder is taken.

The fixed mode draws from a seeded ``random.Random`` with ``randrange(modulus)`` (no modulo bias);
the same seed gives the same games.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

Listener = Callable[[str, int], None]

CORNER = "oplayinthecorner"
CROSS = "oplayinthecross"
COIN = "oplayhv"
RANDOM_MOVE = "playrandom"


class Draws(Protocol):
    calls: int
    listener: Listener | None

    def draw(self, site: str, modulus: int) -> int: ...


class MicrosoftRand:
    """Microsoft C's rand()/srand(): a 32-bit LCG whose outputs are bits 16..30 of the state."""

    MULTIPLIER = 214013
    INCREMENT = 2531011

    def __init__(self, seed: int = 1) -> None:
        self.state = seed & 0xFFFFFFFF
        self.calls = 0
        self.listener: Listener | None = None

    def srand(self, seed: int) -> None:
        self.state = seed & 0xFFFFFFFF

    def rand(self) -> int:
        self.state = (self.state * self.MULTIPLIER + self.INCREMENT) & 0xFFFFFFFF
        return (self.state >> 16) & 0x7FFF

    def draw(self, site: str, modulus: int) -> int:
        value = self.rand()
        self.calls += 1
        if self.listener is not None:
            self.listener(site, value)
        return value % modulus


class SeededDraws:
    """The fixed mode's draws: ``random.Random(seed).randrange(modulus)``."""

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)
        self.calls = 0
        self.listener: Listener | None = None

    def draw(self, site: str, modulus: int) -> int:
        value = self.random.randrange(modulus)
        self.calls += 1
        if self.listener is not None:
            self.listener(site, value)
        return value
