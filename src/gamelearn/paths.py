"""Where gamelearn keeps its data: $GAMELEARN_HOME, else the platform's user data directory.

The platform's directory is platformdirs' answer (XDG_DATA_HOME or ~/.local/share on Linux,
~/Library/Application Support on macOS, the roaming AppData folder on Windows).  A leaf module
(no other gamelearn import) so that every layer that keeps files, the store and the solver alike,
asks the same rule without importing another layer.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "gamelearn"


def data_dir() -> Path:
    home = os.environ.get("GAMELEARN_HOME")
    if home:
        return Path(home)
    # appauthor=False: no vendor folder above ours on Windows; roaming: the folder a user's profile keeps.
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False, roaming=True))


def looks_like_path(spec: str) -> bool:
    """A thesis memory named on the command line or in a spec is a file rather than a store name
    when it holds a folder, ends in .m or .txt (as the thesis's saved memories do), or names an
    existing file."""
    return os.sep in spec or "/" in spec or Path(spec).suffix.lower() in (".m", ".txt") or Path(spec).exists()
