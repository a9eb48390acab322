"""The keeper: the one place where a learner's knowledge meets the store (the play layer).

Learners learn in memory (:mod:`gamelearn.players.knowledge`); the keeper loads a named learner
from the store and, after each game, applies the game's lesson to the **latest stored knowledge
inside one write transaction**: ``BEGIN IMMEDIATE``, reload, learn, write, ``COMMIT``.  Two
processes teaching one learner therefore queue at the transaction, each applies its game to what
the other has written, and no lesson is lost.  The player ends the transaction holding the merged
knowledge, so its next choices see what every process taught it.

Where the knowledge lives depends on its format (``Learner.knowledge_format``):

* ``"document"``: one JSON document per (owner, kind, name) in the store's learners table;
* ``"thesis-memory"``: the thesis memory's records in file order (the store's memory tables,
  which ``gamelearn teeko memory import/export`` share); only the records a game changed are
  written.  A thesis player given a memory.m *path* reads it once and never writes it.

A learner made with ``train=off`` is frozen: it is loaded, never written.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .players.knowledge import Learner, Lesson
from .store.db import Store
from .store.files import FileInUseError, FileLock

if TYPE_CHECKING:
    from .match import GameRecord
    from .players.thesis.memory import Memory as ThesisMemory

#: The store's owner for the command line and the Python API (the web app uses each browser's id).
LOCAL_OWNER = "local"


@dataclass(frozen=True)
class Kept:
    """What one learner learned from one game (or a batch of games), as the keeper applied it."""

    side: int | None
    learner: Learner
    lesson: Lesson


class Keeper:
    """Loads named learners and keeps each lesson, for one store and one owner.

    Safe to share between threads: the store serialises its connection, and a transaction holds
    the database's write lock from the reload to the write.
    """

    def __init__(self, store: Store | None = None, owner: str = LOCAL_OWNER) -> None:
        self._store = store
        self.owner = owner
        self._lock = threading.Lock()
        self._attached: weakref.WeakSet[Learner] = weakref.WeakSet()

    @property
    def store(self) -> Store:
        with self._lock:
            if self._store is None:
                self._store = Store()
            return self._store

    def for_owner(self, owner: str) -> Keeper:
        """A keeper of the same store for another owner (the web app's browsers)."""
        return Keeper(self.store, owner)

    # Loading ----------------------------------------------------------------------------------

    @staticmethod
    def is_kept(player: object) -> bool:
        """True for a learner the keeper reads from the store or a file."""
        return isinstance(player, Learner) and (player.keep_name() is not None or _memory_path(player) is not None)

    def stored(self, learner: Learner) -> Any | None:
        """The latest stored knowledge of ``learner`` (None when nothing is kept under its name)."""
        path = _memory_path(learner)
        if path is not None:
            from .store.thesis_files import read_memory_entries

            return [list(entry) for entry in read_memory_entries(path)]
        name = learner.keep_name()
        if name is None:
            return None
        if learner.knowledge_format == "thesis-memory":
            entries = self.store.load_memory(name, owner=self.owner)
            return None if entries is None else [list(entry) for entry in entries]
        return self.store.load_learner(learner.keep_kind(), name, owner=self.owner)

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
        already holds the latest knowledge after each game, so a match need not reload it."""
        if not isinstance(player, Learner) or player in self._attached:
            return False
        loaded = self.attach(player)
        self._attached.add(player)
        return loaded

    def load_player(self, game: Any, spec: str, seed: int | None = None) -> Any:
        """``make_player`` and then :meth:`attach`: a player ready to play with what it knows."""
        from .players.registry import make_player

        player = make_player(game, spec, seed=seed)
        self.attach(player)
        return player

    def describe_slot(self, learner: Learner) -> str:
        path = _memory_path(learner)
        if path is not None:
            return f"{learner.kind} memory file {path}"
        return f"{learner.kind} {learner.keep_name()!r} in the store"

    # Keeping ---------------------------------------------------------------------------------

    def keep(
        self,
        record: GameRecord,
        seats: Sequence[tuple[Any, int | None]],
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
        records: Iterable[GameRecord],
        seats: Sequence[tuple[Any, int | None]],
        record_context: str | None = None,
    ) -> list[Kept]:
        """:meth:`keep` for several games in order, in one transaction (a batch's checkpoint)."""
        records = list(records)
        learners = [(player, side) for player, side in seats if isinstance(player, Learner)]
        kept_here = any(self.is_kept(player) and player.trains for player, _ in learners)
        if not kept_here and record_context is None:
            return [_learn_in_memory(player, side, records) for player, side in learners]
        results: list[Kept] = []
        with self.store.transaction():
            for player, side in learners:
                if not (self.is_kept(player) and player.trains) or _memory_path(player) is not None:
                    results.append(_learn_in_memory(player, side, records))
                    continue
                try:
                    stored = self.stored(player)
                    if stored is not None:
                        player.load(stored)
                except ValueError as error:
                    raise ValueError(f"{self.describe_slot(player)}: {error}") from None
                before = stored if stored is not None else player.knowledge()
                for record in records:
                    player.learn(record, side)
                after = player.knowledge()
                self._write(player, before if stored is not None else None, after)
                results.append(Kept(side, player, player.lesson(before, after)))
            if record_context is not None:
                for record in records:
                    self.store.add_record(record, owner=self.owner, context=record_context)
        return results

    def teach_memory(
        self,
        name: str,
        lessons: Iterable[tuple[Sequence[int], int]],
        cached: tuple[float | None, ThesisMemory] | None = None,
    ) -> ThesisMemory:
        """Apply thesis-engine lessons to the latest stored thesis memory ``name``, in one
        transaction (the caller's, when it holds one: a batch saves its memories, score and
        result together): reload, learn each lesson in order, write the changed records; a name
        not kept yet is created.  A lesson is the boards after plies 9.. of a won game (keys) and
        the side (+1/-1) it is learned as won by, as ``Memory.learn`` takes them.

        ``cached`` is (version, memory) of what the caller last got back, with the version
        :meth:`memory_version` gave after its transaction committed: when the store's version
        is still that one, nobody wrote since, and the reload is skipped (a large memory is not
        read again every few seconds).  Returns the memory as written.
        """
        from .players.thesis.memory import Memory

        with self.store.transaction():
            version = self.store.memory_version(name, owner=self.owner)
            if cached is not None and version is not None and cached[0] == version:
                memory = cached[1]
            else:  # another process wrote it since (or nothing is cached): reload
                memory = Memory(self.store.load_memory(name, owner=self.owner) or [])
            for boards, winner in lessons:
                memory.learn(boards, winner)
            changes = memory.take_changes()
            if version is None:
                self.store.save_memory(name, list(memory.entries()), owner=self.owner)
            elif changes:
                self.store.update_memory(name, changes, owner=self.owner)
        return memory

    def memory_version(self, name: str) -> float | None:
        """When thesis memory ``name`` was last written (None: not kept); see :meth:`teach_memory`."""
        return self.store.memory_version(name, owner=self.owner)

    def save(self, learner: Learner, replace: bool = True) -> None:
        """Write what ``learner`` knows now under its name (an import, a training run's result),
        in one transaction.  Without ``replace`` a learner already kept under that name is
        refused (ValueError), checked inside the same transaction as the write, so of two
        imports under one name exactly one wins."""
        name = learner.keep_name()
        if name is None:
            raise ValueError(f"this {learner.kind} has no name to be kept under")
        with self.store.transaction():
            if not replace and self.exists(learner):
                raise ValueError(f"a {learner.kind} named {name!r} is already in the store (use --replace, or --name)")
            self._write(learner, None, learner.knowledge())

    @contextmanager
    def writing_whole(self, learner: Learner) -> Iterator[None]:
        """Hold ``learner``'s name for a run that rewrites its whole knowledge as it goes (a
        training run: network weights cannot be merged as counts can), or refuse at once in one
        line (ValueError) when another process holds it: of two trainers of one name the second
        is refused, instead of the last writer silently undoing the first one's work.  An
        exclusive ``flock`` on a lock file beside the store, which the kernel releases when its
        process dies (SIGKILL included), so a crash never leaves a name held."""
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
            yield
        finally:
            lock.release()

    def exists(self, learner: Learner) -> bool:
        """True if something is kept under ``learner``'s name (read, not checked)."""
        name = learner.keep_name()
        if name is None:
            return False
        if learner.knowledge_format == "thesis-memory":
            return name in self.store.list_memories(owner=self.owner)
        return (learner.keep_kind(), name) in self.store.list_learners(learner.keep_kind(), owner=self.owner)

    def forget(self, learner: Learner) -> bool:
        """Delete what is kept under ``learner``'s name; True if something was."""
        name = learner.keep_name()
        if name is None:
            return False
        if learner.knowledge_format == "thesis-memory":
            return self.store.delete_memory(name, owner=self.owner)
        return self.store.delete_learner(learner.keep_kind(), name, owner=self.owner)

    def _write(self, learner: Learner, before: Any | None, after: Any) -> None:
        name = learner.keep_name()
        assert name is not None  # only kept learners are written
        if learner.knowledge_format != "thesis-memory":
            self.store.save_learner(learner.keep_kind(), name, after, owner=self.owner)
            return
        entries = [(str(board), int(x), int(o)) for board, x, o in after]
        if before is None:
            self.store.save_memory(name, entries, owner=self.owner)
            return
        old = [tuple(entry) for entry in before]
        # The memory only grows and changes in place (a board keeps its record number), so only
        # the records that differ are written: a 10,000-game memory is not rewritten per game.
        changes = {i: entry for i, entry in enumerate(entries) if i >= len(old) or tuple(old[i]) != entry}
        if changes:
            self.store.update_memory(name, changes, owner=self.owner)


def _learn_in_memory(player: Learner, side: int | None, records: list[GameRecord]) -> Kept:
    before = player.knowledge()
    for record in records:
        player.learn(record, side)
    after = player.knowledge()
    return Kept(side, player, player.lesson(before, after))


def _memory_path(player: object) -> Path | None:
    path = getattr(player, "memory_path", None)
    return Path(path) if path else None


_DEFAULT: dict[str, Keeper] = {}
_DEFAULT_LOCK = threading.Lock()


def default_keeper() -> Keeper:
    """The keeper of the default store ($GAMELEARN_HOME's database), one per data directory."""
    from .store.db import default_store_path

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
    from .store.db import default_store_path

    path = str(default_store_path())
    with _DEFAULT_LOCK:
        keeper = _READING.get(path)
        if keeper is None:
            keeper = _READING[path] = Keeper(Store(path, readonly=True))
        return keeper


def load_player(game: Any, spec: str, seed: int | None = None, keeper: Keeper | None = None) -> Any:
    """``make_player`` for a player that may be kept: a learner named in the spec comes loaded
    with what the store (``keeper``'s, else the default one) keeps under its name."""
    return (keeper if keeper is not None else default_keeper()).load_player(game, spec, seed=seed)
