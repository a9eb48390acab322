"""Latency of a move in the web app under load (issue 12): 1, 8 and 32 browsers at once, each
playing a person's moves against ``menace`` (tic-tac-toe) and against ``thesis`` (Teeko); prints
figures, asserts nothing.

    python benchmarks/bench_web.py [--moves 30]

The server is `gamelearn serve` in a process of its own (default settings: its bounded move pool,
one move in flight per browser), on a fresh data directory; each client is a thread with its own
cookie (its own browser), timing every `POST /api/games/{id}/move` from send to answer, which
includes the computer's reply.  A 503 (pool full) is counted and retried after Retry-After.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import httpx2 as httpx  # the test extra's client (Starlette's TestClient is built on it)

OPPONENTS = {"menace": "tictactoe", "thesis": "teeko"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = dict(os.environ, GAMELEARN_HOME=tempfile.mkdtemp(prefix="gamelearn-bench-web-"))
    # --no-warm-up: az's background warm-up (a minute of CPU at start) would share the CPUs with
    # the moves timed here; no az plays in this benchmark.
    command = [sys.executable, "-m", "gamelearn.cli.main", "serve", "--port", str(port), "--no-warm-up"]
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(url + "/api/games", timeout=1)
            return server, url
        except httpx.HTTPError:
            if time.monotonic() > deadline:
                server.kill()
                raise SystemExit("the server did not start within 30 s") from None
            time.sleep(0.2)


def play(
    client: httpx.Client, opponent: str, moves: int, rng: random.Random, out: list[float], busy: list[int]
) -> None:
    """A person's random legal moves against ``opponent`` until ``moves`` are timed."""
    game = OPPONENTS[opponent]
    view: dict = {"over": True}
    while len(out) < moves:
        if view["over"]:
            view = client.post("/api/games", json={"game": game, "players": ["human", opponent]}).json()
            continue
        move = rng.choice(view["legal_moves"])
        started = time.perf_counter()
        # as the page sends it: with the ply it was made on (a stale one would be a 409)
        answer = client.post(f"/api/games/{view['id']}/move", json={"move": move, "ply": len(view["moves"])})
        if answer.status_code == 503:
            busy.append(1)
            time.sleep(int(answer.headers.get("retry-after", "1")))
            continue
        out.append(time.perf_counter() - started)
        answer.raise_for_status()
        view = answer.json()


def run(url: str, clients: list[httpx.Client], opponent: str, moves: int) -> dict[str, float]:
    timings: list[list[float]] = [[] for _ in clients]
    busy: list[int] = []
    threads = [
        threading.Thread(target=play, args=(client, opponent, moves, random.Random(i), timings[i], busy))
        for i, client in enumerate(clients)
    ]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    every = sorted(t for per in timings for t in per)
    return {
        "median_ms": 1000 * statistics.median(every),
        "p90_ms": 1000 * every[int(0.9 * (len(every) - 1))],
        "p99_ms": 1000 * every[int(0.99 * (len(every) - 1))],
        "max_ms": 1000 * every[-1],
        "moves_per_s": len(every) / wall,
        "busy_503": len(busy),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=30, help="moves timed per client")
    args = parser.parse_args()
    server, url = start_server()
    try:
        # One browser per client, kept across the runs (the server limits new browsers per address).
        browsers = [httpx.Client(base_url=url, timeout=60) for _ in range(32)]
        for opponent in OPPONENTS:
            run(url, browsers[:1], opponent, 5)  # warm-up: imports, tables, the first game
        print(f"cpus: {os.cpu_count()}, moves timed per client: {args.moves}")
        print("| opponent | clients | median | p90 | p99 | max | moves/s | 503s |")
        print("|---|---|---|---|---|---|---|---|")
        for opponent in OPPONENTS:
            for count in (1, 8, 32):
                r = run(url, browsers[:count], opponent, args.moves)
                print(
                    f"| {opponent} | {count} | {r['median_ms']:.1f} ms | {r['p90_ms']:.1f} ms | {r['p99_ms']:.1f} ms "
                    f"| {r['max_ms']:.1f} ms "
                    f"| {r['moves_per_s']:.0f} | {r['busy_503']} |"
                )
        for client in browsers:
            client.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
