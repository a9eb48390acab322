"""How long Connect Four's exact solver takes a position: CPU seconds to the exact value and
distance of positions reached by seeded random play, each searched from an empty transposition
table (the cold case: a perfect player in a game has the table of its earlier moves).

    python benchmarks/bench_connect4.py --positions 200 --plies 8-20 --seed 1

prints the median, the 90th percentile and the worst, overall and for each ply, and with --json one
JSON object.  With --best it times a perfect player's question instead: the position's value and
distance and its best moves (``best_moves``), on one table.  A position is drawn by playing random
moves from the start up to a ply drawn uniformly from the range; a game that ends sooner is drawn
again.  The positions depend only on --seed and --plies, so the first 200 of a 1,000-position run
are the positions of a 200-position run.  --moves times given positions instead (a game as its
columns, ``4453``), e.g. the first plies; --first N starts at the N-th position of the draw, so a run
can be split across processes:

    python benchmarks/bench_connect4.py --best --plies 8 --positions 1000 --seed 2
    python benchmarks/bench_connect4.py --best --moves 4444 --moves 3344

Every figure is CPU seconds of this process (``time.process_time``): run it on one core.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from gamelearn import get_game
from gamelearn.solver.connect4 import Connect4Solution


def draw_position(game, rng: random.Random, plies: int):  # type: ignore[no-untyped-def]
    while True:
        state = game.initial()
        for _ in range(plies):
            if game.is_over(state):
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
        if not game.is_over(state) and (state[0] | state[1]).bit_count() == plies:
            return state


def position_of(game, moves: str):  # type: ignore[no-untyped-def]
    state = game.initial()
    for move in moves:
        state = game.play(state, move)
    return len(moves), state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--plies", default="8-20", help="the plies of the positions, LOW-HIGH")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="connect4")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--best", action="store_true", help="time best_moves (every move's outcome), as perfect asks")
    parser.add_argument("--moves", action="append", help="a position to time, as its columns (4453); repeatable")
    parser.add_argument(
        "--first",
        type=int,
        default=0,
        help="start at this position of the seeded draw (to split a run across processes)",
    )
    args = parser.parse_args()
    low, _, high = args.plies.partition("-")
    plies_range = range(int(low), int(high or low) + 1)
    game = get_game(args.game)
    solution = Connect4Solution(game)  # type: ignore[arg-type]
    searcher = solution.searcher
    rng = random.Random(args.seed)
    solution.best_moves(position_of(game, "4444443333332222")[1])  # numba compiles or loads the kernels: untimed
    rows = []
    given = [position_of(game, moves) for moves in args.moves or []]
    if given:
        plies_range = range(min(p for p, _ in given), max(p for p, _ in given) + 1)
    for index in range(len(given) or args.first + args.positions):
        if given:
            plies, state = given[index]
        else:
            plies = rng.choice(plies_range)
            state = draw_position(game, rng, plies)
            if index < args.first:
                continue
        searcher.clear()  # a cold table for each position
        solution._kept.clear()
        before = searcher.searched
        started = time.process_time()
        if args.best:
            solution.best_moves(state)
        value, distance = solution.outcome(state)
        cpu = time.process_time() - started
        rows.append(
            {"ply": plies, "cpu_s": cpu, "nodes": searcher.searched - before, "value": value, "distance": distance}
        )
        if not args.json:
            print(
                f"{index:4d} ply {plies:2d}: {cpu:7.3f} CPU s, {rows[-1]['nodes']:>11,} positions, value {value} in {distance}",
                flush=True,
            )
    times = sorted(row["cpu_s"] for row in rows)
    label = ", ".join(args.moves) if given else args.plies

    def summary(values: list[float]) -> dict[str, float]:
        values = sorted(values)
        return {
            "count": len(values),
            "median_cpu_s": statistics.median(values),
            "p90_cpu_s": values[int(0.9 * (len(values) - 1))],
            "worst_cpu_s": values[-1],
            "over_1_cpu_s": sum(v > 1.0 for v in values),
        }

    by_ply = {
        ply: summary([row["cpu_s"] for row in rows if row["ply"] == ply])
        for ply in plies_range
        if any(row["ply"] == ply for row in rows)
    }
    report = {
        "game": game.spec,
        "seed": args.seed,
        "plies": label,
        "asked": "best_moves" if args.best else "outcome",
        "all": summary(times),
        "by_ply": by_ply,
    }
    if args.json:
        print(json.dumps(report))
        return
    overall = report["all"]
    print(
        f"{game.spec}, {report['asked']} of {overall['count']} positions of plies {label} (seed {args.seed}): median "
        f"{overall['median_cpu_s']:.3f}, 90th percentile {overall['p90_cpu_s']:.3f}, worst {overall['worst_cpu_s']:.3f} "
        f"CPU s; {overall['over_1_cpu_s']} over 1 CPU s"
    )
    for ply, facts in by_ply.items():
        print(
            f"  ply {ply:2d}: {facts['count']:3d} positions, median {facts['median_cpu_s']:.3f}, "
            f"worst {facts['worst_cpu_s']:.3f} CPU s, {facts['over_1_cpu_s']} over 1 s"
        )


if __name__ == "__main__":
    main()
