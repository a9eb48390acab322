"""One chart of every Teeko learner's training curve on the yardstick: the share of the Teeko
suite's positions where its frozen, greedy copy keeps the value, against training time, with
fixed players graded the same way drawn as level lines.

    python benchmarks/bench_ntuple.py teeko --cpu-minutes 60 --name t60 --json t60.json
    gamelearn train teeko az --name a10 --minutes 10 --checkpoints 5 --json > a10.json
    python benchmarks/chart_teeko.py t60.json a10.json --out teeko-learners.png \\
        --reference thesis:train=off --reference alphabeta:depth=4,eval=thesis

Each curve file is the JSON of ``gamelearn train --json`` or ``bench_ntuple.py --json``: the
checkpoints' ``seconds`` (training time, grading left out) and ``keeps``.  The references are
graded here, with ``gamelearn grade``'s measure; ``--graded SPEC=PERCENT`` draws one graded
before instead (``--graded thesis:train=off=66.4``: the grade is deterministic).  Needs the Teeko
solution (``gamelearn solve teeko``) for the references.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import gamelearn
from gamelearn.experiments.grading import grade


def curve_label(data: dict[str, Any], path: Path) -> str:
    kind = "ntuple" if data.get("clock") == "cpu" else "az"
    clock = "CPU" if data.get("clock") == "cpu" else "wall-clock"
    how = ""
    if data.get("layout"):  # bench_ntuple.py's runs since the layouts have names: which one, and TCL
        how = f", {data['layout']}" + (" + TCL" if data.get("tcl") else "")
    return f"{kind} {data.get('name', path.stem)}{how} (self-play, {clock} time)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("curves", nargs="+", type=Path, help="JSON of train --json or bench_ntuple.py --json")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--reference", action="append", default=[], help="a fixed player to grade and draw")
    parser.add_argument(
        "--graded", action="append", default=[], help="SPEC=PERCENT: a fixed player graded before, drawn as it was"
    )
    args = parser.parse_args()

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    game = gamelearn.get_game("teeko")
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=110)
    longest = 1.0
    for path in args.curves:
        data = json.loads(path.read_text())
        points = [p for p in data["checkpoints"] if p.get("keeps") is not None]
        minutes = [p["seconds"] / 60 for p in points]
        keeps = [100 * p["keeps"] for p in points]
        longest = max(longest, *minutes)
        axes.plot(minutes, keeps, marker="o", markersize=3, label=curve_label(data, path))
        searched = data.get("searched")
        if searched:
            axes.plot(
                [minutes[-1]],
                [100 * searched["keeps"]],
                marker="*",
                markersize=11,
                linestyle="none",
                label=f"the same, with search={searched['search']}",
            )
    reports = grade(game, args.reference, workers=1) if args.reference else []
    levels = [(spec, 100 * report.keeps) for spec, report in zip(args.reference, reports, strict=True)]
    for given in args.graded:
        spec, _, percent = given.rpartition("=")
        levels.append((spec, float(percent.rstrip("%"))))
    for spec, level in levels:
        axes.axhline(level, linestyle="--", linewidth=1, color="grey")
        axes.annotate(f"{spec}  {level:.1f}%", (0, level), xytext=(4, 3), textcoords="offset points", fontsize=8)
        print(f"{spec}: keeps {level:.1f}%")
    axes.set_xlim(0, longest * 1.02)
    axes.set_ylim(0, 100)
    axes.set_xlabel("training time (minutes; grading left out)")
    axes.set_ylabel("keeps the value (% of teeko-v1, 2,000 positions)")
    axes.set_title("Teeko learners on the yardstick: frozen, greedy, graded by the exact solution", fontsize=10)
    axes.grid(alpha=0.3)
    axes.legend(fontsize=8, loc="lower right")
    figure.tight_layout()
    figure.savefig(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
