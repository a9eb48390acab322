"""The gamelearn command: play with scripted input (every bad move gets one line and a new prompt,
never a traceback, never a changed position; q quits cleanly), rules, players, --help everywhere."""

from __future__ import annotations

import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

import gamelearn
from gamelearn.cli.main import app
from gamelearn.games import GAME_NAMES

runner = CliRunner()


def play(game: str, moves: list[str], *options: str):
    return runner.invoke(
        app, ["play", game, "--first", "human", "--second", "human", *options], input="\n".join(moves) + "\n"
    )


def errors(output: str) -> list[str]:
    return [line.split(" to move: ")[-1] for line in output.splitlines() if "illegal move" in line]


def test_an_empty_line_or_help_at_the_prompt_points_to_the_question_mark() -> None:
    result = play("tictactoe", ["", "help", "4", "0", "1", "2", "7"])
    assert result.exit_code == 0, result.output
    pointers = [line for line in result.output.splitlines() if "? (legal moves)" in line]
    assert len(pointers) == 3  # once at the start, then for the empty line and for help
    assert "illegal move" not in result.output and "X (Player 1) wins after 5 plies" in result.output


def test_tictactoe_bad_input_gets_one_line_and_a_new_prompt_and_changes_nothing() -> None:
    bad = ["4", "x", "9", "44", "-1", "[/red]"]
    result = play("tictactoe", ["4", *bad, "0", "1", "2", "7"])
    assert result.exit_code == 0, result.output
    lines = errors(result.output)
    assert len(lines) == len(bad)
    reasons = ["occupied", "not a tic-tac-toe move", "off the board", "not a", "not a", "not a"]
    for line, move, reason in zip(lines, bad, reasons, strict=True):
        assert line.startswith(f"illegal move {move!r}: ") and reason in line
    # X 4 1 7 make the middle column: had a bad input changed the position, this would not be the end
    assert "X (Player 1) wins after 5 plies: X has three in a row." in result.output
    assert "Traceback" not in result.output


def test_teeko_every_kind_of_bad_move_in_both_phases() -> None:
    placing_errors = {
        "22": "occupied",
        "25": "off the board",
        "2": "not a Teeko move",
        "2223": "wrong phase",
        "xy": "not a Teeko move",
    }
    # X: 22 44 43 42, O: 00 01 02 20 (no four); then X is to step
    placing = ["22", *placing_errors, "00", "44", "01", "43", "02", "42", "20"]
    moving_errors = {
        "22": "wrong phase",
        "2224": "too far",
        "4443": "occupied",
        "0010": "no X pawn",
        "1111": "no X pawn",
        "00010": "not a Teeko move",
    }
    result = play("teeko", [*placing, *moving_errors, "q"])
    assert result.exit_code == 0, result.output
    lines = errors(result.output)
    expected = list(placing_errors.items()) + list(moving_errors.items())
    assert len(lines) == len(expected)
    for line, (move, reason) in zip(lines, expected, strict=True):
        assert line.startswith(f"illegal move {move!r}: ") and reason in line
    assert result.output.rstrip().endswith("Game abandoned.")


def test_teeko_a_game_to_its_end_through_the_terminal() -> None:
    # X: 00 01 02 13, O: 44 43 42 40; then X steps 13 -> 03 and has four across the top row.
    moves = ["00", "44", "01", "43", "02", "42", "13", "40", "1111", "00000", "1331", "1303"]
    result = play("teeko", moves)
    assert result.exit_code == 0, result.output
    assert [line.split(":")[0] for line in errors(result.output)] == [
        "illegal move '1111'",
        "illegal move '00000'",
        "illegal move '1331'",
    ]
    assert "X (Player 1) wins after 9 plies: X has four in a row." in result.output


def test_hexapawn_bad_moves_then_a_game_to_its_end() -> None:
    # W 63, B 14, W 84 (takes), B 24 (takes): White is stuck, Black wins.
    moves = ["30", "73", "60", "63", "63", "03", "14", "74", "84", "wat", "24"]
    result = play("hexapawn", moves)
    assert result.exit_code == 0, result.output
    assert [line.split(":")[0] for line in errors(result.output)] == [
        f"illegal move {m!r}" for m in ("30", "73", "60", "63", "03", "74", "wat")
    ]
    assert "B (Player 2) wins after 4 plies: W has no move left." in result.output


@pytest.mark.parametrize("game", GAME_NAMES)
def test_q_and_end_of_input_quit_cleanly(game: str) -> None:
    for typed in ("q", "quit", ""):
        result = runner.invoke(
            app, ["play", game, "--first", "human", "--second", "random", "--seed", "1"], input=typed
        )
        assert result.exit_code == 0
        assert result.output.rstrip().endswith("Game abandoned.")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_computer_against_computer_plays_to_the_end(game: str) -> None:
    result = runner.invoke(
        app, ["play", game, "--first", "random", "--second", "random", "--seed", "3", "--max-plies", "60"]
    )
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1]
    assert "wins after" in last or "raw" in last


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["play", "chess"], "unknown game 'chess'; valid games: teeko, hexapawn, tictactoe"),
        (["play", "tictactoe", "--first", "grandmaster"], "--first: unknown player 'grandmaster'"),
        (["play", "tictactoe", "--second", "minimax:depth=0"], "--second: option 'depth'"),
        (["rules", "go"], "valid games"),
        (["players", "go"], "valid games"),
    ],
)
def test_user_errors_are_one_line_and_exit_status_2(arguments: list[str], message: str) -> None:
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and message in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("game", GAME_NAMES)
def test_rules_and_players(game: str) -> None:
    rules = runner.invoke(app, ["rules", game])
    assert rules.exit_code == 0 and "Notation" in rules.stdout
    players = runner.invoke(app, ["players", game])
    assert players.exit_code == 0
    for spec in ("random", "human", "minimax", "alphabeta", "sharp"):
        assert spec in players.stdout


