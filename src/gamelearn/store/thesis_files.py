"""The thesis's own files, byte for byte: memory.m and stat.m of the 1999 thesis program
(Despotović, "Machine Learning in Strategic Games", Belgrade 1999).

This module is the one place that parses and formats them; the engine, the trace replay, the
store's import/export (:mod:`.thesis_memories`) and the web export all go through it.

* memory.m: 33-byte ASCII records back to back, no separators: 25 board digits (row by row; '0'
  empty, '1' side +1, '2' side -1), then the games side '1' won and the games side '2' won from
  that position, each right-aligned in 4 characters, zero written as four spaces.
* stat.m: nine such 4-character counts (36 bytes): self-play X wins, draws, O wins; games the
  program began won/drawn/lost; games it played second won/drawn/lost.

``read_memory(path)`` gives a dict (file order kept) from the 25-digit board to
``(wins of '1', wins of '2')``; ``read_memory_entries(path)`` the same as a list of
``(board, wins of '1', wins of '2')``; ``write_memory(records, path)`` takes either and writes it
back byte for byte, through :func:`gamelearn.store.files.atomic_write_bytes` (a temporary file and
``os.replace``, so a crash never leaves half a file; a missing folder is refused).
``parse_memory`` / ``parse_memory_entries`` / ``format_memory`` do the same on bytes;
``read_stat`` / ``write_stat`` / ``parse_stat`` / ``format_stat`` for stat.m.

The policy (one, for reading and writing): a file is accepted if the original program could have
written it or reads it as a memory, so that reading and writing again gives the same bytes and a
foreign or damaged file is caught early.  The rules, from the thesis program's reader and writer
(Despotović 1999):

1. a whole number of 33-byte records, every byte ASCII (no line breaks or separators);
2. a board of 25 digits '0'/'1'/'2' with exactly four '1' and four '2': learning stores only
   boards after ply 9 or later, all in the moving phase;
3. counts right-aligned without leading zeros, or four spaces for zero ("   0", "0007", "7   ",
   signs and tabs are never written); at most 9999;
4. both counts may be blank: the original's writer never produces such a record (one is appended
   with a 1 in the winner's field and only grows), but its reader takes an all-space field as 0,
   so a record with two blank counts is read as (0, 0), kept, and written back as the same eight
   spaces (zero has one spelling, four spaces, so the bytes round-trip);
5. no board that repeats an earlier record or its side swap: an update changes the first record
   equal to the board or its swap, so a second one is never appended.

stat.m: exactly 36 bytes, nine counts under rule 3.  Every memory the thesis's saved files and
its reference runs hold passes (tests/test_thesis_files.py).
Anything else raises :class:`ThesisFormatError` (a ValueError) naming the record number (from 1),
its byte offset, the offending byte's offset where there is one, and what is wrong.  Writing
refuses, with the same words, what reading would refuse, before a byte is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

# re-exported: store.thesis_memories and older callers import it from here
from .files import atomic_write_bytes as atomic_write_bytes

RECORD_BYTES = 33
BOARD_DIGITS = 25
FIELD_WIDTH = 4
STAT_FIELDS = 9
STAT_BYTES = STAT_FIELDS * FIELD_WIDTH
MAX_COUNT = 9999  # above this the original stopped: "Learned number is too big."
PAWNS_A_SIDE = 4

Counts = tuple[int, int]
#: One memory record: the 25-digit board, the games side '1' won from it, the games side '2' won.
Entry = tuple[str, int, int]
Records = Mapping[str, Counts] | Iterable[Entry]

_NOT_A_COUNT = "not a number right-aligned in 4 characters or four spaces"


class ThesisFormatError(ValueError):
    """A file (or records) the original could not have written; the message names where and what."""


# --- counts -----------------------------------------------------------------------------------


def format_count(count: int) -> bytes:
    """A count as the original's myitoa writes it: right-aligned in 4, zero as four spaces."""
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
        raise ValueError(f"count {count!r} does not fit in 4 characters (0..{MAX_COUNT})")
    return b"    " if count == 0 else str(count).rjust(FIELD_WIDTH).encode("ascii")


def parse_count(field: bytes) -> int | None:
    """The value of a 4-byte count field, or None if the original could not have written it."""
    if len(field) != FIELD_WIDTH:
        return None
    if field == b"    ":
        return 0  # the original's atoi reads an all-space field as 0
    digits = field.lstrip(b" ")
    if not digits.isdigit() or digits.startswith(b"0"):  # bytes.isdigit is ASCII digits only
        return None  # a blank inside or after the digits, a sign, a leading zero: never written
    return int(digits)


def swap_sides(board: str) -> str:
    """The same position with sides '1' and '2' exchanged (one memory entry covers both)."""
    return board.translate(_SWAP)


_SWAP = str.maketrans("12", "21")


def _show(field: bytes) -> str:
    return repr(field.decode("latin-1"))


# --- the record policy, shared by the reader and the writer ------------------------------------


