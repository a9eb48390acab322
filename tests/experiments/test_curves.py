"""Learning curves (experiments/curves.py and `gamelearn curves`): the CSVs' documented columns,
the band against Student's t by hand, TD graded greedy on the suite, the learner's seat, timed runs,
replay from the seed, the runners agreeing, files never overwritten, errors."""

from __future__ import annotations

import csv
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from gamelearn.experiments.api import curves as run_curves
from gamelearn.experiments.curves import CurveTask, run_curve
from gamelearn.experiments.curves_output import CSV_COLUMNS, POINT_COLUMNS, band, to_csv, to_points_csv

DOCUMENTED = (
    "spec,point,games,seconds,seeds,keeps_mean,keeps_low,keeps_high,best_mean,best_low,best_high,"
    "blunders_mean,blunders_low,blunders_high,score_mean,score_low,score_high"
)
DOCUMENTED_POINTS = "spec,seed,point,games,seconds,keeps,best,blunders,score"


def test_the_band_is_students_t_over_seeds():
    # t(0.975, 2) = 4.302652729911275 (any table); mean 0.5, sample sd 0.1, n 3
    mean, low, high = band([0.4, 0.5, 0.6])
    half = 4.302652729911275 * 0.1 / math.sqrt(3)
    assert mean == pytest.approx(0.5) and low == pytest.approx(0.5 - half) and high == pytest.approx(0.5 + half)
    assert band([0.7]) == (0.7, 0.7, 0.7)
    assert band([0.0, 1.0]) == (0.5, 0.0, 1.0)  # cut to [0, 1], where every share lies


def without_seconds(text):
    rows = list(csv.DictReader(text.splitlines()))
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows]


@pytest.mark.slow  # trainings, and the command in a process
def test_hexapawn_curves_of_her_and_him_in_seconds():
    result = run_curves("hexapawn", ["her", "him"], "random", games=20, every=10, seeds=2, eval_games=6, workers=1)
    text = to_csv(result)
    rows = list(csv.DictReader(text.splitlines()))
    assert ",".join(CSV_COLUMNS) == DOCUMENTED == text.splitlines()[0]
    assert [(row["spec"], int(row["point"]), int(row["games"])) for row in rows] == [
        (s, p, 10 * p) for s in ("her", "him") for p in (0, 1, 2)
    ]
    for row in rows:
        assert int(row["seeds"]) == 2 and float(row["seconds"]) >= 0.0
        for measure in ("keeps", "best", "blunders", "score"):
            low, mean, high = (float(row[f"{measure}_{part}"]) for part in ("low", "mean", "high"))
            assert 0.0 <= low <= mean <= high <= 1.0
        # hexapawn has no draws: every move of the suite keeps the value or throws a win away
        assert float(row["keeps_mean"]) + float(row["blunders_mean"]) == pytest.approx(1.0)
        assert float(row["best_mean"]) <= float(row["keeps_mean"])
    points = list(csv.DictReader(to_points_csv(result).splitlines()))
    assert ",".join(POINT_COLUMNS) == DOCUMENTED_POINTS
    assert [(p["spec"], int(p["seed"]), int(p["point"])) for p in points] == [
        (s, seed, p) for s in ("her", "him") for seed in (0, 1) for p in (0, 1, 2)
    ]
    assert all(float(p["seconds"]) >= 0 for p in points)
    again = run_curves("hexapawn", ["her", "him"], "random", games=20, every=10, seeds=2, eval_games=6, workers=2)
    # the same seed, processes or not: the same curves (the seconds are the clock's)
    assert without_seconds(to_csv(again)) == without_seconds(text)


