"""The SQLite file under the store: opening it (checked writable, or read-only), reading it whole,
and the transactions every write runs in, each failure named by its real cause
(:mod:`gamelearn.store.failures`).  The tables' reads and writes are
:class:`gamelearn.store.store.Store`'s."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from ..files import path_problem, remove_stale_temporaries
from ..paths import data_dir
from .failures import (
    BUSY_SLICE_SECONDS,
    LOCK_WAIT_SECONDS,
    StoreError,
    StoreFull,
    StoreLocked,
    _cannot_make,
    _disk_full,
    _folder_problem,
    _read_only_reason,
    _test_pause_after_commit,
    damaged,
    describe_failure,
    disk_full,
    is_disk_full,
)

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS learners (
    owner TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL,
    payload TEXT NOT NULL, updated REAL NOT NULL,
    PRIMARY KEY (owner, kind, name));
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY AUTOINCREMENT, owner TEXT NOT NULL, context TEXT NOT NULL,
    game TEXT NOT NULL, players TEXT NOT NULL, moves TEXT NOT NULL, winner INTEGER,
    end_reason TEXT NOT NULL, plies INTEGER NOT NULL, seed INTEGER, created REAL NOT NULL);
CREATE INDEX IF NOT EXISTS records_by_owner ON records (owner, game, context);
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY AUTOINCREMENT, experiment TEXT NOT NULL,
    payload TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS web_games (
    owner TEXT NOT NULL, id TEXT NOT NULL, game TEXT NOT NULL, payload TEXT NOT NULL,
    finished INTEGER NOT NULL, updated REAL NOT NULL,
    PRIMARY KEY (owner, id));
CREATE TABLE IF NOT EXISTS web_shares (
    token TEXT PRIMARY KEY, owner TEXT NOT NULL, source TEXT NOT NULL, record INTEGER NOT NULL,
    created REAL NOT NULL, UNIQUE (owner, source));
CREATE TABLE IF NOT EXISTS chart_starts (
    owner TEXT NOT NULL, learner TEXT NOT NULL, game TEXT NOT NULL, after_record INTEGER NOT NULL,
    PRIMARY KEY (owner, learner, game));
CREATE TABLE IF NOT EXISTS leases (
    owner TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, pid INTEGER NOT NULL,
    taken REAL NOT NULL, PRIMARY KEY (owner, kind, name));
CREATE TABLE IF NOT EXISTS lease_starts (
    owner TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, pid INTEGER NOT NULL,
    started TEXT NOT NULL, PRIMARY KEY (owner, kind, name));
"""
#: The tables a package outside the store keeps in it (the thesis program's memories), each
#: registered once by that package (:func:`register_tables`) and made with the store's own.
_REGISTERED: list[str] = []


def register_tables(schema: str) -> None:
    """Keep the tables ``schema`` creates (``CREATE TABLE IF NOT EXISTS`` statements, ';' between
    them) in every store: made with the store's own tables in a store opened from now on, and by
    :meth:`Database.make_registered_tables` in one opened before."""
    if schema not in _REGISTERED:
        _REGISTERED.append(schema)


def _statements(schemas: list[str] | None = None) -> Iterator[str]:
    """The statements of ``schemas``; by default the store's own tables, then the registered ones."""
    for schema in [_SCHEMA, *_REGISTERED] if schemas is None else schemas:
        yield from (statement for statement in schema.strip().split(";") if statement.strip())


#: A chart's reset in a store written without chart_starts: a learner of this kind named
#: LEARNER-GAME, moved into chart_starts when the store is opened.
_OLD_CHART_RESET_KIND = "web-chart-reset"


def _refuse_what_is_no_file(path: Path) -> None:
    """Refuse a store whose file, ``-wal`` or ``-shm`` is no file (:func:`files.path_problem`:
    a FIFO, which SQLite's open would wait on for ever; ``/dev/zero`` or ``/dev/null``, which read
    as an empty store; a folder; a link that leads nowhere or in a loop), in one line naming it,
    before SQLite opens anything."""
    for each, shown in (
        (path, "it"),
        *((path.with_name(path.name + end), f"its {path.name}{end}") for end in ("-wal", "-shm")),
    ):
        problem = path_problem(each)
        if problem:
            raise StoreError(f"cannot open the store {path}: {shown} {problem}")


def _refuse_empty_file(path: Path) -> None:
    """A store file of 0 bytes is damaged: SQLite would read it as a new, empty store, and what it
    held would be silently forgotten (a file cut short, or copied while written)."""
    try:
        info = path.stat()
    except OSError:
        return
    if info.st_size == 0 and path.is_file():
        wal = path.with_name(path.name + "-wal")
        held = f"; its {wal.name} holds the latest writes: keep it with the file" if wal.exists() else ""
        raise StoreError(damaged(path, f"it is 0 bytes long: cut short, or never written{held}"))


