"""The forms of Teeko at the edges: every command's GAME argument, `solve` of a form (on
the small board's scale: the real builds are in test_solve_forms_real and the benchmark), the web
API (specs accepted, options listed) and the PettingZoo and Gymnasium environments."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from extras import need
from gamelearn import get_game
from gamelearn.cli.main import app
from gamelearn.solver.table import open_table
from gamelearn.solver.teeko import build_table, default_path, shared_moving_phase
from gamelearn.solver.variant import small_variant

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_every_command_takes_a_form_and_refuses_a_bad_one_in_one_line() -> None:
    code, out, _ = run("rules", "teeko:goals=advanced,drops=saaa")
    text = " ".join(out.split())  # the terminal wraps the lines
    assert code == 0 and "larger square" in text and "OPPONENT chooses" in text
    for command in (["rules"], ["players"], ["solve"], ["analyze"], ["play"], ["tournament"]):
        extra = ["random", "random"] if command == ["tournament"] else []
        code, _, err = run(*command, "teeko:goals=huge", *extra)
        assert code == 2, command
        assert err.strip().count("\n") == 0 and "'huge' is not one of standard, advanced" in err
    code, _, err = run("solve", "tictactoe", "--variants")
    assert code == 2 and "--variants is for Teeko's forms" in err
    code, _, err = run("solve", "teeko:goals=advanced", "--variants")
    assert code == 2 and "name only steps=" in err
    code, _, err = run("solve", "teeko", "--doc", "x.md")
    assert code == 2 and "go with --variants" in err


def test_a_forms_missing_table_names_the_command_that_builds_it() -> None:
    code, _, err = run("analyze", "teeko:goals=advanced,centre=off", "00")
    assert code == 2 and 'gamelearn solve "teeko:goals=advanced,centre=off"' in err
    assert default_path(get_game("teeko:goals=advanced,centre=off")).name == "teeko_goals=advanced_centre=off.table"
    assert default_path(get_game("teeko")).name == "teeko.table"


def test_play_a_form_between_two_computers() -> None:
    code, out, _ = run(
        "play", "teeko:drops=aaaa,steps=knight", "--first", "random", "--second", "random", "--seed", "3"
    )
    assert code == 0 and "teeko:drops=aaaa,steps=knight" in out


@pytest.mark.slow  # real solves of two forms
def test_a_forms_build_takes_the_moving_phase_of_a_table_with_the_same_goals_and_steps(tmp_path: Path) -> None:
    first = small_variant(4, 4, 3)
    build_table(first, tmp_path / "teeko-small.table")
    other = small_variant(4, 4, 3, "asa", False)
    assert shared_moving_phase(other, tmp_path) is not None
    facts = build_table(other, tmp_path / "teeko-small-asa.table")
    assert facts["moving_phase"] == "reused" and facts["moving_from"] == "teeko-small.table"
    mine, _ = open_table(other, tmp_path / "teeko-small-asa.table")
    theirs, _ = open_table(first, tmp_path / "teeko-small.table")
    assert np.array_equal(mine[(3, 3)], theirs[(3, 3)])
    assert not np.array_equal(mine[(0, 1)], theirs[(0, 1)])  # the drops differ: so do the placing layers
    # a different goal set or way to step shares nothing
    assert shared_moving_phase(small_variant(4, 4, 4), tmp_path) is None


def test_the_web_api_lists_the_options_and_plays_a_form(isolated_home: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from gamelearn.web import create_app

    with TestClient(create_app()) as client:
        games = {game["name"]: game for game in client.get("/api/games").json()}
        options = {option["name"]: option for option in games["teeko"]["options"]}
        assert list(options) == ["goals", "drops", "centre", "steps"]
        assert options["goals"]["values"] == ["standard", "advanced"] and options["goals"]["default"] == "standard"
        assert options["drops"]["pattern"] == "[sa]{4}" and options["drops"]["labels"]["saaa"] == "one-move standard"
        assert options["centre"]["values"] == ["on", "off"] and options["steps"]["default"] == "king"
        assert games["tictactoe"]["options"] == []
        spec = "teeko:drops=aaaa,centre=off"
        answer = client.post("/api/games", json={"game": spec, "players": ["human", "random"], "seed": 1})
        assert answer.status_code == 200, answer.text
        view = answer.json()
        assert view["spec"] == spec and view["game"] == "teeko"
        # in an alternate round O chooses X's first square: O (the computer) has moved already,
        # not on the centre; now the person (X) chooses where O's first pawn goes
        assert view["board"].count("X") == 1 and view["board"][12] != "X" and view["human_to_move"]
        assert len(view["legal_moves"]) == 24
        bad = client.post("/api/games", json={"game": "teeko:goals=huge", "players": ["human", "random"]})
        assert bad.status_code == 400 and "'huge' is not one of standard, advanced" in bad.json()["detail"]


def test_the_environments_play_every_kind_of_form() -> None:
    need("envs", "gymnasium")
    need("envs", "pettingzoo")
    from pettingzoo.test import api_test

    from gamelearn.envs import SingleAgentEnv, codec_for, env

    for spec in ("teeko:drops=aaaa", "teeko:goals=advanced,steps=knight"):
        api_test(env(spec), num_cycles=200)
    aec = env("teeko:drops=asss")
    aec.reset()
    assert aec.agent_selection == "player_1"  # O chooses where X's first pawn goes
    knight = codec_for(get_game("teeko:steps=knight"))
    assert knight.size == 225 and knight.to_action("0012") >= 25 and "0011" not in knight.numbers
    single = SingleAgentEnv("teeko:steps=knight,goals=advanced", opponent="random")
    observation, _ = single.reset(seed=1)
    legal = np.flatnonzero(observation["action_mask"])
    assert len(legal) == 25
