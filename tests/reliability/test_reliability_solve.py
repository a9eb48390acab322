"""`gamelearn solve teeko` refuses a folder that cannot take its table before the build, and clears
what a killed build left (docs/store.md, "The solved tables").

The table's size is known before anything is solved (the oracle: the size of a table built here);
a read-only folder and a disk too small are one line, exit 2, before the build; a build killed
while it wrote its temporary file (a real SIGKILL) leaves a file the next run removes.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from reliability_probes import children
from reliability_support import (
    REPO,
    Lines,
    command_env,
    gamelearn,
    make_read_only,
    one_error_line,
    small_file_system,
)

KILLED_MID_WRITE = """
import os, signal, sys
from pathlib import Path
from gamelearn.files import AtomicFile

file = AtomicFile(Path(sys.argv[1]))
file.stream.write(b"\\0" * 3_000_000)  # part of a table's payload
file.stream.flush()
print(file.temporary, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.slow  # two small tables built
def test_the_table_size_is_known_before_the_build(tmp_path: Path):
    from gamelearn.solver.table import table_size
    from gamelearn.solver.teeko import build_table
    from gamelearn.solver.variant import small_variant, teeko

    for variant in (small_variant(4, 4, 3), small_variant(4, 4, 3, "asa", False)):
        path = tmp_path / f"{variant.name}.table"
        build_table(variant, path, share=False)
        assert path.stat().st_size == table_size(variant)
    assert table_size(teeko()) == 12_900_853  # what docs/store.md says Standard Teeko's takes


def killed_writer(target: Path) -> Path:
    """The temporary file a process killed (SIGKILL) while it wrote ``target`` left."""
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_MID_WRITE, str(target)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
        timeout=60,
    )
    assert killed.returncode == -signal.SIGKILL
    left = Path(killed.stdout.strip())
    assert left.is_file()
    return left


@pytest.mark.slow  # a gamelearn started, a writer killed
@pytest.mark.skipif(os.name != "posix", reason="a small tmpfs and SIGKILL: Linux")
def test_a_disk_too_small_is_refused_before_the_build_and_a_killed_builds_file_is_cleared(tmp_path: Path):
    home = tmp_path / "home"
    with small_file_system(home, "12M"):  # less than the table's 12.9 MB
        solved = home / "solved"
        solved.mkdir()
        left = killed_writer(solved / "teeko.table")
        dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
        older = solved / f".teeko.table.{int(dead.stdout)}.tmp"  # an older gamelearn's name for it
        older.write_bytes(b"\0" * 3_000_000)
        result = gamelearn(home, "solve", "teeko")
        line = one_error_line(result)
        assert "the table takes 12.9 MB" in line and "nothing was built" in line, line
        assert result.stdout == ""
        assert not left.exists() and not older.exists()  # cleared first: the room measured without them
        assert sorted(solved.iterdir()) == []


@pytest.mark.slow  # a gamelearn started
@pytest.mark.skipif(os.name != "posix", reason="a read-only tmpfs: Linux")
def test_a_read_only_folder_is_refused_before_the_build(tmp_path: Path):
    home = tmp_path / "home"
    with small_file_system(home, "20M"):
        (home / "solved").mkdir()
        make_read_only(home)
        result = gamelearn(home, "solve", "teeko")
        line = one_error_line(result)
        assert "is on a read-only file system" in line and "nothing was built" in line, line
        assert result.stdout == ""


