"""gamelearn next to the tools game-AI people already use, on tic-tac-toe (issue 6, point 3).

    python benchmarks/peers.py           # 10,000 games a row
    python benchmarks/peers.py --quick   # 1,000 games a row

Three tasks, each row timed (fastest of ``--repeat`` runs, default 3) on this machine, with the ratio of its time to our fastest row
of the same task (a ratio above 1 means the peer is that many times slower):

1. the full solve: ours (``gamelearn.solve``: every reachable position's value and distance; and
   the solve kernel of experiments/kernels.py, the same values and distances for every board),
   easyAI's ``solve_with_iterative_deepening`` with a transposition table, OpenSpiel's
   ``alpha_beta_search`` (the root value);
2. N uniformly random games: ours through the public API (``play_game``) and through the batch
   kernel (``experiments/kernels.py``, the same games), OpenSpiel through its Python API and
   through ``evaluate_bots`` (its C++ game loop), PettingZoo's ``tictactoe_v3.raw_env``, easyAI;
3. N self-play training games of a tabular learner: our ``td`` through the public API and through
   the kernel (the same table), our ``menace`` (through the public API and its fast path) where
   players/matchbox.py is present, OpenSpiel's ``tabular_qlearner`` (two Q-learners, as its own
   tic_tac_toe_qlearner example trains them).

Every peer is used the fastest way its public API allows (easyAI's own ``play()`` deep-copies
every position into a history, so its games are played with the same calls in a plain loop).
numba compile time is excluded (the kernels are warmed up first; numba caches them on disk).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import gamelearn

Row = tuple[str, float | None, str]


def timed(function: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


#: Each row runs this many times and keeps its fastest (timeit's rule: the others measure the noise
#: of a shared machine).  Set by --repeat.
REPEAT = 3


def attempt(name: str, function: Callable[[], str]) -> Row:
    """Run one row REPEAT times, keep the fastest; a peer that is not installed is reported, not fatal."""
    best = float("inf")
    note = ""
    try:
        for _ in range(REPEAT):
            start = time.perf_counter()
            note = function()
            best = min(best, time.perf_counter() - start)
        return name, best, note
    except ImportError as error:
        return name, None, f"not installed ({error.name})"


# 1. The full solve ----------------------------------------------------------------------------


def solve_ours() -> str:
    from gamelearn.solve.exhaustive import ExhaustiveSolution

    solution = ExhaustiveSolution(gamelearn.get_game("tictactoe"))  # fresh: gamelearn.solve caches
    return f"value {solution.value(solution.game.initial())}, {solution.reachable} positions solved"


def solve_ours_kernel() -> str:
    from gamelearn.experiments.kernels import board_index, solve_all

    values, distances = solve_all()
    start = board_index(".........")
    return f"value {values[start]}, {int((distances > -2).sum())} boards solved (values and distances)"


def solve_easyai() -> str:
    from easyAI import AI_Player, Negamax, TranspositionTable, solve_with_iterative_deepening
    from easyAI.games import TicTacToe

    class TicTacToeTT(TicTacToe):
        def ttentry(self) -> tuple[int, ...]:  # what easyAI's docs ask a game to add for its table
            return (*self.board, self.current_player)

    game = TicTacToeTT([AI_Player(Negamax(1)), AI_Player(Negamax(1))])
    table = TranspositionTable()
    result, depth, move = solve_with_iterative_deepening(game, range(1, 10), win_score=100, tt=table, verbose=False)
    return f"value {result}, {len(table.d)} table entries"


def solve_openspiel() -> str:
    import pyspiel
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    value, action = alpha_beta_search(pyspiel.load_game("tic_tac_toe"))
    return f"value {value:g} (root only)"


# 2. Random games ------------------------------------------------------------------------------


def random_ours_api(n: int) -> str:
    game = gamelearn.get_game("tictactoe")
    players = [gamelearn.make_player(game, "random", seed=1), gamelearn.make_player(game, "random", seed=2)]
    wins = sum(gamelearn.play_game(game, players, learn=False).winner == 0 for _ in range(n))
    return f"X won {wins / n:.1%}"


def random_ours_kernel(n: int) -> str:
    from gamelearn.experiments.kernels import random_games

    results, _ = random_games(n, 1, 2)  # the same games as the row above
    return f"X won {float((results == 0).mean()):.1%}"


def random_openspiel_python(n: int) -> str:
    import pyspiel

    game = pyspiel.load_game("tic_tac_toe")
    rng = random.Random(1)
    wins = 0
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        wins += state.returns()[0] > 0
    return f"X won {wins / n:.1%}"


def random_openspiel_evaluate_bots(n: int) -> str:
    import pyspiel

    game = pyspiel.load_game("tic_tac_toe")
    bots = [pyspiel.make_uniform_random_bot(0, 1), pyspiel.make_uniform_random_bot(1, 2)]
    wins = 0
    for seed in range(n):
        wins += pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)[0] > 0
    return f"X won {wins / n:.1%}"


def import_pettingzoo_tictactoe() -> Any:
    """PettingZoo's tictactoe_v3.  Its module imports pygame at the top for its "human" and
    "rgb_array" rendering only; raw_env without a render mode never touches it.  Where pygame is not
    installed, an empty stand-in module lets the import go through (said in the row's note)."""
    import importlib.util
    import sys
    import types

    stand_in = importlib.util.find_spec("pygame") is None
    if stand_in:
        sys.modules["pygame"] = types.ModuleType("pygame")
    try:
        from pettingzoo.classic import tictactoe_v3
    finally:
        if stand_in:
            del sys.modules["pygame"]
    return tictactoe_v3, stand_in


def random_pettingzoo(n: int) -> str:
    tictactoe_v3, stand_in = import_pettingzoo_tictactoe()

    env = tictactoe_v3.raw_env()
    rng = random.Random(1)
    wins = 0
    for _ in range(n):
        env.reset()
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                wins += agent == "player_1" and reward > 0  # X is player_1 in PettingZoo
                env.step(None)
                continue
            env.step(rng.choice(observation["action_mask"].nonzero()[0].tolist()))
    return f"X won {wins / n:.1%}" + (" (pygame absent: stand-in module for the import)" if stand_in else "")


def random_easyai(n: int) -> str:
    from easyAI.games import TicTacToe

    rng = random.Random(1)
    wins = 0
    for _ in range(n):
        game = TicTacToe([None, None])
        while not game.is_over():
            game.make_move(rng.choice(game.possible_moves()))
            game.switch_player()
        wins += game.lose() and game.opponent_index == 1  # the side that just moved won
    return f"X won {wins / n:.1%}"


# 3. Tabular learners ---------------------------------------------------------------------------


def train_td_api(n: int) -> str:
    from gamelearn.players.td import TDPlayer

    game = gamelearn.get_game("tictactoe")
    player = TDPlayer(game, seed=1)
    for _ in range(n):
        gamelearn.play_game(game, [player, player])
    return f"{len(player.values)} positions"


def train_td_kernel(n: int) -> str:
    from gamelearn.experiments.kernels import td_selfplay

    table, _ = td_selfplay(n, 1)  # the same table as the row above
    return f"{int(table.seen.sum())} positions"


def train_menace_api(n: int) -> str:
    import importlib.util

    if importlib.util.find_spec("gamelearn.players.matchbox") is None:
        raise ImportError(name="gamelearn.players.matchbox")
    game = gamelearn.get_game("tictactoe")
    menace = gamelearn.make_player(game, "menace", seed=1)
    for seed in range(n):
        gamelearn.play_game(game, [menace, menace], seed=seed)
    return "self-play"


def train_menace_fast(n: int) -> str:
    from gamelearn.players.matchbox_fast import train_menace

    training = train_menace(range(n), opponent="self")
    return f"{len(training.boxes)} boxes"


def train_openspiel_qlearner(n: int) -> str:
    import numpy as np
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner

    np.random.seed(1)  # QLearner's exploration draws from numpy's global generator
    env = rl_environment.Environment("tic_tac_toe")
    actions = env.action_spec()["num_actions"]
    agents = [tabular_qlearner.QLearner(player_id=i, num_actions=actions) for i in range(2)]
    for _ in range(n):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            step = env.step([agents[player].step(step).action])
        for agent in agents:
            agent.step(step)
    return f"{sum(len(a._q_values) for a in agents)} states"


def print_table(title: str, rows: list[Row], ours: set[str]) -> None:
    best = min(seconds for name, seconds, _ in rows if name in ours and seconds is not None)
    print(f"\n{title}")
    print(f"  {'':34} {'seconds':>9} {'x ours':>8}  note")
    for name, seconds, note in rows:
        if seconds is None:
            print(f"  {name:34} {'-':>9} {'-':>8}  {note}")
        else:
            print(f"  {name:34} {seconds:9.4f} {seconds / best:8.1f}  {note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="1,000 games a row instead of 10,000")
    parser.add_argument("--games", type=int, default=None, help="games a row (overrides --quick)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each row; the fastest is kept (default 3)")
    args = parser.parse_args()
    n = args.games or (1_000 if args.quick else 10_000)
    global REPEAT
    REPEAT = max(1, args.repeat)

    from gamelearn.experiments import kernels

    compile_time, _ = timed(lambda: (kernels.random_games(2, 1, 2), kernels.td_selfplay(2, 1), kernels.solve_all()))
    print(
        f"tic-tac-toe, {n:,} games a row, fastest of {REPEAT} runs; numba kernels ready in {compile_time:.2f} s (not counted)"
    )

    print_table(
        "1. full solve",
        [
            attempt("gamelearn.solve (ours)", solve_ours),
            attempt("ours: solve kernel", solve_ours_kernel),
            attempt("easyAI iterative deepening + TT", solve_easyai),
            attempt("OpenSpiel alpha_beta_search", solve_openspiel),
        ],
        {"gamelearn.solve (ours)", "ours: solve kernel"},
    )
    print_table(
        f"2. {n:,} random games",
        [
            attempt("ours: play_game (public API)", lambda: random_ours_api(n)),
            attempt("ours: batch kernel", lambda: random_ours_kernel(n)),
            attempt("OpenSpiel Python API", lambda: random_openspiel_python(n)),
            attempt("OpenSpiel evaluate_bots", lambda: random_openspiel_evaluate_bots(n)),
            attempt("PettingZoo tictactoe_v3.raw_env", lambda: random_pettingzoo(n)),
            attempt("easyAI TicTacToe", lambda: random_easyai(n)),
        ],
        {"ours: play_game (public API)", "ours: batch kernel"},
    )
    print_table(
        f"3. {n:,} self-play training games of a tabular learner",
        [
            attempt("ours: td (public API)", lambda: train_td_api(n)),
            attempt("ours: td kernel", lambda: train_td_kernel(n)),
            attempt("ours: menace (public API)", lambda: train_menace_api(n)),
            attempt("ours: menace fast path", lambda: train_menace_fast(n)),
            attempt("OpenSpiel tabular_qlearner", lambda: train_openspiel_qlearner(n)),
        ],
        {"ours: td (public API)", "ours: td kernel", "ours: menace (public API)", "ours: menace fast path"},
    )


if __name__ == "__main__":
    main()
