"""`gamelearn play`'s helpers, driven through the command's input as a person types them: ? lists
the legal moves, hint gives perfect play and the position's value, undo takes back your move and
the reply, Ctrl-D and Ctrl-C end on a line of their own, and the end says why, from your side.

The oracles are independent of gamelearn: tic-tac-toe's legal moves and values come from a plain
negamax over board strings written here."""

from __future__ import annotations

from functools import cache

import pytest
from typer.testing import CliRunner

from gamelearn.cli import common
from gamelearn.cli.main import app
from gamelearn.cli.play import end_text
from gamelearn.games import get_game
from gamelearn.match import End, GameRecord

runner = CliRunner()
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def board_after(moves: list[str]) -> str:
    cells = ["."] * 9
    for ply, move in enumerate(moves):
        cells[int(move)] = "XO"[ply % 2]
    return "".join(cells)


def won(board: str, mark: str) -> bool:
    return any(all(board[i] == mark for i in line) for line in LINES)


@cache
def negamax(board: str, mover: str) -> tuple[int, int]:
    """(value, plies to the end) for ``mover`` with best play: the fastest win, the slowest loss."""
    other = "O" if mover == "X" else "X"
    if won(board, other):
        return -1, 0
    free = [i for i, cell in enumerate(board) if cell == "."]
    if not free:
        return 0, 0
    results = []
    for square in free:
        value, distance = negamax(board[:square] + mover + board[square + 1 :], other)
        results.append((-value, distance + 1))
    best = max(value for value, _ in results)
    distances = [distance for value, distance in results if value == best]
    return best, (min(distances) if best > 0 else max(distances))


def play(moves: list[str], *options: str, second: str = "human"):
    typed = "\n".join(moves) + "\n"
    return runner.invoke(app, ["play", "tictactoe", "--first", "human", "--second", second, *options], input=typed)


def test_question_mark_lists_the_legal_moves() -> None:
    result = play(["4", "0", "?", "q"])
    assert result.exit_code == 0, result.output
    listed = next(line for line in result.output.splitlines() if "Legal moves:" in line)
    free = [str(i) for i, cell in enumerate(board_after(["4", "0"])) if cell == "."]
    assert listed.split("Legal moves: ")[1].split() == free


def test_hint_gives_perfect_play_and_the_value() -> None:
    # after 4 1 (an edge reply to the centre) X wins
    result = play(["4", "1", "hint", "q"])
    assert result.exit_code == 0, result.output
    line = " ".join(result.output.split("Perfect play: ")[1].split("\n")[0:2])
    board = board_after(["4", "1"])
    value, distance = negamax(board, "X")
    assert value == 1 and f"X (to move) wins in {distance} plies with best play" in line
    best = {
        str(s)
        for s, cell in enumerate(board)
        if cell == "." and negamax(board[:s] + "X" + board[s + 1 :], "O") == (-1, distance - 1)
    }
    shown = {line.split()[0].rstrip(";")} | set(
        line.split("(as good: ")[1].split(")")[0].split(", ") if "as good" in line else []
    )
    assert shown == best


def test_hint_for_teeko_without_its_table_says_how_to_build_it() -> None:
    result = runner.invoke(app, ["play", "teeko", "--first", "human", "--second", "human"], input="hint\nq\n")
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # where the data folder's path makes the 80-column wrap fall does not matter
    assert "No hint:" in said and "gamelearn solve teeko" in said


def test_undo_takes_back_your_move_and_the_reply() -> None:
    # against the perfect player: X 4, its reply, then undo: the start again, all nine squares free
    result = play(["4", "undo", "?", "q"], "--seed", "3", second="perfect")
    assert result.exit_code == 0, result.output
    assert "Took back 2 moves." in result.output
    after_undo = result.output.split("Took back 2 moves.")[1]
    listed = next(line for line in after_undo.splitlines() if "Legal moves:" in line)
    assert listed.split("Legal moves: ")[1].split() == [str(i) for i in range(9)]
    # and a game goes on from there: X can play 4 again
    result = play(["4", "undo", "4", "q"], "--seed", "3", second="perfect")
    assert result.output.count("illegal move") == 0


def test_undo_before_any_move_of_yours_takes_nothing_back() -> None:
    result = play(["undo", "q"])
    assert "Nothing to take back" in result.output and "Took back" not in result.output


