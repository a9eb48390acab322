"""A command refused for its arguments leaves the data folder as it found it: in a data folder not
made yet, a bad spec, name or option is one line and exit status 2, and no store (nor folder) is
made by it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamelearn.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["tournament", "tictactoe", "menace:name=nobody,train=off", "random"], "nothing is kept in the store"),
        (["tournament", "tictactoe", "random", "bogus"], "unknown player 'bogus'"),
        (["tournament", "tictactoe", "random", "random", "--sprt", "x"], "--sprt"),
        (["grade", "tictactoe", "menace:name=nobody"], "nothing is kept in the store"),
        (["curves", "tictactoe", "menace", "--games", "10", "--out", "/no/such/folder/stem"], "--out: no such folder"),
        (["train", "tictactoe", "menace", "--name", "n", "--games", "10", "--no-grade"], "does not learn by self-play"),
        (["train", "tictactoe", "ntuple:bogus=1", "--name", "n", "--games", "10", "--no-grade"], "unknown option"),
        (["train", "tictactoe", "ntuple:nodes=5", "--name", "n", "--games", "10", "--no-grade"], "is for teeko only"),
    ],
)
def test_a_refused_command_makes_no_store(
    args: list[str], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "new"
    monkeypatch.setenv("GAMELEARN_HOME", str(home))
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamelearn: error: ") and said in lines[0], result.output
    assert not home.exists(), sorted(home.rglob("*"))


def test_a_kept_learner_is_still_found_once_the_store_exists(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the read-only question that makes no store answers from the store once one is there
    monkeypatch.setenv("GAMELEARN_HOME", str(tmp_path / "new"))
    made = runner.invoke(app, ["play", "tictactoe", "--first", "random", "--second", "menace:name=kept", "--seed", "1"])
    assert made.exit_code == 0, made.output
    graded = runner.invoke(app, ["grade", "tictactoe", "menace:name=kept", "--quiet"])
    assert graded.exit_code == 0, graded.output
    assert "menace:name=kept" in graded.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["teeko", "memory", "import", "{short}"], "cut short"),
        (["teeko", "memory", "import", "{missing}"], "cannot read"),
        (["teeko", "memory", "import", "{whole}", "--name", ""], "cannot be empty"),
        (["teeko", "stat", "import", "{short}"], "a stat file is 36"),
        (["teeko", "memory", "delete", "nobody"], "no memory named 'nobody'"),
    ],
)
def test_a_refused_thesis_file_or_name_makes_no_store(
    args: list[str], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "new"
    monkeypatch.setenv("GAMELEARN_HOME", str(home))
    files = {"short": tmp_path / "short.m", "missing": tmp_path / "missing.m", "whole": tmp_path / "whole.m"}
    files["short"].write_bytes(b"xx")  # two bytes of a 33-byte record
    files["whole"].write_bytes(b"")  # a memory of no records: the name is what is refused
    result = runner.invoke(app, [arg.format(**{key: str(path) for key, path in files.items()}) for arg in args])
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamelearn: error: ") and said in lines[0], result.output
    assert not home.exists(), sorted(home.rglob("*"))
