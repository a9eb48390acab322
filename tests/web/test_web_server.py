"""What the server must hold: games kept in the store across a restart, one client that
cannot evict other browsers' games, computer moves in a bounded pool (503 with Retry-After when it
is full, one move in flight per browser), errors that say "too large (at most N)" and echo input
cut short, and the security headers.  Plus the controls and the review behind the page."""

from __future__ import annotations

import threading
import time
from functools import cache

import pytest
from web_support import TestClient, move, refused, start

from gamelearn import get_game
from gamelearn.web import create_app
from gamelearn.web.settings import WebSettings

TTT = get_game("tictactoe")


@cache
def negamax(state) -> int:  # type: ignore[no-untyped-def]
    """The oracle: plain negamax over the public rules, for the side to move."""
    if TTT.is_over(state):
        return 0 if TTT.winner(state) is None else -1
    return max(-negamax(TTT.play(state, m)) for m in TTT.legal_moves(state))


def cookie_less(client: TestClient) -> TestClient:
    client.cookies.clear()
    return client


# Headers ----------------------------------------------------------------------------------------


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    for path in ["/", "/static/app.js", "/api/games", "/api/games/nope"]:
        headers = client.get(path).headers
        csp = headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"


def test_the_page_has_no_inline_script(client: TestClient) -> None:
    import re

    for path in ["/", "/docs"]:
        html = client.get(path).text
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
        assert scripts and all("src=" in attrs and not body.strip() for attrs, body in scripts)
        assert not re.search(r"\son[a-z]+\s*=", html)  # no inline handlers either


# Errors -----------------------------------------------------------------------------------------


def test_a_number_too_large_says_so_with_the_bound(client: TestClient) -> None:
    detail = refused(
        client.post("/api/games", json={"game": "tictactoe", "players": ["human", "mcts:playouts=1000000000"]}), 400
    )
    # One bound, the one the picker offers: the player's own range narrowed by this server's.
    assert "playouts=1000000000 is too large (at most 20000 for tictactoe on this server)" in detail
    detail = refused(
        client.post("/api/games", json={"game": "tictactoe", "players": ["human", "mcts:playouts=50000"]}), 400
    )
    assert "playouts=50000 is too large (at most 20000 for tictactoe" in detail  # this server's bound
    detail = refused(
        client.post("/api/games", json={"game": "tictactoe", "players": ["human", "minimax:depth=99999999999"]}), 400
    )
    assert "too large (at most 12 for tictactoe on this server)" in detail


def test_echoed_input_is_cut_and_harmless_input_is_not_scrubbed(client: TestClient) -> None:
    detail = refused(
        client.post("/api/games", json={"game": "hexapawn", "players": ["human", "her:" + "x" * 5000]}), 400
    )
    assert len(detail) <= 300 and "(5002 characters)" in detail  # the word echoed was 'xxx…x', quotes and all
    detail = refused(client.post("/api/games", json={"game": "tictactoe", "players": ["human", "nosuch/a/b"]}), 400)
    assert "'nosuch/a/b'" in detail and "server path" not in detail
    detail = refused(client.post("/api/games", json={"game": "tictactoe", "players": ["human", "/etc/passwd"]}), 400)
    assert "/etc" not in detail


# Games kept in the store ----------------------------------------------------------------------


