"""The thesis experiment (experiments/thesis_experiment.py): interval arithmetic against published
values, and a tiny experiment for structure, determinism by seed and the runners."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamelearn.experiments import thesis_experiment as te


@pytest.mark.parametrize(
    "successes,trials,low,high",
    [  # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_newcombes_table(successes: int, trials: int, low: float, high: float):
    interval = te.wilson(successes, trials)
    assert interval.estimate == successes / trials
    assert round(interval.low, 4) == low and round(interval.high, 4) == high


def test_wilson_closed_forms_and_symmetry():
    z2 = te.Z_95**2
    assert math.isclose(te.wilson(0, 10).high, z2 / (10 + z2))
    assert math.isclose(te.wilson(10, 10).low, 10 / (10 + z2))
    a, b = te.wilson(627, 3000), te.wilson(3000 - 627, 3000)
    assert math.isclose(a.low, 1 - b.high) and math.isclose(a.high, 1 - b.low)
    assert a.low < 0.209 < a.high and a.high - a.low < 0.03  # 3,000 games: about +-1.5 points
    for bad in ((1, 0), (-1, 5), (6, 5)):
        with pytest.raises(ValueError):
            te.wilson(*bad)


def test_mean_interval_uses_student_t_and_stays_within_rates():
    values = [0.10, 0.20, 0.30]  # mean 0.2, sd 0.1, t(2) = 4.302653
    interval = te.mean_interval(values)
    half = 4.302653 * 0.1 / math.sqrt(3)
    assert math.isclose(interval.estimate, 0.2)
    assert interval.low == 0.0  # 0.2 - 0.248 is clipped: a rate is not negative
    assert math.isclose(interval.high, 0.2 + half, rel_tol=1e-6)
    narrow = te.mean_interval([0.30, 0.32, 0.34, 0.36, 0.38])  # sd 0.0316, t(4) = 2.776445
    assert math.isclose(narrow.high - narrow.estimate, 2.776445 * math.sqrt(0.001) / math.sqrt(5), rel_tol=1e-6)
    assert te.mean_interval([0.4]) == te.Interval(0.4, 0.4, 0.4)
    assert te.t_quantile_975(1) == 12.706205 and te.t_quantile_975(1000) == te.Z_95
    assert te.t_quantile_975(35) == te.t_quantile_975(30)  # conservative between tabulated values


def test_conditions_map_to_the_programs_fixes():
    from gamelearn.players.thesis.fixes import Fixes

    assert te.fixes_for("original", "none") == Fixes.original()
    assert te.fixes_for("original", "fixed-sign") == Fixes.original().but(memory_sign_by_side=True)
    assert te.fixes_for("fixed", "original-sign") == Fixes.fixed().but(memory_sign_by_side=False)
    assert te.fixes_for("fixed", "fixed-sign") == Fixes.fixed()
    with pytest.raises(ValueError):
        te.fixes_for("fixed", "both")


def tiny(thesis_data: Path, **changes) -> te.ExperimentConfig:
    options = dict(games=6, seeds=2, train_games=20, chart_games=4, chart_steps=2, workers=1)
    options.update(changes)
    return te.ExperimentConfig(thesis_memory=thesis_data / "memory after 10000 games.txt", **options)


def outcomes(report: te.ExperimentReport) -> list[tuple]:
    return [(r.memory, r.mode, r.variant, r.seed, r.training_games, r.x_wins, r.draws, r.o_wins) for r in report.runs]


def test_tiny_experiment_structure_and_determinism(thesis_data: Path, tmp_path: Path):
    seen: list[tuple[int, int]] = []
    report = te.run_experiment(tiny(thesis_data), progress=lambda done, total: seen.append((done, total)))
    keys = [(c.memory, c.mode, c.variant) for c in report.conditions]
    assert keys == [(m, mode, v) for m in te.MEMORIES for mode in te.MODES for v in te.VARIANTS]
    for condition in report.conditions:
        assert condition.runs == 2 and condition.games == 12
        assert condition.x_wins + condition.draws + condition.o_wins == 12
        assert condition.pooled == te.wilson(condition.o_wins, 12)
    assert report.conditions[1].seed_figure == 0.209  # thesis memory, original program, original sign
    # chart points: our training at 0, 10, 20 games and the thesis's 2000/2500/3000/10000, 3 series each
    ours = sorted({p.training_games for p in report.chart_points if p.memory == "our training"})
    theirs = sorted({p.training_games for p in report.chart_points if p.memory == "thesis memories"})
    assert ours == [0, 10, 20] and theirs == [2000, 2500, 3000, 10000]
    assert all(p.games == 8 for p in report.chart_points)
    assert seen[-1][0] == seen[-1][1] == len(report.runs) + 1 and [d for d, _ in seen] == list(range(1, len(seen) + 1))
    again = te.run_experiment(tiny(thesis_data))
    assert outcomes(again) == outcomes(report)
    other = te.run_experiment(tiny(thesis_data, first_seed=7))
    assert outcomes(other) != outcomes(report)
    pooled = te.run_experiment(tiny(thesis_data, workers=2))
    assert outcomes(pooled) == outcomes(report)
    chart = tmp_path / "chart.png"
    te.write_chart(report, chart)
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["chart.png"]
    payload = report.to_payload()
    assert payload["config"]["games"] == 6 and len(payload["runs"]) == len(report.runs)


def test_the_dask_runner_gives_the_same_runs(thesis_data: Path):
    pytest.importorskip("dask.distributed")
    config = tiny(thesis_data, seeds=1, chart_steps=1)
    assert outcomes(te.run_experiment(tiny(thesis_data, seeds=1, chart_steps=1, dask="local"))) == outcomes(
        te.run_experiment(config)
    )


def test_bad_configurations_are_refused(thesis_data: Path):
    for change in ({"games": 0}, {"seeds": 0}, {"workers": 0}, {"chart_games": 0}, {"x_memory": "other"}):
        with pytest.raises(ValueError):
            tiny(thesis_data, **change)


def test_experiment_command(thesis_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from gamelearn.cli.main import app
    from gamelearn.store.db import Store

    runner = CliRunner()
    chart = tmp_path / "teeko-experiment-seed1.png"
    args = ["teeko", "experiment", "--games", "4", "--seeds", "2", "--train-games", "10", "--chart-games", "2",
            "--workers", "1", "--out", str(tmp_path)]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert chart.read_bytes()[:4] == b"\x89PNG"
    (saved,) = Store().results("teeko-thesis-experiment")
    assert len(saved["conditions"]) == 12 and saved["config"]["seeds"] == 2
    assert "20.9" in result.stdout  # the seed's figure beside ours
    for bad, message in (
        (["--games", "x"], "--games"),  # Typer's usage error names the option
        (["--x-memory", "both"], "--x-memory is 'same' or 'empty'"),
        (["--thesis-memory", str(tmp_path / "none.txt")], "cannot read"),
        (["--out", str(tmp_path / "no")], "--out: no such folder"),
    ):
        failed = runner.invoke(app, ["teeko", "experiment", *bad])
        assert failed.exit_code == 2 and message in failed.stderr, (bad, failed.output)
    assert te.default_thesis_memory() is not None  # the thesis_data fixture found it
    monkeypatch.setattr(te, "default_thesis_memory", lambda: None)
    failed = runner.invoke(app, ["teeko", "experiment"])
    assert failed.exit_code == 2 and "give --thesis-memory PATH" in failed.stderr
