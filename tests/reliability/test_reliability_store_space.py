"""The store on a small disk, cut to nothing, and behind an exclusive lock (docs/store.md, "A full
disk", "A store cut short", "Locks").

A full disk is named with what was kept, and with the warning that the ``-wal`` file is part of the
store; the write-ahead log is kept to a part of the room the disk had, so a small disk holds what
the database fits in; a 0-byte store is damaged, never read as an empty one; a reader that meets
an exclusive lock waits as long as it says.  Real processes, small tmpfs file systems (root).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamelearn.store.store import Store, StoreError
from gamelearn.thesis.memories import list_memories
from reliability_support import gamelearn, one_error_line, small_file_system

BATCH = ("teeko", "batch", "--first-memory", "a", "--second-memory", "b", "--new", "--quiet")


def leave_free(folder: Path, room: int) -> None:
    """Fill the file system of ``folder`` but for ``room`` bytes."""
    stats = os.statvfs(folder)
    with (folder / "filler").open("wb") as filler:
        filler.write(b"\0" * max(0, stats.f_bavail * stats.f_frsize - room))


@pytest.mark.slow  # 20,000 games, and a batch that the disk stops
def test_a_small_disk_holds_a_batch_and_a_full_one_says_what_was_kept(tmp_path: Path):
    home = tmp_path / "home"
    with small_file_system(home, "2M"):  # the log bounded: the games fit where the database does
        whole = gamelearn(home, *BATCH, "--games", "6000", timeout=300)  # an unbounded log filled it at 2,709
        assert whole.returncode == 0, whole.stderr
    with small_file_system(home, "2M"):
        assert gamelearn(home, "teeko", "stat", "reset").returncode == 0
        leave_free(home, 160_000)
        line = one_error_line(gamelearn(home, *BATCH, "--games", "20000", timeout=300))
        assert "the disk is full" in line and "never delete gamelearn.sqlite3-wal: it is part of the store" in line
        kept = int(line.split(" of the 20,000 games are kept")[0].rsplit("; ", 1)[1].replace(",", ""))
        assert 0 < kept < 20_000, line
        (home / "filler").unlink()
        with sqlite3.connect(home / "gamelearn.sqlite3") as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        with Store(home / "gamelearn.sqlite3", readonly=True) as store:
            (result,) = store.results("teeko-batch")
        assert result["games"] == kept  # what the line says is what the store holds
        again = gamelearn(home, *BATCH[:-2], "--quiet", "--games", "10")  # the memories go on
        assert again.returncode == 0, again.stderr


@pytest.mark.slow  # a gamelearn started
def test_a_full_disk_at_open_is_one_line_naming_the_wal(tmp_path: Path):
    home = tmp_path / "home"
    with small_file_system(home, "1M"):
        assert gamelearn(home, "teeko", "stat", "reset").returncode == 0
        leave_free(home, 0)
        line = one_error_line(gamelearn(home, *BATCH, "--games", "10"))
        assert "the disk is full" in line and "-wal: it is part of the store" in line, line


def test_a_store_cut_to_nothing_is_damaged(tmp_path: Path):
    path = tmp_path / "gamelearn.sqlite3"
    Store(path).close()
    path.write_bytes(b"")
    for readonly in (False, True):
        with pytest.raises(StoreError, match="is damaged .*0 bytes long"):
            Store(path, readonly=readonly)
    assert path.stat().st_size == 0  # left as it was, for a person to look at


@pytest.mark.slow  # eight processes started
def test_a_store_made_by_many_processes_at_once_is_never_seen_empty(tmp_path: Path):
    # Eight processes open one new store at once: none meets a 0-byte file (it is made whole, then
    # linked into place), so none calls it damaged.
    path = tmp_path / "gamelearn.sqlite3"
    code = f"from gamelearn.store.store import Store; Store({str(path)!r}).close(); print('ok')"
    starters = [
        subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(8)
    ]
    for process in starters:
        out, err = process.communicate(timeout=60)
        assert out.strip() == "ok", err
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == []


def test_a_reader_behind_an_exclusive_lock_waits_as_long_as_it_says(tmp_path: Path):
    path = tmp_path / "gamelearn.sqlite3"
    Store(path).close()
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sqlite3, sys\n"
         f"db = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
         "db.execute('PRAGMA locking_mode=EXCLUSIVE')\ndb.execute('BEGIN EXCLUSIVE')\n"
         "db.execute(\"INSERT OR REPLACE INTO meta VALUES ('x', '1')\")\nprint('held', flush=True)\nsys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        started = time.monotonic()
        with pytest.raises(StoreError, match=r"locked by another process \(no write finished for 0\.6 s\)"):
            with Store(path, readonly=True, lock_wait=0.6) as reader:
                list_memories(reader)
        assert time.monotonic() - started >= 0.6  # it waited what it says it did
    finally:
        holder.kill()
        holder.wait()
