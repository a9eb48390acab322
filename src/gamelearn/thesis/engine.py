"""One decision of the thesis program: placement, or the three advisers and their combination.

Despotović 1999.  ``decide(position, side, n, settings, memory,
draws, fixes, state, goals)`` returns a :class:`Decision`: the move and everything the reference traces
record about how it was found (the adviser ``src``, the heuristic tag ``h``, the evaluations
``eh/es/el``, the search's ``sk/smax/si``, recall's ``lc``).

The moving phase (ply ``n`` >= 9), as the original's putmove/choose:

1. All advisers off: a random move (``rnd0``).
2. Heuristics on: make4 / avoid4 are killers, played at once (``killer:m4``, ``killer:a4``);
   otherwise the first of md3, mnd3, ad3, and3 that fires, or a random move (``rnd``; its draws
   are spent even when another adviser wins), is the heuristic candidate.
3. Search on: the two-ply search's move (fixed: its best; original: the si/sk rule).
4. Learning on: recall over the successors of the board (original with search off: of an empty
   board, so nothing is found; fixed 13: of the board).
5. Evaluated from the mover's side (missing = -2000): the learned move if >= both others, else
   the search move if >= both, else the heuristic move, else a random move (``random``).

Sides are +1 (player I, X, '1' in memory.m) and -1.  ``position`` is ``(plus, minus)`` bits.
``EngineState`` carries what the original keeps in globals from one decision to the next: the
last search result (the off-board read of a back-to-back memory layout would see its cell 04;
used only to count layout-sensitive points for the trace).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..games.teeko import WIN_MASKS
from .board import apply, key
from .evaluation import NO_CANDIDATE, evaluate, has_four
from .fixes import Fixes
from .heuristics import KILLERS, NONE_FIRED, TAGS, heuristic_move, random_move, tables
from .memory import Memory
from .opening import place
from .rng import Draws
from .search import generate, new_move_buffer, two_ply

MOVING_FROM_PLY = 9  # plies 1-8 put the pawns down


@dataclass(frozen=True)
class Settings:
    """A side's switches: heuristics, search, learning (the h, s, l of +h+s+l)."""

    heuristics: bool = True
    search: bool = True
    learn: bool = True

    @classmethod
    def parse(cls, flags: str) -> Settings:
        """'+h+s-l' style flags; ValueError saying what is wrong."""
        text = flags.strip()
        if len(text) != 6 or text[1::2] != "hsl" or any(ch not in "+-" for ch in text[0::2]):
            raise ValueError(f"flags are six characters such as +h+s-l ('+' on, '-' off), not {flags!r}")
        return cls(text[0] == "+", text[2] == "+", text[4] == "+")

    def flags(self) -> str:
        return "".join(("+" if on else "-") + letter for on, letter in zip(self.switches(), "hsl", strict=True))

    def switches(self) -> tuple[bool, bool, bool]:
        return self.heuristics, self.search, self.learn


@dataclass
class EngineState:
    """What the original carries in globals between decisions (see the module docstring)."""

    last_search: tuple[int, int] = (0, 0)  # Xsearch, as (plus, minus) bits


@dataclass(frozen=True)
class Decision:
    """A move and how it was found, in the reference traces' own field names."""

    src: int | None  # None for a placement
    dst: int
    source: str  # the trace's src: o:mid, killer:m4, learn, search, heur:md3, random, rnd0...
    heuristic: str | None = None  # h: the tag of the heuristic candidate, when heuristics ran
    eh: int | None = None  # the heuristic candidate's evaluation (NO_CANDIDATE: none)
    es: int | None = None  # the search candidate's evaluation
    el: int | None = None  # the learned candidate's evaluation
    sk: int | None = None  # how many first-level moves the search looked at
    smax: int | None = None  # the search's best worst-reply value
    si: int | None = None  # the original's pick: the first move whose own evaluation is smax
    lc: int | None = None  # how many memory records matched a successor
    off_board_reads: int = 0
    layout_sensitive: int = 0

    @property
    def move(self) -> str:
        to = f"{self.dst // 5}{self.dst % 5}"
        return to if self.src is None else f"{self.src // 5}{self.src % 5}" + to


