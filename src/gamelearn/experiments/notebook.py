"""Results as a notebook shows them: ``_repr_html_`` of a tournament, a grade and a set of curves
is an HTML table (and, for curves, their chart as an inline PNG), built here from the same rows
their ``to_dict()`` holds (plain HTML, every cell escaped, nothing fetched); ``to_dataframe()`` of
every experiment's result is a pandas DataFrame of those rows.  pandas is imported only when one
is asked for (``gamelearn[pandas]``, which ``[dask]`` and ``[test]`` include); without it the call
says so in one line."""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from typing import Any


def percent(share: float | None) -> str:
    """A share as a notebook cell shows it: '66.4%', or '-' for none (or NaN)."""
    return "-" if share is None or share != share else f"{100 * share:.1f}%"


def table(columns: Sequence[str], rows: Sequence[Sequence[Any]], caption: str | None = None) -> str:
    """An HTML table of ``rows`` under ``columns``; every cell escaped, numbers right-aligned.

    >>> table(["spec", "keeps"], [["a<b", "50.0%"]])
    '<table><thead><tr><th>spec</th><th>keeps</th></tr></thead><tbody><tr><td>a&lt;b</td><td style="text-align:right">50.0%</td></tr></tbody></table>'
    """
    parts = ["<table>"]
    if caption:
        parts.append(f"<caption>{html.escape(caption)}</caption>")
    parts.append("<thead><tr>" + "".join(f"<th>{html.escape(str(c))}</th>" for c in columns) + "</tr></thead>")
    parts.append("<tbody>")
    for row in rows:
        cells = []
        for index, value in enumerate(row):
            text = html.escape(str(value))
            right = index > 0 and _numeric(str(value))
            cells.append(f'<td style="text-align:right">{text}</td>' if right else f"<td>{text}</td>")
        parts.append("<tr>" + "".join(cells) + "</tr>")
    parts.append("</tbody></table>")
    return "".join(parts)


def _numeric(text: str) -> bool:
    stripped = text.replace(",", "").replace("%", "").replace("-", "").replace(".", "").replace(" ", "")
    return stripped.isdigit() or text == "-"


def png_image(data: bytes, alt: str) -> str:
    """An ``<img>`` holding the PNG ``data`` itself (a data URI): the notebook keeps the picture."""
    encoded = base64.b64encode(data).decode("ascii")
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{encoded}" style="max-width:100%"/>'


#: What a missing pandas is told, in one line: the package and how to get it.
PANDAS_MISSING = "to_dataframe() needs pandas, which is not installed: pip install 'gamelearn[pandas]'"


def dataframe(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> Any:
    """A pandas DataFrame of ``rows`` (one dict a row), columns in ``columns``' order when given
    (so that an empty result still has its columns).  ImportError, one line, without pandas."""
    try:
        import pandas  # the optional extra gamelearn[pandas], only when a table is asked for
    except ImportError:
        raise ImportError(PANDAS_MISSING) from None
    return pandas.DataFrame(list(rows), columns=list(columns) if columns is not None else None)
