"""The workers of a killed experiment end with it (docs/store.md, "Experiments").

`gamelearn curves` and `gamelearn tournament` on 2 worker processes, killed by SIGKILL (nothing of
the parent runs after it): within 5 s no process it started is alive, and its output pipes reach
end-of-file (no orphan holds them open for a supervisor to wait on).  Found through /proc.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from reliability_support import start_gamelearn

pytestmark = [
    pytest.mark.skipif(not Path("/proc").is_dir(), reason="child processes are found through /proc"),
    pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="two worker processes need two CPUs"),
]


def children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def killed_leaves_no_worker(home: Path, *args: str, workers: int) -> None:
    process = start_gamelearn(home, *args)
    started: set[int] = set()
    for _ in range(1200):  # until its worker processes run (a guard, at most 120 s)
        started = children(process.pid)
        if len(started) >= workers or process.poll() is not None:
            break
        time.sleep(0.1)
    assert len(started) >= workers and process.poll() is None, "the command did not start its workers"
    time.sleep(1.0)  # the workers at work
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    deadline = time.monotonic() + 5
    while [pid for pid in started if alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in started if alive(pid)], "worker processes outlived their parent by 5 s"
    assert process.stdout is not None and process.stderr is not None
    process.stdout.read()  # end-of-file: no orphan holds the pipe open (a hang here fails the run)
    process.stderr.read()


@pytest.mark.slow  # a gamelearn started, its workers seen at work, then killed
def test_a_killed_curves_leaves_no_worker_running(tmp_path: Path):
    args = ("curves", "hexapawn", "her", "him", "--seconds", "120", "--points", "2", "--seeds", "1",
            "--eval-games", "2", "--workers", "2", "--out", str(tmp_path))  # fmt: skip
    killed_leaves_no_worker(tmp_path / "home", *args, workers=2)


@pytest.mark.slow  # a gamelearn started, its workers seen at work, then killed
def test_a_killed_tournament_leaves_no_worker_running(tmp_path: Path):
    args = ("tournament", "tictactoe", "random", "mcts:playouts=2000", "minimax:depth=9", "--games", "1000",
            "--workers", "2", "--openings", "none")  # fmt: skip
    killed_leaves_no_worker(tmp_path / "home", *args, workers=3)  # the pool's two, and the games' manager
