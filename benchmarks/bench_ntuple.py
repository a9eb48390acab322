"""Train an ``ntuple`` learner by self-play for a budget of CPU seconds of this process, grading
it on the game's suite along the way, and keep it in the store under a name.  Prints figures and
asserts nothing.

    python benchmarks/bench_ntuple.py teeko --cpu-minutes 60 --name t60 --json t60.json
    python benchmarks/bench_ntuple.py tictactoe --cpu-minutes 1 --name t1
    python benchmarks/bench_ntuple.py teeko --cpu-minutes 2 --name x2 --options layout=teeko-windows-v1,tcl=off

The budget is CPU time (``time.process_time``), not wall-clock time, so that a run on a shared
machine measures the same training as one on a quiet machine; grading and saving are left out of
it.  At each checkpoint the learner is saved through the keeper (an interrupted run keeps the last
checkpoint) and a frozen, greedy copy is graded on the suite (``gamelearn grade``'s measure); the
last checkpoint is graded with ``--search`` plies of search over the learnt values too.
``--also-keep M`` keeps a copy of the checkpoint at M CPU minutes as ``NAME-Mm``.  ``--options``
adds spec options to the learner's (a layout, ``tcl``, ``alpha``, ...); the frozen
copies take the kept layout.  ``--json PATH`` writes the checkpoints, as ``gamelearn train --json`` does, for charts.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import gamelearn
from gamelearn.experiments.grading import grade_player
from gamelearn.experiments.suites import get_suite
from gamelearn.keeper import Keeper
from gamelearn.players.registry import make_player
from gamelearn.store.store import Store


def graded(game: Any, learner: Any, search: int, seed: int) -> dict[str, float]:
    spec = "ntuple:train=off" + (f",search={search}" if search != 1 else "")
    frozen = make_player(game, spec, seed=seed)
    frozen.load(learner.knowledge())
    report = grade_player(frozen, get_suite(game), seed=seed, spec=spec)
    return {"keeps": report.keeps, "best": report.best, "blunders": report.blunders}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--cpu-minutes", type=float, required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checkpoints", type=int, default=12)
    parser.add_argument("--search", type=int, default=3, help="plies of search for the last grade")
    parser.add_argument("--also-keep", type=float, action="append", default=[], help="CPU minutes: keep a copy")
    parser.add_argument("--options", default="", help="more spec options for the learner, as in the spec")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    game = gamelearn.get_game(args.game)
    options = f",{args.options}" if args.options else ""
    learner = make_player(game, f"ntuple:name={args.name}{options}", seed=args.seed)
    budget = 60 * args.cpu_minutes
    every = budget / args.checkpoints
    points: list[dict[str, Any]] = []
    trained = 0.0
    with Store() as store:
        keeper = Keeper(store)
        keeper.attach(learner)
        print(f"{'cpu s':>7} {'games':>11} {'plies':>13} {'keeps':>6} {'best':>6} {'blunders':>8}")
        while trained < budget:
            next_point = min(budget, trained + every)
            while trained < next_point:
                started = time.process_time()
                learner.self_play(1)
                trained += time.process_time() - started
            keeper.save(learner)
            for minutes in args.also_keep:
                if abs(trained - 60 * minutes) < every / 2:  # this checkpoint's copy, as NAME-Mm
                    copy = make_player(game, f"ntuple:name={args.name}-{minutes:g}m{options}", seed=args.seed)
                    copy.load(learner.knowledge())
                    keeper.save(copy)
            counts = learner.describe()
            point: dict[str, Any] = {"seconds": round(trained, 1), "games": counts["games"]}
            point["positions"] = counts.get("positions", 0)
            point.update(graded(game, learner, 1, args.seed))
            points.append(point)
            print(
                f"{trained:>7.0f} {point['games']:>11,} {point['positions']:>13,} {point['keeps']:>6.1%} "
                f"{point['best']:>6.1%} {point['blunders']:>8.1%}",
                flush=True,
            )
    final: dict[str, Any] = {}
    if args.search != 1:
        final = graded(game, learner, args.search, args.seed)
        print(
            f"search={args.search}: keeps {final['keeps']:.1%}, best {final['best']:.1%}, "
            f"blunders {final['blunders']:.1%}"
        )
    if args.json:
        result = {"game": game.name, "name": args.name, "seed": args.seed, "clock": "cpu", "checkpoints": points}
        result["spec"] = learner.spec
        result["layout"] = learner.trainer.layout.name
        result["tcl"] = learner.trainer.settings.coherence > 0
        result["searched"] = {"search": args.search, **final} if final else None
        args.json.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
