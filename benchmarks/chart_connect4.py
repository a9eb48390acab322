"""One chart of Connect Four's ntuple learners against the CPU minutes of their self-play: above,
the share of ``connect4-val-v1`` where each keeps the value (its default 8-ply search and its raw
network, with their 95% Wilson intervals); below, the games won moving first against perfect play
from 100 won openings of two random plies (the measure GBG reports).

    gamelearn train connect4 ntuple --name s1 --cpu-minutes 15 --seed 1     # once for each 15
    python benchmarks/connect4_ntuple.py perfect --name s1 --games 100 --perfect bitbully \\
        --trained seed=1,cpu_minutes=15 --json s1-m15.json
    python benchmarks/chart_connect4.py s1-m15.json s1-m30.json s2-m15.json ... --out connect4-learners.png

Each file is one ``connect4_ntuple.py perfect --json`` (one learner at one point of its training);
points of one seed are joined by a line, each seed its own marker.  Reference levels from the same
command's measures of fixed players may be added with ``--level NAME=PERCENT`` (the keeps panel).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

MARKERS = "osD^v<>"


def point(path: Path) -> dict[str, Any]:
    """The figures of one file: trained seed and CPU minutes, keeps (default, raw) with their
    intervals, and games won moving first (default, raw)."""
    rows = json.loads(path.read_text())
    facts = next(row for row in rows if "learner" in row)
    if "seed" not in facts or "cpu_minutes" not in facts:
        raise SystemExit(f"{path}: made without --trained seed=S,cpu_minutes=M")
    grades = {("raw" if row["spec"].endswith("search=0") else "default"): row for row in rows if "keeps" in row}
    games = {
        ("raw" if "search=0" in row["spec"] else "default"): row
        for row in rows
        if row.get("side") == "first" and "won" in row
    }
    return {"seed": int(facts["seed"]), "minutes": facts["cpu_minutes"], "grades": grades, "games": games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, default=Path("connect4-learners.png"))
    parser.add_argument("--level", action="append", default=[], metavar="NAME=PERCENT")
    args = parser.parse_args()

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_seed: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for path in args.files:
        found = point(path)
        by_seed[found["seed"]].append(found)
    figure, (keeps_axis, games_axis) = plt.subplots(2, 1, figsize=(8, 7.5), sharex=True, height_ratios=(3, 2))
    colours = {"default": "tab:blue", "raw": "tab:orange"}
    names = {"default": "8-ply search (default play)", "raw": "raw network (search=0)"}
    for index, (seed, points) in enumerate(sorted(by_seed.items())):
        points.sort(key=lambda found: found["minutes"])
        marker = MARKERS[index % len(MARKERS)]
        # seeds side by side at each point, not on top of one another
        minutes = [found["minutes"] + 0.8 * (index - (len(by_seed) - 1) / 2) for found in points]
        for play in ("default", "raw"):
            label = f"{names[play]}, seed {seed}"
            grades = [found["grades"][play] for found in points]
            keeps = [100 * grade["keeps"] for grade in grades]
            errors = [
                [100 * (grade["keeps"] - grade["keeps_low"]) for grade in grades],
                [100 * (grade["keeps_high"] - grade["keeps"]) for grade in grades],
            ]
            keeps_axis.errorbar(minutes, keeps, yerr=errors, marker=marker, color=colours[play], capsize=3, label=label)
            won = [found["games"][play]["won"] for found in points]
            games_axis.plot(minutes, won, marker=marker, color=colours[play], label=label)
    for level in args.level:
        name, _, percent = level.rpartition("=")
        keeps_axis.axhline(float(percent), color="grey", linestyle=":", linewidth=1)
        keeps_axis.annotate(
            f"{name} {float(percent):.1f}%",
            (0, float(percent)),
            textcoords="offset points",
            xytext=(4, 3),
            fontsize=8,
            color="dimgrey",
            xycoords=("axes fraction", "data"),
        )
    keeps_axis.set_ylabel("keeps the value, % of connect4-val-v1")
    keeps_axis.set_title("Connect Four: ntuple self-play, graded by the exact solver")
    keeps_axis.legend(fontsize=8, loc="center left", ncols=2)  # between the two plays, clear of both
    keeps_axis.grid(alpha=0.3)
    games_axis.set_ylabel("games won of 100, moving first\nagainst perfect play (won openings)")
    games_axis.set_xlabel("CPU minutes of self-play (one core)")
    games_axis.set_ylim(0, 100)
    longest = max(found["minutes"] for points in by_seed.values() for found in points)
    games_axis.set_xlim(0, longest + 5)
    games_axis.set_xticks([15 * k for k in range(int(longest // 15) + 1)])
    games_axis.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
