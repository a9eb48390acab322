"""The program behind the console game (:mod:`.console`): the switches a person toggles,
what the program decided, and the thesis engine that decides it (Despotović 1999), behind the
:class:`Brain` protocol so that the console's rules can be tested with a scripted brain."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..players.hangs import NoMoveError
from .board import from_digits, successors
from .engine import MOVING_FROM_PLY, EngineState, Settings, decide
from .fixes import Fixes
from .memory import Memory
from .rng import Draws, MicrosoftRand, SeededDraws

if TYPE_CHECKING:
    from .memories import Entry


@dataclass(frozen=True)
class Switches:
    """The console's five switches, all on at start."""

    pause: bool = True
    heuristics: bool = True
    search: bool = True
    learning: bool = True
    thinking: bool = True

    def flags(self) -> str:
        """The switches as batch mode's flags, such as +h+s+l."""
        return "".join(
            ("+" if on else "-") + ch for on, ch in ((self.heuristics, "h"), (self.search, "s"), (self.learning, "l"))
        )


@dataclass(frozen=True)
class Decision:
    """The program's move, and what it thought (for thinking output)."""

    move: str
    thinking: tuple[str, ...] = ()


class Brain(Protocol):
    """What decides the program's moves (the thesis engine behind an adapter).

    ``board`` is the 25-digit board in the memory's orientation ('1' is side +1), ``side`` is the
    side to move (+1 or -1), ``ply`` the ply being played (from 1), ``memory`` the entries recall
    reads, in file order.
    """

    def decide(self, board: str, side: int, ply: int, switches: Switches, memory: Sequence[Entry]) -> Decision: ...


class EngineBrain:
    """The thesis engine (thesis/engine.py) behind the Brain protocol: the fixed program,
    or with ``original`` the 1999 C as batch's original mode plays it (every fix off, Microsoft's
    rand()).

    Randomness: one generator for the whole session, as the original had one for the run, seeded
    with ``seed``; with none, fixed mode draws a seed, original mode takes the clock's seconds (the
    original's ``srand(time(NULL))``).  What would have hung the original (an opening pick with its
    four cells taken, a side with no move) raises OpeningHang or NoMoveError (players/hangs.py).
    """

    def __init__(self, seed: int | None = None, original: bool = False) -> None:
        self.original = original
        self.fixes = Fixes.original() if original else Fixes.fixed()
        self.draws: Draws = MicrosoftRand(int(time.time()) if seed is None else seed) if original else SeededDraws(seed)
        self.state = EngineState()
        self._memory_source: tuple[Entry, ...] | None = None
        self._memory: object = None

    def _memory_for(self, entries: Sequence[Entry]) -> object:
        snapshot = tuple(entries)
        if snapshot != self._memory_source:  # rebuilt only after the memory changed (after a game)
            self._memory_source = snapshot
            self._memory = Memory(snapshot)
        return self._memory

    def decide(self, board: str, side: int, ply: int, switches: Switches, memory: Sequence[Entry]) -> Decision:
        settings = Settings(switches.heuristics, switches.search, switches.learning)
        position = from_digits(board)
        own, opp = position if side > 0 else position[::-1]
        if ply >= MOVING_FROM_PLY and not successors(own, opp):  # the search is undefined there too
            raise NoMoveError("the side to move has no move: the original's random move would never end")
        found = decide(
            position,
            side,
            ply,
            settings,
            self._memory_for(memory),  # type: ignore[arg-type]
            self.draws,
            self.fixes,
            self.state,
        )
        return Decision(found.move, thinking_lines(found))


def thinking_lines(found: object) -> tuple[str, ...]:
    """Thinking output: the heuristic that fired, the three candidates' evaluations, the choice."""

    def shown(value: int | None) -> str:
        return "none" if value is None or value <= -2000 else str(value)

    source = str(getattr(found, "source", ""))
    if source.startswith("o:"):
        return (f"Thinking: opening rule {source[2:]}.",)
    if source.startswith("killer:"):
        return (f"Thinking: {source[7:]} is a killer move, played at once.",)
    parts = []
    if getattr(found, "heuristic", None):
        parts.append(f"heuristic {found.heuristic}: {shown(found.eh)}")  # type: ignore[attr-defined]
    else:
        parts.append("heuristics off")
    sk = getattr(found, "sk", None)
    parts.append(f"search over {sk} moves: {shown(found.es)}" if sk is not None else "search off")  # type: ignore[attr-defined]
    lc = getattr(found, "lc", None)
    parts.append(f"memory ({lc} matching records): {shown(found.el)}" if lc is not None else "learning off")  # type: ignore[attr-defined]
    return ("Thinking: " + "; ".join(parts) + f"; choice: {source}.",)
