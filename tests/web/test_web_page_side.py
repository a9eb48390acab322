"""Issue 24, the page's last points on the server: `/advance` takes the ply it was asked on as a
move does (a stale one is a 409 with the game as it is now), the warm-up says where it stands
(`GET /api/warm-up`), `/api/games` can leave out its player lists (the page's first load), and
answers are compressed for a browser that asks.  Oracles: the game's own moves, and the bytes
decompressed against the bytes sent plain."""

from __future__ import annotations

import subprocess
import sys

import pytest
from web_support import TestClient, refused, start

from gamelearn.web import create_app
from gamelearn.web.settings import WebSettings
from gamelearn.web.warmup import LOADING, READY, SKIPPED, WAITING, WarmUp, warm_up


def test_advance_asked_on_a_ply_the_game_has_left_is_refused_with_the_game_as_it_is(client: TestClient) -> None:
    view = start(client, "tictactoe", ["random", "random"], seed=5)
    path = f"/api/games/{view['id']}/advance"
    first = client.post(path, json={"ply": 0})
    assert first.status_code == 200 and len(first.json()["moves"]) == 1
    # A second tab, still at the start, asks for a computer move: refused, and nothing is played.
    stale = client.post(path, json={"ply": 0})
    detail = refused(stale, 409)
    assert "another tab moved first" in detail and "ply 0" in detail and "ply 1" in detail
    assert stale.json()["game"]["moves"] == first.json()["moves"]
    assert client.get(f"/api/games/{view['id']}").json()["moves"] == first.json()["moves"]
    # On the ply the game is at, one move; without a ply (and without a body), one move as before.
    assert len(client.post(path, json={"ply": 1}).json()["moves"]) == 2
    assert len(client.post(path).json()["moves"]) == 3
    assert refused(client.post(path, json={"ply": -1}), 422)


def test_the_warm_up_says_what_it_waits_for_loads_and_has_ready() -> None:
    deferred = WarmUp(("menace",), ("tictactoe",), delay=3600)
    assert deferred.states() == {"menace": {"tictactoe": WAITING}}  # not begun: not started, or waiting
    thread = warm_up(["her", "nosuch"], games=["hexapawn"])
    assert thread is not None
    thread.join(timeout=60)
    assert thread.states() == {"her": {"hexapawn": READY}, "nosuch": {"hexapawn": SKIPPED}}
    assert LOADING not in str(thread.states())  # loading only while it makes one


def test_the_warm_up_calls_then_once_every_kind_is_done() -> None:
    done: list[list[str]] = []
    thread = WarmUp(("her",), ("hexapawn",), then=lambda: done.append(list(thread.warmed)))
    thread.start()
    thread.join(timeout=60)
    assert done == [["her hexapawn"]]  # once, after the last kind


@pytest.mark.slow  # a fresh interpreter
def test_settle_loads_the_first_games_work_and_freezes_it_out_of_full_collections() -> None:
    # In a process of its own: a frozen heap is for the server's process, not this one's.
    probe = """
import gc, sys
from gamelearn.web.warmup import settle
assert gc.get_freeze_count() == 0
settle()
from gamelearn.players.matchbox import tables as matchbox_tables
from gamelearn.thesis import search
print(gc.get_freeze_count() > 0, "gamelearn.players.matchbox" in sys.modules, "gamelearn.thesis" in sys.modules)
print(len(matchbox_tables.TABLES), len(search.two_ply.signatures))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    frozen, loaded = done.stdout.splitlines()
    assert frozen == "True True True"
    tables, signatures = map(int, loaded.split())
    assert tables == 2 and signatures >= 1  # both tables built, the moving phase's search loaded


def test_the_api_tells_the_warm_up_state() -> None:
    with TestClient(create_app()) as plain:
        assert plain.get("/api/warm-up").json() == {"kinds": {}}  # nothing warmed: nothing said
    settings = WebSettings(warm_up=("menace",), warm_up_delay_seconds=3600)
    with TestClient(create_app(settings=settings)) as deferred:
        kinds = deferred.get("/api/warm-up").json()["kinds"]
        assert set(kinds) == {"menace"} and set(kinds["menace"].values()) == {WAITING}


def test_the_games_without_players_name_each_kind_but_leave_out_its_options(client: TestClient) -> None:
    # The page's first load: each kind by its name and the words the page says of it (the server's,
    # so the page keeps no learner's prose), the options only when the new-game form opens.
    full = client.get("/api/games").json()
    brief = client.get("/api/games", params={"players": "false"}).json()
    words = ("name", "title", "first_move_wait", "trains")  # trains: only where true
    assert brief == [
        {**info, "players": [{key: kind[key] for key in words if key in kind} for kind in info["players"]]}
        for info in full
    ]
    # The learners that train from the page, where they do: the page asks no other its training.
    trains = {(info["name"], kind["name"]) for info in full for kind in info["players"] if kind.get("trains")}
    assert trains == {(game, kind) for game in ("hexapawn", "tictactoe") for kind in ("her", "him", "menace", "td")} & {
        (info["name"], kind["name"]) for info in full for kind in info["players"]
    }
    for game, kind in [("teeko", "thesis"), ("tictactoe", "az"), ("hexapawn", "her")]:
        answer = client.get(f"/api/learners/{kind}/training", params={"game": game})
        assert (answer.status_code == 200) == ((game, kind) in trains), (game, kind, answer.text)
    assert all(info["players"] and all(kind["options"] is not None for kind in info["players"]) for info in full)
    assert len(str(brief)) < len(str(full)) / 2


def test_answers_are_gzipped_for_a_browser_that_asks(client: TestClient) -> None:
    for path in ("/", "/static/js/main.js", "/static/style.css", "/api/games"):
        asked = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert asked.headers.get("content-encoding") == "gzip", path
        plain = client.get(path, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers
        assert asked.content == plain.content  # httpx decompressed it: the same bytes
        assert asked.num_bytes_downloaded < len(plain.content) / 2, path  # what came over the wire


def test_the_page_answers_head_as_it_answers_get(client: TestClient) -> None:
    # The page asks HEAD / whether the server is back (connection.js): a 405 there was a logged error.
    head, get = client.head("/"), client.get("/")
    assert head.status_code == get.status_code == 200 and head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]


def test_the_page_says_the_beat_its_server_streams_at() -> None:
    # connection.js counts its live clocks in beats: it reads the beat from the page it came in
    for seconds, said in ((None, 'data-beat-ms="2000"'), (0.25, 'data-beat-ms="250"'), (3.5, 'data-beat-ms="3500"')):
        settings = WebSettings() if seconds is None else WebSettings(heartbeat_seconds=seconds)
        with TestClient(create_app(settings=settings)) as server:
            page = server.get("/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert page.text.count("data-beat-ms=") == 1 and said in page.text
        assert '<span id="connection"' in page.text.split(said)[0].rsplit("\n", 1)[-1]
