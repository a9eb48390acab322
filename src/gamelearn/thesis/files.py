"""The thesis's own files, byte for byte: memory.m and stat.m of the 1999 thesis program
(Despotović, "Machine Learning in Strategic Games", Belgrade 1999).

This module is the one place that parses and formats them; the engine, the trace replay, the
store's import/export (:mod:`.memories`) and the web export all go through it.

* memory.m: 33-byte ASCII records back to back, no separators: 25 board digits (row by row; '0'
  empty, '1' side +1, '2' side -1), then the games side '1' won and the games side '2' won from
  that position, each right-aligned in 4 characters, zero written as four spaces.
* stat.m: nine such 4-character counts (36 bytes): self-play X wins, draws, O wins; games the
  program began won/drawn/lost; games it played second won/drawn/lost.

``read_memory(path)`` gives a dict (file order kept) from the 25-digit board to
``(wins of '1', wins of '2')``; ``read_memory_entries(path)`` the same as a list of
``(board, wins of '1', wins of '2')``; ``write_memory(records, path)`` takes either and writes it
back byte for byte, through :func:`gamelearn.files.atomic_write_bytes` (a temporary file and
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
its reference runs hold passes (tests/thesis/test_thesis_files.py).
Anything else raises :class:`ThesisFormatError` (a ValueError) naming the record number (from 1),
its byte offset, the offending byte's offset where there is one, and what is wrong.  Writing
refuses, with the same words, what reading would refuse, before a byte is written.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from math import comb
from pathlib import Path
from typing import BinaryIO

import numpy as np

from ..files import AtomicFile, atomic_write_bytes, open_regular_file

RECORD_BYTES = 33
BOARD_DIGITS = 25
FIELD_WIDTH = 4
STAT_FIELDS = 9
STAT_BYTES = STAT_FIELDS * FIELD_WIDTH
MAX_COUNT = 9999  # above this the original stopped: "Learned number is too big."
PAWNS_A_SIDE = 4

#: The most records a memory.m can hold: one per moving-phase board (four pawns a side) and its
#: side swap, rule 5: C(25,4) * C(21,4) / 2 = 37,855,125; a larger file is refused by its size.
MAX_MEMORY_RECORDS = comb(25, PAWNS_A_SIDE) * comb(25 - PAWNS_A_SIDE, PAWNS_A_SIDE) // 2
MAX_MEMORY_BYTES = MAX_MEMORY_RECORDS * RECORD_BYTES
#: Records read and checked at a time: memory stays bounded whatever the file's size.
CHUNK_RECORDS = 16384

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
    return list(_checked_entries(_chunks_of(bytes(data)), source))


def iter_memory_entries(stream: BinaryIO, source: str = "memory") -> Iterator[Entry]:
    """The records of a memory.m stream in file order, read :data:`CHUNK_RECORDS` at a time, so
    that memory stays bounded (about 9 bytes a record for rule 5's check, none for the records
    themselves).  Every record is checked as it is read; a board that repeats an earlier record
    (rule 5) is found when the end is reached, so a consumer that must change nothing on a refused
    file (the store's import) consumes it inside one transaction."""
    return _checked_entries(_chunks_from(stream), source)


def _chunks_of(data: bytes) -> Iterator[bytes]:
    step = CHUNK_RECORDS * RECORD_BYTES
    for start in range(0, len(data), step):
        yield data[start : start + step]


def _chunks_from(stream: BinaryIO) -> Iterator[bytes]:
    step = CHUNK_RECORDS * RECORD_BYTES
    pending = b""
    while True:
        piece = stream.read(step - len(pending))
        if not piece:
            if pending:
                yield pending
            return
        pending += piece
        if len(pending) == step:
            yield pending
            pending = b""


_POWERS = np.left_shift(np.int64(1), np.arange(BOARD_DIGITS, dtype=np.int64))
_FIELD_WEIGHTS = np.array([1000, 100, 10, 1], dtype=np.int64)


def _suspects(rows: np.ndarray) -> tuple[np.ndarray, list[int], list[int]]:
    """Rows that may break rules 1-4, found for a whole chunk at once (numpy); each is then judged
    by ``_record_fault``, the one policy, so this only has to catch every bad row, never decide.
    Also gives both counts of every row (meaningful for the rows not suspected)."""
    board = rows[:, :BOARD_DIGITS]
    suspect = (rows > 0x7F).any(axis=1)
    suspect |= ((board < ord("0")) | (board > ord("2"))).any(axis=1)
    suspect |= (board == ord("1")).sum(axis=1) != PAWNS_A_SIDE
    suspect |= (board == ord("2")).sum(axis=1) != PAWNS_A_SIDE
    values = []
    for start in (BOARD_DIGITS, BOARD_DIGITS + FIELD_WIDTH):
        field = rows[:, start : start + FIELD_WIDTH]
        space, digit = field == ord(" "), (field >= ord("0")) & (field <= ord("9"))
        leading = np.cumprod(space, axis=1).sum(axis=1)
        well_formed = (space | digit).all(axis=1) & (space.sum(axis=1) == leading)
        first = field[np.arange(len(field)), np.minimum(leading, FIELD_WIDTH - 1)]
        well_formed &= (leading == FIELD_WIDTH) | (first != ord("0"))
        suspect |= ~well_formed
        values.append((np.where(digit, field.astype(np.int64) - ord("0"), 0) * _FIELD_WEIGHTS).sum(axis=1))
    suspect |= (values[0] == 0) & (values[1] == 0)
    return suspect, values[0].tolist(), values[1].tolist()


def _keys(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each board as one number (side 1's cells, then side 2's, as 25-bit masks), the smaller of
    it and its side swap's (so a board and its swap get the same key), and whether it was swapped."""
    board = rows[:, :BOARD_DIGITS]
    ones = (board == ord("1")).astype(np.int64) @ _POWERS
    twos = (board == ord("2")).astype(np.int64) @ _POWERS
    direct, swapped = (ones << BOARD_DIGITS) | twos, (twos << BOARD_DIGITS) | ones
    return np.minimum(direct, swapped), swapped < direct


def _board_of(key: int, flipped: bool) -> str:
    high, low = key >> BOARD_DIGITS, key & ((1 << BOARD_DIGITS) - 1)
    ones, twos = (low, high) if flipped else (high, low)
    return "".join("1" if ones >> k & 1 else "2" if twos >> k & 1 else "0" for k in range(BOARD_DIGITS))


def _first_repeat(keys: list[np.ndarray], flips: list[np.ndarray], source: str) -> ThesisFormatError | None:
    """Rule 5 over every record read so far: the first record (in file order) whose board, or its
    side swap, an earlier record holds, as the error ``_Seen`` would have raised for it."""
    if not keys:
        return None
    every = np.concatenate(keys)
    ordered = np.sort(every)
    if not (ordered[1:] == ordered[:-1]).any():
        return None
    order = np.argsort(every, kind="stable")
    ordered = every[order]
    repeats = order[1:][ordered[1:] == ordered[:-1]]
    index = int(repeats.min())
    earlier = int(order[np.searchsorted(ordered, every[index])])
    flip = np.concatenate(flips)
    board = _board_of(int(every[index]), bool(flip[index]))
    swapped = " with the sides swapped" if flip[index] != flip[earlier] else ""
    return ThesisFormatError(f"{_where(source, index)}: board {board} repeats record {earlier + 1}{swapped}")


def _checked_entries(chunks: Iterable[bytes], source: str) -> Iterator[Entry]:
    """Rules 1-5 over a memory image given in chunks of whole records (the last may be cut
    short).  The first fault in file order is raised, as the record-by-record reading would."""
    keys: list[np.ndarray] = []
    flips: list[np.ndarray] = []
    index = 0
    for chunk in chunks:
        whole = len(chunk) // RECORD_BYTES
        rows = np.frombuffer(chunk, dtype=np.uint8, count=whole * RECORD_BYTES).reshape(whole, RECORD_BYTES)
        suspects, firsts, seconds = _suspects(rows)
        chunk_keys, chunk_flips = _keys(rows)
        for row in range(whole):
            at = row * RECORD_BYTES
            if suspects[row]:
                fault, entry = _record_fault(chunk[at : at + RECORD_BYTES], (index + row) * RECORD_BYTES)
                if entry is None:
                    keys.append(chunk_keys[:row])
                    flips.append(chunk_flips[:row])
                    raise _first_repeat(keys, flips, source) or ThesisFormatError(
                        f"{_where(source, index + row)}: {fault}"
                    )
                yield entry
            else:
                yield chunk[at : at + BOARD_DIGITS].decode("ascii"), firsts[row], seconds[row]
        keys.append(chunk_keys)
        flips.append(chunk_flips)
        index += whole
        if len(chunk) % RECORD_BYTES:  # checked after the whole records, so the first problem is named
            raise _first_repeat(keys, flips, source) or ThesisFormatError(
                f"{_where(source, index)} is cut short: {len(chunk) - whole * RECORD_BYTES} of {RECORD_BYTES} bytes "
                f"(the file is not a whole number of records)"
            )
    repeat = _first_repeat(keys, flips, source)
    if repeat is not None:
        raise repeat


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


def open_memory_file(path: Path | str) -> BinaryIO:
    """A thesis memory file opened for :func:`iter_memory_entries`: a FIFO, device or folder is
    refused saying what it is, a file over :data:`MAX_MEMORY_BYTES` by its size, before a read."""
    try:
        return open_regular_file(path, MAX_MEMORY_BYTES, f"a thesis memory ({MAX_MEMORY_RECORDS:,} records)")
    except OSError as error:
        raise ThesisFormatError(f"cannot read {path}: {error.strerror or error}") from None


def read_memory(path: Path | str) -> dict[str, Counts]:
    return {board: (first, second) for board, first, second in read_memory_entries(path)}


def read_memory_entries(path: Path | str) -> list[Entry]:
    with open_memory_file(path) as stream:
        try:
            return list(iter_memory_entries(stream, source=str(path)))
        except OSError as error:
            raise ThesisFormatError(f"cannot read {path}: {error.strerror or error}") from None


def write_memory(records: Records, path: Path | str) -> tuple[int, int, int]:
    """Write ``records`` (a dict, entries, or a stream of entries) to ``path`` whole or not at all,
    :data:`CHUNK_RECORDS` at a time (memory stays bounded).  Refuses, naming the record, what
    reading would refuse; the target is then left as it was.  Returns the number of records and
    the sums of both counts."""
    records_written = firsts = seconds = 0
    keys: list[np.ndarray] = []
    flips: list[np.ndarray] = []
    with AtomicFile(path) as file:
        pending: list[bytes] = []

        def flush() -> None:
            data = b"".join(pending)
            rows = np.frombuffer(data, dtype=np.uint8).reshape(len(pending), RECORD_BYTES)
            suspects, _, _ = _suspects(rows)
            start = records_written - len(pending)
            for row in np.flatnonzero(suspects):
                fault, _ = _record_fault(pending[row], (start + int(row)) * RECORD_BYTES)
                if fault:
                    raise ThesisFormatError(f"record {start + int(row) + 1}: {fault}")
            chunk_keys, chunk_flips = _keys(rows)
            keys.append(chunk_keys)
            flips.append(chunk_flips)
            file.stream.write(data)
            pending.clear()

        for index, (board, first, second) in enumerate(_entries(records)):
            if not isinstance(board, str) or len(board) != BOARD_DIGITS or not board.isascii():
                raise ThesisFormatError(f"record {index + 1}: {board!r} is not a board of 25 digits 0, 1, 2")
            pending.append(board.encode("ascii") + format_count(first) + format_count(second))
            records_written += 1
            firsts += first
            seconds += second
            if len(pending) == CHUNK_RECORDS:
                flush()
        if pending:
            flush()
        repeat = _first_repeat(keys, flips, "records")
        if repeat is not None:
            raise ThesisFormatError(str(repeat).removeprefix("records: "))
    return records_written, firsts, seconds


def read_stat(path: Path | str) -> tuple[int, ...]:
    try:
        with open_regular_file(path) as file:
            size = os.fstat(file.fileno()).st_size
            if size > STAT_BYTES:  # refused by its size: a huge file is never read
                raise ThesisFormatError(
                    f"{path}: {size} bytes, but a stat file is {STAT_BYTES} (nine 4-character counts)"
                )
            data = file.read(STAT_BYTES + 1)
    except OSError as error:
        raise ThesisFormatError(f"cannot read {path}: {error.strerror or error}") from None
    return parse_stat(data, source=str(path))


def write_stat(counts: Sequence[int], path: Path | str) -> None:
    atomic_write_bytes(path, format_stat(counts))
