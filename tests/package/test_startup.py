"""What starting up costs a user: ``import gamelearn`` and ``gamelearn --help``, each in a fresh
interpreter, load none of the heavy optional packages (the extras' JAX, Dask, pandas, OpenSpiel,
torch), read by name in ``sys.modules``, never by a clock; the start-up time is a row of
``benchmarks/bench_startup.py``.  And the contracts behind lazy loading: every public name is
there when asked for, each player kind's module registers it, and numba's kernels run where
numba can write no cache."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gamelearn.games import get_game
from gamelearn.players import registry

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


def test_the_public_names_are_there_when_asked_for() -> None:
    import gamelearn

    for name in gamelearn.__all__:
        assert getattr(gamelearn, name) is not None, name
    assert callable(gamelearn.solve) and gamelearn.solve("tictactoe").value(get_game("tictactoe").initial()) == 0
    assert set(gamelearn.__all__) <= set(dir(gamelearn))


def test_the_kind_table_names_the_module_that_registers_each_kind() -> None:
    registry._load_all()
    for name, kind in registry._KINDS.items():
        if kind.factory.__module__.startswith("gamelearn."):  # not a test's stand-in
            assert registry.KIND_MODULES.get(name) == registry.module_of(kind), name
    for name, module in registry.KIND_MODULES.items():
        if importlib.util.find_spec(registry.module_path(module)) is not None:
            assert name in registry._KINDS, f"{module} does not register {name!r}"
        assert module in registry.PLAYER_MODULES or module == "ntuple", module


def test_an_unknown_kind_still_lists_every_valid_one() -> None:
    program = (
        "import gamelearn\n"
        "try:\n"
        "    gamelearn.make_player(gamelearn.get_game('hexapawn'), 'menace')\n"
        "except ValueError as error:\n"
        "    print(error)"
    )
    message = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True).stdout
    assert message.startswith("unknown player 'menace' for hexapawn; valid players: random, human,")
    assert "her" in message and "menace" not in message.partition("valid players:")[2]


def test_kernels_still_run_where_numba_can_write_no_cache(tmp_path: Path) -> None:
    """A read-only install under a read-only home: numba finds no place for its cache and refuses
    to define a cached kernel; ours are then defined uncached and run.  The environment variable
    leaves numba only a locator that never applies outside IPython, as a read-only disk would."""
    env = {**os.environ, "NUMBA_CACHE_LOCATOR_CLASSES": "IPythonCacheLocator"}
    module = tmp_path / "kernel.py"
    module.write_text("from numba import njit\n\n@njit(cache=True)\ndef one():\n    return 1\n", encoding="utf-8")
    plain = subprocess.run(
        [sys.executable, "-c", "import kernel"], capture_output=True, text=True, cwd=tmp_path, env=env, check=False
    )
    assert plain.returncode != 0 and "cannot cache function" in plain.stderr  # numba's own refusal
    ours = subprocess.run(
        [sys.executable, "-c", "from gamelearn.thesis.evaluation import popcount\nprint(popcount(0b1011))"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert (ours.returncode, ours.stdout.strip()) == (0, "3"), ours.stderr


def test_a_kernel_runs_without_scipy_linalg_and_numba_keeps_blas_for_others() -> None:
    """numba's first kernel of a process does not import scipy.linalg for its BLAS probe, and
    afterwards a program's own np.dot kernel still compiles against scipy's BLAS."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\n"
            "from gamelearn.thesis.evaluation import popcount\n"
            "print(popcount(0b1011), 'scipy.linalg' in sys.modules)\n"
            "import numpy as np\n"
            "from numba import njit\n"
            "dot = njit(lambda a, b: np.dot(a, b))\n"
            "print(dot(np.arange(3.0), np.arange(3.0)), 'scipy.linalg' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["3", "False", "5.0", "True"]
