"""The thesis memory kept by the play layer: a player's memory in the store (its records in file
order, written record by record) or a memory.m file it reads once and never writes, registered
with :mod:`gamelearn.knowledge_formats` as the storage of the thesis memory's format (:data:`.knowledge.THESIS_MEMORY`).

A memory is its ordered records (the memory tables of :mod:`.memories`, which ``gamelearn teeko
memory import/export`` share), because the thesis's recall breaks ties by "the earliest in the
file" (Despotović 1999); a lesson writes only the records it changed, so a 10,000-game memory is
not rewritten per game.  A memory read from a memory.m file is read, never written: the batch
command, not a player, writes thesis files.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..knowledge_formats import KeptKnowledge, KnowledgeFile, StoreSource, register_format
from ..players.knowledge import AnyLearner, Knowledge
from ..store.store import Store
from .files import format_memory, read_memory_entries
from .knowledge import THESIS_MEMORY, ThesisMemoryKnowledge
from .memories import (
    MemoryEntry,
    delete_memory,
    list_memories,
    load_memory,
    memory_version,
    save_memory,
    update_memory,
)

if TYPE_CHECKING:
    from .memory import Memory


def _records(knowledge: Knowledge) -> ThesisMemoryKnowledge:
    """``knowledge`` as a thesis memory's records; TypeError for another format's (a document)."""
    if not isinstance(knowledge, list):
        raise TypeError("a thesis memory is a list of records, not a document")
    return knowledge


def _entries(knowledge: Knowledge) -> list[MemoryEntry]:
    return [(str(board), int(x_wins), int(o_wins)) for board, x_wins, o_wins in _records(knowledge)]


class ThesisMemory(KeptKnowledge):
    """A thesis memory in the store: its records in file order, written record by record."""

    file_label = "memory.m"

    def __init__(self, store: StoreSource, owner: str, name: str, what: str = "thesis") -> None:
        super().__init__(store, owner)
        self.name = name
        self.what = what

    @classmethod
    def for_learner(cls, store: StoreSource, owner: str, learner: AnyLearner) -> KeptKnowledge | None:
        from .player import ThesisPlayer  # the engine (numba), loaded already: the learner is one

        if isinstance(learner, ThesisPlayer) and learner.memory_path is not None:
            return ThesisMemoryFile(Path(learner.memory_path), learner.kind)
        name = learner.keep_name()
        return None if name is None else cls(store, owner, name, learner.kind)

    @classmethod
    def to_file(cls, learner: AnyLearner, knowledge: Knowledge) -> KnowledgeFile:
        return KnowledgeFile("memory.m", "application/octet-stream", format_memory(_entries(knowledge)))

    @classmethod
    def kept_names(cls, store: Store, owner: str) -> list[tuple[str, str]]:
        return [(THESIS_MEMORY, name) for name in list_memories(store, owner=owner)]

    def describe(self) -> str:
        return f"{self.what} {self.name!r} in the store"

    def load(self) -> object | None:
        entries = load_memory(self.store, self.name, owner=self.owner)
        return None if entries is None else [list(entry) for entry in entries]

    def exists(self) -> bool:
        return self.name in list_memories(self.store, owner=self.owner)

    def forget(self) -> bool:
        return delete_memory(self.store, self.name, owner=self.owner)

    def save(self, knowledge: Knowledge) -> None:
        save_memory(self.store, self.name, _entries(knowledge), owner=self.owner)

    def apply(self, before: Knowledge | None, after: Knowledge) -> None:
        if before is None:
            self.save(after)
            return
        entries = _entries(after)
        old = [tuple(entry) for entry in _records(before)]
        # The memory only grows and changes in place (a board keeps its record number), so only
        # the records that differ are written.
        changes = {i: entry for i, entry in enumerate(entries) if i >= len(old) or old[i] != entry}
        if changes:
            update_memory(self.store, self.name, changes, owner=self.owner)

    def version(self) -> float | None:
        """When the memory was last written (None: not kept); equal versions, equal contents."""
        return memory_version(self.store, self.name, owner=self.owner)

    def learn(
        self, lessons: Iterable[tuple[Sequence[int], int]], cached: tuple[float | None, Memory] | None = None
    ) -> Memory:
        """Apply thesis-engine lessons to the latest kept memory, in one transaction (the
        caller's, when it holds one: a batch saves its memories, score and result together):
        reload, learn each lesson in order (``Memory.learn``), write the changed records; a
        memory not kept yet is created.  A lesson is the boards after plies 9.. of a won game
        (keys) and the side (+1/-1) it is learned as won by.

        ``cached`` is (version, memory) of what the caller last got back, with the
        :meth:`version` read after its transaction committed: when the store's version is still
        that one nobody wrote since, and the reload is skipped (a large memory is not read again
        every few seconds).  Returns the memory as written; MemoryFull (nothing written) for a
        count past the format's 9999."""
        from .memory import Memory  # the engine's (numba): only a lesson loads it, never a listing

        with self.store.transaction():
            version = self.version()
            if cached is not None and version is not None and cached[0] == version:
                memory = cached[1]
            else:  # another process wrote it since (or nothing is cached): reload
                memory = Memory(load_memory(self.store, self.name, owner=self.owner) or [])
            for boards, winner in lessons:
                memory.learn(boards, winner)
            changes = memory.take_changes()
            if version is None:
                save_memory(self.store, self.name, list(memory.entries()), owner=self.owner)
            elif changes:
                update_memory(self.store, self.name, changes, owner=self.owner)
        return memory


class ThesisMemoryFile(KeptKnowledge):
    """A thesis memory.m file a learner reads once and never writes (the thesis's own files)."""

    writable = False
    file_label = "memory.m"

    def __init__(self, path: Path, what: str = "thesis") -> None:
        super().__init__(Store, "")  # no store: the file is the place
        self.path = path
        self.what = what

    @classmethod
    def for_learner(cls, store: StoreSource, owner: str, learner: AnyLearner) -> KeptKnowledge | None:
        return ThesisMemory.for_learner(store, owner, learner)

    @classmethod
    def to_file(cls, learner: AnyLearner, knowledge: Knowledge) -> KnowledgeFile:
        return ThesisMemory.to_file(learner, knowledge)

    def describe(self) -> str:
        return f"{self.what} memory file {self.path}"

    def load(self) -> object | None:
        return [list(entry) for entry in read_memory_entries(self.path)]

    def exists(self) -> bool:
        return self.path.is_file()

    def forget(self) -> bool:
        return False  # the file is the user's: nothing of it is the store's to delete

    def save(self, knowledge: Knowledge) -> None:
        raise ValueError(f"{self.describe()} is read, never written (gamelearn teeko batch writes thesis files)")

    def apply(self, before: Knowledge | None, after: Knowledge) -> None:
        self.save(after)


register_format(THESIS_MEMORY, ThesisMemory)
