"""gamelearn next to the tools game-AI people already use, on tic-tac-toe: only what a user calls.

    python benchmarks/peers.py           # 10,000 games a row
    python benchmarks/peers.py --quick   # 1,000 games a row

Three tasks, each row timed (fastest of ``--repeat`` runs, default 3) on this machine, with the
ratio of its time to our fastest row of the same task (a ratio above 1 means the peer is that many
times slower):

1. the full solve, cold: ``gamelearn.solve`` in a fresh process (every reachable position's value
   and distance; nothing interned or cached yet) next to OpenSpiel's ``alpha_beta_search`` in a
   fresh process (the root value only), each timed inside its process after its imports; and
   easyAI's ``solve_with_iterative_deepening`` with a transposition table, in this process;
2. N uniformly random games: ours through a plain loop over ``legal_moves`` / ``play`` /
   ``is_over`` beside OpenSpiel's same loop over ``pyspiel`` states (``legal_actions`` /
   ``apply_action`` / ``is_terminal``), both drawing with ``random.Random``; then ours through
   ``play_game`` (records, repetition counts), OpenSpiel's ``evaluate_bots`` (its C++ game loop),
   PettingZoo's ``tictactoe_v3.raw_env``, easyAI;
3. N self-play training games of a tabular learner: our ``td`` and ``menace`` through the public
   API, MENACE's fast path (what ``gamelearn menace --against self`` runs), OpenSpiel's
   ``tabular_qlearner`` (two Q-learners, as its own tic_tac_toe_qlearner example trains them).

Every peer is used the fastest way its public API allows (easyAI's own ``play()`` deep-copies
every position into a history, so its games are played with the same calls in a plain loop).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import gamelearn

Row = tuple[str, float | None, str]


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

COLD_OURS = """
import time, gamelearn
game = gamelearn.get_game("tictactoe")
start = time.perf_counter()
solution = gamelearn.solve(game)
value = solution.value(game.initial())
print(time.perf_counter() - start, value, solution.reachable)
"""

COLD_OPENSPIEL = """
import time, pyspiel
from open_spiel.python.algorithms.minimax import alpha_beta_search
game = pyspiel.load_game("tic_tac_toe")
start = time.perf_counter()
value, action = alpha_beta_search(game)
print(time.perf_counter() - start, value)
"""


def in_fresh_process(program: str) -> tuple[float, list[str]]:
    """(seconds the program timed, the rest of its line): a fresh interpreter, nothing warm."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        if "ModuleNotFoundError" in done.stderr:
            raise ImportError(name=done.stderr.strip().splitlines()[-1])
        raise RuntimeError(done.stderr.strip().splitlines()[-1])
    seconds, *rest = done.stdout.split()
    return float(seconds), rest


def cold_rows() -> list[Row]:
    """The two cold solves, run in alternation, each the fastest of REPEAT fresh processes."""
    best = {"ours": float("inf"), "openspiel": float("inf")}
    notes = {"ours": "", "openspiel": ""}
    missing = ""
    for _ in range(REPEAT):
        seconds, (value, reachable) = in_fresh_process(COLD_OURS)
        best["ours"] = min(best["ours"], seconds)
        notes["ours"] = f"value {value}, {reachable} positions solved"
        try:
            seconds, (value,) = in_fresh_process(COLD_OPENSPIEL)
        except ImportError as error:
            missing = f"not installed ({error.name})"
            continue
        best["openspiel"] = min(best["openspiel"], seconds)
        notes["openspiel"] = f"value {float(value):g} (root only)"
    return [
        ("gamelearn.solve (ours, cold)", best["ours"], notes["ours"]),
        ("OpenSpiel alpha_beta_search (cold)", None if missing else best["openspiel"], missing or notes["openspiel"]),
    ]


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


# 2. Random games ------------------------------------------------------------------------------


def loop_rows(n: int) -> list[Row]:
    """Our plain loop and OpenSpiel's, in alternation, each the fastest of REPEAT runs."""
    rows = {"ours": float("inf"), "openspiel": float("inf")}
    notes = {"ours": "", "openspiel": ""}
    missing = ""
    for _ in range(REPEAT):
        start = time.perf_counter()
        notes["ours"] = random_ours_loop(n)
        rows["ours"] = min(rows["ours"], time.perf_counter() - start)
        try:
            start = time.perf_counter()
            notes["openspiel"] = random_openspiel_loop(n)
            rows["openspiel"] = min(rows["openspiel"], time.perf_counter() - start)
        except ImportError as error:
            missing = f"not installed ({error.name})"
    return [
        ("ours: legal_moves/play/is_over loop", rows["ours"], notes["ours"]),
        ("OpenSpiel: the same loop (pyspiel)", None if missing else rows["openspiel"], missing or notes["openspiel"]),
    ]


def random_ours_loop(n: int) -> str:
    game = gamelearn.get_game("tictactoe")
    rng = random.Random(1)
    wins = 0
    for _ in range(n):
        state = game.initial()
        while not game.is_over(state):
            state = game.play(state, rng.choice(game.legal_moves(state)))
        wins += game.winner(state) == 0
    return f"X won {wins / n:.1%}"


def random_openspiel_loop(n: int) -> str:
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


def random_ours_api(n: int) -> str:
    game = gamelearn.get_game("tictactoe")
    players = [gamelearn.make_player(game, "random", seed=1), gamelearn.make_player(game, "random", seed=2)]
    wins = sum(gamelearn.play_game(game, players, learn=False).winner == 0 for _ in range(n))
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


def train_menace_api(n: int) -> str:
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

    print(f"tic-tac-toe, {n:,} games a row, fastest of {REPEAT} runs")
    print_table(
        "1. full solve",
        [*cold_rows(), attempt("easyAI iterative deepening + TT", solve_easyai)],
        {"gamelearn.solve (ours, cold)"},
    )
    print_table(
        f"2. {n:,} random games",
        [
            *loop_rows(n),
            attempt("ours: play_game (public API)", lambda: random_ours_api(n)),
            attempt("OpenSpiel evaluate_bots", lambda: random_openspiel_evaluate_bots(n)),
            attempt("PettingZoo tictactoe_v3.raw_env", lambda: random_pettingzoo(n)),
            attempt("easyAI TicTacToe", lambda: random_easyai(n)),
        ],
        {"ours: legal_moves/play/is_over loop", "ours: play_game (public API)"},
    )
    print_table(
        f"3. {n:,} self-play training games of a tabular learner",
        [
            attempt("ours: td (public API)", lambda: train_td_api(n)),
            attempt("ours: menace (public API)", lambda: train_menace_api(n)),
            attempt("ours: menace fast path", lambda: train_menace_fast(n)),
            attempt("OpenSpiel tabular_qlearner", lambda: train_openspiel_qlearner(n)),
        ],
        {"ours: td (public API)", "ours: menace (public API)", "ours: menace fast path"},
    )


if __name__ == "__main__":
    main()
