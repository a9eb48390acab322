"""Latency of a move in the web app under load: 1, 8 and 32 browsers at once, each playing a
person's moves against ``menace`` (tic-tac-toe) and against ``thesis`` (Teeko), whose p50 at 8
browsers should be under 30 ms; then 8 browsers against the heaviest players the server allows
while one more plays ``menace``, whose p99 should stay under a second (docs/web.md, "Speed under
load").  Prints figures, asserts nothing.

    python benchmarks/bench_web.py [--moves 30] [--clients 1,8,32] [--heavy-seconds 60] [--skip-ordinary] [--skip-heavy]

The server is `gamelearn serve` in a process of its own (default settings: the ordinary lane of
computer moves and the heavy lane, one move in flight per browser), on a fresh data directory;
each client is a thread with its own cookie (its own browser), timing every
`POST /api/games/{id}/move` from send to answer, which includes the computer's reply.  A 503
(busy) is counted and retried after Retry-After.  tests/web/test_web_reliability_server.py runs
a small version of the heavy run (`heavy_load`) and checks only that every move was answered.

Each client is a :class:`Browser`: one keep-alive connection of the standard library's
``http.client``, the owner cookie the server sets sent back, gzip asked for and undone, as a
browser does: httpx would spend about 2 ms of CPU a move in this process, on the cores the server
shares, where a real browser is another process and the client is not what is measured.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

OPPONENTS = {"menace": "tictactoe", "thesis": "teeko"}
#: The heaviest players the server allows (web/settings.py DEFAULT_WORK_BOUNDS), two browsers each.
HEAVIEST = [
    ("teeko", "mcts:playouts=10000"),
    ("teeko", "alphabeta:depth=4"),
    ("tictactoe", "mcts:playouts=20000"),
    ("tictactoe", "az:simulations=256"),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Answer:
    """An answer as a browser's script sees it: the status, the headers (lower-case names), JSON."""

    def __init__(self, status_code: int, headers: dict[str, str], body: bytes) -> None:
        self.status_code = status_code
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body)

    def raise_for_status(self) -> None:
        if self.status_code >= 400:
            raise RuntimeError(f"{self.status_code}: {self.body[:200]!r}")


