"""gamelearn.jit: numba's kernels run where numba can write no cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.slow  # fresh interpreters, each its own process
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
        [sys.executable, "-c", "from gamelearn.solver.kernels import popcount\nprint(popcount(0b1011))"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert (ours.returncode, ours.stdout.strip()) == (0, "3"), ours.stderr
