"""OpenSpiel's own AlphaZero (``open_spiel.python.algorithms.alpha_zero``) on OpenSpiel's native
``connect_four``, trained for a budget of CPU time and graded as the project grades its own Connect
Four learners: the keeps of the held-out suite ``connect4-val-v1`` and the games moving first
against perfect play.  Prints figures and asserts nothing.

    python benchmarks/openspiel_az_connect4.py train --path runs/osaz --cpu-minutes 15
    python benchmarks/openspiel_az_connect4.py grade --path runs/osaz --games 100 [--json FILE]
    python benchmarks/openspiel_az_connect4.py grade --player mcts:playouts=100 --games 100

``train``: ``alpha_zero.alpha_zero(Config(...))`` on ``connect_four`` with a residual network of the
size of the project's ``az`` (``resnet``, width 32, depth 3), one actor and no evaluator, 32
simulations a move (as ``az`` plays), the other settings those of OpenSpiel's example
(``open_spiel/python/examples/alpha_zero.py``: UCT c 1.41, batches of 128, a replay buffer of 2^13
states each learnt from 4 times, learning rate 1e-3, weight decay 1e-4, Dirichlet noise 0.25 with
alpha 1, temperature 1 dropped to 0 after 2 moves, a kept checkpoint every 25 steps) and no limit
on the steps; the flax API is ``nnx``, ``Config``'s own default (the example's flag says ``linen``,
whose one-position inference costs about three times as much CPU here).  OpenSpiel runs in a
process of its own (``alphazero``, below: the learner, which spawns the actor) whose logs and
checkpoints go to ``--path``.  It is stopped, SIGTERM then SIGKILL to every process of its tree,
when the CPU time of that whole tree (user + system of the learner, the actor and every other
descendant, reaped ones included, read with psutil every ``--poll`` seconds) reaches
``--cpu-minutes``.  Printed: that CPU time, the wall time, the learner's steps and the states and
games it took in (its ``learner.jsonl``), the games and positions the actor played (its
``log-actor-0.txt``), and the newest checkpoint.

``grade``: the newest checkpoint under ``--path`` (by the time it was written; the learner saves
every step as ``checkpoint--1`` and every 25th as ``checkpoint-N``) played by OpenSpiel's
``MCTSBot`` with AlphaZero's own evaluator (``evaluator.AlphaZeroEvaluator``, with its cache of
inferences) at 32 simulations and the checkpoint's UCT c, without Dirichlet noise, the most visited
child taken (the bot's ``best_child``), its tie-breaking stream seeded.  A gamelearn position has no
history, so each is turned into a ``connect_four`` state by a legal order of its moves: the top
discs of the side that moved last taken off, colours alternating, until the board is empty (depth
first, as ``gamelearn.games.connect4`` checks a board is reachable), then played back in order; the
OpenSpiel board is checked against gamelearn's before every move (OpenSpiel's action ``c`` is the
column ``c + 1`` of gamelearn's notation).  With ``--player SPEC`` the gamelearn player
``SPEC``, frozen and greedy as every grade plays it (a learner's ``train=off``, ``epsilon=0``), is
graded in its place, the same way.  Printed: the share of
``connect4-val-v1`` (``--suite``) where its move keeps the position's value, with its 95% Wilson
interval, and the CPU seconds a move there (mean, worst); then the games moving first against
BitBully's perfect play (``benchmarks/connect4_bitbully.py``) from ``--games`` won openings of two
random plies, seed 1 (:func:`gamelearn.experiments.versus_perfect.against_perfect`): won, drawn,
lost, the share won with its interval, the CPU seconds a move.  ``--json FILE`` writes the figures.

Every clock is CPU time: the OpenSpiel process tree's in ``train``, this process's
(``time.process_time``) in ``grade``; wall seconds are printed beside it (the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import gamelearn
from gamelearn.experiments.statistics import Interval, wilson
from gamelearn.games import Game
from gamelearn.players.base import Player

#: OpenSpiel's name of the game.
SPIEL_GAME = "connect_four"
#: Simulations a move, in training and in play: the project's az plays with 32.
SIMULATIONS = 32
#: The network: a residual tower of the size of the project's az.
MODEL, WIDTH, DEPTH = "resnet", 32, 3
#: The flax API: Config's own default.
NN_API = "nnx"
#: Seconds a process of the tree has to end after SIGTERM before SIGKILL.
TERM_GRACE = 10.0


def spiel_config(path: str, nn_api: str = NN_API) -> Any:
    """The Config of the training: the example's settings (module docstring) but for the network,
    the simulations, one actor, no evaluator and no limit on the steps."""
    from open_spiel.python.algorithms.alpha_zero import alpha_zero

    return alpha_zero.Config(
        game=SPIEL_GAME, path=path, learning_rate=1e-3, weight_decay=1e-4, decouple_weight_decay=False,
        train_batch_size=2**7, replay_buffer_size=2**13, replay_buffer_reuse=4, max_steps=0, checkpoint_freq=25,
        actors=1, evaluators=0, evaluation_window=50, eval_levels=7, uct_c=1.41, max_simulations=SIMULATIONS,
        policy_alpha=1.0, policy_epsilon=0.25, temperature=1.0, temperature_drop=2, nn_model=MODEL, nn_width=WIDTH,
        nn_depth=DEPTH, observation_shape=None, output_size=None, verbose=False, quiet=True, nn_api_version=nn_api,
    )  # fmt: skip


def run_alphazero(args: argparse.Namespace) -> None:
    """What ``train`` starts: OpenSpiel's AlphaZero, until it is killed."""
    from open_spiel.python.algorithms.alpha_zero import alpha_zero

    alpha_zero.alpha_zero(spiel_config(os.path.abspath(args.path), args.nn_api))


