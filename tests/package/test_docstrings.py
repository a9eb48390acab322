"""The ``>>>`` examples of the package's docstrings run and print what they show (doctest), so a
docstring cannot drift from the function it documents."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


def modules_with_examples() -> list[str]:
    """Every module of the package whose text holds a ``>>>`` example, by its dotted name."""
    names = []
    for path in sorted((SRC / "gamelearn").rglob("*.py")):
        if ">>> " in path.read_text(encoding="utf-8"):
            parts = path.relative_to(SRC).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = modules_with_examples()


def test_the_central_functions_show_an_example() -> None:
    # The API a reader meets first: README's get_game, make_player, play_game and solve.
    assert {"gamelearn", "gamelearn.games.registry", "gamelearn.play", "gamelearn.solver"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.attempted > 0, f"{name} holds '>>> ' but doctest found no example"
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed (printed above)"
