"""Interrupt the long commands at every kind of moment, as SQLite's tests do (docs/store.md,
promise 8), and print a table: for each command, SIGKILL at N seeded moments (20 by default),
then SIGINT and SIGTERM just after a COMMIT (the store's pause hook widens that window), each
checked four ways (tests/support/reliability_probes.py): the store's integrity, the learner loads, what is
kept equals a replay of the work the command says it kept, no temporary file left.

    python benchmarks/reliability_kill.py [--moments 20] [--commands train,curves,tournament,tournament-workers]

tests/reliability/test_reliability_kill.py runs a few of these in CI.  Real processes and real signals,
every target under a temporary folder; each probe is bounded (a 120 s guard).  A failed check is
printed in its row, and the script exits 1.  `teeko batch` has its own probes, at seeded moments
and after COMMIT, in tests/reliability/test_reliability_batch.py.
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from reliability_probes import COMMANDS, moments, probe  # noqa: E402

#: Seconds over which the seeded SIGKILL moments fall, after each command's first progress.
SPAN = {"train": 6.0, "curves": 4.0, "tournament": 4.0, "tournament-workers": 4.0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moments", type=int, default=20, help="seeded SIGKILL moments per command")
    parser.add_argument("--commands", default=",".join(COMMANDS), help="comma-separated, of " + ", ".join(COMMANDS))
    options = parser.parse_args()
    commands = [c.strip() for c in options.commands.split(",") if c.strip()]
    unknown = [c for c in commands if c not in COMMANDS]
    if unknown or not 1 <= options.moments <= 100:
        parser.error(f"unknown command {unknown[0]}" if unknown else "--moments is 1..100")
    rows: dict[tuple[str, str], list] = defaultdict(list)
    failures = 0
    started = time.perf_counter()
    for command in commands:
        plan = [(signal.SIGKILL, moment, False) for moment in moments(command, options.moments, SPAN[command])]
        plan += [(signal.SIGINT, 0.0, True), (signal.SIGTERM, 0.0, True)]
        for how, moment, window in plan:
            label = how.name + (" after COMMIT" if window else "")
            with tempfile.TemporaryDirectory(prefix="reliability-kill-") as folder:
                try:
                    outcome = probe(command, how, moment, Path(folder), window=window)
                    rows[(command, label)].append(outcome)
                except AssertionError as error:
                    failures += 1
                    rows[(command, label)].append(f"FAILED: {str(error).splitlines()[0][:60]}")
            print(f"  {command} {label} at {moment:.2f} s: {rows[(command, label)][-1]}", file=sys.stderr)
    print(f"{'command':<19} {'signal':<20} {'runs':>4} {'ok':>4} {'kept (min-max)':>15} {'finished':>8}")
    for (command, label), found in rows.items():
        good = [o for o in found if not isinstance(o, str)]
        kept = [o.kept for o in good]
        span = f"{min(kept):,}-{max(kept):,}" if kept else "-"
        done = sum(o.finished_first for o in good)
        print(f"{command:<19} {label:<20} {len(found):>4} {len(good):>4} {span:>15} {done:>8}")
        for bad in (o for o in found if isinstance(o, str)):
            print(f"  {bad}")
    print(f"kept: train, games of the learner; curves, learners; tournament, games.  {failures} failed checks; "
          f"{time.perf_counter() - started:.0f} s")  # fmt: skip
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
