"""memory.m and stat.m byte for byte: every file the thesis left, bad files."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelearn.thesis.files import (
    ThesisFormatError,
    format_count,
    format_memory,
    format_stat,
    parse_count,
    parse_memory,
    parse_stat,
    read_memory,
    read_stat,
    write_memory,
    write_stat,
)


def thesis_files(folder: Path) -> list[Path]:
    files = [p for p in folder.iterdir() if p.is_file() and p.name != "README.md"]
    files += sorted((folder / "original-traces").glob("*.m"))
    return sorted(files)


def test_every_thesis_file_reads_and_writes_back_byte_for_byte(thesis_data: Path, tmp_path: Path) -> None:
    files = thesis_files(thesis_data)
    assert len(files) == 11 + 16 * 3  # the author's files; memory.m, memory2.m, stat.m of 16 runs
    for path in files:
        data = path.read_bytes()
        out = tmp_path / "copy"
        if path.name.endswith("stat.m"):
            counts = read_stat(path)
            write_stat(counts, out)
        else:
            records = read_memory(path)
            assert len(records) * 33 == len(data)
            write_memory(records, out)
        assert out.read_bytes() == data, path.name


def test_sums_of_the_10000_game_memory_match_the_data_readme(thesis_data: Path) -> None:
    # The README of thesis-data counts them independently: 516 records, 57659 and 17974.
    records = read_memory(thesis_data / "memory after 10000 games.txt")
    assert len(records) == 516
    assert sum(a for a, _ in records.values()) == 57659
    assert sum(b for _, b in records.values()) == 17974
    assert read_stat(thesis_data / "stat.m") == (3214, 2681, 1106, 0, 0, 0, 0, 0, 0)


def test_counts_are_right_aligned_and_zero_is_blank() -> None:
    assert format_count(0) == b"    "
    assert format_count(7) == b"   7"
    assert format_count(9999) == b"9999"
    with pytest.raises(ValueError):
        format_count(10000)
    assert parse_count(b"    ") == 0
    assert parse_count(b"  12") == 12
    assert parse_count(b"1234") == 1234
    for never_written in (b"   0", b"0012", b"0007", b"12  ", b"7   ", b" 1 2", b"  -1", b"  +1", b"\t  1", b"  \xb2"):
        assert parse_count(never_written) is None


def could_have_been_written(entries: list[tuple[str, int, int]]) -> bool:
    """The policy restated independently: four pawns a side, no board twice (nor its side swap);
    both counts zero is allowed (the original reads two blank fields as 0 and 0)."""
    seen: set[str] = set()
    for board, _first, _second in entries:
        if board.count("1") != 4 or board.count("2") != 4:
            return False
        if board in seen or board.translate(str.maketrans("12", "21")) in seen:
            return False
        seen.add(board)
    return True


def memory_boards() -> st.SearchStrategy[str]:
    return st.permutations(["1"] * 4 + ["2"] * 4 + ["0"] * 17).map("".join)


@settings(deadline=None, max_examples=80)  # no deadline: engineers share two cores
@given(
    st.lists(
        st.tuples(
            st.one_of(memory_boards(), st.text("012", min_size=25, max_size=25)),
            st.integers(0, 9999),
            st.integers(0, 9999),
        ),
        max_size=20,
        unique_by=lambda t: t[0],
    )
)
def test_memory_round_trip_and_the_policy(entries: list[tuple[str, int, int]]) -> None:
    """What the original could write round-trips in order; anything else is refused on writing,
    and the same bytes are refused on reading (one policy both ways)."""
    mapping = {board: (a, b) for board, a, b in entries}
    raw = b"".join(board.encode() + format_count(a) + format_count(b) for board, a, b in entries)
    if could_have_been_written(entries):
        data = format_memory(mapping)
        assert data == raw
        assert parse_memory(data) == mapping
        assert list(parse_memory(data)) == list(mapping)  # file order kept
        assert format_memory(entries) == data  # entries or a mapping, the same bytes
    else:
        with pytest.raises(ThesisFormatError, match=r"record \d+"):
            format_memory(mapping)
        with pytest.raises(ThesisFormatError, match=r"record \d+ \(byte offset \d+\)"):
            parse_memory(raw)


RECORD = b"0000002120021000120000010   1    "


def test_bad_board_digit_names_record_offset_and_fault() -> None:
    bad = RECORD + RECORD[:7] + b"3" + RECORD[8:]
    with pytest.raises(ValueError, match=r"record 2 \(byte offset 33\): board digit 8 \(byte offset 40\) is '3'"):
        parse_memory(bad)


def test_bad_count_names_record_and_field() -> None:
    other = b"0000002120021000100002010   1    "
    third = b"0000002120021000000012010   1    "
    bad = RECORD + other + third[:25] + b"  1 " + third[29:]
    with pytest.raises(ValueError, match=r"record 3 \(byte offset 66\): count field 1 \(byte offset 91\) is '  1 '"):
        parse_memory(bad)


def test_cut_short_file_and_duplicate_board_are_refused() -> None:
    with pytest.raises(ValueError, match=r"record 2 \(byte offset 33\) is cut short: 10 of 33"):
        parse_memory(RECORD + RECORD[:10])
    with pytest.raises(
        ValueError, match=r"record 2 \(byte offset 33\): board 0000002120021000120000010 repeats record 1"
    ):
        parse_memory(RECORD + RECORD)


def test_bad_stat_is_refused_with_field_and_offset() -> None:
    assert parse_stat(b" " * 36) == (0,) * 9
    assert format_stat((3214, 2681, 1106, 0, 0, 0, 0, 0, 0)) == b"321426811106" + b" " * 24
    with pytest.raises(ValueError, match=r"35 bytes"):
        parse_stat(b" " * 35)
    with pytest.raises(ValueError, match=r"field 3 \(byte offset 8\)"):
        parse_stat(b" " * 8 + b"x   " + b" " * 24)


def test_write_is_atomic_and_a_refused_mapping_leaves_the_file(tmp_path: Path) -> None:
    target = tmp_path / "memory.m"
    target.write_bytes(RECORD)
    with pytest.raises(ValueError):
        write_memory({"not a board": (1, 0)}, target)
    assert target.read_bytes() == RECORD
    assert [p.name for p in tmp_path.iterdir()] == ["memory.m"]  # no temporary left behind
    with pytest.raises(ValueError, match="cannot read"):
        read_memory(tmp_path / "missing.m")


# --- files: the one writer of exported files ---


def test_the_atomic_writer_gives_open_s_mode_keeps_a_files_mode_and_refuses_a_missing_folder(tmp_path: Path) -> None:
    import os
    import stat as modes

    from gamelearn.files import AtomicFile, MissingFolderError, atomic_write_bytes

    old = os.umask(0o022)
    try:
        fresh = tmp_path / "stat.m"
        write_stat((0,) * 9, fresh)
        assert modes.S_IMODE(fresh.stat().st_mode) == 0o644
        os.umask(0o027)
        other = tmp_path / "other"
        atomic_write_bytes(other, b"x")
        assert modes.S_IMODE(other.stat().st_mode) == 0o640
        os.chmod(fresh, 0o600)
        write_stat((1,) * 9, fresh)
        assert modes.S_IMODE(fresh.stat().st_mode) == 0o600 and read_stat(fresh) == (1,) * 9
    finally:
        os.umask(old)
    missing = tmp_path / "no" / "such" / "stat.m"
    with pytest.raises(ValueError, match=r"cannot write .*stat\.m: no such folder .*such$") as caught:
        write_stat((0,) * 9, missing)
    assert isinstance(caught.value, MissingFolderError) and isinstance(caught.value, OSError)
    assert caught.value.strerror == f"no such folder {missing.parent}"  # for callers that catch OSError
    assert not (tmp_path / "no").exists()
    # a discarded (or failed) file leaves the target as it was, and no temporary behind
    with AtomicFile(fresh, encoding="ascii") as file:
        file.stream.write("half")
        file.discard()
    with pytest.raises(RuntimeError), AtomicFile(fresh) as file:
        file.stream.write(b"half")
        raise RuntimeError("stop")
    assert read_stat(fresh) == (1,) * 9
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other", "stat.m"]
