"""gamelearn next to the tools game-AI people already use, on tic-tac-toe and Connect Four: only
what a user calls.

    python benchmarks/peers.py           # 7 whole processes a row; warm rows of 10,000 games
    python benchmarks/peers.py --quick   # 3 processes a row; warm rows of 1,000 games
    python benchmarks/peers.py --game connect4 --repeat 3   # Connect Four against OpenSpiel

Every figure is CPU time (user + system), the median of several runs: the machine this was written
on has 2 cores shared with other work, so wall time mostly measures the neighbours (it is shown
beside, with the load average before and after).  Ratios are to our row of the same task: above 1,
the peer takes that many times as long.

1. Whole processes (fast from the first call).  Each row is ``python -c PROGRAM`` in a
   fresh interpreter, timed from outside with ``resource.getrusage(RUSAGE_CHILDREN)``, so start-up,
   imports and the work all count; ours and OpenSpiel's (``pyspiel``, the ``peers`` extra) run in
   alternation.  Every program runs once untimed first, so the .pyc files and numba's cache exist,
   as after an install.  Rows: ``import gamelearn`` against ``import pyspiel`` (and a bare
   interpreter); 10,000 uniformly random games through the plain loop (``legal_moves`` / ``play``
   / ``is_over`` against ``legal_actions`` / ``apply_action`` / ``is_terminal``), imports
   included; the full solve (every reachable position's value and distance) against OpenSpiel's
   ``alpha_beta_search`` (the root's value only); alpha-beta's first move from the empty board to the
   end of the game (``alphabeta:depth=9``) against the same ``alpha_beta_search``.
   Then one MCTS move from the empty board (20,000 playouts: ours, numba's import and kernel cache
   included, against OpenSpiel's C++ ``MCTSBot`` with a random-rollout evaluator), and 2,000
   random games through our PettingZoo AEC environment against PettingZoo's own ``tictactoe_v3``.
2. Warm rows, inside this process once everything is imported: N random games (our loop and
   ``play_game``; OpenSpiel's loop and ``evaluate_bots``, its C++ game loop; our AEC environment
   and PettingZoo's ``tictactoe_v3.raw_env``; easyAI).
3. Warm: one MCTS move from the empty board, 2N playouts (ours compiled, our plain Python search
   through the rules' API; OpenSpiel's C++ ``MCTSBot``).
4. Warm: N self-play training games of a tabular learner (our ``td`` and ``menace``, MENACE's
   fast path, OpenSpiel's ``tabular_qlearner``).

With ``--game connect4`` the rows are Connect Four's against OpenSpiel's ``connect_four`` (7x6):
whole processes of 10,000 uniformly random games (``legal_moves`` / ``play`` / ``is_over`` against
``legal_actions`` / ``apply_action`` / ``is_terminal``, imports included) and of one MCTS move
from the empty board (2,000 playouts); then, warm, N random games and one MCTS move of 2N
playouts from the empty board (the note gives playouts a second).  Our MCTS on Connect Four is
the plain Python search through the rules' API: the compiled backend works over a small game's
numbered positions (tic-tac-toe, hexapawn), and Connect Four has 4.5 x 10^12.  That the rules
agree with OpenSpiel's move by move is a test, not a figure here
(``tests/games/test_rules_connect4.py``: 300 random games and 40 of each of five other sizes in
the quick run, 10,000 on 7x6 among the slow tests).

Every peer is used the fastest way its public API allows (easyAI's own ``play()`` deep-copies
every position into a history, so its games are played with the same calls in a plain loop).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import gamelearn

Row = tuple[str, float | None, str]

#: Runs of each row; the median is kept.  Set by --repeat (default 7 whole processes, 3 warm runs).
REPEAT = 7
WARM_REPEAT = 3


def cpu_seconds() -> float:
    """CPU time (user + system) of this process so far."""
    return time.process_time()


def attempt(name: str, function: Callable[[], str]) -> Row:
    """A warm row: ``function`` run WARM_REPEAT times in this process, the median CPU time kept; a
    peer that is not installed is reported, not fatal."""
    times = []
    note = ""
    try:
        for _ in range(WARM_REPEAT):
            start = cpu_seconds()
            note = function()
            times.append(cpu_seconds() - start)
        return name, statistics.median(times), note
    except ImportError as error:
        return name, None, f"not installed ({error.name})"


# 1. Whole processes ---------------------------------------------------------------------------

#: The programs timed as whole processes, each printing a short note on its last line.
BARE = "print('-')"
IMPORT_OURS = "import gamelearn\nprint('-')"
IMPORT_OPENSPIEL = "import pyspiel\nprint('-')"
RANDOM_OURS = """
import random, gamelearn
game = gamelearn.get_game("tictactoe")
rng = random.Random(1)
wins = 0
for _ in range(10_000):
    state = game.initial()
    while not game.is_over(state):
        state = game.play(state, rng.choice(game.legal_moves(state)))
    wins += game.winner(state) == 0
