"""The fifteen fixes of the port (Despotović 1999), one switch per bug of the original.

``Fixes()`` is the fixed program (every switch on); ``Fixes.original()`` is the 1999 C (every
switch off); any other mix is allowed, e.g. ``Fixes.original().but(search_plays_best=True)`` to
study one bug at a time.  Fixes 5 (checking a person's moves) and 12 (the statistics screen's
second total) belong to the console and are carried here only so that one object describes a
mode.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True)
class Fixes:
    #: (1) The search plays its best minimax move (orig: the si/sk rule reads level1.s short).
    search_plays_best: bool = True
    #: (2) Player II (side -1) negates memory scores (orig: X's sign for either side).
    memory_sign_by_side: bool = True
    #: (3) The winner of a learned game is the side that made the last move (orig: ply parity,
    #: wrong when a person began).
    winner_is_last_mover: bool = True
    #: (4) Person games look for cycles 2, 3 and 4 (orig asks for 5, which compares a slot with itself).
    person_cycles_2_3_4: bool = True
    #: (5) A person's moves need a valid fourth digit and an adjacent target (console).
    check_person_moves: bool = True
    #: (6) Keep cells in row 0 are honoured by move-into / can-reach (orig tests row > 0).
    keep_row_zero: bool = True
    #: (7) The four off-line make4/avoid4 patterns use 32 (orig 34/30), and avoid4 tests 04 (orig 00).
    four_patterns_on_line: bool = True
    #: (8) makedouble3's column pattern guards 4j and keeps 3j (orig: cell (5,4) and 31).
    double3_column_guard: bool = True
    #: (9) The square loops of (avoid)nondefendable3 cover all 16 squares, two patterns corrected
    #: (orig: the loops never run).
    nondefendable3_squares: bool = True
    #: (10) Placement make-three with 21 and 23 puts its pawn on 22 (orig 12).
    make3_uses_22: bool = True
    #: (11) Placement picks fall back to a random free cell when their four cells are taken
    #: (orig: an endless loop, reported here as an error).
    opening_fallback: bool = True
    #: (12) The statistics screen's second total counts games played second (console).
    statistics_second_total: bool = True
    #: (13) Learning without search recalls from the current board (orig: an empty board).
    learn_without_search_uses_board: bool = True
    #: (14) The harmless 00 keep on the 04-40 line becomes 04.
    keep_04_on_anti_diagonal: bool = True
    #: (15) Placement make-four and block-four try every goal (a line with its gap anywhere, a 2x2
    #: square) whose fourth cell is free, after the C's patterns (orig: per line only cells 0-2
    #: held with target 3 and cells 2-4 with target 1).
    placement_fours_every_goal: bool = True

    @classmethod
    def original(cls) -> Fixes:
        return cls(**{f.name: False for f in fields(cls)})

    @classmethod
    def fixed(cls) -> Fixes:
        return cls()

    def but(self, **changes: Any) -> Fixes:
        return replace(self, **changes)

    @property
    def is_original(self) -> bool:
        return not any(getattr(self, f.name) for f in fields(self))
