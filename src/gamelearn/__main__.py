"""``python -m gamelearn``: the same command as ``gamelearn`` (where the script is not on PATH)."""

from __future__ import annotations

from gamelearn.cli.main import main

if __name__ == "__main__":
    main()
