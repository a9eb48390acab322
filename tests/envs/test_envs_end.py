"""The environments end a game as a Match does (gamelearn.match.end_by_policy): a Teeko game whose
pawns step out and back comes up in the same position a third time, and the PettingZoo and
Gymnasium environments cut it at the very ply where Match records a repetition draw."""

from __future__ import annotations

from collections.abc import Hashable

from extras import need

need("envs", "gymnasium")
need("envs", "pettingzoo")

from gamelearn import get_game
from gamelearn.envs import SingleAgentEnv, codec, raw_env
from gamelearn.match import End, play_game
from gamelearn.players.base import Player


class Scripted(Player):
    """Plays the given moves in turn."""

    def __init__(self, moves: list[str]) -> None:
        super().__init__(get_game("teeko"))
        self.moves = list(moves)

    def choose(self, state: Hashable) -> str | None:
        return self.moves.pop(0)


def shuffling_game() -> tuple[list[str], int]:
    """Eight drops that make no four, then X and O each step a pawn out and back, twice; the moves
    and the ply at which the position after the drops has come up the third time (worked out from
    the rules, not written down)."""
    game = get_game("teeko")
    state, moves = game.initial(), []
    while len(moves) < 8:  # the first drop, in the rules' order, that wins for nobody
        move = next(m for m in game.legal_moves(state) if not game.is_over(game.play(state, m)))
        moves.append(move)
        state = game.play(state, move)
    after_drops, steps = state, []
    for _ in range(2):  # one step of X, then of O, each one whose way back stays open
        move = next(
            m
            for m in game.legal_moves(state)
            if not game.is_over(game.play(state, m)) and m[2:] not in {s[:2] for s in steps}
        )
        steps.append(move)
        state = game.play(state, move)
    steps += [step[2:] + step[:2] for step in steps]  # and back again
    state = after_drops
    for move in steps * 2:
        state = game.play(state, move)  # raises if a way back were not open
    assert state == after_drops and not game.is_over(state)
    return moves + steps * 2, 8 + 2 * len(steps)


def test_match_and_both_environments_end_a_repeated_teeko_game_at_the_same_ply() -> None:
    moves, third_time = shuffling_game()
    record = play_game(get_game("teeko"), [Scripted(moves[0::2]), Scripted(moves[1::2])])
    assert (record.end, record.winner, record.plies) == (End.REPETITION, None, third_time)

    numbering = codec("teeko")
    aec = raw_env("teeko")
    for ply, move in enumerate(moves, start=1):
        aec.step(numbering.to_action(move))
        assert any(aec.truncations.values()) == (ply == third_time)
        assert not any(aec.terminations.values())
    assert aec.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert {info["end"] for info in aec.infos.values()} == {"repetition"}

    single = SingleAgentEnv("teeko", opponent="random", agent_side=0)
    single.reset(seed=0)
    single.opponent = Scripted(moves[1::2])
    for ply, move in enumerate(moves[0::2], start=1):
        observation, reward, terminated, truncated, info = single.step(numbering.to_action(move))
        assert truncated == (2 * ply == third_time) and not terminated and reward == 0.0
    assert info["end"] == "repetition" and not single.action_masks().any()
