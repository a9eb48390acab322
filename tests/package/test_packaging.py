"""The package as a user installs it: its metadata (the licence, the PyPI page, the extras and the
lock), ``python -m gamelearn``, and one line naming the extra where an optional dependency is
missing.  The build itself (sdist, wheel, a fresh venv outside the checkout) is .ci/check-package."""

from __future__ import annotations

import json
import os
import re
import runpy
import subprocess
import sys
import tomllib
from pathlib import Path

import platformdirs
import pytest
from packaging.requirements import Requirement
from typer.testing import CliRunner

from gamelearn.cli.main import app

REPO = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
REPOSITORY = "https://github.com/gamelearn/gamelearn"
runner = CliRunner()
#: The data directory while this module is imported (at collection, before any fixture).
COLLECTION_HOME = os.environ.get("GAMELEARN_HOME", "")


def test_no_test_reaches_the_users_data_directory_even_at_collection(isolated_home: Path) -> None:
    user_home = Path(platformdirs.user_data_dir("gamelearn", appauthor=False, roaming=True))
    assert COLLECTION_HOME and Path(COLLECTION_HOME).name.startswith("gamelearn-tests-")
    assert Path(COLLECTION_HOME) != user_home and Path(os.environ["GAMELEARN_HOME"]) == isolated_home != user_home


