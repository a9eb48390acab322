"""How a long command ends on ^C or SIGTERM, one way for all of them (train, curves, teeko batch,
teeko experiment): the work stops, what had finished is kept, one line on stderr says what was
kept, and the command exits with the status a shell reports for the signal (130, 143)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import typer

from ..experiments.api import Stop, signals_deferred, stopping_on_signals
from .common import SaidWhy, err_console
from .progress import Bar


@contextmanager
def kept_when_stopped(
    progress: Bar,
    keep: Callable[[KeyboardInterrupt], str],
    then: Callable[[KeyboardInterrupt], None] | None = None,
) -> Iterator[Stop]:
    """Inside the block, ^C and SIGTERM stop the work (a KeyboardInterrupt; a second signal is
    ignored).  When one does: the bar stops, ``keep(the interrupt)`` keeps what had finished and
    returns the line that says so (a signal waits until it has), the line goes to stderr,
    ``then`` renders what the command shows of a stopped run (its ``--json``, say), and the
    command exits with the signal's status.  The :class:`Stop` yielded says which signal came."""
    with stopping_on_signals(ending=True) as stop:  # the first signal decides the exit status
        try:
            yield stop
        except KeyboardInterrupt as stopped:
            progress.stop()
            with signals_deferred():
                said = keep(stopped)
            err_console.print(said, markup=False, soft_wrap=True)
            if then is not None:
                then(stopped)
            raise typer.Exit(SaidWhy(stop.status)) from None
