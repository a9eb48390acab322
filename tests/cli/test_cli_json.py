"""`--json` on every command that prints a result table: one JSON object on stdout, nothing else
there, with the keys docs/cli.md documents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamelearn.cli.main import app

runner = CliRunner()

CASES = {
    "tournament": (
        ["tournament", "tictactoe", "random", "perfect", "--games", "2", "--workers", "1", "--json"],
        {"game", "specs", "games_per_pair", "seed", "standings", "pairs", "openings", "sprt", "seconds", "runner"},
    ),
    "her": (
        ["her", "--learners", "2", "--games", "10", "--json"],
        {"experiment", "learners", "games", "seed", "side", "opponents", "boxes_counted", "result_id", "plot"},
    ),
    "him": (["him", "--learners", "2", "--games", "10", "--json"], {"opponents", "her_for_comparison", "plot"}),
    "menace": (
        ["menace", "--learners", "2", "--games", "10", "--against", "random", "--json"],
        {"experiment", "beads", "rewards", "opponents", "result_id", "plot"},
    ),
    "teeko batch": (
        ["teeko", "batch", "--games", "3", "--json"],
        {"games", "asked", "mode", "seed", "x_wins", "draws", "o_wins", "stopped", "memories"},
    ),
    "solve": (["solve", "hexapawn", "--stats", "--json"], {"game", "start_value", "start_distance", "census"}),
    "analyze": (["analyze", "tictactoe", "4", "--json"], {"board", "to_move", "value", "best_moves", "analysis"}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_json_is_one_object_on_stdout_with_the_documented_keys(name: str, isolated_home: Path) -> None:
    args, keys = CASES[name]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)  # the whole of stdout: one object, no table, no progress
    assert isinstance(payload, dict) and keys <= set(payload), keys - set(payload)
    if "plot" in payload:
        assert Path(payload["plot"]).is_absolute() and Path(payload["plot"]).is_file()
    documented = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    for key in keys:
        assert f"`{key}`" in documented, key


def test_solve_tictactoe_json_figures(isolated_home: Path) -> None:
    payload = json.loads(runner.invoke(app, ["solve", "tictactoe", "--stats", "--json"]).stdout)
    # tic-tac-toe: a draw, 5,478 positions reachable from the start (the known count)
    assert payload["start_value"] == 0 and payload["positions"] == 5478
    assert sum(payload["census"].values()) == 5478
