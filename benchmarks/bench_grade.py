"""The reference table: every kind of player of each game graded on the game's suite, frozen and
greedy, with ``gamelearn.experiments.grading`` (the measure of ``gamelearn grade``).  Prints
figures, asserts nothing.

    python benchmarks/bench_grade.py tictactoe hexapawn     # a minute or two
    python benchmarks/bench_grade.py teeko                  # ~10 min on 2 cores; needs `gamelearn solve teeko`
    python benchmarks/bench_grade.py teeko --thesis-memory "memory after 10000 games.txt"
    python benchmarks/bench_grade.py tictactoe --az-minutes 1   # az trained by self-play first (JAX)

The learners are trained first, in this process, to the budget printed beside them (against a
uniformly random opponent, on their usual side: HER and HIM Black, MENACE X, the others alternating;
ntuple and az by their own self-play, for CPU
seconds of this process), then graded frozen.
``--json PATH`` writes the rows as JSON too.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import gamelearn
from gamelearn.experiments.api import grade
from gamelearn.experiments.grading import grade_player
from gamelearn.experiments.suites import get_suite
from gamelearn.players.registry import graded_spec, make_player

#: The players graded as they are, per game.
PLAIN: dict[str, list[str]] = {
    "tictactoe": [
        "random",
        "minimax:depth=1,eval=simple",
        "minimax:depth=2,eval=simple",
        "minimax:depth=1,eval=better",
        "minimax:depth=2,eval=better",
        "alphabeta:depth=4,eval=better",
        "mcts:playouts=100",
        "mcts:playouts=1000",
        "perfect",
    ],
    "hexapawn": [
        "random",
        "sharp",
        "minimax:depth=1,eval=material",
        "minimax:depth=2,eval=material",
        "alphabeta:depth=4,eval=material",
        "mcts:playouts=100",
        "mcts:playouts=1000",
        "perfect",
    ],
    "teeko": [
        "random",
        "sharp",
        "sharp:depth=2",
        "alphabeta:depth=1,eval=thesis",
        "alphabeta:depth=2,eval=thesis",
        "alphabeta:depth=3,eval=thesis",
        "alphabeta:depth=4,eval=thesis",
        "alphabeta:depth=2,eval=lines",
        "alphabeta:depth=4,eval=lines",
        "mcts:playouts=100",
        "mcts:playouts=1000",
        "thesis:train=off",
        "thesis:original=on,train=off",
        "perfect",
    ],
}

#: The learners trained against random before grading: (spec, training games).
TRAINED: dict[str, list[tuple[str, int]]] = {
    "tictactoe": [("menace", 0), ("menace", 1000), ("td", 0), ("td", 20000)],
    "hexapawn": [("her", 0), ("her", 200), ("him", 200), ("td", 0), ("td", 2000)],
    "teeko": [],
}


def trained(game: Any, spec: str, games: int, seed: int) -> Any:
    """``spec`` trained for ``games`` games against random (on its kind's usual side, HER's and
    HIM's Black, MENACE's X; the others' seats alternating), then a frozen, greedy copy holding
    what it learnt: a one-sided one is graded where its side moves (its ``side_played``)."""
    learner = make_player(game, spec, seed=seed)
    opponent = make_player(game, "random", seed=seed + 1)
    usual = learner.usual_side
    for index in range(games):
        first = index % 2 == 0 if usual is None else usual == 0
        seats = [learner, opponent] if first else [opponent, learner]
        gamelearn.play_game(game, seats, seed=seed * 1_000_003 + index)
    copy = make_player(game, graded_spec(game, spec), seed=seed)
    copy.load(learner.knowledge())  # type: ignore[attr-defined]
    return copy


#: The self-taught learners trained by their own self-play before grading: (spec, CPU seconds).
SELF_TAUGHT: dict[str, list[tuple[str, float]]] = {
    "tictactoe": [("ntuple", 10.0)],
    "hexapawn": [("ntuple", 2.0)],
    "teeko": [],
}


def self_taught(game: Any, spec: str, seconds: float, seed: int) -> tuple[Any, int]:
    """``spec`` trained by its own self-play for ``seconds`` of this process's CPU time (az's
    compilation included), then a frozen, greedy copy, and the games it played."""
    learner = make_player(game, spec, seed=seed)
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        learner.self_play(1)  # type: ignore[attr-defined]
    copy = make_player(game, graded_spec(game, spec), seed=seed)
    copy.load(learner.knowledge())  # type: ignore[attr-defined]
    return copy, learner.trainer.games  # type: ignore[attr-defined]


def row(spec: str, budget: str, report: Any, seconds: float) -> dict[str, Any]:
    return {
        "spec": spec + (f" ({report.side_name}'s {report.size:,})" if report.side is not None else ""),
        "budget": budget,
        "keeps": round(report.keeps, 4),
        "best": round(report.best, 4),
        "blunders": round(report.blunders, 4),
        "by_phase": {k: round(v["keeps"], 4) for k, v in report.by_phase.items()},
        "by_value": {k: round(v["keeps"], 4) for k, v in report.by_value.items()},
        "seconds": round(seconds, 1),
    }


def show(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        phases = " ".join(f"{k} {100 * v:5.1f}%" for k, v in r["by_phase"].items())
        print(
            f"  {r['spec'][:34]:<34} {r['budget']:<16} keeps {100 * r['keeps']:5.1f}%  best {100 * r['best']:5.1f}%  "
            f"blunders {100 * r['blunders']:5.1f}%  ({phases}; {r['seconds']} s)",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=["tictactoe", "hexapawn"])
    parser.add_argument("--thesis-memory", help="a memory.m the thesis program saved (Teeko)")
    parser.add_argument("--az-minutes", type=float, default=0.0, help="train az by self-play this long, then grade")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write the rows to this file as JSON")
    parser.add_argument("--markdown", action="store_true", help="print each game's table in Markdown at the end")
    arguments = parser.parse_args()
    results: dict[str, Any] = {}
    for name in arguments.games:
        game = gamelearn.get_game(name)
        suite = get_suite(game)
        print(f"{name}: suite {suite.name}, {len(suite)} positions", flush=True)
        rows = []
        plain = list(PLAIN[name])
        if name == "teeko" and arguments.thesis_memory:
            plain.append(f"thesis:memory={arguments.thesis_memory},train=off")
        for spec in plain:
            started = time.perf_counter()
            (report,) = grade(game, [spec], seed=arguments.seed)
            rows.append(row(spec, "", report, time.perf_counter() - started))
            show(rows[-1:])
        for spec, budget in TRAINED[name]:
            started = time.perf_counter()
            player = trained(game, spec, budget, arguments.seed)
            report = grade_player(player, suite, seed=arguments.seed, spec=spec, side=player.side_played())
            rows.append(row(spec, f"{budget} games", report, time.perf_counter() - started))
            show(rows[-1:])
        taught = list(SELF_TAUGHT[name])
        if arguments.az_minutes > 0:
            taught.append(("az", 60 * arguments.az_minutes))
        for spec, seconds in taught:
            started = time.perf_counter()
            player, games = self_taught(game, spec, seconds, arguments.seed)
            report = grade_player(player, suite, seed=arguments.seed, spec=spec)
            rows.append(row(spec, f"{seconds:g} CPU s ({games:,} games)", report, time.perf_counter() - started))
            show(rows[-1:])
        results[name] = {"suite": suite.name, "size": len(suite), "rows": rows}
    if arguments.markdown:
        for name, found in results.items():
            print(f"\n{name} ({found['suite']}, {found['size']} positions)\n")
            print("| player | trained | keeps | best | blunders | keeps by phase |")
            print("| --- | --- | ---: | ---: | ---: | --- |")
            for r in found["rows"]:
                phases = ", ".join(f"{k} {100 * v:.1f}%" for k, v in r["by_phase"].items())
                print(
                    f"| `{r['spec']}` | {r['budget']} | {100 * r['keeps']:.1f}% | {100 * r['best']:.1f}% "
                    f"| {100 * r['blunders']:.1f}% | {phases} |"
                )
    if arguments.json:
        with open(arguments.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=1)


if __name__ == "__main__":
    main()
