"""One learner, many writers: no lesson is lost (docs/store.md, "Promises" 1).

Real processes (not threads) teach one named MENACE at once, through the Python API's play_game
and through `gamelearn play`; the stored learner must count every game each of them played.
The count MENACE keeps of its games is the oracle: each game adds one, so a lost update shows
as a smaller count.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gamelearn.store.db import Store
from reliability_support import REPO, command_env, start_gamelearn

WRITER = """
import sys
from gamelearn.games import get_game
from gamelearn.match import play_game
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
