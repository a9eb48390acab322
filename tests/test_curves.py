"""Learning curves (experiments/curves.py and `gamelearn curves`): the CSV's documented columns,
the band against Student's t by hand, replay from the seed, the runners agreeing, errors."""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys

import pytest

from gamelearn.experiments.curves import CSV_COLUMNS, band, frozen_spec, run_curves, to_csv

DOCUMENTED = (
    "spec,games,seeds,score_mean,score_low,score_high,best_mean,best_low,best_high,"
    "keeps_value_mean,keeps_value_low,keeps_value_high,mistake_mean,mistake_low,mistake_high,"
    "blunder_mean,blunder_low,blunder_high"
)


def test_the_band_is_students_t_over_seeds():
    # t(0.975, 2) = 4.302652729911275 (any table); mean 0.5, sample sd 0.1, n 3
    mean, low, high = band([0.4, 0.5, 0.6])
    half = 4.302652729911275 * 0.1 / math.sqrt(3)
    assert mean == pytest.approx(0.5) and low == pytest.approx(0.5 - half) and high == pytest.approx(0.5 + half)
    assert band([0.7]) == (0.7, 0.7, 0.7)
    assert band([0.0, 1.0]) == (0.5, 0.0, 1.0)  # cut to [0, 1], where every share lies


def test_frozen_spec_adds_or_replaces_train():
    assert frozen_spec("her") == "her:train=off"
    assert frozen_spec("td:alpha=0.3,train=on") == "td:alpha=0.3,train=off"


def test_hexapawn_curves_of_her_and_him_in_seconds(tmp_path):
    result = run_curves("hexapawn", ["her", "him"], "random", games=20, every=10, seeds=2, eval_games=6, workers=1)
    text = to_csv(result)
    rows = list(csv.DictReader(text.splitlines()))
    assert ",".join(CSV_COLUMNS) == DOCUMENTED == text.splitlines()[0]
    assert [(row["spec"], int(row["games"])) for row in rows] == [(s, g) for s in ("her", "him") for g in (0, 10, 20)]
    for row in rows:
        assert int(row["seeds"]) == 2
        for measure in ("score", "best", "keeps_value", "mistake", "blunder"):
            low, mean, high = (float(row[f"{measure}_{part}"]) for part in ("low", "mean", "high"))
            assert 0.0 <= low <= mean <= high <= 1.0
        # hexapawn has no draws: every move keeps the value or throws a win away
        assert float(row["mistake_mean"]) == 0.0
        assert float(row["keeps_value_mean"]) + float(row["blunder_mean"]) == pytest.approx(1.0)
    # every measurement played 6 games, graded every move of the learner's
    assert all(sum(p.grades.values()) >= 6 for p in result.points)
    again = run_curves("hexapawn", ["her", "him"], "random", games=20, every=10, seeds=2, eval_games=6, workers=2)
    assert to_csv(again) == text  # the same seed, processes or not: the same curves


def test_the_command_writes_png_csv_and_json(tmp_path, monkeypatch):
    monkeypatch.setenv("GAMELEARN_HOME", str(tmp_path / "home"))
    out = tmp_path / "out"
    out.mkdir()
    command = [sys.executable, "-m", "gamelearn.cli.main", "curves", "hexapawn", "her", "him", "--games", "10"]
    command += ["--every", "5", "--seeds", "2", "--eval-games", "4", "--workers", "1", "--out", str(out), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["columns"] == DOCUMENTED.split(",") and len(payload["rows"]) == 6
    assert payload["files"] == [str(out / "curves-hexapawn-seed0.csv"), str(out / "curves-hexapawn-seed0.png")]
    assert (out / "curves-hexapawn-seed0.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "curves-hexapawn-seed0.csv").read_text().splitlines()[0] == DOCUMENTED
    from gamelearn.store.db import Store

    with Store(tmp_path / "home" / "gamelearn.sqlite3") as store:
        assert [r["rows"] for r in store.results("curves")] == [payload["rows"]]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["hexapawn", "random"], "is not a learner"),
        (["hexapawn", "her:name=x"], "drop the stored name"),
        (["hexapawn", "her", "--every", "0"], "--every must be at least 1"),
        (["hexapawn", "her", "--against", "human"], "machines only"),
        (["chess", "her"], "unknown game"),
        (["hexapawn", "her", "--out", "/no/such/folder"], "no such folder"),
    ],
)
def test_bad_arguments_get_one_line_and_exit_2(arguments, message, tmp_path, monkeypatch):
    monkeypatch.setenv("GAMELEARN_HOME", str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-m", "gamelearn.cli.main", "curves", *arguments], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
