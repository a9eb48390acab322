"""Every file gamelearn exports is written here: whole, or not at all (the project's convention:
"never a half-written file").

The bytes go to a temporary file beside the target, which is renamed over the target only when
all of it is written (``os.replace`` is atomic within a folder).  A failure, or an explicit
``discard``, leaves the target as it was: absent, or with its old content.

* A new file gets the mode a plain ``open(path, "w")`` would give it (0666 less the umask: 0644
  under umask 022): the temporary file is created with ``os.open(..., 0o666)`` so the kernel
  applies the umask, not with ``tempfile.mkstemp``'s private 0600, and without touching the
  process's umask (``os.umask`` is process-wide, so reading it would race with other threads).
* An existing target keeps its mode.
* A missing parent folder is refused with :class:`MissingFolderError` (never created silently):
  a typing mistake in a path should not scatter folders.

Reading goes through :func:`open_regular_file` (and :func:`read_regular_file`): a FIFO, a device,
a folder or a socket is refused saying what it is, before a byte is read (opened ``O_NONBLOCK``,
so a FIFO with no writer cannot hang the open), and a file larger than its format can hold is
refused by its size, before it is read.

Temporary files of ours (``.NAME.<12 hex>.tmp`` beside the target) that a killed process left
behind are removed by the next write of the same target, once they are older than
:data:`STALE_SECONDS`; a renamed file's folder is synced, so the rename itself survives a crash.

This is a leaf module (the standard library, and ``filelock`` for the lock where there is no
``fcntl``), so every layer may use it.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import time
from pathlib import Path
from types import TracebackType
from typing import IO, Any, BinaryIO

#: A temporary file of ours older than this was left by a process that died: no write of ours
#: takes an hour between creating its temporary file and renaming it.
STALE_SECONDS = 3600.0


class MissingFolderError(FileNotFoundError, ValueError):
    """The target's folder does not exist.

    A ValueError, as every user error of a path is; also a FileNotFoundError, so callers that catch
    OSError (and print ``error.strerror``) report it in one line too.  ``str()`` names the target
    and the folder; ``strerror`` the folder alone.
    """

    def __init__(self, target: Path, folder: Path) -> None:
        super().__init__(errno.ENOENT, f"no such folder {folder}", str(target))
        self.target = target
        self.folder = folder

    def __str__(self) -> str:
        return f"cannot write {self.target}: no such folder {self.folder}"


def _folder_of(target: Path) -> Path:
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise MissingFolderError(target, folder)
    return folder


#: How many symbolic links a target may go through (git's lockfile follows at most 5).
MAX_LINKS = 40


class NotWritableTargetError(ValueError):
    """The target is a FIFO, a device, a socket or a folder: renaming a file over it would replace
    a thing that is not a file (``/dev/full`` became a regular file), so nothing is written."""


def follow_links(path: Path | str) -> Path | None:
    """The path that ``path`` leads to: ``path`` itself, or, for a symbolic link, what it names,
    followed link after link (as git's lockfile does), whether or not that exists; None for a loop
    (or a chain of more than :data:`MAX_LINKS`).  Only ``lstat`` and ``readlink``: nothing is
    opened, so a FIFO on the way cannot block."""
    current = Path(path)
    for _ in range(MAX_LINKS):
        try:
            if not stat.S_ISLNK(os.lstat(current).st_mode):
                return current
        except OSError:
            return current  # absent, or an unreadable folder and the like: the open names it
        link = Path(os.readlink(current))
        current = link if link.is_absolute() else current.parent / link
    return None


#: What :func:`path_problem` says of a loop of symbolic links.
LINK_LOOP = "is a link in a loop (too many symbolic links)"


def path_problem(path: Path | str) -> str:
    """Why ``path`` is no file to read or write, as the rest of a sentence that begins with the
    path, or '' when it is a regular file, leads to one, or does not exist.  The one check of
    every path gamelearn opens (the store and its ``-wal``/``-shm``, a record, a memory, a
    knowledge file, an export's target):

    * ``is a FIFO (named pipe), not a file`` (a character device, a block device, a folder, a
      socket likewise): reading a FIFO without a writer blocks for ever, ``/dev/zero`` never ends,
      ``/dev/null`` reads as an empty store;
    * ``leads to TARGET, a FIFO (named pipe), not a file``: the same through symbolic links;
    * ``is a link to TARGET, which does not exist``: a link that leads nowhere is refused for a
      write too, so that no export makes a file at a place a link chose;
    * :data:`LINK_LOOP`.

    Made with ``lstat``/``stat`` alone, so it returns at once whatever the path is; a reader
    checks the opened file again (:func:`open_regular_file`), so nothing can swap the path between
    this check and the read."""
    path = Path(path)
    final = follow_links(path)
    if final is None:
        return LINK_LOOP
    linked = os.path.islink(path)
    try:
        info = os.stat(final)
    except FileNotFoundError:
        return f"is a link to {os.path.normpath(final)}, which does not exist" if linked else ""
    except OSError as error:
        return LINK_LOOP if error.errno == errno.ELOOP else ""  # no permission and the like: the open names it
    if stat.S_ISREG(info.st_mode):
        return ""
    what = f"{kind_of(info.st_mode)}, not a file"
    return f"leads to {os.path.normpath(final)}, {what}" if linked else f"is {what}"


def resolve_target(path: Path) -> Path:
    """Where a write of ``path`` goes: ``path`` itself, or, for a symbolic link, the file it leads
    to (followed link after link, as git's lockfile does: a link stays a link, its target gets
    the new content).  A loop is refused here, a link that leads nowhere by :func:`check_target`."""
    final = follow_links(path)
    if final is None:
        raise NotWritableTargetError(f"cannot write {path}: it {LINK_LOOP}; nothing was written")
    return final


def check_target(path: Path, shown: Path | str | None = None) -> None:
    """Refuse a target (``path``, already resolved from ``shown``) that exists and is not a
    regular file, saying what it is (:func:`path_problem`)."""
    named = Path(shown) if shown is not None else path
    problem = path_problem(named) or path_problem(path)
    if problem:
        raise NotWritableTargetError(f"cannot write {named}: it {problem}; nothing was written")


class AtomicFile:
    """A file written beside ``path`` and renamed over it by :meth:`commit`.

    ``stream`` is the open temporary file (binary unless ``encoding`` is given).  :meth:`discard`
    (or leaving a ``with`` block by an exception) removes the temporary file and leaves ``path``
    as it was.  Commit and discard close the stream; after either, both are no-ops.

    A symbolic link is followed: its final target is written (atomically, beside itself) and the
    link is kept.  A target that is a FIFO, a device, a socket or a folder is refused
    (:class:`NotWritableTargetError`, a ValueError naming what it is) before anything is written,
    and checked again just before the rename.
    """

    def __init__(self, path: Path | str, encoding: str | None = None, newline: str | None = None) -> None:
        self.requested = Path(path)
        self.target = resolve_target(self.requested)
        check_target(self.target, self.requested)
        folder = _folder_of(self.target)
        try:
            keep_mode: int | None = self.target.stat().st_mode & 0o7777
        except OSError:
            keep_mode = None  # a new file: the umask decides, as for open()
        remove_stale_temporaries(self.target)
        while True:
            # the pid in the name tells a later write whether the process that made it still runs
            temporary = folder / f".{self.target.name}.{os.getpid():x}-{os.urandom(6).hex()}.tmp"
            try:
                handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
                break
            except FileExistsError:
                continue
        self.temporary = temporary
        self._done = False
        try:
            if keep_mode is not None:
                os.chmod(handle, keep_mode)
            if encoding is None:
                self.stream: IO[Any] = os.fdopen(handle, "wb")  # bytes, or text with an encoding
            else:
                self.stream = os.fdopen(handle, "w", encoding=encoding, newline=newline)
        except BaseException:
            os.close(handle)
            temporary.unlink(missing_ok=True)
            raise

    def commit(self) -> None:
        """Flush the written data to disk and rename the temporary file over the target."""
        if self._done:
            return
        try:
            self.stream.flush()
            os.fsync(self.stream.fileno())
            self.stream.close()
            check_target(self.target, self.requested)  # nothing turned it into a FIFO meanwhile
            os.replace(self.temporary, self.target)
        except BaseException:
            self.discard()
            raise
        self._done = True
        sync_folder(self.target.parent if str(self.target.parent) else Path("."))

    def discard(self) -> None:
        """Remove the temporary file; the target stays as it was."""
        if self._done:
            return
        self._done = True
        try:
            self.stream.close()
        finally:
            self.temporary.unlink(missing_ok=True)

    def __enter__(self) -> AtomicFile:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if kind is None:
            self.commit()
        else:
            self.discard()


def sync_folder(folder: Path) -> None:
    """fsync a folder, so that a rename in it is on disk (POSIX: the rename is the folder's data).
    Where a folder cannot be opened or synced (Windows, some network file systems) nothing is done."""
    try:
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


_TEMPORARY = re.compile(r"(?:(?P<pid>[0-9a-f]{1,16})-)?[0-9a-f]{12}")


def process_runs(pid: int) -> bool:
    """True if a process of this pid runs (on POSIX; elsewhere always True: no cheap, safe check)."""
    if os.name != "posix":
        return True  # no cheap, safe check: leave it to the age rule
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it runs, as another user
    return True


def remove_stale_temporaries(target: Path, now: float | None = None, companions: tuple[str, ...] = ()) -> list[Path]:
    """Remove the temporary files of ours beside ``target`` that a dead process left behind.

    A temporary file is ours if its name is ``.NAME.<pid hex>-<12 hex>.tmp`` (or the older
    ``.NAME.<12 hex>.tmp``), or that name followed by one of ``companions`` (SQLite's ``-wal``
    and ``-shm`` beside a database made under a temporary name); it is stale if the process of
    that pid no longer runs, or if it is older than :data:`STALE_SECONDS`.  Files of other
    programs are never touched.  Returns what was removed.
    """
    folder = target.parent if str(target.parent) else Path(".")
    prefix, suffix = f".{target.name}.", ".tmp"
    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        candidates = [entry for entry in os.scandir(folder) if entry.name.startswith(prefix)]
    except OSError:
        return removed
    for entry in candidates:
        middle = ""
        for ending in (suffix, *(suffix + companion for companion in companions)):
            if entry.name.endswith(ending):
                middle = entry.name[len(prefix) : -len(ending)]
                break
        match = _TEMPORARY.fullmatch(middle)
        if match is None:
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        pid = int(match["pid"], 16) if match["pid"] else None
        dead = pid is not None and pid != os.getpid() and not process_runs(pid)
        if dead or now - info.st_mtime > STALE_SECONDS:
            try:
                os.unlink(entry.path)
            except OSError:
                continue
            removed.append(Path(entry.path))
    return removed


def atomic_write_bytes(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (see the module's docstring for the mode and
    the missing-folder rule)."""
    with AtomicFile(path) as file:
        file.stream.write(data)


# --- one writer per file: a lock beside it -----------------------------------------------------


class FileInUseError(ValueError):
    """Another process holds the file's lock: it is writing the file whole, and a second writer
    would silently undo the first's work."""


def lock_path(path: Path | str) -> Path:
    """The lock file of ``path``: ``.NAME.lock`` beside the file a write of it goes to."""
    target = resolve_target(Path(path))
    return target.with_name(f".{target.name}.lock")


class FileLock:
    """An exclusive ``flock`` on ``.NAME.lock`` beside a file, held while a process rewrites the file.

    flock, not a lock file made with ``O_EXCL`` (git's ``index.lock``): the kernel releases it
    when its process dies, SIGKILL included, so a crash can never leave a lock that blocks for
    ever.  The lock file is removed on release; a lock taken on a file another process has just
    removed is taken again on the new one (the inode is compared), so two processes never both
    hold it.  Where ``fcntl`` does not exist (Windows) the ``filelock`` library's lock is taken
    instead (its Windows lock, which Windows releases with its process too), on the same file.
    """

    def __init__(self, path: Path | str, shown: str | None = None) -> None:
        self.path = lock_path(path)
        self.shown = shown if shown is not None else str(path)
        self._handle: int | None = None
        self._other: Any = None  # filelock's, where there is no fcntl

    def acquire(self) -> None:
        """Take the lock, or refuse at once (:class:`FileInUseError`): a batch never waits for another."""
        try:
            import fcntl  # Unix only: elsewhere (Windows) the lock is filelock's
        except ImportError:
            self._acquire_elsewhere()
            return
        while True:
            try:
                handle = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
            except OSError as error:
                raise ValueError(f"cannot lock {self.shown} ({self.path}): {error.strerror or error}") from None
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(handle)
                raise FileInUseError(
                    f"another gamelearn is using {self.shown}; try again when it has finished"
                ) from None
            except BaseException:
                os.close(handle)
                raise
            try:
                same = os.path.samestat(os.fstat(handle), os.stat(self.path))
            except OSError:
                same = False
            if same:
                self._handle = handle
                return
            os.close(handle)  # the holder removed it as we opened it: lock the file now there

    def _acquire_elsewhere(self) -> None:
        """The lock through ``filelock`` (no fcntl here): the operating system's own file lock."""
        import filelock  # only where there is no fcntl (Windows): elsewhere its import would be waste

        lock = filelock.FileLock(self.path, timeout=0, thread_local=False, is_singleton=False, fallback_to_soft=False)
        try:
            lock.acquire()
        except filelock.Timeout:
            raise FileInUseError(f"another gamelearn is using {self.shown}; try again when it has finished") from None
        except OSError as error:
            raise ValueError(f"cannot lock {self.shown} ({self.path}): {error.strerror or error}") from None
        self._other = lock

    def release(self) -> None:
        if self._other is not None:
            held, self._other = self._other, None
            held.release(force=True)
        if self._handle is None:
            return
        try:
            os.unlink(self.path)  # while still held: a waiter that opened it sees another inode
        except OSError:
            pass
        os.close(self._handle)
        self._handle = None

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


# --- reading ----------------------------------------------------------------------------------


class NotARegularFileError(ValueError):
    """The path names a FIFO, a device, a folder or a socket: reading it could hang or never end."""


class FileTooLargeError(ValueError):
    """The file is larger than its format can hold."""


def kind_of(mode: int) -> str:
    """What a file of ``mode`` (st_mode) is, in words: 'a FIFO (named pipe)', 'a folder', ..."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISREG(mode):
        return "a file"
    return "not a regular file"


def open_regular_file(path: Path | str, max_bytes: int | None = None, what: str = "this format") -> BinaryIO:
    """Open ``path`` for reading in binary, if it is a regular file of at most ``max_bytes``.

    Refuses (ValueError, naming the path) a FIFO, device, folder or socket, saying which, a link
    that leads nowhere or in a loop (:func:`path_problem`), and a file over ``max_bytes`` ("more
    than WHAT can hold").  A missing or unreadable file raises the OSError of open().  The check
    is made again on the opened file (fstat), so nothing can swap the path for a FIFO between a
    check and the read.
    """
    problem = path_problem(path)
    if problem:
        raise NotARegularFileError(f"{path} {problem}: nothing was read")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    handle = os.open(path, flags)
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise NotARegularFileError(f"{path} is {kind_of(info.st_mode)}, not a file: nothing was read")
        if max_bytes is not None and info.st_size > max_bytes:
            raise FileTooLargeError(
                f"{path} is {info.st_size:,} bytes, more than {what} can hold ({max_bytes:,} bytes): nothing was read"
            )
        if hasattr(os, "set_blocking"):
            os.set_blocking(handle, True)
        return os.fdopen(handle, "rb")
    except BaseException:
        os.close(handle)
        raise


def read_regular_file(path: Path | str, max_bytes: int, what: str = "this format") -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` (see :func:`open_regular_file`);
    a file that grew past the limit while read is refused too."""
    with open_regular_file(path, max_bytes, what) as file:
        data = file.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise FileTooLargeError(f"{path} is more than {what} can hold ({max_bytes:,} bytes): nothing was kept")
    return data
