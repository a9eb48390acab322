"""The game record as a leaf value: ``to_dict``/``from_dict`` give back the record Match made, on
every game, and a Match keeps nothing unless it is given a keeper."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gamelearn
from gamelearn.games import GAME_NAMES, IllegalMove, get_game
from gamelearn.games.record import End, GameRecord
from gamelearn.match import Match, play_game
from gamelearn.store.store import Store


def records_of(name: str) -> list[GameRecord]:
    """Finished games of every kind of end the players can reach: random games (wins, draws,
    repetitions, the ply cap), a resignation, an abandoned game and one from an opening."""
    game = get_game(name)
    players = [gamelearn.make_player(game, "random", seed=s) for s in (1, 2)]
    found = [play_game(game, players, seed=seed, max_plies=40) for seed in range(6)]
    resigned = Match(game, players, seed=9)
    resigned.advance()
    found.append(resigned.resign(1))
    abandoned = Match(game, players, seed=10)
    abandoned.advance()
    found.append(abandoned.abandon())
    opening = [game.legal_moves(game.initial())[-1]]
    found.append(play_game(game, players, seed=11, max_plies=40, opening=opening))
    return found


@pytest.mark.parametrize("name", [*GAME_NAMES, "teeko:steps=knight"])
def test_a_record_comes_back_whole_from_its_dict_and_from_json(name: str) -> None:
    game = get_game(name)
    records = records_of(name)
    assert {End.RESIGN, End.ABANDONED} <= {record.end for record in records}
    assert any(record.opening for record in records)
    for record in records:
        assert GameRecord.from_dict(game, record.to_dict()) == record
        assert GameRecord.from_dict(game, json.loads(json.dumps(record.to_dict()))) == record


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_stored_record_replays_as_the_game_it_was(name: str, tmp_path: Path) -> None:
    game = get_game(name)
    store = Store(tmp_path / "store.sqlite3")
    played = [record for record in records_of(name) if not record.opening]  # the store keeps no opening
    for record in played:
        store.add_record(record, context="test")
    assert [GameRecord.from_dict(game, row) for row in store.records(name, context="test")] == played


def test_a_record_from_a_given_start_replays_from_it() -> None:
    game = get_game("tictactoe")
    start = game.play(game.initial(), "4")
    record = play_game(game, [gamelearn.make_player(game, "random", seed=s) for s in (1, 2)], seed=3, start=start)
    assert GameRecord.from_dict(game, record.to_dict(), start=start) == record
    assert GameRecord.from_dict(game, record.to_dict()).states[0] == game.initial()


def test_a_row_the_rules_refuse_is_refused() -> None:
    game = get_game("tictactoe")
    row = {"players": ["random", "random"], "moves": ["4", "4"], "winner": None, "end": "abandoned"}
    with pytest.raises(IllegalMove):
        GameRecord.from_dict(game, row)
    with pytest.raises(ValueError, match="not-an-end"):
        GameRecord.from_dict(game, {**row, "moves": ["4"], "end": "not-an-end"})
    with pytest.raises(ValueError, match="two players"):
        GameRecord.from_dict(game, {**row, "moves": [], "players": ["random"]})


def test_a_match_without_a_keeper_writes_nothing_for_a_named_learner(isolated_home: Path) -> None:
    from gamelearn.players.registry import make_player  # the players layer's: no store opened

    game = get_game("tictactoe")
    menace = make_player(game, "menace:name=unkept", seed=1)
    opponent = gamelearn.make_player(game, "random", seed=2)
    before = menace.knowledge()
    for seed in range(4):
        play_game(game, [menace, opponent], seed=seed)
        match = Match(game, [opponent, menace], seed=seed)
        while not match.is_finished:
            match.advance()
    assert menace.knowledge() != before  # it learned, in memory only
    assert list(isolated_home.rglob("*")) == []


def test_the_public_play_game_keeps_a_named_learner_in_the_default_store(isolated_home: Path) -> None:
    game = get_game("tictactoe")
    menace = gamelearn.make_player(game, "menace:name=kept", seed=1)
    gamelearn.play_game(game, [menace, gamelearn.make_player(game, "random", seed=2)], seed=3)
    assert gamelearn.make_player(game, "menace:name=kept").knowledge() == menace.knowledge()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_play_layers_record_is_the_dataclass_its_fields_make(name: str) -> None:
    """Match builds its records with GameRecord.of (no dataclass __init__ a game): each is the
    record GameRecord(...) makes of the same fields, equal, hashed, shown, copied, replaced and
    pickled alike, and frozen."""
    import dataclasses
    import pickle

    for record in records_of(name):
        fields = {field.name: getattr(record, field.name) for field in dataclasses.fields(GameRecord)}
        made = GameRecord(**fields)
        assert record == made and hash(record) == hash(made) and repr(record) == repr(made)
        assert vars(record) == vars(made)
        assert pickle.loads(pickle.dumps(record)) == made
        assert dataclasses.replace(record, seed=99) == dataclasses.replace(made, seed=99)
        with pytest.raises(dataclasses.FrozenInstanceError):
            record.winner = 1  # type: ignore[misc]
