"""Store failures say their real cause, in one line, exit status 2 (docs/store.md, "Failures").

Each test makes the failure for real: a read-only file system (or, for a user who is not root,
a folder and file without write permission), a file system filled to the last byte, a lock held
by another process, GAMELEARN_HOME naming a file.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamelearn.store.store import Store, StoreError
from gamelearn.thesis.memories import list_memories, load_memory, save_memory
from reliability_support import fill, gamelearn, make_read_only, memory_file, one_error_line, small_file_system

pytestmark = pytest.mark.slow  # real processes and file systems


@pytest.fixture
def read_only_home(tmp_path: Path) -> Iterator[Path]:
    """A data folder holding a store with one memory ('kept') and a score, then made read-only:
    the file system remounted read-only for root (permissions do not stop root), the folder and
    file without write permission for anyone else."""
    home = tmp_path / "home"
    source = memory_file(tmp_path / "kept.m", 5)

    def populate() -> None:
        assert gamelearn(home, "teeko", "memory", "import", str(source)).returncode == 0
        assert gamelearn(home, "teeko", "stat", "reset").returncode == 0

    if os.geteuid() == 0:
        with small_file_system(home, "4m"):
            populate()
            make_read_only(home)
            yield home
    else:
        home.mkdir()
        populate()
        for path in home.iterdir():
            path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
        home.chmod(stat.S_IRUSR | stat.S_IXUSR)
        try:
            yield home
        finally:
            home.chmod(stat.S_IRWXU)


def test_read_only_commands_work_on_a_read_only_store(read_only_home: Path, tmp_path: Path):
    listed = gamelearn(read_only_home, "teeko", "memory", "list")
    assert listed.returncode == 0, listed.stderr
    assert "kept" in listed.stdout
    exported = gamelearn(read_only_home, "teeko", "memory", "export", "kept", str(tmp_path / "out.m"))
    assert exported.returncode == 0, exported.stderr
    assert (tmp_path / "out.m").read_bytes() == (tmp_path / "kept.m").read_bytes()
    assert gamelearn(read_only_home, "teeko", "memory", "show", "kept").returncode == 0
    assert gamelearn(read_only_home, "teeko", "stat", "show").returncode == 0


def test_a_read_only_store_is_refused_before_a_batch_plays(read_only_home: Path):
    result = gamelearn(read_only_home, "teeko", "batch", "--games", "50", "--second-memory", "kept")
    line = one_error_line(result)
    assert "read-only" in line or "permission denied" in line, line
    assert "games" not in result.stdout  # refused before the first game, not after the last


def test_gamelearn_home_naming_a_file_is_one_line(tmp_path: Path):
    home = tmp_path / "not-a-folder"
    home.write_text("x")
    for args in (("teeko", "memory", "list"), ("teeko", "stat", "reset")):
        line = one_error_line(gamelearn(home, *args))
        assert f"{home} is a file, not a folder" in line


def test_a_full_disk_is_named_and_the_store_stays_whole(tmp_path: Path):
    home = tmp_path / "home"
    big = memory_file(tmp_path / "big.m", 20_000)  # 660 kB: more than the file system holds
    with small_file_system(home, "512k"):
        assert gamelearn(home, "teeko", "stat", "reset").returncode == 0
        fill(home)
        line = one_error_line(gamelearn(home, "teeko", "memory", "import", str(big)))
        assert "the disk is full" in line, line
        (home / "filler").unlink()
        with sqlite3.connect(home / "gamelearn.sqlite3") as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        listed = gamelearn(home, "teeko", "memory", "list")
        assert listed.returncode == 0 and "No memories" in listed.stdout


def test_a_lock_held_by_another_process_is_named_after_a_short_wait(tmp_path: Path):
    path = tmp_path / "gamelearn.sqlite3"
    Store(path).close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            f"db = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
            "db.execute('BEGIN IMMEDIATE')\nprint('held', flush=True)\nsys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(StoreError, match=r"locked by another process \(no write finished for 0\.2 s\); try again"):
            Store(path, lock_wait=0.2)
        with Store(path, readonly=True, lock_wait=0.2) as reader:  # readers are never blocked (WAL)
            assert list_memories(reader) == []
    finally:
        holder.kill()
        holder.wait()


def test_a_read_only_store_that_does_not_exist_reads_as_empty_and_is_not_created(tmp_path: Path):
    path = tmp_path / "nothing" / "gamelearn.sqlite3"
    with Store(path, readonly=True) as store:
        assert list_memories(store) == [] and load_memory(store, "x") is None
        with pytest.raises(StoreError, match="opened read-only"):
            save_memory(store, "x", [])
    assert not path.parent.exists()


def test_a_file_that_is_not_a_database_is_named_so(tmp_path: Path):
    path = tmp_path / "gamelearn.sqlite3"
    path.write_bytes(b"not sqlite at all" * 100)
    for readonly in (False, True):
        with pytest.raises(StoreError, match="not a gamelearn database"):
            Store(path, readonly=readonly)


# --- every command checks its store before any work ---------------------------------------------


def damage(path: Path) -> None:
    """Overwrite every page of the database but the first (its header and schema survive)."""
    size = path.stat().st_size
    assert size > 4 * 4096
    with path.open("r+b") as file:
        file.seek(4096)
        file.write(b"\xff" * (size - 4096))


#: Commands that use the store, each as cheap as it can be; every one must refuse a broken store
#: in one line, before its work.
STORE_COMMANDS = (
    ("teeko", "memory", "list"),
    ("teeko", "memory", "show", "kept"),
    ("teeko", "stat", "show"),
    ("teeko", "stat", "reset"),
    ("teeko", "batch", "--games", "3", "--second-memory", "kept"),
    ("menace", "show", "kept"),
    ("menace", "--learners", "1", "--games", "5"),
    ("play", "tictactoe", "--first", "random", "--second", "menace:name=kept", "--seed", "1"),
)


def test_a_damaged_store_is_named_damaged_by_every_command_before_its_work(tmp_path: Path):
    home = tmp_path / "home"
    assert gamelearn(home, "teeko", "memory", "import", str(memory_file(tmp_path / "kept.m", 3000))).returncode == 0
    (home / "gamelearn.sqlite3-wal").unlink(missing_ok=True)  # the last writer checkpointed it
    damage(home / "gamelearn.sqlite3")
    for args in STORE_COMMANDS:
        result = gamelearn(home, *args)
        line = one_error_line(result)
        assert f"the store {home / 'gamelearn.sqlite3'} is damaged (" in line, (args, line)
        assert "games" not in result.stdout and "plays" not in result.stdout, args  # before any game
        if args[0] == "play":
            assert result.stdout == "", result.stdout  # not even the players line: the error is the only one


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="a folder that cannot be made: Linux's /proc")
def test_a_store_whose_folder_cannot_be_made_is_named_by_every_command(tmp_path: Path):
    home = Path("/proc/gamelearn-cannot-be-here")  # nothing can be made in /proc: not even by root
    assert not home.exists()
    for args in (*STORE_COMMANDS, ("tournament", "tictactoe", "random", "random", "--games", "2")):
        line = one_error_line(gamelearn(home, *args))
        assert f"the folder {home} is missing and cannot be made" in line, (args, line)
    assert not home.exists()
