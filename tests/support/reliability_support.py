"""What the reliability tests share: the command run as a real process, thesis memory files made
to order, and small file systems (read-only, full) where the machine allows them."""

from __future__ import annotations

import itertools
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import pytest

REPO = Path(__file__).resolve().parents[2]


def command_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["GAMELEARN_HOME"] = str(home)
    env["PYTHONPATH"] = str(REPO / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env["COLUMNS"] = "200"  # one error line stays one line
    env["PYTHONUNBUFFERED"] = "1"  # a child's lines arrive as it prints them
    return env


#: Sets ^C's action (``default`` or ``ignore``), with ``tty`` makes the pty on stdin the session's
#: controlling terminal, then execs the command: in a process of its own, after an exec.  A
#: ``preexec_fn`` does the same in the child of a fork, running Python there, and a test process
#: with other threads (JAX's, once an az test has run in it) can hold a lock at the fork that the
#: child then waits on for ever.
INTERRUPTS_THEN_EXEC = """
import fcntl, os, signal, sys, termios
action, terminal, command = sys.argv[1], sys.argv[2], sys.argv[3:]
if terminal == "tty":
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
signal.signal(signal.SIGINT, signal.SIG_IGN if action == "ignore" else signal.SIG_DFL)
os.execv(command[0], command)
"""


def with_interrupts(action: str, *command: str, terminal: bool = False) -> list[str]:
    """``command`` (its program a path) started with ^C's ``action``: ``default``, as a terminal's
    foreground command has it whatever this test inherited (a shell's ``&`` ignores it), or
    ``ignore``, as a shell's ``&`` starts it; with ``terminal``, the pty on its stdin becomes its
    controlling terminal (start it with ``start_new_session=True``), so ^C typed there is its SIGINT."""
    return [sys.executable, "-c", INTERRUPTS_THEN_EXEC, action, "tty" if terminal else "-", *command]


class PtyReader:
    """What a command on a pty has written so far (:attr:`seen`), read from the pty's leader side."""

    def __init__(self, leader: int) -> None:
        self.leader = leader
        self.seen = b""

    def read_until(self, marker: bytes, guard: float = 120) -> None:
        """Read until ``marker`` has been written, the command has closed its side, or ``guard``
        seconds have passed (a guard against a hang: the caller asserts what it needs)."""
        import select

        deadline = time.monotonic() + guard
        while marker not in self.seen and time.monotonic() < deadline:
            if select.select([self.leader], [], [], 0.5)[0]:
                try:
                    self.seen += os.read(self.leader, 4096)
                except OSError:  # the command has ended and closed its side
                    break


def gamelearn(home: Path, *args: str, timeout: float = 60, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``gamelearn ARGS`` as its own process, with ``home`` as GAMELEARN_HOME."""
    return subprocess.run(
        [sys.executable, "-m", "gamelearn.cli.main", *args],
        env=command_env(home),
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
    )


def start_gamelearn(
    home: Path, *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.Popen:
    """``gamelearn ARGS`` started as its own process (``env``: variables added to its environment)."""
    return subprocess.Popen(
        [sys.executable, "-m", "gamelearn.cli.main", *args],
        env={**command_env(home), **(env or {})},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )


def wait_for_line(stream: IO[str], text: str, timeout: float = 120) -> list[str]:
    """The lines read from ``stream`` up to the first that holds ``text``; fails the test if the
    stream ends, or ``timeout`` seconds pass (a guard against a hang), first.  The lines are read
    by a thread of their own, so that a child that prints nothing cannot block the test."""
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while True:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"no line with {text!r} in {timeout} s; read: {seen}") from None
        if line is None:
            raise AssertionError(f"the output ended before a line with {text!r}; read: {seen}")
        seen.append(line)
        if text in line:
            return seen


class Lines:
    """Every line ``stream`` gives, read as the child writes them by a thread of its own: a test
    can wait for one line (an event the child reports) and still read the whole output after."""

    def __init__(self, stream: IO[str]) -> None:
        self.seen: list[str] = []
        self.ended = False
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.reader.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            with self.changed:
                self.seen.append(line)
                self.changed.notify_all()
        with self.changed:
            self.ended = True
            self.changed.notify_all()

    def wait_for(self, text: str, timeout: float = 300) -> None:
        """Until a line holds ``text``; fails the test if the output ends, or ``timeout`` seconds
        pass (a guard against a hang), first."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not any(text in line for line in self.seen):
                left = deadline - time.monotonic()
                if self.ended or left <= 0:
                    raise AssertionError(f"no line with {text!r}; read: {self.seen}")
                self.changed.wait(left)

    def text(self, timeout: float = 60) -> str:
        """The whole output, once the child has closed it."""
        self.reader.join(timeout)
        with self.changed:
            return "".join(self.seen)


def one_error_line(result: subprocess.CompletedProcess) -> str:
    """The single line a refused command prints; fails the test on a traceback or several lines."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert len(lines) == 1 and lines[0].startswith("gamelearn: error: "), result.stderr
    return lines[0]


def distinct_boards(count: int) -> Iterator[str]:
    """``count`` different moving-phase boards (four pawns a side), none the side swap of another:
    a board is kept only where side 1 holds the lowest occupied cell, which its swap does not."""
    made = 0
    for ones in itertools.combinations(range(25), 4):
        rest = [cell for cell in range(25) if cell not in ones]
        for twos in itertools.combinations(rest, 4):
            if min(ones) > min(twos):
                continue
            board = ["0"] * 25
            for cell in ones:
                board[cell] = "1"
            for cell in twos:
                board[cell] = "2"
            yield "".join(board)
            made += 1
            if made == count:
                return


def memory_file(path: Path, records: int) -> Path:
    """A valid thesis memory file of ``records`` records (each won once by side 1)."""
    with path.open("wb") as file:
        for board in distinct_boards(records):
            file.write(board.encode("ascii") + b"   1    ")
    return path


def _mount(*args: str) -> bool:
    return subprocess.run(["mount", *args], capture_output=True).returncode == 0


@contextmanager
def small_file_system(folder: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted on ``folder``; the test is skipped where mounting is not allowed."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0 or not _mount("-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)):
        pytest.skip("mounting a small tmpfs needs root (CAP_SYS_ADMIN), which this machine does not give the tests")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def make_read_only(folder: Path) -> None:
    """Make the file system mounted on ``folder`` read-only (root) ."""
    if not _mount("-o", "remount,ro", str(folder)):
        pytest.skip("remounting a tmpfs read-only was refused on this machine")


def fill(folder: Path) -> None:
    """Fill the file system of ``folder`` to the last byte."""
    handle = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(handle, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(handle)
