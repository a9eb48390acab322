"""One chart of every Teeko learner's training curve on the yardstick: the share of a Teeko
suite's positions where its frozen copy keeps the value, against training time, with fixed
players graded the same way drawn as level lines (perfect play's 100% always among them).

    python benchmarks/yardstick_teeko.py train --cpu-seconds 600 --seed 1 --out s1.json
    python benchmarks/yardstick_teeko.py grade s1.json --search 0 --search 4
    python benchmarks/chart_teeko.py s1.json s2.json s3.json --out teeko-learners.png \\
        --reference thesis:train=off --reference alphabeta:depth=4,eval=thesis

    python benchmarks/bench_ntuple.py teeko --cpu-minutes 60 --name t60 --json t60.json
    gamelearn train teeko az --name a10 --minutes 10 --checkpoints 5 --json > a10.json
    python benchmarks/chart_teeko.py t60.json a10.json --suite teeko-v1 --out old.png

Each curve file is the JSON of ``yardstick_teeko.py train`` (CPU seconds, graded on
``teeko-val-v1``), ``bench_ntuple.py --json`` (CPU seconds) or ``gamelearn train --json``
(wall-clock seconds): the checkpoints' ``seconds`` (grading left out) and ``keeps``; the axis
says which clock each curve ran on.  A file's ``grades`` (``yardstick_teeko.py grade``) on the
chart's suite are drawn at its last checkpoint with their 95% Wilson intervals, and its games lost
to perfect play (``yardstick_teeko.py perfect``) are written in its label.  Files of the same
learner (the same spec, where the file keeps one) with different seeds (``"seed"``) are drawn as their mean with the spread between the
lowest and the highest.  The references are graded here, with ``gamelearn grade``'s measure;
``--graded SPEC=PERCENT`` draws one graded before instead (the grade is deterministic).  Needs
the Teeko solution (``gamelearn solve teeko``) for the references.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path
from typing import Any

import numpy as np

import gamelearn
from gamelearn.experiments.api import grade
from gamelearn.experiments.suites import VALIDATION_NAME, keeps_interval


def curve_label(data: dict[str, Any], path: Path) -> str:
    kind = spec_of(data)
    clock = "CPU" if data.get("clock") == "cpu" else "wall-clock"
    how = ""
    if data.get("layout"):  # bench_ntuple.py's runs since the layouts have names: which one, and TCL
        how = f", {data['layout']}" + (" + TCL" if data.get("tcl") else "")
    played = checkpoint_play(data)
    return f"{kind} {data.get('name', path.stem)}{how}{', ' + played if played else ''} (self-play, {clock} time)"


def learner_of(data: dict[str, Any]) -> str:
    # yardstick_teeko.py names its learner; of the older files, bench_ntuple.py's ran on the CPU
    # clock and train --json (az's) on the wall clock
    return str(data.get("learner") or ("ntuple" if data.get("clock") == "cpu" else "az"))


def spec_of(data: dict[str, Any]) -> str:
    """The learner as its run names it: its whole spec where the file keeps one (``ntuple:alpha=1``)."""
    return str(data.get("spec") or learner_of(data))


def option_name(data: dict[str, Any]) -> str:
    """What a grade's ``search`` sets in this learner's spec."""
    return "simulations" if learner_of(data) == "az" else "search"


def checkpoint_play(data: dict[str, Any]) -> str:
    """How the checkpoints were played, where the file says: the raw network, or az's simulations."""
    search = data.get("checkpoint_search")
    if search is None:
        return ""
    return "raw network" if search in ("0", "1") and learner_of(data) != "az" else f"{option_name(data)}={search}"


def group_of(data: dict[str, Any], path: Path) -> str:
    """Files of one learner kind with the same name but for a ``-sN`` seed suffix are one group."""
    name = str(data.get("name", path.stem))
    stem, _, tail = name.rpartition("-s")
    return stem if stem and tail.isdigit() and "seed" in data else name


def lost_to_perfect(runs: list[dict[str, Any]], search: str) -> str:
    """The games lost to perfect play over the book with ``search``, as a label's tail."""
    found = [(p["lost"], p["games"]) for data in runs for p in data.get("perfect", []) if p["search"] == search]
    if not found:
        return ""
    counts = ", ".join(str(lost) for lost, _ in found)
    return f"; lost {counts} of {found[0][1]} to perfect" + (" (each seed)" if len(found) > 1 else "")


