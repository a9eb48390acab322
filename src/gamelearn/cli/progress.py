"""The progress of a long command, told as fits where it is read: a redrawn bar in a terminal, a
few plain lines (each quarter of the work) in a notebook, a pipe or a log, nothing with --quiet.
Lines a command prints beside its bar go above the bar, or plainly; ``note`` lines (what is
only progress, such as each learner finishing) are left out with --quiet, ``print`` lines (the
result's rows) never are."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from ..experiments.api import Milestones

#: --quiet's help, the same on every long command.
QUIET_HELP = "no progress: the result only (errors still go to stderr)"


class Bar:
    """What a command tells its progress through: ``advance(n)``, ``set(done)``, ``print`` and
    ``note`` lines, ``stop()`` before it prints after an interrupt."""

    def __init__(self, console: Console, label: str, total: float | None, unit: str, quiet: bool) -> None:
        self.console, self.quiet = console, quiet
        self.rich: Progress | None = None
        self.lines: Milestones | None = None
        if quiet:
            return
        if console.is_terminal and not console.is_jupyter:
            self.rich = Progress(*bar_columns(total is not None), console=console, transient=True)
            self.task = self.rich.add_task(label, total=total)
        else:
            self.lines = Milestones(label, total or 0, unit, write=lambda line: console.print(line, markup=False))

    def advance(self, count: float = 1) -> None:
        if self.rich is not None:
            self.rich.advance(self.task, count)
        elif self.lines is not None:
            self.lines.advance(count)

    def set(self, done: float, total: float | None = None, description: str | None = None) -> None:
        """``done`` of the work, the total (and the label) changed when given."""
        if self.rich is not None:
            self.rich.update(self.task, completed=done, total=total, description=description)
        elif self.lines is not None:
            if total is not None:
                self.lines.total = total
            if description is not None:
                self.lines.label = description
            self.lines.set(done)

    def print(self, text: str) -> None:
        """A line of the result (shown with --quiet too), above the bar."""
        target = self.rich.console if self.rich is not None else self.console
        target.print(text, markup=False, soft_wrap=True)

    def note(self, text: str) -> None:
        """A line that only tells progress: left out with --quiet."""
        if not self.quiet:
            self.print(text)

    def stop(self) -> None:
        if self.rich is not None:
            self.rich.stop()


def bar_columns(counted: bool) -> tuple[Any, ...]:
    columns: list[Any] = [TextColumn("{task.description}"), BarColumn()]
    # the time left, estimated from the speed so far: a huge run says how long it will take
    return (*columns, *([MofNCompleteColumn()] if counted else []), TimeElapsedColumn(), TimeRemainingColumn())


@contextmanager
def progress_bar(console: Console, label: str, total: float | None, unit: str, quiet: bool = False) -> Iterator[Bar]:
    """A :class:`Bar` for the length of the block (a Rich bar is started and then taken away)."""
    bar = Bar(console, label, total, unit, quiet)
    if bar.rich is None:
        yield bar
        return
    with bar.rich:
        yield bar
