"""The classroom page's hexapawn programs run unchanged against gamelearn.classroom.hexapawn and
print what the page prints.

The page ("Can a Machine Learn a Game by Itself?") is read at run time from ../shared/seeds/; it is
not part of the repository, and the tests that need it skip, with the reason, where it is absent.
Its programs lost their line breaks when it was saved: tests/support/seed_programs.py recovers them (and
checks that undoing its work gives the page's text back).  Only the import line changes, from
``from hexapawn import`` to ``from gamelearn.classroom.hexapawn import``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gamelearn.classroom import hexapawn as classroom
from seed_programs import ExtractionError, PageProgram, flatten, programs_on_page, recover

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
PAGE_NAME = "003_*.txt"
#: What the page's programs print, one program each, in the page's order (recognised by the output).
PROGRAMS = ["step 1: a box", "step 2: five games", "step 3: fifty games", "fifty HERs"]


@pytest.fixture(scope="module")
def page_programs() -> list[PageProgram]:
    pages = sorted(SEEDS.glob(PAGE_NAME))
    if not pages:
        pytest.skip(f"the classroom page ({SEEDS / PAGE_NAME}) is not here; it is not part of the repository")
    return programs_on_page(pages[0].read_text(encoding="utf-8"), classroom.__all__, "from hexapawn import")


def run_program(source: str, tmp_path: Path) -> str:
    changed = source.replace("from hexapawn import", "from gamelearn.classroom.hexapawn import")
    # Nothing but the import lines differs from the page's program.
    differing = [(a, b) for a, b in zip(source.splitlines(), changed.splitlines(), strict=True) if a != b]
    assert differing and all(a.startswith("from hexapawn import") for a, _ in differing)
    script = tmp_path / "program.py"
    script.write_text(changed)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_page_holds_four_programs_each_followed_by_its_output(page_programs: list[PageProgram]) -> None:
    assert len(page_programs) == len(PROGRAMS)
    for program in page_programs:
        assert program.source.count("\n") > 10 and "def her_turn(board):\n" in program.source


@pytest.mark.parametrize("index", range(len(PROGRAMS)), ids=PROGRAMS)
def test_page_program_prints_what_the_page_prints(index: int, page_programs: list[PageProgram], tmp_path: Path) -> None:
    program = page_programs[index]
    printed = run_program(program.source, tmp_path)
    # The page lost the output's line breaks as it lost the program's.
    assert printed.replace("\n", "") == program.printed
    assert printed.count("\n") >= 1


# The extractor on programs written here, flattened the way the page was --------------------------


MADE_UP = """from hexapawn import START, show
import random
random.seed(3)

def f(board):
    # a comment that opens the block
    if board:                   # padded
        return 1
    return 0

values = {}
for k in range(3):
    values[k] = random.choice([f(k)])
show(START)
print('two  spaces', values)
total = (1 +
         2)