def test_her_against_random_ends_keeping_every_one_of_her_own_positions():
    # Issue 50's measure, as README's command runs it (5 seeds, 200 games, a point every 50): HER,
    # who plays Black, ends keeping all of Black's own 15 positions (docs/grading.md), every seed.
    result = run_curves("hexapawn", ["her"], "random", games=200, every=50, seeds=5, eval_games=20, workers=1)
    assert result.graded == (15,)
    last = [p for p in result.points if p.games == 200]
    assert len(last) == 5 and all(p.keeps == 1.0 for p in last)
    assert all(p.keeps < 1.0 for p in result.points if p.games == 0)


@pytest.mark.slow  # trainings, and the command in a process
def test_td_on_hexapawn_keeps_every_value_of_the_suite_graded_greedy():
    # The frozen copy is greedy (epsilon 0): what TD learnt, not its exploring, is graded; the
    # suite's grade is the exact solution's, so 1.0 means a value-keeping move in every position.
    result = run_curves("hexapawn", ["td"], "random", games=100, every=50, seeds=2, eval_games=4, workers=1)
    last = result.rows()[-1]
    assert last["games"] == 100 and last["keeps_mean"] == 1.0 and last["blunders_mean"] == 0.0
    assert result.rows()[0]["keeps_mean"] < 1.0  # before training it does not: the measure can fail


def task(side, **changes):
    fields = dict(game="hexapawn", spec="her", spec_index=0, learner=0, against="random", games=12, seconds=None,
                  every=6, points=10, eval_games=2, seed=3, max_plies=100, side=side)  # fmt: skip
    return CurveTask(**(fields | changes))


@pytest.mark.parametrize(("side", "seats"), [("second", {1}), ("first", {0}), ("alternate", {0, 1})])
def test_side_sets_the_learners_seat_in_every_training_game(side, seats):
    records = []
    run_curve(task(side), on_game=lambda record, seat: records.append(record))
    assert len(records) == 12
    # the record names its players: the learner (her) is where --side puts it
    assert {record.players.index("her") for record in records} == seats
    if side == "second":  # Gardner's set-up: HER is Black, the second player, in every game
        assert all(record.players == ("random", "her") for record in records)


@pytest.mark.slow  # trainings, and the command in a process
def test_a_timed_run_trains_for_its_seconds_and_measures_evenly_in_time():
    points = run_curve(task("alternate", games=None, seconds=0.3, points=3))
    assert [p.point for p in points][0] == 0 and points[-1].point == 3
    assert [p.point for p in points] == sorted({p.point for p in points})
    assert points[-1].seconds >= 0.3 and points[-1].games > 0
    assert all(a.games <= b.games and a.seconds <= b.seconds for a, b in zip(points, points[1:], strict=False))


