"""Thesis memories (memory.m) and scores (stat.m) in and out of the SQLite store.

The 1999 program kept its memory in memory.m and its score in stat.m (Despotović, "Machine Learning in Strategic
Games", Belgrade 1999).  The store keeps a memory as ordered entries ``(board, x_wins, o_wins)``: file
order matters, because recall breaks ties by the earliest record; it keeps the score as nine
counts.  This module moves both between the store and the thesis files, byte for byte: importing
a thesis file and exporting it again gives the identical file.  Parsing and formatting are
:mod:`.thesis_files`'s (the one parser, with its one policy of what is refused); this module only
adds the store.

A refused file changes nothing in the store (it is read and checked whole first); an export is
written to a temporary file beside the target and renamed over it, so a crash never leaves a
half-written file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..paths import looks_like_path
from .thesis_files import (
    MAX_COUNT,
    RECORD_BYTES,
    STAT_BYTES,
    STAT_FIELDS,
    Entry,
    ThesisFormatError,
    atomic_write_bytes,
    format_memory,
    format_stat,
    parse_memory_entries,
    parse_stat,
    read_memory_entries,
    read_stat,
    swap_sides,
    write_memory,
    write_stat,
)

if TYPE_CHECKING:
    from .db import Store

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

# Names this module has always offered, now thesis_files' own functions.
read_stat_counts = read_stat
write_stat_counts = write_stat
write_memory_entries = write_memory

__all__ = [
    "MAX_COUNT",
    "RECORD_BYTES",
    "STAT_BYTES",
    "STAT_FIELDS",
    "STAT_FIELD_NAMES",
    "STAT_KIND",
    "DEFAULT_STAT_NAME",
    "Entry",
    "MemoryRef",
    "MemorySummary",
    "ThesisFormatError",
    "add_to_stat",
    "apply_changes",
    "atomic_write_bytes",
    "export_memory",
    "export_stat",
    "format_memory",
    "format_stat",
    "import_memory",
    "import_stat",
    "learning_changes",
    "load_stat",
    "parse_memory_entries",
    "parse_stat",
    "read_memory_entries",
    "read_stat_counts",
    "resolve_memory",
    "save_stat",
    "summarize",
    "swap_sides",
    "write_memory_entries",
    "write_stat_counts",
]


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


def import_memory(store: Store, path: Path | str, name: str | None = None, replace: bool = False) -> MemorySummary:
    """Read a thesis memory file and save it in the store under ``name`` (default: from the file name).

    The file is read and checked whole before the store is touched, so a refused file changes
    nothing; an existing name is refused unless ``replace``.
    """
    entries = read_memory_entries(path)
    target = validate_name(name) if name is not None else name_from_path(path)
    if not replace and store.load_memory(target) is not None:
        raise ValueError(f"a memory named {target!r} is already in the store (choose --name, or --replace)")
    store.save_memory(target, entries)
    return summarize(target, entries)


def export_memory(store: Store, name: str, path: Path | str) -> MemorySummary:
    """Write the stored memory ``name`` to ``path`` in the thesis format, atomically."""
    entries = store.load_memory(name)
    if entries is None:
        raise ValueError(f"no memory named {name!r} in the store (see: gamelearn teeko memory list)")
    write_memory_entries(entries, path)
    return summarize(name, entries)


def load_stat(store: Store, name: str = DEFAULT_STAT_NAME) -> tuple[int, ...]:
    """The nine stat.m counts kept in the store (all zero when none were kept yet)."""
    payload = store.load_learner(STAT_KIND, name)
    if payload is None:
        return (0,) * STAT_FIELDS
    counts = tuple(int(c) for c in payload.get("counts", ()))
    if len(counts) != STAT_FIELDS:
        raise ValueError(f"the stored score {name!r} is damaged: {len(counts)} counts instead of {STAT_FIELDS}")
    return counts


def save_stat(store: Store, counts: Sequence[int], name: str = DEFAULT_STAT_NAME) -> None:
    if len(counts) != STAT_FIELDS or any(not 0 <= int(c) for c in counts):
        raise ValueError(f"a score is {STAT_FIELDS} counts of zero or more")
    store.save_learner(STAT_KIND, name, {"counts": [int(c) for c in counts]})


def add_to_stat(store: Store, field: int, name: str = DEFAULT_STAT_NAME) -> tuple[int, ...]:
    """Add one game to stat field ``field`` (0-based, in stat.m's order) and return the new counts."""
    counts = list(load_stat(store, name))
    counts[field] += 1
    save_stat(store, counts, name)
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


# --- learning (the original's update per position) ------------------------------


def learning_changes(entries: Sequence[Entry], boards: Sequence[str], winner: int) -> dict[int, Entry]:
    """The changes one won game makes to a memory, as positions for Store.update_memory.

    ``boards`` are the boards after every ply from 9 through the winning ply, in order (a repeated
    board counts twice); ``winner`` is the digit of the side that won, 1 or 2, in the memory's own
    orientation.  Each board matches the first record (from the start) equal to it or to its side
    swap: a direct match adds 1 to the winner's count, a swapped one to the other count; with no
    match the board is appended as played with 1 in the winner's count.
    """
    if winner not in (1, 2):
        raise ValueError(f"the winner is side 1 or 2 of the memory, not {winner!r}")
    first_match: dict[str, tuple[int, bool]] = {}
    for position, (board, _, _) in enumerate(entries):
        first_match.setdefault(board, (position, False))
        first_match.setdefault(swap_sides(board), (position, True))
    changes: dict[int, Entry] = {}
    size = len(entries)
    for board in boards:
        found = first_match.get(board)
        if found is None:
            changes[size] = (board, 1, 0) if winner == 1 else (board, 0, 1)
            first_match[board] = (size, False)
            first_match.setdefault(swap_sides(board), (size, True))
            size += 1
            continue
        position, swapped = found
        stored, x_wins, o_wins = changes.get(position) or entries[position]
        if (winner == 1) != swapped:
            x_wins += 1
        else:
            o_wins += 1
        changes[position] = (stored, x_wins, o_wins)
    return changes


def apply_changes(entries: Sequence[Entry], changes: dict[int, Entry]) -> list[Entry]:
    """``entries`` with ``changes`` applied (what Store.update_memory does in the database)."""
    result = list(entries)
    for position in sorted(changes):
        if position < len(result):
            result[position] = changes[position]
        elif position == len(result):
            result.append(changes[position])
        else:
            raise ValueError(f"change at position {position} leaves a gap after {len(result)} entries")
    return result


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
                write_memory_entries(entries, self.path)
        elif self.name is not None and (changes or self.created):
            if self.created:
                store.save_memory(self.name, list(entries))
            else:
                store.update_memory(self.name, changes)


def resolve_memory(store: Store, spec: str) -> MemoryRef:
    """A memory from a command-line value: an existing thesis file (a path: it has a folder, ends in
    .m or .txt, or exists), else a memory in the store by name (created empty when new)."""
    if looks_like_path(spec):
        path = Path(spec)
        if not path.is_file():
            raise ValueError(f"memory file {spec} does not exist (a store memory's name has no '/' or .m/.txt)")
        return MemoryRef(spec, path, None, tuple(read_memory_entries(path)))
    name = validate_name(spec)
    entries = store.load_memory(name)
    if entries is None:
        return MemoryRef(spec, None, name, (), created=True)
    return MemoryRef(spec, None, name, tuple(entries))
