"""Speed of the thesis engine (the 1999 thesis): batch games per second and one two-ply search.

    python benchmarks/bench_thesis.py [--games N] [--seed S]

Prints, for N games of batch self-play (default 10,000; the brief's target is under a minute,
more than 160 games/s): fixed mode with search and learning on both sides from empty memories,
fixed mode with learning off, original mode likewise; then the mean time of one two-ply search
and of one run of the six heuristics over positions taken from those games.  The original C did
21-29 games/s with learning, 115 without (the 1999 program, measured on a 2-core machine).
"""

from __future__ import annotations

import argparse
import random
import time

from gamelearn.thesis.batch import BatchConfig, run_batch
from gamelearn.thesis.board import from_digits
from gamelearn.thesis.engine import Settings
from gamelearn.thesis.fixes import Fixes
from gamelearn.thesis.heuristics import heuristic_move, tables
from gamelearn.thesis.search import new_move_buffer, two_ply


def batch(label: str, games: int, seed: int, settings: Settings, original: bool) -> list[str]:
    run_batch(BatchConfig(games=3, first=settings, second=settings, original=original, seed=seed))  # compile
    boards: list[str] = []
    start = time.perf_counter()
    result = run_batch(BatchConfig(games=games, first=settings, second=settings, original=original, seed=seed))
    elapsed = time.perf_counter() - start
    x, d, o = result.counts()
    plies = sum(g.plies for g in result.games) / games
    print(
        f"{label:<34} {games / elapsed:8.1f} games/s  ({games} games in {elapsed:.1f} s; "
        f"X {x} / draws {d} / O {o}; {plies:.1f} plies a game; memory {len(result.first_memory)} records)"
    )
    for g in result.games[:200]:
        boards.extend(g.moves)
    return boards


def positions(count: int, seed: int) -> list[tuple[int, int]]:
    """Moving-phase positions from fixed-mode games (the boards the engine really meets)."""
    out: list[tuple[int, int]] = []
    from io import StringIO

    stream = StringIO()
    run_batch(BatchConfig(games=max(20, count // 20), seed=seed, trace=stream))
    for line in stream.getvalue().splitlines():
        if line.startswith("TRACE PLY") and " n=" in line:
            n = int(line.split(" n=")[1].split()[0])
            if n >= 9:
                out.append(from_digits(line.rsplit("b=", 1)[1]))
    random.Random(seed).shuffle(out)
    return out[:count]


def original_search_share(games: int) -> None:
    """The 1999 thesis: "the move it passed on was one of the best only 7.5% of the time (613 of 8,206)".

    Replays original-mode self-play (+h+s+l both sides, seeds 1-4) and counts the searches whose
    candidate's worst reply is the best worst reply.
    """
    from io import StringIO

    from gamelearn.thesis.board import successors
    from gamelearn.thesis.evaluation import evaluate

    searches = best = 0
    buffer = new_move_buffer()
    for seed in range(1, 5):
        stream = StringIO()
        run_batch(BatchConfig(games=games // 4, original=True, seed=seed, trace=stream))
        before = (0, 0)
        for line in stream.getvalue().splitlines():
            if not line.startswith("TRACE PLY"):
                continue
            fields = dict(item.split("=", 1) for item in line.split()[2:])
            if "sk" in fields:
                own, opp = before if fields["side"] == "+1" else before[::-1]
                _k, smax, _si, _fixed, original = two_ply(own, opp, buffer)
                src, dst = int(buffer[original, 0]), int(buffer[original, 1])
                mine = (own & ~(1 << src)) | (1 << dst)
                worst = min(evaluate(mine, (opp & ~(1 << a)) | (1 << b)) for a, b in successors(opp, mine))
                searches += 1
                best += worst == smax
            before = from_digits(fields["b"])
    print(
        f"original search's candidate among the best: {best} of {searches} searches "
        f"({100 * best / searches:.1f}%) in {games} games (the thesis: 613 of 8,206, 7.5%)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("thesis engine benchmark (figures from a 2-core machine are in docs/thesis.md)")
    both = Settings(True, True, True)
    no_learning = Settings(True, True, False)
    batch("fixed, +h+s+l both sides", args.games, args.seed, both, False)
    batch("fixed, +h+s-l both sides", args.games, args.seed, no_learning, False)
    batch("original, +h+s+l both sides", args.games, args.seed, both, True)
    batch("original, +h+s-l both sides", args.games, args.seed, no_learning, True)

    sample = positions(2000, args.seed)
    buffer = new_move_buffer()
    two_ply(*sample[0], buffer)
    start = time.perf_counter()
    for own, opp in sample:
        two_ply(own, opp, buffer)
    per_search = (time.perf_counter() - start) / len(sample)
    table, bounds = tables(Fixes())
    heuristic_move(*sample[0], table, bounds, 0)
    start = time.perf_counter()
    for own, opp in sample:
        heuristic_move(own, opp, table, bounds, 0)
    per_heuristics = (time.perf_counter() - start) / len(sample)
    print(f"one two-ply search: {per_search * 1e6:8.1f} us mean over {len(sample)} positions")
    print(f"six heuristics:     {per_heuristics * 1e6:8.1f} us mean over {len(sample)} positions")
    original_search_share(400)


if __name__ == "__main__":
    main()
