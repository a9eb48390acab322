"""Where solved tables live: the data directory ($GAMELEARN_HOME, else the platform's user data
directory), the same rule as the command line's, kept here so this layer imports no interface."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def data_dir() -> Path:
    home = os.environ.get("GAMELEARN_HOME")
    if home:
        return Path(home)
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "gamelearn"
    if sys.platform.startswith("win"):
        return Path(os.environ.get("APPDATA", Path.home())) / "gamelearn"
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "gamelearn"


def table_path(name: str) -> Path:
    """The default file of a solved table, e.g. ``<data dir>/solved/teeko.table``."""
    return data_dir() / "solved" / f"{name}.table"
