"""Issue 24 on the server: a move carries the ply it was made on (a stale one is a 409 with the game
as it is now), the live feed that open tabs follow, one source for the bounds the picker offers
and the server enforces, the sanitiser leaving a typed tag alone, a seed that is not a number
refused, and MENACE's first box chosen once."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from web_support import TestClient, move, refused, start

from gamelearn import get_game
from gamelearn.web import live
from gamelearn.web.live import GameFeed, news


def run_apart(coroutine: Any) -> Any:
    """``asyncio.run`` in a thread of its own: the browser tests' Playwright, alive for the
    whole session, keeps an event loop running in this one."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_a_move_made_on_a_ply_the_game_has_left_is_refused_with_the_game_as_it_is(client: TestClient) -> None:
    view = start(client, "tictactoe", ["human", "random"], seed=3)
    first = client.post(f"/api/games/{view['id']}/move", json={"move": "4", "ply": 0})
    assert first.status_code == 200 and len(first.json()["moves"]) == 2
    # A second tab still showing the empty board clicks a corner.
    stale = client.post(f"/api/games/{view['id']}/move", json={"move": "0", "ply": 0})
    detail = refused(stale, 409)
    assert "another tab moved first" in detail and "ply 0" in detail and "ply 2" in detail
    now = stale.json()["game"]
    assert now["moves"] == first.json()["moves"] and now["board"] == first.json()["board"]  # nothing changed
    assert client.get(f"/api/games/{view['id']}").json()["moves"] == now["moves"]
    # The same move made on the ply the game is at is played; a move without a ply works as before.
    legal = now["legal_moves"]
    after = client.post(f"/api/games/{view['id']}/move", json={"move": legal[0], "ply": 2})
    assert after.status_code == 200 and after.json()["moves"][2] == legal[0]
    if not after.json()["over"]:
        move(client, view["id"], after.json()["legal_moves"][0])


def test_the_feed_hands_every_change_to_the_streams_of_that_game_only() -> None:
    feed = GameFeed()

    async def watch() -> list[str]:
        chunks: list[str] = []
        stream = feed.stream("me", "g1", news([], False), seconds=2.0)
        async for chunk in stream:
            chunks.append(chunk)
            if chunk.startswith("event: game") and len([c for c in chunks if c.startswith("event: game")]) == 1:
                # the first news is in: a worker thread now changes this game and another one
                def work() -> None:
                    feed.publish("me", "other", news(["9"], False))
                    feed.publish("me", "g1", news(["4", "0"], False))

                threading.Thread(target=work).start()
            if '"ply": 2' in chunk:
                break
        await stream.aclose()
        return chunks

    chunks = run_apart(asyncio.wait_for(watch(), timeout=5))
    assert chunks[0].startswith("retry: ")
    events = [c for c in chunks if c.startswith("event: game")]
    assert events[0] == 'event: game\ndata: {"ply": 0, "moves": [], "over": false}\n\n'
    assert events[-1] == 'event: game\ndata: {"ply": 2, "moves": ["4", "0"], "over": false}\n\n'
    assert not any('"9"' in c for c in chunks)  # another game's news never reaches this stream
    assert len(feed) == 0  # the stream's end let its watcher go


def test_a_quiet_stream_beats_as_an_event_the_page_can_hear(monkeypatch: pytest.MonkeyPatch) -> None:
    # A comment line never reaches an EventSource's listeners; a named event with data does, so a
    # page can tell a quiet stream that is alive from a dead socket.
    monkeypatch.setattr(live, "HEARTBEAT_SECONDS", 0.05)
    feed = GameFeed()

    async def watch() -> list[str]:
        return [chunk async for chunk in feed.stream("me", "g1", news([], False), seconds=0.5)]

    chunks = run_apart(asyncio.wait_for(watch(), timeout=5))
    beats = [c for c in chunks if c.startswith("event: beat")]
    assert len(beats) >= 3 and all(c == "event: beat\ndata: {}\n\n" for c in beats)
    assert [c for c in chunks if c.startswith("event: game")] == [
        'event: game\ndata: {"ply": 0, "moves": [], "over": false}\n\n'
    ]
    assert len(feed) == 0


def test_a_feed_refuses_more_streams_than_a_browser_may_hold() -> None:
    feed = GameFeed(limit=10, per_owner=2)

    async def hold() -> str:
        streams = [feed.stream("me", f"g{i}", news([], False), seconds=1.0) for i in range(2)]
        for stream in streams:
            await stream.__anext__()
        try:
            feed.check_room("me")
        except RuntimeError as error:
            said = str(error)
        else:
            said = ""
        feed.check_room("someone else")  # another browser still has room
        for stream in streams:
            await stream.aclose()
        return said

    assert "already follows 2 games live" in run_apart(hold())
    assert len(feed) == 0