print(f"X won {wins / 10_000:.1%}")
"""
RANDOM_OPENSPIEL = """
import random, pyspiel
game = pyspiel.load_game("tic_tac_toe")
rng = random.Random(1)
wins = 0
for _ in range(10_000):
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    wins += state.returns()[0] > 0
print(f"X won {wins / 10_000:.1%}")
"""
SOLVE_OURS = """
import gamelearn
game = gamelearn.get_game("tictactoe")
solution = gamelearn.solve(game)
print(f"value {solution.value(game.initial())}, {solution.reachable} positions")
"""
#: Alpha-beta's first move from the empty board, to the end of the game (depth 9): ours searches
#: every root move that may tie the best (it draws among them), OpenSpiel's the root's value and one
#: best action.
ALPHABETA_OURS = """
import gamelearn
game = gamelearn.get_game("tictactoe")
player = gamelearn.make_player(game, "alphabeta:depth=9", seed=1)
print(f"move {player.choose(game.initial())}, {player.nodes} nodes")
"""
SOLVE_OPENSPIEL = """
import pyspiel
from open_spiel.python.algorithms.minimax import alpha_beta_search
value, action = alpha_beta_search(pyspiel.load_game("tic_tac_toe"))
print(f"value {value:g} (root only)")
"""


#: The children's environment: this one, but where PYTHONDONTWRITEBYTECODE is set (as in some
#: sandboxes) it is dropped, so the untimed first run writes the .pyc files an install would have.
CHILD_ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def whole_process(program: str) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, last line printed) of ``python -c program``, a fresh interpreter;
    ImportError where it lacks a package."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=False, env=CHILD_ENVIRONMENT
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1]
        if "ModuleNotFoundError" in last:
            raise ImportError(name=last.rpartition(" ")[2].strip("'"))
        raise RuntimeError(last)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.stdout.strip().splitlines()[-1]


#: One MCTS move from the empty board: MCTS_PLAYOUTS UCT playouts, each a random playout to the end.
MCTS_PLAYOUTS = 20_000
MCTS_OURS = f"""
import gamelearn
game = gamelearn.get_game("tictactoe")
player = gamelearn.make_player(game, "mcts:playouts={MCTS_PLAYOUTS},backend=python", seed=1)
print(f"move {{player.choose(game.initial())}}")
"""
MCTS_OPENSPIEL = f"""
import pyspiel
game = pyspiel.load_game("tic_tac_toe")
bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2 ** 0.5, {MCTS_PLAYOUTS}, 1000, False, 1, False)
print(f"move {{bot.step(game.new_initial_state())}}")
"""
#: 2,000 random games through a PettingZoo AEC environment: ours, and PettingZoo's own tictactoe_v3.
ENV_GAMES = 2_000
ENV_LOOP = f"""
rng = random.Random(1)
for _ in range({ENV_GAMES}):
    env.reset()
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else rng.choice(observation["action_mask"].nonzero()[0].tolist()))
print("{ENV_GAMES} games")
"""
ENV_OURS = "import random\nfrom gamelearn.envs.aec import raw_env\nenv = raw_env('tictactoe')\n" + ENV_LOOP
ENV_PETTINGZOO = (
    "import importlib.util, random, sys, types\n"
    "if importlib.util.find_spec('pygame') is None:  # imported for rendering only; raw_env never uses it\n"
    "    sys.modules['pygame'] = types.ModuleType('pygame')\n"
    "from pettingzoo.classic import tictactoe_v3\nenv = tictactoe_v3.raw_env()\n" + ENV_LOOP
)

SOLVE_EASYAI = """
from easyAI import AI_Player, Negamax, TranspositionTable, solve_with_iterative_deepening
from easyAI.games import TicTacToe

