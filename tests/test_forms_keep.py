"""`gamelearn solve teeko --variants` keeps the tables a player uses (standard and Advanced Teeko,
`keep_only`), so that perfect play works after it; a table already there is left as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamelearn import get_game
from gamelearn.solve.forms import solve_forms
from gamelearn.solve.teeko import solve_teeko


@pytest.mark.slow
@pytest.mark.timeout(900)
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
