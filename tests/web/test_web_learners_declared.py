"""The learners the web offers are those whose kinds declare they learn, and a chart's reset is
kept as where the chart starts, not as a learner (a store an older gamelearn left keeps its resets)."""

from __future__ import annotations

from web_support import TestClient, move, start

import gamelearn
from gamelearn import get_game, make_player
from gamelearn.players.knowledge import Learner
from gamelearn.players.registry import kinds_for
from gamelearn.store.store import Store
from gamelearn.web.learners import learner_games


def test_a_kind_declares_it_learns_exactly_when_its_players_are_learners() -> None:
    game = get_game("hexapawn")  # every kind but thesis (Teeko's) and menace (tic-tac-toe's) plays it
    # az's players are learners too (tests/players/test_knowledge.py teaches one); making one builds a network.
    for kind in (kind for kind in kinds_for(game) if kind.name != "az"):
        assert kind.learns == isinstance(make_player(game, kind.name), Learner), kind.name


def test_the_learners_and_their_games() -> None:
    games = learner_games()
    # the matchbox learners: their own built-in game, and every installed game that always ends
    plugged = [name for name in gamelearn.game_names() if name not in gamelearn.games.GAME_NAMES]
    finite = [
        name for name in plugged if name not in gamelearn.games.broken_games() and not get_game(name).facts.can_cycle
    ]
    assert games["her"] == games["him"] == ["hexapawn", *finite] and games["menace"] == ["tictactoe", *finite]
    assert games["thesis"] == ["teeko"]
    # td and ntuple learn every game, the installed ones too (docs/own-game.md); so does az: the
    # built-in games by their rules written in JAX, the installed ones tabulated
    found = [name for name in gamelearn.game_names() if name not in gamelearn.games.broken_games()]
    assert games["td"] == games["ntuple"] == games["az"] == found
    assert not {"random", "human", "minimax", "perfect", "mcts"} & set(games)


def test_an_older_stores_chart_resets_move_out_of_its_learners(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "old.sqlite3"
    with Store(path) as store:  # as an older gamelearn kept a reset: a learner of its own kind
        store.save_learner("web-chart-reset", "menace-tictactoe", {"after_record": 7}, owner="browser-1")
        store.save_learner("menace", "web-tictactoe", {"boxes": {}}, owner="browser-1")
    with Store(path) as store:
        assert store.list_learners(owner="browser-1") == [("menace", "web-tictactoe")]
        assert store.chart_start("browser-1", "menace", "tictactoe") == 7
        assert store.chart_start("browser-1", "her", "hexapawn") == 0
        assert store.chart_start("browser-2", "menace", "tictactoe") == 0


def test_a_reset_starts_the_chart_again_and_lists_no_learner(client: TestClient) -> None:
    view = start(client, "hexapawn", ["her", "random"], seed=3)
    while not view["over"]:
        view = client.post(f"/api/games/{view['id']}/advance").json()
    assert client.get("/api/chart", params={"game": "hexapawn", "learner": "her"}).json()["games"] == 1
    assert client.post("/api/learners/her/reset", params={"game": "hexapawn"}).json()["deleted"] is True
    assert client.get("/api/learners").json() == []
    assert client.get("/api/chart", params={"game": "hexapawn", "learner": "her"}).json()["games"] == 0
    view = start(client, "hexapawn", ["human", "her"], seed=5)
    move(client, view["id"], "63")
    client.post(f"/api/games/{view['id']}/resign")
    assert client.get("/api/chart", params={"game": "hexapawn", "learner": "her"}).json()["letters"] == "W"


def test_the_server_says_how_each_learner_is_spoken_of(client: TestClient) -> None:
    her = start(client, "hexapawn", ["human", "her"], seed=1)["learners"][0]
    assert her["name"] == "HER" and her["export_label"] == "Export JSON" and "loss" in her["learns_when"]
    thesis = start(client, "teeko", ["human", "thesis"], seed=1)
    assert thesis["learners"][0]["export_label"] == "Export memory.m" and thesis["no_learner"] == ""
    assert start(client, "tictactoe", ["human", "random"], seed=1)["no_learner"]
    titles = {p["name"]: p for info in client.get("/api/games").json() for p in info["players"]}
    assert (
        titles["menace"]["title"] == "MENACE"
        and titles["az"]["first_move_wait"]
        and not titles["td"]["first_move_wait"]
    )