# --- train -------------------------------------------------------------------------------------


def tree_cpu(root: Any) -> float:
    """CPU seconds (user + system) of ``root`` and every process under it, with the children each
    of them has reaped."""
    import psutil

    try:
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


def stop_tree(root: Any) -> int:
    """SIGTERM to ``root`` and every process under it, SIGKILL to those still there after
    ``TERM_GRACE`` seconds; how many had to be killed."""
    import psutil

    try:
        processes = [root, *root.children(recursive=True)]
    except psutil.Error:
        processes = []
    for process in processes:
        try:
            process.send_signal(signal.SIGTERM)
        except psutil.Error:
            pass
    _, alive = psutil.wait_procs(processes, timeout=TERM_GRACE)
    for process in alive:
        try:
            process.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(alive, timeout=TERM_GRACE)
    return len(alive)


def learner_log(path: Path) -> dict[str, Any]:
    """The last line of the learner's ``learner.jsonl`` (written after each step), or nothing."""
    last: dict[str, Any] = {}
    log = path / "learner.jsonl"
    if log.exists():
        for line in log.read_text(encoding="utf-8").splitlines():
            try:
                last = json.loads(line)
            except json.JSONDecodeError:  # a line cut short by the kill
                break
    return last


ACTOR_GAME = re.compile(r"Game (\d+): Returns: ([^;]*); Actions:(.*)$")


def actor_games(path: Path) -> tuple[int, int, list[int]]:
    """(games, positions, [X won, O won, drawn]) of the games the actors logged."""
    games = positions = 0
    outcomes = [0, 0, 0]
    for log in sorted(path.glob("log-actor-*.txt")):
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            found = ACTOR_GAME.search(line)
            if not found:
                continue
            games += 1
            positions += len(found.group(3).split())
            first = float(found.group(2).split()[0])
            outcomes[0 if first > 0 else 1 if first < 0 else 2] += 1
    return games, positions, outcomes


def checkpoints(path: Path) -> list[Path]:
    """The finished checkpoints under ``path``, newest first (orbax writes a temporary folder and
    renames it when done)."""
    found = [p for p in path.glob("checkpoint-*") if p.is_dir() and re.fullmatch(r"checkpoint--?\d+", p.name)]
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)


