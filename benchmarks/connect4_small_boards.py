"""Connect Four's search against the exhaustive solver on every position of the small boards:
4x4 (161,029 positions) and 5x4 (3,945,711), the value and the distance of each.  The test suite
searches all of 4x4 and every 20th position of 5x4; this is the whole check.

    python benchmarks/connect4_small_boards.py [--size connect4:columns=5,rows=4]

Prints, for each board, the positions compared, those that disagree (none, or the run fails) and
the CPU seconds (``time.process_time``) of the exhaustive solve and of the search.
"""

from __future__ import annotations

import argparse
import time

from gamelearn import get_game
from gamelearn.solver.connect4 import Connect4Solution
from gamelearn.solver.exhaustive import ExhaustiveSolution

SIZES = ("connect4:columns=4,rows=4", "connect4:columns=5,rows=4")


def check(size: str) -> int:
    game = get_game(size)
    started = time.process_time()
    exhaustive = ExhaustiveSolution(game)
    positions = list(exhaustive.positions())
    solved = time.process_time() - started
    searched = Connect4Solution(game, table_bits=20)
    started = time.process_time()
    wrong = sum(searched.outcome(position) != exhaustive.outcome(position) for position in positions)
    spent = time.process_time() - started
    print(
        f"{size}: {len(positions):,} positions, {wrong} disagree; exhaustive {solved:.1f} CPU s, search {spent:.1f} CPU s"
    )
    return wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", action="append", choices=SIZES, help="a board (default: both)")
    args = parser.parse_args()
    if sum(check(size) for size in args.size or SIZES):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