class TicTacToeTT(TicTacToe):
    def ttentry(self):  # what easyAI's docs ask a game to add for its table
        return (*self.board, self.current_player)

game = TicTacToeTT([AI_Player(Negamax(1)), AI_Player(Negamax(1))])
table = TranspositionTable()
result, depth, move = solve_with_iterative_deepening(game, range(1, 10), win_score=100, tt=table, verbose=False)
print(f"value {result}, {len(table.d)} table entries")
"""

#: Connect Four: uniformly random games, and one MCTS move from the empty board, as whole processes.
C4_GAMES = 10_000
C4_PLAYOUTS = 2_000
C4_RANDOM_OURS = f"""
import random, gamelearn
game = gamelearn.get_game("connect4")
rng = random.Random(1)
wins = 0
for _ in range({C4_GAMES}):
    state = game.initial()
    while not game.is_over(state):
        state = game.play(state, rng.choice(game.legal_moves(state)))
    wins += game.winner(state) == 0
print(f"X won {{wins / {C4_GAMES}:.1%}}")
"""
C4_RANDOM_OPENSPIEL = f"""
import random, pyspiel
game = pyspiel.load_game("connect_four")
rng = random.Random(1)
wins = 0
for _ in range({C4_GAMES}):
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    wins += state.returns()[0] > 0
print(f"X won {{wins / {C4_GAMES}:.1%}}")
"""
C4_MCTS_OURS = f"""
import gamelearn
game = gamelearn.get_game("connect4")
player = gamelearn.make_player(game, "mcts:playouts={C4_PLAYOUTS}", seed=1)
print(f"move {{player.choose(game.initial())}}")
"""
C4_MCTS_OPENSPIEL = f"""
import pyspiel
game = pyspiel.load_game("connect_four")
bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2 ** 0.5, {C4_PLAYOUTS}, 1000, False, 1, False)
print(f"move {{bot.step(game.new_initial_state()) + 1}}")
"""

#: A task's rows: (name, program), ours first (the ratios are to it).
Task = list[tuple[str, str]]
#: (name, median CPU seconds, median wall seconds, CPU ratio to ours, note); None where not installed.
ProcessRow = tuple[str, float | None, float | None, float | None, str]


def process_rows(tasks: list[Task]) -> list[ProcessRow]:
    """Every program of every task run once untimed (so .pyc files and caches are written, as after
    an install), then REPEAT rounds in which each runs once, ours and the peers alternating."""
    runs: dict[str, list[tuple[float, float]]] = {}
    notes: dict[str, str] = {}
    missing: dict[str, str] = {}
    programs = list(dict.fromkeys(row for task in tasks for row in task))  # a peer in two tasks runs once
    for name, program in programs:
        try:
            notes[name] = whole_process(program)[2]
        except ImportError as error:
            missing[name] = f"not installed ({error.name})"
    for _ in range(REPEAT):
        for name, program in programs:
            if name not in missing:
                cpu, wall, notes[name] = whole_process(program)
                runs.setdefault(name, []).append((cpu, wall))
    rows: list[ProcessRow] = []
    for task in tasks:
        ours = statistics.median(cpu for cpu, _ in runs[task[0][0]])
        for name, _ in task:
            if name in missing:
                rows.append((name, None, None, None, missing[name]))
                continue
            cpu = statistics.median(c for c, _ in runs[name])
            wall = statistics.median(w for _, w in runs[name])
            rows.append((name, cpu, wall, cpu / ours, notes[name]))
    return rows


def print_process_table(title: str, rows: list[ProcessRow]) -> None:
    print(f"\n{title}")
    print(f"  {'':32} {'CPU s':>6} {'wall s':>6} {'x ours':>6}  note")
    for name, cpu, wall, ratio, note in rows:
        if cpu is None or wall is None or ratio is None:
            print(f"  {name:32} {'-':>6} {'-':>6} {'-':>6}  {note}")
        else:
            print(f"  {name:32} {cpu:6.3f} {wall:6.3f} {ratio:6.1f}  {note}")


# 2. Random games ------------------------------------------------------------------------------


def loop_rows(n: int, game: str = "tictactoe") -> list[Row]:
    """Our plain loop and OpenSpiel's, warm, in alternation, each the median of WARM_REPEAT runs."""
    times: dict[str, list[float]] = {"ours": [], "openspiel": []}
    notes = {"ours": "", "openspiel": ""}
    missing = ""
    for _ in range(WARM_REPEAT):
        start = cpu_seconds()
        notes["ours"] = random_ours_loop(n, game)
        times["ours"].append(cpu_seconds() - start)
        try:
            start = cpu_seconds()
            notes["openspiel"] = random_openspiel_loop(n, game)
            times["openspiel"].append(cpu_seconds() - start)
        except ImportError as error:
            missing = f"not installed ({error.name})"
    return [
        ("ours: the plain loop, warm", statistics.median(times["ours"]), notes["ours"]),
        (
            "OpenSpiel: the same loop, warm",
            None if missing else statistics.median(times["openspiel"]),
            missing or notes["openspiel"],
        ),
    ]


