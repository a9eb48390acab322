"""The real forms of Teeko solved by the kernels, against the published results of Steele's 1998
solution (Weisstein's MathWorld table "Teeko"; Steele's 1999 summary): standard Teeko is a draw,
Advanced Teeko a first-player win, Advanced Teeko with no first drop on the centre a draw; and, in
a slow test, the other published values.  Each goal set's moving phase is built once (about 20-30 s
of CPU and 300 MB each) and shared by the forms, as `gamelearn solve teeko --variants` does: the
standard goals' is the one the run's solved table of Standard Teeko was built with (tests/conftest.py),
taken from that table as `gamelearn solve teeko` shares it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gamelearn import get_game
from gamelearn.games.teeko_forms import PUBLISHED, SCARNE_DROPS
from gamelearn.solver.codes import decode
from gamelearn.solver.table import PlacingCache, build_moving, build_placing
from gamelearn.solver.teeko import shared_moving_phase
from gamelearn.solver.variant import Indexing, teeko_form

pytestmark = pytest.mark.slow  # real solves of Teeko's forms

_CACHES: dict[str, PlacingCache] = {}
_MOVING: dict[str, tuple[Any, Indexing]] = {}


def moving(goals: str) -> tuple[Any, Indexing]:
    if goals not in _MOVING:
        variant = teeko_form(get_game(f"teeko:goals={goals}"))  # type: ignore[arg-type]
        rows, _ = build_moving(variant)
        _MOVING[goals] = rows, Indexing(variant)
    return _MOVING[goals]


@pytest.fixture
def standard_moving(built_teeko_table: Path) -> None:
    """The standard goals' moving phase, from the run's table (build_moving's rows for the same goals
    and steps, checked whole by the solver's own sharing) instead of a second build of it."""
    if "standard" not in _MOVING:
        variant = teeko_form(get_game("teeko:goals=standard"))  # type: ignore[arg-type]
        shared = shared_moving_phase(variant, built_teeko_table.parent)
        assert shared is not None, "the run's Standard Teeko table has the standard goals' moving phase"
        _MOVING["standard"] = shared[0], Indexing(variant)


def start(goals: str, drops: str, centre: str) -> tuple[int, int | None]:
    """The value of the empty board for the first player, and the length of a win in plies."""
    rows, index = moving(goals)
    variant = teeko_form(get_game(f"teeko:goals={goals},drops={drops},centre={centre}"))  # type: ignore[arg-type]
    layers = build_placing(variant, rows, cache=_CACHES.setdefault(goals, {}), index=index)
    return decode(int(layers[(0, 0)][0]))


# The second builds the advanced goals' moving phase: 20-30 s of CPU, minutes on a loaded machine.
@pytest.mark.timeout(900)
@pytest.mark.usefixtures("standard_moving")
def test_standard_teeko_is_a_draw() -> None:
    assert start("standard", "ssss", "on") == (0, None)


@pytest.mark.timeout(900)
def test_advanced_teeko_is_a_first_player_win_and_a_draw_without_the_centre() -> None:
    value, plies = start("advanced", "ssss", "on")
    assert value == 1
    assert plies == 13  # MathWorld: "first-player win (13 turns)"; a turn is a ply here
    assert start("advanced", "ssss", "off") == (0, None)


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.usefixtures("standard_moving")
def test_every_published_value_of_the_forms() -> None:
    found = {}
    for goals in ("standard", "advanced"):
        for drops in SCARNE_DROPS:
            for centre in ("on", "off"):
                found[(goals, drops, centre)] = start(goals, drops, centre)
    for key, (value, note) in PUBLISHED.items():
        assert found[key][0] == value, (key, note)
    assert found[("advanced", "saaa", "on")] == (1, 25)  # MathWorld: "first-player win (25 turns)"
    assert len(PUBLISHED) == 18  # the 16 forms with the centre allowed, and Steele's two without
