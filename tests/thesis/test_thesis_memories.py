"""Thesis memory and stat files in and out of the store (thesis/memories.py), and the memory tables the package registers with the store.

Oracles: the thesis author's own files (byte for byte) and the record counts and sums that
../shared/thesis-data/README.md lists for them, computed there independently.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelearn.store.store import Store
from gamelearn.thesis import memories as tm
from gamelearn.thesis.board import digits_key
from gamelearn.thesis.memories import list_memories, load_memory, save_memory
from gamelearn.thesis.memory import Memory

# (file, records, sum of field 1, sum of field 2) from thesis-data/README.md
README_TABLE = [
    ("memory after 10000 games.txt", 516, 57659, 17974),
    ("memory.m", 516, 57670, 17974),
    ("2.m", 177, 40847, 12500),
    ("memory after 2000 games.txt", 387, 10363, 4397),
    ("memory after 2500 games.txt", 444, 12570, 5999),
    ("memory after 3000 games.txt", 482, 15144, 7142),
    ("memory 500 games all vs all.txt", 296, 5482, 2610),
    ("memory 500 games 500 vs 0.txt", 342, 7710, 3897),
    ("memory 1500 vs 0 500 games.txt", 340, 7581, 3491),
    ("memory all vs nothing 100.txt", 2244, 2506, 0),
]

BOARD = "0000002120021000121000000"  # four 1s, four 2s
OTHER = "0000002120021000120000010"


def record(board: str, first: str, second: str) -> bytes:
    return (board + first + second).encode("ascii")


@pytest.mark.parametrize("name,records,x_sum,o_sum", README_TABLE)
def test_thesis_files_round_trip_byte_for_byte(thesis_data: Path, name: str, records: int, x_sum: int, o_sum: int):
    data = (thesis_data / name).read_bytes()
    entries = tm.parse_memory_entries(data)
    assert (len(entries), sum(e[1] for e in entries), sum(e[2] for e in entries)) == (records, x_sum, o_sum)
    assert tm.format_memory(entries) == data


def test_store_import_export_is_byte_for_byte(thesis_data: Path, tmp_path: Path):
    source = thesis_data / "memory after 10000 games.txt"
    store = Store(tmp_path / "db.sqlite3")
    summary = tm.import_memory(store, source)
    assert summary.name == "memory-after-10000-games"
    assert (summary.records, summary.x_wins, summary.o_wins) == (516, 57659, 17974)
    target = tmp_path / "out.m"
    tm.export_memory(store, summary.name, target)
    assert target.read_bytes() == source.read_bytes()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_stat_file_round_trip(thesis_data: Path):
    data = (thesis_data / "stat.m").read_bytes()
    counts = tm.parse_stat(data)
    assert counts == (3214, 2681, 1106, 0, 0, 0, 0, 0, 0)
    assert tm.format_stat(counts) == data
    assert tm.format_stat((0,) * 9) == b" " * 36


@pytest.mark.parametrize(
    "data,expected",
    [
        (record(BOARD, "   1", "    ") + b"12345", "record 2 (byte offset 33) is cut short: 5 of 33 bytes"),
        (
            record(BOARD, "   1", "    ") + record(OTHER.replace("0", "3", 1), "   1", "    "),
            "record 2 (byte offset 33): board digit 1 (byte offset 33) is '3'",
        ),
        (record(BOARD, "0001", "    "), "record 1 (byte offset 0): count field 1 (byte offset 25) is '0001'"),
        (record(BOARD, "   1", "   0"), "record 1 (byte offset 0): count field 2 (byte offset 29) is '   0'"),
        (
            record("1111000002222000000000000".replace("1111", "1110"), "   1", "    "),
            "has 3 pawns of side 1 and 4 of side 2",
        ),
        (
            record(BOARD, "   1", "    ") + record(OTHER, "   2", "    ") + record(BOARD, "   3", "    "),
            "record 3 (byte offset 66): board " + BOARD + " repeats record 1",
        ),
        (
            record(OTHER, "   1", "    ") + record(tm.swap_sides(OTHER), "   2", "    "),
            "repeats record 1 with the sides swapped",
        ),
        (
            record(BOARD, "   1", "    ")[:-1] + "é".encode(),
            "record 1 (byte offset 0): byte offset 32 holds 0xc3, a byte that is not ASCII",
        ),
        (record(BOARD, "   1", "    ").replace(b"    ", b"   \n"), "count field 2 (byte offset 29) is '   \\n'"),
    ],
)
def test_corrupt_files_are_refused_naming_record_offset_and_problem(data: bytes, expected: str):
    with pytest.raises(tm.ThesisFormatError) as caught:
        tm.parse_memory_entries(data, source="f")
    assert expected in str(caught.value)


def test_refused_import_leaves_the_store_unchanged(tmp_path: Path):
    db_path = tmp_path / "db.sqlite3"
    store = Store(db_path)
    good = tmp_path / "good.m"
    good.write_bytes(record(BOARD, "   3", "   1") + record(OTHER, "    ", "  12"))
    tm.import_memory(store, good, name="kept")
    before = (list_memories(store), load_memory(store, "kept"))
    bad = tmp_path / "bad.m"
    bad.write_bytes(record(BOARD, "   3", "   1") + record(OTHER, "    ", "  1x"))
    for name in ("kept", "new"):
        with pytest.raises(ValueError, match="record 2 .byte offset 33.: count field 2 .byte offset 62. is '  1x'"):
            tm.import_memory(store, bad, name=name, replace=True)
    with pytest.raises(ValueError, match="already in the store"):
        tm.import_memory(store, good, name="kept")
    assert (list_memories(store), load_memory(store, "kept")) == before


def test_failed_export_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    store = Store(tmp_path / "db.sqlite3")
    save_memory(store, "m", [(BOARD, 5, 0)])
    target = tmp_path / "out.m"
    target.write_bytes(b"old contents")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        tm.export_memory(store, "m", target)
    assert target.read_bytes() == b"old contents"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".out.m")) == []
    monkeypatch.undo()
    target.chmod(0o640)
    tm.export_memory(store, "m", target)
    assert target.read_bytes() == record(BOARD, "   5", "    ")
    assert target.stat().st_mode & 0o777 == 0o640  # the target keeps its mode
    fresh = tmp_path / "fresh.m"
    tm.export_memory(store, "m", fresh)
    umask = os.umask(0)
    os.umask(umask)
    assert fresh.stat().st_mode & 0o777 == 0o666 & ~umask  # a new file as open() would make it


def test_stat_in_the_store(tmp_path: Path):
    store = Store(tmp_path / "db.sqlite3")
    assert tm.load_stat(store) == (0,) * 9
    tm.add_to_stat(store, 4)
    tm.add_to_stat(store, 4)
    assert tm.add_to_stat(store, 8) == (0, 0, 0, 0, 2, 0, 0, 0, 1)
    assert tm.load_stat(Store(tmp_path / "db.sqlite3")) == (0, 0, 0, 0, 2, 0, 0, 0, 1)


def test_bad_stat_files_are_refused():
    with pytest.raises(tm.ThesisFormatError, match="35 bytes"):
        tm.parse_stat(b" " * 35)
    with pytest.raises(tm.ThesisFormatError, match="field 3 .byte offset 8. is '12 3'"):
        tm.parse_stat(b"   1   2" + b"12 3" + b" " * 24)


def boards() -> st.SearchStrategy[str]:
    cells = ["1"] * 4 + ["2"] * 4 + ["0"] * 17
    return st.permutations(cells).map("".join)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(boards(), st.integers(0, 9999), st.integers(0, 9999)), max_size=12))
def test_any_valid_memory_round_trips(raw: list[tuple[str, int, int]]):
    entries, seen = [], set()
    for board, x_wins, o_wins in raw:
        if board in seen or tm.swap_sides(board) in seen:
            continue
        seen.add(board)
        entries.append((board, x_wins, o_wins))
    data = tm.format_memory(entries)
    assert len(data) == 33 * len(entries)
    assert tm.parse_memory_entries(data) == entries


@pytest.mark.parametrize("run", ["A-1", "A-2", "A-3", "A-4", "C-1", "C-2", "C-3", "C-4"])
def test_learning_reproduces_the_originals_memories_from_its_traces(thesis_data: Path, run: str):
    """Replay the boards of every won game of a reference run (TRACE PLY/END lines of the original
    program) through the thesis player's learning rule (``Memory.learn``, which the keeper applies):
    both memories must come out as the original left them."""
    import re

    traces = thesis_data / "original-traces"
    first = Memory()
    second = Memory(tm.read_memory_entries(thesis_data / "memory after 10000 games.txt") if run[0] == "C" else [])
    boards: dict[int, list[str]] = {}
    for line in (traces / f"run-{run}.out").read_text().splitlines():
        ply = re.match(r"TRACE PLY g=(\d+) n=(\d+) .* b=(\d{25})$", line)
        if ply and int(ply[2]) >= 9:
            boards.setdefault(int(ply[1]), []).append(ply[3])
        end = re.match(r"TRACE END g=(\d+) .*result=([XOD])", line)
        if end and end[2] != "D":
            keys = [digits_key(board) for board in boards[int(end[1])]]
            winner = 1 if end[2] == "X" else -1
            first.learn(keys, winner)
            second.learn(keys, winner)
    assert tm.format_memory(list(first.entries())) == (traces / f"run-{run}.memory.m").read_bytes()
    assert tm.format_memory(list(second.entries())) == (traces / f"run-{run}.memory2.m").read_bytes()


def test_learning_by_hand():
    memory = Memory([(BOARD, 2, 1), (OTHER, 0, 4)])
    swapped = tm.swap_sides(OTHER)
    new = "2222100010001000000000000"
    memory.learn([digits_key(board) for board in (swapped, BOARD, new, new)], winner=1)
    # the swap of OTHER matches record 2 swapped: side 1's win lands in its second count
    assert memory.take_changes() == {0: (BOARD, 3, 1), 1: (OTHER, 0, 5), 2: (new, 2, 0)}


def test_regression_a_record_with_both_counts_blank_was_refused(tmp_path: Path):
    """The original's reader takes an all-space count as 0, so a record with both counts blank is a
    memory entry (0, 0); it was refused. It must read, stay in its place through the store, and be
    written back byte for byte."""
    blank_blank = record(OTHER, "    ", "    ")
    data = record(BOARD, "   3", "   1") + blank_blank + record("1111000002222000000000000", "    ", "  12")
    assert tm.parse_memory_entries(data) == [(BOARD, 3, 1), (OTHER, 0, 0), ("1111000002222000000000000", 0, 12)]
    assert tm.format_memory(tm.parse_memory_entries(data)) == data
    original = tmp_path / "memory.m"
    original.write_bytes(data)
    store = Store(tmp_path / "db.sqlite3")
    summary = tm.import_memory(store, original, name="blanks")
    assert summary.records == 3
    tm.export_memory(store, "blanks", tmp_path / "again.m")
    again = (tmp_path / "again.m").read_bytes()
    assert again == data and again[33:66] == blank_blank
    # Learning from a game through that board counts from 0, as the original would.
    memory = Memory(tm.parse_memory_entries(data))
    memory.learn([digits_key(OTHER)], winner=-1)
    assert memory.take_changes() == {1: (OTHER, 0, 1)}


def test_the_memory_tables_come_with_the_package_not_the_store(tmp_path: Path) -> None:
    """The store makes no memory table of its own: a store opened by a process that has not
    imported the thesis package has none, and gets them (in the same open store) as soon as the
    package registers them; a store opened after that has them from the start.  In a fresh
    interpreter, since this one registered them long ago."""
    program = (
        "import sqlite3, sys\n"
        "from gamelearn.store.store import Store\n"
        "path = sys.argv[1]\n"
        "def tables():\n"
        "    db = sqlite3.connect(path)\n"
        "    found = {row[0] for row in db.execute(\"SELECT name FROM sqlite_master WHERE type='table'\")}\n"
        "    db.close()\n"
        "    return found & {'memories', 'memory_entries'}\n"
        "store = Store(path)\n"
        "assert 'gamelearn.thesis' not in sys.modules and tables() == set(), tables()\n"
        "from gamelearn.thesis.memories import list_memories, load_memory, save_memory\n"
        "save_memory(store, 'late', [('0000002120021000121000000', 3, 1)])\n"
        "assert tables() == {'memories', 'memory_entries'}\n"
        "store.close()\n"
        "fresh = Store(path + '-2')\n"
        "print(list_memories(store=Store(path)), load_memory(Store(path), 'late'), list_memories(fresh))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", program, str(tmp_path / "store.sqlite3")], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[0] == "['late'] [('0000002120021000121000000', 3, 1)] []"