#: SQLite's files beside a database in WAL mode (https://sqlite.org/wal.html).
_COMPANIONS = ("-wal", "-shm")


def _create_whole(path: Path, pause: float = 0.0) -> None:
    """Make a store that does not exist yet whole, beside it, and link it into place: a store file
    is never seen 0 bytes long while another process creates it, so a 0-byte one is damaged (of
    two processes creating one store, the first link wins and the other's copy is dropped).
    Where this cannot be done (no hard links, a folder that refuses the file) SQLite makes it.

    What a process killed meanwhile leaves (``.NAME.<pid>-<random>.tmp`` and its ``-wal`` and
    ``-shm``) is removed by the next process that opens the store (:func:`_clear_dead_creations`);
    ``pause`` is the test hook's (docs/store.md, 2): a sleep after the new store's last COMMIT,
    before it is linked into place, for a test's signal to land in."""
    if path.exists():
        return
    temporary = path.with_name(f".{path.name}.{os.getpid():x}-{os.urandom(6).hex()}.tmp")
    try:
        db = sqlite3.connect(temporary, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            for statement in _statements():
                db.execute(statement)
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            if pause:
                time.sleep(pause)
        finally:
            db.close()  # the last connection: the log is checkpointed into the file and removed
        os.link(temporary, path)
    except (OSError, sqlite3.Error):
        pass  # another process linked its copy first, or no hard links here: SQLite makes it
    finally:
        # the database last: a -wal or -shm left by a kill here always has its .tmp beside it
        for leftover in (*(temporary.with_name(temporary.name + end) for end in _COMPANIONS), temporary):
            leftover.unlink(missing_ok=True)


def _clear_dead_creations(path: Path) -> None:
    """Remove what a process killed while it created the store left beside it (the temporary
    database of :func:`_create_whole` and its ``-wal`` and ``-shm``): of a process that no longer
    runs, or over an hour old (:func:`files.remove_stale_temporaries`).  Best effort: a folder that
    cannot be written keeps them, and nothing else is ever touched."""
    remove_stale_temporaries(path, companions=_COMPANIONS)


def default_store_path() -> Path:
    return data_dir() / "gamelearn.sqlite3"


class Database:
    """One SQLite connection to the store's file.  Safe to share between threads (the connection
    is serialised by a lock).

    ``readonly=True`` opens it with SQLite's ``mode=ro``: every read works on a store that cannot
    be written (a read-only file, folder or file system), and a store that does not exist yet reads
    as empty (nothing is created).  A writable store (the default) is checked writable when it is
    opened, so that a long run is refused before it plays, not after.  Every failure is a
    :class:`StoreError` naming its real cause.
    """

    def __init__(
        self, path: str | Path | None = None, readonly: bool = False, lock_wait: float = LOCK_WAIT_SECONDS
    ) -> None:
        self.path = Path(path) if path is not None else default_store_path()
        self.readonly = readonly
        self.lock_wait = lock_wait
        self._lock = threading.RLock()
        self._depth = 0
        self._made = 0  # how many of the registered schemas this store has made (_create_schema)
        self._in_memory = False
        self._pause_after_commit = _test_pause_after_commit()
        problem = _folder_problem(self.path.parent)
        if problem:
            raise StoreError(f"cannot open the store {self.path}: {problem}")
        _refuse_what_is_no_file(self.path)
        _clear_dead_creations(self.path)
        _refuse_empty_file(self.path)
        if readonly:
            self._db = self._open_read_only()
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            reason = _cannot_make(self.path.parent)
            if reason or error.errno == errno.ENOENT:
                raise StoreError(
                    f"cannot open the store {self.path}: the folder {self.path.parent} is missing and cannot be "
                    f"made ({reason or error.strerror})"
                ) from None
            raise self._failure(error) from None
        _create_whole(self.path, self._pause_after_commit)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=self.lock_wait)
        except sqlite3.Error as error:
            raise self._failure(error) from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            # FULL, not WAL's default NORMAL: a COMMIT is on disk when it returns, so a committed
            # transaction survives a power loss too (https://sqlite.org/pragma.html#pragma_synchronous)
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._bound_the_log()
            with self.transaction():
                self._create_schema()
            # A write that is rolled back: SQLite opens a file it may not write read-only without
            # a word, so this is where a read-only store is found, before any work is done.
            self._begin()
            try:
                self._db.execute("INSERT OR REPLACE INTO meta VALUES ('writable', '1')")
            finally:
                self._db.execute("ROLLBACK")
            if _disk_full(self.path.parent):
                self._checkpoint()  # the WAL of an earlier run that met a full disk may be what fills it
                if _disk_full(self.path.parent):
                    raise StoreFull(disk_full(self.path))
        except sqlite3.Error as error:
            failure = self._failure(error)
            self._db.close()
            raise failure from None
        except BaseException:
            self._db.close()
            raise

    def _bound_the_log(self) -> None:
        """Keep the write-ahead log to a quarter of the room the disk has now (at most SQLite's
        default, 1,000 pages): it is checkpointed into the database, and cut back to that size,
        whenever it grows past it, so that on a small disk the log never fills what the database
        would fit in (https://sqlite.org/pragma.html#pragma_wal_autocheckpoint)."""
        try:
            free = shutil.disk_usage(self.path.parent).free
        except OSError:
            return
        page = int(self._db.execute("PRAGMA page_size").fetchone()[0])
        pages = max(16, min(1000, free // 4 // page))
        self._db.execute(f"PRAGMA wal_autocheckpoint={pages}")
        self._db.execute(f"PRAGMA journal_size_limit={pages * page}")

    def _create_schema(self) -> None:
        for statement in _statements():
            self._db.execute(statement)
        self._made = len(_REGISTERED)
        row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: made by a newer gamelearn (schema {row[0]})")
        if not self.readonly:
            self._move_chart_resets()

    def _move_chart_resets(self) -> None:
        """Move the chart resets an older gamelearn kept as learners into chart_starts (once: the
        rows it moves are gone from learners)."""
        rows = self._db.execute(
            "SELECT owner, name, payload FROM learners WHERE kind=?", (_OLD_CHART_RESET_KIND,)
        ).fetchall()
        for owner, name, payload in rows:
            learner, _, game = name.partition("-")
            after = int(json.loads(payload).get("after_record", 0))
            self._db.execute("INSERT OR REPLACE INTO chart_starts VALUES (?, ?, ?, ?)", (owner, learner, game, after))
        self._db.execute("DELETE FROM learners WHERE kind=?", (_OLD_CHART_RESET_KIND,))

    def _connect_read_only(self) -> tuple[sqlite3.Connection, set[str]]:
        """A ``mode=ro`` connection and the tables it sees.

        A WAL database needs its ``-shm`` file to be read; where that cannot be created (a
        read-only folder or file system, and no ``-shm`` left there) SQLite refuses, and the store
        is opened ``immutable=1``: nothing can write a store there, so nothing can change under us
        (SQLite's "Read-Only Databases", https://sqlite.org/wal.html).
        """
        base = self.path.absolute().as_uri()
        last: sqlite3.Error | None = None
        for query in ("mode=ro", "mode=ro&immutable=1"):
            if "immutable" in query and not _read_only_reason(self.path):
                break
            db = sqlite3.connect(
                f"{base}?{query}",
                uri=True,
                isolation_level=None,
                check_same_thread=False,
                timeout=self.lock_wait,  # a read waits as long as it says it did
            )
            try:
                tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            except sqlite3.Error as error:
                db.close()
                last = error
                if (getattr(error, "sqlite_errorcode", 0) & 0xFF) != sqlite3.SQLITE_CANTOPEN:
                    raise
                continue
            return db, tables
        assert last is not None
        raise last

    def _open_read_only(self) -> sqlite3.Connection:
        """``mode=ro``; a store not made yet reads as an empty one, held in memory."""
        empty = not self.path.exists()
        if not self.path.parent.exists():  # missing: an empty store, unless no store could ever be there
            reason = _cannot_make(self.path.parent)
            if reason:
                raise StoreError(
                    f"cannot open the store {self.path}: the folder {self.path.parent} is missing and cannot be "
                    f"made ({reason})"
                )
        if not empty:
            try:
                db, tables = self._connect_read_only()
            except sqlite3.Error as error:
                raise self._failure(error) from None
            if "meta" in tables:
                try:
                    row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                except sqlite3.Error as error:
                    db.close()
                    raise self._failure(error) from None
                if row is not None and int(row[0]) > SCHEMA_VERSION:
                    db.close()
                    raise StoreError(f"{self.path}: made by a newer gamelearn (schema {row[0]})")
                return db
            db.close()
            if tables:
                raise StoreError(f"{self.path}: not a gamelearn database (it has no gamelearn tables)")
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self._db = db
        self._in_memory = True  # an empty store held in memory: registered tables are made in it
        self._create_schema()
        return db

    def check(self) -> None:
        """Read every page of the store (``PRAGMA quick_check``): a damaged file is named before a
        command does its work, not when a write first touches the damaged page after it."""
        with self._reading() as db:
            rows = [row[0] for row in db.execute("PRAGMA quick_check(5)").fetchall()]
        if rows != ["ok"]:
            raise StoreError(damaged(self.path, "; ".join(str(row) for row in rows)))

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``) for everything inside; nested uses join the
        outer one.  A failure of the store itself is a :class:`StoreError` naming its cause."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self._db
                finally:
                    self._depth -= 1
                return
            if self.readonly:
                raise StoreError(f"the store {self.path} was opened read-only")
            self._begin()
            self._depth = 1
            try:
                yield self._db
            except sqlite3.Error as error:
                self._rollback()
                raise self._failure(error) from None
            except BaseException as error:
                self._rollback()
                if isinstance(error, StoreFull):  # a read inside that met the full disk
                    self._checkpoint()
                raise
            else:
                try:
                    self._db.execute("COMMIT")
                except sqlite3.Error as error:
                    self._rollback()
                    raise self._failure(error) from None
                if self._pause_after_commit:  # a test's window after COMMIT (see _test_pause_after_commit)
                    time.sleep(self._pause_after_commit)
            finally:
                self._depth = 0

    def _begin(self) -> None:
        """``BEGIN IMMEDIATE``, waiting while other processes' writes hold the lock.

        SQLite's own wait polls, and is not fair: with many writers one of them can lose every
        race for longer than any fixed wait, though every other writer makes progress.  So each
        attempt waits :data:`BUSY_SLICE_SECONDS`, and the wait goes on as long as other writes
        keep finishing (``PRAGMA data_version`` changes); only a lock held with no write finishing
        for ``lock_wait`` seconds (a stuck or paused process) is reported.
        """
        version: int | None = None
        changed = time.monotonic()
        self._db.execute(f"PRAGMA busy_timeout={int(1000 * min(self.lock_wait, BUSY_SLICE_SECONDS))}")
        try:
            while True:
                try:
                    self._db.execute("BEGIN IMMEDIATE")
                    return
                except sqlite3.Error as error:
                    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
                    if code not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                        raise self._failure(error) from None
                    now_version: int | None
                    try:
                        now_version = int(self._db.execute("PRAGMA data_version").fetchone()[0])
                    except sqlite3.Error:
                        now_version = version
                    now = time.monotonic()
                    if now_version != version:
                        version, changed = now_version, now
                    elif now - changed >= self.lock_wait:
                        raise StoreLocked(describe_failure(self.path, error, self.lock_wait)) from None
        finally:
            self._db.execute(f"PRAGMA busy_timeout={int(1000 * self.lock_wait)}")  # a read waits all of it

    def _failure(self, error: BaseException) -> StoreError:
        """The StoreError naming ``error``'s cause; a full disk (:class:`StoreFull`), outside a
        transaction, has the write-ahead log checkpointed first, so that the room its pages took
        is given back and the next write can succeed once a little room is made."""
        if is_disk_full(self.path, error):
            try:
                idle = not self._db.in_transaction
            except (AttributeError, sqlite3.ProgrammingError):  # not opened, or closed: nothing to checkpoint
                idle = False
            if idle:
                self._checkpoint()
            return StoreFull(disk_full(self.path))
        return StoreError(describe_failure(self.path, error, self.lock_wait))

    def _checkpoint(self) -> None:
        """Copy the write-ahead log into the database and empty it (``wal_checkpoint(TRUNCATE)``):
        what was committed stays committed, and the ``-wal`` file shrinks to nothing.  Best effort:
        a checkpoint that cannot run now (a reader holds an old snapshot) changes nothing."""
        try:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error:
            pass

    def _rollback(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def make_registered_tables(self) -> None:
        """Make the tables registered since this store was opened (:func:`register_tables`) where
        it is written; a read-only store reads the tables it has."""
        if self._made >= len(_REGISTERED) or (self.readonly and not self._in_memory):
            return
        # an empty read-only store is held in memory, never written to disk: no transaction of its own
        with self._lock if self.readonly else self.transaction():
            for statement in _statements(_REGISTERED[self._made :]):
                self._db.execute(statement)
            self._made = len(_REGISTERED)

    def reading(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """The connection for a read (under the store's lock), its failures named as a
        transaction's are: the reads of the tables a package registers, made by that package."""
        return self._reading()

    def iter_rows(self, query: str, args: tuple[object, ...], batch: int = 10000) -> Iterator[tuple[Any, ...]]:
        """The rows ``query`` selects, ``batch`` at a time (memory stays bounded for a read of any
        size), read in one transaction, so a writer in between changes nothing of what is read."""
        with self._lock:
            cursor = self._db.cursor()
            own = not self._db.in_transaction
            try:
                if own:
                    cursor.execute("BEGIN")
                cursor.execute(query, args)
                while rows := cursor.fetchmany(batch):
                    yield from rows
            except sqlite3.Error as error:
                raise StoreError(describe_failure(self.path, error, self.lock_wait)) from None
            finally:
                cursor.close()
                if own and self._db.in_transaction:
                    self._db.execute("ROLLBACK")  # a read: nothing to keep

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection for a read, its failures named as a transaction's are."""
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as error:
                raise self._failure(error) from None