def all_command_paths() -> list[list[str]]:
    root = typer.main.get_command(app)
    paths: list[list[str]] = [[]]

    def walk(command: object, path: list[str]) -> None:
        # typer carries its own copy of click: look for sub-commands rather than a click class
        for name, sub in getattr(command, "commands", {}).items():
            paths.append([*path, name])
            walk(sub, [*path, name])

    walk(root, [])
    return paths


@pytest.mark.slow  # every command's help, each its own process
def test_help_everywhere() -> None:
    paths = all_command_paths()
    assert ["play"] in paths and ["rules"] in paths and ["players"] in paths
    for path in paths:
        result = runner.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        assert "Usage:" in result.output


@pytest.mark.slow  # the installed command in a process
def test_the_installed_command_with_a_real_terminal_pipe() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gamelearn.cli.main", "play", "tictactoe", "--first", "human", "--second", "human"],
        input="4\n4\n0\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert errors(done.stdout) == ["illegal move '4': square 4 is occupied"]
    assert done.stdout.rstrip().endswith("Game abandoned.")
    bad = subprocess.run(
        [sys.executable, "-m", "gamelearn.cli.main", "rules", "chess"], capture_output=True, text=True, timeout=60
    )
    assert (
        bad.returncode == 2 and bad.stderr.startswith("gamelearn: error: unknown game") and bad.stderr.count("\n") == 1
    )


def test_the_default_opponent_keeps_learning_from_your_games_across_sessions() -> None:
    """`gamelearn play tictactoe` without --second: MENACE named "play", saved in the store after
    each game, so the next session starts from what the last one taught it."""
    from gamelearn.store.store import Store

    first = runner.invoke(app, ["play", "tictactoe", "--seed", "1"], input="0\n3\n1\n6\n2\n5\n7\n8\n4\n")
    assert first.exit_code == 0, first.output
    assert "menace:name=play" in first.output
    with Store() as store:
        saved = store.load_learner("menace", "play")
    assert saved is not None
    second = runner.invoke(app, ["play", "tictactoe", "--seed", "1"], input="q\n")
    assert second.exit_code == 0
    with Store() as store:
        assert store.load_learner("menace", "play") == saved  # an abandoned game teaches nothing


def test_play_keeps_what_an_unnamed_learner_learns() -> None:
    # README's "teach MENACE yourself": an unnamed learner seated by `gamelearn play` is kept as
    # 'play', says so, and goes on learning in the next session.
    from gamelearn.store.store import Store

    for session in (1, 2):
        result = runner.invoke(app, ["play", "tictactoe", "--first", "random", "--second", "menace", "--seed", "1"])
        assert result.exit_code == 0, result.output
        assert "menace is kept in the store as 'play'" in result.output
        assert "menace learned:" in result.output
        stored = Store().load_learner("menace", "play")
        assert stored is not None and stored["games"] == session
    frozen = runner.invoke(app, ["play", "tictactoe", "--first", "random", "--second", "menace:train=off"])
    assert frozen.exit_code == 0 and "kept in the store" not in frozen.output
    assert Store().load_learner("menace", "play")["games"] == 2  # type: ignore[index]


@pytest.mark.parametrize(
    ("game", "search"),
    # docs/ntuple.md's defaults: Teeko's and 7x6's own searches, the compiled games greedy, any
    # other board (read by the generic layout) a 2-ply search
    [("teeko", "8"), ("connect4", "8"), ("tictactoe", "1"), ("hexapawn", "1"), ("connect4:columns=5,rows=4", "2")],
)
def test_players_shows_the_search_an_ntuple_player_plays_with(game: str, search: str) -> None:
    listed = runner.invoke(app, ["players", game], terminal_width=200)
    assert listed.exit_code == 0
    ntuple_row = next(line for line in listed.stdout.splitlines() if line.startswith("│ ntuple"))
    assert f"search={search}," in ntuple_row
    assert gamelearn.make_player(gamelearn.get_game(game), "ntuple", seed=0).search_spelling == search


@pytest.mark.parametrize("game", ["teeko", "connect4", "tictactoe", "connect4:columns=5,rows=4"])
def test_players_shows_the_learning_an_ntuple_player_of_the_game_does(game: str) -> None:
    """The listing's defaults are what a player made with no options trains with, game by game
    (TCL on for Teeko and 7x6, off for the rest), and Teeko's node cap is offered on Teeko only."""
    listed = runner.invoke(app, ["players", game])
    assert listed.exit_code == 0
    lines = listed.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("│ ntuple"))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith("│ " + " " * 10))
    ntuple_row = " ".join(line.split("│")[3].strip() for line in lines[start:end])  # the options cell, unwrapped
    made = gamelearn.make_player(gamelearn.get_game(game), "ntuple", seed=0).trainer.settings
    assert f"tcl={'on' if made.coherence > 0 else 'off'}" in ntuple_row
    assert f"alpha={made.alpha:.3g}," in ntuple_row and f"trace={made.trace:.3g}," in ntuple_row
    assert ("nodes=" in ntuple_row) == (game == "teeko") and "None" not in ntuple_row
