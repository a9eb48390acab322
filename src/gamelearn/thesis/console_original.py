"""The original 1999 console's own rules, over the thesis engine's (Despotović 1999): what
``ConsoleSession(original=True)`` (:mod:`.console`, ``gamelearn teeko console --original``)
does where the fixed console does otherwise.  The fixes that belong to the console,
:class:`~gamelearn.thesis.fixes.Fixes` 3, 4, 5 and 12, are off, and the program's moves
come from ``EngineBrain(seed, original=True)``, the engine of batch's original mode:

- moves are checked as getmove() did (:func:`~gamelearn.thesis.rules.original_person_move`):
  a step needs only the first three digits, the fourth's lower bound, the person's pawn and an
  empty target, so ``1344`` jumps, a fourth digit over 4 runs on into the next row, and a target
  past the board takes the pawn off it.  The board is then the engine's two bitboards (held in a
  ``TeekoState``, which is no more than those and the side to move), played on by the engine's
  rules, with the ply counter telling the phases apart;
- the draw checks are the engine's (:func:`~gamelearn.thesis.rules.draw_reason` over its
  16-slot history): person games ask for cycles 2, 3 and 5, and 5 compares a slot with itself, so
  a draw is offered on every program turn from ply 25; autoplay asks for 2, 3 and 4;
- a won game is learned for the side the ply parity names (an odd last ply: side 1), the wrong
  way round when the person began (:func:`~gamelearn.thesis.rules.learned_winner`);
- the statistics screen shows the program-first total as the program-second one, and rounds a
  percentage that ends in exactly a half up, as Visual C++ 6's printf did (:mod:`.screens`);
- what would have hung the original (an opening pick with its four cells taken, a side with no
  move) is said in one line and the game abandoned.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..games.teeko import TeekoState
from .board import digits_key
from .evaluation import has_four
from .files import PAWNS_A_SIDE
from .fixes import Fixes
from .rules import (
    FIRST_CHECK,
    HISTORY_SLOTS,
    draw_reason,
    original_person_move,
    original_step,
    person_game_depths,
)

MOVING_FROM_PLY = 9


def winner(state: TeekoState) -> int | None:
    """The player (0 = X) who has four, else None: the engine's test, the side to move's four
    first, as the original's game loop asks."""
    for player in (state.to_move, 1 - state.to_move):
        if has_four(state.pawns(player)):
            return player
    return None


def cycle(history: Sequence[str], autoplay: bool, fixes: Fixes) -> int | None:
    """The cycle the engine's checks find before a ply past ply 24 (the cap aside), over the
    16-slot history of the moving-phase boards (``history``, oldest first); None if none."""
    slots = ([0] * HISTORY_SLOTS + [digits_key(board) for board in history])[-HISTORY_SLOTS:]
    depths = (2, 3, 4) if autoplay else person_game_depths(fixes)
    reason = draw_reason(slots, FIRST_CHECK, depths)
    return None if reason is None else int(reason.removeprefix("cycle"))


def person_plays(state: TeekoState, line: str, ply: int, symbols: Sequence[str]) -> TeekoState:
    """The board after the person's ``line`` at ply ``ply``, as getmove() let it through;
    IllegalMove for what it refused."""
    mover = state.to_move
    src, dst = original_person_move(
        line, state.pawns(mover), state.pawns(1 - mover), ply < MOVING_FROM_PLY, symbols[mover]
    )
    return _after(state, src, dst)


def program_plays(state: TeekoState, move: str) -> TeekoState:
    """The board after the program's own ``move`` (a placement, or a step to a free neighbour)."""
    src = None if len(move) == 2 else int(move[0]) * 5 + int(move[1])
    return _after(state, src, int(move[-2]) * 5 + int(move[-1]))


def _after(state: TeekoState, src: int | None, dst: int) -> TeekoState:
    """The mover's pawns changed (a target past the board takes the pawn off it); the other side
    to move, whatever the board."""
    pawns = [state.x, state.o]
    pawns[state.to_move] = original_step(pawns[state.to_move], src, dst)
    return TeekoState(pawns[0], pawns[1], 1 - state.to_move)


def learnable(history: Sequence[str]) -> bool:
    """Whether a memory can hold every board: the original wrote boards with a pawn gone into
    memory.m, but the thesis format (and so the store's memory.m and its download) holds four
    pawns a side only."""
    return all(board.count("1") == PAWNS_A_SIDE and board.count("2") == PAWNS_A_SIDE for board in history)
