"""Connect Four's n-tuples for the ``ntuple`` learner: random snakes as Thill, Koch & Konen (PPSN
2012) draw them (:func:`draw_snakes`), and the 70 of the 7x6 layouts ``connect4-snakes70-sides-v1`` and ``connect4-snakes70-v1``
(:mod:`.layout`), drawn once and written down."""

from __future__ import annotations

import random


def draw_snakes(columns: int, rows: int, count: int, length: int, seed: int) -> tuple[tuple[int, ...], ...]:
    """``count`` random snakes of ``length`` squares on a board of ``rows`` x ``columns`` (square
    ``r * columns + c``, rows from the top), as Thill, Koch & Konen (PPSN 2012) draw Connect Four's
    n-tuples: a random start square, then at each step a random neighbour (a king step: across,
    down or diagonally) not yet visited; a walk that sticks is drawn again, and so is one whose
    squares (or their mirror image) an earlier snake already has.  Seeded with ``random.Random``."""
    rng = random.Random(seed)

    def neighbours(square: int) -> list[int]:
        r, c = divmod(square, columns)
        steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
        return [(r + dr) * columns + c + dc for dr, dc in steps if 0 <= r + dr < rows and 0 <= c + dc < columns]

    def mirror(square: int) -> int:
        return square - square % columns + columns - 1 - square % columns

    seen: set[frozenset[int]] = set()
    snakes: list[tuple[int, ...]] = []
    while len(snakes) < count:
        walk = [rng.randrange(columns * rows)]
        while len(walk) < length:
            free = [n for n in neighbours(walk[-1]) if n not in walk]
            if not free:
                break
            walk.append(rng.choice(free))
        squares, image = frozenset(walk), frozenset(mirror(sq) for sq in walk)
        if len(walk) < length or squares in seen or image in seen:
            continue
        seen.add(squares)
        snakes.append(tuple(walk))
    return tuple(snakes)


#: Connect Four's 70 snakes of 8 squares on the 7x6 board (Thill, Koch & Konen, PPSN 2012; Thill,
#: Bagheri, Koch & Konen, CIG 2014: 70 random 8-tuples), drawn by ``draw_snakes(7, 6, 70, 8, 2012)``
#: and written down, so that the layout never changes with a library's random numbers.
CONNECT4_SNAKES70 = (
    (6, 12, 11, 4, 5, 13, 20, 26),
    (30, 23, 17, 16, 9, 8, 2, 1),
    (26, 27, 33, 40, 39, 38, 30, 37),
    (13, 19, 11, 3, 10, 4, 12, 20),
    (12, 18, 11, 10, 9, 1, 7, 8),
    (27, 34, 40, 41, 33, 39, 32, 24),
    (29, 37, 36, 35, 28, 21, 15, 7),
    (9, 17, 18, 10, 3, 2, 1, 8),
    (21, 14, 8, 0, 1, 9, 17, 24),
    (7, 15, 23, 30, 31, 24, 32, 40),
    (35, 36, 28, 21, 22, 30, 24, 23),
    (33, 32, 26, 34, 40, 39, 31, 25),
    (25, 18, 17, 9, 10, 2, 3, 4),
    (8, 0, 7, 15, 21, 14, 22, 29),
    (17, 25, 32, 39, 31, 38, 30, 23),
    (25, 19, 18, 11, 17, 10, 16, 22),
    (36, 37, 38, 31, 32, 25, 24, 30),
    (10, 18, 24, 30, 22, 21, 15, 14),
    (11, 17, 10, 4, 5, 13, 12, 19),
    (40, 34, 41, 33, 39, 31, 24, 16),
    (3, 11, 10, 4, 12, 6, 5, 13),
    (36, 29, 22, 23, 16, 15, 9, 2),
    (1, 8, 2, 3, 4, 12, 18, 10),
    (6, 13, 12, 4, 11, 3, 2, 1),
    (2, 10, 3, 4, 11, 17, 9, 16),
    (18, 19, 26, 34, 41, 40, 32, 39),
    (31, 38, 37, 30, 24, 17, 23, 16),
    (41, 34, 26, 27, 19, 11, 18, 12),
    (4, 3, 10, 18, 25, 33, 34, 26),
    (14, 22, 28, 21, 29, 35, 36, 30),
    (16, 24, 31, 32, 38, 37, 30, 22),
    (36, 30, 37, 31, 25, 24, 18, 19),
    (38, 30, 29, 36, 28, 22, 14, 7),
    (38, 31, 25, 33, 34, 41, 40, 39),
    (39, 31, 37, 38, 30, 22, 15, 8),
    (15, 21, 28, 36, 29, 22, 16, 24),
    (12, 19, 13, 6, 5, 11, 17, 9),
    (18, 25, 31, 32, 40, 39, 38, 37),
    (40, 33, 25, 18, 11, 12, 20, 26),
    (20, 13, 6, 12, 11, 10, 3, 9),
    (34, 33, 39, 31, 24, 30, 36, 35),
    (12, 18, 11, 19, 20, 27, 34, 26),
    (26, 25, 19, 27, 20, 13, 5, 12),
    (41, 33, 34, 27, 26, 20, 12, 18),
    (7, 1, 0, 8, 16, 9, 17, 23),
    (16, 24, 32, 31, 23, 15, 21, 29),
    (38, 30, 23, 16, 10, 4, 11, 12),
    (33, 26, 34, 27, 20, 13, 5, 11),
    (30, 22, 28, 36, 37, 31, 25, 26),
    (25, 24, 17, 11, 12, 18, 19, 26),
    (6, 12, 4, 5, 11, 18, 17, 16),
    (14, 7, 8, 0, 1, 2, 9, 16),
    (16, 24, 31, 30, 38, 32, 26, 33),
    (22, 28, 21, 29, 30, 23, 15, 9),
    (10, 2, 9, 3, 4, 11, 19, 20),
    (29, 28, 21, 14, 15, 16, 9, 3),
    (24, 32, 39, 40, 33, 34, 26, 18),
    (4, 5, 11, 17, 24, 18, 26, 25),
    (19, 27, 33, 25, 17, 9, 8, 16),
    (9, 17, 10, 16, 8, 7, 1, 0),
    (0, 7, 8, 15, 9, 17, 24, 18),
    (35, 36, 30, 37, 29, 23, 15, 14),
    (35, 28, 21, 14, 22, 23, 30, 38),
    (12, 13, 20, 27, 26, 32, 33, 25),
    (0, 7, 14, 22, 15, 23, 16, 24),
    (37, 36, 29, 30, 24, 31, 23, 22),
    (41, 33, 25, 19, 26, 27, 34, 40),
    (10, 4, 3, 9, 8, 2, 1, 7),
    (2, 3, 9, 1, 8, 14, 22, 29),
    (26, 34, 40, 41, 33, 32, 25, 18),
)
