"""Where each format of knowledge is kept: one storage class per :class:`KnowledgeFormat`, on top
of the store (the play layer).

A learner's class names its format once (``Learner.knowledge_format``); :data:`FORMATS` maps each
format to the class that keeps it, and :func:`kept_knowledge` gives the storage of one learner
(None for a learner nobody keeps).  Every storage answers the same questions, which are all the
keeper and the web ask:

* ``load()``: the latest kept knowledge (None when nothing is kept yet);
* ``apply(before, after)``: keep what a lesson changed, from ``before`` (what was loaded, None
  when nothing was kept) to ``after``; inside the caller's transaction when it holds one;
* ``save(knowledge)``: keep ``knowledge`` whole (an import, a training run's result);
* ``exists()`` and ``forget()``;
* ``describe()``: the place, for a message; and the class's ``to_file`` for an export.

Boxes, TD tables, network weights and n-tuple weights are one JSON document each, under the
owner, the learner's kind and its name.  A thesis memory is its ordered records (the store's
memory tables, which ``gamelearn teeko memory import/export`` share), because the thesis's recall
breaks ties by "the earliest in the file" (Despotovic 1999); a lesson writes only the records it
changed, so a 10,000-game memory is not rewritten per game.  A thesis memory read from a memory.m
file is read, never written: the batch command, not a player, writes thesis files.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from .players.knowledge import AnyLearner, Knowledge, KnowledgeFormat, ThesisMemoryKnowledge
from .store.store import MemoryEntry, Store

if TYPE_CHECKING:
    from .thesis.memory import Memory

#: The store itself, or how to open it when first needed (the keeper opens its store lazily).
StoreSource = Store | Callable[[], Store]


@dataclass(frozen=True)
class KnowledgeFile:
    """Knowledge as a file to download: its name, media type and bytes."""

    name: str
    media_type: str
    content: bytes


class KeptKnowledge(ABC):
    """Where one learner's knowledge is kept, in its format (see the module docstring)."""

    #: False for knowledge that is read and never written (a thesis memory.m file).
    writable: ClassVar[bool] = True

    def __init__(self, store: StoreSource, owner: str) -> None:
        self._store = store
        self.owner = owner

    @property
    def store(self) -> Store:
        return self._store if isinstance(self._store, Store) else self._store()

    @classmethod
    @abstractmethod
    def for_learner(cls, store: StoreSource, owner: str, learner: AnyLearner) -> KeptKnowledge | None:
        """The storage of ``learner``'s knowledge, or None when nobody keeps it (no name)."""

    @classmethod
    @abstractmethod
    def to_file(cls, learner: AnyLearner, knowledge: Knowledge) -> KnowledgeFile:
        """``knowledge`` as the file an export downloads."""

    @abstractmethod
    def describe(self) -> str:
        """The place, as a message names it."""

    @abstractmethod
    def load(self) -> object | None:
        """The latest kept knowledge, as it was read (the learner's ``load`` checks it); None when
        nothing is kept."""

    @abstractmethod
    def exists(self) -> bool:
        """True when something is kept here."""

    @abstractmethod
    def forget(self) -> bool:
        """Delete what is kept here; True if there was something."""

    @abstractmethod
    def save(self, knowledge: Knowledge) -> None:
        """Keep ``knowledge`` whole, replacing what was kept."""

    @abstractmethod
    def apply(self, before: Knowledge | None, after: Knowledge) -> None:
        """Keep what a lesson changed: the knowledge was ``before`` (None: nothing was kept) and
        is now ``after``."""


class _Document(KeptKnowledge):
    """One JSON document under (owner, kind, name) in the store's learners table."""

    def __init__(self, store: StoreSource, owner: str, kind: str, name: str, what: str | None = None) -> None:
        super().__init__(store, owner)
        self.kind = kind
        self.name = name
        self.what = what or kind  # the learner's own kind, which messages name

    @classmethod
    def for_learner(cls, store: StoreSource, owner: str, learner: AnyLearner) -> KeptKnowledge | None:
        name = learner.keep_name()
        return None if name is None else cls(store, owner, learner.keep_kind(), name, learner.kind)

    @classmethod
    def to_file(cls, learner: AnyLearner, knowledge: Knowledge) -> KnowledgeFile:
        content = json.dumps(knowledge, indent=1, sort_keys=True).encode()
        return KnowledgeFile(f"{learner.kind}-{learner.game.name}.json", "application/json", content)

    def describe(self) -> str:
        return f"{self.what} {self.name!r} in the store"

    def load(self) -> object | None:
        return self.store.load_learner(self.kind, self.name, owner=self.owner)

    def exists(self) -> bool:
        return (self.kind, self.name) in self.store.list_learners(self.kind, owner=self.owner)

    def forget(self) -> bool:
        return self.store.delete_learner(self.kind, self.name, owner=self.owner)

    def save(self, knowledge: Knowledge) -> None:
        if isinstance(knowledge, list):
            raise TypeError(f"a {self.what} document is an object, not a list of records")
        self.store.save_learner(self.kind, self.name, knowledge, owner=self.owner)

    def apply(self, before: Knowledge | None, after: Knowledge) -> None:
        self.save(after)  # a document is written whole: its parts are not rows of their own


