"""The page's games and training beside a process that trains the browser's learner (docs/web.md,
"A learner being trained"): refused before the game or the run begins, a 409 in one line; once the
other process has let the name go, the page teaches it again.  The holder is a real process."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from web_support import refused, start

from gamelearn.web.guards import OWNER_COOKIE

HOLD = """
import sys
from gamelearn import get_game
from gamelearn.keeper import Keeper
from gamelearn.store.store import Store
from gamelearn.web.learners import browser_learner

learner = browser_learner(get_game("tictactoe"), "menace")
with Keeper(Store(sys.argv[2]), sys.argv[1]).writing_whole(learner):
    print("held", flush=True)
    sys.stdin.read()
"""


@pytest.mark.slow  # a holder process started
def test_a_learner_another_process_trains_is_a_409_before_the_game(client: Any, app: Any) -> None:
    start(client, "tictactoe", ["menace", "random"])  # the browser's MENACE, kept under its owner id
    owner = client.cookies[OWNER_COOKIE]
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, owner, str(app.state.store.path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        detail = refused(client.post("/api/games", json={"game": "tictactoe", "players": ["menace", "random"]}), 409)
        assert "is being trained; play it frozen with train=off or wait" in detail
        training = client.post("/api/learners/menace/training?game=tictactoe", json={"opponent": "random", "games": 5})
        assert "is being trained" in refused(training, 409)
        start(client, "tictactoe", ["menace:train=off", "random"])  # frozen, it plays
    finally:
        holder.communicate(timeout=30)  # its stdin closed: it lets the name go and ends
    assert holder.returncode == 0
    start(client, "tictactoe", ["menace", "random"])