@pytest.mark.slow  # a book of 6x5 to ply 6, about 11 CPU s, searched by two processes
def test_a_book_build_stopped_by_ctrl_c_keeps_what_it_searched_and_goes_on(tmp_path: Path):
    """^C reaches the whole process group, as a terminal sends it: the build and its two workers
    end at once, the positions searched so far are kept and said, and the next build searches
    only the rest; its book holds what a fresh search finds."""
    from gamelearn import get_game
    from gamelearn.solver.connect4 import Connect4Solution
    from gamelearn.solver.connect4.book import Book, positions_by_ply

    spec, plies = "connect4:columns=6,rows=5", "6"
    started = subprocess.Popen(
        [sys.executable, "-m", "gamelearn.cli.main", "solve", spec, "--plies", plies, "--workers", "2"],
        env=command_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: the ^C below reaches it and its workers only
    )
    errors = Lines(started.stderr)  # type: ignore[arg-type]
    errors.wait_for(" positions, ")  # the first line of progress: a quarter of ply 6 searched
    assert children(started.pid) == 2
    os.killpg(started.pid, signal.SIGINT)
    assert started.wait(timeout=30) == 130
    said = errors.text()
    partial = tmp_path / "solved" / "connect4-6x5.book.partial"
    kept = Book.from_bytes(partial.read_bytes())
    total = len(positions_by_ply(Connect4Solution(get_game(spec)).searcher, 6)[6])
    assert 0 < len(kept) < total
    assert f"stopped: the {len(kept):,} positions of ply 6 searched so far are kept in {partial}" in said, said
    assert "Traceback" not in said
    with pytest.raises(ProcessLookupError):  # no worker goes on computing after the build ended
        os.killpg(started.pid, 0)

    again = gamelearn(tmp_path, "solve", spec, "--plies", plies, "--workers", "2", "--json", timeout=240)
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["book_plies"] == 6 and not partial.exists()
    book = Book.from_bytes((tmp_path / "solved" / "connect4-6x5.book").read_bytes())
    game = get_game(spec)
    fresh = Connect4Solution(game, table_bits=16)
    rng = random.Random(6)
    kept_keys = kept.keys.tolist()
    for key in [*rng.sample(kept_keys, 5), *rng.sample(book.keys.tolist(), 5)]:
        own, both = position_of_key(key, game)
        assert book.get(key, both.bit_count()) == fresh.searcher.score(own, both, both.bit_count())


@pytest.mark.slow  # a book of 6x5 to ply 6, about 9 CPU s, in one process
def test_a_second_build_of_a_book_being_built_is_refused_in_one_line(tmp_path: Path):
    """Two builds of one book would each save over what the other searched: while one runs (a real
    process, its lock held), another is refused at once, and once it has ended the book is there."""
    spec = "connect4:columns=6,rows=5"
    first = subprocess.Popen(
        [sys.executable, "-m", "gamelearn.cli.main", "solve", spec, "--plies", "6", "--workers", "1"],
        env=command_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        progress = Lines(first.stderr)  # type: ignore[arg-type]
        progress.wait_for(" positions, ")  # a quarter of ply 6 searched: the build is under way
        os.killpg(first.pid, signal.SIGSTOP)  # held there, its lock with it, however fast the machine
        try:
            second = gamelearn(tmp_path, "solve", spec, "--plies", "6", "--workers", "1")
        finally:
            os.killpg(first.pid, signal.SIGCONT)
        line = one_error_line(second)
        book = tmp_path / "solved" / "connect4-6x5.book"
        assert f"another gamelearn is using {book}; try again when it has finished" in line, line
        assert second.stdout == ""
        assert first.wait(timeout=240) == 0, progress.text()
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
    again = gamelearn(tmp_path, "solve", spec, "--json")
    assert again.returncode == 0 and json.loads(again.stdout)["book_plies"] == 6, again.stderr


def position_of_key(key: int, game) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """(own, both) of a book's key, ``own + both``: a column of ``k`` discs holds ``2**k - 1`` plus
    the side to move's discs in it, so ``k`` is the bit length of its part plus one, less one."""
    height = game.rows + 1
    own = both = 0
    for column in range(game.columns):
        bits = (key >> (column * height)) & ((1 << height) - 1)
        discs = (bits + 1).bit_length() - 1
        both |= ((1 << discs) - 1) << (column * height)
        own |= (bits - ((1 << discs) - 1)) << (column * height)
    return own, both