def test_the_picker_offers_the_bounds_the_server_enforces(client: TestClient) -> None:
    """The oracle is the server itself: for every whole-number option of every player, the largest
    value /api/games offers is accepted (the spec is made and checked) and the next one is refused
    with that same number in the words."""
    games = {g["name"]: g for g in client.get("/api/games").json()}
    checked = 0
    for game, kind, option in [
        ("teeko", "alphabeta", "depth"),
        ("teeko", "mcts", "playouts"),
        ("hexapawn", "minimax", "depth"),
    ]:
        [info] = [o for p in games[game]["players"] if p["name"] == kind for o in p["options"] if o["name"] == option]
        high = info["max"]
        for value in (high + 1, high + 100):
            detail = refused(
                client.post("/api/games", json={"game": game, "players": [f"{kind}:{option}={value}", "human"]}), 400
            )
            assert f"{option}={value} is too large (at most {high} for {game} on this server)" in detail
        refused(client.post("/api/games", json={"game": game, "players": [f"{kind}:{option}=0", "human"]}), 400)
        view = start(client, game, ["human", f"{kind}:{option}={high}"])  # the largest offered is taken
        checked += view["human_to_move"]
    assert checked == 3


def test_a_typed_tag_is_echoed_as_typed_not_as_a_server_path(client: TestClient) -> None:
    detail = refused(client.post("/api/games", json={"game": "teeko", "players": ["human", "<b>x</b>"]}), 400)
    assert "'<b>x</b>'" in detail and "server path" not in detail


def test_a_seed_that_is_not_a_whole_number_is_refused(client: TestClient) -> None:
    for seed in ("1e400", "-1", "2147483648", "0.5"):
        body = f'{{"game": "tictactoe", "players": ["human", "random"], "seed": {seed}}}'
        response = client.post("/api/games", content=body, headers={"content-type": "application/json"})
        assert "seed" in refused(response, 422)


def test_menaces_first_box_is_chosen_once_and_charted_from_when_it_exists(client: TestClient) -> None:
    centre = "....X...."
    for seed, opening in enumerate(["0", "4", "4", "4"]):  # the centre becomes the commonest opening
        view = start(client, "tictactoe", ["human", "menace"], seed=seed)
        view = move(client, view["id"], opening)
        while not view["over"]:
            view = move(client, view["id"], view["legal_moves"][0])
    history = client.get("/api/learners/menace/first-box", params={"game": "tictactoe"}).json()
    box = history["box"]  # the corner opening's box (as the learner names it), not the centre's
    assert box != centre and box.count("X") == 1 and box[4] == "." and "O" not in box
    assert history["opened_first"] == 1 and history["games"] == 4
    assert history["series"][0] is None and history["from_game"] == 1  # no box before the first game
    assert all(point is not None for point in history["series"][1:])


def test_the_warm_up_makes_and_plays_each_kind_once_in_the_background() -> None:
    from gamelearn.web.warmup import warm_up

    assert warm_up(()) is None  # nothing to warm: no thread (the default of create_app)
    # a kind the game does not offer is skipped, a kind that fails is only a missed head start
    thread = warm_up(["her", "menace", "nosuch"], games=["hexapawn", "tictactoe"])
    assert thread is not None and thread.daemon
    thread.join(timeout=60)
    assert not thread.is_alive() and thread.warmed == ["her hexapawn", "menace tictactoe"]


def test_the_warm_up_plays_as_the_page_plays_a_trainable_learner_and_its_explain() -> None:
    # az compiles an exploring search for a trainable player apart from a frozen one's: a warm-up
    # of a frozen player left the page's first az move to compile (8 to 28 s after "ready").
    from gamelearn.players.matchbox import MenacePlayer
    from gamelearn.web.warmup import play_as_the_page_does

    asked: list[tuple[str, bool]] = []

    class Watched(MenacePlayer):
        def choose(self, state: Any) -> str | None:
            asked.append(("choose", self.trains))
            return super().choose(state)

        def explain(self, state: Any, move: str | None) -> Any:
            asked.append(("explain", self.trains))
            return super().explain(state, move)

    player = Watched(get_game("tictactoe"), seed=0)
    play_as_the_page_does(player, get_game("tictactoe"))
    assert asked == [("choose", True), ("explain", True)] * 2
    assert player.boxes and player.games_played == 0  # boxes opened in memory, nothing learned or kept
