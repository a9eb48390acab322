"""Which process holds a lease: what tells a process apart from every other process that had or
will have its number (:func:`process_start`, :func:`is_process`), so that a lease left by a
process that ended is never taken for one of a process given its number later (pid_max is 32,768
by default, so numbers come round)."""

from __future__ import annotations

from pathlib import Path

from ..files import process_runs

#: Where Linux tells a process apart from every other: the boot's id, and each process's stat
#: line (proc(5)), whose 22nd field is the process's start time in clock ticks after the boot.
_BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
_PROC = Path("/proc")


def process_start(pid: int) -> str | None:
    """What tells process ``pid`` apart from every other process that had or will have its
    number: ``BOOT:TICKS``, the boot's id and the process's start time in clock ticks after the
    boot (``/proc/PID/stat``, field 22, proc(5)).  A pid is reused once its process has ended,
    but Linux gives numbers out in turn, so one comes back only after the others up to pid_max
    (32,768 by default) have been given: never within the same tick (1/100 s) as before.  None
    where it cannot be read: no such process (or one that has ended, a zombie), or no ``/proc``
    (not Linux)."""
    try:
        line = (_PROC / str(int(pid)) / "stat").read_text(encoding="ascii", errors="replace")
        boot = _BOOT_ID.read_text(encoding="ascii").strip()
    except (OSError, ValueError):
        return None
    # the command name (field 2) is in parentheses and may hold spaces and ')': split after the last
    fields = line[line.rfind(")") + 2 :].split()
    if len(fields) <= 19 or not fields[19].isdigit() or fields[0] in ("Z", "X"):
        return None  # a zombie (field 3, its state) has ended: only its exit status is left
    return f"{boot}:{fields[19]}"


def is_process(pid: int, start: str | None) -> bool:
    """True if process ``pid`` runs and is the one whose :func:`process_start` was ``start``: a
    process that was given the number of one that ended is another process.  Where starts cannot
    be read (no ``/proc``), or ``start`` was not known, that ``pid`` runs (:func:`process_runs`)."""
    if start is not None and _PROC.joinpath("self", "stat").exists():
        return process_start(pid) == start
    return process_runs(pid)
