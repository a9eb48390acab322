"""docs/notebooks/: one notebook for each reader of README (a teacher, a researcher, a Teeko
player) and the students' lesson with its teacher's version, shipped executed, and run again here
as Jupyter runs them (nbclient, an IPython kernel)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extras import need

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "notebooks"
#: The classroom page the lesson comes from: beside the repository, not in it (tests/classroom/test_classroom.py).
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
NAMES = ("teacher", "researcher", "teeko")
#: The classroom page's lesson: the students' notebook (exercises as stubs) and the teacher's (solved).
LESSON = ("students", "students-solutions")


def test_each_reader_has_a_notebook_shipped_with_its_outputs_and_no_error() -> None:
    assert sorted(path.stem for path in FOLDER.glob("*.ipynb")) == sorted(NAMES + LESSON)
    for name in NAMES + LESSON:
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


# The lesson ---------------------------------------------------------------------------------------

CHECKERS = ("check_him", "check_mirror", "check_winner", "check_count_boxes")


def lesson_cells(name: str) -> list[dict[str, object]]:
    return json.loads((FOLDER / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"]


def text_of(cell: dict[str, object], key: str = "source") -> str:
    """A cell's source (or an output's text), which a notebook file may keep as a list of lines."""
    source = cell[key]
    return source if isinstance(source, str) else "".join(source)  # type: ignore[arg-type]


def test_the_students_notebook_is_the_teachers_without_the_solutions() -> None:
    students, teachers = lesson_cells("students"), lesson_cells("students-solutions")
    assert len(students) == len(teachers)
    differing = [k for k, (a, b) in enumerate(zip(students, teachers, strict=True)) if text_of(a) != text_of(b)]
    # The title and the exercises (tagged) differ; every other cell is the same in both.
    tagged = [k for k, cell in enumerate(students) if "exercise" in cell["metadata"].get("tags", [])]  # type: ignore[attr-defined]
    assert differing == [0, *tagged] and len(tagged) == 5
    whole = "\n".join(text_of(cell) for cell in students)
    for solution in ("drawn.append", "result = result + board", "todo.pop()", "Answers** (the teacher's version)"):
        assert solution not in whole and solution in "\n".join(text_of(cell) for cell in teachers)
    for question in (
        "How many times does the same trick work?",
        "Why can one box serve a position and its mirror image?",
    ):
        assert question in whole
    assert "students-solutions" not in whole
    for checker in CHECKERS:
        assert sum(f"{checker}(" in text_of(cell) for cell in students if cell["cell_type"] == "code") == 1


def checker_outputs(book: object) -> dict[str, str]:
    """What each checker cell printed, by checker."""
    found = {}
    for cell in book.cells:  # type: ignore[attr-defined]
        called = [checker for checker in CHECKERS if f"{checker}(" in cell.source]
        if cell.cell_type == "code" and called:
            found[called[0]] = "".join(output.get("text", "") for output in cell.outputs)
    return found


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", LESSON)
def test_the_lesson_runs_and_each_checker_says_right_or_what_is_wrong(name: str, tmp_path: Path) -> None:
    nbformat = need("test", "nbformat")
    client = need("test", "nbclient")
    need("test", "ipykernel")
    book = nbformat.read(FOLDER / f"{name}.ipynb", as_version=4)
    client.NotebookClient(
        book, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    outputs = [output for cell in book.cells if cell.cell_type == "code" for output in cell.outputs]
    assert not [output for output in outputs if output.output_type == "error"]
    printed = checker_outputs(book)
    assert sorted(printed) == sorted(CHECKERS)
    for checker, text in printed.items():
        assert "Traceback" not in text and 'File "' not in text, checker
        if name == "students":  # the stubs as given: each checker says what is wrong, and where
            assert text.startswith("Not yet: ") and text.count("\n") > 2, (checker, text)
        else:
            assert text.startswith("Right") and "Not yet" not in text, (checker, text)
    # What the notebook shipped with is what it prints now (the programs are seeded).
    shipped = nbformat.read(FOLDER / f"{name}.ipynb", as_version=4)
    assert checker_outputs(shipped) == printed


def test_the_lessons_programs_are_the_pages_with_their_printed_output_beside_them() -> None:
    pages = sorted((SEEDS).glob("003_*.txt"))
    if not pages:
        pytest.skip("the classroom page (../shared/seeds/003_*.txt) is not here; it is not part of the repository")
    from gamelearn.classroom import hexapawn
    from seed_programs import programs_on_page

    programs = programs_on_page(pages[0].read_text(encoding="utf-8"), hexapawn.__all__, "from hexapawn import")
    cells = lesson_cells("students")
    for program in programs:
        source = program.source.replace("from hexapawn import", "from gamelearn.classroom.hexapawn import").rstrip()
        index = next(k for k, cell in enumerate(cells) if text_of(cell) == source)
        printed = "".join(text_of(output, "text") for output in cells[index]["outputs"])  # type: ignore[index]
        assert printed.replace("\n", "") == program.printed
        # the markdown after the program shows what it prints, line by line
        assert f"```\n{printed}```" in text_of(cells[index + 1])
