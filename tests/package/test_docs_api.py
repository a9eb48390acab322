"""docs/api.md's examples run: every ```python block, each on its own in a fresh namespace, as
README's tour is run (tests/package/test_readme.py), so the page cannot drift from the API it shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from doc_blocks import python_blocks

PAGE = Path(__file__).resolve().parents[2] / "docs" / "api.md"
BLOCKS = python_blocks(PAGE)


def test_every_python_block_of_the_page_is_found() -> None:
    # A block the pattern missed (a space after the fence's word, a fence left open) would not run.
    assert BLOCKS and len(BLOCKS) == PAGE.read_text(encoding="utf-8").count("```python")


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_api_page_example_runs(index: int) -> None:
    exec(compile(BLOCKS[index], f"docs/api.md python block {index + 1}", "exec"), {"__name__": "api_page"})
