"""`gamelearn play connect4` as a person types it: ``?`` lists the columns that can take a disc,
``hint`` names the perfect player's column and who wins in how many plies, at 80 columns; and the
same in a real terminal (tmux, 80 columns wide), where the hint's "working out" spinner leaves
nothing behind.

The oracle is a position whose value a person reads off the board: three discs in a column with
the fourth square free, a win in 1 (the distances of longer wins are checked against a plain
negamax in tests/web/test_web_connect4.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from gamelearn.cli import common
from gamelearn.cli.main import app

runner = CliRunner()


@pytest.fixture
def width_80() -> Iterator[None]:
    saved = common.console.width, common.err_console.width
    common.console.width = common.err_console.width = 80
    yield
    common.console.width, common.err_console.width = saved


def typed(*lines: str) -> str:
    return "\n".join(lines) + "\n"


def test_question_mark_lists_the_columns_and_hint_says_who_wins_in_how_many(width_80: None) -> None:
    # X 1, O 2 three times: X to move has three in column 1, the square above free
    moves = ["1", "2", "1", "2", "1", "2"]
    result = runner.invoke(
        app, ["play", "connect4", "--first", "human", "--second", "human"], input=typed(*moves, "?", "hint", "q")
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()  # each answer follows the prompt it answers, on its line
    answers = [line.split("to move: ", 1)[1] for line in lines if "to move: " in line]
    assert answers[-3:-1] == [
        "Legal moves (columns, from the left): 1 2 3 4 5 6 7",
        "Perfect play: column 1; X (to move) wins in 1 ply with best play.",
    ]


def tmux(socket: str, *args: str) -> str:
    done = subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True, check=True, timeout=30)
    return done.stdout


@pytest.mark.slow  # a real terminal: the command started in tmux, waited for
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_in_a_terminal_80_columns_wide_the_hint_reads_on_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    socket = f"gamelearn-test-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "GAMELEARN_HOME": str(tmp_path), "TERM": "xterm-256color"}
    command = f"{sys.executable} -m gamelearn play connect4 --first human --second human"
    subprocess.run(
        ["tmux", "-L", socket, "new-session", "-d", "-x", "80", "-y", "40", command],
        env=env,
        check=True,
        timeout=30,
    )
    try:

        def screen_when(text: str) -> str:
            for _ in range(600):  # the first solve compiles the search (numba): tens of seconds cold
                screen = tmux(socket, "capture-pane", "-p")
                if text in screen:
                    return screen
                time.sleep(0.2)
            raise AssertionError(f"{text!r} never shown:\n{screen}")

        def prompt_is(text: str) -> None:  # readline drops what is typed before its prompt: wait for it
            for _ in range(600):  # the first start imports numpy and numba: seconds on a loaded machine
                shown = [line for line in tmux(socket, "capture-pane", "-p").splitlines() if line.strip()]
                if shown and shown[-1].startswith(text):
                    return
                time.sleep(0.2)
            raise AssertionError(f"no prompt {text!r}")

        for ply, move in enumerate(["1", "2", "1", "2", "1", "2"]):
            prompt_is(f"Player {1 + ply % 2} (")
            tmux(socket, "send-keys", move, "Enter")
        prompt_is("Player 1 (X) to move")
        tmux(socket, "send-keys", "hint", "Enter")
        screen = screen_when("Perfect play:")
        lines = screen.splitlines()
        hint = next(line for line in lines if "Perfect play:" in line)
        assert hint == "Perfect play: column 1; X (to move) wins in 1 ply with best play."
        assert all(len(line) <= 80 for line in lines)
        assert not any("Working out" in line for line in lines)  # the spinner is gone
        tmux(socket, "send-keys", "?", "Enter")
        screen = screen_when("Legal moves (columns")
        assert "Legal moves (columns, from the left): 1 2 3 4 5 6 7" in screen
        tmux(socket, "send-keys", "q", "Enter")
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True, timeout=30)