Move = tuple[int, int]  # (src, dst) cells


@dataclass(frozen=True)
class _HeuristicCandidate:
    """What the heuristics propose when no killer fires: the first of md3, mnd3, ad3, and3, else a
    random move (tag ``rnd``)."""

    move: Move
    tag: str
    off_board_reads: int
    layout_sensitive: int


@dataclass(frozen=True)
class _SearchCandidate:
    """The two-ply search's move and the figures the trace records about it."""

    move: Move
    moves_searched: int  # sk
    best_value: int  # smax: the best worst-reply value
    first_matching: int  # si: the first move whose own evaluation is smax (sk if none)


def _sides(position: tuple[int, int], side: int) -> tuple[int, int]:
    plus, minus = position
    return (plus, minus) if side > 0 else (minus, plus)


def _position(own: int, opp: int, side: int) -> tuple[int, int]:
    return (own, opp) if side > 0 else (opp, own)


def _heuristics(
    own: int, opp: int, side: int, state: EngineState, fixes: Fixes, draws: Draws
) -> Decision | _HeuristicCandidate:
    """Step 2: a killer (make4, avoid4) is the decision itself; otherwise the heuristic candidate.
    The original reads cell 04 of the last search's board off the end of its tables (``alt``)."""
    table, bounds = tables(fixes)
    plus_searched, minus_searched = state.last_search
    own_searched = plus_searched if side > 0 else minus_searched
    opp_searched = minus_searched if side > 0 else plus_searched
    alt_code = 1 if own_searched >> 4 & 1 else 2 if opp_searched >> 4 & 1 else 0
    fired, src, dst, off_reads, sensitive = heuristic_move(own, opp, table, bounds, alt_code)
    if fired < KILLERS:
        return Decision(
            int(src),
            int(dst),
            "killer:" + TAGS[fired],
            heuristic=TAGS[fired],
            off_board_reads=off_reads,
            layout_sensitive=sensitive,
        )
    if fired == NONE_FIRED:
        return _HeuristicCandidate(random_move(own, opp, draws), "rnd", off_reads, sensitive)
    return _HeuristicCandidate((int(src), int(dst)), TAGS[fired], off_reads, sensitive)


def _search(own: int, opp: int, side: int, state: EngineState, fixes: Fixes, moves: np.ndarray) -> _SearchCandidate:
    """Step 3: the two-ply search's move (fixed: its best; original: the si/sk rule); it fills
    ``moves`` with the first-level moves and becomes the state's last search."""
    count, best_value, first_matching, fixed_index, original_index = two_ply(own, opp, moves)
    if count == 0:
        raise RuntimeError("the side to move has no move: the original's search is undefined here")
    chosen = fixed_index if fixes.search_plays_best else original_index
    move = (int(moves[chosen, 0]), int(moves[chosen, 1]))
    state.last_search = _position(apply(own, *move), opp, side)
    return _SearchCandidate(move, int(count), int(best_value), int(first_matching))


def _recall(
    own: int,
    opp: int,
    side: int,
    memory: Memory | None,
    fixes: Fixes,
    moves: np.ndarray,
    searched: _SearchCandidate | None,
) -> tuple[Move | None, int]:
    """Step 4: the remembered successor's move, if any, and how many records matched.  The
    successors are the search's first-level moves; with search off, the original lists those of a
    board it never filled in (none), fixed mode generates the board's own."""
    if memory is None:
        return None, 0
    if searched is not None:
        first_level = searched.moves_searched
    elif fixes.learn_without_search_uses_board:
        first_level = generate(own, opp, moves)
    else:
        first_level = 0
    successors = [(int(moves[i, 0]), int(moves[i, 1])) for i in range(first_level)]
    keys = [key(*_position(apply(own, s, d), opp, side)) for s, d in successors]
    found, matches = memory.recall(keys, side, fixes.memory_sign_by_side)
    return (successors[keys.index(found)] if found is not None else None), matches


