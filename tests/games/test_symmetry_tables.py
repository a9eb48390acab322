"""The table-driven symmetries against the plain definition they replaced: every image
of a board is its squares moved by the permutation, one by one, and the canonical form is the
least image by ``board`` string, the first symmetry on a tie.  Checked on every reachable position
of tic-tac-toe and hexapawn, and on random Teeko positions."""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest

import gamelearn
from gamelearn.games.base import Game, bit_tables, board_order_tables, square_symmetries


def moved_board(board: str, perm: tuple[int, ...]) -> str:
    """The oracle: square ``sq``'s character goes to square ``perm[sq]``."""
    cells = [""] * len(board)
    for sq, ch in enumerate(board):
        cells[perm[sq]] = ch
    return "".join(cells)


def oracle_canonical(game: Game, state: Hashable) -> tuple[str, int]:
    """The old ``Game.canonical``, on boards: the least image and the first symmetry giving it."""
    board = game.board(state)
    best, best_index = board, 0
    for index in range(1, len(game.symmetries)):
        image = moved_board(board, game.symmetries[index])
        if image < best:
            best, best_index = image, index
    return best, best_index


def reachable(game: Game) -> list[Hashable]:
    seen = {game.initial()}
    frontier = [game.initial()]
    while frontier:
        state = frontier.pop()
        for move in game.legal_moves(state):
            child = game.play(state, move)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return sorted(seen, key=lambda s: (game.board(s), game.to_move(s)))


def random_teeko_positions(game: Game, count: int, seed: int) -> list[Hashable]:
    """Positions from seeded random games (placing and moving), and random boards of up to 4
    pawns a side that no game need reach."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial()
        for _ in range(rng.randrange(1, 40)):
            if game.is_over(state):
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
            found.append(state)
    for _ in range(count):
        squares = rng.sample(range(25), rng.randrange(0, 9))
        x = sum(1 << sq for sq in squares[0::2])
        o = sum(1 << sq for sq in squares[1::2])
        found.append(type(game.initial())(x, o, rng.randrange(2)))
    return found


def check(game: Game, states: list[Hashable]) -> None:
    for state in states:
        board = game.board(state)
        for index, perm in enumerate(game.symmetries):
            assert game.board(game.transform(state, index)) == moved_board(board, perm), (board, index)
            assert game.to_move(game.transform(state, index)) == game.to_move(state)
        image, index = game.canonical(state)
        assert (game.board(image), index) == oracle_canonical(game, state), board
        assert game.to_move(image) == game.to_move(state)
        assert game.canonical(state) == (image, index)  # asked again (kept on an interned state)
        assert game.canonical(image)[0] == image


@pytest.mark.parametrize("name", ["tictactoe", "hexapawn"])
def test_every_reachable_position_has_the_old_canonical_form(name: str) -> None:
    game = gamelearn.get_game(name)
    states = reachable(game)
    assert len(states) == {"tictactoe": 5478, "hexapawn": 135}[name]  # every one, not a sample
    check(game, states)


def test_a_plain_tuple_gets_the_interned_states_answer() -> None:
    game = gamelearn.get_game("tictactoe")
    for state in reachable(game)[::97]:
        assert game.canonical(tuple(state)) == game.canonical(state)
        assert game.transform(tuple(state), 3) == game.transform(state, 3)


@pytest.mark.parametrize("spec", ["teeko", "teeko:goals=advanced,steps=knight"])
def test_random_teeko_positions_have_the_old_canonical_form(spec: str) -> None:
    game = gamelearn.get_game(spec)
    check(game, random_teeko_positions(game, 400, seed=21))


def test_the_tables_are_the_permutations_bit_by_bit() -> None:
    _, perms = square_symmetries(5)
    rng = random.Random(5)
    for perm in perms:
        images, order = bit_tables(perm, 5), board_order_tables(perm, 5)
        for _ in range(200):
            bits = rng.getrandbits(25)
            chunks = [bits >> (5 * row) & 31 for row in range(5)]
            expected = sum(1 << perm[sq] for sq in range(25) if bits >> sq & 1)
            assert sum(table[v] for table, v in zip(images, chunks, strict=True)) == expected
            weight = sum(3 ** (24 - perm[sq]) for sq in range(25) if bits >> sq & 1)
            assert sum(table[v] for table, v in zip(order, chunks, strict=True)) == weight
