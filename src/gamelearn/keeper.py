"""The keeper: the one place where a learner's knowledge meets the store (the play layer).

Learners learn in memory (:mod:`gamelearn.players.knowledge`); the keeper loads a named learner
from the store and, after each game, applies the game's lesson to the **latest stored knowledge
inside one write transaction**: ``BEGIN IMMEDIATE``, reload, learn, write, ``COMMIT``.  Two
processes teaching one learner therefore queue at the transaction, each applies its game to what
the other has written, and no lesson is lost.  The player ends the transaction holding the merged
knowledge, so its next choices see what every process taught it.

Where the knowledge lives depends on its format (``Learner.knowledge_format``), and only the
format's storage (:mod:`gamelearn.knowledge_formats`) knows: boxes, tables and weights are one
JSON document per (owner, kind, name); a thesis memory is its records in file order, of which a
game writes only those it changed.  A thesis player given a memory.m *path* reads it once and
never writes it.  The keeper asks every format the same questions.

A learner made with ``train=off`` is frozen: it is loaded, never written.

A training run rewrites its learner whole (weights cannot be merged as counts can), so it holds
the name (:meth:`Keeper.writing_whole`): a second trainer is refused, and so is every lesson for
that learner from elsewhere (a ``play``, the web page's games and training), before the game
begins (:meth:`Keeper.attach_once`) and again inside the lesson's own transaction, in one line
(:class:`LearnerInTraining`).  No lesson is accepted and then written over.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections.abc import Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from .files import FileInUseError, FileLock
from .knowledge_formats import KeptKnowledge, KnowledgeFile, kept_knowledge, knowledge_file
from .players.knowledge import AnyLearner, Kept, Learner, Pupil
from .store.failures import StoreError
from .store.store import Store, default_store_path

if TYPE_CHECKING:
    from .games.record import GameRecord
    from .players.base import Player

#: The state type of a game.
S = TypeVar("S", bound=Hashable)
__all__ = [
    "LOCAL_OWNER",
    "Kept",
    "Keeper",
    "LearnerInTraining",
    "default_keeper",
    "is_stored",
    "keeper_for",
    "reading_keeper",
]

#: The store's owner for the command line and the Python API (the web app uses each browser's id).
LOCAL_OWNER = "local"


class LearnerInTraining(ValueError):
    """A lesson for a learner that a training run holds (:meth:`Keeper.writing_whole`): refused,
    since the run's next keep writes its own copy over whatever else was learnt meanwhile."""

    def __init__(self, learner: AnyLearner) -> None:
        name = getattr(learner, "name", None) or learner.keep_name()
        super().__init__(f"{learner.kind} {name!r} is being trained; play it frozen with train=off or wait")


