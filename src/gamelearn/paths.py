"""Where gamelearn keeps its data: $GAMELEARN_HOME, else the platform's user data directory.

A leaf module (standard library only) so that every layer that keeps files, the store and the
solver alike, asks the same rule without importing another layer.
"""

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
        return Path(os.environ.get("APPDATA", str(Path.home()))) / "gamelearn"
    return Path(os.environ.get("XDG_DATA_HOME", str(Path.home() / ".local" / "share"))) / "gamelearn"


def looks_like_path(spec: str) -> bool:
    """A thesis memory named on the command line or in a spec is a file rather than a store name
    when it holds a folder, ends in .m or .txt (as the thesis's saved memories do), or names an
    existing file."""
    return os.sep in spec or "/" in spec or Path(spec).suffix.lower() in (".m", ".txt") or Path(spec).exists()
