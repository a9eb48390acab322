"""The heuristics' pattern tables against the orders the 1999 thesis spells out, and the
original's tables against the fixed ones: they differ exactly where section i says."""

from __future__ import annotations

from gamelearn.thesis.fixes import Fixes
from gamelearn.thesis.heuristics import COLUMNS, TAGS, tables

EMPTY, TARGET, G2 = COLUMNS.index("empty"), COLUMNS.index("target"), COLUMNS.index("g2")
KEEPS = slice(COLUMNS.index("k1"), COLUMNS.index("k3") + 1)


def cells(*names: str) -> list[int]:
    return [5 * int(n[0]) + int(n[1]) for n in names]


def heuristic(fixes: Fixes, tag: str):  # type: ignore[no-untyped-def]
    table, bounds = tables(fixes)
    h = TAGS.index(tag)
    return table[bounds[h] : bounds[h + 1]]


def test_make4_order_by_missing_cell() -> None:
    make4 = heuristic(Fixes(), "m4")
    assert len(make4) == 5 * 8 + 5 * 8 + 4 * 4 + 2 * 8 + 16 * 4
    # Rows: missing 3 (0-3), 1 (1-4), 0, 4, 1 (0-3), 2 (0-3), 3 (1-4), 2 (1-4).
    assert list(make4[0:8, EMPTY]) == cells("03", "01", "00", "04", "01", "02", "03", "02")
    assert list(make4[32:40, EMPTY]) == cells("43", "41", "40", "44", "41", "42", "43", "42")
    # Columns the same.
    assert list(make4[40:48, EMPTY]) == cells("30", "10", "00", "40", "10", "20", "30", "20")
    # 01-34 then 10-43: last, first, third, second.
    assert list(make4[80:84, EMPTY]) == cells("34", "01", "23", "12")
    assert list(make4[84:88, EMPTY]) == cells("43", "10", "32", "21")
    # 00-44: missing 33, 00, 11, 22, 44, 33, 22, 11.
    assert list(make4[88:96, EMPTY]) == cells("33", "00", "11", "22", "44", "33", "22", "11")
    assert list(make4[96:100, EMPTY]) == cells("30", "03", "21", "12")  # 03-30
    assert list(make4[100:104, EMPTY]) == cells("41", "14", "32", "23")  # 14-41
    assert list(make4[104:112, EMPTY]) == cells("31", "04", "13", "22", "40", "31", "22", "13")  # 04-40
    # Squares row-major, missing D, C, B, A.
    assert list(make4[112:116, EMPTY]) == cells("11", "10", "01", "00")
    assert list(make4[172:176, EMPTY]) == cells("44", "43", "34", "33")
    assert (make4[:, EMPTY] == make4[:, TARGET]).all()


def test_original_make4_and_avoid4_differ_only_where_section_i_says() -> None:
    for tag in ("m4", "a4"):
        fixed, original = heuristic(Fixes(), tag), heuristic(Fixes.original(), tag)
        assert fixed.shape == original.shape
        differing = [r for r in range(len(fixed)) if (fixed[r] != original[r]).any()]
        off_line = [r for r in differing if (fixed[r, : KEEPS.start] != original[r, : KEEPS.start]).any()]
        # 10-43 and 14-41: the missing-third and missing-second patterns name 34/30 (avoid4: and 00 for 04).
        expected = [86, 87, 102, 103] + ([105] if tag == "a4" else [])
        assert off_line == expected
        assert list(original[86, [EMPTY, TARGET]]) == cells("34", "34")
        assert list(original[102, [EMPTY, TARGET]]) == cells("30", "30")
        if tag == "a4":
            assert list(original[105, [EMPTY, TARGET]]) == cells("00", "04")
        for r in set(differing) - set(off_line):  # the rest: keep cells only
            kept_fixed = {c for c in fixed[r, KEEPS] if c >= 0}
            kept_original = {c for c in original[r, KEEPS] if c >= 0}
            assert kept_original == {c for c in kept_fixed if c >= 5}, r  # row-0 keeps dropped (00 for 04 too)


def test_makedouble3_and_nondefendable3_tables() -> None:
    fixed, original = heuristic(Fixes(), "md3"), heuristic(Fixes.original(), "md3")
    assert len(fixed) == len(original) == 12 * 3
    assert [r for r in range(36) if original[r, G2] == 25] == [17, 20, 23, 26, 29]  # the 5 column patterns
    assert list(original[17, KEEPS]) == cells("10", "31") + [-1]
    assert list(fixed[17, KEEPS]) == cells("10", "30") + [-1]
    assert len(heuristic(Fixes.original(), "mnd3")) == 32 * 3  # no squares: the loop never runs
    assert len(heuristic(Fixes(), "mnd3")) == 32 * 3 + 16 * 8
    assert len(heuristic(Fixes(), "and3")) == 32 * 3 + 16 * 8
    assert len(heuristic(Fixes(), "ad3")) == len(heuristic(Fixes.original(), "ad3")) == 36
