"""Games against perfect play from seeded random openings: the measure the Connect Four literature
reports for its learners (GBG's TD-n-tuple agent against AlphaBetaDL, moving first; Thill, Koch and
Konen 2012; Bagheri et al. 2016), for any game with an exact solution.

Each opening is a few uniformly random plies drawn with a seed, and its exact value is known
before the game starts.  Moving first on Connect Four (a first-player win, Allis 1988), only
openings that are a win for the player's side are kept, so every game it does not win is its own
mistake: ``won`` of ``games`` is the measure, ``short`` counts the games that ended below the
opening's value for it.  Moving second, the openings are drawn as they come and each game is
measured against its opening's value the same way.  ``perfect`` keeps the value, wins fastest and
postpones a loss longest (:mod:`gamelearn.players.perfect`).

The perfect player and the openings' values come from one :class:`~gamelearn.solver.Solution`,
the project's own by default; any other exact solution of the game can take its place (the
benchmarks give an independent solver's: ``benchmarks/connect4_bitbully.py``).
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..games import Game
from ..match import Match
from ..players.base import Player
from ..players.perfect import PerfectPlayer
from ..solver import Solution, solve
from .grading import graded_player
from .statistics import wilson

#: The plies a game may last (Connect Four's board fills in 42).
MAX_PLIES = 200


def random_openings(
    game: Game[Any], count: int, plies: int, seed: int, side: int, won_only: bool, solution: Solution
) -> list[tuple[tuple[str, ...], int]]:
    """``count`` openings of ``plies`` uniformly random moves (an opening that ends the game is
    drawn again), each with its exact value for ``side``; with ``won_only``, only those ``side``
    wins.  The same arguments give the same openings.  ValueError where no such opening turns up
    in 100 draws a wanted one."""
    rng = random.Random(f"openings:{game.spec}:{seed}:{plies}")
    found: list[tuple[tuple[str, ...], int]] = []
    draws = 0
    while len(found) < count:
        draws += 1
        if draws > 100 * count:
            raise ValueError(f"no {plies}-ply opening of {game.spec} won by side {side} in {draws - 1} draws")
        state, moves = game.initial(), list[str]()
        while len(moves) < plies and not game.is_over(state):
            move = rng.choice(game.legal_moves(state))
            state = game.play(state, move)
            moves.append(move)
        if game.is_over(state):
            continue
        value = solution.value(state)
        if game.to_move(state) != side:
            value = -value
        if won_only and value <= 0:
            continue
        found.append((tuple(moves), value))
    return found


def against_perfect(
    game: Game[Any],
    player: Player[Any] | str,
    side: int,
    games: int,
    plies: int = 2,
    seed: int = 0,
    won_only: bool | None = None,
    solution: Solution | None = None,
) -> dict[str, Any]:
    """``player`` (a player, or a spec made frozen and greedy, a kept learner loaded from the
    store) as ``side`` (0 moves first) against ``perfect`` over ``games`` seeded random openings
    of ``plies`` plies, each opening's value known first (``won_only``, by default when moving
    first: only openings ``side`` wins).  ``solution`` (by default the game's own) is the perfect
    player's and gives the openings' values.
    Returns the games won, drawn, lost, those that fell short of the opening's value (``short``,
    and ``shortfalls``: each one's opening, value, result and the moves played after the opening,
    so that it can be replayed), the share won with its 95% Wilson interval, the CPU seconds of
    this process the games took (the openings' solving left out) and the player's own CPU seconds
    a move (mean and worst)."""
    if side not in (0, 1):
        raise ValueError(f"side is 0 (moving first) or 1 (moving second), not {side!r}")
    solution = solution or solve(game)
    if isinstance(player, str):
        player = graded_player(game, player, seed=seed)
    won_only = side == 0 if won_only is None else won_only
    openings = random_openings(game, games, plies, seed, side, won_only, solution)
    won = drawn = lost = short = 0
    shortfalls: list[dict[str, Any]] = []
    own: list[float] = []  # the player's CPU seconds, move by move
    cpu = time.process_time()
    for index, (opening, value) in enumerate(openings):
        oracle: Player[Any] = PerfectPlayer(game, seed=seed + index, solution=solution)
        seats: list[Player[Any]] = [player, oracle] if side == 0 else [oracle, player]
        match = Match(game, seats, seed=seed + 2 * index, max_plies=MAX_PLIES, learn=False, opening=opening)
        while match.end is None:
            mine = match.to_move == side
            started = time.process_time()
            match.advance()
            if mine:
                own.append(time.process_time() - started)
        winner = match.winner
        result = 0 if winner is None else 1 if winner == side else -1
        won, drawn, lost = won + (result > 0), drawn + (result == 0), lost + (result < 0)
        if result < value:
            short += 1
            shortfalls.append(
                {
                    "opening": "".join(opening),
                    "value": value,
                    "result": result,
                    "plies": match.plies,
                    "moves": "".join(match.moves),
                }
            )
    cpu = time.process_time() - cpu
    interval = wilson(won, len(openings))
    return {
        "game": game.spec,
        "spec": player.spec,
        "side": "first" if side == 0 else "second",
        "plies": plies,
        "seed": seed,
        "games": len(openings),
        "openings_won": sum(value > 0 for _, value in openings),
        "openings_drawn": sum(value == 0 for _, value in openings),
        "openings_lost": sum(value < 0 for _, value in openings),
        "won": won,
        "drawn": drawn,
        "lost": lost,
        "short": short,
        "won_share": interval.estimate,
        "won_low": interval.low,
        "won_high": interval.high,
        "cpu_seconds": cpu,
        "moves": len(own),
        "move_cpu_mean": sum(own) / len(own) if own else 0.0,
        "move_cpu_worst": max(own, default=0.0),
        "shortfalls": shortfalls,
    }
