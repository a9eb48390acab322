"""The SQLite store: learners' memories, game records and experiment results.

One database file under the data directory.  Every write is one transaction, so a crash loses at
most the game in progress, never a memory.  ``owner`` separates people (the web app's browser id;
"local" for the command line): one owner can neither read nor change another's rows.

Teeko thesis memories are stored entry by entry with their position in the file, because the
thesis's recall breaks ties by "the earliest in the file" (Despotović 1999): the order is
data, not an accident of storage.
"""

from __future__ import annotations

import errno
import json
import re
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..paths import data_dir
from .failures import (
    BUSY_SLICE_SECONDS,
    LOCK_WAIT_SECONDS,
    StoreError,
    StoreLocked,
    _cannot_make,
    _disk_full,
    _folder_problem,
    _read_only_reason,
    _test_pause_after_commit,
    damaged,
    describe_failure,
)

if TYPE_CHECKING:
    from ..games.record import GameRecord

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
CREATE TABLE IF NOT EXISTS memories (
    owner TEXT NOT NULL, name TEXT NOT NULL, updated REAL NOT NULL,
    PRIMARY KEY (owner, name));
CREATE TABLE IF NOT EXISTS memory_entries (
    owner TEXT NOT NULL, name TEXT NOT NULL, position INTEGER NOT NULL,
    board TEXT NOT NULL, x_wins INTEGER NOT NULL, o_wins INTEGER NOT NULL,
    PRIMARY KEY (owner, name, position));
CREATE TABLE IF NOT EXISTS web_games (
    owner TEXT NOT NULL, id TEXT NOT NULL, game TEXT NOT NULL, payload TEXT NOT NULL,
    finished INTEGER NOT NULL, updated REAL NOT NULL,
    PRIMARY KEY (owner, id));
