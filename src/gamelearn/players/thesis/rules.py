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
"""

from __future__ import annotations

from collections.abc import Sequence

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
