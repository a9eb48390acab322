"""`gamelearn solve` and `gamelearn analyze`: output, --json, one-line errors with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from gamelearn.cli.main import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_solve_tictactoe_and_hexapawn() -> None:
    code, out, _ = run("solve", "tictactoe")
    assert code == 0 and "5,478" in out and "a draw with best play" in out
    code, out, _ = run("solve", "hexapawn")
    assert code == 0 and "W (to move) loses in 6 plies" in out


def test_analyze_json_grades_every_move() -> None:
    code, out, _ = run("analyze", "tictactoe", "4", "0", "8", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["board"] == "O...X...X" and report["to_move"] == "O"
    assert report["value"] == 0 and report["distance"] is None
    assert report["best_moves"] == ["2", "6"]
    grades = {row["move"]: row["grade"] for row in report["analysis"]}
    assert grades == {"2": "best", "6": "best", "1": "mistake", "3": "mistake", "5": "mistake", "7": "mistake"}


def test_analyze_text_names_the_winner_to_be() -> None:
    code, out, _ = run("analyze", "hexapawn", "74")
    assert code == 0 and "B (to move) wins in 5 plies" in out and "blunder" in out


def test_a_bad_move_is_one_line_naming_it_and_exit_2() -> None:
    code, out, err = run("analyze", "tictactoe", "4", "4")
    assert code == 2
    assert err.strip().count("\n") == 0 and "move 2 '4'" in err and "occupied" in err


def test_teeko_without_a_table_is_refused_with_the_command_to_build_it() -> None:
    code, _, err = run("analyze", "teeko", "22")
    assert code == 2 and "gamelearn solve teeko" in err
    code, _, err = run("solve", "teeko", "--stats")
    assert code == 2 and "no solved table" in err


def test_a_corrupt_teeko_table_is_never_used(isolated_home: Path) -> None:
    table = isolated_home / "solved" / "teeko.table"
    table.parent.mkdir(parents=True)
    table.write_bytes(b"GAMELEARN-SOLVED\n" + b"{}\n" + b"\0" * 5000)
    code, _, err = run("analyze", "teeko")
    assert code == 2 and "another game or format" in err
    code, _, err = run("solve", "teeko", "--stats")
    assert code == 2


def test_a_huge_argument_is_quoted_by_a_short_prefix_only() -> None:
    # A pasted paragraph where a move, a game or an option's value goes: the line names it by its
    # first 40 characters and its length, never echoes it whole.
    huge = "x" * 10_000
    for args in (("analyze", "tictactoe", huge), ("analyze", huge), ("analyze", f"teeko:goals={huge}")):
        code, out, err = run(*args)
        assert code == 2 and out == "", err
        (line,) = err.strip().splitlines()
        assert "'" + "x" * 40 + "…' (10,000 characters)" in line and len(line) < 300, line
