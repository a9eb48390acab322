"""The ``ntuple`` learner on Connect Four (7x6): its compiled self-play's speed, a kept learner's
games moving first against a fixed opponent, and its grade against perfect play.  Prints figures
and asserts nothing.

    python benchmarks/connect4_ntuple.py speed --games 20000 [--name a5]
    python benchmarks/connect4_ntuple.py match --name a5 --search 0 --opponent alphabeta:depth=4,eval=none --games 100
    python benchmarks/connect4_ntuple.py perfect --name a5 --games 100 --perfect bitbully
    python benchmarks/connect4_ntuple.py perfect --name a5 --games 100 --perfect bitbully --mcts 10000
    python benchmarks/connect4_ntuple.py settings --alpha 3 --trace 0.5 --perfect bitbully --games 50
    python benchmarks/connect4_ntuple.py settings --stages 4 --perfect bitbully --games 50 --cpu 900 --every 300
    python benchmarks/connect4_ntuple.py settings --from n2 --alpha 15 --perfect bitbully --games 50 --cpu 300 --every 100
    python benchmarks/connect4_ntuple.py settings --snakes 140,8 --halflife 1e12 --epsilon 0.2 --cpu 3600 --every 900 \
        --perfect bitbully --games 50 --save w.npy
    python benchmarks/connect4_ntuple.py keep --weights w.npy --snakes 140,8 --name w140
    python benchmarks/connect4_ntuple.py average --name n1,n2,n3 --perfect bitbully --games 50
    python benchmarks/connect4_ntuple.py perfect --name w140 --snakes 140,8 --games 100 --perfect bitbully --seed 1

``speed``: a fresh learner (seed 1), or with ``--name`` the one kept under that name, plays ``--games`` self-play games in batches of the game's
size after one batch to warm up (numba compiled and the weights' pages touched); games and
plies per CPU second of this process (``time.process_time``) and per wall second.

``match``: the learner kept under ``--name`` in the store, frozen (``train=off``) with
``search=S`` plies (0: the raw network), moves first in ``--games`` games against
``--opponent``; game ``i`` opens with two random plies drawn from ``random.Random(seed + i)``
(the same openings for every learner, so the figures compare), and the opponent is reseeded each
game.  ``--seed`` picks the set of openings: the validation runs use seed 1000, the reported ones
seed 0.  Games won, drawn and lost, and the learner's CPU seconds a move (mean and worst).

``perfect``: the learner kept under ``--name`` (the store of ``$GAMELEARN_HOME``), frozen and
greedy, against perfect play moving first and then second over ``--games`` openings of two
uniformly random plies (seeded by ``--seed``; moving first, only openings the first player wins:
:func:`gamelearn.experiments.versus_perfect.against_perfect`), with its default play (or
``--search S``) and with the raw network (``search=0``), after both are graded on
``connect4-val-v1`` (``--suite``).  ``--perfect ours`` (the default) is the project's own ``perfect``, which
needs the opening book (``gamelearn solve connect4``) for two-ply openings to be quick;
``--perfect bitbully`` is BitBully's (``benchmarks/connect4_bitbully.py``; ``pip install bitbully
bitbully-databases``), which answers every position at once from its book.  For each: won, drawn,
lost, the share won with its 95% Wilson interval (``--mcts N``: the PUCT search of ``N``
iterations a move in place of the default play), the learner's CPU seconds a move (mean and
worst) and the games' CPU seconds (this process: both players); ``--json FILE`` keeps them all,
with the games the learner has trained and what ``--trained seed=S,cpu_minutes=M`` says of its
training, for ``benchmarks/chart_connect4.py``.

``settings``: how the learner's settings were chosen.  A fresh learner (seed ``--train-seed``) with the
game's settings or ``--layout``, ``--alpha``, ``--trace``, ``--epsilon`` and what no spec sets,
``--beta`` (TCL's exponent; 0: TCL off), ``--halflife`` (games over which exploration, and without
TCL the step, halve their way to a tenth) and ``--random-plies`` (self-play opens with 0..N
random moves), plays self-play for ``--cpu`` CPU seconds; ``--stages N`` gives it a weight set
for each side and each of ``N`` stages of 10 discs and ``--snakes N,L`` ``N`` random snakes of ``L``
squares, ``--split D`` weight sets of their own for the positions of fewer than ``D`` discs
(layouts of this process only), ``--result-below D`` the game's result as the target of the
afterstates of fewer than ``D`` discs, ``--discount G`` each TD target moved toward the draw by
``G``, ``--lookahead 2`` each move chosen and each target valued by a two-ply search and
``--temperature T`` each move drawn with a chance that grows as ``exp(value / T)``, in place of
ε-greedy (``benchmarks/connect4_td_targets.py``), ``--from
NAME`` starts it from the learner kept under ``NAME`` (read, never written back).  Every
``--every`` seconds its raw network, frozen, is graded on ``connect4-val-v1``, on the opening
keeps (the positions with the first player to move and a win to keep at 2, 4, 6 and 8 discs along
perfect play from 100 won two-ply openings of ``--seed``: how many it keeps won) and plays first
against perfect play from ``--games`` won openings of two random plies (seeded by ``--seed``) and
from the empty board (``--empty`` games); ``--save FILE`` writes its weights there (numpy's ``.npy``)
after each measure.

``keep``: the weights a ``settings`` run saved (``--weights``) kept in the store under ``--name``
(with ``--snakes N,L``, as a learner of that layout), so that ``perfect --name NAME --snakes N,L``
grades it as it grades a trained learner.

``average``: the learners kept under ``--name`` (names joined by commas, one layout), their
weights averaged into one network, graded as ``settings`` grades (the suite, the opening keeps,
``--games`` won openings of ``--seed``) with the raw network and ``--search`` (8 unless given).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

import gamelearn
from gamelearn.experiments.grading import graded_player
from gamelearn.experiments.statistics import Interval, wilson
from gamelearn.match import Match
from gamelearn.players.ntuple.player import NtuplePlayer
from gamelearn.solver import Solution


def kept_learner(game: Any, spec: str, seed: int = 0) -> NtuplePlayer:
    """The ``ntuple`` learner ``spec`` names, frozen and loaded from the store; SystemExit where the
    spec makes another kind of player, or names no learner the store keeps (the spec would make a
    fresh one)."""
    player = graded_player(game, spec, seed=seed)
    if not isinstance(player, NtuplePlayer):
        raise SystemExit(f"{spec}: not an ntuple learner")
    if player.trainer.games == 0:
        raise SystemExit(f"{spec}: no trained learner is kept under that name in $GAMELEARN_HOME's store")
    return player


def speed(games: int, name: str) -> None:
    game = gamelearn.get_game("connect4")
    player = NtuplePlayer(game, seed=1)
    if name:  # from a kept learner's weights: games as long as a trained learner's
        player.load(kept_learner(game, f"ntuple:name={name},train=off").knowledge())
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


def perfect_solution(which: str) -> Solution | None:
    """The perfect player's solution: None for the project's own (``against_perfect``'s default),
    or BitBully's, an independent oracle the package never imports (AGPL)."""
    if which == "ours":
        return None
    from connect4_bitbully import BitBullySolution  # beside this file: benchmarks/ is on the path

    return BitBullySolution(gamelearn.get_game("connect4"))


def percent(interval: Interval) -> str:
    return f"{100 * interval.estimate:.1f}% ({100 * interval.low:.1f}-{100 * interval.high:.1f})"


def result_line(result: dict[str, Any], oracle: str) -> str:
    """One game series in words: the openings, the games' outcome, the share won, the clocks."""
    if result["side"] == "first":
        openings = f"{result['games']} won openings"
    else:
        openings = (
            f"{result['games']} openings ({result['openings_won']} won, {result['openings_drawn']} drawn, "
            f"{result['openings_lost']} lost for it)"
        )
    won = Interval(result["won_share"], result["won_low"], result["won_high"])
    return (
        f"{result['spec']} moving {result['side']} against perfect ({oracle}), {openings} of {result['plies']} "
        f"random plies (seed {result['seed']}): won {result['won']}, drawn {result['drawn']}, lost {result['lost']}, "
        f"short of the opening {result['short']}; won {percent(won)}; "
        f"CPU s a move: mean {result['move_cpu_mean']:.4f}, worst {result['move_cpu_worst']:.3f} "
        f"({result['moves']} moves); the games {result['cpu_seconds']:.1f} CPU s"
    )


def trained_facts(text: str) -> dict[str, float]:
    """``seed=1,cpu_minutes=15``: how a learner was trained (the store keeps its games, not its
    seed or its CPU time)."""
    facts = {}
    for item in text.split(","):
        key, _, value = item.partition("=")
        if key not in ("seed", "cpu_minutes"):
            raise argparse.ArgumentTypeError(f"--trained takes seed=S,cpu_minutes=M, not {item!r}")
        facts[key] = float(value)
    return facts


def versus_perfect(args: argparse.Namespace) -> None:
    from gamelearn.experiments.versus_perfect import against_perfect

    game = gamelearn.get_game("connect4")
    solution = perfect_solution(args.perfect)
    default = f"ntuple:name={args.name}" + ("" if args.search is None else f",search={args.search}")
    if args.mcts is not None:
        default = f"ntuple:name={args.name},mcts={args.mcts}"
    raw = f"ntuple:name={args.name},search=0"
    found: list[dict[str, Any]] = []
    # The grades first: they refuse a name nothing is kept under, before any game is played.
    grades = []
    for spec in dict.fromkeys((raw, default)):
        cpu = time.process_time()
        (report,) = gamelearn.grade(game, [spec], suite=args.suite, seed=args.seed, workers=1)
        cpu = time.process_time() - cpu
        keeps = wilson(report.counts["keeps"], report.size)
        grades.append(f"{spec} keeps {percent(keeps)} of {report.suite} ({report.size} positions, {cpu:.1f} CPU s)")
        found.append(
            {
                "spec": spec,
                "suite": report.suite,
                "keeps": keeps.estimate,
                "keeps_low": keeps.low,
                "keeps_high": keeps.high,
                "positions": report.size,
                "cpu_seconds": cpu,
            }
        )
    trained = kept_learner(game, raw, args.seed).describe()
    found.append({"learner": args.name, "games_trained": trained["games"], **args.trained})
    for spec in dict.fromkeys((default, raw)):
        player = graded_player(game, spec, seed=args.seed)
        player.choose(game.initial())  # warm: the compiled kernels loaded before any move is timed
        for side in args.side:
            result = against_perfect(game, player, side, args.games, plies=2, seed=args.seed, solution=solution)
            result["perfect"] = args.perfect
            found.append(result)
            print(result_line(result, args.perfect), flush=True)
    for line in grades:
        print(line, flush=True)
    if args.json:
        args.json.write_text(json.dumps(found, indent=1) + "\n")


def opening_positions(solution: Solution, seed: int, openings: int = 100) -> list[Any]:
    """The positions of the opening keeps: from ``openings`` won two-ply openings of ``seed``, the
    positions with the first player to move at 2, 4, 6 and 8 discs along perfect play (its ties
    broken by ``random.Random(seed)``), where the first player has a win to keep."""
    from gamelearn.experiments.versus_perfect import random_openings

    game = gamelearn.get_game("connect4")
    rng = random.Random(seed)
    positions = []
    for opening, _ in random_openings(game, openings, 2, seed, 0, True, solution):
        state = game.initial()
        for move in opening:
            state = game.play(state, move)
        for _ in range(4):
            positions.append(state)
            for _ in range(2):
                state = game.play(state, rng.choice(solution.best_moves(state)))
    return positions


def opening_keeps(player: Any, solution: Solution, positions: list[Any]) -> int:
    """How many of ``positions`` (the first player to move, a win to keep) ``player`` keeps won."""
    game = gamelearn.get_game("connect4")
    kept = 0
    for state in positions:
        after = game.play(state, player.choose(state))
        kept += game.is_over(after) or solution.outcome(after)[0] == -1  # the second player, to move, loses
    return kept


def validation_measures(
    player: Any, suite: Any, solution: Solution, positions: list[Any], games: int, seed: int
) -> tuple[str, dict[str, Any]]:
    """``player``'s keeps of ``suite`` and opening keeps of ``positions`` in words, and its games
    moving first against perfect play from ``games`` won two-ply openings of ``seed``."""
    from gamelearn.experiments.versus_perfect import against_perfect

    keeps = sum(player.choose(position.state) in position.keeping for position in suite.positions)
    kept_won = opening_keeps(player, solution, positions)
    opened = against_perfect(gamelearn.get_game("connect4"), player, 0, games, plies=2, seed=seed, solution=solution)
    said = (
        f"keeps {100 * keeps / len(suite.positions):.1f}% of {suite.name}  opening keeps {kept_won} of {len(positions)}"
    )
    return said, opened


def staged_layout(stages: int) -> str:
    """A layout of the default's tuples with a weight set for each side and each of ``stages``
    stages of the game (discs 0-9, 10-19, ..., the last stage to the full board), known to this
    process only: its name."""
    from gamelearn.players.ntuple import layout

    base = layout.LAYOUTS["connect4"]
    name = f"{base.name}-stages{stages}-bench"
    phases = tuple(discs % 2 + 2 * min(discs // 10, stages - 1) for discs in range(base.squares + 1))
    layout.KNOWN_LAYOUTS[name] = replace(base, name=name, phase_of=phases)
    return name


def snake_layout(count: int, length: int) -> str:
    """A layout of ``count`` random snakes of ``length`` squares (``draw_snakes(7, 6, count, length,
    2012)``: with 8 squares its first 70 are the default's) on the default's cells and two weight
    sets, known to this process only: its name."""
    from gamelearn.players.ntuple import layout
    from gamelearn.players.ntuple.snakes import draw_snakes

    base = layout.LAYOUTS["connect4"]
    name = f"connect4-snakes{count}x{length}-sides-bench"
    layout.KNOWN_LAYOUTS[name] = replace(base, name=name, tuples=draw_snakes(7, 6, count, length, 2012))
    return name


def split_layout(name: str | None, split: int) -> str:
    """The layout ``name`` (None: the default) with weight sets of their own for the positions of
    fewer than ``split`` discs (so the opening and the rest of the game share no weight), known to
    this process only: its name."""
    from gamelearn.players.ntuple import layout

    base = layout.LAYOUTS["connect4"] if name is None else layout.KNOWN_LAYOUTS[name]
    split_name = f"{base.name}-split{split}-bench"
    phases = tuple(phase + base.phases * (discs >= split) for discs, phase in enumerate(base.phase_of))
    layout.KNOWN_LAYOUTS[split_name] = replace(base, name=split_name, phase_of=phases)
    return split_name


def settings(args: argparse.Namespace) -> None:
    """Self-play with the given settings (the module's docstring), the raw network
    measured every ``--every`` CPU seconds of training up to ``--cpu``: its keeps of
    ``connect4-val-v1``, its opening keeps (:func:`opening_positions` of ``--seed``), its games
    moving first against perfect play from ``--games`` won openings of two random plies
    (``--seed``) and from the empty board (``--empty`` games, the perfect player's ties broken by
    each game's seed)."""
    from gamelearn.experiments.versus_perfect import against_perfect

    game = gamelearn.get_game("connect4")
    options: dict[str, Any] = {"search": 0}
    if args.stages is not None:
        args.layout = staged_layout(args.stages)
    if args.snakes is not None:
        args.layout = snake_layout(*args.snakes)
    if args.split is not None:
        args.layout = split_layout(args.layout, args.split)
    for key in ("alpha", "trace", "layout", "epsilon"):
        if getattr(args, key) is not None:
            options[key] = getattr(args, key)
    if args.beta is not None:
        options["tcl"] = args.beta > 0
    learner = NtuplePlayer(game, seed=args.train_seed, **options)
    # what no spec sets: TCL's exponent and the random plies self-play opens with
    changes = {"coherence": args.beta, "random_plies": args.random_plies, "halflife": args.halflife}
    learner.trainer.settings = replace(
        learner.trainer.settings, **{key: value for key, value in changes.items() if value is not None}
    )
    options.pop("epsilon", None)
    frozen = NtuplePlayer(game, seed=args.train_seed, train=False, epsilon=0.0, **options)
    if args.start:  # a kept learner goes on (read from the store, never written back)
        kept = kept_learner(game, f"ntuple:name={args.start},train=off").knowledge()
        learner.load(kept)
        frozen.load(kept)
    if args.result_below or args.discount < 1 or args.lookahead > 1 or args.temperature > 0:  # a variant, not kept
        from connect4_td_targets import use_variant

        use_variant(learner.trainer, args.result_below, args.discount, args.lookahead, args.temperature)
    frozen.trainer.weights = learner.trainer.weights  # the same array: it plays what has been learnt
    solution = perfect_solution(args.perfect) or gamelearn.solve(game)
    suite = gamelearn.get_suite(game, args.suite)
    positions = opening_positions(solution, args.seed)
    trainer, trained = learner.trainer, 0.0
    settings = trainer.settings
    print(
        f"layout {trainer.layout.name}, alpha {settings.alpha:g}, lambda {settings.trace:g} "
        f"(horizon {settings.horizon}), epsilon {settings.epsilon:g}, TCL beta {settings.coherence:g}, "
        f"random plies 0..{settings.random_plies}, half-life {settings.halflife:g} games, "
        f"seed {args.train_seed}"
        + (f", from {args.start!r} ({trainer.games:,} games)" if args.start else "")
        + (f"; the variant: result below {args.result_below}" if args.result_below else "")
        + (f"; the variant: discount {args.discount:g}" if args.discount < 1 else "")
        + (f"; the variant: lookahead {args.lookahead}" if args.lookahead > 1 else "")
        + (f"; the variant: temperature {args.temperature:g} (no epsilon)" if args.temperature > 0 else "")
        + f"; openings of seed {args.seed}",
        flush=True,
    )
    while trained < args.cpu:
        started = time.process_time()
        while time.process_time() - started < args.every:
            trainer.train_batch()
        trained += time.process_time() - started
        said, opened = validation_measures(frozen, suite, solution, positions, args.games, args.seed)
        empty = against_perfect(game, frozen, 0, args.empty, plies=0, seed=args.seed, solution=solution)
        print(
            f"{trained:6.0f} CPU s  {trainer.games:>10,} games  {said}  won {opened['won']} of "
            f"{args.games} openings, {empty['won']} of {args.empty} from the empty board",
            flush=True,
        )
        if args.save is not None:  # the weights as they are now, whole (numpy's .npy), for a later grade
            written = args.save.with_name(args.save.name + ".part")
            with written.open("wb") as stream:
                np.save(stream, trainer.weights)
            written.replace(args.save)


def average(args: argparse.Namespace) -> None:
    """The learners kept under ``--name`` (names joined by commas, one layout), their weights
    averaged into one network, graded on the validation measures of ``settings`` (the raw network
    and ``--search``, 8 unless given): keeps of ``connect4-val-v1``, opening keeps, games moving
    first against perfect play from ``--games`` won two-ply openings of ``--seed``."""

    game = gamelearn.get_game("connect4")
    names = args.name.split(",")
    learners = [kept_learner(game, f"ntuple:name={name},train=off") for name in names]
    if len({learner.trainer.layout.name for learner in learners}) > 1:
        raise ValueError(f"--name {args.name}: the learners' layouts differ; only one layout's weights average")
    mean = np.mean([learner.trainer.weights for learner in learners], axis=0).astype(np.float32)
    solution = perfect_solution(args.perfect) or gamelearn.solve(game)
    suite = gamelearn.get_suite(game, args.suite)
    positions = opening_positions(solution, args.seed)
    for search in dict.fromkeys((0, 8 if args.search is None else args.search)):
        player = NtuplePlayer(game, seed=0, train=False, epsilon=0.0, search=search)
        player.load(learners[0].knowledge())
        player.trainer.weights[...] = mean
        said, opened = validation_measures(player, suite, solution, positions, args.games, args.seed)
        print(
            f"{' + '.join(names)}, search={search}: {said}  won {opened['won']}, drawn {opened['drawn']} of "
            f"{args.games} openings",
            flush=True,
        )


def keep(args: argparse.Namespace) -> None:
    """Keep the weights a ``settings`` run saved (``--weights``) in the store under ``--name``, as
    a learner of the default layout or of ``--snakes``' (which ``perfect --snakes`` loads again)."""
    from gamelearn.keeper import Keeper

    game = gamelearn.get_game("connect4")
    layout = None if args.snakes is None else snake_layout(*args.snakes)
    learner = NtuplePlayer(game, seed=args.train_seed, name=args.name, layout=layout)
    weights = np.load(args.weights)
    if weights.shape != learner.trainer.weights.shape:
        raise SystemExit(
            f"{args.weights}: {weights.shape} weights, where the layout has {learner.trainer.weights.shape}"
        )
    learner.trainer.weights[...] = weights
    learner.trainer.games = args.games_trained
    keeper = Keeper()
    try:
        keeper.save(learner)
    finally:
        keeper.close()
    print(f"kept {args.weights} as ntuple:name={args.name} ({learner.trainer.layout.name})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("speed", "match", "perfect", "settings", "keep", "average"))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--name", default="")
    parser.add_argument(
        "--search", type=int, default=None, help="plies of search (match: 0 unless given; perfect: the default play)"
    )
    parser.add_argument("--opponent", default="alphabeta:depth=4,eval=none")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--perfect", choices=("ours", "bitbully"), default="ours", help="perfect: whose perfect player")
    parser.add_argument(
        "--side", action="append", choices=("first", "second"), default=[], help="perfect: both unless given"
    )
    parser.add_argument(
        "--mcts", type=int, default=None, help="perfect: play by this many PUCT iterations (not with --search)"
    )
    parser.add_argument("--suite", default="connect4-val-v1", help="perfect: the suite both plays are graded on")
    parser.add_argument("--json", type=Path, default=None, help="perfect: write every figure to this file")
    parser.add_argument(
        "--trained",
        type=trained_facts,
        default={},
        metavar="seed=S,cpu_minutes=M",
        help="perfect: how the learner was trained, kept in the JSON for benchmarks/chart_connect4.py",
    )
    parser.add_argument("--layout", default=None, help="settings: the network's layout (default: the game's)")
    parser.add_argument("--alpha", type=float, default=None, help="settings: the step (default: the game's)")
    parser.add_argument("--trace", type=float, default=None, help="settings: lambda (default: the game's)")
    parser.add_argument("--epsilon", type=float, default=None, help="settings: exploration at the start")
    parser.add_argument("--beta", type=float, default=None, help="settings: TCL's exponent (0: off, alpha decays)")
    parser.add_argument(
        "--random-plies", type=int, default=None, help="settings: self-play opens with 0..N random plies"
    )
    parser.add_argument(
        "--halflife", type=float, default=None, help="settings: games over which alpha and epsilon halve"
    )
    parser.add_argument(
        "--result-below",
        type=int,
        default=0,
        help="settings: afterstates of fewer discs learn the game's result (benchmarks/connect4_td_targets.py)",
    )
    parser.add_argument(
        "--discount",
        type=float,
        default=1.0,
        help="settings: each TD target moves toward the draw by this factor (benchmarks/connect4_td_targets.py)",
    )
    parser.add_argument(
        "--lookahead",
        type=int,
        choices=(1, 2),
        default=1,
        help="settings: 2: each self-play move chosen and valued by a two-ply search (connect4_td_targets.py)",
    )
    parser.add_argument(
        "--temperature",
        type=float,
        default=0.0,
        help="settings: each self-play move drawn by exp(value / this), in place of epsilon (connect4_td_targets.py)",
    )
    parser.add_argument("--cpu", type=float, default=600.0, help="settings: CPU s of self-play in all")
    parser.add_argument("--every", type=float, default=200.0, help="settings: CPU s of self-play between measures")
    parser.add_argument("--empty", type=int, default=20, help="settings: games from the empty board")
    parser.add_argument("--train-seed", type=int, default=1, help="settings: the learner's seed")
    parser.add_argument(
        "--stages", type=int, default=None, help="settings: a weight set for each side and each of N stages of 10 discs"
    )
    parser.add_argument(
        "--snakes",
        type=lambda text: tuple(int(part) for part in text.split(",")),
        default=None,
        metavar="N,L",
        help="settings: N random snakes of L squares in place of the default's 70 of 8",
    )
    parser.add_argument(
        "--split", type=int, default=None, help="settings: weight sets of their own below this many discs"
    )
    parser.add_argument("--weights", type=Path, default=None, help="keep: the weights a settings run saved")
    parser.add_argument("--games-trained", type=int, default=0, help="keep: the games those weights learnt from")
    parser.add_argument(
        "--save",
        type=Path,
        default=None,
        metavar="FILE",
        help="settings: write the weights there at each measure (.npy)",
    )
    parser.add_argument(
        "--from", dest="start", default="", help="settings: go on from the learner kept under this name (never written)"
    )
    args = parser.parse_args()
    if args.what not in ("speed", "settings") and not args.name:
        parser.error(f"{args.what} needs --name, the learner kept in the store")
    if not 0 < args.discount <= 1:
        parser.error(f"--discount must be above 0 and at most 1, not {args.discount:g}")
    if args.temperature < 0:
        parser.error(f"--temperature must be 0 (epsilon-greedy) or more, not {args.temperature:g}")
    if args.result_below < 0:
        parser.error(f"--result-below is a number of discs, 0 or more, not {args.result_below}")
    if args.snakes is not None and args.what != "settings":
        snake_layout(*args.snakes)  # known to this process, so that a learner kept with it loads
    if args.what == "keep":
        if args.weights is None:
            parser.error("keep needs --weights, the file a settings run saved")
        keep(args)
    elif args.what == "speed":
        speed(args.games, args.name)
    elif args.what == "settings":
        settings(args)
    elif args.what == "match":
        match(args.name, args.search or 0, args.opponent, args.games, args.seed)
    elif args.what == "average":
        try:
            average(args)
        except ValueError as error:  # an unknown name or suite: one line, exit 2
            parser.error(str(error))
    else:
        if args.mcts is not None and args.search is not None:
            parser.error("--mcts and --search are two ways to play: give one of them")
        args.side = [0 if side == "first" else 1 for side in args.side or ("first", "second")]
        try:
            versus_perfect(args)
        except ValueError as error:  # an unknown name, suite or spec: one line, exit 2
            parser.error(str(error))


if __name__ == "__main__":
    main()
