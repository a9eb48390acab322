"""Exported files leave nothing behind (docs/store.md, "Files"): a temporary file a killed export
left beside its target is removed by the next write of that target, and a rename is made durable
by syncing its folder."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamelearn.store import files
from gamelearn.store.files import STALE_SECONDS, AtomicFile, atomic_write_bytes, remove_stale_temporaries
from reliability_support import REPO, gamelearn, memory_file

KILLED_MID_EXPORT = """
import os, signal, sys
from gamelearn.store.files import AtomicFile
file = AtomicFile(sys.argv[1])
file.stream.write(b"x" * 100000)
file.stream.flush()
print(file.temporary, flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # between the write and the rename
"""


def temporaries(folder: Path, name: str) -> list[Path]:
    return sorted(folder.glob(f".{name}.*.tmp"))


def test_a_temporary_left_by_a_killed_export_is_removed_by_the_next_write(tmp_path: Path):
    target = tmp_path / "out.m"
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_MID_EXPORT, str(target)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
        timeout=60,
    )
    assert killed.returncode == -signal.SIGKILL
    left = Path(killed.stdout.strip())
    assert left.exists() and temporaries(tmp_path, "out.m") == [left] and not target.exists()
    # the next export of the same target, by the command, cleans up
    home = tmp_path / "home"
    source = memory_file(tmp_path / "kept.m", 3)
    assert gamelearn(home, "teeko", "memory", "import", str(source)).returncode == 0
    exported = gamelearn(home, "teeko", "memory", "export", "kept", str(target))
    assert exported.returncode == 0, exported.stderr
    assert temporaries(tmp_path, "out.m") == []
    assert target.read_bytes() == source.read_bytes()


def test_only_our_stale_temporaries_are_removed(tmp_path: Path):
    target = tmp_path / "memory.m"
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(finished.stdout)
    running = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        names = {
            "dead": f".memory.m.{dead_pid:x}-{'a' * 12}.tmp",  # its process has ended: stale
            "running": f".memory.m.{running.pid:x}-{'b' * 12}.tmp",  # still being written: kept
            "old": f".memory.m.{'c' * 12}.tmp",  # no pid, older than STALE_SECONDS: stale
            "young": f".memory.m.{'d' * 12}.tmp",  # no pid, recent: kept
            "foreign": ".memory.m.backup.tmp",  # not a name of ours: kept
            "other target": f".other.m.{dead_pid:x}-{'e' * 12}.tmp",  # another target's: kept
        }
        for name in names.values():
            (tmp_path / name).write_bytes(b"x")
        old = time.time() - STALE_SECONDS - 60
        os.utime(tmp_path / names["old"], (old, old))
        atomic_write_bytes(target, b"new")
        left = {path.name for path in tmp_path.iterdir()}
        assert names["dead"] not in left and names["old"] not in left
        for kept in ("running", "young", "foreign", "other target"):
            assert names[kept] in left, kept
        assert target.read_bytes() == b"new"
        assert remove_stale_temporaries(target) == []  # nothing more to do
    finally:
        running.kill()
        running.wait()


def test_the_folder_is_synced_after_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    synced: list[str] = []
    real_fsync = os.fsync

    def spy(handle: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(handle).st_mode) else "file")
        real_fsync(handle)

    monkeypatch.setattr(files.os, "fsync", spy)
    with AtomicFile(tmp_path / "out.txt") as file:
        file.stream.write(b"data")
    assert synced == ["file", "folder"]  # the data first, then the rename
    assert (tmp_path / "out.txt").read_bytes() == b"data"
