"""The thesis memory as a learner's knowledge (Despotović 1999): the name of its format, which a
thesis player names and :mod:`.kept` registers with the play layer, and its shape."""

from __future__ import annotations

from ..players.knowledge import RecordsKnowledge

#: The format a thesis player names (``Learner.knowledge_format``) and :mod:`.kept` keeps.
THESIS_MEMORY = "thesis-memory"
#: A thesis memory: its records in file order, each [the 25-digit board, the games won from it by
#: '1' (X), by '2' (O)].
ThesisMemoryKnowledge = RecordsKnowledge
