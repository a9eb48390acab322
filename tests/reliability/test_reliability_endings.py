"""How commands end when something ends them (docs/store.md, "Clean first start, clean signals,
honest disk-full").

* A command killed while it first creates the store leaves a temporary database (and its
  ``-wal``/``-shm``) beside it; the next command removes them, whatever it is.
* SIGINT then SIGTERM 0.05 s apart (or the other way round) end ``train`` with the first one's
  status, wherever they land: while the kernels compile (numba would wrap the interrupt in an
  error of its own), while it plays, once it has stopped.
* Each says how it stopped in one line of its own (what ``train`` kept; "Game abandoned." at
  ``play``'s prompt; "gamelearn: interrupted" at the Teeko console's, right under it, typed at a
  terminal), with no second line after it.
* A disk that fills while ``train`` runs: one line that says the disk is full and how many games
  the store keeps, which is what it holds.

Real processes, real signals, a real full file system (a small tmpfs; root).
"""

from __future__ import annotations

import os
import pty
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reliability_support import (
    Lines,
    PtyReader,
    command_env,
    fill,
    gamelearn,
    one_error_line,
    small_file_system,
    start_gamelearn,
    with_interrupts,
)

pytestmark = [
    pytest.mark.slow,  # real processes, trainers among them
    pytest.mark.skipif(sys.platform == "win32", reason="signals to a child: POSIX"),
]

STORE = "gamelearn.sqlite3"
TRAIN = ("train", "tictactoe", "ntuple", "--name", "L", "--games", "3000000", "--checkpoints", "30", "--no-grade")


def leftovers(home: Path) -> list[str]:
    return sorted(entry.name for entry in home.iterdir() if entry.name.startswith(f".{STORE}."))


def wait_until(condition, what: str, guard: float = 120) -> None:  # type: ignore[no-untyped-def]
    """Poll ``condition`` until it holds; a guard against a hang fails the test (nothing is timed)."""
    deadline = time.monotonic() + guard
    while not condition():
        assert time.monotonic() < deadline, f"no {what} in {guard} s"
        time.sleep(0.02)


def test_a_store_creation_killed_midway_is_cleared_by_the_next_command(tmp_path: Path):
    home = tmp_path / "home"
    home.mkdir()
    record = tmp_path / "game.txt"
    record.write_text('[Game "tictactoe"]\n[First "a"]\n[Second "b"]\n[Result "*"]\n[End "abandoned"]\n\n1. 4 *\n')
    # the test hook holds the new store, its schema written, just before it is linked into place
    creating = start_gamelearn(home, "records", "import", str(record), env={"GAMELEARN_TEST_PAUSE_AFTER_COMMIT": "10"})
    wait_until(lambda: any(name.endswith(".tmp-wal") for name in leftovers(home)), "temporary store")
    creating.send_signal(signal.SIGKILL)
    creating.wait(timeout=60)
    left = leftovers(home)
    assert any(name.endswith(".tmp") for name in left) and not (home / STORE).exists(), left
    listed = gamelearn(home, "records", "list")  # the next command, one that only reads
    assert listed.returncode == 0 and "No kept games" in listed.stdout, listed.stderr
    assert leftovers(home) == [] and not (home / STORE).exists()  # cleared, and no store made by a read
    imported = gamelearn(home, "records", "import", str(record))
    assert imported.returncode == 0, imported.stderr
    with sqlite3.connect(home / STORE) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert leftovers(home) == []


def stopped_by_two_signals(home: Path, first: int, second: int, env: dict[str, str] | None = None) -> tuple[int, str]:
    """A real ``train``, sent ``first`` then ``second`` 0.05 s apart once its header is out:
    its exit status and its stderr."""
    trainer = start_gamelearn(home, *TRAIN, env=env)
    assert trainer.stdout is not None and trainer.stderr is not None
    out = Lines(trainer.stdout)
    out.wait_for("games/s", timeout=300)  # the header: the kernels compile, then it plays
    trainer.send_signal(first)
    time.sleep(0.05)
    trainer.send_signal(second)
    trainer.wait(timeout=300)
    return trainer.returncode, trainer.stderr.read()


@pytest.mark.parametrize(("first", "second"), [(signal.SIGINT, signal.SIGTERM), (signal.SIGTERM, signal.SIGINT)])
def test_two_signals_end_train_with_the_first_ones_status(tmp_path: Path, first: int, second: int):
    status, err = stopped_by_two_signals(tmp_path / "home", first, second)
    assert status == 128 + first, (status, err)
    assert "Interrupted" in err and "internal error" not in err and "Traceback" not in err, err
    assert "gamelearn: interrupted" not in err, err  # the line that says what was kept is the only one