def train(args: argparse.Namespace) -> dict[str, Any]:
    import psutil

    path = Path(args.path).resolve()
    path.mkdir(parents=True, exist_ok=True)
    budget = 60.0 * args.cpu_minutes
    command = [sys.executable, os.path.abspath(__file__), "alphazero", "--path", str(path), "--nn-api", args.nn_api]
    print(
        f"OpenSpiel AlphaZero on {SPIEL_GAME}: {MODEL} width {WIDTH} depth {DEPTH} ({args.nn_api}), 1 actor, "
        f"0 evaluators, {SIMULATIONS} simulations; until the process tree has {budget:.0f} CPU s; into {path}",
        flush=True,
    )
    with open(path / "stdout.txt", "w", encoding="utf-8") as out:
        wall = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        root = psutil.Process(child.pid)
        cpu, reported, ended = 0.0, 0.0, None
        while True:
            time.sleep(args.poll)
            cpu = max(cpu, tree_cpu(root))
            if child.poll() is not None:
                ended = child.returncode  # it stopped by itself: an error (its stdout.txt says)
                break
            if cpu >= budget:
                break
            if time.perf_counter() - reported >= args.report:
                reported = time.perf_counter()
                step = learner_log(path).get("step", 0)
                games = actor_games(path)[0]
                print(
                    f"  {cpu:7.0f} CPU s {reported - wall:7.0f} wall s: {step} learner steps, {games} games played",
                    flush=True,
                )
        killed = stop_tree(root) if ended is None else 0
        wall = time.perf_counter() - wall
        if child.poll() is None:
            child.wait(timeout=TERM_GRACE)
    last = learner_log(path)
    games, positions, outcomes = actor_games(path)
    newest = checkpoints(path)
    figures = {
        "game": SPIEL_GAME,
        "path": str(path),
        "settings": {
            "nn_model": MODEL,
            "nn_width": WIDTH,
            "nn_depth": DEPTH,
            "nn_api": args.nn_api,
            "actors": 1,
            "evaluators": 0,
            "max_simulations": SIMULATIONS,
            "uct_c": 1.41,
            "train_batch_size": 128,
            "replay_buffer_size": 2**13,
            "replay_buffer_reuse": 4,
            "learning_rate": 1e-3,
            "weight_decay": 1e-4,
            "policy_epsilon": 0.25,
            "policy_alpha": 1.0,
            "temperature": 1.0,
            "temperature_drop": 2,
            "checkpoint_freq": 25,
        },  # fmt: skip
        "cpu_minutes_budget": args.cpu_minutes,
        "cpu_seconds": round(cpu, 1),
        "wall_seconds": round(wall, 1),
        "exit": "stopped by the budget" if ended is None else f"ended by itself, exit status {ended}",
        "killed_after_sigterm": killed,
        "learner_steps": last.get("step", 0),
        "learner_states": last.get("total_states", 0),
        "learner_games": last.get("total_trajectories", 0),
        "actor_games": games,
        "actor_positions": positions,
        "actor_outcomes_x_o_drawn": outcomes,
        "newest_checkpoint": newest[0].name if newest else None,
    }
    print(
        f"process tree: {cpu:.1f} CPU s, {wall:.1f} wall s; {figures['exit']}"
        + (f" ({killed} process(es) needed SIGKILL)" if killed else "")
    )
    print(
        f"learner: {figures['learner_steps']} steps, took in {figures['learner_states']} states of "
        f"{figures['learner_games']} games"
    )
    print(
        f"actor: {games} games, {positions} positions played (X won {outcomes[0]}, O won {outcomes[1]}, "
        f"drawn {outcomes[2]}); {positions / max(cpu, 1e-9):.2f} positions per CPU s of the tree"
    )
    print(f"newest checkpoint: {figures['newest_checkpoint']}")
    if ended is not None:
        tail = (path / "stdout.txt").read_text(encoding="utf-8", errors="replace").splitlines()[-20:]
        print("its output ended:\n" + "\n".join(tail))
    return figures


# --- the player ----------------------------------------------------------------------------------


def move_order(game: Game[Any], state: Hashable) -> list[int]:
    """A legal order of the columns (0 the leftmost) that builds ``state`` from the empty board:
    the last mover's top discs taken off, depth first, the order played back.  After the first
    disc is off no position may hold four (the game would have ended there).  ValueError where
    no order builds it."""
    from gamelearn.games.connect4 import has_four

    height, rows = game.rows + 1, game.rows  # type: ignore[attr-defined]
    masks = [((1 << rows) - 1) << (column * height) for column in range(game.columns)]  # type: ignore[attr-defined]
    failed: set[tuple[int, int]] = set()

    def back(x: int, o: int, first: bool) -> list[int] | None:
        if not x | o:
            return []
        if (x, o) in failed:
            return None
        x_last = x.bit_count() > o.bit_count()
        last, both = (x if x_last else o), x | o
        for column, mask in enumerate(masks):
            discs = both & mask
            top = 1 << (discs.bit_length() - 1) if discs else 0
            if not last & top:
                continue
            nx, no = (x & ~top, o) if x_last else (x, o & ~top)
            if first and (has_four(nx, height) or has_four(no, height)):
                continue
            before = back(nx, no, False)
            if before is not None:
                return [*before, column]
        failed.add((x, o))
        return None

    order = back(state[0], state[1], True)  # type: ignore[index]
    if order is None:
        raise ValueError(f"no order of moves reaches {game.board(state)}")
    return order


def spiel_board(spiel_state: Any) -> str:
    """OpenSpiel's connect_four board in gamelearn's writing: rows from the top, X, O and '.'."""
    return "".join(str(spiel_state).split()).upper()


