"""Kept games leave the store and come back as text: a game played with `gamelearn play` is listed,
exported to a file, imported again as a kept game, and `gamelearn review FILE` grades every move
(checked here against a minimax of tic-tac-toe written for the test); a bad file or number is one
line and exit status 2."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from typer.testing import CliRunner

from gamelearn import get_game, parse_record
from gamelearn.cli.main import app

runner = CliRunner()
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
# X takes the middle, O a corner, X threatens the middle column, O looks away, X completes it
MOVES = ["4", "0", "1", "2", "7"]


@functools.cache
def minimax(board: str) -> int:
    """The value of a tic-tac-toe board for X: +1, 0, -1 (X moves when the counts are equal)."""
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return 1 if board[a] == "X" else -1
    if "." not in board:
        return 0
    mover = "X" if board.count("X") == board.count("O") else "O"
    values = [minimax(board[:i] + mover + board[i + 1 :]) for i, ch in enumerate(board) if ch == "."]
    return max(values) if mover == "X" else min(values)


def play_and_keep() -> None:
    result = runner.invoke(
        app, ["play", "tictactoe", "--first", "human", "--second", "human"], input="\n".join(MOVES) + "\n"
    )
    assert result.exit_code == 0, result.output


def test_a_played_game_is_exported_imported_and_reviewed(tmp_path: Path) -> None:
    play_and_keep()
    listed = runner.invoke(app, ["records", "list"])
    assert listed.exit_code == 0, listed.output
    row = next(line for line in listed.output.splitlines() if "tictactoe" in line)
    number = row.split()[0]
    path = tmp_path / "game.txt"
    exported = runner.invoke(app, ["records", "export", number, str(path)])
    assert exported.exit_code == 0, exported.output
    parsed = parse_record(path.read_text(encoding="utf-8"))
    assert list(parsed.record.moves) == MOVES and parsed.record.winner == 0 and parsed.date is not None
    assert parsed.tags["First"] == parsed.tags["Second"] == "human"

    imported = runner.invoke(app, ["records", "import", str(path)])
    assert imported.exit_code == 0, imported.output
    new_number = re.search(r"as game (\d+)", imported.output)
    assert new_number is not None and new_number.group(1) != number
    again = tmp_path / "again.txt"
    assert runner.invoke(app, ["records", "export", new_number.group(1), str(again)]).exit_code == 0
    assert parse_record(again.read_text(encoding="utf-8")).record == parsed.record

    reviewed = runner.invoke(app, ["review", str(path)], env={"COLUMNS": "80"})
    assert reviewed.exit_code == 0, reviewed.output
    assert max(len(line) for line in reviewed.output.splitlines()) <= 80
    game = get_game("tictactoe")
    state = game.initial()
    rows = [line.split() for line in reviewed.output.splitlines() if re.match(r"^\s+\d+\s+[XO]\s", line)]
    assert [cells[2] for cells in rows] == MOVES
    for move, cells in zip(MOVES, rows, strict=True):
        before = minimax(game.board(state))
        state = game.play(state, move)
        after = minimax(game.board(state))
        shown = " ".join(cells[4:6])
        expected = "draw" if after == 0 else ("X" if after > 0 else "O")
        assert shown.startswith(expected), (move, cells)
        # a move that changes the value for the worse of its mover is a mistake or a blunder
        mover_lost = (after < before) if cells[1] == "X" else (after > before)
        assert (cells[3] in ("mistake", "blunder")) == mover_lost, (move, cells)
    # the summary per side counts the grades of the rows above
    for side in "XO":
        summary = re.search(
            rf"^{side} human: (\d+) best, (\d+) keeping, (\d+) mistakes?, (\d+) blunders?", reviewed.output, re.M
        )
        assert summary is not None, reviewed.output
        grades = [cells[3] for cells in rows if cells[1] == side]
        expected = [grades.count(name) for name in ("best", "keeps", "mistake", "blunder")]
        assert [int(n) for n in summary.groups()] == expected


def test_export_writes_whole_or_refuses_in_one_line(tmp_path: Path) -> None:
    play_and_keep()
    taken = tmp_path / "taken.txt"
    taken.write_text("mine\n")
    for args, words in [
        (["records", "export", "999", str(tmp_path / "x.txt")], "no kept game 999"),
        (["records", "export", "1", str(taken)], "--force"),
        (["records", "export", "1", str(tmp_path / "no" / "x.txt")], "x.txt"),
        (["records", "export", "1", str(tmp_path)], "is a folder"),
    ]:
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and words in result.output, (args, result.output)
        assert len(result.output.strip().splitlines()) == 1
    assert taken.read_text() == "mine\n" and not (tmp_path / "x.txt").exists()
    assert runner.invoke(app, ["records", "export", "1", str(taken), "--force"]).exit_code == 0
    assert parse_record(taken.read_text()).record.moves == tuple(MOVES)


def test_a_bad_record_file_is_one_line_naming_the_line(tmp_path: Path) -> None:
    play_and_keep()
    path = tmp_path / "game.txt"
    assert runner.invoke(app, ["records", "export", "1", str(path)]).exit_code == 0
    text = path.read_text().replace("2. 1 2", "2. 1 1")  # O plays on X's square
    path.write_text(text)
    line = len(text.splitlines())
    for command in (["records", "import"], ["review"]):
        result = runner.invoke(app, [*command, str(path)])
        assert result.exit_code == 2, result.output
        assert f"line {line}: move 2 (O) '1':" in result.output and len(result.output.strip().splitlines()) == 1
    before = runner.invoke(app, ["records", "list"]).output
    assert before.count("tictactoe") == 1  # the refused file kept nothing
    missing = runner.invoke(app, ["review", str(tmp_path / "none.txt")])
    assert missing.exit_code == 2 and "none.txt" in missing.output
