"""numba's ``njit``, compiling each kernel once and keeping it on disk where that can be done.

``njit(cache=True)`` keeps a compiled kernel next to its source (``__pycache__``, ignored by git),
else in ``$NUMBA_CACHE_DIR`` or the user's cache directory; a later process loads it instead of
compiling, and only for the kernels it calls.  Where none of those can be written (a read-only
install under a read-only home), numba refuses to define the kernel at all; this ``njit`` then
defines it uncached, so the program still runs and compiles in each process.

Before numba's first kernel, its numpy support (``numba.np.arraymath``) is imported here with
scipy.linalg out of sight.  On import that module probes for BLAS by importing scipy.linalg
(docs/startup.md: more than a short command's work); finding none it gives ``np.correlate`` and
``np.convolve`` of floats a plain loop instead of ``np.dot``, the only thing the probe decides.
Our kernels use neither; ``np.dot`` itself still finds scipy when a kernel that calls it is
compiled, and scipy.linalg imports as usual afterwards.

A leaf like :mod:`gamelearn.paths`: the solver and the thesis player use it; numba is imported
only by the modules that define kernels.
"""

from __future__ import annotations

import importlib.abc
import sys
import threading
from collections.abc import Callable
from typing import Any

from numba import njit as numba_njit


class _HiddenInThisThread(importlib.abc.MetaPathFinder):
    """Refuses one module to the thread that made it, and to no other: a web server's other
    threads import scipy.linalg as usual meanwhile."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.thread = threading.get_ident()

    def find_spec(self, fullname: str, path: object = None, target: object = None) -> None:
        if fullname == self.name and threading.get_ident() == self.thread:
            raise ModuleNotFoundError(f"{fullname} is hidden from numba's BLAS probe", name=fullname)
        return None


def _import_numpy_support_without_blas_probe() -> None:
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return  # already decided, or scipy.linalg is loaded anyway: nothing to save
    hidden = _HiddenInThisThread("scipy.linalg")
    sys.meta_path.insert(0, hidden)
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        sys.meta_path.remove(hidden)


_import_numpy_support_without_blas_probe()


def njit(*, cache: bool = True, **options: Any) -> Callable[[Callable[..., Any]], Any]:
    """``@njit(...)``: numba's decorator with ``cache=True`` where a cache can be written."""

    def decorate(function: Callable[..., Any]) -> Any:
        if cache:
            try:
                return numba_njit(cache=True, **options)(function)
            except RuntimeError as error:  # "cannot cache function ...: no locator available"
                if "cannot cache" not in str(error):
                    raise
        return numba_njit(**options)(function)

    return decorate