class Browser:
    """One browser: one keep-alive connection, and the cookies the server set."""

    #: A connection idle this long is opened again before use (the server closes one idle 5 s).
    IDLE_SECONDS = 2.0

    def __init__(self, base_url: str, timeout: float = 60) -> None:
        where = urlsplit(base_url)
        self.host, self.port = where.hostname or "127.0.0.1", where.port or 80
        self.timeout = timeout
        self.cookies: dict[str, str] = {}
        self._connection: http.client.HTTPConnection | None = None
        self._used = 0.0

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def post(self, path: str, json: Any = None) -> Answer:
        return self.request("POST", path, json)

    def request(self, method: str, path: str, payload: Any = None) -> Answer:
        if self._connection is None or time.monotonic() - self._used > self.IDLE_SECONDS:
            self.close()
            self._connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        headers = {"Accept": "application/json", "Accept-Encoding": "gzip"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        body = None
        if payload is not None:
            body = json.dumps(payload).encode()
            headers["Content-Type"] = "application/json"
        try:
            self._connection.request(method, path, body=body, headers=headers)
            answer = self._connection.getresponse()
            data = answer.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        self._used = time.monotonic()
        for cookie in answer.msg.get_all("set-cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value.strip()
        if answer.getheader("content-encoding") == "gzip":
            data = gzip.decompress(data)
        if answer.will_close:
            self.close()
        return Answer(answer.status, {k.lower(): v for k, v in answer.getheaders()}, data)

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def start_server(home: str | None = None, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = dict(os.environ, GAMELEARN_HOME=home or tempfile.mkdtemp(prefix="gamelearn-bench-web-"))
    # --no-warm-up: az's background warm-up (a minute of CPU at start) would share the CPUs with the
    # moves timed here; in the heavy run az's first move compiles in the heavy lane instead.
    command = [sys.executable, "-m", "gamelearn.cli.main", "serve", "--port", str(port), "--no-warm-up", *options]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            probe = Browser(url, timeout=1)
            probe.get("/api/games")
            probe.close()
            return server, url
        except (OSError, http.client.HTTPException):
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                raise SystemExit("the server did not start within 60 s") from None
            time.sleep(0.2)


@dataclass
class Played:
    """What one client saw: each timed move's seconds, and every answer's status."""

    seconds: list[float] = field(default_factory=list)
    codes: list[int] = field(default_factory=list)


def play(
    client: Browser,
    game: str,
    opponent: str,
    rng: random.Random,
    out: Played,
    moves: int | None = None,
    stop: threading.Event | None = None,
) -> None:
    """A person's random legal moves against ``opponent`` until ``moves`` are timed or ``stop``."""
    view: dict = {"over": True}
    while (moves is None or len(out.seconds) < moves) and not (stop is not None and stop.is_set()):
        if view["over"]:
            answer = client.post("/api/games", json={"game": game, "players": ["human", opponent]})
            out.codes.append(answer.status_code)
            if answer.status_code == 503:
                time.sleep(int(answer.headers.get("retry-after", "1")))
                continue
            answer.raise_for_status()
            view = answer.json()
            continue
        move = rng.choice(view["legal_moves"])
        started = time.perf_counter()
        # as the page sends it: with the ply it was made on (a stale one would be a 409)
        answer = client.post(f"/api/games/{view['id']}/move", json={"move": move, "ply": len(view["moves"])})
        out.codes.append(answer.status_code)
        if answer.status_code == 503:
            time.sleep(int(answer.headers.get("retry-after", "1")))
            continue
        out.seconds.append(time.perf_counter() - started)
        answer.raise_for_status()
        view = answer.json()


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user + system) process ``pid`` has used, where /proc tells (Linux), else None."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(url: str, clients: list[Browser], opponent: str, moves: int) -> dict[str, float]:
    played = [Played() for _ in clients]
    threads = [
        threading.Thread(target=play, args=(c, OPPONENTS[opponent], opponent, random.Random(i), played[i], moves))
        for i, c in enumerate(clients)
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    every = [t for p in played for t in p.seconds]
    return {
        "median_ms": 1000 * statistics.median(every),
        "p90_ms": 1000 * quantile(every, 0.9),
        "p99_ms": 1000 * quantile(every, 0.99),
        "max_ms": 1000 * max(every),
        "moves_per_s": len(every) / wall,
        "busy_503": sum(p.codes.count(503) for p in played),
    }


def heavy_load(
    url: str, heavy: list[tuple[str, str]], ordinary: tuple[str, str], moves: int, seconds: float = 600.0
) -> tuple[Played, list[Played]]:
    """One browser per entry of ``heavy`` plays against that (game, player) while one more plays
    ``ordinary`` until it has timed ``moves`` moves (or ``seconds`` pass); then the heavy ones
    stop after their move in progress.  What the ordinary browser and each heavy one saw."""
    stop = threading.Event()
    mine, theirs = Played(), [Played() for _ in heavy]
    clients = [Browser(url, timeout=600) for _ in range(len(heavy) + 1)]
    threads = [
        threading.Thread(target=play, args=(clients[i + 1], game, spec, random.Random(i), theirs[i], None, stop))
        for i, (game, spec) in enumerate(heavy)
    ]
    for thread in threads:
        thread.start()
    try:
        time.sleep(1.0)  # the heavy moves are under way first
        deadline = threading.Timer(seconds, stop.set)
        deadline.start()
        play(clients[0], ordinary[0], ordinary[1], random.Random(99), mine, moves, stop)
        deadline.cancel()
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        for client in clients:
            client.close()
    return mine, theirs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=30, help="moves timed per client")
    parser.add_argument("--heavy-seconds", type=float, default=60, help="how long the heavy run lasts")
    parser.add_argument("--skip-ordinary", action="store_true", help="only the heavy run")
    parser.add_argument("--skip-heavy", action="store_true", help="only the ordinary runs")
    parser.add_argument("--clients", default="1,8,32", help="the ordinary runs' numbers of clients, at most 32")
    args = parser.parse_args()
    server, url = start_server()
    try:
        print(f"cpus: {os.cpu_count()}, moves timed per client: {args.moves}")
        if not args.skip_ordinary:
            # One browser per client, kept across the runs (the server limits new browsers per address).
            browsers = [Browser(url, timeout=60) for _ in range(32)]
            for opponent in OPPONENTS:
                run(url, browsers[:1], opponent, 5)  # warm-up: imports, tables, the first game
            # server CPU: the server process's CPU time over the run per timed move (the games'
            # starts included), a figure the machine's other work changes little
            print("| opponent | clients | median | p90 | p99 | max | moves/s | server CPU | 503s |")
            print("|---|---|---|---|---|---|---|---|---|")
            for opponent in OPPONENTS:
                for count in [min(32, int(n)) for n in args.clients.split(",")]:
                    before = cpu_seconds(server.pid)
                    r = run(url, browsers[:count], opponent, args.moves)
                    after = cpu_seconds(server.pid)
                    per_move = (
                        ""
                        if before is None or after is None
                        else f"{1000 * (after - before) / (count * args.moves):.1f} ms"
                    )
                    print(
                        f"| {opponent} | {count} | {r['median_ms']:.1f} ms | {r['p90_ms']:.1f} ms "
                        f"| {r['p99_ms']:.1f} ms | {r['max_ms']:.1f} ms | {r['moves_per_s']:.0f} | {per_move} "
                        f"| {r['busy_503']} |"
                    )
            for client in browsers:
                client.close()
        if args.skip_heavy:
            return
        heavy = [entry for entry in HEAVIEST for _ in range(2)]
        mine, theirs = heavy_load(url, heavy, ("tictactoe", "menace"), 100_000, args.heavy_seconds)
        print(f"\n8 browsers against the heaviest players for {args.heavy_seconds:g} s, one more against menace:")
        print("| player | moves | median | p99 | max | 503s |")
        print("|---|---|---|---|---|---|")
        rows = [("menace (ordinary)", mine)] + [(f"{g} {s}", p) for (g, s), p in zip(heavy, theirs, strict=True)]
        for label, played in rows:
            if not played.seconds:
                print(f"| {label} | 0 | | | | {played.codes.count(503)} |")
                continue
            print(
                f"| {label} | {len(played.seconds)} | {1000 * statistics.median(played.seconds):.0f} ms "
                f"| {1000 * quantile(played.seconds, 0.99):.0f} ms | {1000 * max(played.seconds):.0f} ms "
                f"| {played.codes.count(503)} |"
            )
        print(f"ordinary p99: {1000 * quantile(mine.seconds, 0.99):.0f} ms")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
