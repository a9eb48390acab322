"""Thesis memories (memory.m) and scores (stat.m) in and out of the SQLite store.

The 1999 program kept its memory in memory.m and its score in stat.m (Despotović, "Machine Learning in Strategic
Games", Belgrade 1999).  The store keeps a memory as ordered entries ``(board, x_wins, o_wins)``: file
order matters, because recall breaks ties by the earliest record; it keeps the score as nine
counts.  This module moves both between the store and the thesis files, byte for byte: importing
a thesis file and exporting it again gives the identical file.  Parsing and formatting are
:mod:`.files`'s (the one parser, with its one policy of what is refused); this module only
adds the store.

A refused file changes nothing in the store (it is read and checked whole first); an export is
written to a temporary file beside the target and renamed over it, so a crash never leaves a
half-written file.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..paths import looks_like_path
from ..store.store import Store, check_name, register_tables
from .files import (
    MAX_COUNT,
    RECORD_BYTES,
    STAT_BYTES,
    STAT_FIELDS,
    Entry,
    ThesisFormatError,
    format_memory,
    format_stat,
    iter_memory_entries,
    open_memory_file,
    parse_memory_entries,
    parse_stat,
    read_memory_entries,
    read_stat,
    swap_sides,
    write_memory,
    write_stat,
)

#: The store keeps the console's score as a learner payload of this kind (nine counts).
STAT_KIND = "thesis-stat"
DEFAULT_STAT_NAME = "stat"

#: Names of stat.m's nine fields, in file order (Despotović 1999).
STAT_FIELD_NAMES = (
    "self-play: X wins",
    "self-play: draws",
    "self-play: O wins",
    "program began: won",
    "program began: drawn",
    "program began: lost",
    "program second: won",
    "program second: drawn",
    "program second: lost",
)

__all__ = [
    "MAX_COUNT",
    "RECORD_BYTES",
    "STAT_BYTES",
    "STAT_FIELDS",
    "STAT_FIELD_NAMES",
    "STAT_KIND",
    "DEFAULT_STAT_NAME",
    "Entry",
    "MEMORY_TABLES",
    "MemoryEntry",
    "MemoryRef",
    "MemorySummary",
    "ThesisFormatError",
    "add_to_stat",
    "delete_memory",
    "has_memory",
    "iter_memory",
    "list_memories",
    "load_memory",
    "memory_version",
    "save_memory",
    "update_memory",
    "export_memory",
    "export_stat",
    "format_memory",
    "format_stat",
    "import_memory",
    "import_stat",
    "load_stat",
    "parse_memory_entries",
    "parse_stat",
    "read_memory_entries",
    "resolve_memory",
    "save_stat",
    "summarize",
    "swap_sides",
]


# --- the store's memory tables, registered with it -------------------------------------------

#: A memory in the store is its entries with their position in the file, because the thesis's
#: recall breaks ties by "the earliest in the file" (Despotović 1999): the order is data, not an
#: accident of storage.  The tables are this package's, registered with the store, which knows
#: nothing of them.
MEMORY_TABLES = """
CREATE TABLE IF NOT EXISTS memories (
    owner TEXT NOT NULL, name TEXT NOT NULL, updated REAL NOT NULL,
    PRIMARY KEY (owner, name));
CREATE TABLE IF NOT EXISTS memory_entries (
    owner TEXT NOT NULL, name TEXT NOT NULL, position INTEGER NOT NULL,
    board TEXT NOT NULL, x_wins INTEGER NOT NULL, o_wins INTEGER NOT NULL,
    PRIMARY KEY (owner, name, position));
