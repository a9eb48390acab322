"""The az learner against its targets (docs/az.md): prints figures, asserts nothing.

    python benchmarks/bench_az.py search       # one search of 32 Teeko positions: milliseconds, tree depth
    python benchmarks/bench_az.py speed        # self-play positions/s, az beside OpenSpiel's AlphaZero
    python benchmarks/bench_az.py speed --game teeko --seconds 30 --no-openspiel   # Teeko's alone
    python benchmarks/bench_az.py tictactoe    # <= 5 min: value-keeping moves in the 4,520 positions, 100 games vs perfect
    python benchmarks/bench_az.py hexapawn     # <= 1 min: does it play Black perfectly?
    python benchmarks/bench_az.py teeko --minutes 10   # the curve: best-move share, score vs the fixed thesis player

Teeko needs its solved table (`gamelearn solve teeko`, in $GAMELEARN_HOME).  Every figure is measured
on the machine it runs on; docs/az.md has the ones measured for the project.  ``--json PATH`` writes
the figures as JSON too.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Hashable
from dataclasses import replace
from typing import Any

import gamelearn
from gamelearn.experiments.training import frozen_copy, grade_learner, suite_label, train_self_play
from gamelearn.players.registry import make_player


def reachable(game: Any) -> list[Hashable]:
    start = game.initial()
    seen, frontier = {start}, [start]
    while frontier:
        state = frontier.pop()
        for move in game.legal_moves(state):
            after = game.play(state, move)
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    return sorted(seen, key=lambda s: (game.board(s), game.to_move(s)))


def grade_moves(solution: Any, states: list[Hashable], moves: list[str]) -> dict[str, int]:
    """How many of ``moves`` (one per state) the perfect player grades best, keeps, mistake, blunder."""
    counts = {"best": 0, "keeps": 0, "mistake": 0, "blunder": 0}
    for state, move in zip(states, moves, strict=True):
        counts[solution.grade(state, move).value] += 1
    return counts


def frozen(player: Any) -> Any:
    return frozen_copy(player, f"az:simulations={player.simulations},train=off")


def score_against(game: Any, player: Any, opponent_spec: str, games: int, seed: int = 1) -> dict[str, int]:
    """Wins, draws, losses of ``player`` (frozen) against ``opponent_spec``, colours alternating."""
    tally = {"wins": 0, "draws": 0, "losses": 0}
    for index in range(games):
        opponent = make_player(game, opponent_spec, seed=seed + index)
        side = index % 2
        seats = [player, opponent] if side == 0 else [opponent, player]
        record = gamelearn.play_game(game, seats, seed=seed + 1000 * index, learn=False)
        key = "draws" if record.winner is None else "wins" if record.winner == side else "losses"
        tally[key] += 1
    return tally


def jax_platform() -> str:
    import jax

    return jax.devices()[0].platform


def teeko_positions(count: int, seed: int = 1) -> list[Hashable]:
    """``count`` unfinished Teeko positions from random games (placing and moving phases)."""
    import random

    game = gamelearn.get_game("teeko")
    rng = random.Random(seed)
    states: list[Hashable] = []
    while len(states) < count:
        state = game.initial()
        for _ in range(rng.randrange(1, 30)):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.play(state, rng.choice(moves))
        if not game.is_over(state):
            states.append(state)
    return states


def bench_search(
    figures: dict[str, Any], simulations: int = 16, considered: int | None = None, count: int = 32, repeats: int = 20
) -> None:
    """The time of one self-play search (Gumbel noise on) of ``count`` Teeko positions with the
    self-play settings, and how deep its trees went (the root's children are depth 1)."""
    import inspect

    import jax
    import numpy as np

    from gamelearn.players.az import search as az_search
    from gamelearn.players.az.rules import Position

    game = gamelearn.get_game("teeko")
    player = make_player(game, "az", seed=1)
    rules = player.rules
    batch = Position(*(np.stack(c) for c in zip(*(rules.encode(game, s) for s in teeko_positions(count)), strict=True)))
    evaluate = az_search.network_evaluator(rules)
    considered = considered or getattr(player.trainer.settings, "considered", None)
    extra = {"considered": considered} if "considered" in inspect.signature(az_search.search).parameters else {}

    def one(model: Any, key: Any, positions: Any) -> Any:
        out = az_search.search(rules, evaluate, model, key, positions, simulations, 1.0, **extra)
        tree = out.search_tree
        # depth of every visited node: follow parents up to the root
        parents = tree.parents
        depth = jax.numpy.zeros_like(parents)
        node = jax.numpy.broadcast_to(jax.numpy.arange(parents.shape[1]), parents.shape)
        for _ in range(simulations + 1):
            step = node > 0
            depth = depth + step
            node = jax.numpy.where(step, jax.numpy.take_along_axis(parents, jax.numpy.maximum(node, 0), 1), 0)
        visited = tree.node_visits > 0
        return out.action, jax.numpy.where(visited, depth, 0).max(axis=1)

    run = jax.jit(one)
    started = time.perf_counter()
    jax.block_until_ready(run(player.trainer.model, jax.random.PRNGKey(0), batch))
    compile_seconds = time.perf_counter() - started
    times = []
    for index in range(repeats):
        started = time.perf_counter()
        _, depth = jax.block_until_ready(run(player.trainer.model, jax.random.PRNGKey(index + 1), batch))
        times.append(time.perf_counter() - started)
    times.sort()
    median = 1000 * times[len(times) // 2]
    depths = np.asarray(depth)
    print(
        f"az search, Teeko, {count} positions x {simulations} simulations "
        f"(considered {considered or 'min(16, actions)'}): median {median:.1f} ms, "
        f"fastest {1000 * times[0]:.1f} ms of {repeats}; compile {compile_seconds:.1f} s; "
        f"tree depth max {depths.max()}, mean of the deepest per tree {depths.mean():.1f}"
    )
    figures["search_ms"] = round(median, 2)
    figures["search_depth_max"] = int(depths.max())


def self_play_rate(
    game_name: str, parallel: int | None, seconds: float = 5.0, plies_per_batch: int | None = None
) -> tuple[float, float, Any]:
    """Self-play positions per second of the clock and per second of this process's CPU time (on a
    shared machine the clock counts the others' work too), search and rules only, no training,
    after two warm-up batches (the first compiles; with busy slots, the first finishes few games)."""
    player = make_player(gamelearn.get_game(game_name), "az", seed=1)
    trainer = player.trainer
    if parallel:
        trainer.play_in_batches_of(parallel)
    if plies_per_batch is not None and hasattr(trainer.settings, "plies_per_batch"):
        trainer.settings = replace(trainer.settings, plies_per_batch=plies_per_batch)
    trainer.self_play_batch()  # compiles
    trainer.self_play_batch()

    def going_on() -> int:  # plies played of games still going on (busy slots), not yet collected
        return int(getattr(getattr(trainer, "self_play_slots", None), "unfinished_positions", 0))

    start, cpu, positions, before = time.perf_counter(), time.process_time(), 0, going_on()
    while time.perf_counter() - start < seconds or positions == 0:
        positions += trainer.self_play_batch()
    clock, cpu = time.perf_counter() - start, time.process_time() - cpu
    positions += going_on() - before  # the positions searched in the time, whichever batch began their game
    return positions / clock, positions / cpu, trainer.settings


def bench_speed(
    figures: dict[str, Any],
    parallel: int | None,
    games: int = 20,
    seconds: float = 5.0,
    spiel: bool = True,
    game_names: tuple[str, ...] = ("tictactoe", "teeko"),
    plies_per_batch: int | None = None,
) -> None:
    for game_name in game_names:
        for batch in sorted({None, parallel}, key=lambda b: b or 0):
            rate, cpu_rate, settings = self_play_rate(game_name, batch, seconds, plies_per_batch)
            sims = settings.simulations
            batching = getattr(settings, "plies_per_batch", 0)
            how = f"busy slots, {batching} plies a batch" if batching else "whole games"
            print(
                f"az self-play, {game_name}, {settings.games_per_batch} games at once, {sims} simulations, {how}: "
                f"{rate:,.0f} positions/s, {cpu_rate:,.0f} per CPU second"
            )
            figures[f"az_{game_name}_{settings.games_per_batch}_positions_per_second"] = round(rate, 1)
            figures[f"az_{game_name}_{settings.games_per_batch}_positions_per_cpu_second"] = round(cpu_rate, 1)
    if jax_platform() != "cpu" or not spiel:
        return  # OpenSpiel's actor runs its search in Python on the CPU: compared on the CPU only
    sims = 32
    try:
        from open_spiel.python.algorithms.alpha_zero import alpha_zero, evaluator
    except ImportError as error:
        print(f"OpenSpiel's AlphaZero: skipped, it does not import here ({error})")
        figures["openspiel"] = f"skipped: {error}"
        return
    import pyspiel

    spiel_game = pyspiel.load_game("tic_tac_toe")
    config = alpha_zero.Config(
        game="tic_tac_toe", path="/tmp", learning_rate=0.001, weight_decay=1e-4, decouple_weight_decay=False,
        train_batch_size=256, replay_buffer_size=10_000, replay_buffer_reuse=4, max_steps=1, checkpoint_freq=1,
        actors=1, evaluators=0, evaluation_window=10, eval_levels=1, uct_c=2, max_simulations=sims,
        policy_alpha=1, policy_epsilon=0.25, temperature=1, temperature_drop=10, nn_model="mlp", nn_width=64,
        nn_depth=2, observation_shape=spiel_game.observation_tensor_shape(), output_size=spiel_game.num_distinct_actions(),
        verbose=False, quiet=True, nn_api_version="nnx",
    )  # fmt: skip
    model = alpha_zero._init_model_from_config(config)
    bot_evaluator = evaluator.AlphaZeroEvaluator(spiel_game, model)
    bots = (alpha_zero._init_bot(config, spiel_game, bot_evaluator, False),) * 2

    class Quiet:
        def print(self, *args: Any) -> None:
            pass

        def opt_print(self, *args: Any) -> None:
            pass

    alpha_zero._play_game(Quiet(), 0, spiel_game, bots, 1.0, 10)  # warm-up: compiles
    start, positions = time.perf_counter(), 0
    for number in range(games):
        positions += len(alpha_zero._play_game(Quiet(), number, spiel_game, bots, 1.0, 10).states)
    spiel_rate = positions / (time.perf_counter() - start)
    print(
        f"OpenSpiel AlphaZero actor (one process, MCTS in Python, {sims} simulations, MLP 64x2): {spiel_rate:,.0f} positions/s"
    )
    figures["openspiel_positions_per_second"] = round(spiel_rate, 1)


def bench_tictactoe(figures: dict[str, Any], minutes: float = 5.0) -> None:
    game = gamelearn.get_game("tictactoe")
    solution = gamelearn.solve(game)
    states = [s for s in reachable(game) if not game.is_over(s)]
    print(f"tic-tac-toe: {len(states):,} reachable positions with a move to make")
    player = make_player(game, "az", seed=1)
    rows = []

    def on_checkpoint(point: Any) -> None:
        copy = frozen(player)
        grades = grade_moves(solution, states, copy.choose_many(states))
        keeps = (grades["best"] + grades["keeps"]) / len(states)
        tally = score_against(game, copy, "perfect", 100)
        row = {"seconds": point.seconds, "games": point.games, "keeps_value": round(keeps, 4), **tally}
        rows.append(row)
        print(f"  {point.seconds:6.0f} s {point.games:8,} games: value-keeping {100 * keeps:.2f}%, vs perfect {tally}")

    train_self_play(player, None, minutes=minutes, checkpoints=5, on_checkpoint=on_checkpoint)
    figures["tictactoe"] = rows


def bench_hexapawn(figures: dict[str, Any], minutes: float = 1.0) -> None:
    game = gamelearn.get_game("hexapawn")
    solution = gamelearn.solve(game)
    player = make_player(game, "az", seed=1)
    rows = []

    def black_lines(copy: Any) -> tuple[int, int]:
        """(Black positions met, Black moves that keep the win) when az plays Black against every White line."""
        met = kept = 0
        frontier = [game.initial()]
        while frontier:
            state = frontier.pop()
            if game.is_over(state):
                continue
            if game.to_move(state) == 0:
                frontier += [game.play(state, move) for move in game.legal_moves(state)]
                continue
            move = copy.choose(state)
            met += 1
            kept += solution.grade(state, move).value in ("best", "keeps")
            frontier.append(game.play(state, move))
        return met, kept

    def on_checkpoint(point: Any) -> None:
        met, kept = black_lines(frozen(player))
        rows.append({"seconds": point.seconds, "games": point.games, "black_positions": met, "black_keeps_win": kept})
        verdict = "perfectly" if met == kept else f"{met - kept} mistake(s)"
        print(
            f"  {point.seconds:6.0f} s {point.games:8,} games: as Black against every White line, {verdict} ({kept}/{met})"
        )

    train_self_play(player, None, minutes=minutes, checkpoints=3, on_checkpoint=on_checkpoint)
    figures["hexapawn"] = rows


def bench_teeko(
    figures: dict[str, Any], minutes: float, games: int, parallel: int | None, checkpoints: int, updates: int | None
) -> None:
    game = gamelearn.get_game("teeko")
    solution = gamelearn.solve(game)  # ValueError without the table: `gamelearn solve teeko`
    print(f"teeko: checkpoints graded on the suite {suite_label(game)}")
    player = make_player(game, "az", seed=1)
    if parallel:
        player.trainer.play_in_batches_of(parallel)
    if updates:  # more games a batch want more gradient steps a batch
        player.trainer.settings = replace(player.trainer.settings, updates_per_batch=updates)
    print(f"teeko: {player.trainer.settings}")
    rows = []

    def on_checkpoint(point: Any) -> None:
        copy = frozen(player)
        grades: dict[str, int] = {"best": 0, "keeps": 0, "mistake": 0, "blunder": 0}
        points = 0.0
        played: set[tuple[int, tuple[str, ...]]] = set()  # nearly deterministic players repeat games
        for index in range(games):  # a graded match against the fixed thesis player
            opponent = make_player(game, "thesis:train=off", seed=index)
            side = index % 2
            seats = [copy, opponent] if side == 0 else [opponent, copy]

            def grade(before: Any, move: str, after: Any, side: int = side) -> None:
                if game.to_move(before) == side:
                    grades[solution.grade(before, move).value] += 1

            record = gamelearn.play_game(game, seats, seed=index, learn=False, on_move=grade)
            points += 0.5 if record.winner is None else float(record.winner == side)
            played.add((side, tuple(record.moves)))
        best_in_games = grades["best"] / max(1, sum(grades.values()))
        row = point.to_dict() | {
            "score_vs_thesis": round(points / games, 3),
            "best_in_games": round(best_in_games, 4),
            "different_games": len(played),
        }
        rows.append(row)
        print(
            f"  {point.seconds:6.0f} s {point.games:7,} games {point.positions:9,} positions "
            f"({point.positions_per_second:,.0f}/s): keeps {100 * (point.keeps or 0):.1f}%, best {100 * (point.best or 0):.1f}% on the suite, "
            f"score vs thesis {100 * points / games:.0f}% ({len(played)} different games of {games}), "
            f"best in those games {100 * best_in_games:.1f}%"
        )

    train_self_play(
        player, lambda: grade_learner(game, "az", player), minutes=minutes, checkpoints=checkpoints,
        on_checkpoint=on_checkpoint,
    )  # fmt: skip
    figures["teeko"] = rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=("search", "speed", "tictactoe", "hexapawn", "teeko", "all"))
    parser.add_argument("--seconds", type=float, default=5.0, help="speed: seconds of self-play measured per game")
    parser.add_argument("--simulations", type=int, default=None, help="search: simulations (default 16)")
    parser.add_argument("--considered", type=int, default=None, help="search: root actions (default: Teeko's)")
    parser.add_argument("--no-openspiel", action="store_true", help="speed: leave OpenSpiel's actor out")
    parser.add_argument("--game", choices=("tictactoe", "teeko"), default=None, help="speed: this game only")
    parser.add_argument(
        "--plies-per-batch", type=int, default=None, help="speed: 0 whole games, N busy slots (default: the game's)"
    )
    parser.add_argument("--minutes", type=float, default=None, help="training time (defaults: 5, 1, 10 minutes)")
    parser.add_argument("--games", type=int, default=20, help="Teeko games against thesis per checkpoint")
    parser.add_argument("--updates", type=int, default=None, help="Teeko gradient steps per self-play batch")
    parser.add_argument("--checkpoints", type=int, default=6, help="Teeko checkpoints along the training")
    parser.add_argument(
        "--parallel",
        type=int,
        default=None,
        help="self-play games at once (GPU: hundreds); speed measures the default and this",
    )
    parser.add_argument("--json", default=None, help="write the figures to this file too")
    args = parser.parse_args()
    import jax

    figures: dict[str, Any] = {"device": str(jax.devices()[0])}
    print(f"device: {figures['device']}")
    if args.part in ("search", "all"):
        bench_search(figures, args.simulations or 16, args.considered)
    if args.part in ("speed", "all"):
        names = (args.game,) if args.game else ("tictactoe", "teeko")
        bench_speed(
            figures, args.parallel, seconds=args.seconds, spiel=not args.no_openspiel, game_names=names,
            plies_per_batch=args.plies_per_batch,
        )  # fmt: skip
    if args.part in ("tictactoe", "all"):
        bench_tictactoe(figures, args.minutes or 5.0)
    if args.part in ("hexapawn", "all"):
        bench_hexapawn(figures, args.minutes or 1.0)
    if args.part in ("teeko", "all"):
        bench_teeko(figures, args.minutes or 10.0, args.games, args.parallel, args.checkpoints, args.updates)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=1)


if __name__ == "__main__":
    main()
