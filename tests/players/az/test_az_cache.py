"""JAX's compilation cache of the az player, in a process of its own (the suite's processes share
one cache, so only a fresh process shows where a user's goes): a spec refused once the player is
made leaves the data folder as it was, and the first search makes the cache's folder there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from extras import need

need("neural", "jax")
need("neural", "mctx")


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``args`` in a fresh Python, its data folder ``home``, JAX given no cache of the suite's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    env["GAMELEARN_HOME"] = str(home)
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=240, check=False)


def test_a_refused_name_leaves_no_cache_folder(tmp_path: Path) -> None:
    home = tmp_path / "new"
    refused = run(home, "-m", "gamelearn", "grade", "tictactoe", "az:name=nobody")
    assert refused.returncode == 2, refused.stderr
    assert "nothing is kept in the store" in refused.stderr
    assert not home.exists(), sorted(home.rglob("*"))


def test_the_first_search_keeps_its_compilation_in_the_data_folder(tmp_path: Path) -> None:
    home = tmp_path / "new"
    script = (
        "import gamelearn\n"
        "game = gamelearn.get_game('tictactoe')\n"
        "player = gamelearn.make_player(game, 'az:train=off,simulations=2', seed=0)\n"
        "from gamelearn.paths import data_dir\n"
        "print('before', (data_dir() / 'jax-cache').exists())\n"
        "print('move', player.choose(game.initial()))\n"
        "import jax\n"
        "print('after', jax.config.jax_compilation_cache_dir)\n"
    )
    made = run(home, "-c", script)
    assert made.returncode == 0, made.stderr
    lines = made.stdout.splitlines()
    assert lines[0] == "before False" and lines[1].startswith("move ")  # made, the player has not searched
    assert lines[2] == f"after {home / 'jax-cache'}" and (home / "jax-cache").is_dir()
