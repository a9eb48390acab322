"""The 1999 thesis Teeko program whole, fixed and original (Despotović, "Machine Learning in
Strategic Games", Belgrade 1999): its engine, its files, its batch and experiment, its console and
its commands.  The package spans the layers; each module stands at the layer of what it does
(tests/test_layers.py) and is documented where it is defined.

The engine and the player (the players' layer; the engine's kernels are numba):

* :mod:`.board`: bitboards, the original's scan order, 25-digit boards and memory keys;
* :mod:`.evaluation`: the C's eval();
* :mod:`.search`: the two-ply search, fixed and original choice;
* :mod:`.heuristics`: the moving-phase heuristics as pattern tables, one table row per pattern in
  the C's order, with the original's slips switchable; the random move;
* :mod:`.opening`: the placement heuristics;
* :mod:`.rng`: Microsoft's rand() and the fixed mode's seeded draws;
* :mod:`.memory`: memory.m in RAM with an index (update, recall);
* :mod:`.fixes`: the fifteen fixes of the original's bugs, one switch each;
* :mod:`.rules`: the loop's rules the C kept outside the engine (history, draws, who learns);
* :mod:`.engine`: one decision, advisers and their combination (``decide``);
* :mod:`.player`: the ``thesis`` player kind of ``make_player`` (the registry loads it by name).

Its files and memories (the store's layer): :mod:`.files`, memory.m and stat.m read and written
byte for byte; :mod:`.memories`, the store's side of them (import, export, the score).

Batch self-play and the experiment (the experiments' layer): :mod:`.batch` (the shared loop),
:mod:`.batch_run` (a batch's plan and runner), :mod:`.trace` and :mod:`.transcript` (what a batch
prints), :mod:`.runs`, :mod:`.experiment` and :mod:`.chart` (the memory experiment over seeds);
the console game: :mod:`.console` with :mod:`.brain`, :mod:`.screens` and
:mod:`.console_original`.

Its interfaces: :mod:`.commands` (``gamelearn teeko``), :mod:`.web` and :mod:`.web_routes` (the
console page), which the CLI and the web app wire in.
"""

from __future__ import annotations

# The package tells the layers below of itself when it is imported (the registry imports its player
# by name, so before any thesis learner exists): its memory's storage to the knowledge formats,
# and, through it, its memory tables to the store.  Neither imports the package.
from . import kept as kept