def _record_fault(raw: bytes, offset: int) -> tuple[str, Entry | None]:
    """What is wrong with one 33-byte record at ``offset`` ('' if nothing), and its entry.

    Rules 1-3 of the module's policy (rule 4 refuses nothing); rule 5 needs the records before it
    (see ``_Seen``).
    """
    for k, byte in enumerate(raw):
        if byte > 0x7F:
            return (
                f"byte offset {offset + k} holds 0x{byte:02x}, a byte that is not ASCII (is this a thesis memory file?)",
                None,
            )
    for k, byte in enumerate(raw[:BOARD_DIGITS]):
        if byte not in b"012":
            return (
                f"board digit {k + 1} (byte offset {offset + k}) is {_show(bytes([byte]))}, not 0, 1 or 2 "
                "(is this a thesis memory file?)"
            ), None
    board = raw[:BOARD_DIGITS].decode("ascii")
    ones, twos = board.count("1"), board.count("2")
    if ones != PAWNS_A_SIDE or twos != PAWNS_A_SIDE:
        return (
            f"board {board} has {ones} pawns of side 1 and {twos} of side 2, not four each "
            "(a memory holds moving-phase boards only)"
        ), None
    counts = []
    for which in range(2):
        start = BOARD_DIGITS + which * FIELD_WIDTH
        field = raw[start : start + FIELD_WIDTH]
        value = parse_count(field)
        if value is None:
            return f"count field {which + 1} (byte offset {offset + start}) is {_show(field)}, {_NOT_A_COUNT}", None
        counts.append(value)
    return "", (board, counts[0], counts[1])


class _Seen:
    """Rule 5: each board, and its side swap, at most once."""

    def __init__(self) -> None:
        self.first: dict[str, int] = {}

    def fault(self, board: str, index: int) -> str:
        for candidate in (board, swap_sides(board)):
            if candidate in self.first:
                swapped = " with the sides swapped" if candidate != board else ""
                return f"board {board} repeats record {self.first[candidate] + 1}{swapped}"
        self.first[board] = index
        return ""


def _where(source: str, index: int) -> str:
    return f"{source}: record {index + 1} (byte offset {index * RECORD_BYTES})"


# --- memory.m ---------------------------------------------------------------------------------


def parse_memory_entries(data: bytes, source: str = "memory") -> list[Entry]:
    """The records of a memory.m image in file order; ThesisFormatError naming record, offset, fault."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError("parse_memory_entries takes bytes")
    entries: list[Entry] = []
    seen = _Seen()
    whole = len(data) // RECORD_BYTES
    for index in range(whole):
        offset = index * RECORD_BYTES
        fault, entry = _record_fault(bytes(data[offset : offset + RECORD_BYTES]), offset)
        if entry is None:
            raise ThesisFormatError(f"{_where(source, index)}: {fault}")
        fault = seen.fault(entry[0], index)
        if fault:
            raise ThesisFormatError(f"{_where(source, index)}: {fault}")
        entries.append(entry)
    if len(data) % RECORD_BYTES:  # checked after the whole records, so the first problem is named
        raise ThesisFormatError(
            f"{_where(source, whole)} is cut short: {len(data) - whole * RECORD_BYTES} of {RECORD_BYTES} bytes "
            f"({len(data)} bytes is not a whole number of records)"
        )
    return entries


def parse_memory(data: bytes, source: str = "memory") -> dict[str, Counts]:
    """The records of a memory.m image as a dict from board to counts, file order kept."""
    return {board: (first, second) for board, first, second in parse_memory_entries(data, source)}


def _entries(records: Records) -> Iterable[Entry]:
    if isinstance(records, Mapping):
        return ((board, counts[0], counts[1]) for board, counts in records.items())
    return records


def format_memory(records: Records) -> bytes:
    """The memory.m image of ``records`` (a dict board -> counts, or entries) in their order.

    Refuses, naming the record, what :func:`parse_memory` would refuse, so what is written reads back.
    """
    parts = []
    seen = _Seen()
    for index, (board, first, second) in enumerate(_entries(records)):
        if not isinstance(board, str) or len(board) != BOARD_DIGITS or not board.isascii():
            raise ThesisFormatError(f"record {index + 1}: {board!r} is not a board of 25 digits 0, 1, 2")
        raw = board.encode("ascii") + format_count(first) + format_count(second)
        fault, _ = _record_fault(raw, index * RECORD_BYTES)
        fault = fault or seen.fault(board, index)
        if fault:
            raise ThesisFormatError(f"record {index + 1}: {fault}")
        parts.append(raw)
    return b"".join(parts)


# --- stat.m -----------------------------------------------------------------------------------


def parse_stat(data: bytes, source: str = "stat") -> tuple[int, ...]:
    """The nine counts of a stat.m image; ThesisFormatError naming the field, its offset and the fault."""
    if len(data) != STAT_BYTES:
        raise ThesisFormatError(
            f"{source}: {len(data)} bytes, but a stat file is {STAT_BYTES} (nine 4-character counts)"
        )
    counts = []
    for index in range(STAT_FIELDS):
        offset = index * FIELD_WIDTH
        field = bytes(data[offset : offset + FIELD_WIDTH])
        value = parse_count(field)
        if value is None:
            raise ThesisFormatError(
                f"{source}: field {index + 1} (byte offset {offset}) is {_show(field)}, {_NOT_A_COUNT}"
            )
        counts.append(value)
    return tuple(counts)


def format_stat(counts: Sequence[int]) -> bytes:
    if len(counts) != STAT_FIELDS:
        raise ThesisFormatError(f"stat.m holds {STAT_FIELDS} counts, not {len(counts)}")
    return b"".join(format_count(c) for c in counts)


# --- files ------------------------------------------------------------------------------------


def _read(path: Path | str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise ThesisFormatError(f"cannot read {path}: {error.strerror or error}") from None


def read_memory(path: Path | str) -> dict[str, Counts]:
    return parse_memory(_read(path), source=str(path))


def read_memory_entries(path: Path | str) -> list[Entry]:
    return parse_memory_entries(_read(path), source=str(path))


def write_memory(records: Records, path: Path | str) -> None:
    atomic_write_bytes(path, format_memory(records))


def read_stat(path: Path | str) -> tuple[int, ...]:
    return parse_stat(_read(path), source=str(path))


def write_stat(counts: Sequence[int], path: Path | str) -> None:
    atomic_write_bytes(path, format_stat(counts))
