"""How deep ntuple's Teeko search can go inside the 1 s a move its default promises.

    python benchmarks/search_depth_teeko.py s3.json --depth 6 --depth 8 --depth 9 --depth 10 --every 10

``s3.json`` is a learner's file from ``yardstick_teeko.py train``.  For each depth, over every
``--every``-th position of ``teeko-val-v1``: the share of positions where the move keeps the
value, the CPU and wall-clock seconds a move (mean, and the longest move's wall-clock time), and
how many searches the 1 s cap stopped before the depth was finished (neither done nor a proven
result).  Where the cap stops a search, the move played depends on the machine's speed; a
default that the cap never stops plays the same move on every machine.  Needs the Teeko solution
(``gamelearn solve teeko``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import cast

import gamelearn
from gamelearn.experiments.suites import VALIDATION_NAME, get_suite
from gamelearn.players.ntuple.player import NtuplePlayer
from gamelearn.players.ntuple.search_kernels import MATE
from gamelearn.players.registry import make_player


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("learner", type=Path, help="a file of yardstick_teeko.py train")
    parser.add_argument("--depth", type=int, action="append", required=True, help="plies of search")
    parser.add_argument("--every", type=int, default=10, help="grade every N-th position of the suite")
    args = parser.parse_args()

    game = gamelearn.get_game("teeko")
    knowledge = json.loads(args.learner.read_text())["knowledge"]
    positions = get_suite(game, VALIDATION_NAME).positions[:: args.every]
    print(f"{len(positions)} positions of {VALIDATION_NAME} (every {args.every}-th), {args.learner}")
    for depth in args.depth:
        player = cast(NtuplePlayer, make_player(game, f"ntuple:train=off,search={depth}", seed=0))
        player.load(knowledge)
        player.searched(positions[0].state)  # numba's compiled kernels loaded before the clocks start
        kept = stopped = 0
        longest = 0.0
        cpu, wall = time.process_time(), time.perf_counter()
        for position in positions:
            started = time.perf_counter()
            found = player.searched(position.state)
            longest = max(longest, time.perf_counter() - started)
            kept += found.move in position.keeping
            stopped += found.depth < depth and not abs(found.score) > MATE
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(
            f"search={depth}: keeps {100 * kept / len(positions):.1f}%, {cpu / len(positions):.3f} CPU s and "
            f"{wall / len(positions):.3f} wall s a move, longest {longest:.2f} wall s, "
            f"stopped by the 1 s cap {stopped} of {len(positions)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
