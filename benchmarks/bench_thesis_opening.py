"""How often the thesis program (Despotović 1999) makes, and stops, a four by placement.

    python benchmarks/bench_thesis_opening.py [--seeds N]

Plays the placement phase of N games for each pairing of ``random``, ``thesis:train=off`` and
``thesis:train=off,original=on`` (random against each thesis mode, both ways round; fixed
against fixed; random against random), collects every distinct position reached with a win in
one for the side to move, and every one where it has none and the opponent has exactly one
square that makes its four, both found by trying every placement with the rules.  Then counts the
positions where the program's placement is right (the win; the block) for each of five seeds, for
the fixed program without fix 15, with it, and the original.
"""

from __future__ import annotations

import argparse

import gamelearn
from gamelearn.games.teeko import Teeko, TeekoState
from gamelearn.thesis.engine import Settings, decide
from gamelearn.thesis.fixes import Fixes
from gamelearn.thesis.opening import OpeningHang
from gamelearn.thesis.rng import Draws, MicrosoftRand, SeededDraws

FIXED, ORIGINAL, RANDOM = "thesis:train=off", "thesis:train=off,original=on", "random"
PAIRINGS = ((RANDOM, FIXED), (FIXED, RANDOM), (RANDOM, ORIGINAL), (ORIGINAL, RANDOM), (FIXED, FIXED), (RANDOM, RANDOM))
SEEDS = range(5)


def wins(game: Teeko, state: TeekoState) -> list[str]:
    mover = game.to_move(state)
    return [m for m in game.legal_moves(state) if game.winner(game.play(state, m)) == mover]


def threats(game: Teeko, state: TeekoState) -> list[str]:
    theirs = state.o if state.to_move == 0 else state.x
    if theirs.bit_count() >= 4:  # it places no more pawns
        return []
    return [m for m in game.legal_moves(state) if game.has_four(theirs | 1 << (int(m[0]) * 5 + int(m[1])))]


def collect(game: Teeko, seeds: int) -> tuple[set[TeekoState], set[TeekoState]]:
    to_win: set[TeekoState] = set()
    to_block: set[TeekoState] = set()
    for seed in range(seeds):
        for first, second in PAIRINGS:
            players = [
                gamelearn.make_player(game, first, seed=seed),
                gamelearn.make_player(game, second, seed=seed + 100_000),
            ]
            state = game.initial()
            while game.placing(state) and game.winner(state) is None:
                if wins(game, state):
                    to_win.add(state)
                elif len(threats(game, state)) == 1:
                    to_block.add(state)
                move = players[game.to_move(state)].choose(state)
                assert move is not None
                state = game.play(state, move)
    return to_win, to_block


def right(game: Teeko, state: TeekoState, good: list[str], fixes: Fixes) -> bool:
    """The program's placement is in ``good`` for every seed."""
    side = 1 if state.to_move == 0 else -1
    n = (state.x | state.o).bit_count() + 1
    for seed in SEEDS:
        draws: Draws = MicrosoftRand(seed + 1) if fixes.is_original else SeededDraws(seed)
        try:
            decision = decide((state.x, state.o), side, n, Settings(), None, draws, fixes, goals=game.win_masks)
        except OpeningHang:
            return False
        if decision.move not in good:
            return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000, help="games per pairing (default 1000)")
    args = parser.parse_args()
    game = Teeko()  # Standard Teeko, as get_game("teeko")
    to_win, to_block = collect(game, args.seeds)
    print(f"{args.seeds} games x {len(PAIRINGS)} pairings: {len(to_win)} placement positions with a win in one,")
    print(f"{len(to_block)} with no win and one opponent four to stop")
    for label, fixes in (
        ("fixed, without fix 15", Fixes().but(placement_fours_every_goal=False)),
        ("fixed", Fixes()),
        ("original", Fixes.original()),
    ):
        won = sum(right(game, state, wins(game, state), fixes) for state in to_win)
        blocked = sum(right(game, state, threats(game, state), fixes) for state in to_block)
        print(
            f"  {label:22s} wins {won} of {len(to_win)}, blocks {blocked} of {len(to_block)} (all {len(SEEDS)} seeds)"
        )


if __name__ == "__main__":
    main()
