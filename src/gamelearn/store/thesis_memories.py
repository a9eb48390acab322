"""Thesis memories (memory.m) and scores (stat.m) in and out of the SQLite store.

The 1999 program kept its memory in memory.m and its score in stat.m (seed 000; THESIS-FACTS.md
sections a and b).  The store keeps a memory as ordered entries ``(board, x_wins, o_wins)``: file
order matters, because recall breaks ties by the earliest record.  This module moves memories
between the two, byte for byte: importing a thesis file and exporting it again gives the identical
file.  To make that a guarantee rather than a hope, the parser accepts only what the original could
have written and refuses anything else, naming the record, its byte offset and what is wrong.

A refused file changes nothing in the store; an export is written to a temporary file beside the
target and renamed over it, so a crash never leaves a half-written memory.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .db import Store

#: One memory record: the 25-digit board (0 empty, 1 side '1', 2 side '2'), then the games side
#: '1' won from it and the games side '2' won from it.
Entry = tuple[str, int, int]

RECORD_BYTES = 33  # 25 board digits + two 4-character counts, no separator (section a)
BOARD_CHARS = 25
FIELD_CHARS = 4
STAT_FIELDS = 9  # section b: self-play X/draw/O, program-first won/drawn/lost, program-second likewise
STAT_BYTES = STAT_FIELDS * FIELD_CHARS
MAX_COUNT = 9999  # a count above 9999 was fatal in the original (section a)

#: The store keeps the console's score as a learner payload of this kind (nine counts).
STAT_KIND = "thesis-stat"
DEFAULT_STAT_NAME = "stat"

#: Names of stat.m's nine fields, in file order (THESIS-FACTS.md section b).
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


class ThesisFormatError(ValueError):
    """A file that is not a thesis memory or stat file; the message names where and what."""


# --- the formats ------------------------------------------------------------------------------


def format_count(count: int) -> str:
    """A count as the original wrote it: right-aligned in 4 characters, zero as four spaces."""
    if not 0 <= count <= MAX_COUNT:
        raise ValueError(f"count {count} does not fit the thesis format (0..{MAX_COUNT})")
    return " " * FIELD_CHARS if count == 0 else f"{count:>{FIELD_CHARS}d}"


def parse_count(field: str) -> int | None:
    """The value of a 4-character count field, or None where the original could not have written it.

    Accepted: four spaces (0), or spaces then a number without leading zeros ("   7", "1234").
    Refused: "   0", "0007", "7   ", tabs, signs: none of them would survive a round trip.
    """
    if len(field) != FIELD_CHARS:
        return None
    if field == " " * FIELD_CHARS:
        return 0
    digits = field.lstrip(" ")
    if not digits.isascii() or not digits.isdigit() or digits[0] == "0":
        return None
    return int(digits)


def swap_sides(board: str) -> str:
    """The same position with sides '1' and '2' exchanged (one memory entry covers both)."""
    return board.translate(str.maketrans("12", "21"))


def _where(index: int) -> str:
    return f"record {index + 1} (byte offset {index * RECORD_BYTES})"


def parse_memory(data: bytes, source: str = "memory") -> list[Entry]:
    """The entries of a memory.m image, in file order; ThesisFormatError for anything else.

    Checks (THESIS-FACTS.md section a): a whole number of 33-byte ASCII records with no line
    breaks; a board of 25 digits 0/1/2 with four pawns a side (memories hold moving-phase boards
    only); counts in the original's exact format; no record with both counts zero (the original
    never wrote one); no board that repeats an earlier board or its side swap (the original updates
    the first match, so it never appends a second).
    """
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for index in range(len(data) // RECORD_BYTES):
        raw = data[index * RECORD_BYTES : (index + 1) * RECORD_BYTES]
        where = f"{source}: {_where(index)}"
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            raise ThesisFormatError(f"{where}: holds a byte that is not ASCII") from None
        board, first, second = text[:BOARD_CHARS], text[BOARD_CHARS:29], text[29:]
        bad = next((k for k, ch in enumerate(board) if ch not in "012"), None)
        if bad is not None:
            raise ThesisFormatError(
                f"{where}: board character {bad + 1} is {board[bad]!r}, not 0, 1 or 2 (is this a thesis memory file?)"
            )
        if board.count("1") != 4 or board.count("2") != 4:
            raise ThesisFormatError(
                f"{where}: board {board} has {board.count('1')} pawns of side 1 and {board.count('2')} of side 2, "
                "not four each"
            )
        counts = [parse_count(first), parse_count(second)]
        for which, (field, value) in enumerate(zip((first, second), counts, strict=True)):
            if value is None:
                raise ThesisFormatError(
                    f"{where}: count field {which + 1} is {field!r}, not a right-aligned number or four spaces"
                )
        x_wins, o_wins = int(counts[0] or 0), int(counts[1] or 0)
        if x_wins == 0 and o_wins == 0:
            raise ThesisFormatError(f"{where}: both counts are blank; the original never writes such a record")
        for key in (board, swap_sides(board)):
            if key in seen:
                raise ThesisFormatError(
                    f"{where}: board {board} repeats record {seen[key] + 1}"
                    + (" with the sides swapped" if key != board else "")
                )
        seen[board] = index
        entries.append((board, x_wins, o_wins))
    if len(data) % RECORD_BYTES:  # checked after the whole records, so the first problem is named
        whole = len(data) // RECORD_BYTES
        raise ThesisFormatError(
            f"{source}: {len(data)} bytes is not a whole number of {RECORD_BYTES}-byte records: "
            f"{_where(whole)} is cut short at {len(data) - whole * RECORD_BYTES} bytes"
        )
    return entries


def format_memory(entries: Iterable[Entry]) -> bytes:
    """The memory.m image of ``entries``, in their order."""
    parts = []
    for board, x_wins, o_wins in entries:
        if len(board) != BOARD_CHARS or set(board) - set("012"):
            raise ValueError(f"{board!r} is not a 25-digit board of 0, 1 and 2")
        parts.append(board + format_count(x_wins) + format_count(o_wins))
    return "".join(parts).encode("ascii")


def parse_stat(data: bytes, source: str = "stat") -> tuple[int, ...]:
    """The nine counts of a stat.m image (section b); ThesisFormatError for anything else."""
    if len(data) != STAT_BYTES:
        raise ThesisFormatError(
            f"{source}: {len(data)} bytes, but a stat file is {STAT_BYTES} (nine 4-character counts)"
        )
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError:
        raise ThesisFormatError(f"{source}: holds a byte that is not ASCII") from None
    counts = []
    for index in range(STAT_FIELDS):
        field = text[index * FIELD_CHARS : (index + 1) * FIELD_CHARS]
        value = parse_count(field)
        if value is None:
            raise ThesisFormatError(
                f"{source}: field {index + 1} (byte offset {index * FIELD_CHARS}) is {field!r}, "
                "not a right-aligned number or four spaces"
            )
        counts.append(value)
    return tuple(counts)


def format_stat(counts: Sequence[int]) -> bytes:
    if len(counts) != STAT_FIELDS:
        raise ValueError(f"a stat file holds {STAT_FIELDS} counts, not {len(counts)}")
    return "".join(format_count(c) for c in counts).encode("ascii")


def read_memory_entries(path: Path | str) -> list[Entry]:
    """A memory file's entries in file order; ThesisFormatError (a ValueError) naming the problem."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ThesisFormatError(f"cannot read {path}: {error.strerror or error}") from None
    return parse_memory(data, source=str(path))


def read_stat_counts(path: Path | str) -> tuple[int, ...]:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ThesisFormatError(f"cannot read {path}: {error.strerror or error}") from None
    return parse_stat(data, source=str(path))


def atomic_write_bytes(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        # mkstemp makes the file private (0600); give it the mode the target has, or a new file's
        try:
            mode = path.stat().st_mode & 0o7777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temporary, mode)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def write_memory_entries(entries: Iterable[Entry], path: Path | str) -> None:
    atomic_write_bytes(path, format_memory(entries))


def write_stat_counts(counts: Sequence[int], path: Path | str) -> None:
    atomic_write_bytes(path, format_stat(counts))


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
    """Add one game to stat field ``field`` (0-based, section b's order) and return the new counts."""
    counts = list(load_stat(store, name))
    counts[field] += 1
    save_stat(store, counts, name)
    return tuple(counts)


# --- learning (THESIS-FACTS.md section a, "Update per position") ------------------------------


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


def looks_like_path(spec: str) -> bool:
    return os.sep in spec or "/" in spec or Path(spec).suffix.lower() in (".m", ".txt") or Path(spec).exists()


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
