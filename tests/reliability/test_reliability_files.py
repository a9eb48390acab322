"""Exported files leave nothing behind (docs/store.md, "Files"): a temporary file a killed export
left beside its target is removed by the next write of that target, and a rename is made durable
by syncing its folder."""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gamelearn import files
from gamelearn.files import STALE_SECONDS, AtomicFile, atomic_write_bytes, remove_stale_temporaries
from reliability_support import REPO, gamelearn, memory_file, one_error_line

pytestmark = pytest.mark.slow  # real processes, killed

KILLED_MID_EXPORT = """
import os, signal, sys
from gamelearn.files import AtomicFile
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


# --- what the target is: a FIFO, a socket or a folder is refused; a link is followed -------------


@pytest.fixture
def kept_home(tmp_path: Path) -> Path:
    """A store holding the memory 'kept' (3 records) and a score."""
    home = tmp_path / "home"
    assert gamelearn(home, "teeko", "memory", "import", str(memory_file(tmp_path / "kept.m", 3))).returncode == 0
    assert gamelearn(home, "teeko", "stat", "reset").returncode == 0
    return home


def refused_writes(home: Path, target: Path) -> list[str]:
    """Every file-writing command of the store's tools aimed at ``target``; each one line, exit 2."""
    lines = []
    for args in (
        ("teeko", "memory", "export", "kept", str(target)),
        ("teeko", "stat", "export", str(target)),
        ("teeko", "stat", "reset", "--file", str(target)),
        ("teeko", "batch", "--games", "1", "--trace", str(target)),
    ):
        lines.append(one_error_line(gamelearn(home, *args, timeout=60)))
    return lines


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs: POSIX")
def test_a_fifo_target_is_refused_and_stays_a_fifo(kept_home: Path, tmp_path: Path):
    fifo = tmp_path / "out" / "pipe.m"
    fifo.parent.mkdir()
    os.mkfifo(fifo)
    for line in refused_writes(kept_home, fifo):
        assert f"{fifo}: it is a FIFO (named pipe), not a file; nothing was written" in line, line
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in fifo.parent.iterdir()) == ["pipe.m"]  # no temporary left


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="UNIX sockets: POSIX")
def test_a_socket_target_is_refused(kept_home: Path, tmp_path: Path):
    path = tmp_path / "sock.m"
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(path))
        line = one_error_line(gamelearn(kept_home, "teeko", "memory", "export", "kept", str(path)))
    assert f"{path}: it is a socket, not a file; nothing was written" in line
    assert stat.S_ISSOCK(os.lstat(path).st_mode)


def test_a_symlink_is_followed_its_target_replaced_and_the_link_kept(kept_home: Path, tmp_path: Path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    real = elsewhere / "real.m"
    real.write_bytes(b"old")
    link = tmp_path / "link.m"
    link.symlink_to(real)
    exported = gamelearn(kept_home, "teeko", "memory", "export", "kept", str(link))
    assert exported.returncode == 0, exported.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)  # still the same link
    assert real.read_bytes() == (tmp_path / "kept.m").read_bytes()  # its target has the content
    assert temporaries(tmp_path, "link.m") == [] and temporaries(elsewhere, "real.m") == []
    dangling = tmp_path / "dangling.m"  # a link to a file not made yet: refused, nothing made
    dangling.symlink_to(elsewhere / "new.m")
    refused = gamelearn(kept_home, "teeko", "stat", "export", str(dangling))
    assert refused.returncode == 2 and f"is a link to {elsewhere / 'new.m'}, which does not exist" in refused.stderr
    assert dangling.is_symlink() and not (elsewhere / "new.m").exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs: POSIX")
def test_a_symlink_to_a_fifo_is_refused_naming_both(kept_home: Path, tmp_path: Path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "link.m"
    link.symlink_to(fifo)
    for line in refused_writes(kept_home, link):
        assert f"cannot write {link}: it leads to {fifo}, a FIFO (named pipe)" in line, line
    assert link.is_symlink() and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    loop = tmp_path / "loop.m"
    loop.symlink_to(loop)
    line = one_error_line(gamelearn(kept_home, "teeko", "memory", "export", "kept", str(loop)))
    assert "too many symbolic links" in line
