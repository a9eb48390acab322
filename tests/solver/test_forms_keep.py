"""`gamelearn solve teeko --variants` keeps the tables a player uses (standard and Advanced Teeko,
`keep_only`), so that perfect play works after it; a table already there is left as it is.  And
`solve` tells the first moves' results in words.

The standard goals' moving phase is the one the run's solved table of Standard Teeko was built with
(tests/conftest.py, built once a run by the same `build_moving`), taken from that table as
`gamelearn solve teeko` shares it and checked whole, instead of a second build of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import gamelearn
from gamelearn import get_game
from gamelearn.solver.forms import solve_forms
from gamelearn.solver.teeko import solve_teeko


@pytest.fixture
def standard_moving_from_the_run(built_teeko_table: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """solve_forms' moving phase of the standard goals: the run's table's (see the module's text)."""
    from gamelearn.solver import forms
    from gamelearn.solver.teeko import shared_moving_phase
    from gamelearn.solver.variant import Variant

    def from_the_run(variant: Variant) -> tuple[Any, dict[str, Any]]:
        shared = shared_moving_phase(variant, built_teeko_table.parent)
        assert shared is not None, f"{variant.name}: the run's table has no moving phase of these goals and steps"
        rows, facts = shared
        facts.pop("moving_from")  # the facts build_moving gives: the table's own
        return rows, facts

    monkeypatch.setattr(forms, "build_moving", from_the_run)


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.usefixtures("standard_moving_from_the_run")
def test_the_forms_keep_only_the_tables_asked_for_and_leave_one_there(tmp_path: Path) -> None:
    there = tmp_path / "teeko_drops=aaaa.table"
    there.write_bytes(b"kept before")  # a file already there is not written over
    result = solve_forms(
        goal_sets=["standard"],
        drop_patterns=["ssss", "aaaa", "saaa"],
        centres=["on"],
        keep=tmp_path,
        keep_only={"teeko", "teeko:drops=aaaa"},
    )
    assert [row.agrees for row in result.results] == [True, True, True]  # Steele: all three draws
    assert sorted(path.name for path in tmp_path.iterdir()) == ["teeko.table", "teeko_drops=aaaa.table"]
    assert there.read_bytes() == b"kept before"
    solution = solve_teeko(get_game("teeko"), path=tmp_path / "teeko.table")  # checked by size and checksum
    assert solution.value(get_game("teeko").initial()) == 0


def test_the_first_moves_are_told_in_words_counted_by_their_outcome() -> None:
    from gamelearn.cli.solve import first_words

    game = gamelearn.get_game("tictactoe")
    solution = gamelearn.solve(game)
    assert first_words(solution, game.initial()) == "all draws"  # tic-tac-toe is a draw from every first move
    after_edge = game.play(game.initial(), "1")
    outcomes = [solution.result_of(after_edge, move) for move in game.legal_moves(after_edge)]
    said = first_words(solution, after_edge)
    assert said.startswith(f"{outcomes.count((0, None))} draws") and "[" not in said and "(" not in said
    assert f"{sum(value == -1 for value, _ in outcomes)} losses in " in said