def spiel_state_of(game: Game[Any], spiel_game: Any, state: Hashable) -> Any:
    """The ``connect_four`` state of a gamelearn Connect Four position, its board checked."""
    spiel_state = spiel_game.new_initial_state()
    for column in move_order(game, state):
        spiel_state.apply_action(column)
    if spiel_board(spiel_state) != game.board(state) or (
        not spiel_state.is_terminal() and spiel_state.current_player() != game.to_move(state)
    ):
        raise AssertionError(f"OpenSpiel's board {spiel_board(spiel_state)} is not {game.board(state)}")
    return spiel_state


def newest_loadable(path: Path, load: Callable[[int], None]) -> str:
    """Load the newest checkpoint under ``path`` that loads (one the kill cut short does not); its name."""
    for checkpoint in checkpoints(path):
        try:
            load(int(checkpoint.name.removeprefix("checkpoint-")))
        except Exception as error:  # noqa: BLE001 - a half-written checkpoint: the one before it
            print(f"{checkpoint.name} does not load ({type(error).__name__}): the one before it", flush=True)
            continue
        return checkpoint.name
    raise ValueError(f"no checkpoint loads under {path}")


class SpielAlphaZeroPlayer(Player[Any]):
    """OpenSpiel's MCTSBot with AlphaZero's evaluator on a trained checkpoint: no Dirichlet noise,
    the most visited child (``best_child``), the bot's stream (it shuffles each node's children to
    break ties) seeded with the player's seed."""

    kind = "openspiel_az"

    def __init__(self, game: Game[Any], path: Path, seed: int | None = 0, simulations: int = SIMULATIONS) -> None:
        import pyspiel
        from open_spiel.python.algorithms.alpha_zero import evaluator, utils

        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        self.spiel_game = pyspiel.load_game(config["game"])
        self.model = utils.api_selector(config.get("nn_api_version", NN_API)).Model.build_model(
            config["nn_model"], self.spiel_game.observation_tensor_shape(), self.spiel_game.num_distinct_actions(),
            config["nn_width"], config["nn_depth"], config["weight_decay"], config["learning_rate"], str(path),
        )  # fmt: skip
        self.checkpoint = newest_loadable(path, self.model.load_checkpoint)
        super().__init__(game, seed, checkpoint=self.checkpoint, simulations=simulations)
        self.uct_c, self.simulations = float(config["uct_c"]), simulations
        self.evaluator = evaluator.AlphaZeroEvaluator(self.spiel_game, self.model)
        initial = self.spiel_game.new_initial_state()  # compiled before any move is timed, nothing cached
        self.model.inference(initial.observation_tensor(), initial.legal_actions_mask())
        self.bot = self.make_bot(seed)

    def make_bot(self, seed: int | None) -> Any:
        import numpy as np
        from open_spiel.python.algorithms import mcts

        return mcts.MCTSBot(
            self.spiel_game, self.uct_c, self.simulations, self.evaluator, solve=False, dirichlet_noise=None,
            child_selection_fn=mcts.SearchNode.puct_value, random_state=np.random.RandomState(seed),
            dont_return_chance_node=True,
        )  # fmt: skip

    def reseed(self, seed: int | None) -> None:
        super().reseed(seed)
        self.bot = self.make_bot(seed)

    def choose(self, state: Any) -> str | None:
        self.moves_to_choose_from(state)
        root = self.bot.mcts_search(spiel_state_of(self.game, self.spiel_game, state))
        return self.game.move_names[root.best_child().action]  # type: ignore[attr-defined]


# --- grade ---------------------------------------------------------------------------------------


def percent(interval: Interval) -> str:
    return f"{100 * interval.estimate:.1f}% ({100 * interval.low:.1f}-{100 * interval.high:.1f})"


def check_conversion(game: Game[Any], spiel_game: Any, count: int = 200, seed: int = 7) -> int:
    """Random positions turned into OpenSpiel states, each of their legal moves played on both
    sides and the boards compared; how many positions."""
    import random

    rng = random.Random(seed)
    checked = 0
    while checked < count:
        state = game.initial()
        for _ in range(rng.randrange(0, 40)):
            if game.is_over(state):
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
        if game.is_over(state):
            continue
        spiel_state = spiel_state_of(game, spiel_game, state)
        if [game.move_names[a] for a in spiel_state.legal_actions()] != game.legal_moves(state):  # type: ignore[attr-defined]
            raise AssertionError(f"legal moves differ at {game.board(state)}")
        for action in spiel_state.legal_actions():
            after, spiel_after = game.play(state, game.move_names[action]), spiel_state.clone()  # type: ignore[attr-defined]
            spiel_after.apply_action(action)
            if spiel_board(spiel_after) != game.board(after) or spiel_after.is_terminal() != game.is_over(after):
                raise AssertionError(f"action {action} differs at {game.board(state)}")
        checked += 1
    return checked


