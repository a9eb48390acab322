"""Progress told in a few plain lines, for where a redrawn bar does not belong: a notebook's cell,
a log file, a pipe.  A bar redraws itself many times a second with escape codes; written to
something that is not a terminal, each redraw is text that stays.  Here a run prints one line at
each quarter of its total (and one at the end), so a long run leaves five lines."""

from __future__ import annotations

import time
from collections.abc import Callable

#: How many lines a run with a known total prints: at 25%, 50%, 75% and 100%.
MILESTONES = 4


class Milestones:
    """``advance(n)`` as work is done, ``set(done)`` for an absolute count; a line is written
    (``write``, default ``print``) when the count passes each quarter of ``total``.  Without a
    total (a run for a time), ``set`` is given seconds, and the quarters are of that time."""

    def __init__(self, label: str, total: float, unit: str, write: Callable[[str], None] | None = None) -> None:
        self.label, self.total, self.unit = label, total, unit
        self.write = write or (lambda line: print(line, flush=True))
        self.done = 0.0
        self.shown = 0  # milestones written so far
        self.started = time.perf_counter()

    def advance(self, count: float = 1) -> None:
        self.set(self.done + count)

    def set(self, done: float) -> None:
        self.done = done
        if self.total <= 0:
            return
        reached = min(MILESTONES, int(MILESTONES * done / self.total + 1e-9))
        if reached > self.shown:
            self.shown = reached
            seconds = time.perf_counter() - self.started
            shown = f"{int(done):,} of {int(self.total):,} {self.unit}"
            self.write(f"{self.label}: {100 * reached // MILESTONES}% ({shown}, {seconds:.0f} s)")


def progress_of(
    progress: bool | Callable[[int], None] | None, label: str, total: float, unit: str
) -> Callable[[int], None] | None:
    """What an API call's ``progress=`` means: None or False, nothing; True, a few lines on stdout
    (:class:`Milestones`); a callable, called with each count of work just done."""
    if progress is None or progress is False:
        return None
    if progress is True:
        return Milestones(label, total, unit).advance
    if not callable(progress):
        raise ValueError(f"progress is True, False, None or a function of a count, not {progress!r}")
    return progress
