"""The thesis experiment (thesis/experiment.py and its parts): a tiny experiment for
structure, determinism by seed and the runners (the intervals are tests/test_statistics.py's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from extras import need
from gamelearn.thesis import experiment as te
from gamelearn.thesis.chart import write_chart

pytestmark = pytest.mark.slow  # the thesis experiment: batches of games, a Dask cluster


def test_conditions_map_to_the_programs_fixes():
    from gamelearn.thesis.fixes import Fixes

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
    write_chart(report, chart)
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == ["chart.png"]
    payload = report.to_payload()
    assert payload["config"]["games"] == 6 and len(payload["runs"]) == len(report.runs)


def test_the_dask_runner_gives_the_same_runs(thesis_data: Path):
    need("dask", "distributed")
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
    from gamelearn.store.store import Store

    runner = CliRunner()
    monkeypatch.setenv("GAMELEARN_THESIS_DATA", str(thesis_data))  # where a user says the memory is
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
    monkeypatch.setenv("GAMELEARN_THESIS_DATA", str(thesis_data))
    assert te.default_thesis_memory() == thesis_data / "memory after 10000 games.txt"
    monkeypatch.delenv("GAMELEARN_THESIS_DATA")
    monkeypatch.chdir(tmp_path)
    assert te.default_thesis_memory() is None  # neither named nor in the working folder
    (tmp_path / "memory after 10000 games.txt").symlink_to(thesis_data / "memory after 10000 games.txt")
    assert te.default_thesis_memory() == tmp_path / "memory after 10000 games.txt"
    monkeypatch.setattr(te, "default_thesis_memory", lambda: None)
    failed = runner.invoke(app, ["teeko", "experiment"])
    assert failed.exit_code == 2 and "give --thesis-memory PATH" in failed.stderr