def test_a_game_in_progress_survives_a_server_restart(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = tmp_path / "s.sqlite3"
    with TestClient(create_app(store)) as first:
        view = start(first, "hexapawn", ["human", "her"], seed=4)
        view = move(first, view["id"], "63")
        cookies = dict(first.cookies)
    with TestClient(create_app(store), cookies=cookies) as again:  # a new server, the same browser
        resumed = again.get(f"/api/games/{view['id']}").json()
        assert resumed["moves"] == view["moves"] and resumed["board"] == view["board"]
        assert resumed["human_to_move"] and resumed["result"] == "Your move (W)"
        legal = resumed["legal_moves"][0]
        after = move(again, view["id"], legal)
        assert after["moves"][:3] == view["moves"] + [legal]
    with TestClient(create_app(store)) as stranger:  # another browser: not its game
        detail = refused(stranger.get(f"/api/games/{view['id']}"), 404)
        assert "never started here, or it was abandoned" in detail and "forgotten" not in detail


def test_an_abandoned_game_is_gone_and_says_so(client: TestClient) -> None:
    view = start(client, "tictactoe", ["human", "menace"], seed=1)
    assert client.delete(f"/api/games/{view['id']}").status_code == 204
    assert "abandoned" in refused(client.get(f"/api/games/{view['id']}"), 404)


# One client cannot evict others' games --------------------------------------------------------


def test_a_cookie_less_flood_cannot_put_out_another_browsers_game() -> None:
    settings = WebSettings(total_games=40, new_owners_per_address=20)
    app = create_app(settings=settings)
    with TestClient(app) as victim, TestClient(app) as flood:
        game = start(victim, "teeko", ["human", "human"])
        move(victim, game["id"], "22")
        answers = [
            cookie_less(flood).post("/api/games", json={"game": "tictactoe", "players": ["human", "human"]})
            for _ in range(200)
        ]
        codes = [a.status_code for a in answers]
        assert codes.count(200) == 19 and codes.count(429) == 181  # the victim was this address's first
        assert all(a.headers.get("retry-after") for a in answers if a.status_code == 429)
        assert victim.get(f"/api/games/{game['id']}").status_code == 200
        assert len(app.state.service.table) == 20


def test_a_newcomer_that_asks_again_after_a_busy_answer_is_still_one_newcomer() -> None:
    # A first game refused 503 (the pool full) gave the browser its id; asking again, as the page
    # does after Retry-After, is the same newcomer: eight such browsers once used up 50 places.
    app = create_app(settings=WebSettings(new_owners_per_address=2, move_workers=1, move_wait_seconds=0.01))
    pool = app.state.service.pool
    body = {"game": "tictactoe", "players": ["menace", "human"]}
    with TestClient(app) as first, TestClient(app) as second, TestClient(app) as third:
        with pool.slot("someone"):
            for _ in range(5):
                assert first.post("/api/games", json=body).status_code == 503
        assert first.post("/api/games", json=body).status_code == 200
        assert second.post("/api/games", json=body).status_code == 200
        assert third.post("/api/games", json=body).status_code == 429  # the third newcomer is one too many


def test_a_full_server_puts_out_finished_games_first_and_never_a_game_in_progress_for_a_newcomer() -> None:
    app = create_app(settings=WebSettings(total_games=6, new_owners_per_address=1000))
    service = app.state.service
    with TestClient(app) as victim, TestClient(app) as flood:
        playing = start(victim, "tictactoe", ["human", "human"])
        owner = victim.cookies["gamelearn_id"]
        finished = []
        for _ in range(2):  # two finished games of other browsers
            view = start(cookie_less(flood), "tictactoe", ["human", "human"])
            while not view["over"]:
                view = move(flood, view["id"], view["legal_moves"][0])
            finished.append(view["id"])
        for _ in range(3):
            start(cookie_less(flood), "tictactoe", ["human", "human"])  # in progress
        assert len(service.table) == 6
        for _ in range(2):  # room is made from the finished games
            start(cookie_less(flood), "tictactoe", ["human", "human"])
        assert len(service.table) == 6
        newcomer = cookie_less(flood).post("/api/games", json={"game": "tictactoe", "players": ["human", "human"]})
        assert newcomer.status_code == 503 and newcomer.headers["retry-after"]
        assert service.table.get(owner, playing["id"]) is not None  # still in memory


# The worker pool --------------------------------------------------------------------------------


def test_a_full_pool_answers_503_with_retry_after_and_changes_nothing() -> None:
    app = create_app(settings=WebSettings(move_workers=2, move_wait_seconds=0.05))
    pool = app.state.service.pool
    with TestClient(app) as client:
        view = start(client, "tictactoe", ["human", "menace"], seed=2)
        with pool.slot("someone"), pool.slot("someone else"):
            answer = client.post(f"/api/games/{view['id']}/move", json={"move": "4"})
            assert answer.status_code == 503 and int(answer.headers["retry-after"]) >= 1
            assert "busy" in answer.json()["detail"]
            before = len(app.state.service.table)
            opening = client.post("/api/games", json={"game": "tictactoe", "players": ["menace", "human"]})
            assert opening.status_code == 503 and len(app.state.service.table) == before  # nothing left behind
        assert client.get(f"/api/games/{view['id']}").json()["moves"] == []
        owner = client.cookies["gamelearn_id"]
        with pool.slot(owner):  # this browser's move already in flight: a second one waits its turn
            assert client.post(f"/api/games/{view['id']}/move", json={"move": "4"}).status_code == 409
        assert len(move(client, view["id"], "4")["moves"]) == 2


@pytest.mark.timeout(120)
def test_eight_clients_share_a_bounded_pool() -> None:
    app = create_app(settings=WebSettings(move_workers=2, move_wait_seconds=0.02))
    service = app.state.service
    codes: list[int] = []
    lock = threading.Lock()

    failures: list[BaseException] = []

    def client_plays(index: int) -> None:
        def post(client: TestClient, path: str, body: dict) -> dict:
            while True:  # as the page does: a 503 waits Retry-After (here: at once) and tries again
                answer = client.post(path, json=body)
                with lock:
                    codes.append(answer.status_code)
                if answer.status_code != 503:
                    assert answer.status_code == 200, answer.text
                    return answer.json()
                assert int(answer.headers["retry-after"]) >= 1

        try:
            with TestClient(app) as client:
                view = post(client, "/api/games", {"game": "tictactoe", "players": ["human", "mcts:playouts=400"]})
                while not view["over"]:
                    view = post(client, f"/api/games/{view['id']}/move", {"move": view["legal_moves"][0]})
                    with lock:
                        finished_moves.append(view["moves"][-1])
        except BaseException as error:  # reported by the test's thread
            failures.append(error)

    finished_moves: list[str] = []
    threads = [threading.Thread(target=client_plays, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    assert service.pool.most_busy <= 2 and service.pool.busy == 0
    assert set(codes) <= {200, 503} and len(finished_moves) >= 8 * 3  # every game played to its end


# Controls and review ------------------------------------------------------------------------------


def test_take_back_removes_your_move_and_the_answer(client: TestClient) -> None:
    view = start(client, "tictactoe", ["human", "menace"], seed=3)
    view = move(client, view["id"], "4")
    view = move(client, view["id"], [m for m in view["legal_moves"]][0])
    back = client.post(f"/api/games/{view['id']}/takeback").json()
    assert back["moves"] == view["moves"][:2] and back["human_to_move"]
    back = client.post(f"/api/games/{view['id']}/takeback").json()
    assert back["moves"] == [] and not back["can_take_back"]
    assert "no move of yours" in refused(client.post(f"/api/games/{view['id']}/takeback"), 409)


def test_resigning_loses_and_the_learner_wins(client: TestClient) -> None:
    view = start(client, "hexapawn", ["human", "her"], seed=3)
    view = client.post(f"/api/games/{view['id']}/resign").json()
    assert view["over"] and view["winner"] == 1 and view["end"] == "resign" and view["result"] == "You resigned"
    assert client.get("/api/chart?game=hexapawn&learner=her").json()["letters"] == "W"


def test_the_end_says_why_and_who_won_from_your_side(client: TestClient) -> None:
    view = start(client, "tictactoe", ["human", "human"])
    for square in ["0", "3", "1", "4", "2"]:
        view = move(client, view["id"], square)
    assert view["result"] == "X wins: three in a row" and view["winning_squares"] == [0, 1, 2]
    view = start(client, "teeko", ["human", "human"])
    for square in ["00", "44", "01", "43", "11", "34", "10"]:
        view = move(client, view["id"], square)
    assert view["result"] == "X wins: four on a square" and view["winning_squares"] == [0, 1, 5, 6]


def test_the_review_grades_every_move_as_a_plain_negamax_does(client: TestClient) -> None:
    view = start(client, "tictactoe", ["human", "human"])
    for square in ["4", "1", "0", "8", "2", "6"]:  # O's 1 is a blunder-free loss? the oracle decides
        view = move(client, view["id"], square)
    review = client.get(f"/api/games/{view['id']}/review").json()
    assert review["available"] and len(review["plies"]) == 6 and len(review["positions"]) == 7
    state = TTT.initial()
    for ply, position in zip(review["plies"], review["positions"], strict=False):
        best = negamax(state)
        after = TTT.play(state, ply["move"])
        chosen = -negamax(after)
        expected = {2: "blunder", 1: "mistake"}.get(best - chosen, "best|keeps")
        assert ply["grade"] in expected.split("|")
        assert position["value"] == (best if TTT.to_move(state) == 0 else -best)
        assert all(-negamax(TTT.play(state, m)) == best for m in ply["best"])
        state = after
    assert any(p["grade"] in ("mistake", "blunder") for p in review["plies"])
    # The yardstick's measure: per side, the positions where some move loses value, and the kept ones.
    state, measure = TTT.initial(), [[0, 0], [0, 0]]
    for ply in review["plies"]:
        here = negamax(state)
        results = [-negamax(TTT.play(state, m)) for m in TTT.legal_moves(state)]
        if here >= 0 and min(results) < here:
            measure[ply["side"]][0] += 1
            measure[ply["side"]][1] += int(-negamax(TTT.play(state, ply["move"])) == here)
        state = TTT.play(state, ply["move"])
    assert [[m["positions"], m["keeps"]] for m in review["measure"]] == measure
    records = client.get("/api/records").json()
    assert records == [] or all(r["game"] for r in records)


def test_a_finished_game_in_the_store_can_be_reviewed(client: TestClient) -> None:
    view = start(client, "tictactoe", ["human", "menace"], seed=9)
    while not view["over"]:
        view = move(client, view["id"], view["legal_moves"][0])
    [record] = client.get("/api/records?game=tictactoe").json()
    review = client.get(f"/api/records/{record['id']}/review").json()
    assert review["moves"] == view["moves"] and len(review["plies"]) == len(view["moves"])
    assert refused(client.get("/api/records/999999/review"), 404)


def test_teeko_review_without_its_table_says_how_to_build_it(client: TestClient) -> None:
    view = start(client, "teeko", ["human", "human"])
    review = client.get(f"/api/games/{view['id']}/review").json()
    assert not review["available"] and "gamelearn solve teeko" in review["reason"]
    status = client.get("/api/tables/teeko").json()
    assert status["buildable"] and not status["ready"] and not status["building"]
    assert client.get("/api/tables/tictactoe").json()["ready"]


def test_a_table_build_reports_its_progress_until_done(client: TestClient, app) -> None:  # type: ignore[no-untyped-def]
    """The build job's plumbing, with a builder that reports the real build's stages and waits for
    the test between them (the real Teeko build takes tens of seconds: tests/solver/test_solve_teeko*)."""
    step = threading.Semaphore(0)
    seen = threading.Semaphore(0)

    def builder(progress) -> None:  # type: ignore[no-untyped-def]
        for stage, done, total in [("counting moves", 1, 1), ("retrograde analysis", 5, 6), ("placing phase", 3, 4)]:
            step.acquire()
            progress(stage, done, total)
            seen.release()
        step.acquire()  # done when the test says so

    app.state.service.tables.builders["teeko"] = builder
    client.get("/")  # a build is started for a browser that has its cookie
    first = client.post("/api/tables/teeko/build").json()
    assert first["building"] and first["fraction"] == 0
    fractions = []
    for _ in range(3):
        step.release()
        seen.acquire()
        fractions.append(client.get("/api/tables/teeko").json()["fraction"])
    assert fractions == sorted(fractions) and 0 < fractions[0] < fractions[-1] < 1
    step.release()
    while client.get("/api/tables/teeko").json()["building"]:
        time.sleep(0.01)
    assert "needs no table" in refused(client.post("/api/tables/tictactoe/build"), 400)


def test_a_learner_that_resigns_and_a_repetition_are_said_as_such(client: TestClient) -> None:
    from gamelearn import make_player

    perfect = make_player(TTT, "perfect", seed=1)
    for seed in range(100):  # a perfect X empties MENACE's boxes until one is empty when it is asked
        view = start(client, "tictactoe", ["human", "menace"], seed=seed)
        while not view["over"]:
            state = TTT.initial()
            for played in view["moves"]:
                state = TTT.play(state, played)
            view = move(client, view["id"], perfect.choose(state))
        if view["end"] == "resign":
            break
    else:
        pytest.fail("MENACE never resigned in 100 games against a perfect X")
    assert view["winner"] == 0 and view["result"] == "MENACE resigns: its box is empty"
    view = start(client, "teeko", ["human", "human"])
    for square in ["00", "44", "02", "43", "20", "34", "31", "40"] + ["0001", "4433", "0100", "3344"] * 2:
        view = move(client, view["id"], square)
    assert view["end"] == "repetition" and view["result"] == "Draw by repetition"


def test_room_is_made_from_idle_browsers_finished_games_first() -> None:
    import time as clock
    from types import SimpleNamespace

    from gamelearn.web.sessions import GameTable, TableFull

    table = GameTable(per_owner=5, total=3, idle_seconds=60)
    games = {
        name: SimpleNamespace(owner=owner, id=name, over=over, touched=0.0)
        for name, owner, over in [("a1", "A", True), ("b1", "B", True), ("c1", "C", False)]
    }
    for game in games.values():
        table.add(game)  # type: ignore[arg-type]
    table._seen["B"] = clock.monotonic() - 120  # B has not been seen for two minutes: idle
    table.add(SimpleNamespace(owner="D", id="d1", over=False, touched=0.0))  # type: ignore[arg-type]
    assert table.get("B", "b1") is None and table.get("A", "a1") is not None  # the idle one went
    table.add(SimpleNamespace(owner="E", id="e1", over=False, touched=0.0))  # type: ignore[arg-type]
    assert table.get("A", "a1") is None  # then any finished game
    with pytest.raises(TableFull):  # nobody puts out a game in progress whose browser is not idle
        table.add(SimpleNamespace(owner="F", id="f1", over=False, touched=0.0))  # type: ignore[arg-type]
    table._seen["C"] = clock.monotonic() - 120
    table.add(SimpleNamespace(owner="F", id="f1", over=False, touched=0.0))  # type: ignore[arg-type]
    assert table.get("C", "c1") is None and table.get("D", "d1") is not None  # an idle one goes, for anyone
