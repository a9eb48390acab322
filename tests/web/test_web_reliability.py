"""The web server one local client cannot starve or lock, in process: changes
from another origin refused, table builds one at a time for a browser with its cookie, a store
locked by another process during a move (503, the move undone; lesson, record and game kept in one
transaction), heavy players in a lane of their own queued first come, and az's search bounded
from the same table the picker reads.  The real server's sockets: test_web_reliability_server.py."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace

import pytest
from web_support import TestClient, move, refused, start

from gamelearn import get_game, make_player
from gamelearn.keeper import Keeper
from gamelearn.match import End, GameRecord
from gamelearn.web import create_app
from gamelearn.web.learners import browser_learner
from gamelearn.web.pool import Lane, PoolFull
from gamelearn.web.sessions import Seat
from gamelearn.web.settings import WebSettings
from gamelearn.web.work import check_web_work, heavy_work

# Cross-origin changes ---------------------------------------------------------------------------


def test_a_change_from_another_origin_is_refused_and_changes_nothing(client: TestClient) -> None:
    view = start(client, "tictactoe", ["human", "human"])
    path = f"/api/games/{view['id']}/move"
    for headers in (
        {"Origin": "http://evil.example"},
        {"Origin": "http://testserver:8001"},  # another port of the same host: same site, not same origin
        {"Origin": "null"},  # a sandboxed frame or a file
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
    ):
        detail = refused(client.post(path, json={"move": "4"}, headers=headers), 403)
        assert "own page" in detail
    assert refused(client.delete(f"/api/games/{view['id']}", headers={"Origin": "http://evil.example"}), 403)
    assert client.get(f"/api/games/{view['id']}").json()["moves"] == []  # nothing was played
    # Reads from anywhere, and changes from the page itself (or from a script, which sends no Origin).
    assert client.get(f"/api/games/{view['id']}", headers={"Origin": "http://evil.example"}).status_code == 200
    own = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    assert client.post(path, json={"move": "4"}, headers=own).status_code == 200
    assert len(move(client, view["id"], "0")["moves"]) == 2


# Table builds -----------------------------------------------------------------------------------


def test_a_table_build_needs_the_cookie_and_one_build_runs_at_a_time(app) -> None:  # type: ignore[no-untyped-def]
    release = threading.Event()
    builds: list[str] = []

    def builder(name: str):  # type: ignore[no-untyped-def]
        def build(progress) -> None:  # type: ignore[no-untyped-def]
            builds.append(name)
            release.wait(30)

        return build

    tables = app.state.service.tables
    tables.builders.update({"teeko": builder("teeko"), "teeko:goals=advanced": builder("advanced")})
    with TestClient(app) as browser:
        assert "cookie" in refused(browser.post("/api/tables/teeko/build"), 403)  # a script's request
        assert browser.post("/api/tables/teeko/build").json()["building"]  # the 403 gave it a cookie
        assert browser.post("/api/tables/teeko/build").json()["building"]  # the same build, not a second
        other = browser.post("/api/tables/teeko:goals=advanced/build")
        assert "being built" in refused(other, 409) and other.headers["retry-after"]
        release.set()
        while browser.get("/api/tables/teeko").json()["building"]:
            release.wait(0.01)
        assert browser.post("/api/tables/teeko:goals=advanced/build").status_code == 200
    assert builds[:2] == ["teeko", "advanced"] and len(builds) == 2


# A locked store ---------------------------------------------------------------------------------


@contextmanager
def write_lock_held(path: object) -> Iterator[None]:
    """Another process's write transaction on the store, as a `teeko batch` holds one."""
    other = sqlite3.connect(str(path), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def replayed(row: dict) -> GameRecord:  # type: ignore[type-arg]
    """The stored record as a GameRecord, its positions played again by the rules."""
    game = get_game(row["game"])
    states = [game.initial()]
    for item in row["moves"]:
        states.append(game.play(states[-1], item))
    return GameRecord(
        row["game"], tuple(row["players"]), tuple(row["moves"]), tuple(states), row["winner"], End(row["end"])
    )


def test_a_locked_store_answers_503_undoes_the_move_and_keeps_lesson_record_and_game_together() -> None:
    app = create_app(settings=WebSettings(store_wait_seconds=0.1))
    store = app.state.store
    hexapawn = get_game("hexapawn")
    with TestClient(app) as client:
        view = start(client, "hexapawn", ["human", "her"], seed=7)  # HER loses this one
        owner = client.cookies["gamelearn_id"]
        path = f"/api/games/{view['id']}/move"
        locked_answers = 0
        while not view["over"]:
            choice = sorted(view["legal_moves"])[0]
            with write_lock_held(store.path):
                answer = client.post(path, json={"move": choice})
                assert answer.status_code == 503 and int(answer.headers["retry-after"]) >= 1
                assert "\n" not in answer.json()["detail"] and "try again" in answer.json()["detail"]
                assert client.get(f"/api/games/{view['id']}").json()["moves"] == view["moves"]  # undone
                locked_answers += 1
            stored = store.load_web_game(owner, view["id"])
            assert stored is not None and stored["moves"] == view["moves"] and not store.records(owner=owner)
            view = move(client, view["id"], choice)  # the same move again, once the lock is gone
        assert locked_answers >= 2  # the last move among them
    rows = store.records(owner=owner)
    assert len(rows) == 1 and rows[0]["moves"] == view["moves"]  # the game kept once, as played
    assert rows[0]["winner"] == 0  # HER lost: its lesson takes a bead out
    assert store.load_web_game(owner, view["id"])["end"] == view["end"]
    # The lesson kept is the oracle's: a fresh HER taught the recorded game from its side, once.
    oracle = make_player(hexapawn, "her")
    oracle.learn(replayed(rows[0]), 1)
    kept = browser_learner(hexapawn, "her")
    assert kept is not None and Keeper(store, owner).attach(kept)
    assert kept.knowledge() == oracle.knowledge()


def test_a_game_started_while_the_store_is_locked_is_not_started() -> None:
    app = create_app(settings=WebSettings(store_wait_seconds=0.1))
    with TestClient(app) as client:
        client.get("/")
        with write_lock_held(app.state.store.path):
            answer = client.post("/api/games", json={"game": "tictactoe", "players": ["menace", "human"]})
            assert answer.status_code == 503 and answer.headers["retry-after"]
        assert len(app.state.service.table) == 0
        assert len(start(client, "tictactoe", ["menace", "human"])["moves"]) == 1


def test_a_write_waiting_for_the_lock_never_holds_up_another_browsers_reads() -> None:
    app = create_app(settings=WebSettings(store_wait_seconds=5))
    writer = app.state.store
    with TestClient(app) as mover, TestClient(app) as other:
        view = start(mover, "tictactoe", ["human", "human"])
        start(other, "tictactoe", ["human", "human"])
        answers = []
        with write_lock_held(writer.path):
            moving = threading.Thread(
                target=lambda: answers.append(mover.post(f"/api/games/{view['id']}/move", json={"move": "4"}))
            )
            moving.start()
            while writer._lock.acquire(blocking=False):  # until the move waits for the lock, holding the writer
                writer._lock.release()
                threading.Event().wait(0.001)
            for path in ("/api/records", "/api/learners", "/api/chart?game=tictactoe"):
                assert other.get(path).status_code == 200
            assert moving.is_alive()  # the reads were answered while the move was still waiting
        moving.join(30)
        assert answers[0].status_code == 200 and answers[0].json()["moves"] == ["4"]


# Lanes ------------------------------------------------------------------------------------------


def seats(game_name: str, spec: str) -> tuple[Seat, Seat]:
    game = get_game(game_name)
    return Seat("human", make_player(game, "human")), Seat(spec, make_player(game, spec))


def test_big_searches_are_heavy_and_small_ones_ordinary() -> None:
    ordinary = WebSettings().ordinary_work
    for game_name, spec, heavy in [
        ("tictactoe", "mcts:playouts=100", False),
        ("tictactoe", "mcts:playouts=20000", True),
        ("teeko", "mcts:playouts=2000", True),
        ("teeko", "alphabeta:depth=2", False),
        ("teeko", "alphabeta:depth=4", True),
        ("tictactoe", "menace", False),
        ("teeko", "thesis", False),
    ]:
        assert heavy_work(get_game(game_name), seats(game_name, spec), ordinary) is heavy, spec
    az = SimpleNamespace(is_human=False, options={}, simulations=0)  # any az move evaluates a network
    assert heavy_work(
        get_game("tictactoe"), (Seat("human", make_player(get_game("tictactoe"), "human")), Seat("az", az)), ordinary
    )  # type: ignore[arg-type]


def test_az_simulations_are_bounded_by_the_table_the_picker_reads(client: TestClient) -> None:
    bound = WebSettings().work_bounds["simulations"]["teeko"]
    teeko = next(g for g in client.get("/api/games").json() if g["name"] == "teeko")
    az = next(p for p in teeko["players"] if p["name"] == "az")
    assert next(o for o in az["options"] if o["name"] == "simulations")["max"] == bound
    player = SimpleNamespace(options={"simulations": bound + 1}, simulations=bound + 1)
    with pytest.raises(ValueError, match=f"simulations={bound + 1} is too large \\(at most {bound} for teeko"):
        check_web_work(get_game("teeko"), player)  # type: ignore[arg-type]
    check_web_work(get_game("teeko"), SimpleNamespace(options={}, simulations=bound))  # type: ignore[arg-type]


def test_a_heavy_lane_takes_the_waiting_in_the_order_they_came() -> None:
    lane = Lane(workers=1, queue=3, wait_seconds=30, retry_after=5)
    order: list[str] = []
    threads = []

    def wait_then_work(name: str) -> None:
        with lane.slot():
            order.append(name)

    with lane.slot():  # the one worker busy
        for count, name in enumerate("ABC", start=1):
            threads.append(threading.Thread(target=wait_then_work, args=(name,)))
            threads[-1].start()
            while lane.waiting < count:  # each in line before the next comes
                threading.Event().wait(0.001)
        with pytest.raises(PoolFull) as full:  # a fourth finds the queue full: 503 at once
            with lane.slot():
                pass
        assert full.value.retry_after == 5
    for thread in threads:
        thread.join(10)
    assert order == ["A", "B", "C"]


def test_an_ordinary_move_never_waits_behind_heavy_ones() -> None:
    app = create_app(
        settings=WebSettings(move_workers=1, move_wait_seconds=5, heavy_workers=1, heavy_wait_seconds=0.05)
    )
    pool = app.state.service.pool
    with TestClient(app) as ordinary, TestClient(app) as heavy:
        light = start(ordinary, "tictactoe", ["human", "menace"], seed=1)
        big = start(heavy, "tictactoe", ["human", "mcts:playouts=6000"], seed=1)
        with pool.slot("another browser", heavy=True):  # the heavy lane's one worker is busy
            answer = heavy.post(f"/api/games/{big['id']}/move", json={"move": "4"})
            assert answer.status_code == 503 and answer.headers["retry-after"]  # waited its time, then 503
            assert len(move(ordinary, light["id"], "4")["moves"]) == 2  # the ordinary lane is free
        assert len(move(heavy, big["id"], "4")["moves"]) == 2


# The command ------------------------------------------------------------------------------------


def test_serve_warns_when_the_page_is_open_to_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn
    from typer.testing import CliRunner

    from gamelearn.cli.main import app as cli
    from gamelearn.web import server
    from gamelearn.web.server import open_to_the_network

    configs = []
    real_config = server.server_config

    def quiet_config(*args: object, **options: object) -> uvicorn.Config:  # uvicorn's logging left alone
        configs.append(real_config(*args, log_config=None, **options))  # type: ignore[arg-type]
        return configs[-1]

    class NotListening:  # nothing listens: the test reads what serve says and what it would run
        def __init__(self, config: uvicorn.Config) -> None:
            self.started = False

        def run(self) -> None:
            self.started = True

    monkeypatch.setattr(server, "server_config", quiet_config)
    monkeypatch.setattr(uvicorn, "Server", NotListening)
    # settle() freezes what the process holds out of the garbage collector's full passes: for
    # the server's own process, not this test's (test_web_page_side.py runs it in a process)
    monkeypatch.setattr("gamelearn.web.warmup.settle", lambda: None)
    monkeypatch.setattr("socket.socket.bind", lambda sock, where: None)  # nor is anything bound
    result = CliRunner().invoke(cli, ["serve", "--host", "0.0.0.0", "--port", "8765", "--no-warm-up"])
    assert result.exit_code == 0, result.output
    assert "open to the network" in result.output
    assert not configs[0].proxy_headers and configs[0].limit_concurrency == 256  # no forwarded header believed
    result = CliRunner().invoke(cli, ["serve", "--port", "8765", "--no-warm-up", "--proxies", "10.0.0.1"])
    assert result.exit_code == 0 and "open to the network" not in result.output
    assert configs[1].proxy_headers and configs[1].forwarded_allow_ips == "10.0.0.1"
    bad = CliRunner().invoke(cli, ["serve", "--proxies", "10.0.0.1,proxy!"])
    assert bad.exit_code == 2 and "'proxy!' is not an IP address" in bad.output
    assert [open_to_the_network(h) for h in ("127.0.0.1", "::1", "localhost", "0.0.0.0", "192.168.1.5", "")] == [
        False,
        False,
        False,
        True,
        True,
        True,
    ]
