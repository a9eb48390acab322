"""`gamelearn serve` answers only to its own names (docs/web.md, "Its own names only"): a request
whose Host is another name (a page rebound to 127.0.0.1 by DNS sends its own) is a 400, before the
Origin check that would compare Origin with that forged Host; the loopback names and the
--allowed-hosts names, with the port, are served.  A real server process on 127.0.0.1."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator

import pytest
from test_web_reliability_server import bench_web

from gamelearn.web.guards import check_host_name, own_hosts, wrong_host

GAME = json.dumps({"game": "tictactoe", "players": ["human", "random"]})


@pytest.fixture(scope="module")
def port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    home = str(tmp_path_factory.mktemp("served"))
    process, url = bench_web().start_server(home, "--allowed-hosts", "gl.example,Other.Example.")
    try:
        yield int(url.rsplit(":", 1)[1])
    finally:
        process.terminate()
        process.wait(timeout=10)


def ask(port: int, method: str, path: str, host: str | None, origin: str | None = None) -> tuple[int, dict | str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.putrequest(method, path, skip_host=True)
        if host is not None:
            connection.putheader("Host", host)
        if origin is not None:
            connection.putheader("Origin", origin)
        body = GAME.encode() if method == "POST" else b""
        if method == "POST":
            connection.putheader("Content-Type", "application/json")
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        answer = connection.getresponse()
        text = answer.read().decode()
        kind = answer.getheader("content-type") or ""
        return answer.status, json.loads(text) if kind.startswith("application/json") else text
    finally:
        connection.close()


@pytest.mark.slow  # a real server started
def test_a_forged_host_is_a_400_before_the_origin_check(port: int) -> None:
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}", f"gl.example.evil:{port}"):
        status, body = ask(port, "POST", "/api/games", host, origin=f"http://{host}")
        assert status == 400, (host, body)
        assert isinstance(body, dict) and "this server answers to" in body["detail"] and "\n" not in body["detail"]
        assert ask(port, "GET", "/", host)[0] == 400
    assert ask(port, "GET", "/", None)[0] == 400  # no Host at all (HTTP/1.0)


@pytest.mark.slow  # a real server started
def test_the_page_and_its_changes_are_served_on_every_own_name(port: int) -> None:
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"gl.example:{port}", "gl.example"):
        status, page = ask(port, "GET", "/", host)
        assert status == 200 and "<html" in str(page).lower(), host
        status, game = ask(port, "POST", "/api/games", host, origin=f"http://{host}")
        assert status == 200 and isinstance(game, dict) and game["game"] == "tictactoe", (host, game)
    assert ask(port, "GET", "/", f"OTHER.example:{port}")[0] == 200  # a name is case-blind


def test_the_names_allowed() -> None:
    allowed = own_hosts("0.0.0.0", 8000, ("Gl.Example", "::1", "10.0.0.7"))
    assert {"127.0.0.1:8000", "localhost:8000", "[::1]:8000", "gl.example:8000", "10.0.0.7:8000"} <= allowed
    assert "0.0.0.0:8000" not in allowed and "localhost" not in allowed  # a port other than 80 is sent
    assert "localhost" in own_hosts("127.0.0.1", 80)
    assert wrong_host("LOCALHOST:8000", allowed) is None and wrong_host(None, None) is None
    for bad in ("a b", "x/y", "host:8000", "", "-x"):
        with pytest.raises(ValueError, match="--allowed-hosts"):
            check_host_name(bad)
