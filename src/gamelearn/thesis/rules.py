"""The thesis program's own game rules: draw detection and who won (Despotović 1999).

* Draw detection: after each ply from 9 on, the board goes into a 16-slot history (newest in slot
  15).  Checks run before each ply once ``n > 24``: first ``n > 100`` (the cap: a draw), then
  cycles: 2 (slots 8-11 equal 12-15 pairwise), 3 (4-9 equal 10-15), 4 (0-7 equal 8-15).
  Self-play asks for 2, 3 and 4.  The original's person games ask for 2, 3 and 5; isdraw() knows
  no 5, so it compares slot 0 with itself and finds a draw on every turn from ply 25 (Despotović 1999);
  fix 4 asks for 2, 3 and 4 there too.
* The winner a learned game is credited to: fixed, the side that made the last move; original,
  the ply parity (an odd last ply means side +1), which is wrong when a person began and the
  program (side +1 in person games) moved second.
* A person's move at the original console (getmove): a placement ``rc`` is checked in full; of a
  step ``rcRC`` only the first three digits (0-4), the fourth's lower bound ('0'; the third's
  upper bound is tested twice instead), the pawn on ``rc`` being the person's and the target
  being empty; never adjacency.  So ``1344`` jumps from 13 to 44, and a fourth digit over 4 runs
  on into the next row (``1327`` lands on 32): the target is square ``5R + C`` of the C's
  ``X[5][5]``.  Past square 24 the pawn leaves the board ("4449, with your pawn on 44, can put it
  past the end of the board, into the program's other variables, and it is gone"); the engine
  reads every cell past the board as empty (as the build of the reference traces did), so the
  target is taken for empty and the pawn is gone.  Fix 5 checks everything
  (:meth:`gamelearn.games.teeko.Teeko.parse_move`).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..games.base import IllegalMove
from .board import SIZE, SQUARES
from .fixes import Fixes

HISTORY_SLOTS = 16
FIRST_CHECK = 25  # n > 24
CAP = 100  # n > 100

#: isdraw(moves): (first slot, last slot, period in plies) of the comparison.
_CYCLES = {2: (8, 11, 4), 3: (4, 9, 6), 4: (0, 7, 8)}


def cycle(history: Sequence[int], moves: int) -> bool:
    """isdraw(moves) without the cap: slots start..end equal the slots ``step`` later."""
    start, end, step = _CYCLES.get(moves, (0, 0, 0))  # an unknown depth compares slot 0 with itself
    return all(history[i] == history[i + step] for i in range(start, end + 1))


def draw_reason(history: Sequence[int], n: int, depths: Sequence[int] = (2, 3, 4)) -> str | None:
    """Why the game is drawn before ply ``n`` ('cap100', 'cycle2', ...), or None; None before ply 25."""
    if n < FIRST_CHECK:
        return None
    if n > CAP:
        return "cap100"
    for depth in depths:
        if cycle(history, depth):
            return f"cycle{depth}"
    return None


def person_game_depths(fixes: Fixes) -> tuple[int, ...]:
    """The cycles a game against a person asks for (the original's 5 matches every position)."""
    return (2, 3, 4) if fixes.person_cycles_2_3_4 else (2, 3, 5)


def learned_winner(last_ply: int, last_mover: int, fixes: Fixes) -> int:
    """The side (+1/-1) a won game is learned as won by; ``last_ply`` is the thesis ply n of the four."""
    if fixes.winner_is_last_mover:
        return last_mover
    return 1 if last_ply % 2 else -1


def push(history: list[int], board: int) -> None:
    """shift(): drop slot 0, put ``board`` in slot 15."""
    history.pop(0)
    history.append(board)


#: The words of a refusal, as the Teeko rules say them (:meth:`gamelearn.games.teeko.Teeko.parse_move`).
NOT_A_MOVE = "not a Teeko move: write rc to place a pawn or rcRC to step (rows and columns 0-4)"
OFF_THE_BOARD = "off the board: rows and columns run from 0 to 4"


def original_person_move(line: str, own: int, opp: int, placing: bool, symbol: str) -> tuple[int | None, int]:
    """The original console's check of a person's move (see the module docstring): (source square,
    or None for a placement; target square, 25 or more when past the board).  ``own`` and ``opp``
    are the person's and the program's pawns, ``placing`` whether the ply is one of 1-8, ``symbol``
    the person's (X or O).  IllegalMove, with the rules' words, for what the original refused too."""
    digits_04 = [ch in "01234" for ch in line]
    if placing:
        if len(line) == 4 and line.isascii() and line.isdigit():
            raise IllegalMove(line, "wrong phase: pawns are still being placed, put one down with rc")
        if len(line) != 2 or not line.isascii() or not line.isdigit():
            raise IllegalMove(line, NOT_A_MOVE)
        if not all(digits_04):
            raise IllegalMove(line, OFF_THE_BOARD)
        dst = SIZE * int(line[0]) + int(line[1])
        if (own | opp) >> dst & 1:
            raise IllegalMove(line, f"square {line} is occupied")
        return None, dst
    if len(line) == 2 and line.isascii() and line.isdigit():
        raise IllegalMove(line, "wrong phase: all 8 pawns are down, step a pawn with rcRC")
    # The fourth character's lower bound only: any ASCII character from '0' on passes (a byte over
    # 127 is a negative char in the C, below '0').
    if len(line) != 4 or not line[:3].isascii() or not line[:3].isdigit() or not "0" <= line[3] <= "\x7f":
        raise IllegalMove(line, NOT_A_MOVE)
    if not all(digits_04[:3]):
        raise IllegalMove(line, OFF_THE_BOARD)
    src = SIZE * int(line[0]) + int(line[1])
    if not own >> src & 1:
        raise IllegalMove(line, f"no {symbol} pawn on {line[:2]}")
    dst = SIZE * int(line[2]) + ord(line[3]) - ord("0")
    if dst < SQUARES and (own | opp) >> dst & 1:
        raise IllegalMove(line, f"square {dst // SIZE}{dst % SIZE} is occupied")
    return src, dst


def original_step(own: int, src: int | None, dst: int) -> int:
    """The person's pawns after a move :func:`original_person_move` let through: a target past the
    board takes the pawn off it."""
    if src is not None:
        own &= ~(1 << src)
    return own | (1 << dst) if dst < SQUARES else own
