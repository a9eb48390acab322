"""The store's tables, read and written: learners' knowledge, game records, experiment results
and the web app's games (:class:`Store`); a package may keep tables of its own in the same file
(:func:`~gamelearn.store.database.register_tables`), read and written by that package.

One database file under the data directory (opened, checked and written in transactions by
:mod:`gamelearn.store.database`).  Every write is one transaction, so a crash loses at most the
game in progress, never a memory.  ``owner`` separates people (the web app's browser id; "local"
for the command line): one owner can neither read nor change another's rows.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .database import SCHEMA_VERSION, Database, default_store_path, register_tables
from .failures import StoreError
from .processes import is_process, process_start

if TYPE_CHECKING:
    from ..games.record import GameRecord

__all__ = ["SCHEMA_VERSION", "Store", "StoreError", "check_store", "default_store_path", "register_tables"]


def check_name(what: str, value: str) -> None:
    if not isinstance(value, str) or not value or len(value) > 200:
        raise ValueError(f"{what} must be a non-empty name of at most 200 characters, not {value!r}")


def check_store(path: str | Path | None = None, readonly: bool = False) -> None:
    """Open the store as a command will and read it whole, then close it: a :class:`StoreError`
    names the real cause (missing and cannot be made, read-only, locked, damaged, not a database)
    before any work is done."""
    with Store(path, readonly=readonly) as store:
        store.check()


class Store(Database):
    """The store's tables: learners, game records, experiment results and the web app's games.  Safe to share between threads (one connection, serialised by a lock); see
    :class:`~gamelearn.store.database.Database` for how it is opened (``readonly``) and how its
    failures are named.
    """

    # Learners (any JSON payload) --------------------------------------------------------------

    def save_learner(self, kind: str, name: str, payload: Mapping[str, object], owner: str = "local") -> None:
        check_name("a learner kind", kind)
        check_name("a learner name", name)
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

    # Leases: a learner held by a process that rewrites it whole (a training run) --------------

    def take_lease(self, kind: str, name: str, owner: str = "local", pid: int | None = None) -> None:
        """Mark ``name`` as held by process ``pid`` (this one by default): every lesson of it from
        elsewhere is refused while the lease lasts (:meth:`lease_holder`).  The process is kept
        by its number and by when it started (``lease_starts``, :func:`files.process_start`), so
        that another process given the same number later holds nothing.  (A table of its own, not
        a column of ``leases``: a gamelearn that knows only ``leases`` writes it as it did.)"""
        check_name("a learner kind", kind)
        check_name("a learner name", name)
        pid = os.getpid() if pid is None else int(pid)
        started = process_start(pid)
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO leases VALUES (?, ?, ?, ?, ?)", (owner, kind, name, pid, time.time()))
            if started is None:
                db.execute("DELETE FROM lease_starts WHERE owner=? AND kind=? AND name=?", (owner, kind, name))
            else:
                db.execute(
                    "INSERT OR REPLACE INTO lease_starts VALUES (?, ?, ?, ?, ?)", (owner, kind, name, pid, started)
                )

    def drop_lease(self, kind: str, name: str, owner: str = "local") -> None:
        """End this process's lease of ``name`` (another process's is left alone)."""
        with self.transaction() as db:
            for table in ("leases", "lease_starts"):
                db.execute(
                    f"DELETE FROM {table} WHERE owner=? AND kind=? AND name=? AND pid=?",
                    (owner, kind, name, os.getpid()),
                )

    def lease_holder(self, kind: str, name: str, owner: str = "local") -> int | None:
        """The pid of the running process that holds ``name``'s lease, or None: no lease, or one
        left by a process that has ended (a SIGKILLed trainer), which holds nothing, even once its
        number is given to another process, this one included (:func:`files.is_process`)."""
        key = (owner, kind, name)
        with self._reading() as db:
            try:
                row = db.execute(
                    "SELECT leases.pid, lease_starts.started FROM leases LEFT JOIN lease_starts"
                    " ON lease_starts.owner=leases.owner AND lease_starts.kind=leases.kind"
                    " AND lease_starts.name=leases.name AND lease_starts.pid=leases.pid"
                    " WHERE leases.owner=? AND leases.kind=? AND leases.name=?",
                    key,
                ).fetchone()
            except sqlite3.OperationalError:  # a read-only store an older gamelearn made: fewer tables
                try:
                    row = db.execute("SELECT pid, NULL FROM leases WHERE owner=? AND kind=? AND name=?", key).fetchone()
                except sqlite3.OperationalError:  # older still: no leases table
                    return None
        if row is None:
            return None
        pid, started = int(row[0]), row[1]
        return pid if is_process(pid, started) else None

    # Game records -----------------------------------------------------------------------------

    def add_record(self, record: GameRecord[Hashable], owner: str = "local", context: str = "") -> int:
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

    def record(self, record_id: int, owner: str = "local") -> dict[str, Any] | None:
        """The owner's record numbered ``record_id`` (as :meth:`records` lists it), or None."""
        with self._reading():
            row = self._db.execute(
                "SELECT id, context, game, players, moves, winner, end_reason, plies, seed, created FROM records"
                " WHERE owner=? AND id=?",
                (owner, int(record_id)),
            ).fetchone()
        if row is None:
            return None
        keys = ("id", "context", "game", "players", "moves", "winner", "end", "plies", "seed", "created")
        item = dict(zip(keys, row, strict=True))
        item["players"] = json.loads(item["players"])
        item["moves"] = item["moves"].split() if item["moves"] else []
        return item

    # Experiment results -----------------------------------------------------------------------

    def save_result(self, experiment: str, payload: dict[str, Any]) -> int:
        check_name("an experiment name", experiment)
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

    # The web app's games (in progress and lately finished), so a restart resumes them ----------

    def save_web_game(self, owner: str, game_id: str, game: str, payload: dict[str, Any], finished: bool) -> None:
        check_name("a game id", game_id)
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

    # The web app's shared links: a copy of a game kept as a record, and who shared it ------------

    def find_share(self, owner: str, source: str, since: float) -> str | None:
        """The token of the link ``owner`` made for ``source`` at ``since`` or later, or None."""
        with self._reading() as db:
            row = db.execute(
                "SELECT token FROM web_shares WHERE owner=? AND source=? AND created >= ?", (owner, source, since)
            ).fetchone()
        return None if row is None else str(row[0])

    def share_count(self, owner: str | None, since: float) -> tuple[int, float | None]:
        """How many links ``owner`` (None: everyone) made at ``since`` or later, and when the
        oldest of them was made."""
        query = "SELECT COUNT(*), MIN(created) FROM web_shares WHERE created >= ?"
        args: tuple[Any, ...] = (since,)
        if owner is not None:
            query += " AND owner=?"
            args = (since, owner)
        with self._reading() as db:
            count, oldest = db.execute(query, args).fetchone()
        return int(count), None if oldest is None else float(oldest)

    def add_share(self, owner: str, source: str, token: str, record_id: int) -> None:
        """``owner``'s link ``token`` for ``source``, whose copy is record ``record_id`` (a link
        made before for the same source is replaced)."""
        with self.transaction() as db:
            db.execute("DELETE FROM web_shares WHERE owner=? AND source=?", (owner, source))
            db.execute(
                "INSERT INTO web_shares VALUES (?, ?, ?, ?, ?)", (token, owner, source, int(record_id), time.time())
            )

    def forget_shares(self, older_than: float, records_owner: str) -> int:
        """Delete every link made before ``older_than`` and every record of ``records_owner`` (the
        copies) kept before it; how many copies went."""
        with self.transaction() as db:
            db.execute("DELETE FROM web_shares WHERE created < ?", (older_than,))
            cursor = db.execute("DELETE FROM records WHERE owner=? AND created < ?", (records_owner, older_than))
        return cursor.rowcount

    # Where a learner's chart starts (the web page's reset) ----------------------------------------

    def set_chart_start(self, owner: str, learner: str, game: str, after_record: int) -> None:
        """The chart of ``learner`` in ``game`` reads only the records after ``after_record``."""
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO chart_starts VALUES (?, ?, ?, ?)", (owner, learner, game, after_record))

    def chart_start(self, owner: str, learner: str, game: str) -> int:
        """The record after which the learner's chart starts (0: every record)."""
        with self._reading():
            row = self._db.execute(
                "SELECT after_record FROM chart_starts WHERE owner=? AND learner=? AND game=?", (owner, learner, game)
            ).fetchone()
        return 0 if row is None else int(row[0])