"""

MemoryEntry = tuple[str, int, int]
_BOARD = re.compile("[012]{25}")


def default_store_path() -> Path:
    return data_dir() / "gamelearn.sqlite3"


def _check_name(what: str, value: str) -> None:
    if not isinstance(value, str) or not value or len(value) > 200:
        raise ValueError(f"{what} must be a non-empty name of at most 200 characters, not {value!r}")


def _check_entry(entry: Any) -> MemoryEntry:
    try:
        board, x_wins, o_wins = entry
    except (TypeError, ValueError):
        raise ValueError(f"a memory entry is (board, x_wins, o_wins), not {entry!r}") from None
    if not isinstance(board, str) or _BOARD.fullmatch(board) is None:
        raise ValueError(f"a memory board is 25 digits 0/1/2, not {board!r}")
    for count in (x_wins, o_wins):
        if not isinstance(count, int) or count < 0:
            raise ValueError(f"a memory count is a whole number >= 0, not {count!r}")
    return board, x_wins, o_wins


def check_store(path: str | Path | None = None, readonly: bool = False) -> None:
    """Open the store as a command will and read it whole, then close it: a :class:`StoreError`
    names the real cause (missing and cannot be made, read-only, locked, damaged, not a database)
    before any work is done."""
    with Store(path, readonly=readonly) as store:
        store.check()


class Store:
    """The database.  Safe to share between threads (one connection, serialised by a lock).

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
        self._pause_after_commit = _test_pause_after_commit()
        problem = _folder_problem(self.path.parent)
        if problem:
            raise StoreError(f"cannot open the store {self.path}: {problem}")
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
            raise StoreError(describe_failure(self.path, error, self.lock_wait)) from None
        try:
            self._db = sqlite3.connect(
                self.path,
                isolation_level=None,
                check_same_thread=False,
                timeout=min(self.lock_wait, BUSY_SLICE_SECONDS),
            )
        except sqlite3.Error as error:
            raise StoreError(describe_failure(self.path, error, self.lock_wait)) from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            # FULL, not WAL's default NORMAL: a COMMIT is on disk when it returns, so a committed
            # transaction survives a power loss too (https://sqlite.org/pragma.html#pragma_synchronous)
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
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
                raise StoreError(f"cannot write the store {self.path}: the disk is full")
        except sqlite3.Error as error:
            self._db.close()
            raise StoreError(describe_failure(self.path, error, self.lock_wait)) from None
        except BaseException:
            self._db.close()
            raise

    def _create_schema(self) -> None:
        for statement in _SCHEMA.strip().split(";"):
            if statement.strip():
                self._db.execute(statement)
        row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: made by a newer gamelearn (schema {row[0]})")

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
                timeout=min(self.lock_wait, BUSY_SLICE_SECONDS),
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
        empty = not self.path.exists() or (self.path.is_file() and self.path.stat().st_size == 0)
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
                raise StoreError(describe_failure(self.path, error, self.lock_wait)) from None
            if "meta" in tables:
                try:
                    row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                except sqlite3.Error as error:
                    db.close()
                    raise StoreError(describe_failure(self.path, error, self.lock_wait)) from None
                if row is not None and int(row[0]) > SCHEMA_VERSION:
                    db.close()
                    raise StoreError(f"{self.path}: made by a newer gamelearn (schema {row[0]})")
                return db
            db.close()
            if tables:
                raise StoreError(f"{self.path}: not a gamelearn database (it has no gamelearn tables)")
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        self._db = db
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

    def __enter__(self) -> Store:
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
                raise StoreError(describe_failure(self.path, error, self.lock_wait)) from None
            except BaseException:
                self._rollback()
                raise
            else:
                try:
                    self._db.execute("COMMIT")
                except sqlite3.Error as error:
                    self._rollback()
                    raise StoreError(describe_failure(self.path, error, self.lock_wait)) from None
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
        while True:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.Error as error:
                code = getattr(error, "sqlite_errorcode", 0) & 0xFF
                if code not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                    raise StoreError(describe_failure(self.path, error, self.lock_wait)) from None
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

    def _rollback(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection for a read, its failures named as a transaction's are."""
        with self._lock:
            try:
                yield self._db
            except sqlite3.Error as error:
                raise StoreError(describe_failure(self.path, error, self.lock_wait)) from None

    # Learners (any JSON payload) --------------------------------------------------------------

    def save_learner(self, kind: str, name: str, payload: dict[str, Any], owner: str = "local") -> None:
        _check_name("a learner kind", kind)
        _check_name("a learner name", name)
        text = json.dumps(payload, separators=(",", ":"))
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO learners VALUES (?, ?, ?, ?, ?)", (owner, kind, name, text, time.time()))

    def load_learner(self, kind: str, name: str, owner: str = "local") -> dict[str, Any] | None:
        with self._reading():
            row = self._db.execute(
                "SELECT payload FROM learners WHERE owner=? AND kind=? AND name=?", (owner, kind, name)
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def delete_learner(self, kind: str, name: str, owner: str = "local") -> bool:
        with self.transaction() as db:
            cursor = db.execute("DELETE FROM learners WHERE owner=? AND kind=? AND name=?", (owner, kind, name))
        return cursor.rowcount > 0

    def list_learners(self, kind: str | None = None, owner: str = "local") -> list[tuple[str, str]]:
        with self._reading():
            if kind is None:
                rows = self._db.execute("SELECT kind, name FROM learners WHERE owner=? ORDER BY kind, name", (owner,))
            else:
                rows = self._db.execute(
                    "SELECT kind, name FROM learners WHERE owner=? AND kind=? ORDER BY name", (owner, kind)
                )
            return [(k, n) for k, n in rows.fetchall()]

    # Game records -----------------------------------------------------------------------------

    def add_record(self, record: GameRecord, owner: str = "local", context: str = "") -> int:
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO records (owner, context, game, players, moves, winner, end_reason, plies, seed, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    owner,
                    context,
                    record.game,
                    json.dumps(list(record.players)),
                    " ".join(record.moves),
                    record.winner,
                    record.end.value,
                    record.plies,
                    record.seed,
                    time.time(),
                ),
            )
        return int(cursor.lastrowid or 0)

    def records(
        self, game: str | None = None, owner: str = "local", context: str | None = None, limit: int | None = None
    ) -> list[dict[str, Any]]:
        query = "SELECT id, context, game, players, moves, winner, end_reason, plies, seed, created FROM records WHERE owner=?"
        args: list[Any] = [owner]
        if game is not None:
            query += " AND game=?"
            args.append(game)
        if context is not None:
            query += " AND context=?"
            args.append(context)
        query += " ORDER BY id"
        if limit is not None:
            query = f"SELECT * FROM ({query.replace('ORDER BY id', 'ORDER BY id DESC')} LIMIT ?) ORDER BY id"
            args.append(int(limit))
        with self._reading():
            rows = self._db.execute(query, args).fetchall()
        keys = ("id", "context", "game", "players", "moves", "winner", "end", "plies", "seed", "created")
        result = []
        for row in rows:
            item = dict(zip(keys, row, strict=True))
            item["players"] = json.loads(item["players"])
            item["moves"] = item["moves"].split() if item["moves"] else []
            result.append(item)
        return result

    # Experiment results -----------------------------------------------------------------------

    def save_result(self, experiment: str, payload: dict[str, Any]) -> int:
        _check_name("an experiment name", experiment)
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT INTO results (experiment, payload, created) VALUES (?, ?, ?)",
                (experiment, json.dumps(payload), time.time()),
            )
        return int(cursor.lastrowid or 0)

    def update_result(self, result_id: int, payload: dict[str, Any]) -> None:
        """Replace the payload of result ``result_id`` (a run that saves its progress as it goes)."""
        with self.transaction() as db:
            cursor = db.execute("UPDATE results SET payload=? WHERE id=?", (json.dumps(payload), int(result_id)))
            if cursor.rowcount != 1:
                raise StoreError(f"the store {self.path} has no result #{result_id}")

    def result(self, result_id: int) -> dict[str, Any] | None:
        """The payload of result ``result_id`` (None if there is none)."""
        with self._reading() as db:
            row = db.execute("SELECT payload FROM results WHERE id=?", (int(result_id),)).fetchone()
        return None if row is None else json.loads(row[0])

    def results(self, experiment: str) -> list[dict[str, Any]]:
        with self._reading():
            rows = self._db.execute(
                "SELECT payload FROM results WHERE experiment=? ORDER BY id", (experiment,)
            ).fetchall()
        return [json.loads(row[0]) for row in rows]

    # Teeko thesis memories --------------------------------------------------------------------

    def save_memory(self, name: str, entries: Iterable[MemoryEntry], owner: str = "local") -> None:
        """Replace the memory ``name`` with ``entries`` (in file order), atomically.

        ``entries`` may be a stream (an iterator): it is written as it comes, so memory stays
        bounded; an error raised while it is consumed rolls everything back."""
        _check_name("a memory name", name)
        rows = ((owner, name, index, *_check_entry(entry)) for index, entry in enumerate(entries))
        with self.transaction() as db:
            db.execute("DELETE FROM memory_entries WHERE owner=? AND name=?", (owner, name))
            db.execute("INSERT OR REPLACE INTO memories VALUES (?, ?, ?)", (owner, name, time.time()))
            db.executemany("INSERT INTO memory_entries VALUES (?, ?, ?, ?, ?, ?)", rows)

    def memory_version(self, name: str, owner: str = "local") -> float | None:
        """When memory ``name`` was last written (None if there is none): equal versions, equal contents."""
        with self._reading() as db:
            row = db.execute("SELECT updated FROM memories WHERE owner=? AND name=?", (owner, name)).fetchone()
        return None if row is None else float(row[0])

    def has_memory(self, name: str, owner: str = "local") -> bool:
        with self._reading() as db:
            return db.execute("SELECT 1 FROM memories WHERE owner=? AND name=?", (owner, name)).fetchone() is not None

    def iter_memory(self, name: str, owner: str = "local", batch: int = 10000) -> Iterator[MemoryEntry]:
        """The entries of memory ``name`` in order, ``batch`` rows at a time (memory stays bounded
        for an export of any size); nothing if there is no such memory.  Read in one transaction,
        so a writer in between changes nothing of what is read."""
        with self._lock:
            cursor = self._db.cursor()
            own = not self._db.in_transaction
            try:
                if own:
                    cursor.execute("BEGIN")
                cursor.execute(
                    "SELECT board, x_wins, o_wins FROM memory_entries WHERE owner=? AND name=? ORDER BY position",
                    (owner, name),
                )
                while rows := cursor.fetchmany(batch):
                    yield from rows
            except sqlite3.Error as error:
                raise StoreError(describe_failure(self.path, error, self.lock_wait)) from None
            finally:
                cursor.close()
                if own and self._db.in_transaction:
                    self._db.execute("ROLLBACK")  # a read: nothing to keep

    def load_memory(self, name: str, owner: str = "local") -> list[MemoryEntry] | None:
        with self._reading():
            if self._db.execute("SELECT 1 FROM memories WHERE owner=? AND name=?", (owner, name)).fetchone() is None:
                return None
            rows = self._db.execute(
                "SELECT board, x_wins, o_wins FROM memory_entries WHERE owner=? AND name=? ORDER BY position",
                (owner, name),
            ).fetchall()
        return [(board, x, o) for board, x, o in rows]

    def update_memory(self, name: str, changes: dict[int, MemoryEntry], owner: str = "local") -> None:
        """Write changed entries by position (a position past the end appends), in one transaction."""
        _check_name("a memory name", name)
        rows = [(owner, name, int(position), *_check_entry(entry)) for position, entry in sorted(changes.items())]
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO memories VALUES (?, ?, ?)", (owner, name, time.time()))
            db.executemany("INSERT OR REPLACE INTO memory_entries VALUES (?, ?, ?, ?, ?, ?)", rows)

    def delete_memory(self, name: str, owner: str = "local") -> bool:
        with self.transaction() as db:
            db.execute("DELETE FROM memory_entries WHERE owner=? AND name=?", (owner, name))
            cursor = db.execute("DELETE FROM memories WHERE owner=? AND name=?", (owner, name))
        return cursor.rowcount > 0

    def list_memories(self, owner: str = "local") -> list[str]:
        with self._reading():
            rows = self._db.execute("SELECT name FROM memories WHERE owner=? ORDER BY name", (owner,)).fetchall()
        return [row[0] for row in rows]

    # The web app's games (in progress and lately finished), so a restart resumes them ----------

    def save_web_game(self, owner: str, game_id: str, game: str, payload: dict[str, Any], finished: bool) -> None:
        _check_name("a game id", game_id)
        text = json.dumps(payload, separators=(",", ":"))
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO web_games VALUES (?, ?, ?, ?, ?, ?)",
                (owner, game_id, game, text, int(finished), time.time()),
            )

    def load_web_game(self, owner: str, game_id: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT payload FROM web_games WHERE owner=? AND id=?", (owner, game_id)).fetchone()
        return None if row is None else json.loads(row[0])

    def delete_web_game(self, owner: str, game_id: str) -> bool:
        with self.transaction() as db:
            cursor = db.execute("DELETE FROM web_games WHERE owner=? AND id=?", (owner, game_id))
        return cursor.rowcount > 0

    def web_games(self, owner: str) -> list[tuple[str, str, bool, float]]:
        """(id, game, finished, updated) of the owner's kept games, the latest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game, finished, updated FROM web_games WHERE owner=? ORDER BY updated DESC", (owner,)
            ).fetchall()
        return [(i, g, bool(f), float(u)) for i, g, f, u in rows]

    def forget_web_games(self, older_than: float) -> int:
        """Delete every kept web game not touched since ``older_than`` (a time.time() value)."""
        with self.transaction() as db:
            cursor = db.execute("DELETE FROM web_games WHERE updated < ?", (older_than,))
        return cursor.rowcount