class Boxes(_Document):
    """Matchboxes and their beads (MENACE, Michie 1961; HER and HIM, Gardner 1962); learners that
    share boxes share a kind (``Learner.keep_kind``)."""


class TDTable(_Document):
    """A TD learner's table of position values (Sutton & Barto)."""


class NetworkWeights(_Document):
    """The az learner's network weights and its self-play counts."""


class NtupleWeights(_Document):
    """An n-tuple network's look-up tables (Thill et al.)."""


def _records(knowledge: Knowledge) -> ThesisMemoryKnowledge:
    """``knowledge`` as a thesis memory's records; TypeError for another format's (a document)."""
    if not isinstance(knowledge, list):
        raise TypeError("a thesis memory is a list of records, not a document")
    return knowledge


def _entries(knowledge: Knowledge) -> list[MemoryEntry]:
    return [(str(board), int(x_wins), int(o_wins)) for board, x_wins, o_wins in _records(knowledge)]


class ThesisMemory(KeptKnowledge):
    """A thesis memory in the store: its records in file order, written record by record."""

    def __init__(self, store: StoreSource, owner: str, name: str, what: str = "thesis") -> None:
        super().__init__(store, owner)
        self.name = name
        self.what = what

    @classmethod
    def for_learner(cls, store: StoreSource, owner: str, learner: AnyLearner) -> KeptKnowledge | None:
        from .thesis.player import ThesisPlayer  # loaded already: the learner is one

        if isinstance(learner, ThesisPlayer) and learner.memory_path is not None:
            return ThesisMemoryFile(Path(learner.memory_path), learner.kind)
        name = learner.keep_name()
        return None if name is None else cls(store, owner, name, learner.kind)

    @classmethod
    def to_file(cls, learner: AnyLearner, knowledge: Knowledge) -> KnowledgeFile:
        from .store.thesis_files import format_memory

        return KnowledgeFile("memory.m", "application/octet-stream", format_memory(_entries(knowledge)))

    def describe(self) -> str:
        return f"{self.what} {self.name!r} in the store"

    def load(self) -> object | None:
        entries = self.store.load_memory(self.name, owner=self.owner)
        return None if entries is None else [list(entry) for entry in entries]

    def exists(self) -> bool:
        return self.name in self.store.list_memories(owner=self.owner)

    def forget(self) -> bool:
        return self.store.delete_memory(self.name, owner=self.owner)

    def save(self, knowledge: Knowledge) -> None:
        self.store.save_memory(self.name, _entries(knowledge), owner=self.owner)

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
            self.store.update_memory(self.name, changes, owner=self.owner)

    def version(self) -> float | None:
        """When the memory was last written (None: not kept); equal versions, equal contents."""
        return self.store.memory_version(self.name, owner=self.owner)

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
        from .thesis.memory import Memory

        with self.store.transaction():
            version = self.version()
            if cached is not None and version is not None and cached[0] == version:
                memory = cached[1]
            else:  # another process wrote it since (or nothing is cached): reload
                memory = Memory(self.store.load_memory(self.name, owner=self.owner) or [])
            for boards, winner in lessons:
                memory.learn(boards, winner)
            changes = memory.take_changes()
            if version is None:
                self.store.save_memory(self.name, list(memory.entries()), owner=self.owner)
            elif changes:
                self.store.update_memory(self.name, changes, owner=self.owner)
        return memory


class ThesisMemoryFile(KeptKnowledge):
    """A thesis memory.m file a learner reads once and never writes (the thesis's own files)."""

    writable = False

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
        from .store.thesis_files import read_memory_entries

        return [list(entry) for entry in read_memory_entries(self.path)]

    def exists(self) -> bool:
        return self.path.is_file()

    def forget(self) -> bool:
        return False  # the file is the user's: nothing of it is the store's to delete

    def save(self, knowledge: Knowledge) -> None:
        raise ValueError(f"{self.describe()} is read, never written (gamelearn teeko batch writes thesis files)")

    def apply(self, before: Knowledge | None, after: Knowledge) -> None:
        self.save(after)


#: Each format's storage, in one place.
FORMATS: dict[KnowledgeFormat, type[KeptKnowledge]] = {
    KnowledgeFormat.BOXES: Boxes,
    KnowledgeFormat.TD_TABLE: TDTable,
    KnowledgeFormat.NETWORK_WEIGHTS: NetworkWeights,
    KnowledgeFormat.THESIS_MEMORY: ThesisMemory,
    KnowledgeFormat.NTUPLE_WEIGHTS: NtupleWeights,
}


def kept_knowledge(store: StoreSource, owner: str, learner: AnyLearner) -> KeptKnowledge | None:
    """Where ``learner``'s knowledge is kept for ``owner`` (None: nobody keeps it)."""
    return FORMATS[learner.knowledge_format].for_learner(store, owner, learner)


def knowledge_file(learner: AnyLearner, knowledge: Knowledge) -> KnowledgeFile:
    """``knowledge`` of ``learner`` as the file an export downloads, in its format's shape."""
    return FORMATS[learner.knowledge_format].to_file(learner, knowledge)
