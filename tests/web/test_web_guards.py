"""The web app's guards: whatever a browser sends is never a 5xx (hypothesis), no spelling of a
number escapes the work limits, no server path reaches a browser, the chart checks its game."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_support import TestClient, move, refused, start

from gamelearn.web.server import client_group

# Fuzzing: whatever a browser sends, the answer is never a 5xx ------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
specs = st.sampled_from(
    ["human", "random", "her", "menace", "thesis", "perfect", "minimax:depth=2", "sharp"]
) | st.text(max_size=20)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.fixed_dictionaries(
        {
            "game": st.sampled_from(["tictactoe", "hexapawn"]) | st.text(max_size=10),
            "players": st.lists(specs, max_size=3),
        },
        optional={"seed": st.integers(-5, 2**33), "max_plies": st.integers(-5, 2000), "extra": json_values},
    )
    | json_values,
    moves=st.lists(st.text(max_size=6) | st.sampled_from(["4", "63", "22", "2223", "0011"]), max_size=4),
)
def test_nothing_a_browser_sends_gets_a_5xx(client: TestClient, body: object, moves: list[str]) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code < 500, response.text
    if response.status_code != 200:
        return
    game_id = response.json()["id"]
    for text in moves:
        answer = client.post(f"/api/games/{game_id}/move", json={"move": text})
        assert answer.status_code < 500, answer.text
        assert client.post(f"/api/games/{game_id}/advance").status_code < 500
    assert client.get(f"/api/games/{game_id}/analysis").status_code < 500


# Audit fixes: work limits on the parsed player, no server path in an answer, the chart's game check ------


@pytest.mark.timeout(60)  # a bypassed limit would make the server search for minutes
@pytest.mark.parametrize(
    "spec", ["alphabeta:depth=+9", "minimax:depth=1_000_000", "mcts:playouts=+99999999", "mcts:playouts=1_000_000"]
)
def test_no_spelling_of_a_number_escapes_the_work_limits(client: TestClient, spec: str) -> None:
    response = client.post("/api/games", json={"game": "teeko", "players": [spec, "human"]})
    assert response.status_code in (400, 422)
    refused(response, response.status_code)


def lenient(kind_name: str, option: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Give a registered player kind an int() parser for ``option``, so
    the web app's limits are tested whatever spellings the registry itself accepts."""
    from gamelearn.players import registry

    registry._load_all()
    kind = registry._KINDS[kind_name]
    options = tuple(dataclasses.replace(o, parse=int) if o.name == option else o for o in kind.options)
    monkeypatch.setitem(registry._KINDS, kind_name, dataclasses.replace(kind, options=options))


