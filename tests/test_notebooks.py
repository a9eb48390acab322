"""docs/notebooks/: one notebook for each reader of README (a teacher, a researcher, a Teeko
player), shipped executed, and run again here as Jupyter runs them (nbclient, an IPython kernel)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extras import need

FOLDER = Path(__file__).resolve().parent.parent / "docs" / "notebooks"
NAMES = ("teacher", "researcher", "teeko")


def test_each_reader_has_a_notebook_shipped_with_its_outputs_and_no_error() -> None:
    assert sorted(path.stem for path in FOLDER.glob("*.ipynb")) == sorted(NAMES)
    for name in NAMES:
        book = json.loads((FOLDER / f"{name}.ipynb").read_text(encoding="utf-8"))
        code = [cell for cell in book["cells"] if cell["cell_type"] == "code"]
        assert code and all(cell["outputs"] for cell in code), f"{name}: a code cell was shipped without its output"
        kinds = {output["output_type"] for cell in code for output in cell["outputs"]}
        assert "error" not in kinds, name


@pytest.mark.slow
@pytest.mark.timeout(900)  # the Teeko notebook's table may be built first: minutes on a loaded machine
@pytest.mark.parametrize("name", NAMES)
def test_the_notebook_runs_in_a_fresh_kernel(
    name: str, isolated_home: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if name == "teeko":  # it plays perfect play: the data directory holds Standard Teeko's table
        request.getfixturevalue("teeko_table")
    nbformat = need("test", "nbformat")
    client = need("test", "nbclient")
    need("test", "ipykernel")
    need("pandas", "pandas")
    book = nbformat.read(FOLDER / f"{name}.ipynb", as_version=4)
    # every cell runs to its end in a kernel of this interpreter, $GAMELEARN_HOME this test's own;
    # a failed assert in a cell fails the test (CellExecutionError)
    client.NotebookClient(
        book, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    outputs = [output for cell in book.cells if cell.cell_type == "code" for output in cell.outputs]
    assert outputs and not [output for output in outputs if output.output_type == "error"]
