"""What the matchbox learners write: exported JSON and learning-curve PNGs (mode, missing folders),
results kept when a plot fails, and a damaged learner in the store named as such."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import gamelearn
from gamelearn import play_game
from gamelearn.cli import matchbox_runs
from gamelearn.cli.main import app
from gamelearn.experiments import matchbox as experiments
from gamelearn.players.matchbox import HerPlayer, MenacePlayer
from gamelearn.store.json_files import write_json_file
from gamelearn.store.store import Store

runner = CliRunner()
HEXAPAWN = gamelearn.get_game("hexapawn")
TICTACTOE = gamelearn.get_game("tictactoe")


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def small_result() -> dict[str, Any]:
    return experiments.run_her(experiments.HerOptions("her", 2, 10, ["random"], seed=1))


def test_exported_json_has_a_plain_files_mode_and_keeps_an_existing_ones(tmp_path: Path, umask_022: None) -> None:
    her = HerPlayer(HEXAPAWN, seed=1)
    play_game(HEXAPAWN, [gamelearn.make_player(HEXAPAWN, "random", seed=2), her], seed=3)
    fresh = tmp_path / "her.json"
    write_json_file(fresh, her.knowledge())
    assert mode(fresh) == 0o644  # what open(path, "w") gives under umask 022, not mkstemp's 0600
    assert json.loads(fresh.read_text())["boxes"] == her.boxes
    os.umask(0o077)
    other = tmp_path / "private.json"
    write_json_file(other, her.knowledge())
    assert mode(other) == 0o600  # the umask decides, as for open()
    os.chmod(fresh, 0o640)
    write_json_file(fresh, her.knowledge())
    assert mode(fresh) == 0o640  # an existing file keeps its mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["her.json", "private.json"]


def test_export_into_a_missing_folder_is_a_value_error_and_creates_nothing(tmp_path: Path) -> None:
    menace = MenacePlayer(TICTACTOE, seed=1)
    with pytest.raises(ValueError, match="no such folder"):
        write_json_file(tmp_path / "nowhere" / "m.json", menace.knowledge())
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow  # matplotlib
def test_the_learning_curve_png_is_0644_and_a_missing_folder_is_not_made(tmp_path: Path, umask_022: None) -> None:
    result = small_result()
    png = tmp_path / "curve.png"
    experiments.plot_learning_curve(result, png, "t")
    assert png.read_bytes().startswith(b"\x89PNG") and mode(png) == 0o644
    with pytest.raises(ValueError, match="no such folder"):
        experiments.plot_learning_curve(result, tmp_path / "a" / "b" / "curve.png", "t")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["curve.png"]


def test_cli_out_into_a_missing_folder_is_one_line_exit_2_and_creates_nothing(isolated_home: Path) -> None:
    target = isolated_home / "missing"
    before = sorted(p.name for p in isolated_home.iterdir())
    result = runner.invoke(app, ["her", "--learners", "2", "--games", "10", "--out", str(target)])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0 and "no such folder" in result.output
    assert not target.exists()
    assert sorted(p.name for p in isolated_home.iterdir()) == before


@pytest.mark.parametrize("kind", ["her", "menace"])
def test_a_plot_that_fails_late_loses_no_result(
    kind: str, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(result: dict[str, Any], path: Path, title: str) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(matchbox_runs, "plot_learning_curve", full_disk)  # where the command finds it
    result = runner.invoke(app, [kind, "--learners", "2", "--games", "10", "--no-chart", "--out", str(isolated_home)])
    assert result.exit_code == 2 and "No space left on device" in result.output
    saved = Store().results(kind)
    assert len(saved) == 1 and saved[0]["learners"] == 2 and saved[0]["games"] == 10


def test_default_plot_goes_in_the_data_directorys_plots_folder(isolated_home: Path) -> None:
    result = runner.invoke(app, ["her", "--learners", "2", "--games", "10", "--no-chart"])
    assert result.exit_code == 0, result.output
    png = isolated_home / "plots" / "her-learning-curve-seed1.png"
    assert png.read_bytes().startswith(b"\x89PNG")
    assert f"Learning curve: {png}" in result.output  # the absolute path, whatever the working folder


def damage(store: Store, kind: str, name: str) -> None:
    """Overwrite a learner's stored JSON with text that is not JSON (as a bad disk or hand edit)."""
    with store.transaction() as db:
        db.execute("UPDATE learners SET payload=? WHERE kind=? AND name=?", ("{x", kind, name))


def test_a_learner_whose_stored_json_is_damaged_is_named_in_the_error() -> None:
    store = Store()
    keeper = gamelearn.Keeper(store)
    her = HerPlayer(HEXAPAWN, seed=1, name="bob")
    play_game(HEXAPAWN, [gamelearn.make_player(HEXAPAWN, "random"), her], seed=7, keeper=keeper)
    damage(store, "her", "bob")
    with pytest.raises(ValueError, match=r"^her 'bob' in the store: Expecting property name"):
        keeper.attach(HerPlayer(HEXAPAWN, name="bob"))
    with pytest.raises(ValueError, match=r"^her 'bob' in the store: "):
        gamelearn.make_player(HEXAPAWN, "her:name=bob")


def test_the_cli_names_a_damaged_learner_and_import_replace_mends_it(tmp_path: Path) -> None:
    store = Store()
    menace = MenacePlayer(TICTACTOE, seed=1, name="m")
    play_game(TICTACTOE, [menace, gamelearn.make_player(TICTACTOE, "random")], seed=2)
    good = tmp_path / "m.json"
    write_json_file(good, menace.knowledge())
    damage(store, "menace", "m")
    for command in (["menace", "show", "m"], ["menace", "export", "m", str(tmp_path / "out.json")]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, result.output
        assert "menace 'm' in the store: Expecting property name" in " ".join(result.output.split())
    assert not (tmp_path / "out.json").exists()
    result = runner.invoke(app, ["menace", "import", str(good), "--name", "m"])
    assert result.exit_code == 2 and "already in the store" in result.output
    result = runner.invoke(app, ["menace", "import", str(good), "--name", "m", "--replace"])
    assert result.exit_code == 0, result.output
    assert gamelearn.make_player(TICTACTOE, "menace:name=m").boxes == menace.boxes
