"""No input file can hang or exhaust the machine (docs/store.md, "Inputs").

A FIFO with no writer, /dev/zero and a folder are refused saying what they are; a file larger
than its format can hold is refused by its size before it is read (sparse files, so the test
writes nothing); a valid memory file is read as a stream, its memory bounded.  Every command
runs as its own process with a timeout: a hang fails the test instead of stopping the run.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from gamelearn.cli.main import main
from gamelearn.files import NotARegularFileError, open_regular_file
from gamelearn.thesis import files as thesis_files
from gamelearn.thesis.files import MAX_MEMORY_BYTES, ThesisFormatError, parse_memory_entries
from reliability_support import REPO, gamelearn, memory_file, one_error_line

pytestmark = [
    pytest.mark.slow,  # every command as its own process
    pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing"),
]

READERS = [
    ("teeko", "memory", "import", "{}"),
    ("teeko", "stat", "import", "{}"),
    ("teeko", "stat", "show", "--file", "{}"),
    ("teeko", "batch", "--games", "1", "--second-memory", "{}"),
    ("play", "teeko", "--first", "thesis:memory={}", "--second", "random"),
    ("menace", "import", "{}"),
    ("her", "import", "{}"),
]


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``gamelearn ARGS`` in this process, through main() (its one-line errors): status, stderr."""
    monkeypatch.setattr(sys, "argv", ["gamelearn", *args])
    with pytest.raises(SystemExit) as stopped:
        main()
    code = stopped.value.code
    return (code if isinstance(code, int) else 0 if code is None else 1), capsys.readouterr().err


@pytest.mark.parametrize("args", READERS, ids=lambda args: " ".join(a for a in args if a != "{}"))
def test_a_fifo_and_a_device_are_refused_saying_what_they_are(
    args: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    fifo = tmp_path / "pipe.m"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "a FIFO (named pipe)"), (Path("/dev/zero"), "a character device")):
        code, err = run_main(monkeypatch, capsys, *(arg.replace("{}", str(path)) for arg in args))
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1, err
        assert str(path) in lines[0] and kind.split(" (")[0] in lines[0], lines[0]


def test_a_fifo_does_not_hang_a_real_process(tmp_path: Path):
    fifo = tmp_path / "pipe.m"
    os.mkfifo(fifo)
    line = one_error_line(gamelearn(tmp_path / "home", "teeko", "memory", "import", str(fifo), timeout=60))
    assert "is a FIFO (named pipe), not a file" in line


def test_a_folder_is_refused_as_a_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    code, err = run_main(monkeypatch, capsys, "teeko", "memory", "import", str(tmp_path))
    assert code == 2 and f"{tmp_path} is a folder, not a file" in err


def test_files_larger_than_their_format_are_refused_by_size_before_a_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    cases = [
        (("teeko", "memory", "import"), "big.m", MAX_MEMORY_BYTES + 33, "more than a thesis memory"),
        (("teeko", "stat", "import"), "stat.m", 2**30, "but a stat file is 36"),
        (("menace", "import"), "boxes.json", 2**30, "more than a knowledge file can hold"),
    ]
    for command, name, size, message in cases:
        path = tmp_path / name
        with path.open("wb") as file:  # sparse: nothing is written to the disk
            file.truncate(size)
        code, err = run_main(monkeypatch, capsys, *command, str(path))
        assert code == 2 and message in err and str(size) in err.replace(",", ""), err


