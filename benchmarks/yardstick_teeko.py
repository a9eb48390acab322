"""The Teeko yardstick of docs/ntuple.md: train a learner (``ntuple``, or ``az``) for a budget of
CPU seconds, grade it raw and with its search on the held-out suite ``teeko-val-v1`` (and, to
report only, on ``teeko-v1``), keeps with their 95% Wilson intervals, and count the games it loses
to ``perfect`` over the balanced book, both colours.  Prints figures and asserts nothing.

    python benchmarks/yardstick_teeko.py train --cpu-seconds 600 --seed 1 --out v1.json
    python benchmarks/yardstick_teeko.py train --cpu-seconds 600 --setting random_plies=12 --out r12.json
    python benchmarks/yardstick_teeko.py train --learner az --raw 32 --search 64 --cpu-seconds 3600 --out a.json
    python benchmarks/yardstick_teeko.py grade v1.json --search 0 --search 4 --search 1s --suite teeko-val-v1
    python benchmarks/yardstick_teeko.py perfect v1.json --search 4
    python benchmarks/yardstick_teeko.py versus v1.json --search 8 --opponent alphabeta:depth=4,eval=thesis

``train``: self-play in batches until this process has used ``--cpu-seconds`` of CPU time
(``resource.getrusage``, user + system, grading left out), a grade on ``teeko-val-v1`` at each of
``--checkpoints`` points (ntuple raw, az with ``--raw`` simulations); writes the knowledge and the
curve (``"clock": "cpu"``) as one JSON file; then, in the same process (its suites built once),
what ``grade`` and ``perfect`` do for its ``--search``, ``--suite`` and ``--perfect`` options.
``grade``: each ``--search`` budget in turn, frozen, on the suite, with the wall-clock and CPU
seconds a move.  For az, ``--search N`` is N simulations a move, with every legal move at the root
(no training cap).  ``perfect``: the learner against ``perfect`` from every opening of the book,
once with each colour; a game lost is the learner's mistake, as every opening is a draw.
Needs the Teeko solution (``gamelearn solve teeko``).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import gamelearn
from gamelearn.experiments.grading import grade_player
from gamelearn.experiments.openings import balanced_openings
from gamelearn.experiments.suites import VALIDATION_NAME, get_suite, keeps_interval
from gamelearn.experiments.yardstick import PLIES, games_lost_to_perfect
from gamelearn.match import play_game
from gamelearn.players.registry import make_player


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (user + system)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


# What ``--search`` sets in each learner's frozen spec: ntuple's plies or time, az's simulations.
PLAY_OPTION = {"ntuple": "search", "az": "simulations"}


def frozen_spec(knowledge: dict[str, Any], search: str) -> str:
    """The frozen spec of the learner whose knowledge this is, playing with ``search``."""
    # az's knowledge names its format; ntuple's is read here without importing JAX
    kind = "az" if knowledge.get("format") == "gamelearn-az" else "ntuple"
    return f"{kind}:train=off,{PLAY_OPTION[kind]}={search}"


def frozen(game: Any, knowledge: dict[str, Any], search: str) -> Any:
    player: Any = make_player(game, frozen_spec(knowledge, search), seed=0)  # ntuple's or az's
    player.load(knowledge)
    return player


def graded(game: Any, knowledge: dict[str, Any], search: str, suite: str) -> dict[str, Any]:
    player = frozen(game, knowledge, search)
    chosen = get_suite(game, suite)
    wall, cpu = time.perf_counter(), cpu_seconds()
    report = grade_player(player, chosen, spec=frozen_spec(knowledge, search).replace("train=off,", ""))
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    interval = keeps_interval(report.counts["keeps"], report.size)
    return {
        "suite": suite,
        "search": search,
        "keeps": report.keeps,
        "low": interval.low,
        "high": interval.high,
        "best": report.best,
        "blunders": report.blunders,
        "by_phase": report.by_phase,
        "wall_s_per_move": wall / report.size,
        "cpu_s_per_move": cpu / report.size,
    }


def references(game: Any, specs: list[str], suites: list[str]) -> list[dict[str, Any]]:
    """Fixed players graded on the suites, for the chart's levels."""
    found = []
    for suite in suites:
        for spec, report in zip(specs, gamelearn.grade(game, specs, suite=suite, workers=1), strict=True):
            interval = keeps_interval(report.counts["keeps"], report.size)
            found.append(
                {"spec": spec, "suite": suite, "keeps": report.keeps, "low": interval.low, "high": interval.high}
            )
            print(f"{suite} {spec}: keeps {interval.percent()}", flush=True)
    return found


