"""The one-byte code of a solved Teeko position, shared by the kernels (which write it) and the
reader (which decodes it without loading numba).

0 a draw (or, during the build, not yet resolved); ``d + 1`` a position decided at distance d
plies, where an odd d is a win for the side to move and an even d a loss (a win always comes on the
winner's own move, so the parity says who wins); 255 a position no game reaches (the side to move
already has four).
"""

from __future__ import annotations

DRAW = 0
INVALID = 255


def decode(code: int) -> tuple[int, int | None]:
    """(value, distance) for the side to move from a table byte."""
    if code == DRAW:
        return (0, None)
    if code == INVALID:
        raise ValueError("no game reaches this position: the side to move already has four")
    distance = code - 1
    return (1, distance) if distance % 2 else (-1, distance)
