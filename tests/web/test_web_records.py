"""Games leave the page: a finished game's record to download, a record posted to be reviewed
(a bad one is a 400 naming the line), and a read-only shared link another browser opens."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_support import move, refused, start

from gamelearn import parse_record


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
