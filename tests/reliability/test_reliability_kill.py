"""Interrupts keep finished work (docs/store.md, promise 8): CI's small version of
benchmarks/reliability_kill.py, with real processes and real signals.

`train`, `curves` and `tournament` are each stopped at a seeded moment (SIGKILL, SIGINT,
SIGTERM) or in the window just after a COMMIT (the store's pause hook); what the store keeps then
passes four checks (tests/support/reliability_probes.py): integrity, the learner loads, what is kept is a
replay of the work the command says it kept, and no temporary file is left.  Also: a second
trainer of one name is refused in one line, and a ^C while the command starts prints no
traceback.
"""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import pytest

from reliability_probes import check_train, integrity, leftovers, moments, probe, results, train_args
from reliability_support import one_error_line, start_gamelearn

pytestmark = [
    pytest.mark.slow,  # real processes and signals
    pytest.mark.skipif(not Path("/proc").is_dir(), reason="POSIX signals, children found through /proc"),
]


def test_a_killed_training_keeps_whole_batches_and_refuses_a_second_trainer(tmp_path: Path):
    home = tmp_path / "home"
    first = start_gamelearn(home, *train_args(5))
    for _ in range(1200):  # until its first keep (a guard, not a measurement)
        if results(home, "train") or first.poll() is not None:
            break
        time.sleep(0.05)
    assert first.poll() is None, "the training ended before its first keep"
    second = start_gamelearn(home, *train_args(5))
    out, err = second.communicate(timeout=120)
    line = one_error_line(subprocess.CompletedProcess([], second.returncode, out, err))
    assert "another gamelearn is training ntuple 'tictactoe/probe'" in line
    first.kill()
    first.wait(timeout=60)
    integrity(home)
    assert check_train(home, None, 5) > 0  # the learner loads, and equals the same seed trained as long
    assert not leftovers([home], locks=False)


@pytest.mark.parametrize(
    ("command", "how", "window"),
    [
        ("train", signal.SIGTERM, True),  # just after a keep's COMMIT: that keep is the last, exit 143
        ("curves", signal.SIGTERM, True),  # ^C, then SIGTERM just after the result's COMMIT: ignored
        ("tournament-workers", signal.SIGINT, False),
    ],
    ids=["train-SIGTERM-after-COMMIT", "curves-SIGTERM-after-COMMIT", "tournament-SIGINT"],
)
def test_a_stopped_command_keeps_what_it_says_and_nothing_else(command, how, window, tmp_path: Path):
    (moment,) = moments(command, 1, 2.0)
    outcome = probe(command, how, moment, tmp_path, window=window)
    assert not outcome.finished_first, "the command finished before the signal: give it more work"
    if how != signal.SIGKILL or command == "train":
        assert outcome.kept > 0 or outcome.before_work


def test_a_ctrl_c_while_the_command_starts_prints_no_traceback(tmp_path: Path):
    for delay in (0.3, 0.9):
        process = start_gamelearn(tmp_path / "home", "tournament", "tictactoe", "random", "random")
        time.sleep(delay)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        assert process.returncode in (130, 0), err  # 0: it had finished
        assert "Traceback" not in err and "internal error" not in err, err
