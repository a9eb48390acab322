"""A learner's knowledge as a JSON file (matchbox boxes, TD tables): written whole or not at all
through the one writer of exported files, read back for the learner to check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .files import atomic_write_bytes


def write_json_file(path: str | Path, value: Any) -> None:
    """Write ``value`` as JSON, atomically (a temporary file renamed over ``path``)."""
    text = json.dumps(value, indent=1, sort_keys=True) + "\n"
    atomic_write_bytes(Path(path), text.encode("utf-8"))


def read_json_file(path: str | Path) -> Any:
    """The JSON value in ``path``; ValueError naming the file and what is wrong."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ValueError(f"{path}: cannot read it ({error.strerror or error})") from None
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not a JSON file ({error})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not a JSON file ({error})") from None