#: OpenSpiel's name of each of our games compared.
OPENSPIEL_NAMES = {"tictactoe": "tic_tac_toe", "connect4": "connect_four"}


def random_ours_loop(n: int, name: str = "tictactoe") -> str:
    game = gamelearn.get_game(name)
    rng = random.Random(1)
    wins = 0
    for _ in range(n):
        state = game.initial()
        while not game.is_over(state):
            state = game.play(state, rng.choice(game.legal_moves(state)))
        wins += game.winner(state) == 0
    return f"X won {wins / n:.1%}"


def random_openspiel_loop(n: int, name: str = "tictactoe") -> str:
    import pyspiel

    game = pyspiel.load_game(OPENSPIEL_NAMES[name])
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


def mcts_ours(playouts: int, name: str = "tictactoe") -> str:
    from gamelearn.players.mcts import MCTSPlayer

    game = gamelearn.get_game(name)
    # Connect Four has no compiled search (its positions are not numbered): the plain one
    player = MCTSPlayer(game, seed=1, playouts=playouts, backend="python" if name == "connect4" else "compiled")
    return f"move {player.choose(game.initial())}"


def mcts_ours_python(playouts: int) -> str:
    """The plain Python search through the rules' API (`backend=python`; Teeko's only one)."""
    from gamelearn.players.mcts import MCTSPlayer

    game = gamelearn.get_game("tictactoe")
    root = MCTSPlayer(game, seed=1, playouts=playouts, backend="python").search(game.initial())
    return f"{root.visits} playouts"


def mcts_openspiel(playouts: int, name: str = "tictactoe") -> str:
    import pyspiel

    game = pyspiel.load_game(OPENSPIEL_NAMES[name])
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2**0.5, playouts, 1000, False, 1, False)
    action = bot.step(game.new_initial_state())
    return f"move {action + 1 if name == 'connect4' else action}"  # our columns count from 1


