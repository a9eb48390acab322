"""Check a Connect Four opening book of the standard board against BitBully, an independent solver
(``benchmarks/connect4_bitbully.py``; AGPL, a benchmark oracle only): each position the file holds,
and its mirror image, scored by BitBully's ``score_all_moves``.  The file may be a book (the shipped
one, or one built by ``gamelearn solve connect4 --plies N --force``) or a build's half-built
``.book.partial``, whose positions are those of its deepest ply searched so far.

    python benchmarks/connect4_book_check.py src/gamelearn/solver/connect4/books/connect4-7x6.book
    python benchmarks/connect4_book_check.py ~/.local/share/gamelearn/solved/connect4-7x6.book.partial --sample 2000

The positions are enumerated by the book's own rules (``positions_by_ply``) to find each key's
position; BitBully reads them from their squares.  Prints how many were checked and how many
differ (each one that differs, with its key), and exits 1 where any does.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import gamelearn
from connect4_bitbully import BitBullySolution
from gamelearn.solver.connect4.book import Book, positions_by_ply
from gamelearn.solver.connect4.searcher import Connect4Searcher


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help="a book file or a half-built .book.partial")
    parser.add_argument("--sample", type=int, default=0, help="check this many positions, drawn by --seed (0: all)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    try:
        book = Book.from_bytes(args.path.read_bytes())
    except (OSError, ValueError) as error:
        print(f"connect4_book_check: {args.path}: {error}", file=sys.stderr)
        return 2
    game = gamelearn.get_game("connect4")
    searcher = Connect4Searcher(7, 6, table_bits=10)
    started = time.process_time()
    positions = {
        key: (own, both) for level in positions_by_ply(searcher, book.plies) for key, (own, both) in level.items()
    }
    keys = book.keys.tolist()
    missing = [key for key in keys if key not in positions]
    if missing:
        print(f"{len(missing):,} keys of the file are no unfinished position of the first {book.plies} plies")
        return 1
    if args.sample:
        keys = sorted(random.Random(args.seed).sample(keys, min(args.sample, len(keys))))
    print(f"{args.path}: {len(book):,} positions to ply {book.plies}; checking {len(keys):,} and their mirror images")
    oracle = BitBullySolution(game)
    differ = 0
    for key in keys:
        own, both = positions[key]
        discs = both.bit_count()
        x = own if discs % 2 == 0 else own ^ both
        ours = book.get(key, book.plies)
        for state in ((x, both ^ x), (searcher.mirror(x), searcher.mirror(both ^ x))):
            theirs = oracle.score(state)
            if theirs != ours:
                differ += 1
                print(f"differs: key {key}, {discs} discs: the book {ours}, BitBully {theirs}")
    print(
        f"checked {len(keys):,} positions and their mirror images: {differ} differ ({time.process_time() - started:.1f} CPU s)"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
