"""The matchbox learners: Gardner's HER and HIM (1962) and Michie's MENACE (1961), a box of beads
for every position they move in.

Read top to bottom: :mod:`.tables` numbers every position of a small game, :mod:`.beads` counts,
compares and draws a box's beads, :mod:`.checks` checks the boxes as a document before they are
loaded, :mod:`.advice` says why a learner is stuck and its remedies, :mod:`.learners` holds the
players themselves (and registers ``her``, ``him`` and ``menace``), and :mod:`.fast` replays their
trainings over the integer tables, game for game.
"""

from __future__ import annotations

from .learners import HerPlayer, HimPlayer, MatchboxPlayer, MenacePlayer

__all__ = ["HerPlayer", "HimPlayer", "MatchboxPlayer", "MenacePlayer"]
