"""No lesson is lost beside a trainer (docs/store.md, "A learner being trained").

A training run rewrites its learner whole, so while `gamelearn train` holds a name every lesson for
that learner from elsewhere is refused before its game begins, in one line; a lesson kept before
the run is in what it loads, one after it is kept on what it left.  Real processes: the trainer,
the plays beside it, a holder of the name for the web app.  The oracle: the stored learner's games
equal the games the trainer says it kept plus the plays that said they learnt, no more, no less.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from reliability_support import Lines, command_env, gamelearn, one_error_line, start_gamelearn

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="signals to a child: POSIX")

REFUSAL = "ntuple 't2' is being trained; play it frozen with train=off or wait"


def stored_games(home: Path) -> int:
    from gamelearn.store.store import Store

    with Store(home / "gamelearn.sqlite3") as store:
        payload = store.load_learner("ntuple", "tictactoe/t2")
    assert payload is not None
    return int(payload["games"])


def play(home: Path, seed: int) -> subprocess.CompletedProcess:
    return gamelearn(home, "play", "tictactoe", "--first", "ntuple:name=t2", "--second", "random", "--seed", str(seed))


@pytest.mark.slow  # the trainer compiles ntuple's kernels, and plays beside it
def test_plays_beside_a_trainer_are_refused_up_front_and_every_lesson_said_learnt_is_kept(tmp_path: Path):
    home = tmp_path / "home"
    before = play(home, 1)
    assert before.returncode == 0 and "ntuple learned: 1 game(s) learnt" in before.stdout, before.stderr
    trainer = start_gamelearn(home, "train", "tictactoe", "ntuple", "--name", "t2", "--games", "5000000", "--no-grade")
    assert trainer.stdout is not None and trainer.stderr is not None
    out = Lines(trainer.stdout)
    out.wait_for("games/s", timeout=120)  # the header: the name is held and the learner loaded
    plays = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gamelearn.cli.main",
                "play",
                "tictactoe",
                "--first",
                "ntuple:name=t2",
                "--second",
                "random",
                "--seed",
                str(seed),
            ],
            env=command_env(home),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for seed in range(2, 6)
    ]
    for process in plays:
        stdout, stderr = process.communicate(timeout=120)
        result = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
        assert one_error_line(result) == f"gamelearn: error: {REFUSAL}"
        assert stdout == "", stdout  # refused before a line of the game: no players line, no lesson
    assert trainer.poll() is None, "the trainer ended before it was stopped"
    trainer.send_signal(signal.SIGINT)
    trainer.wait(timeout=120)
    assert trainer.returncode == 130, trainer.stderr.read()
    from gamelearn.store.store import Store

    with Store(home / "gamelearn.sqlite3") as store:
        (run,) = store.results("train")
    assert run["stopped"] is True
    assert stored_games(home) == run["games"] > 1  # the play before it is in what it loaded and kept
    after = play(home, 9)  # the name is free again: a lesson is kept on what the trainer left
    assert after.returncode == 0 and "ntuple learned: 1 game(s) learnt" in after.stdout, after.stderr
    assert stored_games(home) == run["games"] + 1


def test_a_lease_left_by_a_killed_process_holds_nothing(tmp_path: Path):
    from gamelearn.store.store import Store

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    with Store(tmp_path / "s.sqlite3") as store:
        store.take_lease("ntuple", "tictactoe/t2", pid=int(dead.stdout))
        assert store.lease_holder("ntuple", "tictactoe/t2") is None  # its process has ended
        store.take_lease("ntuple", "tictactoe/t2")
        assert store.lease_holder("ntuple", "tictactoe/t2") is not None
        store.drop_lease("ntuple", "tictactoe/t2")
        assert store.lease_holder("ntuple", "tictactoe/t2") is None


def test_a_run_that_begins_during_a_game_refuses_its_lesson_and_keeps_the_store_as_it_was(tmp_path: Path):
    # A trainer that takes the name after the game began (after the check up front): the lesson is
    # refused inside its own transaction, and nothing of it is written.
    from gamelearn import get_game
    from gamelearn.keeper import Keeper, LearnerInTraining
    from gamelearn.match import Match
    from gamelearn.players.registry import make_player
    from gamelearn.store.store import Store

    game = get_game("tictactoe")
    store = Store(tmp_path / "s.sqlite3")
    keeper = Keeper(store)
    learner = make_player(game, "menace:name=m", seed=1)
    match = Match(game, [learner, make_player(game, "random", seed=2)], seed=3, learn=False, keeper=keeper)
    while match.end is None:
        match.advance()
    store.take_lease(learner.keep_kind(), "m")  # this process counts as a holder too
    with pytest.raises(LearnerInTraining, match="menace 'm' is being trained"):
        match.learn_from_game()
    assert store.load_learner(learner.keep_kind(), "m") is None and store.records() == []
    store.drop_lease(learner.keep_kind(), "m")
    match.learn_from_game()
    assert json.dumps(store.load_learner(learner.keep_kind(), "m"))  # kept now


def test_a_frozen_learner_plays_beside_a_trainer(tmp_path: Path):
    from gamelearn import get_game
    from gamelearn.keeper import Keeper
    from gamelearn.match import play_game
    from gamelearn.players.registry import make_player
    from gamelearn.store.store import Store

    game = get_game("tictactoe")
    store = Store(tmp_path / "s.sqlite3")
    keeper = Keeper(store)
    keeper.save(make_player(game, "menace:name=m", seed=1))
    store.take_lease("menace", "m")
    record = play_game(
        game, [make_player(game, "menace:name=m,train=off"), make_player(game, "random")], seed=1, keeper=keeper
    )
    assert record.plies >= 5
