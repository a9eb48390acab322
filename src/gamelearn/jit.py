"""numba's ``njit``, compiling each kernel once and keeping it on disk where that can be done.

``njit(cache=True)`` keeps a compiled kernel next to its source (``__pycache__``, ignored by git),
else in ``$NUMBA_CACHE_DIR`` or the user's cache directory; a later process loads it instead of
compiling, and only for the kernels it calls.  Where none of those can be written (a read-only
install under a read-only home), numba refuses to define the kernel at all; this ``njit`` then
defines it uncached, so the program still runs and compiles in each process.

A leaf like :mod:`gamelearn.paths`: the solver and the thesis player use it; numba is imported
only by the modules that define kernels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numba import njit as numba_njit


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
