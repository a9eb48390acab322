"""Experiments stop when asked and never flood the machine (docs/store.md, "Experiments").

`--workers` is bounded by the CPUs; ^C (SIGINT) to a real `gamelearn teeko experiment` running
two worker processes ends it, and its workers, within seconds (the communicate() timeout below is
a guard against a hang, not a measurement) with exit status 130.  ^C keeps what had finished: a
tournament's pairs, an experiment's runs, the learners of `gamelearn curves`, and the training
`gamelearn train` had done (the learner, saved by the keeper).
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from reliability_support import Lines, gamelearn, memory_file, one_error_line, start_gamelearn, wait_for_line

pytestmark = [
    pytest.mark.slow,  # real processes and signals
    pytest.mark.skipif(not Path("/proc").is_dir(), reason="child processes are found through /proc"),
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


@pytest.mark.skipif((os.cpu_count() or 1) >= 256, reason="the option's own bound (256) comes first here")
def test_more_workers_than_cpus_is_refused_in_one_line(tmp_path: Path):
    memory = memory_file(tmp_path / "thesis.m", 50)
    args = ("teeko", "experiment", "--thesis-memory", str(memory), "--out", str(tmp_path))
    line = one_error_line(gamelearn(tmp_path / "home", *args, "--workers", str((os.cpu_count() or 1) + 1)))
    assert f"more than the {os.cpu_count()} CPUs of this machine" in line


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="two worker processes need two CPUs")
def test_an_interrupted_experiment_stops_its_workers_and_exits_130(tmp_path: Path):
    memory = memory_file(tmp_path / "thesis.m", 50)
    process = start_gamelearn(
        tmp_path / "home", "teeko", "experiment", "--thesis-memory", str(memory), "--workers", "2",
        "--games", "3000", "--seeds", "3", "--train-games", "20000", "--out", str(tmp_path),
    )  # fmt: skip
    workers: set[int] = set()
    for _ in range(600):  # until the pool's two processes run (a guard, at most 60 s)
        workers = children(process.pid)
        if len(workers) >= 2 or process.poll() is not None:
            break
        time.sleep(0.1)
    assert len(workers) >= 2 and process.poll() is None, "the experiment did not start its workers"
    time.sleep(1.0)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    # one line says what was kept, and no second line says it was interrupted
    assert "Interrupted: " in err and "gamelearn: interrupted" not in err, err
    time.sleep(0.5)
    assert not [pid for pid in workers if alive(pid)], "worker processes outlived the interrupt"


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="two worker processes need two CPUs")
@pytest.mark.parametrize("workers", [1, 2])  # in this process, one pair after another, or in two
# With two processes the games are heard in a thread of their own: the callback's ^C must reach the
# caller, not end that thread (whose death pytest reports as this warning).
@pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")
def test_an_interrupted_tournament_keeps_the_pairs_that_finished(workers: int):
    from gamelearn.experiments.api import TournamentInterrupted
    from gamelearn.experiments.api import tournament as run_tournament

    specs = ["random", "minimax:depth=1", "minimax:depth=2", "perfect"]

    heard = [0]

    def interrupt(games: int) -> None:  # ^C at the first game after the first pair (6 games) finished
        heard[0] += games
        if heard[0] > 6:
            raise KeyboardInterrupt

    with pytest.raises(TournamentInterrupted) as stopped:
        run_tournament("tictactoe", specs, 6, seed=5, workers=workers, progress=interrupt)
    assert 1 <= stopped.value.pairs < stopped.value.total == 6
    whole = [pair for pair in stopped.value.result.pairs if pair.games == 6]
    assert len(whole) == stopped.value.pairs  # the pairs that finished, whole
    full = run_tournament("tictactoe", specs, 6, seed=5, workers=1)
    pairs = {pair.pair: pair for pair in full.pairs}
    for pair in whole:  # every pair is seeded: what was kept is what the whole tournament plays
        assert pair == pairs[pair.pair]
    games = {(g.pair, g.index): g for g in full.games}
    for game in stopped.value.result.games:  # and so is every game kept of a pair cut short
        assert game == games[(game.pair, game.index)]
    assert len(stopped.value.result.games) == stopped.value.games


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the runs and the training need a worker each")
def test_an_interrupted_experiment_keeps_the_runs_that_finished(tmp_path: Path):
    # Short runs with the thesis memory finish while our own memory still trains (20,000 games):
    # ^C then keeps those runs, saved as a result marked stopped, and exits 130.
    from gamelearn.store.store import Store

    memory = memory_file(tmp_path / "thesis.m", 50)
    for checkpoint in ("memory after 2000 games.txt", "memory after 2500 games.txt"):
        memory_file(tmp_path / checkpoint, 50)  # its chart's runs: 12 more thesis runs
    home = tmp_path / "home"
    process = start_gamelearn(
        home, "teeko", "experiment", "--thesis-memory", str(memory), "--workers", "2",
        "--games", "5", "--seeds", "2", "--train-games", "20000", "--chart-games", "2", "--out", str(tmp_path),
    )  # fmt: skip
    assert process.stderr is not None
    err_lines = Lines(process.stderr)
    # The thesis runs (a few games each) are counted as they finish, long before the training is:
    # the first quarter of the runs (17 of 67) are thesis runs (24).
    err_lines.wait_for("runs: 25%")
    assert process.poll() is None, "the experiment ended before it could be interrupted"
    process.send_signal(signal.SIGINT)
    process.wait(timeout=60)
    err = err_lines.text()
    assert process.returncode == 130, err
    assert "runs had finished" in err and "marked stopped" in err, err
    os.environ["GAMELEARN_HOME"], saved = str(home), os.environ.get("GAMELEARN_HOME")
    try:
        (result,) = Store().results("teeko-thesis-experiment")
    finally:
        if saved is not None:
            os.environ["GAMELEARN_HOME"] = saved
    assert result["stopped"] is True and result["runs"]
    assert all(run["games"] == (5 if run["training_games"] is None else 2) for run in result["runs"])


def results_in(home: Path, kind: str) -> list[dict]:
    from gamelearn.store.store import Store

    with Store(home / "gamelearn.sqlite3") as store:
        return store.results(kind)


def test_interrupted_curves_keep_the_learners_that_finished(tmp_path: Path):
    # In one process the learners run one after another, each for 4 s of training: ^C as the first
    # says it finished stops the second, and the first is kept (store, CSVs, PNG), exit 130.
    home = tmp_path / "home"
    process = start_gamelearn(
        home, "curves", "hexapawn", "her", "him", "--seconds", "4", "--points", "2", "--seeds", "1",
        "--eval-games", "2", "--workers", "1", "--out", str(tmp_path),
    )  # fmt: skip
    assert process.stdout is not None
    wait_for_line(process.stdout, "her seed 0 finished")
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Interrupted: 1 of 2 learners had finished; they are kept" in err, err
    (result,) = results_in(home, "curves")
    assert result["stopped"] is True and {point["spec"] for point in result["points"]} == {"her"}
    assert [point["point"] for point in result["points"]] == [0, 1, 2]
    (chart,) = tmp_path.glob("curves-hexapawn-her-him-*.png")
    points = chart.with_name(chart.stem + "-points.csv").read_text().splitlines()
    assert len(points) == 1 + 3 and all(line.startswith("her,0,") for line in points[1:])


@pytest.mark.slow  # az: JAX's import and compilation take most of it
def test_interrupted_training_keeps_what_the_learner_learnt(tmp_path: Path):
    # az trains for ten minutes, a graded checkpoint every ~0.6 s of training (the most checkpoints
    # train takes): ^C after the first checkpoint saves the learner (the keeper) with the games it
    # played, and says so; exit 130.
    home = tmp_path / "home"
    process = start_gamelearn(
        home, "train", "hexapawn", "az", "--name", "h", "--minutes", "10", "--checkpoints", "1000", "--parallel", "8"
    )
    assert process.stdout is not None
    lines = wait_for_line(process.stdout, "%", timeout=180)  # a checkpoint line: its grades
    checkpoint_games = int(lines[-1].split()[1].replace(",", ""))
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "Interrupted after" in err and "kept as az 'h'" in err and "the last checkpoint" in err, err
    from gamelearn.store.store import Store

    with Store(home / "gamelearn.sqlite3") as store:
        kept = store.load_learner("az", "h")
    assert kept is not None and kept["games"] >= checkpoint_games > 0
