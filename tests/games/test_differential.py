"""Differential tests: our rules against other people's (OpenSpiel's tic_tac_toe over every state,
easyAI's Hexapawn over seeded random games), and random play and TD learning against the game tree."""

from __future__ import annotations

import random
from typing import Any

import pytest

from extras import need

pyspiel = need("peers", "pyspiel")
need("peers", "easyAI")
from easyAI import Human_Player
from easyAI.games.Hexapawn import Hexapawn as EasyHexapawn

import gamelearn
from gamelearn.players.td import TDPlayer

TICTACTOE = gamelearn.get_game("tictactoe")
HEXAPAWN = gamelearn.get_game("hexapawn")


# OpenSpiel -----------------------------------------------------------------------------------


def test_tictactoe_agrees_with_openspiel_on_every_state() -> None:
    spiel_game = pyspiel.load_game("tic_tac_toe")
    seen: set[Any] = set()
    terminal = {0: 0, 1: 0, None: 0}
    stack = [(TICTACTOE.initial(), spiel_game.new_initial_state())]
    while stack:
        ours, theirs = stack.pop()
        if ours in seen:
            continue
        seen.add(ours)
        # OpenSpiel numbers the cells 0-8 along the rows, as we do; x moves first, as X does.
        assert str(theirs).replace("\n", "").upper() == TICTACTOE.board(ours)
        assert theirs.is_terminal() == TICTACTOE.is_over(ours)
        if theirs.is_terminal():
            winner = TICTACTOE.winner(ours)
            expected = [0.0, 0.0] if winner is None else [1.0 if winner == 0 else -1.0, 1.0 if winner == 1 else -1.0]
            assert theirs.returns() == expected
            terminal[winner] += 1
            continue
        assert theirs.current_player() == TICTACTOE.to_move(ours)
        assert theirs.legal_actions() == [int(move) for move in TICTACTOE.legal_moves(ours)]
        for move in TICTACTOE.legal_moves(ours):
            stack.append((TICTACTOE.play(ours, move), theirs.child(int(move))))
    # The known counts: 5,478 positions, of which 958 are final (626 X wins, 316 O wins, 16 draws).
    assert len(seen) == 5478
    assert terminal == {0: 626, 1: 316, None: 16}


# easyAI --------------------------------------------------------------------------------------


def easyai_square(square: int) -> tuple[int, int]:
    """Our square (0-8 along the rows from the top) as easyAI's (row, column) for Hexapawn(size=(3, 3)).

    easyAI's first player starts on its row 0 and moves towards row 2; ours (White) starts on the
    bottom row and moves up.  So easyAI's board is ours upside down: our row r is its row 2 - r.
    """
    return 2 - square // 3, square % 3


def easyai_move(move: str) -> str:
    (a_row, a_col), (b_row, b_col) = easyai_square(int(move[0])), easyai_square(int(move[1]))
    return f"{'ABC'[a_row]}{a_col + 1} {'ABC'[b_row]}{b_col + 1}"


def easyai_moves_on_own_pawns(game: Any) -> set[str]:
    """easyAI lets a pawn step straight onto a square its own side holds (it checks only for an enemy
    pawn there); no rules of hexapawn allow that, so such moves are set aside and counted."""
    own = set(game.player.pawns)
    blocked = set()
    for move in game.possible_moves():
        source, target = move.split(" ")
        to = ("ABC".index(target[0]), int(target[1:]) - 1)
        if to in own:
            blocked.add(move)
    return blocked


def test_hexapawn_agrees_with_easyai_over_random_games() -> None:
    rng = random.Random(2024)
    onto_own_pawn = 0
    results = {0: 0, 1: 0}
    for _ in range(400):
        theirs = EasyHexapawn([Human_Player(), Human_Player()], size=(3, 3))
        ours = HEXAPAWN.initial()
        while True:
            assert theirs.current_player - 1 == HEXAPAWN.to_move(ours)
            bad = easyai_moves_on_own_pawns(theirs)
            if HEXAPAWN.is_over(ours):
                # easyAI: the side to move has lost when the enemy reached its goal or it has no move.
                # (Its own-pawn bug can give a blocked side a "move", so its verdict is checked only
                # where no such move hides a loss.)
                if not bad:
                    assert theirs.is_over()
                assert HEXAPAWN.winner(ours) == 1 - HEXAPAWN.to_move(ours)
                results[HEXAPAWN.winner(ours)] += 1
                break
            # Only while the game goes on: easyAI lists moves even after the enemy has reached its goal.
            assert not theirs.is_over()
            onto_own_pawn += len(bad)
            assert set(theirs.possible_moves()) - bad == {easyai_move(m) for m in HEXAPAWN.legal_moves(ours)}
            move = rng.choice(HEXAPAWN.legal_moves(ours))
            theirs.make_move(easyai_move(move))
            theirs.switch_player()
            ours = HEXAPAWN.play(ours, move)
    assert results[0] > 50 and results[1] > 50  # both sides win some random games
    assert onto_own_pawn > 0  # the set-aside easyAI moves do occur: the filter is not idle


# Random play and TD learning against the game tree ------------------------------------------------


def exact_outcome_probabilities() -> dict[int | None, float]:
    memo: dict[Any, dict[int | None, float]] = {}

    def walk(state: Any) -> dict[int | None, float]:
        if state in memo:
            return memo[state]
        if TICTACTOE.is_over(state):
            return {TICTACTOE.winner(state): 1.0}
        moves = TICTACTOE.legal_moves(state)
        total: dict[int | None, float] = {}
        for move in moves:
            for outcome, p in walk(TICTACTOE.play(state, move)).items():
                total[outcome] = total.get(outcome, 0.0) + p / len(moves)
        memo[state] = total
        return total

    return walk(TICTACTOE.initial())


def test_the_quoted_probabilities_are_the_game_trees() -> None:
    exact = exact_outcome_probabilities()
    assert exact[0] == pytest.approx(737 / 1260) and exact[1] == pytest.approx(121 / 420)
    assert exact[None] == pytest.approx(8 / 63)


def test_random_play_through_play_game_matches_the_exact_outcome_probabilities() -> None:
    # Uniformly random play: X wins 737/1260, O wins 121/420, draw 8/63 (summing over the game tree
    # with each move's probability); 4,000 seeded games land within four standard errors.
    players = [gamelearn.make_player(TICTACTOE, "random", seed=1), gamelearn.make_player(TICTACTOE, "random", seed=2)]
    games = 4000
    winners = [gamelearn.play_game(TICTACTOE, players, learn=False).winner for _ in range(games)]
    for outcome, probability in ((0, 737 / 1260), (1, 121 / 420), (None, 8 / 63)):
        share = winners.count(outcome) / games
        assert abs(share - probability) < 4 * (probability * (1 - probability) / games) ** 0.5


def test_td_self_play_through_play_game_learns_each_side_once() -> None:
    # play_game tells a player seated on both sides to learn once, with side=None: the same table as
    # a player that is told so by hand after each game.
    through_play_game = TDPlayer(TICTACTOE, seed=13)
    by_hand = TDPlayer(TICTACTOE, seed=13)
    for _ in range(300):
        gamelearn.play_game(TICTACTOE, [through_play_game, through_play_game])
    for _ in range(300):
        record = gamelearn.play_game(TICTACTOE, [by_hand, by_hand], learn=False)
        by_hand.learn(record, None)
    assert through_play_game.games_learnt == by_hand.games_learnt == 300
    assert through_play_game.values == by_hand.values and len(by_hand.values) > 200