def draw_group(axes: Any, runs: list[tuple[dict[str, Any], Path]], suite: str, shown: list[str]) -> float:
    """One learner's curve (the mean of its seeds, the spread shaded) and its searched grades
    (those of ``shown`` only, where it names any); the longest training time drawn, in minutes."""
    datas = [data for data, _ in runs]
    curves = [[p for p in data["checkpoints"] if p.get("keeps") is not None] for data in datas]
    length = min(len(points) for points in curves)
    minutes = [statistics.mean(points[i]["seconds"] for points in curves) / 60 for i in range(length)]
    keeps = [[100 * points[i]["keeps"] for points in curves] for i in range(length)]
    name = group_of(datas[0], runs[0][1])
    label = curve_label(datas[0] | {"name": name}, runs[0][1]) + (f", {len(runs)} seeds" if len(runs) > 1 else "")
    label += lost_to_perfect(datas, str(datas[0].get("checkpoint_search", "0")))
    line = axes.plot(minutes, [statistics.mean(k) for k in keeps], marker="o", markersize=3, label=label)[0]
    if len(runs) > 1:
        axes.fill_between(minutes, [min(k) for k in keeps], [max(k) for k in keeps], alpha=0.2, color=line.get_color())
    searched: dict[str, list[dict[str, Any]]] = {}
    for data in datas:
        for found in data.get("grades", []):
            if shown and found["search"] not in shown:
                continue
            if found["suite"] == suite and found["search"] not in ("0", "1", data.get("checkpoint_search")):
                searched.setdefault(found["search"], []).append(found)
    for search, grades in searched.items():
        mean = statistics.mean(100 * g["keeps"] for g in grades)
        low = min(100 * g["low"] for g in grades)
        high = max(100 * g["high"] for g in grades)
        axes.errorbar(
            [minutes[-1]],
            [mean],
            yerr=[[mean - low], [high - mean]],
            marker="*",
            markersize=10,
            capsize=3,
            linestyle="none",
            label=f"{spec_of(datas[0])} after it, {option_name(datas[0])}={search} ({seconds_a_move(grades)} wall s a move){lost_to_perfect(datas, search)}",
        )
    return max(minutes) if minutes else 1.0


def seconds_a_move(grades: list[dict[str, Any]]) -> str:
    """The wall-clock seconds a move of one grade, or the range over the seeds' grades."""
    seconds = sorted(g["wall_s_per_move"] for g in grades)
    if f"{seconds[0]:.3f}" == f"{seconds[-1]:.3f}":
        return f"{seconds[0]:.3f}"
    return f"{seconds[0]:.3f}-{seconds[-1]:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "curves", nargs="+", type=Path, help="JSON of yardstick_teeko.py, bench_ntuple.py or train --json"
    )
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--suite", default=VALIDATION_NAME, help="the suite the curves were graded on")
    parser.add_argument("--reference", action="append", default=[], help="a fixed player to grade and draw")
    parser.add_argument(
        "--search", action="append", default=[], help="draw the grades with this search only (default: every one)"
    )
    parser.add_argument(
        "--graded", action="append", default=[], help="SPEC=PERCENT: a fixed player graded before, drawn as it was"
    )
    args = parser.parse_args()

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    game = gamelearn.get_game("teeko")
    groups: dict[tuple[str, str], list[tuple[dict[str, Any], Path]]] = {}
    for path in args.curves:
        data = json.loads(path.read_text())
        groups.setdefault((spec_of(data), group_of(data, path)), []).append((data, path))
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=110)
    longest = max([1.0, *(draw_group(axes, runs, args.suite, args.search) for runs in groups.values())])
    reports = grade(game, args.reference, suite=args.suite, workers=1) if args.reference else []
    levels: list[tuple[str, float, int | None, int | None]] = [
        (spec, 100 * report.keeps, report.counts["keeps"], report.size)
        for spec, report in zip(args.reference, reports, strict=True)
    ]
    for given in args.graded:
        spec, _, percent = given.rpartition("=")
        levels.append((spec, float(percent.rstrip("%")), None, None))
    for data in (json.loads(path.read_text()) for path in args.curves):
        for found in data.get("references", []):  # graded by yardstick_teeko.py train --reference
            if found["suite"] == args.suite and found["spec"] not in [level[0] for level in levels]:
                levels.append((found["spec"], 100 * found["keeps"], None, None))
    levels.append(("perfect", 100.0, None, None))
    for spec, level, kept, size in levels:
        axes.axhline(level, linestyle="--", linewidth=1, color="grey")
        axes.annotate(
            f"{spec}  {level:.1f}%",
            (0, level),
            xytext=(4, -9 if level > 95 else 3),
            textcoords="offset points",
            fontsize=8,
        )
        told = f" ({keeps_interval(kept, size).percent()})" if kept is not None and size else ""
        print(f"{spec}: keeps {level:.1f}%{told} of {args.suite}")
    axes.set_xlim(0, longest * 1.05)
    # from the ten below the lowest point drawn, so that the curves are not squeezed at the top
    lowest = min(
        [level for _, level, _, _ in levels]
        + [float(np.min(np.asarray(line.get_ydata()))) for line in axes.get_lines()]
    )
    axes.set_ylim(max(0, 10 * (lowest // 10) - 10), 102)
    axes.set_xlabel("training time (minutes of the clock each label names; grading left out)")
    axes.set_ylabel(f"keeps the value (% of {args.suite})")
    axes.set_title("Teeko learners on the held-out yardstick, graded by the exact solution", fontsize=10)
    axes.grid(alpha=0.3)
    axes.legend(fontsize=7, loc="lower right")
    figure.tight_layout()
    figure.savefig(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
