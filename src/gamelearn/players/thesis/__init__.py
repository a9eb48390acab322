"""The 1999 thesis Teeko program, fixed and original, as a player kind (Despotović, "Machine
Learning in Strategic Games", Belgrade 1999).

Modules, each documented where it is defined:

* :mod:`.board`: bitboards, the original's scan order, 25-digit boards and memory keys;
* :mod:`.evaluation`: the C's eval() (numba);
* :mod:`.search`: the two-ply search, fixed and original choice (numba);
* :mod:`.heuristics`: the moving-phase heuristics as pattern tables, one table row per pattern in
  the C's order, with the original's slips switchable (numba); the random move;
* :mod:`.opening`: the placement heuristics;
* :mod:`.rng`: Microsoft's rand() and the fixed mode's seeded draws;
* :mod:`.memory`: memory.m in RAM with an index (update, recall);
* :mod:`.fixes`: the fifteen fixes of the original's bugs, one switch each;
* :mod:`.engine`: one decision, advisers and their combination (``decide``);
* :mod:`.player`: the ``thesis`` player kind of ``make_player``.

Batch self-play is :mod:`gamelearn.experiments.thesis_batch`; the file formats are
:mod:`gamelearn.store.thesis_files`.
"""

from __future__ import annotations

from typing import Any

from ...games.teeko import Teeko
from ..registry import Option, PlayerKind, parse_switch, register
from .engine import Decision, EngineState, Settings, decide, play
from .fixes import Fixes
from .memory import Memory
from .player import ThesisPlayer


def _parse_memory(text: str) -> str:
    if not text or any(ord(ch) < 32 for ch in text):
        raise ValueError(f"{text!r} is not a memory name or a path to a memory.m file")
    return text


def _make(game: Teeko, seed: int | None = None, **options: Any) -> ThesisPlayer:
    return ThesisPlayer(game, seed=seed, **options)


register(
    PlayerKind(
        name="thesis",
        factory=_make,
        summary="the 1999 thesis program: heuristics, 2-ply search and a position memory (fixed or original)",
        games=frozenset({"teeko"}),
        options=(
            Option("heuristics", parse_switch, True, "use the heuristics (on|off)"),
            Option("search", parse_switch, True, "use the two-ply search (on|off)"),
            Option("learn", parse_switch, True, "recall from and learn into the memory (on|off)"),
            Option(
                "memory",
                _parse_memory,
                None,
                "a memory NAME in the store, or a memory.m PATH (holds '/', ends in .m or .txt, or names an existing file) read-only",
            ),
            Option("original", parse_switch, False, "play the 1999 C with its bugs and Microsoft rand() (on|off)"),
            Option("train", parse_switch, True, "learn into the memory (off: frozen, recall only) (on|off)"),
        ),
        learns=True,
    )
)

__all__ = ["Decision", "EngineState", "Fixes", "Memory", "Settings", "ThesisPlayer", "decide", "play"]
