"""How the classroom's checkers speak to a student: a verdict printed once, boards drawn side by
side, and an exception in the student's code told as one message (never a traceback)."""

from __future__ import annotations

import linecache
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Verdict", "crashed", "described", "draw", "not_a_function", "verdict"]

_HERE = str(Path(__file__).resolve().parent)


@dataclass(frozen=True)
class Verdict:
    """What a checker found: ``passed`` (also the verdict's truth) and the ``message`` it printed."""

    passed: bool
    message: str = field(repr=False)

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        return f"<Verdict: {'right' if self.passed else 'not yet'}>"

    def _ipython_display_(self) -> None:
        """Nothing more below a notebook cell: the checker has printed the message already."""


def verdict(passed: bool, message: str) -> Verdict:
    """Print the message, once, and give back the verdict."""
    print(message)
    return Verdict(passed, message)


# Drawing --------------------------------------------------------------------------------------


def _is_board(value: object) -> bool:
    return isinstance(value, str) and len(value) == 9


def draw(columns: Sequence[tuple[str, object]]) -> str:
    """Boards side by side under their titles; a value that is no board is written out instead."""
    width = max(len(title) for title, _ in columns) + 3
    lines = ["  " + "".join(title.ljust(width) for title, _ in columns).rstrip()]
    for row in range(3):
        cells = []
        for _, value in columns:
            cells.append(
                (value[3 * row : 3 * row + 3] if isinstance(value, str) and _is_board(value) else "").ljust(width)
            )
        lines.append("  " + "".join(cells).rstrip())
    for title, value in columns:
        if not _is_board(value):
            lines.append(f"  ({title}: {value!r}, which is no board of 9 characters)")
    return "\n".join(lines)


def described(value: object) -> str:
    """A value as a student reads it: None says where it comes from."""
    return "None (a function without `return` gives back None)" if value is None else repr(value)


# Calling the student's function ----------------------------------------------------------------


def not_a_function(checker: str, wanted: str, value: object) -> Verdict:
    """The verdict when a checker is given something else than a function (often its answer)."""
    return verdict(
        False,
        f"Not yet: {checker} needs your function itself, as in {checker}({wanted}), "
        f"with no brackets after {wanted}; it was given {value!r}.",
    )


def crashed(call: str, error: Exception) -> Verdict:
    """One message for an exception inside the student's code: the call, the error, the line."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if not frame.filename.startswith(_HERE)]
    where = ""
    if frames:
        frame = frames[-1]
        text = (frame.line or linecache.getline(frame.filename, frame.lineno or 0)).strip()
        where = f"\nIt stopped at line {frame.lineno} of your cell" + (f": {text}" if text else ".")
    return verdict(False, f"Not yet: {call} stopped with an error, {type(error).__name__}: {error}{where}")