def decide(
    position: tuple[int, int],
    side: int,
    n: int,
    settings: Settings,
    memory: Memory | None,
    draws: Draws,
    fixes: Fixes,
    state: EngineState | None = None,
    goals: tuple[int, ...] = WIN_MASKS,
) -> Decision:
    """The thesis program's move at ply ``n`` for ``side`` (+1 or -1); see the module docstring.

    ``goals``: the form's winning sets, for fixed mode's placement fours (:func:`.opening.place`)."""
    own, opp = _sides(position, side)
    # The phase is the ply counter's, as the C's: a pawn a person's unchecked move put off the
    # board (the original console, rules.original_person_move) leaves seven pawns at ply 9 or later.
    if n < MOVING_FROM_PLY and (own | opp).bit_count() < 8:
        cell, routine = place(own, opp, n, draws, fixes, goals)
        return Decision(None, cell, routine)
    if state is None:
        state = EngineState()
    if not (settings.heuristics or settings.search or settings.learn):
        src, dst = random_move(own, opp, draws)
        return Decision(src, dst, "rnd0")

    heuristic: _HeuristicCandidate | None = None
    if settings.heuristics:
        proposed = _heuristics(own, opp, side, state, fixes, draws)
        if isinstance(proposed, Decision):
            return proposed
        heuristic = proposed
    moves = new_move_buffer()  # level1.s; one per decision, so threads (the web app) never share it
    searched = _search(own, opp, side, state, fixes, moves) if settings.search else None
    learned: Move | None = None
    matches: int | None = None
    if settings.learn:
        learned, matches = _recall(own, opp, side, memory, fixes, moves, searched)
    return _combine(own, opp, draws, heuristic, searched, learned, matches)


def _combine(
    own: int,
    opp: int,
    draws: Draws,
    heuristic: _HeuristicCandidate | None,
    searched: _SearchCandidate | None,
    learned: Move | None,
    matches: int | None,
) -> Decision:
    """Step 5: each candidate evaluated from the mover's side (a missing one is NO_CANDIDATE); the
    learned move if it is at least both others, else the search's, else the heuristic's, else a
    random move."""

    def value(move: Move | None) -> int:
        return NO_CANDIDATE if move is None else int(evaluate(apply(own, *move), opp))

    heuristic_value = value(heuristic.move if heuristic is not None else None)
    search_value = value(searched.move if searched is not None else None)
    learned_value = value(learned)

    def decision(move: Move, source: str) -> Decision:
        return Decision(
            move[0],
            move[1],
            source,
            heuristic=heuristic.tag if heuristic is not None else None,
            eh=heuristic_value,
            es=search_value,
            el=learned_value,
            sk=searched.moves_searched if searched is not None else None,
            smax=searched.best_value if searched is not None else None,
            si=searched.first_matching if searched is not None else None,
            lc=matches,
            off_board_reads=heuristic.off_board_reads if heuristic is not None else 0,
            layout_sensitive=heuristic.layout_sensitive if heuristic is not None else 0,
        )

    best = max(heuristic_value, search_value, learned_value)
    if best > NO_CANDIDATE:
        if learned is not None and learned_value == best:
            return decision(learned, "learn")
        if searched is not None and search_value == best:
            return decision(searched.move, "search")
        if heuristic is not None:
            return decision(heuristic.move, "heur:" + heuristic.tag)
    return decision(random_move(own, opp, draws), "random")


def play(position: tuple[int, int], side: int, decision: Decision) -> tuple[int, int]:
    """The position after ``side`` plays ``decision``."""
    own, opp = _sides(position, side)
    return _position(apply(own, decision.src, decision.dst), opp, side)


def winner_of(plus: int, minus: int) -> int:
    """+1 or -1 if that side has four (checked in that order, as the original), else 0."""
    if has_four(plus):
        return 1
    if has_four(minus):
        return -1
    return 0


__all__ = ["Settings", "EngineState", "Decision", "decide", "play", "winner_of"]
