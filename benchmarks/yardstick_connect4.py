"""The Connect Four yardstick: build the shipped suites, grade players on them with intervals and
the CPU clock, and play players against ``perfect`` from seeded random openings.

    python benchmarks/yardstick_connect4.py build --size 1000 --val-size 1000
    python benchmarks/yardstick_connect4.py grade random alphabeta:depth=4 mcts:playouts=1000 perfect
    python benchmarks/yardstick_connect4.py grade random --suite connect4-val-v1
    python benchmarks/yardstick_connect4.py perfect random --side first --games 100 --plies 2 --perfect bitbully

``build``: draws ``connect4-v1`` and then ``connect4-val-v1`` (:mod:`gamelearn.experiments.suites_connect4`
says how), every candidate position solved by the project's solver (the position, then each of its
moves), and writes each as ``src/gamelearn/experiments/suite_data/NAME.txt.gz`` with the CPU seconds
it took in its header.  Every candidate solved is kept in ``--cache`` (one JSON line each), so a build
stopped half-way goes on where it was and the two suites' builds share nothing but that file.
``grade``: each spec graded frozen and greedy (``gamelearn.grade``), keeps with its 95% Wilson
interval, best and blunders, by phase and by value, and the CPU seconds a move (this process and
its finished children, user + system).  ``perfect``: :func:`gamelearn.experiments.versus_perfect.against_perfect`
for the spec moving first, or second, against the project's own ``perfect`` (``--perfect ours``,
the default), whose 2-ply openings need the book (``gamelearn solve connect4``) to be quick, or
BitBully's (``--perfect bitbully``: ``benchmarks/connect4_bitbully.py``, an independent oracle
the package never imports), which answers every position at once.  Prints figures and asserts
nothing.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import resource
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gamelearn
from gamelearn.experiments import suites_connect4 as shipped
from gamelearn.experiments.suites import SuitePosition, draw_stratified, graded_position, keeps_interval
from gamelearn.players.registry import make_player
from gamelearn.solver import solve

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "src" / "gamelearn" / "experiments" / "suite_data"
#: The candidates solved for a phase at most, as a multiple of its share of the suite: a stratum
#: that random play seldom reaches gives what it could not fill to the others.
CANDIDATES_PER_POSITION = 2


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (user + system)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def candidates(game: Any, seed: int, phase: str, players: tuple[str, ...]) -> Iterator[str]:
    """An endless seeded stream of games (their columns) between two of ``players`` drawn for each
    game, each stopped at a ply drawn for ``phase``: the opening's plies evenly; for the endgame,
    the game played out and one of its unfinished positions from ply ``OPENING_END`` on, evenly."""
    index = 0
    while True:
        rng = random.Random(f"connect4-suite:{seed}:{phase}:{index}")
        index += 1
        seats = [make_player(game, rng.choice(players), seed=rng.randrange(2**31)) for _ in (0, 1)]
        state, moves = game.initial(), ""
        stop = rng.randrange(shipped.MIN_PLY, shipped.OPENING_END) if phase == "opening" else game.squares
        unfinished = []
        while len(moves) < stop and not game.is_over(state):
            if len(moves) >= shipped.OPENING_END:
                unfinished.append(moves)
            move = seats[len(moves) % 2].choose(state)
            state, moves = game.play(state, move), moves + move
        if phase == "opening":
            if len(moves) == stop and not game.is_over(state):
                yield moves
        elif unfinished:
            yield rng.choice(unfinished)


def stratum(position: SuitePosition) -> str:
    return f"{position.phase}/{position.value_name}/{position.holding}"


def build_suite(
    game: Any, solution: Any, name: str, size: int, cache: dict[str, Any], cache_file: Any, left_out: set[Any]
) -> tuple[list[SuitePosition], dict[Any, str], int]:
    """The positions of suite ``name``: for each phase, candidates in their seeded order, solved
    (or read from the cache) until each of the phase's six strata holds its share, or the phase's
    candidates run out; then drawn evenly over the strata (:func:`draw_stratified`)."""
    seed = shipped.SEEDS[name]
    share = -(-size // 12)
    pool: dict[Any, SuitePosition] = {}
    moves_of: dict[Any, str] = {}
    solved = 0
    for phase in ("opening", "endgame"):
        filled: dict[str, int] = {}
        stream = candidates(game, seed, phase, shipped.PLAYERS[name])
        for tried in range(CANDIDATES_PER_POSITION * 6 * share):
            moves = next(stream)
            canonical, _ = game.canonical(shipped.state_of(game, moves))
            if canonical in left_out or canonical in moves_of:
                continue
            if moves not in cache:
                state = shipped.state_of(game, moves)
                found: Any = None
                if solution.value(state) >= 0:  # a lost position is never in a suite: its moves are not searched
                    found = shipped.format_line(moves, column_outcomes(game, solution, state))
                cache[moves] = found
                cache_file.write(json.dumps([moves, found]) + "\n")
                cache_file.flush()
                solved += 1
            moves_of[canonical] = moves
            if cache[moves] is None:
                continue
            stored = shipped.StoredOutcomes(game, [shipped.parse_line(cache[moves])])
            position = graded_position(game, stored, shipped.state_of(game, moves))
            if position is None:
                continue
            pool[position.state] = position
            filled[stratum(position)] = filled.get(stratum(position), 0) + 1
            if tried % 50 == 0:
                print(f"{name} {phase}: {tried} tried, {dict(sorted(filled.items()))}", file=sys.stderr, flush=True)
            if len(filled) == 6 and min(filled.values()) >= share:
                break
    chosen = draw_stratified(game, list(pool.values()), seed, size)
    return chosen, {position.state: moves_of[game.canonical(position.state)[0]] for position in chosen}, solved


def column_outcomes(game: Any, solution: Any, state: Any) -> list[Any]:
    """Each column's outcome for the side to move (None for a full one)."""
    found = dict(solution.move_outcomes(state))
    return [found.get(str(column)) for column in range(1, game.columns + 1)]