def test_open_regular_file_does_not_block_on_a_fifo_without_a_writer(tmp_path: Path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(NotARegularFileError, match="is a FIFO"):
        open_regular_file(fifo)  # a plain open() would wait here for a writer, for ever


PEAK_PROBE = """
import resource, sys
from gamelearn.store.store import Store
from gamelearn.thesis.memories import import_memory, export_memory
store = Store(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
import_memory(store, sys.argv[2])
export_memory(store, "big", sys.argv[3])
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) // 1024)
"""


def test_a_large_memory_is_imported_and_exported_in_bounded_memory(tmp_path: Path):
    records = 150_000  # 5 MB: read whole, as before, its records and a dict of boards took 63 MB more
    source = memory_file(tmp_path / "big.m", records)
    result = subprocess.run(
        [sys.executable, "-c", PEAK_PROBE, str(tmp_path / "store.sqlite3"), str(source), str(tmp_path / "out.m")],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
        timeout=240,
    )
    assert result.returncode == 0, result.stderr
    growth_mb = int(result.stdout.strip())
    # streamed: 9 bytes a record for the repeat check (2.7 MB) and chunks of 16,384 records
    assert growth_mb < 30, f"peak memory grew by {growth_mb} MB for a {source.stat().st_size // 10**6} MB file"
    assert (tmp_path / "out.m").read_bytes() == source.read_bytes()


# --- the streaming reader says what the record-by-record policy says, for any image --------------


def reference_parse(data: bytes) -> list[tuple[str, int, int]]:
    """Rules 1-5 record by record (the policy's own per-record functions, no chunks, no numpy)."""
    entries, seen = [], thesis_files._Seen()
    whole = len(data) // 33
    for index in range(whole):
        fault, entry = thesis_files._record_fault(data[index * 33 : index * 33 + 33], index * 33)
        if entry is None:
            raise ThesisFormatError(f"memory: record {index + 1} (byte offset {index * 33}): {fault}")
        fault = seen.fault(entry[0], index)
        if fault:
            raise ThesisFormatError(f"memory: record {index + 1} (byte offset {index * 33}): {fault}")
        entries.append(entry)
    if len(data) % 33:
        raise ThesisFormatError(f"memory: record {whole + 1} (byte offset {whole * 33}) is cut short")
    return entries


def mutate(rng: random.Random, data: bytearray) -> bytearray:
    choice = rng.randrange(6)
    records = len(data) // 33
    if choice == 0:  # one byte changed
        data[rng.randrange(len(data))] = rng.choice(b"0123 9\t\xff-+")
    elif choice == 1:  # a record repeated later, maybe with the sides swapped
        index = rng.randrange(records)
        record = bytes(data[index * 33 : index * 33 + 33])
        if rng.random() < 0.5:
            record = record[:25].translate(bytes.maketrans(b"12", b"21")) + record[25:]
        at = rng.randrange(index + 1, records + 1) * 33
        data[at:at] = record
    elif choice == 2:  # cut short
        del data[rng.randrange(len(data)) :]
    elif choice == 3:  # a count field rewritten
        at = rng.randrange(records) * 33 + 25 + rng.choice((0, 4))
        data[at : at + 4] = rng.choice([b"    ", b"   0", b"0007", b"  12", b"9999", b" 1 2", b"  -1"])
    elif choice == 4:  # two faults: which one is named first matters
        return mutate(rng, mutate(rng, data))
    return data


def test_the_streaming_reader_agrees_with_the_record_by_record_policy(monkeypatch):
    monkeypatch.setattr(thesis_files, "CHUNK_RECORDS", 7)  # many chunks, faults on their edges
    base = b"".join(board.encode() + b"   1   2" for board in _boards(60))
    rng = random.Random(11)
    for _ in range(400):
        data = bytes(mutate(rng, bytearray(base)))
        try:
            expected: object = reference_parse(data)
        except ThesisFormatError as error:
            expected = str(error).split(" is cut short")[0]
        try:
            got: object = parse_memory_entries(data)
        except ThesisFormatError as error:
            got = str(error).split(" is cut short")[0]
        assert got == expected, data


def _boards(count: int) -> list[str]:
    from reliability_support import distinct_boards

    return list(distinct_boards(count))


def test_a_matchbox_json_file_is_still_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    payload = {"format": "gamelearn-matchboxes", "version": 1, "kind": "menace", "game": "tictactoe", "games": 0,
               "settings": {}, "boxes": {}}  # fmt: skip
    path = tmp_path / "empty.json"
    path.write_text(json.dumps(payload))
    code, err = run_main(monkeypatch, capsys, "menace", "import", str(path), "--name", "blank")
    assert code == 0, err


def test_deeply_nested_json_is_refused_in_one_line(tmp_path: Path):
    """The JSON decoder recurses once a level: 100,000 levels were a RecursionError, an internal error."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    for kind in ("menace", "her"):
        line = one_error_line(gamelearn(tmp_path / "home", kind, "import", str(deep)))
        assert f"{deep}: nested too deeply to be a knowledge file" in line, line
