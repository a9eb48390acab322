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

This is a leaf module (standard library only), so every layer may use it.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from types import TracebackType
from typing import IO


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


class AtomicFile:
    """A file written beside ``path`` and renamed over it by :meth:`commit`.

    ``stream`` is the open temporary file (binary unless ``encoding`` is given).  :meth:`discard`
    (or leaving a ``with`` block by an exception) removes the temporary file and leaves ``path``
    as it was.  Commit and discard close the stream; after either, both are no-ops.
    """

    def __init__(self, path: Path | str, encoding: str | None = None, newline: str | None = None) -> None:
        self.target = Path(path)
        folder = _folder_of(self.target)
        try:
            keep_mode: int | None = self.target.stat().st_mode & 0o7777
        except OSError:
            keep_mode = None  # a new file: the umask decides, as for open()
        while True:
            temporary = folder / f".{self.target.name}.{os.urandom(6).hex()}.tmp"
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
                self.stream: IO = os.fdopen(handle, "wb")
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
            os.replace(self.temporary, self.target)
        except BaseException:
            self.discard()
            raise
        self._done = True

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


def atomic_write_bytes(path: Path | str, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (see the module's docstring for the mode and
    the missing-folder rule)."""
    with AtomicFile(path) as file:
        file.stream.write(data)
