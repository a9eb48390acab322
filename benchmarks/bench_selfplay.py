"""How fast the ``ntuple`` learner's self-play runs: games and plies a CPU second of this process,
warm (after a first batch compiles the kernels), from a trained learner's weights, so that the
games are as long as that learner's.  Prints figures and asserts nothing.

    python benchmarks/bench_selfplay.py s12-hour-s1.json --batches 15
    python benchmarks/bench_selfplay.py --game hexapawn --batches 100

``RUN``: a ``yardstick_teeko.py`` run file, whose knowledge (weights, layout and schedule) the
learner starts from; without one, an untrained learner of ``--game``.  The digest printed last is
of the weights and temporal-coherence sums after the games: two versions of the kernels that play
the same games from the same start print the same digest, so a faster kernel is checked to learn
exactly what the plain one did before its speed is compared.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path

import gamelearn
from gamelearn.players.registry import make_player


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, nargs="?", help="a yardstick_teeko.py run file to start from")
    parser.add_argument("--game", default="teeko")
    parser.add_argument("--batches", type=int, default=15, help="batches of self-play (Teeko: 200 games each)")
    args = parser.parse_args()
    game = gamelearn.get_game(args.game)
    knowledge = json.loads(args.run.read_text())["knowledge"] if args.run else None
    layout = f":layout={knowledge['layout']}" if knowledge and "layout" in knowledge else ""
    learner = make_player(game, "ntuple" + layout, seed=0)
    if knowledge is not None:
        learner.load(knowledge)
    trainer = learner.trainer
    trainer.compile()  # outside the measure
    start, games = time.process_time(), trainer.games
    plies = learner.self_play(args.batches)
    seconds, games = time.process_time() - start, trainer.games - games
    digest = hashlib.sha256(trainer.weights.tobytes() + trainer.coherence.tobytes()).hexdigest()[:16]
    print(f"{trainer.layout.name}: {games:,} games, {plies / games:.1f} plies a game")
    print(f"{games / seconds:,.0f} games and {plies / seconds:,.0f} plies a CPU second (warm)")
    print(f"weights after: {digest}")


if __name__ == "__main__":
    main()
