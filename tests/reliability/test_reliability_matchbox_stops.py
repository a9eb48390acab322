"""A stopped matchbox experiment keeps its finished learners (docs/store.md, "Experiments").

`gamelearn menace|her|him --learners N --games M` stopped by SIGINT or SIGTERM, started as from a
terminal or in the background (a shell's `&` starts it with SIGINT ignored): the result of the
learners that had finished is kept in the store, marked stopped, one line says how many, and the
command exits 130 or 143.  The oracle: the same experiment replayed in this process with that many
learners gives the same figures (every learner's games are seeded by its number).
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from reliability_support import Lines, command_env, with_interrupts

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="signals to a child: POSIX")


def start(home: Path, *args: str, background: bool) -> subprocess.Popen:
    command = [sys.executable, "-m", "gamelearn.cli.main", *args]
    return subprocess.Popen(  # in the background, ^C ignored: what a shell does to a command started with `&`
        with_interrupts("ignore", *command) if background else command,
        env=command_env(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def stopped_run(home: Path, how: signal.Signals, background: bool, *args: str) -> dict:
    """Run ``gamelearn ARGS``, send ``how`` once a quarter of its games are played, and return the
    result it kept, after checking its exit status and its line."""
    home.mkdir(parents=True, exist_ok=True)
    process = start(home, *args, "--out", str(home), background=background)
    assert process.stderr is not None and process.stdout is not None
    err = Lines(process.stderr)
    err.wait_for("games: 25%", timeout=120)
    process.send_signal(how)
    process.wait(timeout=60)
    said = err.text()
    assert process.returncode == 128 + how, said
    assert "learners had finished; they are kept:" in said and "(marked stopped)" in said, said
    assert "Traceback" not in said
    from gamelearn.store.store import Store

    with Store(home / "gamelearn.sqlite3") as store:
        (result,) = store.results(args[0])
    assert result["stopped"] is True
    finished = sum(item["learners"] for item in result["opponents"])
    assert f"Interrupted: {finished:,} of " in said
    return result


@pytest.mark.slow  # a gamelearn started and stopped, and the replay
@pytest.mark.parametrize(
    ("how", "background"),
    [(signal.SIGINT, False), (signal.SIGINT, True), (signal.SIGTERM, True)],
    ids=["SIGINT", "SIGINT-background", "SIGTERM-background"],
)
def test_a_stopped_menace_experiment_keeps_the_learners_that_finished(how, background, tmp_path: Path):
    from gamelearn.experiments.matchbox import MenaceOptions, run_menace

    args = ("menace", "--learners", "400", "--games", "100", "--against", "random", "--seed", "3")
    result = stopped_run(tmp_path / "home", how, background, *args)
    (kept,) = result["opponents"]
    assert 0 < kept["learners"] < 400
    (replayed,) = run_menace(MenaceOptions(kept["learners"], 100, ["random"], 3))["opponents"]
    assert kept == replayed


@pytest.mark.slow  # a gamelearn started and stopped, and the replay
@pytest.mark.parametrize("kind", ["her", "him"])
def test_a_stopped_her_or_him_experiment_keeps_the_learners_that_finished(kind: str, tmp_path: Path):
    from gamelearn.experiments.matchbox import HerOptions, run_her

    args = (kind, "--learners", "400", "--games", "100", "--against", "random", "--seed", "3")
    result = stopped_run(tmp_path / "home", signal.SIGTERM, False, *args)
    (kept,) = result["opponents"]
    assert 0 < kept["learners"] <= 400  # HIM's own learners may all have finished, HER's not
    (replayed,) = run_her(HerOptions(kind, kept["learners"], 100, ["random"], 3))["opponents"]
    assert kept == replayed
    if kind == "him":
        for theirs in result.get("her_for_comparison", []):  # HER's, as far as it had come
            (again,) = run_her(HerOptions("her", theirs["learners"], 100, ["random"], 3))["opponents"]
            assert theirs["average_losses"] == again["average_losses"]
