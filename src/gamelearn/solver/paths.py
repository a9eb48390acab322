"""Where solved tables live: the data directory ($GAMELEARN_HOME, else the platform's user data
directory), as gamelearn.paths says for every layer."""

from __future__ import annotations

from pathlib import Path

from ..paths import data_dir


def table_path(name: str) -> Path:
    """The default file of a solved table, e.g. ``<data dir>/solved/teeko.table``."""
    return data_dir() / "solved" / f"{name}.table"
