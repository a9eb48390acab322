"""Property tests (hypothesis) for the move parsers: any text at all is either a legal move, played,
or an IllegalMove naming it and saying why; never another exception, never a changed position."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gamelearn import IllegalMove, get_game
from gamelearn.games import GAME_NAMES

PROFILE = settings(max_examples=150, deadline=None)


def reachable(name: str, seed: int, plies: int):
    game = get_game(name)
    rng = random.Random(seed)
    state = game.initial()
    for _ in range(plies):
        if game.is_over(state):
            break
        state = game.play(state, rng.choice(game.legal_moves(state)))
    return state


positions = st.tuples(st.sampled_from(list(GAME_NAMES)), st.integers(0, 10_000), st.integers(0, 60))
move_like = st.one_of(
    st.text(max_size=6),
    st.text(alphabet="0123456789", min_size=1, max_size=5),
    st.text(alphabet="0123456789 -,abc\n\t", max_size=5),
)


def check(name: str, state, move: object) -> None:
    game = get_game(name)
    before = game.board(state), game.to_move(state)
    legal = game.legal_moves(state)
    try:
        after = game.play(state, move)  # type: ignore[arg-type]
    except IllegalMove as error:
        assert move not in legal
        assert repr(move) in str(error) and error.reason and "\n" not in error.reason
    else:
        assert move in legal
        assert game.board(after) != before[0]
    assert (game.board(state), game.to_move(state)) == before


@PROFILE
@given(positions, move_like)
def test_any_text_is_a_legal_move_or_an_illegal_move_with_a_reason(position, move: str) -> None:
    name, seed, plies = position
    check(name, reachable(name, seed, plies), move)


@PROFILE
@given(
    positions,
    st.one_of(st.none(), st.integers(), st.binary(max_size=4), st.tuples(st.integers(0, 8), st.integers(0, 8))),
)
def test_things_that_are_not_text_are_illegal_moves_too(position, move: object) -> None:
    name, seed, plies = position
    check(name, reachable(name, seed, plies), move)


@PROFILE
@given(positions, st.data())
def test_every_legal_move_plays_and_transforms_back(position, data: st.DataObject) -> None:
    name, seed, plies = position
    game = get_game(name)
    state = reachable(name, seed, plies)
    legal = game.legal_moves(state)
    if not legal:
        return
    move = data.draw(st.sampled_from(legal))
    check(name, state, move)
    symmetry = data.draw(st.integers(0, len(game.symmetries) - 1))
    image = game.transform_move(move, symmetry)
    inverse = next(
        k
        for k in range(len(game.symmetries))
        if game.transform_move(image, k) == move
        and all(game.symmetries[k][game.symmetries[symmetry][sq]] == sq for sq in range(game.squares))
    )
    assert game.transform_move(image, inverse) == move


@PROFILE
@given(st.sampled_from(list(GAME_NAMES)), st.data(), st.integers(-1, 2))
def test_from_board_gives_a_consistent_state_or_a_value_error(name: str, data: st.DataObject, to_move: int) -> None:
    game = get_game(name)
    cells = "." * 4 + "".join(game.symbols)  # mostly empty squares, as in real games
    size = data.draw(st.sampled_from([game.squares, game.squares, game.squares, game.squares - 1, 0]))
    board = data.draw(st.text(alphabet=cells + "?", min_size=size, max_size=size))
    try:
        state = game.from_board(board, to_move)
    except ValueError as error:
        assert str(error) and "\n" not in str(error)
        return
    assert game.board(state) == board and game.to_move(state) == to_move
    assert (game.legal_moves(state) == []) == game.is_over(state)
    assert game.from_board(game.board(state), game.to_move(state)) == state