class Keeper:
    """Loads named learners and keeps each lesson, for one store and one owner.

    Safe to share between threads: the store serialises its connection, and a transaction holds
    the database's write lock from the reload to the write.
    """

    def __init__(self, store: Store | None = None, owner: str = LOCAL_OWNER) -> None:
        self._store = store
        self._opened = False  # whether it opened the store itself (then close() closes it)
        self.owner = owner
        self._lock = threading.Lock()
        self._attached: weakref.WeakSet[AnyLearner] = weakref.WeakSet()

    @property
    def store(self) -> Store:
        with self._lock:
            if self._store is None:
                self._store, self._opened = Store(), True
            return self._store

    def close(self) -> None:
        """Close the store this keeper opened itself (a store it was given is its giver's)."""
        with self._lock:
            if self._store is not None and self._opened:
                self._store.close()
                self._store = None

    def for_owner(self, owner: str) -> Keeper:
        """A keeper of the same store for another owner (the web app's browsers)."""
        return Keeper(self.store, owner)

    # Loading ----------------------------------------------------------------------------------

    @staticmethod
    def is_kept(player: object) -> bool:
        """True for a learner the keeper reads from the store or a file."""
        # the class stands in for an opened store: answering opens none
        return isinstance(player, Learner) and kept_knowledge(Store, LOCAL_OWNER, player) is not None

    def kept(self, learner: AnyLearner) -> KeptKnowledge | None:
        """Where this keeper keeps ``learner``'s knowledge, in its format (None: nobody keeps it)."""
        return kept_knowledge(lambda: self.store, self.owner, learner)

    def stored(self, learner: AnyLearner) -> object | None:
        """The latest stored knowledge of ``learner`` (None when nothing is kept under its name)."""
        kept = self.kept(learner)
        return None if kept is None else kept.load()

    def document(self, kind: str, name: str) -> object | None:
        """What this owner keeps as the document of ``kind`` named ``name`` (None: nothing), read
        before a learner is built and without making the store: a keeper that has not opened its
        store yet asks a read-only one."""
        with self._lock:
            opened = self._store
        if opened is not None:
            return opened.load_learner(kind, name, owner=self.owner)
        with Store(readonly=True) as store:
            return store.load_learner(kind, name, owner=self.owner)

    def attach(self, player: object) -> bool:
        """Load a kept learner's latest knowledge into it; True if it had any (a new name: False,
        and the learner starts empty).  Other players are left alone.  A stored value the learner
        refuses is a ValueError naming the learner and what is wrong."""
        if not isinstance(player, Learner) or not self.is_kept(player):
            return False
        try:
            knowledge = self.stored(player)
            if knowledge is None:
                return False
            player.load(knowledge)
        except ValueError as error:  # a damaged document (not JSON) or a value the learner refuses
            raise ValueError(f"{self.describe_slot(player)}: {error}") from None
        return True

    def attach_once(self, player: object) -> bool:
        """:meth:`attach`, the first time this keeper sees ``player`` only: a learner it keeps
        already holds the latest knowledge after each game, so a match need not reload it.  A
        learner that would learn while a training run holds its name is refused here, before the
        game begins (:class:`LearnerInTraining`)."""
        if not isinstance(player, Learner):
            return False
        self.check_not_in_training(player)
        if player in self._attached:
            return False
        loaded = self.attach(player)
        self._attached.add(player)
        return loaded

    def describe_slot(self, learner: AnyLearner) -> str:
        kept = self.kept(learner)
        return f"{learner.kind} {learner.keep_name()!r} in the store" if kept is None else kept.describe()

    def check_not_in_training(self, learner: AnyLearner) -> None:
        """Refuse (:class:`LearnerInTraining`) a learner that trains, is kept under a name, and is
        held by a training run (:meth:`writing_whole`) of any process, this one included."""
        name = learner.keep_name()
        if name is None or not learner.trains or not self.is_kept(learner):
            return
        if self.store.lease_holder(learner.keep_kind(), name, owner=self.owner) is not None:
            raise LearnerInTraining(learner)

    # Keeping ---------------------------------------------------------------------------------

    def keep(
        self,
        record: GameRecord[S],
        seats: Sequence[tuple[Player[S], int | None]],
        record_context: str | None = None,
    ) -> list[Kept]:
        """Teach each learner of ``seats`` (player, side) the finished game ``record`` and keep
        what it learned, all in one transaction; with ``record_context`` the game's record is
        added to the store in the same transaction.  The lessons, one per learner seated.

        For a kept learner that trains: reload the stored knowledge, learn, write.  An unnamed
        learner learns in memory only.  A frozen learner learns nothing (its lesson is empty)."""
        return self.keep_many([record], seats, record_context=record_context)

    def keep_many(
        self,
        records: Iterable[GameRecord[S]],
        seats: Sequence[tuple[Player[S], int | None]],
        record_context: str | None = None,
    ) -> list[Kept]:
        """:meth:`keep` for several games in order, in one transaction (a batch's checkpoint)."""
        records = list(records)
        learners: list[tuple[Pupil[S], int | None]] = [
            (player, side) for player, side in seats if isinstance(player, Learner)
        ]
        kept_here = any(self.is_kept(player) and player.trains for player, _ in learners)
        if not kept_here and record_context is None:
            return [_learn_in_memory(player, side, records) for player, side in learners]
        results: list[Kept] = []
        with self.store.transaction():
            for player, side in learners:
                kept = self.kept(player) if player.trains else None
                if kept is None or not kept.writable:
                    results.append(_learn_in_memory(player, side, records))
                    continue
                self.check_not_in_training(player)  # a run that began during the game: inside the write lock
                try:
                    stored = kept.load()
                    before, after, lesson = player.study(records, side, start=stored)
                except ValueError as error:  # a stored value the learner refuses, or a game it cannot learn
                    raise ValueError(f"{self.describe_slot(player)}: {error}") from None
                kept.apply(None if stored is None else before, after)
                results.append(Kept(side, player, lesson))
            if record_context is not None:
                for record in records:
                    self.store.add_record(record, owner=self.owner, context=record_context)
        return results

    # Game records ------------------------------------------------------------------------------

    def keep_record(self, record: GameRecord[S], context: str) -> int:
        """Add a finished game to this owner's kept games, teaching nobody (an imported record);
        its number in the store."""
        return self.store.add_record(record, owner=self.owner, context=context)

    def records(self, game: str | None = None, limit: int | None = None) -> list[dict[str, Any]]:
        """This owner's kept games, oldest first (the latest ``limit`` of them), as the store
        lists them: id, context, game, players, moves, winner, end, plies, seed, created."""
        return self.store.records(game=game, owner=self.owner, limit=limit)

    def record(self, record_id: int) -> dict[str, Any] | None:
        """One of this owner's kept games by its number, or None."""
        return self.store.record(record_id, owner=self.owner)

    def save(self, learner: AnyLearner, replace: bool = True) -> None:
        """Write what ``learner`` knows now under its name (an import, a training run's result),
        in one transaction.  Without ``replace`` a learner already kept under that name is
        refused (ValueError), checked inside the same transaction as the write, so of two
        imports under one name exactly one wins."""
        name = learner.keep_name()
        if name is None:
            raise ValueError(f"this {learner.kind} has no name to be kept under")
        with self.store.transaction():
            kept = self.kept(learner)
            assert kept is not None  # a learner with a name is kept
            if not replace and kept.exists():
                raise ValueError(f"a {learner.kind} named {name!r} is already in the store (use --replace, or --name)")
            kept.save(learner.knowledge())

    @contextmanager
    def writing_whole(self, learner: AnyLearner) -> Iterator[None]:
        """Hold ``learner``'s name for a run that rewrites its whole knowledge as it goes (a
        training run: network weights cannot be merged as counts can), or refuse at once in one
        line (ValueError) when another process holds it: of two trainers of one name the second
        is refused, instead of the last writer silently undoing the first one's work.  An
        exclusive ``flock`` on a lock file beside the store, which the kernel releases when its
        process dies (SIGKILL included), so a crash never leaves a name held.

        While held, the store keeps a lease of the name for this process (``Store.take_lease``),
        so that every lesson from elsewhere is refused (:class:`LearnerInTraining`); a lease left
        by a process that died holds nothing.  The lease is taken in its own transaction before
        the caller loads the learner, so a lesson kept before it is in what the run loads, and a
        lesson after it is refused."""
        name = learner.keep_name()
        if name is None:
            yield
            return
        digest = hashlib.sha256(f"{self.owner}\0{learner.keep_kind()}\0{name}".encode()).hexdigest()[:20]
        lock = FileLock(Path(self.store.path).parent / f"learner-{digest}")
        try:
            lock.acquire()
        except FileInUseError:
            raise ValueError(
                f"another gamelearn is training {learner.kind} {name!r}; try again when it has finished"
            ) from None
        try:
            self.store.take_lease(learner.keep_kind(), name, owner=self.owner)
            try:
                yield
            finally:
                try:
                    self.store.drop_lease(learner.keep_kind(), name, owner=self.owner)
                except StoreError:
                    pass  # a store that cannot be written now: the lease ends with this process

        finally:
            lock.release()

    def exists(self, learner: AnyLearner) -> bool:
        """True if something is kept for ``learner`` (under its name, or its memory file)."""
        kept = self.kept(learner)
        return kept is not None and kept.exists()

    def forget(self, learner: AnyLearner) -> bool:
        """Delete what is kept under ``learner``'s name; True if something was."""
        kept = self.kept(learner)
        return kept is not None and kept.forget()

    def export(self, learner: AnyLearner) -> KnowledgeFile:
        """What ``learner`` knows, latest kept knowledge loaded first, as a file to download (a
        thesis memory as memory.m, the others as JSON)."""
        stored = self.stored(learner)
        if stored is not None:
            learner.load(stored)
        return knowledge_file(learner, learner.knowledge())


