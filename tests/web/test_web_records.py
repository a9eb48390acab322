"""Games leave the page: a finished game's record to download, a record posted to be reviewed
(a bad one is a 400 naming the line), and a read-only shared link another browser opens."""

from __future__ import annotations

import sqlite3

import pytest
from fastapi.testclient import TestClient
from web_support import move, refused, start

from gamelearn import parse_record
from gamelearn.web import create_app
from gamelearn.web.record_routes import SHARED_OWNER
from gamelearn.web.settings import WebSettings


def finished(client: TestClient) -> dict:
    view = start(client, "tictactoe", ["human", "menace"], seed=4)
    while not view["over"]:
        view = move(client, view["id"], view["legal_moves"][0])
    return view


def test_a_finished_game_downloads_as_a_record_that_reviews_as_the_game(client: TestClient) -> None:
    view = finished(client)
    answer = client.get(f"/api/games/{view['id']}/record")
    assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
    parsed = parse_record(answer.text)
    assert list(parsed.record.moves) == view["moves"]
    [row] = client.get("/api/records?game=tictactoe").json()
    kept = client.get(f"/api/records/{row['id']}/record")
    assert parse_record(kept.text).record.moves == parsed.record.moves
    posted = client.post("/api/records/review", content=answer.text.encode(), headers={"content-type": "text/plain"})
    assert posted.status_code == 200
    assert posted.json()["plies"] == client.get(f"/api/records/{row['id']}/review").json()["plies"]
    bad = answer.text.replace('[End "', '[End "x')
    detail = refused(client.post("/api/records/review", content=bad.encode()), 400)
    assert detail.startswith("line 6:") and "End" in detail


def test_a_game_in_play_has_no_record_yet(client: TestClient) -> None:
    view = start(client, "tictactoe", ["human", "human"])
    assert refused(client.get(f"/api/games/{view['id']}/record"), 409)
    assert refused(client.post(f"/api/games/{view['id']}/share"), 409)


def test_a_shared_link_opens_in_another_browser_without_names(client: TestClient, app) -> None:  # type: ignore[no-untyped-def]
    view = finished(client)
    link = client.post(f"/api/games/{view['id']}/share").json()
    assert link["url"].endswith(f"/?shared={link['token']}") and len(link["token"]) >= 22
    owner = client.cookies.get("gamelearn_owner") or next(iter(client.cookies.values()))
    with TestClient(app) as stranger:
        answer = stranger.get(f"/api/shared/{link['token']}")
        assert answer.status_code == 200
        review = answer.json()
        assert review["moves"] == view["moves"] and review["plies"] and review["shared"] == link["token"]
        assert review["players"] == ["human", "menace"]
        assert "name=" not in answer.text and owner not in answer.text
        text = stranger.get(f"/api/shared/{link['token']}/record").text
        assert "name=" not in text and parse_record(text).record.moves == tuple(view["moves"])
        assert refused(stranger.get("/api/shared/" + "A" * 22), 404)
        assert refused(stranger.post(f"/api/games/{view['id']}/share"), 404)  # not its game


# Bounded sharing (docs/web.md, "What one client cannot do to the server") -------------------------


def won_by_x(client: TestClient, seed: int) -> dict:
    """A tic-tac-toe game between two people, X winning on the top row: five moves, no computer."""
    view = start(client, "tictactoe", ["human", "human"], seed=seed)
    for square in ("0", "3", "1", "4", "2"):
        view = move(client, view["id"], square)
    assert view["over"]
    return view


def store_bytes(app) -> int:  # type: ignore[no-untyped-def]
    """The store's file and its write-ahead log, as they are on disk."""
    path = app.state.store.path
    return sum(part.stat().st_size for part in (path, path.with_name(path.name + "-wal")) if part.exists())


@pytest.mark.slow  # 2,000 requests
def test_sharing_a_game_again_answers_its_link_and_the_store_does_not_grow(client: TestClient, app) -> None:  # type: ignore[no-untyped-def]
    view = won_by_x(client, seed=1)
    before = store_bytes(app)
    tokens = set()
    for _ in range(2000):
        answer = client.post(f"/api/games/{view['id']}/share")
        assert answer.status_code == 200, answer.text
        tokens.add(answer.json()["token"])
    assert len(tokens) == 1
    [kept] = client.get("/api/records?game=tictactoe").json()  # the same game, as a kept game
    assert client.post(f"/api/records/{kept['id']}/share").json()["token"] in tokens
    store = app.state.store
    assert len(store.records(owner=SHARED_OWNER)) == 1 and store.share_count(None, 0.0)[0] == 1
    assert store_bytes(app) - before < 100_000


def test_a_flood_of_shares_is_refused_with_the_time_to_wait_and_links_expire(tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings = WebSettings(shares_per_owner=3, total_shares=5, share_days=30)
    app = create_app(tmp_path / "shares.sqlite3", settings)
    lasts = 30 * 86400
    with TestClient(app) as mine, TestClient(app) as theirs:
        games = [won_by_x(mine, seed) for seed in range(5)]
        links = [mine.post(f"/api/games/{game['id']}/share").json()["token"] for game in games[:3]]
        assert len(set(links)) == 3
        flood = mine.post(f"/api/games/{games[3]['id']}/share")
        detail = refused(flood, 429)
        assert detail.startswith("this browser has 3 shared links") and "30 days" in detail
        assert lasts - 60 <= int(flood.headers["retry-after"]) <= lasts + 1
        # At its bound a browser still gets the links it made.
        assert mine.post(f"/api/games/{games[0]['id']}/share").json()["token"] == links[0]
        # The server's bound, over every browser.
        others = [won_by_x(theirs, seed) for seed in range(10, 13)]
        assert [theirs.post(f"/api/games/{game['id']}/share").status_code for game in others] == [200, 200, 429]
        detail = refused(theirs.post(f"/api/games/{others[2]['id']}/share"), 429)
        assert detail.startswith("the server keeps 5 shared links")
        # Thirty days later (the store's clock moved back by 31 days) the links are gone ...
        with sqlite3.connect(app.state.store.path) as db:
            db.execute("UPDATE web_shares SET created = created - ?", (31 * 86400,))
            db.execute("UPDATE records SET created = created - ? WHERE owner = ?", (31 * 86400, SHARED_OWNER))
        refused(theirs.get(f"/api/shared/{links[0]}"), 404)
        # ... and room is made: a new link, and the expired copies forgotten.
        fresh = mine.post(f"/api/games/{games[4]['id']}/share")
        assert fresh.status_code == 200 and fresh.json()["token"] not in links
        assert [row["context"] for row in app.state.store.records(owner=SHARED_OWNER)] == [fresh.json()["token"]]
