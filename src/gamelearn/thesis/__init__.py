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

from .engine import Decision, EngineState, Settings, decide, play
from .fixes import Fixes
from .memory import Memory
from .player import ThesisPlayer

__all__ = ["Decision", "EngineState", "Fixes", "Memory", "Settings", "ThesisPlayer", "decide", "play"]
