"""The real server's sockets: `gamelearn serve` in a process of its own on
127.0.0.1, with small limits so that each probe is short and bounded in count.  Half-open
connections are closed (a deadline for the whole request, a connection limit), an idle keep-alive
connection too; 45 bodies trickled a byte a second from one address are bounded by the limit per
address and answered 408 at the deadline while a client at another address plays a game to its end; a forged X-Forwarded-For names no other browser's address (the same uvicorn
configuration in a thread, with a small allowance of new browsers); and the small version
of benchmarks/bench_web.py: browsers against heavy players while one plays an ordinary one,
every move answered (no timing asserted)."""

from __future__ import annotations

import importlib.util
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import httpx2 as httpx  # the test extra's client
import pytest
import uvicorn

from gamelearn.web import create_app
from gamelearn.web.server import ServerLimits, server_config
from gamelearn.web.settings import WebSettings

pytestmark = pytest.mark.slow  # `gamelearn serve` in a process of its own, probed over sockets

REPO = Path(__file__).resolve().parents[2]
HEADER_TIMEOUT = 1
MAX_CONNECTIONS = 16


@cache
def bench_web():  # type: ignore[no-untyped-def]
    """benchmarks/bench_web.py, whose server start and heavy run these tests share."""
    spec = importlib.util.spec_from_file_location("bench_web", REPO / "benchmarks" / "bench_web.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_web"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = str(tmp_path_factory.mktemp("served"))
    limits = ["--request-timeout", str(HEADER_TIMEOUT), "--keep-alive", "2"]
    process, url = bench_web().start_server(home, *limits, "--max-connections", str(MAX_CONNECTIONS))
    try:
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    assert host == "127.0.0.1"
    return host, int(port)


def closed_by_the_server(sock: socket.socket, within: float = 15.0) -> bool:
    """True once the server closes the connection (it sends nothing first to a client that sent no request)."""
    sock.settimeout(within)
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_half_open_connections_are_bounded_and_closed(server: str) -> None:
    extra = 8
    sockets = [socket.create_connection(address(server), timeout=5) for _ in range(MAX_CONNECTIONS + extra)]
    trickle = sockets[0]
    trickle.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # a head that never ends
    try:
        # Every one is closed: those past the limit at once, the others at the request's deadline,
        # the one that keeps sending header lines too (the deadline runs from its first byte), and
        # that one, which began a request, is answered 408 first.
        answer = b""
        for _ in range(12 * HEADER_TIMEOUT):
            try:
                trickle.sendall(b"X-Slow: 1\r\n")
            except OSError:
                break
            trickle.settimeout(0.25)
            try:
                answer += trickle.recv(4096)
            except TimeoutError:
                continue
            except ConnectionResetError:
                break
            if answer.startswith(b"HTTP/1.1 408 ") and closed_by_the_server(trickle):
                break
        assert answer.startswith(b"HTTP/1.1 408 "), answer
        assert all(closed_by_the_server(sock) for sock in sockets[1:])
    finally:
        for sock in sockets:
            sock.close()
    assert httpx.get(server + "/api/games", timeout=10).status_code == 200  # and the server still answers


def test_an_idle_keep_alive_connection_is_closed(server: str) -> None:
    host, port = address(server)
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(f"GET /api/tables/tictactoe HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += sock.recv(4096)
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200")
        length = int(next(line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))[15:])
        while len(body) < length:
            body += sock.recv(4096)
        assert closed_by_the_server(sock)  # kept alive, then closed when idle


def test_heavy_players_do_not_starve_an_ordinary_one(server: str) -> None:
    """The small version of benchmarks/bench_web.py's heavy run."""
    heavy = [("tictactoe", "mcts:playouts=20000")] * 3
    mine, theirs = bench_web().heavy_load(server, heavy, ("tictactoe", "menace"), moves=8, seconds=60)
    assert len(mine.seconds) == 8 and set(mine.codes) == {200}  # every ordinary move answered, none busy
    for played in theirs:
        assert played.codes and set(played.codes) == {200}  # the heavy ones queued, never refused


@contextmanager
def served_here(app: object, limits: ServerLimits | None = None) -> Iterator[str]:
    """The app behind `gamelearn serve`'s own uvicorn configuration, in a thread of this process."""
    port = bench_web().free_port()
    server = uvicorn.Server(server_config(app, "127.0.0.1", port, limits, log_config=None))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started and thread.is_alive():
            time.sleep(0.01)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def new_browsers_from(url: str, forwarded: list[str]) -> list[int]:
    """Each a new browser (no cookie) starting a game, each claiming another address."""
    codes = []
    for claimed in forwarded:
        headers = {"X-Forwarded-For": claimed, "X-Real-IP": claimed, "Forwarded": f"for={claimed}"}
        with httpx.Client(base_url=url, timeout=10) as browser:
            answer = browser.post(
                "/api/games", json={"game": "tictactoe", "players": ["human", "human"]}, headers=headers
            )
        codes.append(answer.status_code)
    return codes


def test_a_forged_forwarded_address_is_not_believed() -> None:
    claims = [f"203.0.113.{index}" for index in range(4)]
    app = create_app(settings=WebSettings(new_owners_per_address=2))
    with served_here(app) as url:
        assert new_browsers_from(url, claims) == [200, 200, 429, 429]  # all counted as 127.0.0.1's
    # Believed only from a proxy named with --proxies (here: this machine).
    app = create_app(settings=WebSettings(new_owners_per_address=2))
    with served_here(app, ServerLimits(forwarded_allow_ips="127.0.0.1")) as url:
        assert new_browsers_from(url, claims) == [200] * 4


# Slow bodies ------------------------------------------------------------------------------------

SLOW_BODIES = 45
PER_CLIENT = 8
REQUEST_TIMEOUT = 3


class SlowBody:
    """A client at 127.0.0.2 that sends a request head declaring a 15,000-byte body, then the body
    a byte at a time; what the server sent it, and whether the server closed it."""

    def __init__(self, host: str, port: int) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.2", 0))  # another address than the player's (the loopback is 127/8)
        self.sock.settimeout(10)
        self.sock.connect((host, port))
        self.sock.setblocking(False)
        self.answer = b""
        self.closed = False
        head = (
            f"POST /api/records/review HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: text/plain\r\n"
            "Content-Length: 15000\r\n\r\n"
        )
        self.send(head.encode())

    def send(self, data: bytes) -> None:
        if not self.closed:
            try:
                self.sock.send(data)
            except BlockingIOError:
                pass
            except OSError:  # closed by the server (a reset)
                self.close()

    def poll(self) -> None:
        while not self.closed:
            try:
                data = self.sock.recv(4096)
            except BlockingIOError:
                return
            except OSError:
                self.close()
                return
            if not data:
                self.close()
                return
            self.answer += data

    def close(self) -> None:
        self.closed = True
        self.sock.close()


def test_slow_bodies_are_answered_408_and_another_client_finishes_a_game(tmp_path) -> None:  # type: ignore[no-untyped-def]
    limits = ["--request-timeout", str(REQUEST_TIMEOUT), "--max-connections", "40"]
    process, url = bench_web().start_server(str(tmp_path), *limits, "--max-per-address", str(PER_CLIENT))
    host, port = address(url)
    slow: list[SlowBody] = []
    player = bench_web().Browser(url, timeout=30)
    codes: list[int] = []
    try:
        slow = [SlowBody(host, port) for _ in range(SLOW_BODIES)]
        answer = player.post("/api/games", json={"game": "tictactoe", "players": ["human", "random"], "seed": 5})
        codes.append(answer.status_code)
        view = answer.json()
        trickled = time.monotonic()
        for _ in range(600):  # a bound on the loop, never reached: the deadline closes every slow body
            for body in slow:
                body.poll()
            if time.monotonic() - trickled >= 1:  # a byte a second to every open one
                trickled = time.monotonic()
                for body in slow:
                    body.send(b"x")
            if not view["over"]:
                # the player: a whole game through the API, while the slow bodies hold what they may
                answer = player.post(
                    f"/api/games/{view['id']}/move", json={"move": view["legal_moves"][0], "ply": len(view["moves"])}
                )
                codes.append(answer.status_code)
                if answer.status_code != 200:
                    break
                view = answer.json()
                # the pressure stays on while it plays: 45 slow bodies at all times
                slow += [SlowBody(host, port) for _ in range(SLOW_BODIES - sum(not body.closed for body in slow))]
            elif all(body.closed for body in slow):
                break
            else:
                time.sleep(0.05)
        assert view["over"] and set(codes) == {200}, codes
        assert all(body.closed for body in slow)
        answered = [body.answer for body in slow if body.answer]
        # Those held (one address's 8 at a time) got the 408, the others were closed at once.
        assert len(answered) >= PER_CLIENT
        assert all(answer.startswith(b"HTTP/1.1 408 ") and b"connection: close" in answer for answer in answered)
        assert player.get("/api/games").status_code == 200
    finally:
        for body in slow:
            body.sock.close()
        player.close()
        process.terminate()
        process.wait(timeout=10)


def held_open(url: str, count: int) -> list[bool]:
    """``count`` connections from this address, opened in turn and all held, each then sending a
    request: which were answered (the server accepts them in the order they were opened)."""
    socks = [socket.create_connection(address(url), timeout=10) for _ in range(count)]
    try:
        answered = []
        for sock in socks:
            try:
                sock.sendall(f"GET /api/games HTTP/1.1\r\nHost: {url.removeprefix('http://')}\r\n\r\n".encode())
                answered.append(sock.recv(12).startswith(b"HTTP/1.1 200"))
            except OSError:
                answered.append(False)
        return answered
    finally:
        for sock in socks:
            sock.close()


def test_connections_are_bounded_per_client_address_but_not_for_a_trusted_proxy() -> None:
    with served_here(create_app(), ServerLimits(connections_per_client=3)) as url:
        assert held_open(url, 5) == [True, True, True, False, False]
    # A proxy named with --proxies carries every browser's connections: it is not bounded so.
    with served_here(create_app(), ServerLimits(connections_per_client=3, forwarded_allow_ips="127.0.0.1")) as url:
        assert held_open(url, 5) == [True] * 5
