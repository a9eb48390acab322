"""How fast are the rules?  For each game: random games per second through the public API, and
legal-move generations per second over positions sampled from random games.

    python benchmarks/bench_rules.py [--seconds S] [--repeat R] [--seed N]

A random game here is the loop every player and experiment runs: ``initial``, then ``is_over``,
``legal_moves``, ``play`` until the game ends (Teeko: or 200 plies, the default cap of play_game).
A second figure runs the same games through ``play_game`` with two random players, which adds the
record and the repetition count.  Each figure is the fastest of ``--repeat`` runs, since a shared
machine's other jobs only ever slow a run down.  Figures depend on the machine; docs/foundation.md
gives ours.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import gamelearn
from gamelearn.match import DEFAULT_MAX_PLIES

GAMES = ("tictactoe", "hexapawn", "teeko")


def random_game(game: gamelearn.Game, rng: random.Random, max_plies: int) -> int:
    state = game.initial()
    plies = 0
    while not game.is_over(state) and plies < max_plies:
        state = game.play(state, rng.choice(game.legal_moves(state)))
        plies += 1
    return plies


def rate(work: Callable[[], int], seconds: float, repeat: int = 1) -> tuple[float, float]:
    """(calls per second, units per second) of ``work`` (which returns its units) over ``seconds``,
    the fastest of ``repeat`` runs."""
    return max(_rate_once(work, seconds / repeat) for _ in range(repeat))


def _rate_once(work: Callable[[], int], seconds: float) -> tuple[float, float]:
    calls = units = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        units += work()
        calls += 1
        elapsed = time.perf_counter() - start
    return calls / elapsed, units / elapsed


def sample_positions(game: gamelearn.Game, rng: random.Random, count: int) -> list:
    positions = []
    while len(positions) < count:
        state = game.initial()
        plies = 0
        while not game.is_over(state) and plies < 60:
            positions.append(state)
            state = game.play(state, rng.choice(game.legal_moves(state)))
            plies += 1
    return positions[:count]


def bench_game(name: str, seconds: float, seed: int, repeat: int) -> tuple[float, float, float, float]:
    """(random games/s through the API, plies/s, games/s through play_game, legal_moves calls/s)."""
    game = gamelearn.get_game(name)
    rng = random.Random(seed)
    games_per_s, plies_per_s = rate(lambda: random_game(game, rng, DEFAULT_MAX_PLIES), seconds, repeat)
    players = [gamelearn.make_player(game, "random", seed=seed), gamelearn.make_player(game, "random", seed=seed + 1)]
    matches_per_s, _ = rate(lambda: gamelearn.play_game(game, players, learn=False).plies, seconds, repeat)
    positions = sample_positions(game, random.Random(seed), 1000)

    def generate_all() -> int:
        for state in positions:
            game.legal_moves(state)
        return len(positions)

    _, generations_per_s = rate(generate_all, seconds, repeat)
    return games_per_s, plies_per_s, matches_per_s, generations_per_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (all its runs)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement; the fastest is shown")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game':<10} {'games/s (API loop)':>19} {'plies/s':>10} {'games/s (play_game)':>20} {'legal_moves/s':>14}")
    for name in GAMES:
        games, plies, matches, generations = bench_game(name, args.seconds, args.seed, args.repeat)
        print(f"{name:<10} {games:>19,.0f} {plies:>10,.0f} {matches:>20,.0f} {generations:>14,.0f}")


if __name__ == "__main__":
    main()
