"""The rules' cost per call, over positions of seeded random games: ``is_over``, ``legal_moves`` and
``play`` of each game, in nanoseconds (the fastest of 7 runs of 3 passes over 2,000 positions).

    python benchmarks/bench_calls.py [LABEL]

Run it against another checkout with ``PYTHONPATH=that/src`` to compare (docs/foundation.md).
"""

from __future__ import annotations

import random
import sys
import timeit

import gamelearn


def per_call(name: str, positions: int = 2000) -> str:
    game = gamelearn.get_game(name)
    rng = random.Random(5)
    pairs = []
    while len(pairs) < positions:
        state = game.initial()
        plies = 0
        while not game.is_over(state) and plies < 200:
            move = rng.choice(game.legal_moves(state))
            pairs.append((state, move))
            state = game.play(state, move)
            plies += 1
    pairs = pairs[:positions]
    states = [state for state, _ in pairs]
    legal_moves, play, is_over = game.legal_moves, game.play, game.is_over

    def nanoseconds(work) -> float:  # type: ignore[no-untyped-def]
        return min(timeit.repeat(work, number=3, repeat=7)) / 3 / len(pairs) * 1e9

    return (
        f"{name}: is_over {nanoseconds(lambda: [is_over(s) for s in states]):.0f} ns, "
        f"legal_moves {nanoseconds(lambda: [legal_moves(s) for s in states]):.0f} ns, "
        f"play {nanoseconds(lambda: [play(s, m) for s, m in pairs]):.0f} ns"
    )


if __name__ == "__main__":
    label = sys.argv[1] if len(sys.argv) > 1 else "gamelearn"
    print(label, " | ".join(per_call(name) for name in ("tictactoe", "hexapawn", "teeko")))