def curves_command(tmp_path, *args):
    env = {**__import__("os").environ, "GAMELEARN_HOME": str(tmp_path / "home")}
    command = [sys.executable, "-m", "gamelearn.cli.main", "curves", "hexapawn", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.slow  # trainings, and the command in a process
def test_the_command_writes_png_csvs_and_json(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    arguments = ["her", "him", "--games", "10", "--every", "5", "--seeds", "2", "--eval-games", "4", "--workers", "1"]
    done = curves_command(tmp_path, *arguments, "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["columns"] == DOCUMENTED.split(",") and len(payload["rows"]) == 6
    assert all(row["seconds"] is not None for row in payload["rows"])
    assert len(payload["points"]) == 2 * 2 * 3 and set(payload["points"][0]) == set(DOCUMENTED_POINTS.split(","))
    assert {(p["spec"], p["seed"]) for p in payload["points"]} == {(s, n) for s in ("her", "him") for n in (0, 1)}
    csv_path, points_path, png_path = map(Path, payload["files"])
    assert csv_path.parent == out and csv_path.name.startswith("curves-hexapawn-her-him-")
    assert points_path.name == csv_path.stem + "-points.csv" and png_path.name == csv_path.stem + ".png"
    assert png_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert csv_path.read_text().splitlines()[0] == DOCUMENTED
    assert points_path.read_text().splitlines()[0] == DOCUMENTED_POINTS
    from gamelearn.store.store import Store

    with Store(tmp_path / "home" / "gamelearn.sqlite3") as store:
        assert [r["rows"] for r in store.results("curves")] == [payload["rows"]]
    # a second run, in the same second or not, writes files of its own beside the first's
    again = json.loads(curves_command(tmp_path, *arguments, "--out", str(out), "--json").stdout)
    assert not set(again["files"]) & set(payload["files"]) and len(list(out.iterdir())) == 6


@pytest.mark.slow  # trainings, and the command in a process
def test_an_out_name_that_exists_is_refused_unless_forced(tmp_path):
    (tmp_path / "mine.png").write_bytes(b"an earlier chart")
    arguments = ["her", "--games", "4", "--every", "2", "--seeds", "1", "--eval-games", "2", "--workers", "1"]
    refused = curves_command(tmp_path, *arguments, "--out", str(tmp_path / "mine"))
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert "mine.png exists" in refused.stderr and "--force" in refused.stderr
    assert (tmp_path / "mine.png").read_bytes() == b"an earlier chart" and not (tmp_path / "mine.csv").exists()
    forced = curves_command(tmp_path, *arguments, "--out", str(tmp_path / "mine.csv"), "--force")
    assert forced.returncode == 0, forced.stderr
    assert (tmp_path / "mine.png").read_bytes()[:4] == b"\x89PNG" and (tmp_path / "mine-points.csv").is_file()


@pytest.mark.slow  # trainings, and the command in a process
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["hexapawn", "random"], "is not a learner"),
        (["hexapawn", "her:name=x"], "drop the stored name"),
        (["hexapawn", "her", "--every", "0"], "--every must be at least 1"),
        (["hexapawn", "her", "--against", "human"], "machines only"),
        (["chess", "her"], "unknown game"),
        (["hexapawn", "her", "--out", "/no/such/folder"], "no such folder"),
        (["hexapawn", "her", "--games", "5", "--seconds", "2"], "one budget"),
        (["hexapawn", "her", "--side", "black"], "--side is usual, first, second or alternate"),
        (["hexapawn", "her", "--x", "plies"], "--x is games or seconds"),
        (["hexapawn", "her", "--seconds", "0"], "--seconds must be above 0"),
    ],
)
def test_bad_arguments_get_one_line_and_exit_2(arguments, message, tmp_path, monkeypatch):
    monkeypatch.setenv("GAMELEARN_HOME", str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-m", "gamelearn.cli.main", "curves", *arguments], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_each_learner_sits_its_usual_side_by_default_and_is_graded_where_that_side_moves():
    # Issue 50: HER plays Black (Gardner 1962), so she trains second and is graded on Black's own
    # 15 positions (test_grading's oracle); TD plays both sides, alternating, graded on all 27.
    from gamelearn import get_game
    from gamelearn.experiments.suites import get_suite

    game = get_game("hexapawn")
    black = len(get_suite(game).of_side(1))
    result = run_curves("hexapawn", ["her", "td"], "random", games=8, every=4, seeds=1, eval_games=2, workers=1)
    assert result.side == "usual" and result.seats == ("second", "alternate")
    assert result.graded == (black, 27) == (15, 27) and result.side_names == ("Black", "")
    assert result.yardstick(0) == "hexapawn-v1, Black's 15 of 27 positions"
    assert result.yardsticks() == "her: hexapawn-v1, Black's 15 of 27 positions; td: hexapawn-v1, 27 positions"
    assert result.to_dict()["seats"] == ["second", "alternate"]
    # a share of 15 positions is a multiple of 1/15
    assert all(round(p.keeps * 15, 9) == round(p.keeps * 15) for p in result.points if p.spec_index == 0)
    asked = run_curves("hexapawn", ["her"], "random", games=4, every=4, seeds=1, eval_games=2, workers=1, side="first")
    assert asked.seats == ("first",) and asked.side_names == ("White",) and asked.graded == (8,)
