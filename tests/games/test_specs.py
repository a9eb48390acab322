"""The one spec grammar (gamelearn.games.specs) against its table of cases, which the page's
reader (web/static/js/spec.js, tests/js/spec.test.js) is checked against too; and the two readers
of meaning built on it, games and players, refusing what the grammar leaves to them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gamelearn
from gamelearn.games.specs import Spec, SpecOption, split_spec

CASES = json.loads((Path(__file__).resolve().parents[1] / "data" / "spec_grammar.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[case["spec"] or "<empty>" for case in CASES])
def test_every_case_of_the_table(case: dict[str, object]) -> None:
    spec = split_spec(str(case["spec"]))
    assert spec.name == case["name"]
    assert [list(option) for option in spec.options] == case["options"]


@pytest.mark.parametrize("case", CASES, ids=[case["spec"] or "<empty>" for case in CASES])
def test_a_spec_written_back_reads_the_same(case: dict[str, object]) -> None:
    spec = split_spec(str(case["spec"]))
    assert split_spec(spec.text()) == spec


def test_written_back_in_order() -> None:
    spec = Spec("minimax", (SpecOption("depth", "2"), SpecOption("eval", "better")))
    assert spec.text() == "minimax:depth=2,eval=better"
    assert Spec("random", ()).text() == "random"


def test_games_and_players_read_a_value_with_a_comma_alike() -> None:
    """The grammar is the same for a game and a player: a piece without '=' continues the value
    before it, so each reader refuses the whole value in its own words, not a phantom option."""
    game = gamelearn.get_game("teeko")
    with pytest.raises(ValueError, match="advanced,centre"):
        gamelearn.get_game("teeko:goals=advanced,centre")
    with pytest.raises(ValueError, match="option 'depth' of player 'minimax'"):
        gamelearn.make_player(game, "minimax:depth=2,3")


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("teeko:goals", "option 'goals' of game 'teeko' needs a value"),
        ("teeko:goals=", "option 'goals' of game 'teeko' needs a value"),
        ("teeko:goals=advanced,goals=advanced", "option 'goals' of game 'teeko' is given twice"),
    ],
)
def test_a_game_refuses_what_the_grammar_leaves_to_it(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        gamelearn.get_game(spec)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("minimax:depth", "option 'depth' of player 'minimax' needs a value"),
        ("minimax:depth=", "option 'depth' of player 'minimax' needs a value"),
        ("minimax:depth=2,depth=3", "option 'depth' of player 'minimax' is given twice"),
    ],
)
def test_a_player_refuses_what_the_grammar_leaves_to_it(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        gamelearn.make_player(gamelearn.get_game("tictactoe"), spec)
