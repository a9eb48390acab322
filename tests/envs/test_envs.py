"""The environments: PettingZoo's own API test, Gymnasium's own checker, and the behaviour their
docstrings promise (observations from the observer's side, masks, rewards, numbering, seeding)."""

from __future__ import annotations

import pickle
import random
import warnings

import numpy as np
import pytest

from extras import need

gymnasium = need("envs", "gymnasium")
need("envs", "pettingzoo")
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test

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
    with pytest.raises(ValueError, match="render_mode 'rgb' is not one of human, ansi, rgb_array"):
        raw_env("hexapawn", render_mode="rgb")


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


def square_centres(image: np.ndarray, rows: int, columns: int) -> list[tuple[int, ...]]:
    """The colour at the middle of each square, row by row (the oracle reads the board's text)."""
    cell_y, cell_x = image.shape[0] // rows, image.shape[1] // columns
    return [
        tuple(image[r * cell_y + cell_y // 2, c * cell_x + cell_x // 2]) for r in range(rows) for c in range(columns)
    ]


@pytest.mark.parametrize("game", GAMES)
def test_rgb_array_is_a_uint8_image_with_a_disc_on_each_pawn(game: str) -> None:
    rules = gamelearn.get_game(game)
    rows, columns = rules.facts.rows, rules.facts.columns
    e = raw_env(game, render_mode="rgb_array")
    e.reset()
    rng = random.Random(4)
    for _ in range(12):
        if rules.is_over(e.state):
            break
        image = e.render()
        assert isinstance(image, np.ndarray) and image.dtype == np.uint8
        assert image.shape[2] == 3 and image.shape[0] // rows == image.shape[1] // columns >= 16
        board = rules.board(e.state)
        centres = square_centres(image, rows, columns)
        first = second = None  # each side's discs are all one colour
        for symbol, colour in zip(board, centres, strict=True):
            if symbol == rules.symbols[0]:
                first = first or colour
                assert colour == first and min(colour) > 200  # the side that moves first: white discs
            elif symbol == rules.symbols[1]:
                second = second or colour
                assert colour == second and max(colour) < 60  # the other side: black discs
            else:
                assert 100 < min(colour) and max(colour) <= 230  # an empty square
        e.step(codec(game).to_action(rng.choice(rules.legal_moves(e.state))))


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_render_test_and_gymnasium_checker_pass_in_every_render_mode(game: str) -> None:
    render_test(lambda render_mode: env(game, render_mode=render_mode))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the render check: an image where one is asked for, no warning
        check_env(gymnasium.make(f"gamelearn/{game}-v0", render_mode="rgb_array").unwrapped)
    made = gymnasium.make(f"gamelearn/{game}-v0", render_mode="rgb_array")  # what SB3's make_vec_env asks
    made.reset(seed=0)
    assert made.render().shape[2] == 3


def test_action_masks_is_the_observations_mask_through_gymnasium_wrappers() -> None:
    made = gymnasium.make("gamelearn/hexapawn-v0", opponent="random", agent_side=1)
    masks = made.get_wrapper_attr("action_masks")  # as sb3-contrib's get_action_masks reaches it
    assert not masks().any()  # before reset: no episode, no legal action
    observation, _ = made.reset(seed=5)
    picker = random.Random(5)
    done = False
    while not done:
        assert masks().dtype == bool and (masks() == observation["action_mask"].astype(bool)).all()
        legal = gamelearn.get_game("hexapawn").legal_moves(made.unwrapped.state)  # type: ignore[attr-defined]
        assert sorted(codec("hexapawn").to_move(int(a)) for a in np.flatnonzero(masks())) == sorted(legal)
        observation, _, terminated, truncated, _ = made.step(int(picker.choice(np.flatnonzero(masks()))))
        done = terminated or truncated
    assert not masks().any()


def test_max_cycles_is_pettingzoos_name_for_two_plies_a_cycle() -> None:
    assert raw_env("teeko", max_cycles=6).max_plies == 12
    assert raw_env("teeko").max_plies == 200 and raw_env("teeko", max_plies=7).max_plies == 7
    with pytest.raises(ValueError, match="not both"):
        raw_env("teeko", max_plies=10, max_cycles=5)
    with pytest.raises(ValueError, match="max_cycles must be at least 1"):
        env("teeko", max_cycles=0)
    wrapped = env("teeko", max_cycles=3)
    wrapped.reset()
    rng = np.random.default_rng(2)
    steps = 0
    for _agent in wrapped.agent_iter():
        observation, _, termination, truncation, _ = wrapped.last()
        if termination or truncation:
            assert truncation and steps == 6  # no four in a row can be made in 6 placements
            wrapped.step(None)
        else:
            wrapped.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    assert pickle.loads(pickle.dumps(raw_env("teeko", max_cycles=4))).max_plies == 8