def build(args: argparse.Namespace) -> None:
    game = gamelearn.get_game("connect4")
    solution = solve(game)
    cache: dict[str, Any] = {}
    if args.cache.exists():
        for line in args.cache.read_text().splitlines():
            moves, found = json.loads(line)
            cache[moves] = found
    left_out: set[Any] = set()
    with args.cache.open("a") as cache_file:
        for name, size in ((shipped.REPORT_NAME, args.size), (shipped.VALIDATION_NAME, args.val_size)):
            started = cpu_seconds()
            chosen, moves_of, solved = build_suite(game, solution, name, size, cache, cache_file, left_out)
            spent = cpu_seconds() - started
            left_out |= {game.canonical(position.state)[0] for position in chosen}
            counts: dict[str, int] = {}
            for position in chosen:
                counts[stratum(position)] = counts.get(stratum(position), 0) + 1
            header = [
                f"# name: {name}",
                f"# description: {len(chosen)} connect4 {shipped.RECIPE}; the games between "
                f"{', '.join(shipped.PLAYERS[name])} (seed {shipped.SEEDS[name]})",
                f"# seed: {shipped.SEEDS[name]}",
                f"# positions: {len(chosen)}",
                f"# strata: {json.dumps(dict(sorted(counts.items())))}",
                f"# solved: {solved} candidates solved in this build, {spent:.0f} CPU s (the rest read from its cache)",
                "# line: the game's columns, then each column's outcome for the side to move "
                "(+N a win in N plies, -N a loss in N, 0 a draw, . a full column)",
            ]
            lines = [shipped.format_line(moves_of[p.state], cached_outcomes(cache, moves_of[p.state])) for p in chosen]
            DATA.mkdir(exist_ok=True)
            target = DATA / f"{name}.txt.gz"
            target.write_bytes(gzip.compress(("\n".join(header + lines) + "\n").encode("ascii"), mtime=0))
            print(f"wrote {target}: {len(chosen)} positions, {solved} solved, {spent:.0f} CPU s", flush=True)
            print(json.dumps(counts, sort_keys=True), flush=True)


def cached_outcomes(cache: dict[str, Any], moves: str) -> list[Any]:
    return shipped.parse_line(cache[moves])[1]


def grade(args: argparse.Namespace) -> None:
    game = gamelearn.get_game("connect4")
    for spec in args.specs:
        cpu = cpu_seconds()
        (report,) = gamelearn.grade(game, [spec], suite=args.suite, seed=args.seed, workers=1)
        cpu = cpu_seconds() - cpu
        interval = keeps_interval(report.counts["keeps"], report.size)
        phases = ", ".join(f"{phase} {100 * (shares['keeps'] or 0):.1f}%" for phase, shares in report.by_phase.items())
        values = ", ".join(f"{value} {100 * (shares['keeps'] or 0):.1f}%" for value, shares in report.by_value.items())
        print(
            f"{report.suite} {spec}: keeps {interval.percent()}, best {100 * report.best:.1f}%, "
            f"blunders {100 * report.blunders:.1f}%; keeps by phase {phases}; by value {values}; "
            f"{cpu:.0f} CPU s ({cpu / report.size:.3f} a move)",
            flush=True,
        )


def perfect(args: argparse.Namespace) -> None:
    from gamelearn.experiments.versus_perfect import against_perfect

    game = gamelearn.get_game("connect4")
    solution = None  # the project's own
    if args.perfect == "bitbully":
        from connect4_bitbully import BitBullySolution  # beside this file: benchmarks/ is on the path

        solution = BitBullySolution(game)
    for side in args.side:
        result = against_perfect(
            game, args.spec, 0 if side == "first" else 1, args.games, args.plies, args.seed, solution=solution
        )
        result["perfect"] = args.perfect
        print(json.dumps(result), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    building = commands.add_parser("build")
    building.add_argument("--size", type=int, default=1000)
    building.add_argument("--val-size", type=int, default=1000)
    building.add_argument("--cache", type=Path, default=Path("connect4-suite-cache.jsonl"))
    grading = commands.add_parser("grade")
    grading.add_argument("specs", nargs="+")
    grading.add_argument("--suite", default=None, help="connect4-v1 (the default) or connect4-val-v1")
    grading.add_argument("--seed", type=int, default=0)
    playing = commands.add_parser("perfect")
    playing.add_argument("spec")
    playing.add_argument("--side", action="append", choices=("first", "second"), default=[])
    playing.add_argument("--games", type=int, default=100)
    playing.add_argument("--plies", type=int, default=2, help="random plies of each opening")
    playing.add_argument("--seed", type=int, default=0)
    playing.add_argument("--perfect", choices=("ours", "bitbully"), default="ours", help="whose perfect player")
    args = parser.parse_args()
    if args.command == "perfect" and not args.side:
        args.side = ["first", "second"]
    {"build": build, "grade": grade, "perfect": perfect}[args.command](args)


if __name__ == "__main__":
    main()