print(total)
"""


def test_the_extractor_undoes_the_pages_loss_on_a_program_written_here(tmp_path: Path) -> None:
    flat = flatten(MADE_UP)
    assert "\n" not in flat and "showimport randomrandom.seed(3) def f(board):" in flat
    assert recover(flat, classroom.__all__) == MADE_UP


def test_the_extractor_refuses_rather_than_guess() -> None:
    with pytest.raises(ExtractionError, match="no indentation"):
        recover("if x:   y = 1", ())
    with pytest.raises(ExtractionError, match="not closed"):
        recover("print('open", ())


def test_show_prints_three_rows(capsys: pytest.CaptureFixture[str]) -> None:
    classroom.show("BBBW...WW")
    assert capsys.readouterr().out == "BBB\nW..\n.WW\n"


def test_moves_in_the_pages_order() -> None:
    assert classroom.moves("BBB..WWW.", "B") == [(0, 3), (1, 4), (1, 5)]
    assert classroom.moves(classroom.START, "W") == [(6, 3), (7, 4), (8, 5)]
    assert classroom.play(classroom.START, (6, 3)) == "BBBW...WW"
    assert classroom.mirror("BB..W.W.W") == ".BB.W.W.W"


# An independent oracle: the page's claims from a naive search on 3x3 lists ---------------------


def naive_moves(grid: list[list[str]], side: str) -> list[tuple[int, int]]:
    ahead = -1 if side == "W" else 1
    enemy = "B" if side == "W" else "W"
    found = []
    for r in range(3):
        for c in range(3):
            if grid[r][c] != side or not 0 <= r + ahead < 3:
                continue
            if grid[r + ahead][c] == ".":
                found.append((3 * r + c, 3 * (r + ahead) + c))
            for dc in (-1, 1):
                if 0 <= c + dc < 3 and grid[r + ahead][c + dc] == enemy:
                    found.append((3 * r + c, 3 * (r + ahead) + c + dc))
    return found


def naive_lost(grid: list[list[str]], side: str) -> bool:
    enemy, home = ("B", 2) if side == "W" else ("W", 0)
    return enemy in grid[home] or not naive_moves(grid, side)


def naive_after(grid: list[list[str]], move: tuple[int, int]) -> list[list[str]]:
    copy = [row[:] for row in grid]
    (r0, c0), (r1, c1) = divmod(move[0], 3), divmod(move[1], 3)
    copy[r1][c1], copy[r0][c0] = copy[r0][c0], "."
    return copy


def naive_wins(grid: list[list[str]], side: str) -> bool:
    """The side to move wins with best play (hexapawn has no draws)."""
    if naive_lost(grid, side):
        return False
    other = "B" if side == "W" else "W"
    return any(not naive_wins(naive_after(grid, m), other) for m in naive_moves(grid, side))


def as_text(grid: list[list[str]]) -> str:
    return "".join("".join(row) for row in grid)


def black_boxes() -> dict[str, list[list[str]]]:
    """Every position Black faces in a game not yet over, a position and its mirror counted once."""
    boxes: dict[str, list[list[str]]] = {}

    def walk(grid: list[list[str]], side: str) -> None:
        if naive_lost(grid, side):
            return
        if side == "B":
            mirrored = [row[::-1] for row in grid]
            name = min(as_text(grid), as_text(mirrored))
            boxes[name] = grid if name == as_text(grid) else mirrored
        for move in naive_moves(grid, side):
            walk(naive_after(grid, move), "B" if side == "W" else "W")

    walk([list("BBB"), list("..."), list("WWW")], "W")
    return boxes


def test_the_pages_counts_19_boxes_47_beads_17_bad() -> None:
    boxes = black_boxes()
    beads = [(name, move) for name, grid in boxes.items() for move in naive_moves(grid, "B")]
    bad = [(name, move) for name, move in beads if naive_wins(naive_after(boxes[name], move), "W")]
    assert (len(boxes), len(beads), len(bad)) == (19, 47, 17)
    # can_win agrees with the naive oracle on every bead, and moves() with the naive generator.
    for name, grid in boxes.items():
        assert classroom.moves(name, "B") == naive_moves(grid, "B")
    assert {(n, m) for n, m in beads if classroom.can_win(classroom.play(n, m), "W")} == set(bad)


def test_start_is_lost_for_white() -> None:
    # "with best play, Black always does [win]"
    assert not classroom.can_win(classroom.START, "W")
    assert not naive_wins([list("BBB"), list("..."), list("WWW")], "W")


def test_sharp_plays_only_forced_wins_when_it_has_one() -> None:
    import random

    random.seed(0)
    for board in sorted(black_boxes()):
        # Turn each box round to a White-to-move position: White's turn after each of Black's beads.
        for bead in classroom.moves(board, "B"):
            after = classroom.play(board, bead)
            if classroom.has_lost(after, "W"):
                continue
            grid = [list(after[k : k + 3]) for k in (0, 3, 6)]
            winning = {m for m in naive_moves(grid, "W") if not naive_wins(naive_after(grid, m), "B")}
            chosen = {classroom.sharp_white(after) for _ in range(12)}
            assert chosen <= (winning or set(naive_moves(grid, "W")))
            assert classroom.random_white(after) in naive_moves(grid, "W")
