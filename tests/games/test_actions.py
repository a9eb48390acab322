"""The one action numbering (gamelearn.games.actions), shared by the environments, the OpenSpiel
bridge and the az player: every legal move of every tic-tac-toe and hexapawn position, and of
random Teeko games in its standard and knight-step forms, has the number the layout in the
module's docstring gives it, and back."""

from __future__ import annotations

import random

import pytest
from test_interning import every_position

import gamelearn
from extras import need
from gamelearn.games.actions import KNIGHT_DIRECTIONS, TEEKO_DIRECTIONS, codec_for


def teeko_positions(spec: str, games: int = 6, plies: int = 40, seed: int = 0) -> list:
    game, rng, found = gamelearn.get_game(spec), random.Random(seed), []
    for _ in range(games):
        state = game.initial()
        for _ in range(plies):
            if game.is_over(state):
                break
            found.append(state)
            state = game.play(state, rng.choice(game.legal_moves(state)))
    return found


def expected_number(spec: str, move: str) -> int:
    """The layout, worked out from the move's text alone (the docstring's formulas)."""
    digits = [int(ch) for ch in move]
    if spec == "tictactoe":
        return digits[0]
    if spec == "hexapawn":
        return 9 * digits[0] + digits[1]
    if len(digits) == 2:  # Teeko: a pawn put down on row, column
        return 5 * digits[0] + digits[1]
    r0, c0, r1, c1 = digits
    directions = KNIGHT_DIRECTIONS if "knight" in spec else TEEKO_DIRECTIONS
    return 25 + 8 * (5 * r0 + c0) + directions.index((r1 - r0, c1 - c0))


@pytest.mark.parametrize("spec", ["tictactoe", "hexapawn", "teeko", "teeko:steps=knight"])
def test_every_legal_move_has_its_number_and_back(spec: str) -> None:
    game = gamelearn.get_game(spec)
    numbering = codec_for(game)
    positions = every_position(game) if spec in ("tictactoe", "hexapawn") else teeko_positions(spec)
    assert len(positions) == {"tictactoe": 5478, "hexapawn": 135}.get(spec, len(positions))
    assert numbering.size == {"tictactoe": 9, "hexapawn": 81}.get(spec, 225)
    for state in positions:
        moves = game.legal_moves(state)
        numbers = [numbering.to_action(move) for move in moves]
        assert numbers == [expected_number(spec, move) for move in moves]
        assert [numbering.to_move(number) for number in numbers] == moves


def test_a_number_that_names_no_move_is_refused() -> None:
    numbering = codec_for(gamelearn.get_game("teeko"))
    with pytest.raises(ValueError, match="names no teeko move"):
        numbering.to_move(25)  # a step up-left from the top-left corner
    with pytest.raises(ValueError, match="not a teeko move"):
        numbering.to_action("55")


def test_the_interfaces_read_the_one_numbering() -> None:
    need("envs", "gymnasium")
    need("envs", "pettingzoo")
    from gamelearn.envs import actions as env_actions
    from gamelearn.games import actions

    assert env_actions.codec is actions.codec and env_actions.ActionCodec is actions.ActionCodec