"""
register_tables(MEMORY_TABLES)

#: One entry of a memory in the store: (board, X's wins, O's wins), a memory.m record.
MemoryEntry = Entry
_BOARD = re.compile("[012]{25}")


def _tables(store: Store) -> Store:
    """``store``, with the memory tables made in it if it was opened before they were registered."""
    store.make_registered_tables()
    return store


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


def save_memory(store: Store, name: str, entries: Iterable[MemoryEntry], owner: str = "local") -> None:
    """Replace the memory ``name`` with ``entries`` (in file order), atomically.

    ``entries`` may be a stream (an iterator): it is written as it comes, so memory stays
    bounded; an error raised while it is consumed rolls everything back."""
    check_name("a memory name", name)
    rows = ((owner, name, index, *_check_entry(entry)) for index, entry in enumerate(entries))
    with _tables(store).transaction() as db:
        db.execute("DELETE FROM memory_entries WHERE owner=? AND name=?", (owner, name))
        db.execute("INSERT OR REPLACE INTO memories VALUES (?, ?, ?)", (owner, name, time.time()))
        db.executemany("INSERT INTO memory_entries VALUES (?, ?, ?, ?, ?, ?)", rows)


def memory_version(store: Store, name: str, owner: str = "local") -> float | None:
    """When memory ``name`` was last written (None if there is none): equal versions, equal contents."""
    with _tables(store).reading() as db:
        row = db.execute("SELECT updated FROM memories WHERE owner=? AND name=?", (owner, name)).fetchone()
    return None if row is None else float(row[0])


def has_memory(store: Store, name: str, owner: str = "local") -> bool:
    with _tables(store).reading() as db:
        return db.execute("SELECT 1 FROM memories WHERE owner=? AND name=?", (owner, name)).fetchone() is not None


def iter_memory(store: Store, name: str, owner: str = "local", batch: int = 10000) -> Iterator[MemoryEntry]:
    """The entries of memory ``name`` in order, ``batch`` rows at a time (memory stays bounded
    for an export of any size); nothing if there is no such memory.  Read in one transaction,
    so a writer in between changes nothing of what is read."""
    query = "SELECT board, x_wins, o_wins FROM memory_entries WHERE owner=? AND name=? ORDER BY position"
    rows = _tables(store).iter_rows(query, (owner, name), batch)
    return ((str(board), int(x_wins), int(o_wins)) for board, x_wins, o_wins in rows)


def load_memory(store: Store, name: str, owner: str = "local") -> list[MemoryEntry] | None:
    with _tables(store).reading() as db:
        if db.execute("SELECT 1 FROM memories WHERE owner=? AND name=?", (owner, name)).fetchone() is None:
            return None
        rows = db.execute(
            "SELECT board, x_wins, o_wins FROM memory_entries WHERE owner=? AND name=? ORDER BY position",
            (owner, name),
        ).fetchall()
    return [(board, x, o) for board, x, o in rows]


def update_memory(store: Store, name: str, changes: dict[int, MemoryEntry], owner: str = "local") -> None:
    """Write changed entries by position (a position past the end appends), in one transaction."""
    check_name("a memory name", name)
    rows = [(owner, name, int(position), *_check_entry(entry)) for position, entry in sorted(changes.items())]
    with _tables(store).transaction() as db:
        db.execute("INSERT OR REPLACE INTO memories VALUES (?, ?, ?)", (owner, name, time.time()))
        db.executemany("INSERT OR REPLACE INTO memory_entries VALUES (?, ?, ?, ?, ?, ?)", rows)


def delete_memory(store: Store, name: str, owner: str = "local") -> bool:
    with _tables(store).transaction() as db:
        db.execute("DELETE FROM memory_entries WHERE owner=? AND name=?", (owner, name))
        cursor = db.execute("DELETE FROM memories WHERE owner=? AND name=?", (owner, name))
    return cursor.rowcount > 0


def list_memories(store: Store, owner: str = "local") -> list[str]:
    with _tables(store).reading() as db:
        rows = db.execute("SELECT name FROM memories WHERE owner=? ORDER BY name", (owner,)).fetchall()
    return [row[0] for row in rows]


# --- the store --------------------------------------------------------------------------------


@dataclass(frozen=True)
class MemorySummary:
    name: str
    records: int
    x_wins: int  # sum of the first count: games side '1' won
    o_wins: int  # sum of the second count

    @property
    def bytes(self) -> int:
        return self.records * RECORD_BYTES


def summarize(name: str, entries: Sequence[Entry]) -> MemorySummary:
    return MemorySummary(name, len(entries), sum(e[1] for e in entries), sum(e[2] for e in entries))


def name_from_path(path: Path | str) -> str:
    """A store name for a file: its name without the extension, blanks as hyphens."""
    stem = Path(path).stem.strip()
    return "-".join(stem.split()) or "memory"


def validate_name(name: str) -> str:
    cleaned = name.strip()
    if not cleaned:
        raise ValueError("a memory name cannot be empty")
    if any(ord(ch) < 32 for ch in cleaned):
        raise ValueError(f"memory name {name!r} holds a control character")
    return cleaned


def check_memory_import(path: Path | str, name: str | None = None) -> str:
    """The name an import of ``path`` would keep it under, once the file has been read whole as
    :func:`import_memory` reads it (a record at a time, none kept): ValueError naming what is
    wrong, before any store is opened, so a refused import makes no store."""
    target = validate_name(name) if name is not None else name_from_path(path)
    with open_memory_file(path) as stream:
        try:
            for _ in iter_memory_entries(stream, source=str(path)):
                pass
        except OSError as error:
            raise ThesisFormatError(f"cannot read {path}: {error.strerror or error}") from None
    return target


def import_memory(store: Store, path: Path | str, name: str | None = None, replace: bool = False) -> MemorySummary:
    """Read a thesis memory file and save it in the store under ``name`` (default: from the file name).

    The file is read as a stream (memory stays bounded whatever its size) into one transaction,
    which also holds the check that the name is free: a refused file changes nothing, and of two
    imports of one name at once exactly one wins, the other is refused (unless ``replace``).  A
    FIFO, device or folder, or a file over what the format holds, is refused before a read.
    """
    target = validate_name(name) if name is not None else name_from_path(path)
    totals = [0, 0, 0]

    def counted(entries: Iterable[Entry]) -> Iterator[Entry]:
        for entry in entries:
            totals[0] += 1
            totals[1] += entry[1]
            totals[2] += entry[2]
            yield entry

    with open_memory_file(path) as stream, store.transaction():
        if not replace and has_memory(store, target):
            raise ValueError(f"a memory named {target!r} is already in the store (choose --name, or --replace)")
        try:
            save_memory(store, target, counted(iter_memory_entries(stream, source=str(path))))
        except OSError as error:
            raise ThesisFormatError(f"cannot read {path}: {error.strerror or error}") from None
    return MemorySummary(target, *totals)


def export_memory(store: Store, name: str, path: Path | str) -> MemorySummary:
    """Write the stored memory ``name`` to ``path`` in the thesis format, atomically, as a stream."""
    if not has_memory(store, name):
        raise ValueError(f"no memory named {name!r} in the store (see: gamelearn teeko memory list)")
    records, x_wins, o_wins = write_memory(iter_memory(store, name), path)
    return MemorySummary(name, records, x_wins, o_wins)


def load_stat(store: Store, name: str = DEFAULT_STAT_NAME, owner: str = "local") -> tuple[int, ...]:
    """The nine stat.m counts kept in the store for ``owner`` (all zero when none were kept yet)."""
    payload = store.load_learner(STAT_KIND, name, owner=owner)
    if payload is None:
        return (0,) * STAT_FIELDS
    counts = tuple(int(c) for c in payload.get("counts", ()))
    if len(counts) != STAT_FIELDS:
        raise ValueError(f"the stored score {name!r} is damaged: {len(counts)} counts instead of {STAT_FIELDS}")
    return counts


def save_stat(store: Store, counts: Sequence[int], name: str = DEFAULT_STAT_NAME, owner: str = "local") -> None:
    if len(counts) != STAT_FIELDS or any(not 0 <= int(c) for c in counts):
        raise ValueError(f"a score is {STAT_FIELDS} counts of zero or more")
    store.save_learner(STAT_KIND, name, {"counts": [int(c) for c in counts]}, owner=owner)


def add_to_stat(store: Store, field: int, name: str = DEFAULT_STAT_NAME, owner: str = "local") -> tuple[int, ...]:
    """Add one game to stat field ``field`` (0-based, in stat.m's order) and return the new counts."""
    counts = list(load_stat(store, name, owner))
    counts[field] += 1
    save_stat(store, counts, name, owner)
    return tuple(counts)


def import_stat(
    store: Store, path: Path | str, name: str = DEFAULT_STAT_NAME, replace: bool = False
) -> tuple[int, ...]:
    """Read a thesis stat.m and make it the store's score ``name``; returns the nine counts.

    The file is read and checked whole first, so a refused file changes nothing.  A score that
    already counts games is refused unless ``replace`` (its games would be lost).  The score is
    one store row, written in one transaction.
    """
    counts = read_stat(path)
    with store.transaction():
        kept = load_stat(store, name)
        if any(kept) and not replace and kept != counts:
            raise ValueError(
                f"the store's score already counts {sum(kept)} games (see: gamelearn teeko stat show); "
                "give --replace to overwrite it"
            )
        save_stat(store, counts, name)
    return counts


def export_stat(store: Store, path: Path | str, name: str = DEFAULT_STAT_NAME) -> tuple[int, ...]:
    """Write the store's score ``name`` to ``path`` as a thesis stat.m, atomically; the counts written."""
    counts = load_stat(store, name)
    write_stat(counts, path)  # format_stat refuses a count past 9999 before anything is written
    return counts


# --- a memory named on the command line: a thesis file or a memory in the store ----------------


@dataclass(frozen=True)
class MemoryRef:
    """Where a batch side's memory lives: a thesis file (read at start, written back at the end in
    the thesis format, as the original did) or a memory in the store (updated in one transaction)."""

    spec: str
    path: Path | None  # a thesis file, or None for the store
    name: str | None  # the store's name, or None for a file
    entries: tuple[Entry, ...]
    created: bool = False  # a store memory that did not exist yet

    @property
    def label(self) -> str:
        return str(self.path) if self.path is not None else f"{self.name} (store)"

    def save(self, store: Store, entries: Sequence[Entry], changes: dict[int, Entry]) -> None:
        """Write the memory back: a file whole and atomically, the store's entry by its changes."""
        if self.path is not None:
            if changes:  # the original rewrote the file only when it learned something
                write_memory(entries, self.path)
        elif self.name is not None and (changes or self.created):
            if self.created:
                save_memory(store, self.name, list(entries))
            else:
                update_memory(store, self.name, changes)


def resolve_memory(store: Store, spec: str) -> MemoryRef:
    """A memory from a command-line value: an existing thesis file (a path: it has a folder, ends in
    .m or .txt, or exists), else a memory in the store by name (created empty when new)."""
    if looks_like_path(spec):
        path = Path(spec)
        if not path.exists():
            raise ValueError(f"memory file {spec} does not exist (a store memory's name has no '/' or .m/.txt)")
        return MemoryRef(spec, path, None, tuple(read_memory_entries(path)))  # a FIFO, folder...: named
    name = validate_name(spec)
    entries = load_memory(store, name)
    if entries is None:
        return MemoryRef(spec, None, name, (), created=True)
    return MemoryRef(spec, None, name, tuple(entries))
