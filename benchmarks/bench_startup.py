"""What a fresh process costs before it does anything: the CPU time and the modules of a few
programs a user starts, each in a fresh interpreter, timed from outside with
``resource.getrusage(RUSAGE_CHILDREN)`` (user + system CPU seconds, the median of ``--repeat``).

    python benchmarks/bench_startup.py [--repeat R]

docs/startup.md gives our figures.  tests/package/test_startup.py checks only what a user must never pay:
no heavy optional package (JAX, Dask, pandas, OpenSpiel, torch) for ``import gamelearn`` or
``gamelearn --help``.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys

#: (what a user does, the program a fresh interpreter runs for it).
PROGRAMS = (
    ("python -c pass", "pass"),
    ("import gamelearn", "import gamelearn"),
    (
        "a random tic-tac-toe move",
        "import gamelearn\ngame = gamelearn.get_game('tictactoe')\n"
        "gamelearn.make_player(game, 'random', seed=1).choose(game.initial())",
    ),
    (
        "an mcts:playouts=1000 move (compiled)",
        "import gamelearn\ngame = gamelearn.get_game('tictactoe')\n"
        "gamelearn.make_player(game, 'mcts:playouts=1000', seed=1).choose(game.initial())",
    ),
    (
        "an mcts:playouts=1000,backend=python move",
        "import gamelearn\ngame = gamelearn.get_game('tictactoe')\n"
        "gamelearn.make_player(game, 'mcts:playouts=1000,backend=python', seed=1).choose(game.initial())",
    ),
    (
        "gamelearn --help",
        "import contextlib, io, sys\nsys.argv = ['gamelearn', '--help']\nfrom gamelearn.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n    main()",
    ),
    ("import gamelearn.web", "import gamelearn.web"),
)


def run(program: str) -> tuple[float, int]:
    """CPU seconds of one fresh interpreter running ``program``, and the modules it then holds."""
    script = f"{program}\nimport json, sys\nprint(json.dumps(len(sys.modules)))"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, int(json.loads(done.stdout.splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes a row (default 5)")
    args = parser.parse_args()
    print(f"CPU s (user + system) of a fresh interpreter, median of {args.repeat}; modules it holds")
    print(f"{'program':44} {'CPU s':>7} {'modules':>8}")
    for name, program in PROGRAMS:
        runs = [run(program) for _ in range(args.repeat)]
        print(f"{name:44} {statistics.median(cpu for cpu, _ in runs):7.3f} {runs[-1][1]:8d}")


if __name__ == "__main__":
    main()
