"""The web app's JSON API through FastAPI's TestClient: every endpoint, its bad input (a 4xx with a
one-line message, never a 5xx), the owner cookie that keeps browsers apart, the body limit, and
the learners' lessons checked against independent oracles (a plain negamax, the record of moves)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache

import pytest
from web_support import TestClient, move, refused, start

import gamelearn
from gamelearn import get_game, make_player
from gamelearn.web import create_app
from gamelearn.web.guards import OWNER_COOKIE
from gamelearn.web.settings import WebSettings

# An independent oracle: plain negamax over the public rules API, no tables, no solver --------------


@cache
def negamax(game_name: str, state) -> int:  # type: ignore[no-untyped-def]
    game = get_game(game_name)
    if game.is_over(state):
        winner = game.winner(state)
        return 0 if winner is None else (1 if winner == game.to_move(state) else -1)
    return max(-negamax(game_name, game.play(state, m)) for m in game.legal_moves(state))


# Games ----------------------------------------------------------------------------------------


def test_games_list_every_game_with_its_players(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    installed = set(gamelearn.game_names()) - set(gamelearn.games.broken_games())  # docs/own-game.md
    assert set(games) == {"teeko", "hexapawn", "tictactoe"} | installed
    assert games["teeko"]["square_names"][12] == "22"
    assert games["hexapawn"]["square_names"] == [str(i) for i in range(9)]
    assert {"human", "random"} <= {p["name"] for p in games["tictactoe"]["players"]}


def test_a_person_against_the_computer_plays_and_is_answered(client: TestClient) -> None:
    view = start(client, "tictactoe", ["human", "random"], seed=5)
    assert view["board"] == "........." and view["human_to_move"]
    view = move(client, view["id"], "4")
    assert view["board"][4] == "X" and view["board"].count("O") == 1
    answer = view["events"][-1]
    assert answer["side"] == 1 and not answer["human"] and view["board"][int(answer["move"])] == "O"
    assert view["last_move"] == answer["move"] and view["last_squares"] == [int(answer["move"])]


def test_the_same_seed_gives_the_same_computer_moves(client: TestClient) -> None:
    first = start(client, "tictactoe", ["random", "human"], seed=11)
    second = start(client, "tictactoe", ["random", "human"], seed=11)
    assert first["board"] == second["board"] and first["moves"] == second["moves"]


def test_an_illegal_move_is_refused_with_the_games_message_and_changes_nothing(client: TestClient) -> None:
    view = start(client, "teeko", ["human", "human"])
    view = move(client, view["id"], "22")
    detail = refused(client.post(f"/api/games/{view['id']}/move", json={"move": "22"}), 400)
    assert "'22'" in detail and "occupied" in detail
    detail = refused(client.post(f"/api/games/{view['id']}/move", json={"move": "2223"}), 400)
    assert "wrong phase" in detail
    detail = refused(client.post(f"/api/games/{view['id']}/move", json={"move": "59"}), 400)
    assert "off the board" in detail
    again = client.get(f"/api/games/{view['id']}").json()
    assert again["board"] == view["board"] and again["moves"] == ["22"]


def test_teeko_steps_only_to_a_free_neighbour(client: TestClient) -> None:
    view = start(client, "teeko", ["human", "human"])
    for square in ["00", "44", "01", "43", "10", "34", "13", "40"]:
        view = move(client, view["id"], square)
    assert all(len(m) == 4 for m in view["legal_moves"])
    detail = refused(client.post(f"/api/games/{view['id']}/move", json={"move": "0022"}), 400)
    assert "too far" in detail
    view = move(client, view["id"], "0011")
    assert view["board"][6] == "X" and view["board"][0] == "." and view["last_squares"] == [0, 6]


def test_moves_out_of_turn_and_after_the_end_are_409(client: TestClient) -> None:
    view = start(client, "tictactoe", ["random", "random"], seed=2)
    refused(client.post(f"/api/games/{view['id']}/move", json={"move": "4"}), 409)
    while not view["over"]:
        view = client.post(f"/api/games/{view['id']}/advance").json()
    assert view["over"] and view["end"] in ("win", "draw")
    refused(client.post(f"/api/games/{view['id']}/advance"), 409)
    human = start(client, "tictactoe", ["human", "random"])
    refused(client.post(f"/api/games/{human['id']}/advance"), 409)


def test_the_ply_cap_ends_the_game_as_a_draw(client: TestClient) -> None:
    view = start(client, "teeko", ["human", "human"], max_plies=2)
    view = move(client, view["id"], "22")
    view = move(client, view["id"], "00")
    assert view["over"] and view["end"] == "max-plies" and view["winner"] is None
    refused(client.post(f"/api/games/{view['id']}/move", json={"move": "11"}), 409)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"game": "chess", "players": ["human", "random"]}, 400, "unknown game"),
        ({"game": "hexapawn", "players": ["human", "bogus"]}, 400, "unknown player"),
        ({"game": "hexapawn", "players": ["human", "minimax:depth=99"]}, 400, "depth"),
        ({"game": "hexapawn", "players": ["human", "her:name=local"]}, 400, "name"),
        ({"game": "teeko", "players": ["human", "mcts:playouts=5000000"]}, 400, "playouts"),
        ({"game": "hexapawn", "players": ["human"]}, 422, "players"),
        ({"game": "hexapawn", "players": ["human", "her"], "colour": "red"}, 422, "colour"),
        ({"game": "hexapawn", "players": ["human", "her"], "seed": -1}, 422, "seed"),
        ({"game": "hexapawn", "players": ["human", "her"], "max_plies": 0}, 422, "max_plies"),
        ({"players": ["human", "her"]}, 422, "game"),
        ({"game": 3, "players": ["human", "her"]}, 422, "game"),
    ],
)
def test_a_bad_new_game_is_a_4xx_with_a_message(client: TestClient, body: dict, status: int, words: str) -> None:
    assert words in refused(client.post("/api/games", json=body), status)


def test_bad_bodies_and_ids_are_4xx(client: TestClient) -> None:
    view = start(client, "tictactoe", ["human", "human"])
    refused(client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"}), 422)
    refused(client.post(f"/api/games/{view['id']}/move", json={}), 422)
    refused(client.post(f"/api/games/{view['id']}/move", json={"move": 4}), 422)
    refused(client.post(f"/api/games/{view['id']}/move", json={"move": "4" * 17}), 422)
    refused(client.post(f"/api/games/{view['id']}/move", json={"move": "x"}), 400)
    for path in ("/api/games/nope", "/api/games/nope/analysis", "/api/games/..%2F..", "/api/games/" + "a" * 40):
        refused(client.get(path), 404)
    refused(client.post("/api/games/nope/move", json={"move": "4"}), 404)
    refused(client.post("/api/games/nope/advance"), 404)
    refused(client.delete("/api/games/nope"), 404)


def test_a_game_can_be_abandoned(client: TestClient) -> None:
    view = start(client, "hexapawn", ["human", "her"])
    assert client.delete(f"/api/games/{view['id']}").status_code == 204
    refused(client.get(f"/api/games/{view['id']}"), 404)
    assert client.get("/api/chart", params={"game": "hexapawn"}).json()["games"] == 0


# Edges: body size, cookie, another browser ---------------------------------------------------------


def test_bodies_over_the_limit_are_413_declared_or_streamed() -> None:
    with TestClient(create_app(settings=WebSettings(body_limit=1000))) as client:
        big = json.dumps({"game": "hexapawn", "players": ["human", "her"], "pad": "x" * 2000})
        refused(client.post("/api/games", content=big, headers={"content-type": "application/json"}), 413)

        def chunks() -> Iterator[bytes]:
            for _ in range(10):
                yield b" " * 500

        refused(client.post("/api/games", content=chunks(), headers={"content-type": "application/json"}), 413)
        small = client.post("/api/games", json={"game": "hexapawn", "players": ["human", "her"]})
        assert small.status_code == 200


def test_the_owner_cookie_is_random_httponly_and_lax(client: TestClient) -> None:
    response = client.get("/api/games")
    header = response.headers["set-cookie"]
    assert (
        header.startswith(f"{OWNER_COOKIE}=")
        and "HttpOnly" in header
        and "SameSite=lax" in header.replace("Lax", "lax")
    )
    other = TestClient(client.app).get("/api/games").headers["set-cookie"]
    assert other.split(";")[0] != header.split(";")[0]
    assert "set-cookie" not in client.get("/api/games").headers  # known browser: no new id


def test_a_request_from_another_site_without_the_cookie_never_sets_a_new_one(app) -> None:  # type: ignore[no-untyped-def]
    """A browser that holds an owner id but did not send it (a link or a form from another site,
    a Strict cookie of an older gamelearn) must not have it replaced: no Set-Cookie unless the
    request comes from this server's own page, is typed in, or is a script's."""
    elsewhere = [
        ("GET", "/", {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}),  # a link
        ("GET", "/?id=abc", {"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "navigate"}),  # another port
        ("GET", "/api/games", {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}),  # an <img>
        ("POST", "/api/games", {"Sec-Fetch-Site": "cross-site", "Origin": "http://evil.example"}),  # a form
        ("POST", "/api/games", {"Origin": "http://evil.example"}),  # an older browser's form
        ("POST", "/api/games", {"Origin": "null"}),
    ]
    with TestClient(app) as stranger:
        for method, path, headers in elsewhere:
            answer = stranger.request(
                method, path, headers=headers, json={"game": "tictactoe", "players": ["human"] * 2}
            )
            assert answer.status_code in (200, 403), (path, headers, answer.status_code)
            assert "set-cookie" not in answer.headers, (method, path, headers)
        assert not stranger.cookies
        own = [
            ("GET", "/", {"Sec-Fetch-Site": "none", "Sec-Fetch-Mode": "navigate"}),  # typed in, a bookmark
            ("GET", "/api/games", {"Sec-Fetch-Site": "same-origin"}),  # the page's own fetch
            ("GET", "/api/games", {}),  # a script, an older browser
            ("POST", "/api/games", {"Origin": "http://testserver"}),
        ]
        for method, path, headers in own:
            stranger.cookies.clear()
            answer = stranger.request(
                method, path, headers=headers, json={"game": "tictactoe", "players": ["human"] * 2}
            )
            assert answer.status_code == 200 and answer.headers["set-cookie"].startswith(f"{OWNER_COOKIE}=")
    # A browser with its id, following a link from another site (Lax sends it): still itself.
    with TestClient(app) as person:
        view = start(person, "tictactoe", ["human", "human"])
        answer = person.get(f"/api/games/{view['id']}", headers={"Sec-Fetch-Site": "cross-site"})
        assert answer.status_code == 200 and "set-cookie" not in answer.headers


def test_a_forged_cookie_is_replaced(app) -> None:  # type: ignore[no-untyped-def]
    with TestClient(app, cookies={OWNER_COOKIE: "x"}) as client:
        header = client.get("/api/games").headers["set-cookie"]
        assert header.split(";")[0] != f"{OWNER_COOKIE}=x"


def test_another_browser_can_neither_see_nor_change_a_game_or_a_learner(app) -> None:  # type: ignore[no-untyped-def]
    with TestClient(app) as mine, TestClient(app) as theirs:
        view = start(mine, "hexapawn", ["human", "her"], seed=1)
        refused(theirs.get(f"/api/games/{view['id']}"), 404)
        refused(theirs.post(f"/api/games/{view['id']}/move", json={"move": "63"}), 404)
        refused(theirs.delete(f"/api/games/{view['id']}"), 404)
        play_until_her_loses(mine)
        assert mine.get("/api/learners").json() == [{"kind": "her", "name": "web-hexapawn"}]
        assert theirs.get("/api/learners").json() == []
        assert theirs.get("/api/chart", params={"game": "hexapawn", "learner": "her"}).json()["games"] == 0
        assert theirs.post("/api/learners/her/reset", params={"game": "hexapawn"}).json()["deleted"] is False
        assert mine.get("/api/learners").json() == [{"kind": "her", "name": "web-hexapawn"}]
        fresh = json.loads(theirs.get("/api/learners/her/export", params={"game": "hexapawn"}).content)
        assert fresh["boxes"] == {}


# Learners ---------------------------------------------------------------------------------------


def play_until_her_loses(client: TestClient, games: int = 30) -> tuple[dict, list[dict]]:
    """White (a person's clicks, chosen by a full-depth alpha-beta) against HER until HER loses."""
    hexapawn = get_game("hexapawn")
    white = make_player(hexapawn, "alphabeta:depth=9", seed=3)
    played = []
    for seed in range(games):
        view = start(client, "hexapawn", ["human", "her"], seed=seed)
        while not view["over"]:
            state = hexapawn.from_board(view["board"], view["to_move"])
            view = move(client, view["id"], white.choose(state))
        played.append(view)
        if view["winner"] == 0:
            return view, played
    raise AssertionError("HER never lost")


def test_her_loses_the_bead_of_her_last_move_and_keeps_the_lesson(client: TestClient) -> None:
    lost, played = play_until_her_loses(client)
    hexapawn = get_game("hexapawn")
    # The oracle: the record of moves.  HER's last move, seen in its box's orientation.
    her_moves = [(i, m) for i, m in enumerate(lost["moves"]) if i % 2 == 1]
    ply, last = her_moves[-1]
    state = hexapawn.initial()
    for m in lost["moves"][:ply]:
        state = hexapawn.play(state, m)
    box_state, symmetry = hexapawn.canonical(state)
    box, bead = hexapawn.board(box_state), hexapawn.transform_move(last, symmetry)
    [lesson] = lost["learning"]
    assert lesson["kind"] == "her" and lesson["changes"] == [{"box": box, "removed": [bead], "added": []}]
    [panel] = lost["learners"]
    shown = {b["board"]: dict(b["beads"]) for b in panel["boxes"]}
    assert shown[box][bead] == 0  # the empty ring
    assert sum(shown[box].values()) == len(hexapawn.legal_moves(box_state)) - 1
    # A won game for HER changes nothing (the classroom page: "Each time HER wins, nothing changes at all").
    for view in played[:-1]:
        assert view["winner"] == 1 and view["learning"][0]["changes"] == []
    # Across visits: the next game's HER starts from the stored boxes.
    again = start(client, "hexapawn", ["human", "her"], seed=99)
    assert {b["board"]: dict(b["beads"]) for b in again["learners"][0]["boxes"]}[box][bead] == 0
    # The chart: a letter a game from HER's side.
    chart = client.get("/api/chart", params={"game": "hexapawn", "learner": "her"}).json()
    assert chart["letters"] == "W" * (len(played) - 1) + "L" and chart["losses"] == 1
    # Export: the stored boxes as the matchbox JSON; reset forgets them.
    exported = client.get("/api/learners/her/export", params={"game": "hexapawn"})
    assert exported.headers["content-type"].startswith("application/json")
    assert "attachment" in exported.headers["content-disposition"]
    payload = json.loads(exported.content)
    assert payload["kind"] == "her" and bead not in payload["boxes"][box]
    assert client.post("/api/learners/her/reset", params={"game": "hexapawn"}).json()["deleted"] is True
    fresh = start(client, "hexapawn", ["human", "her"], seed=99)
    assert fresh["learners"][0]["boxes_total"] == 0
    assert client.get("/api/learners").json() == []
    # The chart starts again with her: the games before the reset are not hers any more.
    assert client.get("/api/chart", params={"game": "hexapawn", "learner": "her"}).json()["letters"] == ""
    assert client.get("/api/chart", params={"game": "hexapawn"}).json()["games"] == len(played)


def test_her_decision_names_the_box_and_the_bead_she_drew(client: TestClient) -> None:
    view = start(client, "hexapawn", ["human", "her"], seed=4)
    view = move(client, view["id"], "63")
    decision = view["events"][-1]["decision"]
    hexapawn = get_game("hexapawn")
    state = hexapawn.play(hexapawn.initial(), "63")
    box_state, symmetry = hexapawn.canonical(state)
    assert decision["box"] == hexapawn.board(box_state) == "BBB..WWW."  # the classroom page's Step 1
    assert decision["bead"] == hexapawn.transform_move(view["events"][-1]["move"], symmetry)
    assert decision["bead"] in ("03", "14", "15")
    [box] = [b for b in view["learners"][0]["boxes"] if b["board"] == decision["box"]]
    assert box["beads"] == [
        ["03", 1],
        ["14", 1],
        ["15", 1],
    ]  # the classroom page: "The box holds [(0, 3), (1, 4), (1, 5)]"


def test_menace_reinforces_every_bead_it_drew(client: TestClient) -> None:
    view = start(client, "tictactoe", ["menace", "human"], seed=1)
    before = {b["board"]: dict(b["beads"]) for b in view["learners"][0]["boxes"]}
    assert before == {".........": {"0": 4, "1": 4, "4": 4}}  # a corner, an edge, the middle
    drawn = [e["decision"] for e in view["events"] if e["decision"]]
    while not view["over"]:
        view = move(client, view["id"], view["legal_moves"][0])
        drawn += [e["decision"] for e in view["events"] if e["decision"]]
    # The oracle: Michie's rule as the brief states it, +3 a bead for a win, +1 a draw, -1 a loss,
    # for every bead it drew (one box per position; a position with one move has no box).
    delta = {0: 3, None: 1, 1: -1}[view["winner"]]
    expected = sorted(
        (
            {
                "box": d["box"],
                "removed": [d["bead"]] * -delta if delta < 0 else [],
                "added": [d["bead"]] * max(delta, 0),
            }
            for d in drawn
            if d["box"]
        ),
        key=lambda c: c["box"],
    )
    [lesson] = view["learning"]
    assert view["end"] in ("win", "draw") and lesson["changes"] == expected and expected


@pytest.mark.parametrize("kind", ["bogus", "thesis-x"])
def test_unknown_learners_are_404(client: TestClient, kind: str) -> None:
    refused(client.post(f"/api/learners/{kind}/reset", params={"game": "hexapawn"}), 404)
    refused(client.get(f"/api/learners/{kind}/export", params={"game": "hexapawn"}), 404)
    refused(client.get("/api/chart", params={"game": "hexapawn", "learner": kind}), 404)


def test_learner_endpoints_check_their_game(client: TestClient) -> None:
    refused(client.post("/api/learners/her/reset", params={"game": "chess"}), 400)
    assert "hexapawn" in refused(client.post("/api/learners/her/reset", params={"game": "teeko"}), 400)
    assert "teeko" in refused(client.get("/api/learners/thesis/export", params={"game": "hexapawn"}), 400)
    refused(client.post("/api/learners/her/reset"), 422)
    refused(client.get("/api/chart", params={"game": "chess"}), 400)
    refused(client.get("/api/chart"), 422)


# Analysis ---------------------------------------------------------------------------------------


def test_analysis_values_every_move_as_a_plain_negamax_does(client: TestClient) -> None:
    view = start(client, "tictactoe", ["human", "human"])
    for square in ("0", "4", "8"):
        view = move(client, view["id"], square)
    analysis = client.get(f"/api/games/{view['id']}/analysis").json()
    assert analysis["available"], analysis  # tic-tac-toe is solved on the spot; it is always available
    game = get_game("tictactoe")
    state = game.initial()
    for square in ("0", "4", "8"):
        state = game.play(state, square)
    expected = {m: -negamax("tictactoe", game.play(state, m)) for m in game.legal_moves(state)}
    assert {m: e["value"] for m, e in analysis["moves"].items()} == expected
    assert set(expected.values()) == {0, -1}  # O must take an edge here; a corner loses


def test_teeko_analysis_without_a_table_says_why(client: TestClient) -> None:
    view = start(client, "teeko", ["human", "human"])
    analysis = client.get(f"/api/games/{view['id']}/analysis").json()
    # The test's own data directory holds no solved Teeko table, so the analysis is off and says why.
    assert analysis["available"] is False
    assert "gamelearn solve teeko" in analysis["reason"] and analysis["moves"] == {}


# The page and the documentation -------------------------------------------------------------------


def test_the_page_and_its_assets_need_nothing_from_the_internet(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for asset in ("/static/app.js", "/static/style.css"):
        text = client.get(asset).text
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", "") and "https://" not in text
    assert "https://" not in page.text and "http://" not in page.text


def test_openapi_documents_every_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert set(paths) >= {
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/move",
        "/api/games/{game_id}/advance",
        "/api/games/{game_id}/analysis",
        "/api/learners",
        "/api/learners/{kind}/reset",
        "/api/learners/{kind}/export",
        "/api/chart",
    }
    assert "413" in paths["/api/games"]["post"]["responses"]


def test_games_are_bounded_per_browser_in_memory_and_in_the_store() -> None:
    app = create_app(settings=WebSettings(games_per_owner=3, stored_games_per_owner=4))
    with TestClient(app) as client:
        ids = [start(client, "tictactoe", ["human", "human"])["id"] for _ in range(5)]
        assert app.state.service.table.count(next(iter(client.cookies.values()))) == 3
        # The two put out of memory: the older one is gone from the store too, the other comes back.
        assert [client.get(f"/api/games/{i}").status_code for i in ids] == [404, 200, 200, 200, 200]


def test_a_game_put_out_of_the_store_but_played_on_in_memory_counts_again() -> None:
    """A game's later saves read nothing back (WebGame.in_store); one that a newer game put out
    of the store comes back into it when played, and the bound still holds."""
    app = create_app(settings=WebSettings(games_per_owner=3, stored_games_per_owner=2))
    with TestClient(app) as client:
        views = [start(client, "tictactoe", ["human", "human"]) for _ in range(3)]
        owner = next(iter(client.cookies.values()))
        store = app.state.service.store
        assert {row[0] for row in store.web_games(owner)} == {views[1]["id"], views[2]["id"]}
        for view in views:  # the first, out of the store, is played on in memory
            assert client.post(f"/api/games/{view['id']}/move", json={"move": "4"}).status_code == 200
            assert len(store.web_games(owner)) == 2
        assert views[2]["id"] in {row[0] for row in store.web_games(owner)}  # the last one played is kept


def test_serve_refuses_a_port_in_use() -> None:
    import socket

    from typer.testing import CliRunner

    from gamelearn.cli.main import app as cli

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(cli, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert "cannot listen" in result.output


# The Teeko thesis memory ----------------------------------------------------------------------------


def read_memory_file(data: bytes) -> dict[str, tuple[int, int]]:
    """memory.m parsed here, independently: 33-byte records, 25 digits and two 4-character counts."""
    assert len(data) % 33 == 0
    records: dict[str, tuple[int, int]] = {}
    for at in range(0, len(data), 33):
        record = data[at : at + 33].decode("ascii")
        records.setdefault(record[:25], (int(record[25:29].strip() or 0), int(record[29:33].strip() or 0)))
    return records


def digits(board: str) -> str:
    return board.replace(".", "0").replace("X", "1").replace("O", "2")


def swapped(board_digits: str) -> str:
    return board_digits.translate(str.maketrans("12", "21"))


def test_thesis_memory_learns_a_won_game_keeps_it_and_recalls_it(client: TestClient) -> None:
    teeko = get_game("teeko")
    for seed in range(8):
        view = start(client, "teeko", ["thesis", "thesis"], seed=seed)
        while not view["over"]:
            view = client.post(f"/api/games/{view['id']}/advance").json()
        if view["winner"] is not None:
            break
    else:
        pytest.fail("no thesis game was won in 8 seeds")
    [lesson] = view["learning"]
    assert "positions added" in lesson["changes"][0]["text"]
    exported = client.get("/api/learners/thesis/export", params={"game": "teeko"})
    assert exported.headers["content-disposition"].endswith('filename="memory.m"')
    records = read_memory_file(exported.content)
    # Every board after ply 9 of the won game is remembered, as played or with X and O swapped.
    state = teeko.initial()
    for ply, played in enumerate(view["moves"], start=1):
        state = teeko.play(state, played)
        if ply >= 9:
            board = digits(teeko.board(state))
            assert board in records or swapped(board) in records
    # The next game's recall shows what the file holds for each position it can reach.
    again = start(client, "teeko", ["thesis", "thesis"], seed=seed)
    rows = []
    while not again["over"]:
        again = client.post(f"/api/games/{again['id']}/advance").json()
        rows += [r for e in again["events"] if e["decision"] for r in e["decision"]["recall"]]
    assert rows, "the memory was never recalled"
    for row in rows:
        board = digits(row["board"])
        if board in records:
            assert records[board] == (row["x_wins"], row["o_wins"])
        else:
            assert records[swapped(board)] == (row["o_wins"], row["x_wins"])
    assert client.post("/api/learners/thesis/reset", params={"game": "teeko"}).json()["deleted"] is True
    assert client.get("/api/learners/thesis/export", params={"game": "teeko"}).content == b""


def test_a_computer_player_that_fails_ends_the_game_with_the_reason(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gamelearn.players import registry
    from gamelearn.players.base import Player

    class Broken(Player):
        kind = "broken"

        def choose(self, state):  # type: ignore[no-untyped-def]
            raise RuntimeError("its random move would never end")

    registry._load_all()
    monkeypatch.setitem(registry._KINDS, "broken", registry.PlayerKind("broken", Broken, "fails"))
    view = start(client, "tictactoe", ["human", "broken"])
    view = move(client, view["id"], "4")
    assert view["over"] and view["end"] == "abandoned" and view["board"] == "....X...."
    assert "broken (O) could not move: its random move would never end" in view["result"]
    assert client.get("/api/chart", params={"game": "tictactoe"}).json()["games"] == 0


def test_the_api_documentation_page_is_served_by_the_app_itself(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and "/static/docs.js" in page.text
    script = client.get("/static/docs.js").text
    assert "/openapi.json" in script and "https://" not in script and "cdn" not in page.text.lower()
    assert client.get("/redoc").status_code == 404
