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
owner, the learner's kind and its name.  A package whose learners keep their knowledge otherwise
registers its format's storage (:func:`register_format`): the 1999 thesis program keeps its
memory as ordered records in tables of its own (gamelearn.thesis).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from .players.knowledge import AnyLearner, Knowledge, KnowledgeFormat
from .store.store import Store

if TYPE_CHECKING:
    pass

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
    #: What an export downloads, as a link's label names it ("Export JSON").
    file_label: ClassVar[str] = "JSON"

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

    @classmethod
    def kept_names(cls, store: Store, owner: str) -> list[tuple[str, str]]:
        """(kind, name) of what this format keeps for ``owner`` outside the learners' documents
        (:func:`kept_names`); none for a document, which the store lists itself."""
        return []

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


#: Each format's storage, in one place: the formats of this module, and those a package keeps its
#: own way registered by it (:func:`register_format`; the thesis program's memory).
FORMATS: dict[str, type[KeptKnowledge]] = {
    KnowledgeFormat.BOXES: Boxes,
    KnowledgeFormat.TD_TABLE: TDTable,
    KnowledgeFormat.NETWORK_WEIGHTS: NetworkWeights,
    KnowledgeFormat.NTUPLE_WEIGHTS: NtupleWeights,
}


def register_format(knowledge_format: str, storage: type[KeptKnowledge]) -> None:
    """Keep ``knowledge_format`` with ``storage``: a package whose learners keep their knowledge
    their own way registers it when it is imported, before any of its learners exists."""
    FORMATS[knowledge_format] = storage


def kept_names(store: Store, owner: str) -> list[tuple[str, str]]:
    """(kind, name) of everything the owner keeps: the learners' documents, then what each
    registered format lists of its own (:meth:`KeptKnowledge.kept_names`)."""
    names = store.list_learners(owner=owner)
    for storage in FORMATS.values():
        names += storage.kept_names(store, owner)
    return names


def kept_knowledge(store: StoreSource, owner: str, learner: AnyLearner) -> KeptKnowledge | None:
    """Where ``learner``'s knowledge is kept for ``owner`` (None: nobody keeps it)."""
    return FORMATS[learner.knowledge_format].for_learner(store, owner, learner)


def knowledge_file(learner: AnyLearner, knowledge: Knowledge) -> KnowledgeFile:
    """``knowledge`` of ``learner`` as the file an export downloads, in its format's shape."""
    return FORMATS[learner.knowledge_format].to_file(learner, knowledge)
