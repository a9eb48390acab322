"""A dead trainer's lease holds nothing, even once its PID is given to another process
(docs/store.md, "Beside a trainer").

A lease names its trainer by its PID and by when that process started (``/proc/PID/stat``), so a
process that is later given the same number is another process: an unrelated one does not keep
the learner held, and a ``gamelearn play`` that itself got the number does not refuse itself.
The PID is reused for real: as root, ``/proc/sys/kernel/ns_last_pid`` is set to the one before it
and a process started (Linux gives the next free number); a few tries, since other processes of
the machine may take it first.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from reliability_support import Lines, command_env, start_gamelearn

NS_LAST_PID = Path("/proc/sys/kernel/ns_last_pid")
#: Tries to be given one PID before the test gives up (each is one process started).
TRIES = 50

reusing_pids = pytest.mark.skipif(
    not (sys.platform == "linux" and os.geteuid() == 0 and os.access(NS_LAST_PID, os.W_OK)),
    reason="reusing a PID on purpose needs Linux's ns_last_pid, written as root",
)

#: Waits for a line on stdin, then becomes the command of its arguments: started under a chosen
#: PID, it does nothing until the test has seen that it got it.
EXEC_WHEN_TOLD = "import os, sys; sys.stdin.readline(); os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"


def started_as(pid: int, args: list[str], env: dict[str, str] | None = None) -> subprocess.Popen:
    """``args`` as a process whose PID is ``pid``, or the test is skipped after :data:`TRIES`."""
    for _ in range(TRIES):
        NS_LAST_PID.write_text(str(pid - 1))
        process = subprocess.Popen(
            [sys.executable, "-c", EXEC_WHEN_TOLD, *args],
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        if process.pid == pid:
            return process
        process.kill()
        process.wait()
    pytest.skip(f"PID {pid} was taken by other processes {TRIES} times in a row")


def play(home: Path, seed: int) -> list[str]:
    return ["-m", "gamelearn.cli.main", "play", "tictactoe", "--first", "ntuple:name=L", "--second", "random",
            "--seed", str(seed)]  # fmt: skip


def lease_pid(home: Path) -> int | None:
    from gamelearn.store.store import Store

    with Store(home / "gamelearn.sqlite3", readonly=True) as store:
        row = store._db.execute("SELECT pid FROM leases WHERE kind='ntuple' AND name='tictactoe/L'").fetchone()
    return None if row is None else int(row[0])


@pytest.mark.slow  # two trainers, and plays after them
@reusing_pids
def test_a_dead_trainers_pid_given_to_another_process_holds_nothing(tmp_path: Path):
    home = tmp_path / "home"
    trainer = start_gamelearn(home, "train", "tictactoe", "ntuple", "--name", "L", "--games", "5000000", "--no-grade")
    assert trainer.stdout is not None
    Lines(trainer.stdout).wait_for("games/s", timeout=300)  # the header: the lease is taken
    dead = trainer.pid
    trainer.send_signal(signal.SIGKILL)
    trainer.wait(timeout=60)
    assert lease_pid(home) == dead  # SIGKILL left its lease

    # An unrelated process is given the dead trainer's number: the learner is not held by it.
    sleeper = started_as(dead, ["-c", "import time; time.sleep(300)"])
    try:
        assert sleeper.stdin is not None
        sleeper.stdin.write("go\n")
        sleeper.stdin.flush()
        beside = subprocess.run(
            [sys.executable, *play(home, 1)], env=command_env(home), capture_output=True, text=True, timeout=300
        )
        assert beside.returncode == 0, beside.stderr
        assert "ntuple learned: 1 game(s) learnt" in beside.stdout, beside.stdout
    finally:
        sleeper.kill()
        sleeper.wait()

    # A new trainer takes the lease, is killed, and the play itself gets that number.
    trainer = start_gamelearn(home, "train", "tictactoe", "ntuple", "--name", "L", "--games", "5000000", "--no-grade")
    assert trainer.stdout is not None
    Lines(trainer.stdout).wait_for("games/s", timeout=300)
    dead = trainer.pid
    trainer.send_signal(signal.SIGKILL)
    trainer.wait(timeout=60)
    assert lease_pid(home) == dead
    itself = started_as(dead, play(home, 2), env=command_env(home))
    stdout, stderr = itself.communicate("go\n", timeout=300)
    assert itself.returncode == 0, stderr  # it did not refuse itself
    assert "ntuple learned: 1 game(s) learnt" in stdout, stdout
    assert lease_pid(home) == dead  # the dead lease is still there, holding nothing


def test_a_lease_kept_by_an_older_gamelearn_is_read_by_its_pid(tmp_path: Path):
    # A store an older gamelearn wrote (no lease_starts), opened read-only: its leases are read as
    # they were, by whether their PID runs.
    import sqlite3

    from gamelearn.store.store import Store

    path = tmp_path / "gamelearn.sqlite3"
    Store(path).close()
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE lease_starts")
        db.execute("INSERT INTO leases VALUES ('local', 'ntuple', 'mine', ?, 0)", (os.getpid(),))
        db.execute("INSERT INTO leases VALUES ('local', 'ntuple', 'gone', ?, 0)", (int(ended.stdout),))
    with Store(path, readonly=True) as store:
        assert store.lease_holder("ntuple", "mine") == os.getpid()
        assert store.lease_holder("ntuple", "gone") is None
