"""The environments' planes and masks, kept per position, against the board text and the legal
moves they are made from, and never shared between callers."""

from __future__ import annotations

from extras import need

need("envs", "gymnasium")
need("envs", "pettingzoo")

import gamelearn
from gamelearn.envs.actions import codec_for
from gamelearn.envs.aec import legal_mask, planes


def reachable_states(game: gamelearn.Game) -> list[object]:
    found = [game.initial()]
    seen = set(found)
    for state in found:
        for move in game.legal_moves(state):
            after = game.play(state, move)
            if after not in seen:
                seen.add(after)
                found.append(after)
    return found


def test_planes_and_masks_are_those_of_the_board_and_the_moves_for_every_hexapawn_position() -> None:
    game = gamelearn.get_game("hexapawn")
    numbering = codec_for(game)
    for state in reachable_states(game):
        board = game.board(state)
        for side in (0, 1):
            for _ in range(2):  # worked out, then from the cache
                observation = planes(game, state, side)
                own = [int(cell == game.symbols[side]) for cell in board]
                other = [int(cell == game.symbols[1 - side]) for cell in board]
                assert observation[:, :, 0].ravel().tolist() == own
                assert observation[:, :, 1].ravel().tolist() == other
        mask = legal_mask(game, state)
        assert sorted(mask.nonzero()[0].tolist()) == sorted(numbering.to_action(m) for m in game.legal_moves(state))


def test_a_caller_writing_into_an_observation_changes_no_other() -> None:
    game = gamelearn.get_game("tictactoe")
    state = game.play(game.initial(), "4")
    first, mask = planes(game, state, 0), legal_mask(game, state)
    first[:] = 7
    mask[:] = 0
    assert planes(game, state, 0)[1, 1, 0] == 1 and planes(game, state, 0).sum() == 1
    assert legal_mask(game, state).sum() == 8
