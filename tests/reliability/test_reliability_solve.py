"""`gamelearn solve teeko` refuses a folder that cannot take its table before the build, and clears
what a killed build left (docs/store.md, "The solved tables").

The table's size is known before anything is solved (the oracle: the size of a table built here);
a read-only folder and a disk too small are one line, exit 2, before the build; a build killed
while it wrote its temporary file (a real SIGKILL) leaves a file the next run removes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from reliability_support import REPO, gamelearn, make_read_only, one_error_line, small_file_system

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