@pytest.mark.timeout(60)
def test_the_limits_are_checked_on_the_player_made_not_on_the_spec_text(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    lenient("alphabeta", "depth", monkeypatch)
    lenient("mcts", "playouts", monkeypatch)
    lenient("sharp", "depth", monkeypatch)
    for spec, words in [
        ("alphabeta:depth=+9", "depth=9 is too large (at most 4 for teeko on this server)"),
        ("alphabeta:depth= 0_9", "depth=9 is too large"),
        ("mcts:playouts=1_000_000", "playouts=1000000 is too large (at most 10000 for teeko on this server)"),
        ("mcts:playouts=+99999999", "playouts=99999999 is too large"),
        ("sharp:depth=+5", "depth=5 is too large"),
    ]:
        assert words in refused(client.post("/api/games", json={"game": "teeko", "players": ["human", spec]}), 400)
    view = start(client, "teeko", ["alphabeta:depth=+2", "human"], seed=3)  # within the limits: plays
    assert len(view["moves"]) == 1 and view["players"][0] == "alphabeta:depth=+2"
    start(client, "tictactoe", ["human", "sharp"])  # sharp to the end of a short game stays allowed


def test_a_missing_teeko_table_is_reported_without_the_servers_path(client: TestClient) -> None:
    from gamelearn.cli.common import data_dir

    response = client.post("/api/games", json={"game": "teeko", "players": ["human", "perfect"]})
    # The test's own data directory (tests/conftest.py) never holds a solved table.
    detail = refused(response, 400)
    # The page's words, not a terminal command: which player needs which table, and the table's
    # name for the page to offer its build (POST /api/tables/teeko/build) where the player is chosen.
    assert detail == "player 2 (O), perfect, plays from the solved table of teeko, which this server has not built yet"
    assert response.json()["table"] == "teeko"
    assert str(data_dir()) not in detail and "/tmp" not in detail and "pytest" not in detail
    assert client.get("/api/tables/teeko").json()["buildable"] is True


def test_a_players_failure_never_shows_a_server_path(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from gamelearn.players import registry
    from gamelearn.players.base import Player

    secret = "/srv/gamelearn-data/private/boxes.json"

    class Leaky(Player):
        kind = "leaky"

        def choose(self, state: object) -> str | None:
            raise OSError(f"cannot read {secret}")

    def unmakeable(game: object, seed: int | None = None) -> Player:
        raise ValueError(f"no memory at {secret}: make one")

    def unreadable(game: object, seed: int | None = None) -> Player:
        raise OSError(f"[Errno 13] Permission denied: '{secret}'")

    registry._load_all()
    monkeypatch.setitem(registry._KINDS, "leaky", registry.PlayerKind("leaky", Leaky, "fails"))
    monkeypatch.setitem(registry._KINDS, "unmakeable", registry.PlayerKind("unmakeable", unmakeable, "fails"))
    monkeypatch.setitem(registry._KINDS, "unreadable", registry.PlayerKind("unreadable", unreadable, "fails"))
    first = start(client, "tictactoe", ["leaky", "human"])  # fails at once, in start()
    moved = move(client, start(client, "tictactoe", ["human", "leaky"])["id"], "4")  # fails answering a move
    stepped = client.post(f"/api/games/{start(client, 'tictactoe', ['leaky', 'random'])['id']}/advance").json()
    for view in (first, moved, stepped):
        assert view["end"] == "abandoned" and "leaky (" in view["result"] and "cannot read" in view["result"]
        assert "/srv" not in json.dumps(view) and "boxes.json" not in json.dumps(view)
    for kind in ("unmakeable", "unreadable"):
        detail = refused(client.post("/api/games", json={"game": "tictactoe", "players": ["human", kind]}), 400)
        assert "player 2 (O)" in detail and "/srv" not in detail and "boxes.json" not in detail


def test_scrubbing_keeps_what_is_not_a_path(monkeypatch: pytest.MonkeyPatch) -> None:
    from gamelearn.web.guards import public_message

    monkeypatch.setenv("GAMELEARN_HOME", "/srv/my games/gl")  # blanks: no pattern could see through them
    assert public_message("option 'alpha': '1/2' is not a fraction; beads 4-3-2-1") == (
        "option 'alpha': '1/2' is not a fraction; beads 4-3-2-1"
    )
    assert public_message("no solved table at /srv/my games/gl/solved/teeko.table; build it") == (
        "no solved table at <data directory>/solved/teeko.table; build it"
    )
    once = public_message("at /srv/my games/gl/solved/t.table and /opt/x")
    assert public_message(once) == once == "at <data directory>/solved/t.table and <server path>"
    assert public_message("not /srv/my games/glx/a nor /opt/x y/z.table.") == (
        "not <server path> <server path> nor <server path> <server path>."
    )
    assert public_message("bad file 'C:\\Users\\me\\t.table'\nsecond line") == "bad file '<server path>' second line"


def test_the_chart_checks_the_learners_game_as_reset_and_export_do(client: TestClient) -> None:
    for game, learner, words in [
        ("hexapawn", "menace", "menace learns tictactoe"),  # and the installed games that always end
        ("teeko", "her", "her learns hexapawn"),
        ("tictactoe", "thesis", "thesis learns teeko, not tictactoe"),
    ]:
        detail = refused(client.get("/api/chart", params={"game": game, "learner": learner}), 400)
        assert detail == refused(client.post(f"/api/learners/{learner}/reset", params={"game": game}), 400)
        assert words in detail and detail.endswith(f"not {game}")
    assert client.get("/api/chart", params={"game": "hexapawn", "learner": "her"}).json()["games"] == 0
    assert client.get("/api/chart", params={"game": "teeko", "learner": "human"}).status_code == 200


def test_a_client_s_connections_are_counted_by_its_address_or_its_ipv6_64() -> None:
    assert client_group("203.0.113.7") == "203.0.113.7"
    assert client_group("::ffff:203.0.113.7") == "203.0.113.7"  # IPv4 on an IPv6 socket
    assert client_group("2001:db8:1:2:aaaa::1") == client_group("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert client_group("2001:db8:1:3::1") != client_group("2001:db8:1:2::1")
    assert client_group("::1") == "::1" and client_group("127.0.0.2") == "127.0.0.2"