def mcts_rows(playouts: int) -> list[Row]:
    """One move from the empty board, ``playouts`` playouts; the note gives playouts a second.  The
    compiled kernel is loaded (numba's import, its cache) and run once outside the timing."""
    mcts_ours_python(10)
    reference = attempt("ours: mcts, plain Python, warm", lambda: mcts_ours_python(playouts))
    mcts_ours(10)
    rows = [
        attempt("ours: mcts (compiled), warm", lambda: mcts_ours(playouts)),
        reference,
        attempt("OpenSpiel C++ MCTSBot, warm", lambda: mcts_openspiel(playouts)),
    ]
    return [
        (name, seconds, note if seconds is None else f"{note}, {playouts / seconds / 1000:,.0f}k playouts/s")
        for name, seconds, note in rows
    ]


def random_our_env(n: int) -> str:
    from gamelearn.envs.aec import raw_env

    return _random_aec(raw_env("tictactoe"), n, "player_0")


def _random_aec(env: Any, n: int, x_agent: str) -> str:
    rng = random.Random(1)
    wins = 0
    for _ in range(n):
        env.reset()
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                wins += agent == x_agent and reward > 0
                env.step(None)
                continue
            env.step(rng.choice(observation["action_mask"].nonzero()[0].tolist()))
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

    # X is player_1 in PettingZoo's tic-tac-toe
    return _random_aec(tictactoe_v3.raw_env(), n, "player_1") + (", pygame stubbed" if stand_in else "")


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
    from gamelearn.players.matchbox.fast import train_menace

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
    print(f"  {'':34} {'CPU s':>7} {'x ours':>6}  note")
    for name, seconds, note in rows:
        if seconds is None:
            print(f"  {name:34} {'-':>7} {'-':>6}  {note}")
        else:
            print(f"  {name:34} {seconds:7.3f} {seconds / best:6.1f}  {note}")


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def connect4_main(n: int, no_warm: bool) -> None:
    """Connect Four's rows against OpenSpiel's ``connect_four`` (the module's text)."""
    print(f"Connect Four (7x6); CPU time (user + sys), medians; {load()}")
    print(f"python {sys.version.split()[0]}; wall time is shown but is mostly the machine's other work")
    print_process_table(
        f"1. whole processes (python -c ...), median of {REPEAT}",
        process_rows(
            [
                [("python -c pass (the interpreter)", BARE)],
                [
                    (f"ours: {C4_GAMES:,} random games", C4_RANDOM_OURS),
                    (f"OpenSpiel: {C4_GAMES:,} random games", C4_RANDOM_OPENSPIEL),
                ],
                [
                    (f"ours: mcts, {C4_PLAYOUTS:,} playouts", C4_MCTS_OURS),
                    (f"OpenSpiel: MCTSBot, {C4_PLAYOUTS:,}", C4_MCTS_OPENSPIEL),
                ],
            ]
        ),
    )
    if no_warm:
        print(f"\n{load()}")
        return
    print_table(
        f"2. warm: {n:,} random games, median of {WARM_REPEAT}",
        loop_rows(n, "connect4"),
        {"ours: the plain loop, warm"},
    )
    playouts = max(1_000, 2 * n)
    mcts_ours(10, "connect4")
    rows = [
        attempt("ours: mcts (plain Python), warm", lambda: mcts_ours(playouts, "connect4")),
        attempt("OpenSpiel C++ MCTSBot, warm", lambda: mcts_openspiel(playouts, "connect4")),
    ]
    print_table(
        f"3. warm: one MCTS move from the empty board, {playouts:,} playouts, median of {WARM_REPEAT}",
        [
            (name, seconds, note if seconds is None else f"{note}, {playouts / seconds / 1000:,.1f}k playouts/s")
            for name, seconds, note in rows
        ],
        {"ours: mcts (plain Python), warm"},
    )
    print(f"\n{load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 processes a row and 1,000 warm games")
    parser.add_argument("--games", type=int, default=None, help="games a warm row (overrides --quick)")
    parser.add_argument("--repeat", type=int, default=None, help="whole processes a row (default 7; 3 with --quick)")
    parser.add_argument("--no-warm", action="store_true", help="the whole-process rows only")
    parser.add_argument("--game", choices=sorted(OPENSPIEL_NAMES), default="tictactoe", help="the game compared")
    args = parser.parse_args()
    n = args.games or (1_000 if args.quick else 10_000)
    global REPEAT
    REPEAT = max(1, args.repeat or (3 if args.quick else 7))
    if args.game == "connect4":
        connect4_main(n, args.no_warm)
        return

    print(f"tic-tac-toe; CPU time (user + sys), medians; {load()}")
    print(f"python {sys.version.split()[0]}; wall time is shown but is mostly the machine's other work")
    print_process_table(
        f"1. whole processes (python -c ...), median of {REPEAT}",
        process_rows(
            [
                [("python -c pass (the interpreter)", BARE)],
                [("import gamelearn", IMPORT_OURS), ("import pyspiel", IMPORT_OPENSPIEL)],
                [("ours: 10,000 random games", RANDOM_OURS), ("OpenSpiel: 10,000 random games", RANDOM_OPENSPIEL)],
                [
                    ("ours: solve, every position", SOLVE_OURS),
                    ("OpenSpiel: alpha_beta_search", SOLVE_OPENSPIEL),
                    ("easyAI: deepening + table", SOLVE_EASYAI),
                ],
                [
                    ("ours: alphabeta:depth=9, 1 move", ALPHABETA_OURS),
                    ("OpenSpiel: alpha_beta_search", SOLVE_OPENSPIEL),
                ],
                [("ours: mcts, one move", MCTS_OURS), ("OpenSpiel: MCTSBot, one move", MCTS_OPENSPIEL)],
                [("ours: AEC env, 2,000 games", ENV_OURS), ("PettingZoo: tictactoe_v3", ENV_PETTINGZOO)],
            ]
        ),
    )
    if args.no_warm:
        print(f"\n{load()}")
        return
    print_table(
        f"2. warm: {n:,} random games, median of {WARM_REPEAT}",
        [
            *loop_rows(n),
            attempt("ours: play_game (public API), warm", lambda: random_ours_api(n)),
            attempt("OpenSpiel evaluate_bots, warm", lambda: random_openspiel_evaluate_bots(n)),
            attempt("ours: AEC env (envs.aec), warm", lambda: random_our_env(n)),
            attempt("PettingZoo tictactoe_v3, warm", lambda: random_pettingzoo(n)),
            attempt("easyAI TicTacToe, warm", lambda: random_easyai(n)),
        ],
        {"ours: the plain loop, warm", "ours: play_game (public API), warm"},
    )
    playouts = max(1_000, 2 * n)
    print_table(
        f"3. warm: one MCTS move from the empty board, {playouts:,} playouts, median of {WARM_REPEAT}",
        mcts_rows(playouts),
        {"ours: mcts (compiled), warm"},
    )
    print_table(
        f"4. warm: {n:,} self-play training games, median of {WARM_REPEAT}",
        [
            attempt("ours: td (public API), warm", lambda: train_td_api(n)),
            attempt("ours: menace (public API), warm", lambda: train_menace_api(n)),
            attempt("ours: menace fast path, warm", lambda: train_menace_fast(n)),
            attempt("OpenSpiel tabular_qlearner, warm", lambda: train_openspiel_qlearner(n)),
        ],
        {"ours: td (public API), warm", "ours: menace (public API), warm", "ours: menace fast path, warm"},
    )
    print(f"\n{load()}")


if __name__ == "__main__":
    main()
