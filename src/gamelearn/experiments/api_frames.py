"""Results as tables for a notebook: ``to_dataframe()`` of every experiment's result builds a
pandas DataFrame from the same rows its ``to_dict()`` holds.  pandas is imported only when one is
asked for (``gamelearn[pandas]``, which ``[dask]`` and ``[test]`` include); without it the call says so in one line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: What a missing pandas is told, in one line: the package and how to get it.
PANDAS_MISSING = "to_dataframe() needs pandas, which is not installed: pip install 'gamelearn[pandas]'"


def dataframe(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> Any:
    """A pandas DataFrame of ``rows`` (one dict a row), columns in ``columns``' order when given
    (so that an empty result still has its columns).  ImportError, one line, without pandas."""
    try:
        import pandas
    except ImportError:
        raise ImportError(PANDAS_MISSING) from None
    return pandas.DataFrame(list(rows), columns=list(columns) if columns is not None else None)