def test_a_lost_game_says_why_from_your_side() -> None:
    # the person plays the lowest free square every time (the rest are refused as illegal): X 0,
    # O must take the centre, X 1, O must block at 2, X 3, and O wins at once with 2-4-6
    every = [str(square) for square in range(9)] * 5
    result = play(every, second="perfect")
    assert result.exit_code == 0, result.output
    assert "You lose after 6 plies: O has three in a row." in " ".join(result.output.split())


def test_the_end_of_a_resigned_game_names_who_resigned() -> None:
    game = get_game("hexapawn")
    record = GameRecord(
        "hexapawn", ("human", "her"), ("63",), (game.initial(), game.play(game.initial(), "63")), 0, End.RESIGN
    )
    assert end_text(game, record, ["You", "HER"], you=0) == "You win after 1 ply: HER resigns."
    assert end_text(game, record, ["W", "HER"], you=None) == "W (W) wins after 1 ply: HER resigns."


def test_ctrl_d_ends_the_game_on_a_line_of_its_own() -> None:
    result = play(["4"])  # the input ends at O's prompt
    assert result.exit_code == 0, result.output
    assert "(O) to move: \nGame abandoned." in result.output


def test_ctrl_c_ends_the_game_on_a_line_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(common.console, "input", interrupted)
    result = play([])
    assert result.exit_code == 130, result.output  # as a shell reports ^C; q and ^D leave with 0
    assert result.output.rstrip().endswith("\nGame abandoned.")


def test_boards_are_drawn_beside_their_square_numbers() -> None:
    result = play(["q"])
    assert ". . .    0 1 2\n. . .    3 4 5\n. . .    6 7 8" in result.output
    result = runner.invoke(app, ["play", "hexapawn", "--first", "human", "--second", "human"], input="q\n")
    assert "B B B    0 1 2\n. . .    3 4 5\nW W W    6 7 8" in result.output


@pytest.mark.parametrize("seed", ["-1", str(10**30), str(2**32)])
def test_play_refuses_a_seed_out_of_range(seed: str) -> None:
    result = runner.invoke(app, ["play", "tictactoe", "--seed", seed])
    assert result.exit_code == 2 and "--seed" in result.output and "Traceback" not in result.output


def test_a_bug_shows_as_an_internal_error_with_its_traceback_logged(
    isolated_home, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A ValueError inside gamelearn is a bug, not bad input: never the one-line exit 2 of a user error."""
    import sys

    from gamelearn.cli import main as cli_main

    class Broken:
        def rules_text(self) -> str:
            raise ValueError("an invariant broke")

    monkeypatch.setattr(cli_main, "load_game", lambda name: Broken())
    monkeypatch.setattr(sys, "argv", ["gamelearn", "rules", "tictactoe"])
    with pytest.raises(SystemExit) as stop:
        cli_main.main()
    assert stop.value.code == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("gamelearn: internal error: ValueError: an invariant broke (traceback in ")
    log = err.split("(traceback in ")[1].rstrip(")")
    assert log.startswith(str(isolated_home)) and "Traceback" in open(log, encoding="utf-8").read()


def test_a_user_error_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    from gamelearn.cli import main as cli_main

    monkeypatch.setattr(sys, "argv", ["gamelearn", "play", "chess"])
    with pytest.raises(SystemExit) as stop:
        cli_main.main()
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("gamelearn: error: ") and "chess" in err


@pytest.mark.parametrize(
    "args",
    [
        ["play", "hexapawn", "--first", "her:name=a\x07b", "--second", "random"],
        ["menace", "export", "a\x1bb", "out.json"],
        ["teeko", "console", "--memory", "a\x00b"],
    ],
)
def test_learner_names_refuse_control_characters(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "control character" in result.stderr or "is not a name of" in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_regression_a_program_was_named_with_every_default_spelled_out() -> None:
    """`--second mcts:playouts=50` was announced as `mcts:playouts=50,c=1.4142135623730951`: the
    program is now named as it was typed."""
    result = play(["q"], second="mcts:playouts=50")
    assert "O = mcts:playouts=50\n" in result.output
    assert "1.414" not in result.output


def test_in_alternate_drops_the_prompt_names_whose_pawn_is_placed() -> None:
    # Scarne's Alternate Game: the side to move places the other side's pawn (O places X's first).
    result = runner.invoke(app, ["play", "teeko:drops=aaaa", "--first", "human", "--second", "human"], input="22\nq\n")
    assert "Player 2 (O) to move, placing X's pawn:" in result.output
    assert "Player 1 (X) to move, placing O's pawn:" in result.output
