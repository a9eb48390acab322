"""What starting up costs a user: ``import gamelearn`` and ``gamelearn --help``, each in a fresh
interpreter, load none of the heavy optional packages (the extras' JAX, Dask, pandas, OpenSpiel,
torch), read by name in ``sys.modules``, never by a clock; the start-up time is a row of
``benchmarks/bench_startup.py``."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # fresh interpreters, each its own process

#: The optional extras' heavy packages (docs/packaging.md): a program that does not use them must
#: not pay for their import.
HEAVY_OPTIONAL = (
    "jax",
    "jaxlib",
    "equinox",
    "optax",
    "mctx",
    "flax",
    "dask",
    "distributed",
    "pandas",
    "pyspiel",
    "open_spiel",
    "torch",
)


def imported_after(program: str) -> list[str]:
    """The modules a fresh interpreter holds after ``program`` that it did not hold before."""
    script = (
        "import sys, json\n"
        "before = set(sys.modules)\n"
        f"{program}\n"
        "print(json.dumps(sorted(set(sys.modules) - before)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    modules: list[str] = json.loads(done.stdout.splitlines()[-1])
    return modules


def heavy_optional(modules: list[str]) -> set[str]:
    return {name.split(".")[0] for name in modules} & set(HEAVY_OPTIONAL)


def test_import_gamelearn_loads_no_heavy_optional_package() -> None:
    modules = imported_after("import gamelearn")
    assert "gamelearn" in modules
    assert heavy_optional(modules) == set()


def test_the_command_s_help_loads_no_heavy_optional_package() -> None:
    program = (
        "import contextlib, io, sys\n"
        "sys.argv = ['gamelearn', '--help']\n"
        "from gamelearn.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as shown, contextlib.suppress(SystemExit):\n"
        "    main()\n"
        "assert 'Usage' in shown.getvalue(), shown.getvalue()"
    )
    modules = imported_after(program)
    assert "gamelearn.cli.main" in modules  # it did run the command
    assert heavy_optional(modules) == set()
