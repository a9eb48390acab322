"""Holding ^C and SIGTERM while something must finish whole (a batch's save, its bookkeeping
included).

``pthread_sigmask`` would hold a signal for the calling thread only: the kernel hands a
process-directed signal to any thread that does not block it (a progress bar's refresh thread,
say), and CPython then runs the Python handler in the main thread at its next bytecode, in the
middle of the block.  So the block swaps the Python-level handlers instead: a signal that arrives
is noted, and once the block is done the handler that was in place is called with it (one call,
however many arrived), which for ^C raises KeyboardInterrupt after the block, not inside it.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

#: The signals a person or a service manager sends to stop a run.
STOP_SIGNALS: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM)


def _deliver(signum: int, handler: Any) -> None:
    """What would have happened had ``signum`` arrived with ``handler`` in place."""
    if callable(handler):
        handler(signum, None)
    elif handler == signal.SIG_DFL:
        signal.raise_signal(signum)  # the default action (SIGTERM: the process ends)
    # SIG_IGN: nothing to do


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Inside the block, SIGINT and SIGTERM wait; after it, the first that arrived is acted on.

    Only the main thread can change handlers, and only it runs them: elsewhere nothing is held
    (no signal raises there anyway)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def note(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    previous: dict[int, Callable[[int, FrameType | None], Any] | int | None] = {}
    try:
        for signum in STOP_SIGNALS:
            if signal.getsignal(signum) is not None:  # None: a handler set outside Python, left alone
                previous[signum] = signal.signal(signum, note)
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if caught:
        _deliver(caught[0], previous[caught[0]])


class Stop:
    """Which stop signal ended a run (None while none has): ``status`` is the exit status a
    shell reports for a process that signal ended, 128 + its number (SIGINT 130, SIGTERM 143)."""

    def __init__(self) -> None:
        self.signum: int | None = None

    @property
    def status(self) -> int:
        return 128 + (self.signum if self.signum is not None else signal.SIGINT)


@contextmanager
def stopping_on_signals(ending: bool = False) -> Iterator[Stop]:
    """Inside the block, SIGINT and SIGTERM both raise KeyboardInterrupt (the code that keeps
    finished work on ^C keeps it on SIGTERM too, which a service manager or ``kill`` sends), and
    the :class:`Stop` yielded says which arrived.  Only the first stops the run: one that follows
    is ignored, so that a second ^C cannot cut short the keeping of what has finished, nor the
    line that says what was kept (SIGKILL still ends the process).  ``ending``: the process
    ends once a signal has stopped the block (a command), so the signals stay ignored after it,
    and the first decides the exit status, however soon the second follows (a SIGTERM landing
    after the handlers were put back would end the process by SIGTERM).  Outside the main thread
    nothing changes."""
    stop = Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    owner = os.getpid()

    def interrupt(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != owner:  # a worker forked from this process, before it set its own handlers
            if signum == signal.SIGTERM:
                os._exit(128 + signum)  # its parent ends it: at once, without a traceback
            return
        if stop.signum is not None:
            return  # already stopping: what has finished is being kept
        stop.signum = signum
        raise KeyboardInterrupt

    previous = {signum: signal.signal(signum, interrupt) for signum in STOP_SIGNALS}
    try:
        yield stop
    except KeyboardInterrupt:
        if stop.signum is None:  # raised by something other than a signal handler (a test, a ^C in C code)
            stop.signum = signal.SIGINT
        raise
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_IGN if ending and stop.signum is not None else handler)
