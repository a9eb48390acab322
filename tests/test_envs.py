"""The environments: PettingZoo's own API test, Gymnasium's own checker, and the behaviour their
docstrings promise (observations from the observer's side, masks, rewards, numbering, seeding)."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import gamelearn
from gamelearn.envs import SingleAgentEnv, codec, env, raw_env

GAMES = ("tictactoe", "hexapawn", "teeko")


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test_passes(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about Dict observations, as for its own classic games
        api_test(env(game), num_cycles=200)
        api_test(raw_env(game), num_cycles=200)


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_env_checker_passes(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(SingleAgentEnv(game, "random", agent_side=0))
        check_env(SingleAgentEnv(game, "random", agent_side=1))
        check_env(gymnasium.make(f"gamelearn/{game}-v0", opponent="random", render_mode="ansi").unwrapped)


@pytest.mark.parametrize("game", GAMES)
def test_action_numbering_covers_every_legal_move_once(game: str) -> None:
    rules = gamelearn.get_game(game)
    numbering = codec(game)
    assert numbering.size == {"tictactoe": 9, "hexapawn": 81, "teeko": 225}[game]
    rng = random.Random(3)
    state = rules.initial()
    for _ in range(300):
        if rules.is_over(state):
            state = rules.initial()
        actions = [numbering.to_action(move) for move in rules.legal_moves(state)]
        assert len(set(actions)) == len(actions)
        assert [numbering.to_move(a) for a in actions] == rules.legal_moves(state)
        state = rules.play(state, rng.choice(rules.legal_moves(state)))


def test_documented_numbers() -> None:
    assert codec("tictactoe").to_move(4) == "4"
    assert codec("hexapawn").to_move(9 * 6 + 3) == "63"
    assert codec("teeko").to_move(12) == "22"
    assert codec("teeko").to_move(25 + 8 * 12 + 4) == "2223"  # square 22, direction 4 = right
    assert codec("teeko").moves[25 + 0] is None  # up-left from the corner is off the board
    with pytest.raises(ValueError, match="names no teeko move"):
        codec("teeko").to_move(25)


def play_out(environment: object, rules: object, moves: list[str]) -> None:
    numbering = codec(rules.name)  # type: ignore[attr-defined]
    for move in moves:
        environment.step(numbering.to_action(move))  # type: ignore[attr-defined]


def test_observation_is_relative_to_the_observer_and_mask_only_for_the_mover() -> None:
    e = raw_env("tictactoe")
    e.reset()
    e.step(4)  # X in the middle
    x_view = e.observe("player_0")
    o_view = e.observe("player_1")
    assert x_view["observation"][1, 1, 0] == 1 and x_view["observation"][1, 1, 1] == 0
    assert o_view["observation"][1, 1, 0] == 0 and o_view["observation"][1, 1, 1] == 1
    assert e.agent_selection == "player_1"
    assert x_view["action_mask"].sum() == 0
    assert o_view["action_mask"].tolist() == [1, 1, 1, 1, 0, 1, 1, 1, 1]


def test_win_rewards_and_termination() -> None:
    e = raw_env("tictactoe")
    e.reset()
    play_out(e, gamelearn.get_game("tictactoe"), ["0", "3", "1", "4", "2"])  # X takes the top row
    assert all(e.terminations.values())
    assert e._cumulative_rewards == {"player_0": 1.0, "player_1": -1.0}
    for seed in range(20):  # random hexapawn games: rewards follow the rules' winner
        rules = gamelearn.get_game("hexapawn")
        e = raw_env("hexapawn")
        e.reset()
        picker = random.Random(seed)
        state = rules.initial()
        while not rules.is_over(state):
            move = picker.choice(rules.legal_moves(state))
            state = rules.play(state, move)
            e.step(codec("hexapawn").to_action(move))
        winner = rules.winner(state)
        assert e.state == state and all(e.terminations.values())
        assert e._cumulative_rewards == {e.possible_agents[winner]: 1.0, e.possible_agents[1 - winner]: -1.0}


def test_illegal_action_raises_in_raw_env_and_ends_the_game_in_the_wrapped_one() -> None:
    e = raw_env("tictactoe")
    e.reset()
    e.step(4)
    with pytest.raises(ValueError, match="occupied"):
        e.step(4)
    wrapped = env("tictactoe")
    wrapped.reset()
    wrapped.step(4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(4)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards["player_1"] == -1


def test_teeko_is_truncated_at_the_ply_cap() -> None:
    e = raw_env("teeko", max_plies=12)
    e.reset(seed=1)
    rng = np.random.default_rng(1)
    while not (any(e.terminations.values()) or any(e.truncations.values())):
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert e.plies <= 12
    if not any(e.terminations.values()):
        assert e.plies == 12 and all(e.truncations.values())


def test_render_modes() -> None:
    e = raw_env("hexapawn", render_mode="ansi")
    e.reset()
    # the board beside the numbers of its squares, as `gamelearn play` draws it
    assert e.render() == "B B B    0 1 2\n. . .    3 4 5\nW W W    6 7 8\nply 0: W (player_0) to move\n"
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("hexapawn", render_mode="rgb_array")


def test_human_render_prints(capsys: pytest.CaptureFixture[str]) -> None:
    e = SingleAgentEnv("tictactoe", "random", render_mode="human")
    e.reset(seed=0)
    e.step(4)
    assert "X" in capsys.readouterr().out


def test_single_agent_episode_is_seeded_and_rewards_the_agent() -> None:
    def episode(seed: int) -> tuple[list[str], float]:
        e = SingleAgentEnv("tictactoe", "random", agent_side=0)
        observation, _ = e.reset(seed=seed)
        picker = random.Random(99)
        reward, done, info = 0.0, False, {}
        while not done:
            legal = np.flatnonzero(observation["action_mask"])
            observation, reward, terminated, truncated, info = e.step(int(picker.choice(legal)))
            done = terminated or truncated
        rules = gamelearn.get_game("tictactoe")
        state = rules.initial()
        for move in info["moves"]:
            state = rules.play(state, move)
        expected = {None: 0.0, 0: 1.0, 1: -1.0}[rules.winner(state)]
        assert reward == expected
        return info["moves"], reward

    assert episode(5) == episode(5)
    assert len({tuple(episode(seed)[0]) for seed in range(6)}) > 1


def test_agent_second_sees_the_opponents_first_move_and_perfect_play_never_loses() -> None:
    e = SingleAgentEnv("tictactoe", "alphabeta:depth=9", agent_side=1)
    observation, _ = e.reset(seed=2)
    assert observation["observation"][:, :, 1].sum() == 1  # the opponent (X) has moved
    assert observation["observation"][:, :, 0].sum() == 0
    picker = random.Random(7)
    for _ in range(5):
        observation, _ = e.reset(seed=picker.randrange(100))
        done, reward = False, 0.0
        while not done:
            legal = np.flatnonzero(observation["action_mask"])
            observation, reward, terminated, truncated, _ = e.step(int(picker.choice(legal)))
            done = terminated or truncated
        assert reward <= 0.0  # a full-depth alpha-beta opponent is never beaten


def test_single_agent_illegal_action_ends_the_episode() -> None:
    e = SingleAgentEnv("hexapawn", "random", agent_side=0)
    e.reset(seed=0)
    _, reward, terminated, _, info = e.step(0)  # "00" is no move
    assert (reward, terminated, info["illegal_move"]) == (-1.0, True, 0)
    with pytest.raises(RuntimeError, match="reset"):
        e.step(9 * 6 + 3)


def test_unknown_opponent_is_a_value_error_listing_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="valid players"):
        SingleAgentEnv("tictactoe", "nobody")


def test_learning_opponent_learns_from_the_episode() -> None:
    e = SingleAgentEnv("tictactoe", "td", agent_side=0, opponent_learns=True)
    observation, _ = e.reset(seed=1)
    done = False
    while not done:
        observation, _, terminated, truncated, _ = e.step(int(np.flatnonzero(observation["action_mask"])[0]))
        done = terminated or truncated
    assert e.opponent.values  # type: ignore[attr-defined]


def test_aec_human_render_prints_and_teeko_steps_are_numbered(capsys: pytest.CaptureFixture[str]) -> None:
    e = raw_env("teeko", render_mode="human")
    e.reset()
    rules = gamelearn.get_game("teeko")
    placements = ["00", "44", "01", "43", "02", "42", "20", "30"]  # 8 placements: no four, stepping next
    play_out(e, rules, placements)
    assert "X (player_0) to move" in capsys.readouterr().out
    mask = e.observe("player_0")["action_mask"]
    legal = [codec("teeko").to_move(int(a)) for a in np.flatnonzero(mask)]
    assert legal == rules.legal_moves(e.state) and all(len(move) == 4 for move in legal)
    e.step(codec("teeko").to_action("0203"))
    assert e.observe("player_1")["observation"][0, 3, 1] == 1  # X's pawn, seen by O as the enemy's
