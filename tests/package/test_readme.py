"""README's examples run (python-chess style): every ```python block is executed, in order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from doc_blocks import python_blocks

README = Path(__file__).resolve().parents[2] / "README.md"


BLOCKS = python_blocks(README)


def test_readme_has_python_examples() -> None:
    assert BLOCKS, "README.md should show the API with runnable examples"


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int) -> None:
    exec(compile(BLOCKS[index], f"README.md python block {index + 1}", "exec"), {"__name__": "readme"})


def test_readme_gives_exactly_two_setup_commands_and_ci_runs_the_second() -> None:
    text = README.read_text(encoding="utf-8")
    setup = text.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```sh\n(.*?)```", setup, flags=re.DOTALL)
    assert len(commands) == 2
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1].strip() in ci


def test_readme_has_no_unfilled_placeholder() -> None:
    text = README.read_text(encoding="utf-8")
    assert not re.findall(
        r"\b[A-Z]{3,}_[A-Z_]{3,}\b",
        text.replace("GAMELEARN_HOME", "").replace("GAMELEARN_THESIS_DATA", "").replace("PIP_CONSTRAINT", ""),
    )


DOCS = README.parent / "docs"


def links(page: Path) -> list[str]:
    """The relative targets of a Markdown page's links and pictures (no web address, no anchor)."""
    found = re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8"))
    return [target.split("#")[0] for target in found if "://" not in target and not target.startswith("#")]


def test_readme_is_a_front_page_with_a_path_for_each_reader() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    headings = re.findall(r"(?m)^## (.*)$", text)
    for reader in ("teacher", "researcher", "Teeko player"):
        assert any(heading.startswith(f"For a {reader}") for heading in headings), reader
    assert "../shared" not in text and "shared/" not in text  # a reader has only the repository


def test_every_link_of_readme_and_the_docs_index_leads_to_a_file() -> None:
    for page in (README, DOCS / "README.md"):
        for target in links(page):
            assert (page.parent / target).exists(), f"{page.name}: {target}"


def test_the_docs_index_names_every_page_and_every_notebook() -> None:
    indexed = {(DOCS / target).resolve() for target in links(DOCS / "README.md")}
    pages = [*DOCS.glob("*.md"), *DOCS.glob("notebooks/*.ipynb")]
    missing = [page.relative_to(DOCS) for page in pages if page.name != "README.md" and page.resolve() not in indexed]
    assert not missing, f"docs/README.md does not index {missing}"
