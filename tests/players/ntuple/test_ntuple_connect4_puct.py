"""Connect Four's PUCT search over the learnt values (players/ntuple/connect4_puct.py) against a plain
Python PUCT of the same definition over the game's own rules and the network's values, and against
positions whose right move is plain: a four to make, a four to stop."""

from __future__ import annotations

import math
from collections.abc import Hashable

import numpy as np
import pytest

import gamelearn
from gamelearn.players.ntuple.connect4_search import centre_first
from gamelearn.players.ntuple.layout import pieces
from gamelearn.players.ntuple.player import NtuplePlayer
from random_games import unfinished_positions

GAME = gamelearn.get_game("connect4")
ORDER = [str(c + 1) for c in centre_first(7)]


def random_states(count: int, seed: int) -> list[Hashable]:
    """Unfinished positions met in seeded random games, every stage of the game."""
    return unfinished_positions(GAME, count, seed)


class PlainNode:
    """A position of the plain search: each legal move's child, value for the side to move, prior,
    visits and summed values."""

    def __init__(self, player: NtuplePlayer, state: Hashable, temperature: float) -> None:
        side = GAME.to_move(state)
        self.children: dict[str, Hashable] = dict(GAME.successors(state))
        self.first: dict[str, float] = {}
        for move, child in self.children.items():
            if GAME.is_over(child):
                self.first[move] = 0.5 if GAME.winner(child) is None else 1.0
            else:  # the network's W is the first player's chance; the mover's is W or 1 - W
                (w,) = player.trainer.values([(*pieces(GAME, child), 0)])
                self.first[move] = float(w) if side == 0 else 1.0 - float(w)
        top = max(self.first.values())
        weights = {move: math.exp((value - top) / temperature) for move, value in self.first.items()}
        self.prior = {move: weight / sum(weights.values()) for move, weight in weights.items()}
        self.visits = dict.fromkeys(self.children, 0)
        self.total = dict.fromkeys(self.children, 0.0)
        self.below: dict[str, PlainNode] = {}


def plain_puct(player: NtuplePlayer, state: Hashable, iterations: int, c: float, temperature: float) -> dict[str, int]:
    """Each root move's visits after ``iterations`` walks, by the module's definition."""
    root = PlainNode(player, state, temperature)
    for _ in range(iterations):
        node, path = root, []
        while True:
            scale = c * math.sqrt(sum(node.visits.values()) + 1)
            legal = [move for move in ORDER if move in node.children]
            move = max(
                legal,
                key=lambda m: (
                    (node.total[m] / node.visits[m] if node.visits[m] else node.first[m])
                    + scale * node.prior[m] / (1 + node.visits[m]),
                    -legal.index(m),  # the first in centre-first order among equals
                ),
            )
            path.append((node, move))
            if GAME.is_over(node.children[move]) or node.visits[move] == 0:
                value = node.first[move]
                break
            if move not in node.below:
                node.below[move] = PlainNode(player, node.children[move], temperature)
            node = node.below[move]
        for visited, move in reversed(path):
            visited.visits[move] += 1
            visited.total[move] += value
            value = 1.0 - value
    return root.visits


def player_with_weights(seed: int, mcts: int) -> NtuplePlayer:
    player = NtuplePlayer(GAME, seed=0, mcts=mcts, train=False)
    rng = np.random.default_rng(seed)
    player.trainer.weights[:] = (rng.standard_normal(player.trainer.weights.size) * 0.3).astype(np.float32)
    return player


@pytest.mark.slow  # a plain tree search in Python over 12 positions
def test_the_compiled_search_visits_what_the_plain_puct_does() -> None:
    iterations = 300
    player = player_with_weights(9, iterations)
    for state in random_states(400, seed=6)[::33]:
        move, _, visits = player.connect4_puct(state)
        plain = plain_puct(player, state, iterations, player.puct.exploration, player.puct.temperature)
        assert visits == plain, state
        most = max(plain.values())
        assert plain[move] == most


def test_the_tree_search_takes_a_four_and_stops_one() -> None:
    player = player_with_weights(3, 2000)
    # X to move with three across the bottom: 4 wins at once
    assert player.choose(GAME.from_board("." * 28 + ".....O." + "XXX.OO.", 0)) == "4"
    # O to move against the same three: 4 stops them
    assert player.choose(GAME.from_board("." * 35 + "XXX.OO.", 1)) == "4"


def test_the_same_position_gets_the_same_move() -> None:
    player = player_with_weights(4, 500)
    for state in random_states(60, seed=2)[::10]:
        assert player.choose(state) == player.choose(state)


@pytest.mark.parametrize(
    ("game", "spec", "refusal"),
    [
        ("connect4", "ntuple:mcts=100,search=8", "two ways to play"),
        ("teeko", "ntuple:mcts=100", "is for connect4 only, not teeko"),
        ("connect4", "ntuple:mcts=300001", "too large"),
        ("connect4:columns=5,rows=4", "ntuple:mcts=100", "7x6 board only"),
        ("connect4", "ntuple:mcts=-1", "mcts"),
    ],
)
def test_a_tree_search_where_it_cannot_play_is_refused(game: str, spec: str, refusal: str) -> None:
    with pytest.raises(ValueError, match=refusal):
        gamelearn.make_player(gamelearn.get_game(game), spec, seed=0)


def test_the_spec_says_the_tree_search_and_a_graded_copy_plays_the_raw_network() -> None:
    player = gamelearn.make_player(GAME, "ntuple:mcts=500,train=off", seed=0)
    assert "mcts=500" in player.spec
    assert player.frozen_spec() == "ntuple:train=off,mcts=500"
    assert player.quick_grade_options() == {"mcts": "0", "search": "0"}
    quick = gamelearn.make_player(GAME, "ntuple:mcts=0,search=0,train=off", seed=0)
    assert quick.mcts == 0 and quick.search == 1