def _learn_in_memory(player: Pupil[S], side: int | None, records: list[GameRecord[S]]) -> Kept:
    return Kept(side, player, player.study(records, side)[2])


_DEFAULT: dict[str, Keeper] = {}
_DEFAULT_LOCK = threading.Lock()


def default_keeper() -> Keeper:
    """The keeper of the default store ($GAMELEARN_HOME's database), one per data directory."""
    path = str(default_store_path())
    with _DEFAULT_LOCK:
        keeper = _DEFAULT.get(path)
        if keeper is None:
            keeper = _DEFAULT[path] = Keeper(Store(path))
        return keeper


_READING: dict[str, Keeper] = {}


def reading_keeper() -> Keeper:
    """A keeper of the default store opened read-only (SQLite ``mode=ro``), one per data directory,
    for processes that only load frozen learners (a tournament's workers): opening it takes no
    write lock, so many workers starting at once never queue behind a writer."""
    path = str(default_store_path())
    with _DEFAULT_LOCK:
        keeper = _READING.get(path)
        if keeper is None:
            keeper = _READING[path] = Keeper(Store(path, readonly=True))
        return keeper


def is_stored(learner: AnyLearner) -> bool:
    """True if the default store (or the learner's memory file) keeps something for ``learner``,
    asked through a read-only store opened for the question: a store not made yet keeps nothing,
    and asking does not make it, so a command that refuses its arguments leaves no store behind."""
    with Store(readonly=True) as store:
        return Keeper(store).exists(learner)


def keeper_for(players: Iterable[object]) -> Keeper | None:
    """The default store's keeper when one of ``players`` is a kept learner (a name, a memory
    file), else None: what a game played without a keeper of its own is kept by."""
    return default_keeper() if any(Keeper.is_kept(player) for player in players) else None
