"""Shared fixtures: every test gets its own data directory; thesis data is read from ../shared."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def thesis_data_dir() -> Path:
    """The thesis author's saved memories: $GAMELEARN_THESIS_DATA, else ../shared/thesis-data."""
    override = os.environ.get("GAMELEARN_THESIS_DATA")
    return Path(override) if override else REPO.parent / "shared" / "thesis-data"


def pytest_configure(config: pytest.Config) -> None:
    """Before any test module is imported, the run gets a data directory of its own, whatever
    $GAMELEARN_HOME says: code that runs at collection, outside every test's fixture, never
    reaches the user's data either."""
    run_home = Path(tempfile.mkdtemp(prefix="gamelearn-tests-"))
    config.add_cleanup(lambda: shutil.rmtree(run_home, ignore_errors=True))
    os.environ["GAMELEARN_HOME"] = str(run_home)
    share_jax_compilation_cache(run_home / "jax-cache")
    write_bytecode()


def write_bytecode() -> None:
    """The suite starts hundreds of Python processes (the command, servers, workers): where the
    environment says never to write bytecode (PYTHONDONTWRITEBYTECODE), each compiles gamelearn's
    modules again and pytest rewrites every test module again in each worker, a fifth of the CPU of
    a file of command-line tests.  The run writes it (into __pycache__, which git ignores)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False


def share_jax_compilation_cache(folder: Path) -> None:
    """One JAX compilation cache for the run: the az players made in this process and every
    `gamelearn` a test starts (they inherit the variables) compile each function once a run, not
    once for each test's fresh data directory.  The run's own folder, never a user's cache, and one
    for each pytest-xdist worker (JAX writes its entries in place: no worker reads another's half)."""
    from gamelearn.players.az.cache import MIN_COMPILE_SECONDS

    os.environ["JAX_COMPILATION_CACHE_DIR"] = str(folder)
    os.environ["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] = str(MIN_COMPILE_SECONDS)
    jax = sys.modules.get("jax")  # imported already (by a plugin): it read the variables before this
    if jax is not None:
        jax.config.update("jax_compilation_cache_dir", str(folder))
        jax.config.update("jax_persistent_cache_min_compile_time_secs", MIN_COMPILE_SECONDS)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh $GAMELEARN_HOME per test, so no test reads or writes a user's data."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("GAMELEARN_HOME", str(home))
    return home


@pytest.fixture
def thesis_data() -> Path:
    """The folder of the thesis's own files; the test is skipped, with the reason, where it is absent."""
    folder = thesis_data_dir()
    if not (folder / "memory after 10000 games.txt").is_file():
        pytest.skip(f"thesis data not found at {folder} (set GAMELEARN_THESIS_DATA); it is not part of the repository")
    return folder


@pytest.fixture(scope="session")
def built_teeko_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Standard Teeko's solved table, built once for the whole run (about 20 s on 2 cores).  Under
    pytest-xdist every worker of the run shares one folder, the parent of the workers' own temporary
    folders (pytest-xdist's way of running a session fixture once): the first worker to need the
    table builds it there while holding the folder's lock, and the others, waiting on the lock,
    then open it (the solver checks it whole)."""
    import fcntl

    import gamelearn
    from gamelearn.solver.teeko import solve_teeko

    if os.environ.get("PYTEST_XDIST_WORKER"):
        folder = tmp_path_factory.getbasetemp().parent / "teeko-table"
        folder.mkdir(exist_ok=True)
    else:
        folder = tmp_path_factory.mktemp("teeko-table")
    path = folder / "teeko.table"
    with open(folder / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        solve_teeko(gamelearn.get_game("teeko"), path=path, build=True)
    return path


@pytest.fixture
def teeko_table(built_teeko_table: Path, isolated_home: Path) -> Path:
    """The test's data directory holds Standard Teeko's solved table (a link to the one built once)."""
    from gamelearn.solver.teeko import default_path

    target = default_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.symlink_to(built_teeko_table)
    return target


@pytest.fixture
def teeko_suite(teeko_table: Path) -> object:
    """Standard Teeko's suite ``teeko-v1``, drawn once for the whole run (about 9 CPU s, and every
    test that grades on it would draw it again in its own worker): the first test that needs it,
    holding the lock of the folder the run's table is in, draws it with ``get_suite`` from that
    table and leaves it there pickled; the tests after it, in any worker, take it from there
    into the process's own suites (``get_suite`` then returns it, as for a suite drawn there)."""
    import fcntl
    import pickle

    import gamelearn
    from gamelearn.experiments import suites

    game = gamelearn.get_game("teeko")
    name = suites.suite_name(game)
    folder = teeko_table.resolve().parent
    kept = folder / f"{name}.pickle"
    with open(folder / "suite.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if name not in suites._SUITES and kept.is_file():
            suites._SUITES[name] = pickle.loads(kept.read_bytes())
        suite = suites.get_suite(game)
        if not kept.is_file():
            partial = kept.with_suffix(".partial")
            partial.write_bytes(pickle.dumps(suite))
            partial.replace(kept)
    return suite


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (pyproject's addopts): a worker for each core this run may use, so that a run
    pinned to one core (`taskset -c 0`) is one worker and CI's two cores are two."""
    return len(os.sched_getaffinity(0))