def overridden(settings: Any, assignments: list[str]) -> Any:
    """ntuple's self-play ``settings`` with ``NAME=VALUE`` assignments (``random_plies=12``,
    ``halflife=1e12``): the settings no spec option reaches, for experiments on the validation suite."""
    changes: dict[str, Any] = {}
    for assignment in assignments:
        name, _, value = assignment.partition("=")
        if name not in settings.to_dict():
            raise ValueError(f"--setting {assignment}: ntuple has no setting {name!r}")
        try:
            changes[name] = type(getattr(settings, name))(float(value))
        except ValueError:
            raise ValueError(f"--setting {assignment}: {value!r} is not a number") from None
    return replace(settings, **changes)


def train(args: argparse.Namespace) -> None:
    game = gamelearn.get_game("teeko")
    learner: Any = make_player(game, args.learner, seed=args.seed)  # ntuple's or az's
    if args.setting:
        try:
            if not args.learner.startswith("ntuple"):
                raise ValueError(f"--setting: only ntuple's self-play settings can be set, not {args.learner}'s")
            learner.trainer.settings = overridden(learner.trainer.settings, args.setting)
        except ValueError as error:
            print(f"yardstick_teeko.py: error: {error}", file=sys.stderr)
            raise SystemExit(2) from None
    for suite in args.suite or [VALIDATION_NAME]:
        built = time.perf_counter()
        print(json.dumps(get_suite(game, suite).summary()), f"({time.perf_counter() - built:.0f} wall s)", flush=True)
    started, spent = cpu_seconds(), 0.0
    every = args.cpu_seconds / args.checkpoints
    points: list[dict[str, Any]] = []
    while spent < args.cpu_seconds:
        learner.self_play(1)
        spent = cpu_seconds() - started
        if spent >= every * (len(points) + 1) or spent >= args.cpu_seconds:
            grading = cpu_seconds()
            found = graded(game, learner.knowledge(), args.raw, VALIDATION_NAME)
            started += cpu_seconds() - grading  # grading is left out of the training clock
            points.append({"seconds": spent, "games": learner.trainer.games, "keeps": found["keeps"]})
            print(f"{spent:7.1f} CPU s  {learner.trainer.games:>9,} games  keeps {found['keeps']:.1%}", flush=True)
    data: dict[str, Any] = {
        "name": args.out.stem,
        "learner": args.learner.partition(":")[0],
        "spec": args.learner,  # the options it trained with (ntuple:alpha=3), for the record
        "clock": "cpu",
        "seed": args.seed,
        "checkpoint_search": args.raw,
        "settings": args.setting,
        "checkpoints": points,
    }
    if args.learner.startswith("ntuple"):  # every self-play setting in force, the spec's and --setting's
        data["self_play"] = learner.trainer.settings.to_dict()
    data["knowledge"] = learner.knowledge()
    args.out.write_text(json.dumps(data))
    print(f"wrote {args.out}")
    if args.reference:
        data["references"] = references(game, args.reference, args.suite[:1])
    args.out.write_text(json.dumps(data))
    args.learner = args.out
    if args.search:  # graded in this process, whose suites are built already
        grade(args)
    if args.report_search:  # teeko-v1, to report only
        args.suite, args.search = ["teeko-v1"], args.report_search
        grade(args)
    if args.perfect:
        args.search = args.perfect
        perfect(args)


def grade(args: argparse.Namespace) -> None:
    game = gamelearn.get_game("teeko")
    data = json.loads(args.learner.read_text())
    for suite in args.suite:
        for search in args.search:
            found = graded(game, data["knowledge"], search, suite)
            print(
                f"{suite} {frozen_spec(data['knowledge'], search)}: keeps {100 * found['keeps']:.1f}% "
                f"({100 * found['low']:.1f}-{100 * found['high']:.1f}), blunders {100 * found['blunders']:.1f}%, "
                f"{found['wall_s_per_move']:.3f} wall s / {found['cpu_s_per_move']:.3f} CPU s a move",
                flush=True,
            )
            data.setdefault("grades", []).append(found)
    args.learner.write_text(json.dumps(data))


