"""The `gamelearn` command.

A ^C in the command's first second lands while Python imports its modules, and Python would
print the traceback of whichever import it cut.  So when this package is loaded for the command
itself (the console script, or ``python -m gamelearn.cli.main``), ^C ends the process at once
with status 130 and one line, until ``main()`` starts and the commands' own handling takes over:
nothing has been read or written yet, so there is nothing to keep.  Once ``main()`` ends, ^C is
ignored while the interpreter shuts down.  Imported by a program (tests, the Python API), nothing changes.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType


def _leave_quietly(signum: int, frame: FrameType | None) -> None:
    sys.stderr.write("\ngamelearn: interrupted\n")
    sys.stderr.flush()
    os._exit(128 + signum)


def quiet_start_handler() -> object:
    """The handler of ^C while the command starts (restored to Python's by ``main()``)."""
    return _leave_quietly


if os.path.basename(sys.argv[0] if sys.argv else "") in ("gamelearn", "-m"):
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _leave_quietly)
    except ValueError:  # not the main thread: it cannot set handlers, and ^C is not raised there
        pass
