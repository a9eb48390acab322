"""What starting up imports: each check runs in a fresh interpreter and reads
``sys.modules`` by name, never a clock.  ``import gamelearn`` loads only the package; the light
paths (the rules, a random or searching player, a solve of tic-tac-toe, a game of players that do
not learn) load none of the heavy packages: numba, numpy, scipy, JAX, SQLite, the web stack."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from extras import need
from gamelearn.games import get_game
from gamelearn.players import registry

pytestmark = pytest.mark.slow  # fresh interpreters, each its own process

#: Heavy packages that a program which does not run their code must not import.
HEAVY = ("numba", "llvmlite", "numpy", "scipy", "jax", "sqlite3", "fastapi", "starlette", "uvicorn", "pydantic")


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


def ours(modules: list[str]) -> set[str]:
    return {name for name in modules if name == "gamelearn" or name.startswith("gamelearn.")}


def heavy(modules: list[str]) -> set[str]:
    return {name for name in modules if name.split(".")[0] in HEAVY}


def test_import_gamelearn_loads_only_the_package() -> None:
    modules = imported_after("import gamelearn")
    assert ours(modules) == {"gamelearn"}
    assert heavy(modules) == set()


def test_a_random_tictactoe_player_loads_nothing_heavy() -> None:
    modules = imported_after(
        "import gamelearn\n"
        "game = gamelearn.get_game('tictactoe')\n"
        "player = gamelearn.make_player(game, 'random', seed=1)\n"
        "state = game.play(game.initial(), player.choose(game.initial()))"
    )
    assert "gamelearn.players.basic" in modules  # it did make the player
    assert heavy(modules) == set()


def test_the_rules_of_tictactoe_load_no_other_game_and_nothing_heavy() -> None:
    modules = imported_after(
        "import gamelearn\ngame = gamelearn.get_game('tictactoe')\ngame.play(game.play(game.initial(), '4'), '0')"
    )
    assert "gamelearn.games.tictactoe" in modules
    assert not {"gamelearn.games.teeko", "gamelearn.games.hexapawn"} & ours(modules)
    assert heavy(modules) == set()


def test_an_alpha_beta_search_of_tictactoe_loads_no_other_game_s_rules_and_nothing_heavy() -> None:
    modules = imported_after(
        "import gamelearn\ngame = gamelearn.get_game('tictactoe')\n"
        "gamelearn.make_player(game, 'alphabeta:depth=3', seed=1).choose(game.initial())"
    )
    assert {"gamelearn.players.search", "gamelearn.players.evaluation"} <= ours(modules)
    assert not {"gamelearn.games.teeko", "gamelearn.games.hexapawn"} & ours(modules)
    assert heavy(modules) == set()


def test_a_short_mcts_search_of_a_small_game_imports_nothing_heavy() -> None:
    modules = imported_after(
        "import gamelearn\ngame = gamelearn.get_game('tictactoe')\n"
        "gamelearn.make_player(game, 'mcts:playouts=1000').choose(game.initial())"
    )
    assert "gamelearn.players.mcts" in modules  # it did search
    assert heavy(modules) == set()


def test_a_pettingzoo_environment_loads_no_players_keeper_or_store() -> None:
    """The AEC environment needs the rules and the action numbers: the single-agent environment's
    opponents (players), keeper and store (sqlite3) come only with it, and its Gymnasium ids are
    registered all the same."""
    need("envs", "gymnasium")
    need("envs", "pettingzoo")
    modules = imported_after(
        "import random\n"
        "from gamelearn.envs.aec import raw_env\n"
        "env = raw_env('tictactoe')\n"
        "env.reset()\n"
        "env.step(int(env.last()[0]['action_mask'].nonzero()[0][0]))\n"
        "import gymnasium\n"
        "assert 'gamelearn/tictactoe-v0' in gymnasium.registry"
    )
    assert "gamelearn.envs.aec" in modules  # it did step
    loaded = {name.split(".")[1] for name in ours(modules) if "." in name}
    assert not {"players", "keeper", "store"} & loaded
    assert heavy(modules) == {"numpy"} | {name for name in modules if name.startswith("numpy.")}
    single = imported_after("import gamelearn.envs\ngamelearn.envs.SingleAgentEnv('tictactoe', 'random').reset(seed=1)")
    assert {"gamelearn.envs.single", "gamelearn.keeper", "gamelearn.players.basic"} <= ours(single)


def test_solving_tictactoe_loads_neither_teeko_nor_the_store_nor_numba() -> None:
    modules = imported_after("import gamelearn\ngamelearn.solve(gamelearn.get_game('tictactoe'))")
    assert "gamelearn.solver.exhaustive" in modules  # it did solve
    assert not {"gamelearn.games.teeko", "gamelearn.store", "gamelearn.keeper"} & set(modules)
    assert heavy(modules) == set()


def test_a_game_of_players_that_do_not_learn_loads_neither_the_keeper_nor_the_store() -> None:
    """Nor the learner contract: a player is a learner only if its class derives from it."""
    modules = imported_after(
        "import gamelearn\ngame = gamelearn.get_game('tictactoe')\n"
        "gamelearn.play_game(game, [gamelearn.make_player(game, 'random', seed=s) for s in (1, 2)], seed=3)"
    )
    assert "gamelearn.match" in modules  # it did play
    kept = {"gamelearn.keeper", "gamelearn.store", "gamelearn.knowledge_formats", "gamelearn.players.knowledge"}
    assert not kept & set(modules)
    assert heavy(modules) == set()


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
            module = kind.factory.__module__.split(".players.", 1)[1].split(".", 1)[0]
            assert registry.KIND_MODULES.get(name) == module, name
    for name, module in registry.KIND_MODULES.items():
        if importlib.util.find_spec(f"gamelearn.players.{module}") is not None:
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
    modules = imported_after(program)
    assert "gamelearn.players.search" in modules  # listing the valid kinds imports them all
    message = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True).stdout
    assert message.startswith("unknown player 'menace' for hexapawn; valid players: random, human,")
    assert "her" in message and "menace" not in message.partition("valid players:")[2]


def test_a_wilson_interval_needs_no_scipy() -> None:
    modules = imported_after("from gamelearn.experiments.statistics import wilson\nwilson(81, 263)")
    assert heavy(modules) == set()


def test_the_command_line_and_the_web_app_load_no_numba_scipy_or_jax_until_they_run_it() -> None:
    for program, own in (
        ("import gamelearn.cli.main", {"numpy", "sqlite3"}),  # the store's own
        ("import gamelearn.web", {"numpy", "sqlite3", "fastapi", "starlette", "pydantic"}),  # and the app's
    ):
        packages = {name.split(".")[0] for name in heavy(imported_after(program))}
        assert packages <= own, program


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
        [sys.executable, "-c", "from gamelearn.players.thesis.evaluation import popcount\nprint(popcount(0b1011))"],
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
            "from gamelearn.players.thesis.evaluation import popcount\n"
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
