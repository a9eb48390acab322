"""One learner, many writers: no lesson is lost (docs/store.md, "Promises" 1); one memory file,
one writer: a second batch on a file in use is refused.

Real processes (not threads) teach one named MENACE at once, through the Python API's play_game
and through `gamelearn play`; the stored learner must count every game each of them played.
The count MENACE keeps of its games is the oracle: each game adds one, so a lost update shows
as a smaller count.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from gamelearn.store.store import Store
from gamelearn.thesis.batch import BatchConfig, run_batch
from gamelearn.thesis.files import read_memory_entries
from gamelearn.thesis.memory import Memory
from reliability_support import REPO, command_env, gamelearn, memory_file, one_error_line, start_gamelearn

pytestmark = pytest.mark.slow  # real processes side by side

WRITER = """
import sys
from gamelearn.games import get_game
from gamelearn import play_game
from gamelearn.players.registry import make_player

game = get_game("tictactoe")
index, games = int(sys.argv[1]), int(sys.argv[2])
menace = make_player(game, "menace:name=shared", seed=index)
opponent = make_player(game, "random", seed=1000 + index)
for number in range(games):
    play_game(game, [menace, opponent] if number % 2 == 0 else [opponent, menace])
"""


def stored_games(home: Path) -> int:
    with Store(home / "gamelearn.sqlite3", readonly=True) as store:
        payload = store.load_learner("menace", "shared")
    assert payload is not None
    return int(payload["games"])


def test_eight_processes_teaching_one_menace_through_play_game_lose_no_game(tmp_path: Path):
    home = tmp_path / "home"
    processes, games = 8, 25  # the 8 x 200 (docs/store.md) takes a minute on two cores
    env = {**command_env(home), "PYTHONPATH": str(REPO / "src")}
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(index), str(games)], env=env, stderr=subprocess.PIPE)
        for index in range(processes)
    ]
    for writer in writers:
        _, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err.decode()
    assert stored_games(home) == processes * games


def test_concurrent_gamelearn_play_runs_lose_no_game(tmp_path: Path):
    home = tmp_path / "home"
    rounds, at_once = 1, 4  # 4 runs at once (the 8 x 25 takes minutes of start-ups)
    for round_number in range(rounds):
        runs = [
            start_gamelearn(
                home,
                "play",
                "tictactoe",
                "--first",
                "menace:name=shared",
                "--second",
                "random",
                "--seed",
                str(round_number * at_once + index),
            )  # fmt: skip
            for index in range(at_once)
        ]
        for run in runs:
            out, err = run.communicate(timeout=120)
            assert run.returncode == 0, err
    assert stored_games(home) == rounds * at_once


# --- one memory FILE, two batches: the second is refused ---------------------------------------


def start_file_batch(home: Path, memory: Path, games: int, seed: int) -> subprocess.Popen:
    return start_gamelearn(
        home, "teeko", "batch", "--games", str(games), "--seed", str(seed), "--second-memory", str(memory)
    )


@pytest.mark.skipif(os.name != "posix", reason="flock and signals: POSIX")
def test_a_second_batch_on_a_memory_file_in_use_is_refused_and_the_first_keeps_its_lessons(tmp_path: Path):
    home = tmp_path / "home"
    shared = memory_file(tmp_path / "shared.m", 3)
    at_start = read_memory_entries(shared)
    link = tmp_path / "link.m"  # the same file under another name: the lock is the file's own
    link.symlink_to(shared)
    first = start_file_batch(home, shared, 200_000, 5)
    try:
        assert first.stdout is not None and "games, fixed mode" in first.stdout.readline()
        for second_name in (shared, link):
            second = gamelearn(home, "teeko", "batch", "--games", "50", "--second-memory", str(second_name))
            line = one_error_line(second)
            assert f"--second-memory: another gamelearn is using {second_name}" in line, line
            assert "games" not in second.stdout  # refused before it played
        assert first.poll() is None
        first.send_signal(signal.SIGINT)
        out, err = first.communicate(timeout=60)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 130, err
    said = re.search(r"Interrupted after (\d+) of 200000 games", err)
    assert said is not None, err
    # the file is what the first batch's kept games taught, on top of what it held
    replayed = run_batch(BatchConfig(games=int(said[1]), seed=5, second_memory=Memory(at_start)))
    assert read_memory_entries(shared) == list(replayed.second_memory.entries())
    assert not (tmp_path / ".shared.m.lock").exists()  # released and removed


@pytest.mark.skipif(os.name != "posix", reason="flock and SIGKILL: POSIX")
def test_a_lock_left_by_a_killed_batch_blocks_nothing(tmp_path: Path):
    home = tmp_path / "home"
    shared = memory_file(tmp_path / "shared.m", 3)
    killed = start_file_batch(home, shared, 200_000, 5)
    assert killed.stdout is not None and "games, fixed mode" in killed.stdout.readline()
    killed.kill()
    killed.communicate(timeout=60)
    assert (tmp_path / ".shared.m.lock").exists()  # left behind: SIGKILL runs no clean-up
    after = gamelearn(home, "teeko", "batch", "--games", "20", "--seed", "6", "--second-memory", str(shared))
    assert after.returncode == 0, after.stderr  # the kernel released the flock with its process
    assert not (tmp_path / ".shared.m.lock").exists()
