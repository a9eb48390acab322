"""The SQLite store: learners' memories, game records and experiment results.

One database file under the data directory.  Every write is one transaction, so a crash loses at
most the game in progress, never a memory.  ``owner`` separates people (the web app's browser id;
"local" for the command line): one owner can neither read nor change another's rows.

Teeko thesis memories are stored entry by entry with their position in the file, because the
thesis's recall breaks ties by "the earliest in the file" (Despotović 1999): the order is
data, not an accident of storage.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..paths import data_dir

if TYPE_CHECKING:
    from ..match import GameRecord

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
    if not isinstance(board, str) or len(board) != 25 or set(board) - set("012"):
        raise ValueError(f"a memory board is 25 digits 0/1/2, not {board!r}")
    for count in (x_wins, o_wins):
        if not isinstance(count, int) or count < 0:
            raise ValueError(f"a memory count is a whole number >= 0, not {count!r}")
    return board, x_wins, o_wins


class Store:
    """The database.  Safe to share between threads (one connection, serialised by a lock)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_store_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._depth = 0
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self.transaction():
                for statement in _SCHEMA.strip().split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row is None:
                    self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
                elif int(row[0]) > SCHEMA_VERSION:
                    raise ValueError(f"{self.path}: made by a newer gamelearn (schema {row[0]})")
        except sqlite3.DatabaseError as error:
            raise ValueError(f"{self.path}: not a gamelearn database ({error})") from None

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One transaction for everything inside; nested uses join the outer one."""
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self._db
                finally:
                    self._depth -= 1
                return
            self._db.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            else:
                self._db.execute("COMMIT")
            finally:
                self._depth = 0

    # Learners (any JSON payload) --------------------------------------------------------------

    def save_learner(self, kind: str, name: str, payload: dict[str, Any], owner: str = "local") -> None:
        _check_name("a learner kind", kind)
        _check_name("a learner name", name)
        text = json.dumps(payload, separators=(",", ":"))
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO learners VALUES (?, ?, ?, ?, ?)", (owner, kind, name, text, time.time()))

    def load_learner(self, kind: str, name: str, owner: str = "local") -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT payload FROM learners WHERE owner=? AND kind=? AND name=?", (owner, kind, name)
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def delete_learner(self, kind: str, name: str, owner: str = "local") -> bool:
        with self.transaction() as db:
            cursor = db.execute("DELETE FROM learners WHERE owner=? AND kind=? AND name=?", (owner, kind, name))
        return cursor.rowcount > 0

    def list_learners(self, kind: str | None = None, owner: str = "local") -> list[tuple[str, str]]:
        with self._lock:
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
        with self._lock:
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

    def results(self, experiment: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT payload FROM results WHERE experiment=? ORDER BY id", (experiment,)
            ).fetchall()
        return [json.loads(row[0]) for row in rows]

    # Teeko thesis memories --------------------------------------------------------------------

    def save_memory(self, name: str, entries: list[MemoryEntry], owner: str = "local") -> None:
        """Replace the memory ``name`` with ``entries`` (in file order), atomically."""
        _check_name("a memory name", name)
        rows = [(owner, name, index, *_check_entry(entry)) for index, entry in enumerate(entries)]
        with self.transaction() as db:
            db.execute("DELETE FROM memory_entries WHERE owner=? AND name=?", (owner, name))
            db.execute("INSERT OR REPLACE INTO memories VALUES (?, ?, ?)", (owner, name, time.time()))
            db.executemany("INSERT INTO memory_entries VALUES (?, ?, ?, ?, ?, ?)", rows)

    def load_memory(self, name: str, owner: str = "local") -> list[MemoryEntry] | None:
        with self._lock:
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
        with self._lock:
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