def test_ctrl_c_at_plays_prompt_abandons_the_game_in_one_line(tmp_path: Path):
    player = subprocess.Popen(  # ^C's default action, as from a terminal (a `&` would ignore it)
        with_interrupts("default", sys.executable, "-m", "gamelearn.cli.main", "play", "tictactoe", "--seed", "1"),
        env=command_env(tmp_path / "home"),
        stdin=subprocess.PIPE,  # open, never written: the prompt waits
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert player.stdout is not None and player.stderr is not None
    out = Lines(player.stdout)
    out.wait_for("6 7 8", timeout=120)  # the board of the first move, drawn inside the game
    for _ in range(4):  # a ^C the instant before Python blocks in its read is seen only at the next
        player.send_signal(signal.SIGINT)  # input (as at the Teeko console, below): a person presses it again
        try:
            player.wait(timeout=30)
            break
        except subprocess.TimeoutExpired:
            continue
    player.wait(timeout=120)
    err = player.stderr.read()
    assert player.returncode == 130, (player.returncode, err)
    out.reader.join(timeout=60)
    assert "Game abandoned." in out.text() and err.strip() == "", (out.text(), err)


def test_ctrl_c_typed_at_the_teeko_console_ends_it_on_the_next_line(tmp_path: Path):
    # Typed at a terminal: the console runs on a pty that is its controlling terminal, and ^C
    # written to it is the terminal's SIGINT to the console's process group.
    leader, follower = pty.openpty()
    console = subprocess.Popen(  # a session of its own, whose controlling terminal the pty is
        with_interrupts("default", sys.executable, "-m", "gamelearn.cli.main", "teeko", "console", terminal=True),
        env={**command_env(tmp_path / "home"), "TERM": "dumb"},
        stdin=follower,
        stdout=follower,
        stderr=follower,
        start_new_session=True,
    )
    os.close(follower)
    terminal = PtyReader(leader)
    try:
        terminal.read_until(b"Your choice: ", guard=300)  # the thesis engine may compile first
        for _ in range(12):  # ^C typed the instant the prompt shows can land before Python blocks
            os.write(leader, b"\x03")  # in its read, which then waits on: a person presses it again
            terminal.read_until(b"interrupted\r\n", guard=30)
            if b"interrupted\r\n" in terminal.seen:
                break
        status = console.wait(timeout=120)
    finally:
        if console.poll() is None:
            console.kill()
        os.close(leader)
    text = terminal.seen.decode(errors="replace")
    assert status == 130, text[-500:]
    after_prompt = text[text.rindex("Your choice: ") + len("Your choice: ") :]
    assert after_prompt.replace("^C", "") == "\r\ngamelearn: interrupted\r\n", repr(after_prompt)


def test_two_signals_while_the_kernels_compile_end_train_with_the_first_ones_status(tmp_path: Path):
    # numba's compiler, cold (a cache of its own): a KeyboardInterrupt raised inside it came out
    # as its RuntimeError, an internal error, and the SIGTERM that followed ended the process
    cold = {"NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    status, err = stopped_by_two_signals(tmp_path / "home", signal.SIGINT, signal.SIGTERM, env=cold)
    assert status == 130, (status, err)
    assert "Interrupted" in err and "internal error" not in err and "Traceback" not in err, err


def test_a_signal_once_train_has_said_what_it_kept_changes_nothing(tmp_path: Path):
    # The second signal after the line that says what was kept: the command is ending, its
    # handlers put back, and SIGTERM's default action would end it by SIGTERM (status -15).
    trainer = start_gamelearn(tmp_path / "home", *TRAIN)
    assert trainer.stdout is not None and trainer.stderr is not None
    # the first checkpoint's row (3,000,000 games over 30 checkpoints), not the header: games kept
    Lines(trainer.stdout).wait_for("100,000", timeout=300)
    err = Lines(trainer.stderr)
    trainer.send_signal(signal.SIGINT)
    err.wait_for("Interrupted after", timeout=300)
    trainer.send_signal(signal.SIGTERM)
    trainer.wait(timeout=300)
    assert trainer.returncode == 130, (trainer.returncode, err.text())


def stored(home: Path) -> tuple[int, int]:
    """The stored learner's games and the train result's."""
    from gamelearn.store.store import Store

    with Store(home / STORE, readonly=True) as store:
        learner = store.load_learner("ntuple", "tictactoe/L")
        (result,) = store.results("train")
    assert learner is not None
    return int(learner["games"]), int(result["games"])


def test_a_disk_that_fills_during_train_says_how_many_games_are_kept(tmp_path: Path):
    home = tmp_path / "home"
    with small_file_system(home, "4M"):
        trainer = start_gamelearn(home, *TRAIN)

        def kept_once() -> bool:
            try:
                return stored(home)[1] > 0
            except (ValueError, AssertionError):  # not made yet, or no result yet
                return False

        wait_until(kept_once, "first keep", guard=300)
        fill(home)  # the disk is full from now on: the next keep cannot be written
        stdout, stderr = trainer.communicate(timeout=300)
        line = one_error_line(subprocess.CompletedProcess(trainer.args, trainer.returncode, stdout, stderr))
        assert "the disk is full" in line and f"never delete {STORE}-wal" in line, line
        assert "is kept as of the run's last keep, at " in line, line
        said = line.split("ntuple 'L' is kept as of the run's last keep, at ")[1]
        kept = int(said.split(" games (train #1)")[0].replace(",", ""))
        assert "games trained after it are not kept" in said, line
        os.unlink(home / "filler")
        with sqlite3.connect(home / STORE) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert stored(home) == (kept, kept) and kept > 0  # what the line says is what the store holds
