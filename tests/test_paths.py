"""The data directory: $GAMELEARN_HOME first, else the platform's user data directory (platformdirs)."""

from __future__ import annotations

import sys
from pathlib import Path

import platformdirs
import pytest

from gamelearn.paths import data_dir


def test_gamelearn_home_comes_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMELEARN_HOME", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "mine"


def test_without_it_the_platforms_user_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMELEARN_HOME", "")  # set but empty counts as unset
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == Path(platformdirs.user_data_dir("gamelearn", appauthor=False, roaming=True))
    if sys.platform.startswith("linux"):  # the XDG rule, stated independently of platformdirs
        assert data_dir() == tmp_path / "xdg" / "gamelearn"
