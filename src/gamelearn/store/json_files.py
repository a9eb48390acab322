"""A learner's knowledge as a JSON file (matchbox boxes, TD tables): written whole or not at all
through the one writer of exported files, read back for the learner to check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..files import atomic_write_bytes, read_regular_file


def write_json_file(path: str | Path, value: Any) -> None:
    """Write ``value`` as JSON, atomically (a temporary file renamed over ``path``)."""
    text = json.dumps(value, indent=1, sort_keys=True) + "\n"
    atomic_write_bytes(Path(path), text.encode("utf-8"))


#: The largest knowledge file read: every box of tic-tac-toe (765 positions up to symmetry, nine
#: colours of beads each) or a TD table of every position of the three games is well under
#: 16 MiB, so a larger file is not one of ours, refused by its size before it is read.
MAX_JSON_BYTES = 16 * 1024 * 1024


def read_json_file(path: str | Path) -> Any:
    """The JSON value in ``path``; ValueError naming the file and what is wrong (a FIFO, device or
    folder, or a file over :data:`MAX_JSON_BYTES`, is refused saying so, before a read)."""
    path = Path(path)
    try:
        text = read_regular_file(path, MAX_JSON_BYTES, "a knowledge file").decode("utf-8")
    except OSError as error:
        raise ValueError(f"{path}: cannot read it ({error.strerror or error})") from None
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not a JSON file ({error})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not a JSON file ({error})") from None
    except RecursionError:  # the decoder recurses once a level; no file of ours nests past ten
        raise ValueError(f"{path}: nested too deeply to be a knowledge file (arrays or objects in "
                         "arrays, about a thousand levels or more)") from None  # fmt: skip
