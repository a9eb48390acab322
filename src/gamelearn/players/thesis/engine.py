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

from ...games.teeko import WIN_MASKS
from .board import apply, key
from .evaluation import NO_CANDIDATE, evaluate, has_four
from .fixes import Fixes
from .heuristics import KILLERS, NONE_FIRED, TAGS, heuristic_move, random_move, tables
from .memory import Memory
from .opening import place
from .rng import Draws
from .search import generate, new_move_buffer, two_ply


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
    src: int | None  # None for a placement
    dst: int
    source: str  # the trace's src: o:mid, killer:m4, learn, search, heur:md3, random, rnd0...
    heuristic: str | None = None  # h: the tag of the heuristic candidate, when heuristics ran
    eh: int | None = None
    es: int | None = None
    el: int | None = None
    sk: int | None = None
    smax: int | None = None
    si: int | None = None
    lc: int | None = None
    off_board_reads: int = 0
    layout_sensitive: int = 0

    @property
    def move(self) -> str:
        to = f"{self.dst // 5}{self.dst % 5}"
        return to if self.src is None else f"{self.src // 5}{self.src % 5}" + to


def _sides(position: tuple[int, int], side: int) -> tuple[int, int]:
    plus, minus = position
    return (plus, minus) if side > 0 else (minus, plus)


def _position(own: int, opp: int, side: int) -> tuple[int, int]:
    return (own, opp) if side > 0 else (opp, own)


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
    if (own | opp).bit_count() < 8:
        cell, routine = place(own, opp, n, draws, fixes, goals)
        return Decision(None, cell, routine)
    if state is None:
        state = EngineState()
    h_on, s_on, l_on = settings.switches()
    if not (h_on or s_on or l_on):
        src, dst = random_move(own, opp, draws)
        return Decision(src, dst, "rnd0")

    heur: tuple[int, int] | None = None
    tag: str | None = None
    off_reads = sensitive = 0
    if h_on:
        table, bounds = tables(fixes)
        plus_s, minus_s = state.last_search
        alt = plus_s if side > 0 else minus_s
        alt_opp = minus_s if side > 0 else plus_s
        alt_code = 1 if alt >> 4 & 1 else 2 if alt_opp >> 4 & 1 else 0
        h, hs, hd, off_reads, sensitive = heuristic_move(own, opp, table, bounds, alt_code)
        if h < KILLERS:
            return Decision(
                int(hs),
                int(hd),
                "killer:" + TAGS[h],
                heuristic=TAGS[h],
                off_board_reads=off_reads,
                layout_sensitive=sensitive,
            )
        if h == NONE_FIRED:
            tag = "rnd"
            heur = random_move(own, opp, draws)
        else:
            tag = TAGS[h]
            heur = (int(hs), int(hd))

    search_move: tuple[int, int] | None = None
    sk = smax = si = None
    moves = new_move_buffer()  # level1.s; one per decision, so threads (the web app) never share it
    k = 0
    if s_on:
        k, smax_v, si_v, fixed_i, orig_i = two_ply(own, opp, moves)
        if k == 0:
            raise RuntimeError("the side to move has no move: the original's search is undefined here")
        chosen = fixed_i if fixes.search_plays_best else orig_i
        search_move = (int(moves[chosen, 0]), int(moves[chosen, 1]))
        sk, smax, si = int(k), int(smax_v), int(si_v)
        state.last_search = _position(apply(own, *search_move), opp, side)

    learned: tuple[int, int] | None = None
    lc = None
    if l_on:
        if s_on or fixes.learn_without_search_uses_board:
            if not s_on:
                k = generate(own, opp, moves)
            level1 = [(int(moves[i, 0]), int(moves[i, 1])) for i in range(k)]
        else:
            level1 = []  # the original lists the successors of a board it never filled in: empty
        keys = [key(*_position(apply(own, s, d), opp, side)) for s, d in level1]
        found, lc = memory.recall(keys, side, fixes.memory_sign_by_side) if memory is not None else (None, 0)
        if found is not None:
            learned = level1[keys.index(found)]

    def value(move: tuple[int, int] | None) -> int:
        if move is None:
            return NO_CANDIDATE
        return int(evaluate(apply(own, *move), opp))

    eh = value(heur) if h_on else NO_CANDIDATE
    es = value(search_move) if s_on else NO_CANDIDATE
    el = value(learned) if l_on else NO_CANDIDATE
    extra = dict(
        heuristic=tag,
        eh=eh,
        es=es,
        el=el,
        sk=sk,
        smax=smax,
        si=si,
        lc=lc,
        off_board_reads=off_reads,
        layout_sensitive=sensitive,
    )
    if el > NO_CANDIDATE and el >= eh and el >= es:
        assert learned is not None
        return Decision(*learned, "learn", **extra)  # type: ignore[arg-type]
    if es > NO_CANDIDATE and es >= eh and es >= el:
        assert search_move is not None
        return Decision(*search_move, "search", **extra)  # type: ignore[arg-type]
    if eh > NO_CANDIDATE and eh >= el and eh >= es:
        assert heur is not None and tag is not None
        return Decision(*heur, "heur:" + tag, **extra)  # type: ignore[arg-type]
    src, dst = random_move(own, opp, draws)
    return Decision(src, dst, "random", **extra)  # type: ignore[arg-type]


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