def grade(args: argparse.Namespace) -> dict[str, Any]:
    if str(Path(__file__).resolve().parent) not in sys.path:
        sys.path.insert(0, str(Path(__file__).resolve().parent))  # benchmarks/, for connect4_bitbully
    from connect4_bitbully import BitBullySolution
    from gamelearn.experiments.versus_perfect import against_perfect

    game = gamelearn.get_game("connect4")
    player: Player[Any]
    if args.player:
        from gamelearn.experiments.grading import graded_player

        player = graded_player(game, args.player, seed=0)  # frozen and greedy, as every grade plays
        player.choose(game.initial())  # warm, as connect4_ntuple.py does
    else:
        spiel_player = SpielAlphaZeroPlayer(game, Path(args.path).resolve(), seed=0)
        checked = check_conversion(game, spiel_player.spiel_game)
        print(
            f"{spiel_player.checkpoint} of {args.path}; positions turned into {SPIEL_GAME} states and checked "
            f"move by move: {checked}",
            flush=True,
        )
        player = spiel_player
    suite = gamelearn.get_suite(game, args.suite)
    kept, times = 0, []
    wall = time.perf_counter()
    for position in suite.positions:
        started = time.process_time()
        move = player.choose(position.state)
        times.append(time.process_time() - started)
        kept += move in position.keeping
    wall = time.perf_counter() - wall
    keeps = wilson(kept, len(suite.positions))
    figures: dict[str, Any] = {
        "spec": player.spec,
        "suite": suite.name,
        "positions": len(suite.positions),
        "keeps": kept,
        "keeps_share": keeps.estimate,
        "keeps_low": keeps.low,
        "keeps_high": keeps.high,
        "suite_move_cpu_mean": sum(times) / len(times),
        "suite_move_cpu_worst": max(times),
        "suite_cpu_seconds": sum(times),
        "suite_wall_seconds": wall,
    }
    print(
        f"{player.spec} keeps {percent(keeps)} of {suite.name} ({kept} of {len(suite.positions)}); "
        f"CPU s a move: mean {figures['suite_move_cpu_mean']:.4f}, worst {figures['suite_move_cpu_worst']:.3f} "
        f"({sum(times):.1f} CPU s, {wall:.1f} wall s)",
        flush=True,
    )
    if args.games > 0:
        wall = time.perf_counter()
        result = against_perfect(game, player, 0, args.games, plies=2, seed=1, solution=BitBullySolution(game))
        wall = time.perf_counter() - wall
        won = Interval(result["won_share"], result["won_low"], result["won_high"])
        print(
            f"{player.spec} moving first against perfect (bitbully), {result['games']} won openings of 2 random "
            f"plies (seed 1): won {result['won']}, drawn {result['drawn']}, lost {result['lost']}; won {percent(won)}; "
            f"CPU s a move: mean {result['move_cpu_mean']:.4f}, worst {result['move_cpu_worst']:.3f} "
            f"({result['moves']} moves); the games {result['cpu_seconds']:.1f} CPU s, {wall:.1f} wall s"
        )
        figures["versus_perfect"] = {key: value for key, value in result.items() if key != "shortfalls"}
        figures["versus_perfect"]["wall_seconds"] = wall
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("train", "grade", "alphazero"), help="alphazero: what train starts")
    parser.add_argument("--path", default="runs/osaz", help="OpenSpiel's logs and checkpoints")
    parser.add_argument("--cpu-minutes", type=float, default=15.0, help="train: CPU minutes of the process tree")
    parser.add_argument("--poll", type=float, default=1.0, help="train: seconds between reads of the CPU time")
    parser.add_argument("--report", type=float, default=60.0, help="train: wall seconds between progress lines")
    parser.add_argument("--nn-api", choices=("nnx", "linen"), default=NN_API, help="train: flax API of the network")
    parser.add_argument("--games", type=int, default=100, help="grade: games moving first against perfect play")
    parser.add_argument("--suite", default="connect4-val-v1", help="grade: the suite of positions")
    parser.add_argument("--player", default=None, help="grade: this gamelearn player spec in place of OpenSpiel's")
    parser.add_argument("--json", type=Path, default=None, help="write the figures to this file too")
    args = parser.parse_args()
    if args.what == "alphazero":
        run_alphazero(args)
        return
    figures = train(args) if args.what == "train" else grade(args)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
