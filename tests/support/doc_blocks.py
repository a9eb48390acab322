"""The runnable examples of a Markdown page: README's, docs/api.md's and docs/openspiel.md's
```python blocks are each run by a test, so a page cannot drift from the API it shows."""

from __future__ import annotations

import re
from pathlib import Path


def python_blocks(page: Path) -> list[str]:
    """The ```python blocks of a Markdown page, in order."""
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.DOTALL)
