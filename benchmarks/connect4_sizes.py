"""The empty board of each Connect Four size the search takes, solved from nothing (no opening book,
no solved positions kept from before, an empty transposition table of the default 2^18 slots):
its value for the first player, the ply the game ends on with best play, and the CPU seconds
(``time.process_time``) of the search alone.

    python benchmarks/connect4_sizes.py [--size 6x5 ...] [--limit 180]
    python benchmarks/connect4_sizes.py --size 7x6 --first-moves --limit 900

``--first-moves``: each first move of the size instead (the position after one disc in each
column, the mirror images left out), its value for the first player and the ply its game ends on;
for 7x6 the published values are a win in the middle column only, draws beside it and losses in
the four outer columns (Allis 1988; John Tromp's table; Pascal Pons' scores -2 -1 0 1 0 -1 -2).

Each size is solved in a fresh process, one after the other (never two at once, so the CPU times
are one process's), stopped by the kernel once it has spent ``--limit`` CPU seconds
(``RLIMIT_CPU``).  tests/solver/test_connect4_sizes.py checks the values against John Tromp's
published table for the sizes that take a few CPU seconds at most; docs/connect4.md gives the
figures.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys

from gamelearn.solver.connect4 import fits

#: Every size the game takes (4 to 9 columns, 4 to 8 rows) whose bitboard the search takes, the
#: smallest boards first.
SIZES = sorted(((c, r) for c in range(4, 10) for r in range(4, 9) if fits(c, r)), key=lambda s: (s[0] * s[1], s))

CHILD = """
import json, sys, time
from gamelearn import get_game
from gamelearn.solver.connect4 import Connect4Solution

columns, rows, opening = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
warm = get_game("connect4:columns=4,rows=4")  # loads the compiled kernels outside the clock
Connect4Solution(warm, table_bits=12).outcome(warm.initial())
game = get_game(f"connect4:columns={columns},rows={rows}")
solution = Connect4Solution(game)
state = game.initial()
for column in opening:
    state = game.play(state, column)
started = time.process_time()
value, distance = solution.outcome(state)
if len(opening) % 2:  # the second player moves: the first player's value, and the ply of the end
    value = -value
distance = None if distance is None else distance + len(opening)
spent = time.process_time() - started
print(json.dumps({"value": value, "distance": distance, "cpu_s": spent, "searched": solution.searcher.searched}))
"""


def solve(columns: int, rows: int, limit: int, opening: str = "") -> dict | None:  # type: ignore[type-arg]
    """The child's report, or None where it ran out of CPU seconds."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (limit, limit))

    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(columns), str(rows), opening],
        capture_output=True,
        text=True,
        preexec_fn=cap,
        check=False,
    )
    if done.returncode != 0:
        if done.returncode < 0:  # SIGXCPU or SIGKILL: the limit
            return None
        raise SystemExit(f"{columns}x{rows}: {done.stderr.strip().splitlines()[-1]}")
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def first_moves(columns: int, rows: int, limit: int) -> None:
    """Each first move of the size, one column of each mirror pair, solved in its own process."""
    for column in range(1, (columns + 1) // 2 + 1):
        report = solve(columns, rows, limit, str(column))
        if report is None:
            print(f"{columns}x{rows}, first disc in column {column}: not solved within {limit} CPU s", flush=True)
            continue
        words = {1: "first player wins", 0: "draw", -1: "second player wins"}[report["value"]]
        ends = f", ends on ply {report['distance']}" if report["distance"] is not None else ""
        print(
            f"{columns}x{rows}, first disc in column {column}: {words}{ends}; "
            f"{report['cpu_s']:.2f} CPU s, {report['searched']:,} positions",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", action="append", help="columns x rows, e.g. 6x5 (default: every size)")
    parser.add_argument("--limit", type=int, default=180, help="CPU seconds a size may take (default 180)")
    parser.add_argument("--first-moves", action="store_true", help="each first move of the size, not its start")
    args = parser.parse_args()
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.size] if args.size else SIZES
    if args.first_moves:
        for columns, rows in sizes:
            first_moves(columns, rows, args.limit)
        return
    beyond: list[tuple[int, ...]] = []  # sizes that ran out: no larger board in both ways is tried
    for columns, rows in sizes:
        if any(columns >= c and rows >= r for c, r in beyond):
            print(f"{columns}x{rows}: not tried (a smaller board ran out)", flush=True)
            continue
        report = solve(columns, rows, args.limit)
        if report is None:
            print(f"{columns}x{rows}: not solved within {args.limit} CPU s", flush=True)
            beyond.append((columns, rows))
            continue
        words = {1: "first player wins", 0: "draw", -1: "second player wins"}[report["value"]]
        ends = f", ends on ply {report['distance']}" if report["distance"] is not None else ""
        print(
            f"{columns}x{rows}: {words}{ends}; {report['cpu_s']:.2f} CPU s, {report['searched']:,} positions",
            flush=True,
        )


if __name__ == "__main__":
    main()