def perfect(args: argparse.Namespace) -> None:
    game = gamelearn.get_game("teeko")
    data = json.loads(args.learner.read_text())
    for search in args.search:
        wall = time.perf_counter()
        result = games_lost_to_perfect(game, frozen(game, data["knowledge"], search), limit=args.openings)
        result["search"] = search
        print(
            f"{frozen_spec(data['knowledge'], search)}: lost {result['lost']} of {result['games']} games to perfect over "
            f"{result['openings']} openings ({time.perf_counter() - wall:.0f} wall s)",
            flush=True,
        )
        data.setdefault("perfect", []).append(result)
    args.learner.write_text(json.dumps(data))


def versus(args: argparse.Namespace) -> None:
    """The learner against a fixed player from every opening of the balanced book, once with each
    colour: its score (a win 1, a draw 1/2) and the games it lost."""
    game = gamelearn.get_game("teeko")
    data = json.loads(args.learner.read_text())
    book = balanced_openings(game)[: args.openings]
    for search in args.search:
        learner = frozen(game, data["knowledge"], search)
        wall, points, lost = time.perf_counter(), 0.0, 0
        for index, opening in enumerate(book):
            for colour in (0, 1):
                other = make_player(game, args.opponent, seed=2 * index + colour)
                seats = [learner, other] if colour == 0 else [other, learner]
                record = play_game(game, seats, seed=index, max_plies=PLIES, learn=False, opening=opening)
                points += 1.0 if record.winner == colour else 0.5 if record.winner is None else 0.0
                lost += record.winner is not None and record.winner != colour
        games = 2 * len(book)
        result = {"search": search, "opponent": args.opponent, "games": games, "score": points / games, "lost": lost}
        print(
            f"{frozen_spec(data['knowledge'], search)} against {args.opponent}: scores {100 * points / games:.1f}% over {games} games "
            f"({len(book)} openings, both colours), lost {lost} ({time.perf_counter() - wall:.0f} wall s)",
            flush=True,
        )
        data.setdefault("versus", []).append(result)
    args.learner.write_text(json.dumps(data))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    training = commands.add_parser("train")
    training.add_argument("--cpu-seconds", type=float, required=True)
    training.add_argument("--seed", type=int, default=1)
    training.add_argument("--learner", default="ntuple", help="the learner's spec: ntuple (the default) or az")
    training.add_argument(
        "--raw", default="0", help="the checkpoints' play: ntuple's search (0: raw), az's simulations"
    )
    training.add_argument("--checkpoints", type=int, default=5)
    training.add_argument(
        "--setting", action="append", default=[], help="ntuple: override a self-play setting, NAME=VALUE"
    )
    training.add_argument("--out", type=Path, required=True)
    training.add_argument("--search", action="append", default=[], help="then grade with this search")
    training.add_argument("--suite", action="append", default=[], help="the suites of those grades")
    training.add_argument("--perfect", action="append", default=[], help="then play perfect with this search")
    training.add_argument("--openings", type=int, default=None)
    training.add_argument("--reference", action="append", default=[], help="a fixed player graded for the chart")
    training.add_argument("--report-search", action="append", default=[], help="then grade on teeko-v1 too")
    grading = commands.add_parser("grade")
    grading.add_argument("learner", type=Path)
    grading.add_argument("--search", action="append", required=True)
    grading.add_argument("--suite", action="append", default=[])
    against = commands.add_parser("perfect")
    against.add_argument("learner", type=Path)
    against.add_argument("--search", action="append", required=True)
    against.add_argument("--openings", type=int, default=None, help="the first N openings of the book only")
    facing = commands.add_parser("versus")
    facing.add_argument("learner", type=Path)
    facing.add_argument("--opponent", required=True, help="a player spec, e.g. alphabeta:depth=4,eval=thesis")
    facing.add_argument("--search", action="append", required=True)
    facing.add_argument("--openings", type=int, default=None, help="the first N openings of the book only")
    args = parser.parse_args()
    if args.command in ("train", "grade") and not args.suite:
        args.suite = [VALIDATION_NAME]
    {"train": train, "grade": grade, "perfect": perfect, "versus": versus}[args.command](args)


if __name__ == "__main__":
    main()
