"""The ``ntuple`` learner on Connect Four (7x6): its compiled self-play's speed, and a kept
learner's games moving first against a fixed opponent.  Prints figures and asserts nothing.

    python benchmarks/connect4_ntuple.py speed --games 20000 [--name a5]
    python benchmarks/connect4_ntuple.py match --name a5 --search 0 --opponent alphabeta:depth=4,eval=none --games 100

``speed``: a fresh learner (seed 1), or with ``--name`` the one kept under that name, plays ``--games`` self-play games in batches of the game's
size after one batch to warm up (numba compiled and the weights' pages touched); games and
plies per CPU second of this process (``time.process_time``) and per wall second.

``match``: the learner kept under ``--name`` in the store, frozen (``train=off``) with
``search=S`` plies (0: the raw network), moves first in ``--games`` games against
``--opponent``; game ``i`` opens with two random plies drawn from ``random.Random(seed + i)``
(the same openings for every learner, so the figures compare), and the opponent is reseeded each
game.  ``--seed`` picks the set of openings: the validation runs use seed 1000, the reported ones
seed 0.  Games won, drawn and lost, and the learner's CPU seconds a move (mean and worst).
"""

from __future__ import annotations

import argparse
import random
import time

import gamelearn
from gamelearn.match import Match
from gamelearn.players.ntuple.player import NtuplePlayer


def speed(games: int, name: str) -> None:
    game = gamelearn.get_game("connect4")
    player = NtuplePlayer(game, seed=1)
    if name:  # from a kept learner's weights: games as long as a trained learner's
        player.load(gamelearn.make_player(game, f"ntuple:name={name},train=off", seed=0).knowledge())
    trainer = player.trainer
    trainer.compile()
    player.self_play(1)  # warm: one batch
    before = trainer.games, trainer.positions
    cpu, wall = time.process_time(), time.perf_counter()
    while trainer.games - before[0] < games:
        player.self_play(1)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    played, plies = trainer.games - before[0], trainer.positions - before[1]
    print(f"{played} games, {plies} plies ({plies / played:.1f} a game, batches of {trainer.settings.games_per_batch})")
    print(f"{played / cpu:,.0f} games / CPU s, {plies / cpu:,.0f} plies / CPU s ({cpu:.1f} CPU s, {wall:.1f} wall s)")


def match(name: str, search: int, opponent: str, games: int, seed: int) -> None:
    game = gamelearn.get_game("connect4")
    learner = gamelearn.make_player(game, f"ntuple:name={name},train=off,search={search}", seed=0)
    won = drawn = lost = 0
    worst, spent, moves = 0.0, 0.0, 0
    for i in range(games):
        rng = random.Random(seed + i)
        state, opening = game.initial(), []
        for _ in range(2):
            move = rng.choice(game.legal_moves(state))
            opening.append(move)
            state = game.play(state, move)
        other = gamelearn.make_player(game, opponent, seed=seed + i)
        m = Match(game, [learner, other], seed=seed + i, learn=False, opening=opening)
        while m.end is None:
            mine = game.to_move(m.state) == 0
            started = time.process_time()
            m.advance()
            if mine:
                took = time.process_time() - started
                spent, moves, worst = spent + took, moves + 1, max(worst, took)
        winner = game.winner(m.state)
        won, drawn, lost = won + (winner == 0), drawn + (winner is None), lost + (winner == 1)
    print(
        f"{name} search={search} first vs {opponent}, {games} games (openings seed {seed}): "
        f"won {won}, drawn {drawn}, lost {lost}; CPU s a move: mean {spent / max(1, moves):.4f}, worst {worst:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("speed", "match"))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--name", default="")
    parser.add_argument("--search", type=int, default=0)
    parser.add_argument("--opponent", default="alphabeta:depth=4,eval=none")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.what == "speed":
        speed(args.games, args.name)
    else:
        match(args.name, args.search, args.opponent, args.games, args.seed)


if __name__ == "__main__":
    main()
