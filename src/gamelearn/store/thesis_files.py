"""The thesis's own files, byte for byte: memory.m and stat.m (THESIS-FACTS.md sections a, b).

* memory.m: 33-byte ASCII records back to back, no separators: 25 board digits (row by row; '0'
  empty, '1' side +1, '2' side -1), then the games side '1' won and the games side '2' won from
  that position, each right-aligned in 4 characters, zero written as four spaces.
* stat.m: nine such 4-character counts (36 bytes): self-play X wins, draws, O wins; games the
  program began won/drawn/lost; games it played second won/drawn/lost.

``read_memory(path)`` gives a dict (file order kept) from the 25-digit board to
``(wins of '1', wins of '2')``; ``write_memory(mapping, path)`` writes it back byte for byte, through
a temporary file and ``os.replace`` so a crash never leaves half a file.  ``parse_memory`` /
``format_memory`` do the same on bytes; ``read_stat`` / ``write_stat`` / ``parse_stat`` /
``format_stat`` for stat.m.

What is accepted is what the original could have written, so that reading and writing again gives
the same bytes: digits right-aligned without leading zeros, or four spaces; a board of 25 digits
'0'/'1'/'2'; no board twice (a dict could not keep both).  A board's pawn counts are not checked:
the original writes whatever boards it played.  Anything else raises ``ValueError`` naming the
record number (from 1), its byte offset and what is wrong.  An all-space count reads as 0, as the
original's atoi does.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

RECORD_BYTES = 33
BOARD_DIGITS = 25
FIELD_WIDTH = 4
STAT_FIELDS = 9
STAT_BYTES = STAT_FIELDS * FIELD_WIDTH
MAX_COUNT = 9999

Counts = tuple[int, int]


def format_count(count: int) -> bytes:
    """A count as the original's myitoa writes it: right-aligned in 4, zero as four spaces."""
    if not isinstance(count, int) or not 0 <= count <= MAX_COUNT:
        raise ValueError(f"count {count!r} does not fit in 4 characters (0..{MAX_COUNT})")
    return b"    " if count == 0 else str(count).rjust(FIELD_WIDTH).encode("ascii")


def parse_count(field: bytes) -> int | None:
    """The value of a 4-byte count field, or None if the original could not have written it."""
    if len(field) != FIELD_WIDTH:
        return None
    if field == b"    ":
        return 0
    digits = field.lstrip(b" ")
    if not digits.isdigit() or digits.startswith(b"0"):
        return None  # a blank inside or after the digits, a sign, a leading zero: never written
    return int(digits)


def _describe(field: bytes) -> str:
    return repr(field.decode("latin-1"))


def parse_memory(data: bytes, source: str = "memory") -> dict[str, Counts]:
    """The records of a memory.m image, in file order; ValueError naming record, offset and fault."""
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError("parse_memory takes bytes")
    records: dict[str, Counts] = {}
    whole = len(data) // RECORD_BYTES
    for number in range(whole):
        offset = number * RECORD_BYTES
        raw = bytes(data[offset : offset + RECORD_BYTES])
        where = f"{source}: record {number + 1} (byte offset {offset})"
        board_bytes = raw[:BOARD_DIGITS]
        for k, byte in enumerate(board_bytes):
            if byte not in b"012":
                raise ValueError(
                    f"{where}: board digit {k + 1} (byte offset {offset + k}) is {_describe(bytes([byte]))}, not 0, 1 or 2"
                )
        board = board_bytes.decode("ascii")
        counts = []
        for which in range(2):
            start = BOARD_DIGITS + which * FIELD_WIDTH
            field = raw[start : start + FIELD_WIDTH]
            value = parse_count(field)
            if value is None:
                raise ValueError(
                    f"{where}: count {which + 1} (byte offset {offset + start}) is {_describe(field)}, "
                    "not a number right-aligned in 4 characters or four spaces"
                )
            counts.append(value)
        if board in records:
            raise ValueError(f"{where}: board {board} appears twice in the file")
        records[board] = (counts[0], counts[1])
    if len(data) % RECORD_BYTES:
        offset = whole * RECORD_BYTES
        raise ValueError(
            f"{source}: record {whole + 1} (byte offset {offset}) is cut short: {len(data) - offset} of "
            f"{RECORD_BYTES} bytes ({len(data)} bytes is not a whole number of records)"
        )
    return records


def format_memory(records: Mapping[str, Counts]) -> bytes:
    """The memory.m image of ``records`` in their order."""
    parts = []
    for number, (board, counts) in enumerate(records.items()):
        if not isinstance(board, str) or len(board) != BOARD_DIGITS or set(board) - set("012"):
            raise ValueError(f"record {number + 1}: {board!r} is not a board of 25 digits 0, 1, 2")
        first, second = counts
        parts.append(board.encode("ascii") + format_count(first) + format_count(second))
    return b"".join(parts)


def parse_stat(data: bytes, source: str = "stat") -> tuple[int, ...]:
    """The nine counts of a stat.m image; ValueError naming the field, its offset and the fault."""
    if len(data) != STAT_BYTES:
        raise ValueError(f"{source}: {len(data)} bytes, but stat.m is {STAT_BYTES} (nine 4-character counts)")
    counts = []
    for index in range(STAT_FIELDS):
        offset = index * FIELD_WIDTH
        field = bytes(data[offset : offset + FIELD_WIDTH])
        value = parse_count(field)
        if value is None:
            raise ValueError(
                f"{source}: field {index + 1} (byte offset {offset}) is {_describe(field)}, "
                "not a number right-aligned in 4 characters or four spaces"
            )
        counts.append(value)
    return tuple(counts)


def format_stat(counts: Sequence[int]) -> bytes:
    if len(counts) != STAT_FIELDS:
        raise ValueError(f"stat.m holds {STAT_FIELDS} counts, not {len(counts)}")
    return b"".join(format_count(c) for c in counts)


def _read(path: Path | str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror or error}") from None


def atomic_write(path: Path | str, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or Path("."))
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def read_memory(path: Path | str) -> dict[str, Counts]:
    return parse_memory(_read(path), source=str(path))


def write_memory(records: Mapping[str, Counts], path: Path | str) -> None:
    atomic_write(path, format_memory(records))


def read_stat(path: Path | str) -> tuple[int, ...]:
    return parse_stat(_read(path), source=str(path))


def write_stat(counts: Sequence[int], path: Path | str) -> None:
    atomic_write(path, format_stat(counts))
