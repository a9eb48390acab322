"""What a failure of the store is, in one line: the real cause of an sqlite3 or OS error on the
store (permission denied, a read-only file system, a full disk, a lock held by another process,
a damaged file, a file that is not a gamelearn database, a folder that is missing and cannot be
made), and the one test hook of the store (a pause after each COMMIT, docs/store.md).

Split from :mod:`.db` along its seam: this module knows the causes, db the database.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
from pathlib import Path

from ..files import LINK_LOOP, follow_links


class StoreError(ValueError):
    """The store cannot do what was asked; the message names the real cause in one line
    (permission denied, a read-only file system, a full disk, a lock held by another process,
    a file that is not a gamelearn database).  A ValueError, as every user-facing refusal is."""


class StoreLocked(StoreError):
    """Another process held the store's write lock for longer than the wait (no write of ours was
    begun): the same request may succeed later, so the web app answers 503 with Retry-After."""


class StoreFull(StoreError):
    """The disk under the store is full: nothing of the write that met it was kept (it was rolled
    back, and the store's write-ahead log checkpointed to give back what room it can)."""


#: How long a write waits with no other write finishing before giving up.  Every transaction of
#: ours is short (one game's lesson, one save of a batch, one import), so a lock held that long
#: means a stuck process, and the person is better told than kept waiting.
LOCK_WAIT_SECONDS = 10.0
#: One attempt's wait for the write lock (SQLite's busy timeout); see Store._begin.
BUSY_SLICE_SECONDS = 0.5


def _folder_problem(folder: Path) -> str:
    """Why ``folder`` cannot hold the store, or '' if it can."""
    for parent in (folder, *folder.parents):
        if parent.exists() and not parent.is_dir():
            return f"{parent} is a file, not a folder"
        if os.path.islink(parent) and not parent.exists():  # a link that leads nowhere, or in a loop
            final = follow_links(parent)
            return f"{parent} {LINK_LOOP}" if final is None else f"{parent} is a link to {final}, which does not exist"
    return ""


def _read_only_reason(path: Path) -> str:
    """Why the store at ``path`` cannot be written: the file system, the file's or folder's permissions."""
    folder = path.parent
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return f"{folder} is on a read-only file system"
    except OSError:
        pass
    if path.exists() and not os.access(path, os.W_OK):
        return f"permission denied on {path}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"permission denied on the folder {folder}"
    return ""


def _disk_full(folder: Path) -> bool:
    try:
        return shutil.disk_usage(folder).free < 64 * 1024
    except OSError:
        return False


def damaged(path: Path, detail: str) -> str:
    """The line for a store whose file is damaged (SQLite: "database disk image is malformed")."""
    return (
        f"the store {path} is damaged ({detail}); move it aside and start a new one, or restore a copy "
        "(sqlite3's .recover may save what it holds)"
    )


def _cannot_make(folder: Path) -> str:
    """Why the missing ``folder`` could not be made, or '' if it looks as if it could: the nearest
    folder above it that exists is on a read-only file system, or has no write permission for
    anyone (as /proc; root passes every permission check, so its mode bits are read)."""
    parent = folder
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        return ""  # a file on the way: _folder_problem names it
    try:
        if os.statvfs(parent).f_flag & os.ST_RDONLY:
            return f"{parent} is on a read-only file system"
    except OSError:
        pass
    if not parent.stat().st_mode & 0o222 or not os.access(parent, os.W_OK | os.X_OK):
        return f"{parent} cannot be written"
    return ""


def disk_full(path: Path) -> str:
    """The line for a store whose disk is full: what a person needs to know, that the store's
    ``-wal`` file holds its latest writes (deleting it loses them and can damage the store)."""
    return (
        f"cannot write the store {path}: the disk is full; free some space and run again "
        f"(never delete {path.name}-wal: it is part of the store, holding its latest writes)"
    )


def _os_failure(path: Path, error: OSError) -> str:
    if error.errno == errno.ENOSPC:
        return disk_full(path)
    if error.errno in (errno.EACCES, errno.EPERM):
        return f"cannot write the store {path}: permission denied on {error.filename or path}"
    if error.errno == errno.EROFS:
        return f"cannot write the store {path}: {path.parent} is on a read-only file system"
    return f"cannot use the store {path}: {error.strerror or error}"


def _locked(path: Path, error: BaseException, lock_wait: float) -> str:
    return (
        f"the store {path} is locked by another process (no write finished for {lock_wait:g} s); "
        "try again when the other gamelearn command has finished"
    )


def _read_only(path: Path, error: BaseException, lock_wait: float) -> str:
    return f"cannot write the store {path}: " + (_read_only_reason(path) or "it is read-only")


def _full(path: Path, error: BaseException, lock_wait: float) -> str:
    return disk_full(path)


def _io_error(path: Path, error: BaseException, lock_wait: float) -> str:
    if _disk_full(path.parent):
        return disk_full(path)
    return f"cannot use the store {path}: input/output error ({error})"


def _cannot_open(path: Path, error: BaseException, lock_wait: float) -> str:
    problem = _folder_problem(path.parent)
    if problem:
        return f"cannot open the store {path}: {problem}"
    if path.exists() and not os.access(path, os.R_OK):
        return f"cannot open the store {path}: permission denied"
    return f"cannot open the store {path}: " + (_read_only_reason(path) or str(error))


def _corrupt(path: Path, error: BaseException, lock_wait: float) -> str:
    return damaged(path, str(error))


def _not_a_database(path: Path, error: BaseException, lock_wait: float) -> str:
    return f"{path}: not a gamelearn database ({error})"


#: SQLite's primary result codes (https://sqlite.org/rescode.html) and the line each one gets.
_SQLITE_FAILURES = {
    sqlite3.SQLITE_BUSY: _locked,
    sqlite3.SQLITE_LOCKED: _locked,
    sqlite3.SQLITE_READONLY: _read_only,
    sqlite3.SQLITE_FULL: _full,
    sqlite3.SQLITE_CANTOPEN: _cannot_open,
    sqlite3.SQLITE_IOERR: _io_error,
    sqlite3.SQLITE_CORRUPT: _corrupt,
    sqlite3.SQLITE_NOTADB: _not_a_database,
}


def is_disk_full(path: Path, error: BaseException) -> bool:
    """True for a failure that a full disk caused (SQLite's FULL, an I/O error on a full disk, ENOSPC)."""
    if isinstance(error, OSError) and not isinstance(error, sqlite3.Error):
        return error.errno == errno.ENOSPC
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    return primary == sqlite3.SQLITE_FULL or (primary == sqlite3.SQLITE_IOERR and _disk_full(path.parent))


def describe_failure(path: Path, error: BaseException, lock_wait: float = LOCK_WAIT_SECONDS) -> str:
    """One line naming the real cause of a store failure (an sqlite3 or OS error) on ``path``."""
    if isinstance(error, OSError) and not isinstance(error, sqlite3.Error):
        return _os_failure(path, error)
    code = getattr(error, "sqlite_errorcode", None)
    describe = _SQLITE_FAILURES.get(code & 0xFF) if isinstance(code, int) else None
    if describe is None:
        return f"the store {path}: {error}"
    return describe(path, error, lock_wait)


#: The test hook of docs/store.md, promise 2: seconds every COMMIT is followed by a pause, so that a
#: test's signal lands just after a COMMIT, where one landing in COMMIT's fsync is raised.  Read by
#: nothing but :meth:`Store.transaction`; unset (the default) it costs one ``os.environ`` look-up
#: per store opened.
TEST_PAUSE_VARIABLE = "GAMELEARN_TEST_PAUSE_AFTER_COMMIT"


def _test_pause_after_commit() -> float:
    try:
        seconds = float(os.environ.get(TEST_PAUSE_VARIABLE, "") or 0)
    except ValueError:
        return 0.0
    return min(max(seconds, 0.0), 10.0)
