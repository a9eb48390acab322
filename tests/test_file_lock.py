"""The lock beside a rewritten file (gamelearn/files.py FileLock) where there is no ``fcntl`` (Windows):
the ``filelock`` library's lock on the same ``.NAME.lock`` file.  Here, on a POSIX machine, the
path without fcntl is taken by hiding the module from FileLock (filelock keeps its own); a real
process holds each kind of lock, and the other kind is refused while it does, taken after."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import filelock  # noqa: F401 - imported first: it keeps its own fcntl when FileLock's is hidden
import pytest

from gamelearn.files import FileInUseError, FileLock
from reliability_support import REPO

HOLD = """
import sys
import filelock
if sys.argv[2] == "hidden":
    sys.modules["fcntl"] = None
from gamelearn.files import FileLock
lock = FileLock(sys.argv[1])
lock.acquire()
print("held", flush=True)
sys.stdin.read()
lock.release()
"""


def held_by_another_process(path: Path, how: str) -> subprocess.Popen:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path), how],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={"PYTHONPATH": str(REPO / "src"), "PATH": ""},
    )  # fmt: skip
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


@pytest.mark.parametrize(("mine", "theirs"), [("hidden", "fcntl"), ("fcntl", "hidden"), ("hidden", "hidden")])
def test_the_lock_without_fcntl_excludes_and_is_excluded(mine: str, theirs: str, tmp_path: Path, monkeypatch):
    target = tmp_path / "memory.m"
    if mine == "hidden":
        monkeypatch.setitem(sys.modules, "fcntl", None)  # `import fcntl` fails, as on Windows
    holder = held_by_another_process(target, theirs)
    try:
        with pytest.raises(FileInUseError, match="another gamelearn is using"):
            FileLock(target).acquire()
    finally:
        holder.communicate(timeout=30)
    lock = FileLock(target)
    lock.acquire()  # the other process let it go
    with pytest.raises(FileInUseError):
        FileLock(target).acquire()  # one process, two holders: refused as two processes are
    lock.release()
    FileLock(target).acquire()
