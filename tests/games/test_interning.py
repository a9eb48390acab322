"""Tic-tac-toe's and hexapawn's states are interned (one object a position, the rules' answers kept on
it): still immutable, hashable and picklable, the same answers as the rules worked out afresh, and
an illegal move is never remembered."""

from __future__ import annotations

import copy
import pickle
import random
import subprocess
import sys

import pytest

import gamelearn
from gamelearn.games.hexapawn import HexapawnState
from gamelearn.games.tictactoe import TicTacToeState

SMALL = ("tictactoe", "hexapawn")


def every_position(game: gamelearn.Game) -> list:
    seen = {game.initial(): None}
    frontier = [game.initial()]
    while frontier:
        state = frontier.pop()
        for move in game.legal_moves(state):
            after = game.play(state, move)
            if after not in seen:
                seen[after] = None
                frontier.append(after)
    return list(seen)


@pytest.mark.parametrize("name", SMALL)
def test_one_object_a_position_through_play_pickle_copy_and_from_board(name: str) -> None:
    game = gamelearn.get_game(name)
    positions = every_position(game)
    assert len(positions) == {"tictactoe": 5478, "hexapawn": 135}[name]
    for state in positions:
        assert pickle.loads(pickle.dumps(state)) is state
        assert copy.copy(state) is state and copy.deepcopy(state) is state
        assert game.from_board(game.board(state), game.to_move(state)) is state
        assert type(state)(*tuple(state)) is state
        for move in game.legal_moves(state):
            assert game.play(state, move) is game.play(state, move)


@pytest.mark.parametrize("name", SMALL)
def test_a_plain_tuple_gets_the_same_answers_as_the_interned_state(name: str) -> None:
    game = gamelearn.get_game(name)
    for state in every_position(game):
        plain = tuple(state)
        assert type(plain) is tuple
        assert game.legal_moves(plain) == game.legal_moves(state)  # type: ignore[arg-type]
        assert game.is_over(plain) == game.is_over(state)  # type: ignore[arg-type]
        assert game.winner(plain) == game.winner(state)  # type: ignore[arg-type]
        assert game.to_move(plain) == game.to_move(state)  # type: ignore[arg-type]
        for move in game.legal_moves(state):
            assert game.play(plain, move) is game.play(state, move)  # type: ignore[arg-type]


@pytest.mark.parametrize("state", [TicTacToeState(16, 0), HexapawnState("BBB...WWW", 0)])
def test_states_cannot_be_changed(state: tuple) -> None:
    with pytest.raises(AttributeError):
        state.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        del state._next  # type: ignore[attr-defined]
    with pytest.raises((AttributeError, TypeError)):
        state.x = 0  # type: ignore[misc,attr-defined]
    assert hash(state) == hash(tuple(state)) and state == tuple(state)


@pytest.mark.parametrize("name", SMALL)
def test_changing_a_returned_move_list_changes_nothing(name: str) -> None:
    game = gamelearn.get_game(name)
    start = game.initial()
    moves = game.legal_moves(start)
    expected = list(moves)
    moves.clear()
    random.Random(0).shuffle(game.legal_moves(start))
    assert game.legal_moves(start) == expected


@pytest.mark.parametrize("name,illegal", [("tictactoe", "9"), ("hexapawn", "60")])
def test_an_illegal_move_is_never_remembered(name: str, illegal: str) -> None:
    game = gamelearn.get_game(name)
    start = game.initial()
    for _ in range(2):  # refused the second time too: a refusal is not kept as a successor
        with pytest.raises(gamelearn.IllegalMove):
            game.play(start, illegal)
    with pytest.raises(gamelearn.IllegalMove):
        game.play(start, ["4"])  # type: ignore[arg-type]  # unhashable: still a one-line IllegalMove


def test_positions_made_before_the_first_move_get_their_successors_in_the_one_pass() -> None:
    """The first move interns every position with its successors in one pass (the docstring of
    ``_intern_every_position`` promises that play never meets a position without them); positions
    made earlier, by ``from_board``, unpickling or the class itself, must not be skipped as known."""
    program = (
        "import pickle, gamelearn\n"
        "from gamelearn.games.tictactoe import TicTacToeState, _STATES\n"
        "game = gamelearn.get_game('tictactoe')\n"
        "made = [game.from_board('XO.......', 0), game.from_board('XOX.O....', 0),\n"
        "        pickle.loads(pickle.dumps(TicTacToeState(1 | 4, 2))), TicTacToeState(511, 0)]\n"
        "game.play(game.initial(), '4')\n"
        "reachable = [s for s in _STATES.values() if s != (511, 0)]\n"
        "print(len(reachable), sum('_next' not in s.__dict__ for s in reachable if game.legal_moves(s)),\n"
        "      all(s is TicTacToeState(*s) for s in made))\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["5478", "0", "True"]