def test_licence_is_an_spdx_string_and_its_text_is_shipped() -> None:
    project = PROJECT["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "the gamelearn authors" in text
    assert "License ::" not in " ".join(project["classifiers"])  # PEP 639: the SPDX string replaces them


def test_metadata_has_keywords_classifiers_and_project_urls() -> None:
    project = PROJECT["project"]
    assert {"teeko", "hexapawn", "pettingzoo"} <= set(project["keywords"])
    assert "Topic :: Games/Entertainment :: Board Games" in project["classifiers"]
    versions = {
        c.rsplit(" :: ", 1)[1] for c in project["classifiers"] if c.startswith("Programming Language :: Python :: 3.")
    }
    floor = project["requires-python"].removeprefix(">=")
    assert min(versions, key=lambda v: tuple(map(int, v.split(".")))) == floor
    assert project["urls"] and all(url.startswith(REPOSITORY) for url in project["urls"].values())


def links(markdown: str) -> list[str]:
    """Every target of a Markdown link or image, and of an HTML src or href."""
    return re.findall(r"\]\(([^)\s]+)", markdown) + re.findall(r"(?:src|href)=\"([^\"]+)\"", markdown)


def test_the_pypi_page_has_only_absolute_links_to_files_that_exist() -> None:
    readme = PROJECT["project"]["readme"]
    text = (REPO / readme).read_text(encoding="utf-8")
    targets = links(text)
    assert len(targets) >= 5
    for target in targets:
        assert target.startswith("https://"), f"{readme}: {target} is relative, and PyPI shows no repository"
        for prefix in (
            f"{REPOSITORY}/blob/main/",
            f"{REPOSITORY}/tree/main/",
            f"{REPOSITORY.replace('github.com', 'raw.githubusercontent.com')}/main/",
        ):
            if target.startswith(prefix):
                assert (REPO / target.removeprefix(prefix)).exists(), (
                    f"{readme}: {target} names no file of the repository"
                )
    assert "![" in text and "raw.githubusercontent.com" in text  # the screenshot, as an image PyPI can load


def test_the_pypi_page_python_blocks_run() -> None:
    text = (REPO / PROJECT["project"]["readme"]).read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert blocks
    for index, block in enumerate(blocks):
        exec(compile(block, f"PyPI page python block {index + 1}", "exec"), {"__name__": "pypi"})


def test_lint_pins_are_in_the_dev_group_not_in_a_public_extra() -> None:
    extras = PROJECT["project"]["optional-dependencies"]
    public = [Requirement(r).name for requirements in extras.values() for r in requirements]
    assert "ruff" not in public and "mypy" not in public
    dev = {Requirement(r).name: str(Requirement(r).specifier) for r in PROJECT["dependency-groups"]["dev"]}
    assert dev["ruff"].startswith("==") and dev["mypy"].startswith("==")
    assert {"build", "twine"} <= set(dev)


def test_the_test_extra_brings_httpx2_which_starlettes_test_client_wants() -> None:
    names = [Requirement(r).name for r in PROJECT["project"]["optional-dependencies"]["test"]]
    assert "httpx2" in names and "httpx" not in names
    # a fresh interpreter: Starlette warns once, at import, where it falls back to httpx
    warned = subprocess.run(
        [sys.executable, "-W", "error::UserWarning", "-c", "import starlette.testclient"],
        capture_output=True,
        text=True,
    )
    assert warned.returncode == 0, warned.stderr


def constraint_pins() -> dict[str, str]:
    pins = {}
    for line in (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            requirement = Requirement(line)
            (version,) = [spec.version for spec in requirement.specifier if spec.operator == "=="]
            pins[canonical(requirement.name)] = version
    return pins


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_lock_pins_every_declared_dependency_within_the_packages_own_ranges() -> None:
    pins = constraint_pins()
    project = PROJECT["project"]
    declared = list(project["dependencies"]) + [r for rs in project["optional-dependencies"].values() for r in rs]
    checked = 0
    for line in declared:
        requirement = Requirement(line)
        if canonical(requirement.name) == "gamelearn":  # the test extra names the others
            continue
        assert canonical(requirement.name) in pins, f"constraints.txt does not pin {requirement.name}"
        assert requirement.specifier.contains(pins[canonical(requirement.name)], prereleases=True), (
            f"constraints.txt pins {requirement.name}=={pins[canonical(requirement.name)]}, outside {requirement}"
        )
        checked += 1
    assert checked >= 20
    assert "gamelearn" not in pins  # the lock is for the dependencies; the package keeps ranges


def test_python_m_gamelearn_is_the_command(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["gamelearn", "rules", "tictactoe"])
    with pytest.raises(SystemExit) as stop:
        runpy.run_module("gamelearn", run_name="__main__")
    assert stop.value.code == 0
    assert capsys.readouterr().out == runner.invoke(app, ["rules", "tictactoe"]).output
    monkeypatch.setattr(sys, "argv", ["gamelearn", "rules", "checkers"])
    with pytest.raises(SystemExit) as stop:
        runpy.run_module("gamelearn", run_name="__main__")
    assert stop.value.code == 2  # the command's own error handling: one line, status 2
    assert capsys.readouterr().err.startswith("gamelearn: error: unknown game 'checkers'")


# Each missing module hidden the way an interpreter without it behaves (None in sys.modules makes
# ``import`` raise ModuleNotFoundError), in a fresh interpreter so that nothing is imported already.
HIDE_AND_IMPORT = """
import json, sys
sys.modules[sys.argv[1]] = None
try:
    import gamelearn.envs
except ModuleNotFoundError as error:
    print(json.dumps([type(error).__name__, error.name, str(error), error.__suppress_context__]))
"""


def test_envs_without_gymnasium_or_pettingzoo_name_the_extra() -> None:
    # Each hidden in turn; on the base install neither is there, and the one named is a missing one.
    from importlib.util import find_spec

    for missing in ("gymnasium", "pettingzoo"):
        run = subprocess.run(
            [sys.executable, "-c", HIDE_AND_IMPORT, missing], capture_output=True, text=True, timeout=60
        )
        assert run.returncode == 0, run.stderr
        kind, name, message, suppressed = json.loads(run.stdout)
        absent = {missing} | {other for other in ("gymnasium", "pettingzoo") if find_spec(other) is None}
        assert (kind, suppressed) == ("ModuleNotFoundError", True) and name in absent
        assert message == f"gamelearn.envs needs {name}, which is not installed: pip install 'gamelearn[envs]'"


@pytest.mark.parametrize(
    "command",
    [
        ["tournament", "tictactoe", "random", "perfect", "--games", "2", "--dask", "local"],
        ["curves", "tictactoe", "menace", "--games", "10", "--every", "5", "--seeds", "1", "--dask", "local"],
    ],
)
def test_dask_runs_without_dask_name_the_extra(monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    monkeypatch.setitem(sys.modules, "dask", None)  # as if dask were not installed
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    result = runner.invoke(app, command)
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("gamelearn:")]
    assert errors == [
        "gamelearn: error: a Dask run needs dask[distributed], which is not installed: pip install 'gamelearn[dask]'"
    ]
    assert "Traceback" not in result.output and "internal error" not in result.output
