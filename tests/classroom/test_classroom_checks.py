"""The exercises' checkers (gamelearn.classroom.checks): right functions pass, each kind of wrong
one is told the board, the answers and the rule it missed, and no traceback ever reaches the student.

The oracle here is independent of the package: hexapawn played on sets of (row, column) squares,
walked from the start to count every position and HER's boxes.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gamelearn.classroom import Verdict, check_count_boxes, check_him, check_mirror, check_winner
from gamelearn.classroom.checks import positions
from gamelearn.games.hexapawn import reachable_positions

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"

# An oracle on squares: a position is (white squares, black squares, side to move) ----------------

Squares = frozenset[tuple[int, int]]


def oracle_moves(white: Squares, black: Squares, side: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    mine, theirs, ahead = (white, black, -1) if side == "W" else (black, white, 1)
    found = []
    for r, c in mine:
        to = r + ahead
        if not 0 <= to <= 2:
            continue
        if (to, c) not in mine | theirs:
            found.append(((r, c), (to, c)))
        found.extend(((r, c), (to, c + dc)) for dc in (-1, 1) if (to, c + dc) in theirs)
    return found


def oracle_winner(white: Squares, black: Squares, side: str) -> str:
    if any(r == 0 for r, _ in white) or not black:
        return "W"
    if any(r == 2 for r, _ in black) or not white:
        return "B"
    if not oracle_moves(white, black, side):
        return "B" if side == "W" else "W"
    return ""


def text(white: Squares, black: Squares) -> str:
    return "".join("W" if (r, c) in white else "B" if (r, c) in black else "." for r in range(3) for c in range(3))


def oracle_positions() -> dict[str, str]:
    """Every board a game reaches, with its side to move."""
    start = (frozenset({(2, 0), (2, 1), (2, 2)}), frozenset({(0, 0), (0, 1), (0, 2)}), "W")
    found = {text(start[0], start[1]): "W"}
    todo = [start]
    while todo:
        white, black, side = todo.pop()
        if oracle_winner(white, black, side):
            continue
        for source, target in oracle_moves(white, black, side):
            if side == "W":
                after = (white - {source} | {target}, black - {target}, "B")
            else:
                after = (white - {target}, black - {source} | {target}, "W")
            if text(after[0], after[1]) not in found:
                found[text(after[0], after[1])] = after[2]
                todo.append(after)
    return found


def squares_of(board: str) -> tuple[Squares, Squares]:
    white = frozenset(divmod(k, 3) for k in range(9) if board[k] == "W")
    black = frozenset(divmod(k, 3) for k in range(9) if board[k] == "B")
    return white, black


def oracle_mirror(board: str) -> str:
    return "".join(board[3 * r + 2 - c] for r in range(3) for c in range(3))


def oracle_count_boxes(use_mirror: bool) -> list[int]:
    boxes = {}
    for board, side in oracle_positions().items():
        white, black = squares_of(board)
        if side == "B" and not oracle_winner(white, black, side):
            name = min(board, oracle_mirror(board)) if use_mirror else board
            boxes[name] = len(oracle_moves(*squares_of(name), "B"))
    return [len(boxes), sum(boxes.values())]


def test_the_positions_are_the_135_a_game_reaches() -> None:
    mine = oracle_positions()
    assert len(mine) == 135
    assert dict(positions()) == mine
    assert {(board, "WB"[to_move]) for board, to_move in reachable_positions()} == set(positions())


def test_the_oracle_counts_hers_boxes_19_and_47_with_the_mirror_37_and_90_without() -> None:
    assert oracle_count_boxes(True) == [19, 47]
    assert oracle_count_boxes(False) == [37, 90]


def verdict_of(capsys: pytest.CaptureFixture[str], check: object, function: object) -> tuple[Verdict, str]:
    verdict = check(function)  # type: ignore[operator]
    printed = capsys.readouterr().out
    assert printed.strip() == verdict.message.strip()
    assert "Traceback" not in printed and 'File "' not in printed
    return verdict, printed


# ★ mirror ---------------------------------------------------------------------------------------


def test_a_right_mirror_passes_with_hers_19_boxes(capsys: pytest.CaptureFixture[str]) -> None:
    verdict, printed = verdict_of(capsys, check_mirror, oracle_mirror)
    assert verdict and printed.count("\n") == 1
    assert printed.startswith("Right:") and "135 positions" in printed and "37 positions" in printed
    assert "share 19 boxes" in printed


def test_a_mirror_that_swaps_columns_0_and_1_is_told_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    verdict, printed = verdict_of(
        capsys, check_mirror, lambda b: "".join(b[3 * r + (1, 0, 2)[c]] for r in range(3) for c in range(3))
    )
    assert not verdict
    board = re.search(
        r"mirror\('([BW.]{9})'\) should give back '([BW.]{9})', and yours gave back '([BW.]{9})'", printed
    )
    assert board is not None
    shown, expected, got = board.groups()
    assert expected == oracle_mirror(shown) and got != expected
    assert f"{shown[0:3]}          {expected[0:3]}          {got[0:3]}" in printed  # the boards drawn
    assert "row" in printed and "squares 0 and 2" in printed


@pytest.mark.parametrize(
    ("mirror", "said"),
    [
        (lambda b: b, "gives every board back unchanged"),
        (lambda b: b[::-1], "upside down"),
        (lambda b: None, "None (a function without `return`"),
        (lambda b: list(oracle_mirror(b)), "A board is a string of 9 characters"),
        (lambda b: oracle_mirror(b)[:8], "yours has 8"),
        (lambda b: oracle_mirror(b).replace("W", "B"), "never adds or takes one"),
    ],
    ids=["unchanged", "reversed", "none", "list", "short", "recoloured"],
)
def test_a_wrong_mirror_is_told_the_rule_it_missed(
    capsys: pytest.CaptureFixture[str], mirror: object, said: str
) -> None:
    verdict, printed = verdict_of(capsys, check_mirror, mirror)
    assert not verdict and printed.startswith("Not yet:") and said in printed


def test_an_error_in_the_students_mirror_is_one_message(capsys: pytest.CaptureFixture[str]) -> None:
    def mirror(board: str) -> str:
        return board[9]  # past the end

    verdict, printed = verdict_of(capsys, check_mirror, mirror)
    assert not verdict
    assert "mirror('BBB...WWW') stopped with an error, IndexError: string index out of range" in printed
    assert "return board[9]" in printed


def test_the_checker_wants_the_function_not_its_answer(capsys: pytest.CaptureFixture[str]) -> None:
    verdict, printed = verdict_of(capsys, check_mirror, "BBB...WWW")
    assert not verdict and "check_mirror(mirror)" in printed


# ★★ winner --------------------------------------------------------------------------------------


def oracle_winner_of(board: str, side: str) -> str:
    return oracle_winner(*squares_of(board), side)


def test_a_right_winner_passes_with_the_count_of_each_way(capsys: pytest.CaptureFixture[str]) -> None:
    verdict, printed = verdict_of(capsys, check_winner, oracle_winner_of)
    assert verdict and printed.count("\n") == 1
    answers = [oracle_winner_of(board, side) for board, side in oracle_positions().items()]
    assert f"Right on all 135 positions of hexapawn: {answers.count('')} where the game goes on" in printed
    assert f"and {135 - answers.count('')} won" in printed


def far_row_only(board: str, side: str) -> str:
    return "W" if "W" in board[0:3] else "B" if "B" in board[6:9] else ""


@pytest.mark.parametrize(
    ("winner", "said"),
    [
        (lambda b, s: "", "with a pawn on the far row"),
        (far_row_only, "is stuck"),
        (lambda b, s: far_row_only(b, s) or ("" if s in b else "WB"[s == "W"]), "is stuck"),
        (lambda b, s: None, "gives back 'W', 'B' or ''"),
        (lambda b, s: {"W": "B", "B": "W", "": ""}[oracle_winner_of(b, s)], "Gardner's"),
        (lambda b, s: oracle_winner_of(b, s) or "W", "The game goes on"),
    ],
    ids=["stub", "far-row-only", "no-stuck", "none", "wrong-player", "never-goes-on"],
)
def test_a_wrong_winner_is_told_the_board_and_the_rule(
    capsys: pytest.CaptureFixture[str], winner: object, said: str
) -> None:
    verdict, printed = verdict_of(capsys, check_winner, winner)
    assert not verdict and said in printed
    found = re.search(r"winner\('([BW.]{9})', '([BW])'\), (White|Black) to move, should give back '([BW]?)'", printed)
    assert found is not None
    board, side, _, expected = found.groups()
    assert oracle_winner_of(board, side) == expected
    assert "\n  " + board[0:3] + "\n  " + board[3:6] + "\n  " + board[6:9] + "\n" in printed


def test_a_winner_that_misses_all_taken_is_told_so(capsys: pytest.CaptureFixture[str]) -> None:
    def winner(board: str, side: str) -> str:
        # right but where the side to move has no pawn left
        return oracle_winner_of(board, side) if side in board else ""

    verdict, printed = verdict_of(capsys, check_winner, winner)
    assert not verdict and "no pawn left" in printed and "all enemy pawns taken" in printed


# ★★★ count_boxes --------------------------------------------------------------------------------


def test_the_right_count_passes(capsys: pytest.CaptureFixture[str]) -> None:
    verdict, printed = verdict_of(capsys, check_count_boxes, oracle_count_boxes)
    assert verdict and "[19, 47] with the mirror, [37, 90] without" in printed
    verdict, _ = verdict_of(capsys, check_count_boxes, lambda use_mirror: (19, 47) if use_mirror else (37, 90))
    assert verdict


def test_only_19_47_and_37_90_pass(capsys: pytest.CaptureFixture[str]) -> None:
    right = {True: [19, 47], False: [37, 90]}
    tried = 0
    for use_mirror in (True, False):
        for boxes in range(17, 40):
            for beads in [*range(44, 50), *range(88, 93)]:
                answers = {**right, use_mirror: [boxes, beads]}
                verdict = check_count_boxes(lambda m, answers=answers: answers[m])
                capsys.readouterr()
                assert bool(verdict) == (answers == right), answers
                tried += 1
    assert tried == 2 * 23 * 11


@pytest.mark.parametrize(
    ("answers", "said"),
    [
        ({True: [0, 0], False: [0, 0]}, "after White plays (6, 3) Black faces this position"),
        ({True: [37, 90], False: [37, 90]}, "That is the count without the mirror"),
        ({True: [19, 47], False: [19, 47]}, "That is the count with the mirror"),
        ({True: [47, 19], False: [90, 37]}, "the wrong way round"),
        ({True: [19, 40], False: [37, 90]}, "The boxes are right and the beads not"),
        ({True: None, False: None}, "two whole numbers"),
        ({True: "19 47", False: None}, "two whole numbers"),
    ],
    ids=["stub", "mirror-ignored", "mirror-always", "swapped", "beads", "none", "text"],
)
def test_a_wrong_count_is_told_the_rule(
    capsys: pytest.CaptureFixture[str], answers: dict[bool, object], said: str
) -> None:
    verdict, printed = verdict_of(capsys, check_count_boxes, lambda m: answers[m])
    assert not verdict and said in printed


def test_counting_finished_or_whites_positions_is_recognised(capsys: pytest.CaptureFixture[str]) -> None:
    everything = oracle_positions()

    def counted(keep: object) -> list[int]:
        names = {min(b, oracle_mirror(b)): s for b, s in everything.items() if keep(b, s)}  # type: ignore[operator]
        return [len(names), sum(len(oracle_moves(*squares_of(b), s)) for b, s in names.items())]

    finished_too = counted(lambda b, s: s == "B")
    whites = counted(lambda b, s: s == "W" and not oracle_winner_of(b, s))
    for answer, said in [(finished_too, "already over"), (whites, "the positions White faces")]:
        verdict, printed = verdict_of(capsys, check_count_boxes, lambda m, answer=answer: answer)
        assert not verdict and said in printed, printed


# HIM ---------------------------------------------------------------------------------------------

HER_TURN = """
import random
from gamelearn.classroom.hexapawn import START, moves, play, has_lost, mirror

boxes = {}

def her_turn(board):
    if mirror(board) < board:
        board = mirror(board)
    if board not in boxes:
        boxes[board] = moves(board, 'B')
    beads = boxes[board]
    if len(beads) == 0:
        return board, None
    return board, random.choice(beads)
"""

PLAY_GAME = """
def play_game(white):
    board = START
    drawn = []
    while True:
        board = play(board, white(board))
        if has_lost(board, 'B'):
            break
        board, bead = her_turn(board)
        if bead is None:
            break
        drawn.append((board, bead))
        board = play(board, bead)
        if has_lost(board, 'W'):
            REWARD
            return 'W'
    box, bead = drawn[-1]
    PUNISH
    return 'L'
"""
HIM_REWARD = "for box, bead in drawn:\n                boxes[box].append(bead)"
HER_PUNISH = "boxes[box].remove(bead)"


def program(reward: str = HIM_REWARD, punish: str = HER_PUNISH, looks_in_the_mirror: bool = True) -> dict[str, object]:
    """A notebook's namespace after its cells ran: boxes, her_turn and play_game in one dict."""
    namespace: dict[str, object] = {}
    turn = HER_TURN if looks_in_the_mirror else HER_TURN.replace("if mirror(board) < board:", "if False:")
    exec(turn + PLAY_GAME.replace("REWARD", reward).replace("PUNISH", punish), namespace)
    return namespace


@pytest.mark.parametrize(
    ("reward", "punish", "said"),
    [
        ("pass", HER_PUNISH, "no bead of the game got one (that is HER"),
        ("boxes[drawn[-1][0]].append(drawn[-1][1])", HER_PUNISH, "only the last move's bead got one"),
        (
            "for box, bead in drawn:\n                boxes[box].extend([bead, bead])",
            HER_PUNISH,
            "is there once more than",
        ),
        (HIM_REWARD, "pass", "After a loss the bead of HIM's last move comes out"),
        (HIM_REWARD, "boxes[drawn[0][0]].remove(drawn[0][1])", "After a loss the bead of HIM's last move comes out"),
        (HIM_REWARD, "boxes[box].remove(bead + 1)", "stopped with an error, TypeError"),
    ],
    ids=["her", "last-only", "two-copies", "no-punishment", "first-punished", "crash"],
)
def test_a_wrong_him_is_told_the_box_and_the_rule(
    capsys: pytest.CaptureFixture[str], reward: str, punish: str, said: str
) -> None:
    namespace = program(reward, punish)
    theirs = namespace["boxes"]
    state = random.getstate()
    verdict, printed = verdict_of(capsys, check_him, namespace["play_game"])
    assert not verdict and printed.startswith("Not yet: ") and said in printed
    # The student's boxes and random generator are as they were.
    assert namespace["boxes"] is theirs and theirs == {} and random.getstate() == state
    if "error" not in said:
        found = re.search(r"should hold \[(.*)\] and holds \[(.*)\]\.\n  the box\n  (...)\n  (...)\n  (...)\n", printed)
        assert found is not None and found.group(1) != found.group(2)


def test_a_him_that_plays_on_after_winning_is_stopped(capsys: pytest.CaptureFixture[str]) -> None:
    namespace = program()
    source = (HER_TURN + PLAY_GAME).replace(
        "        if has_lost(board, 'W'):\n            REWARD\n            return 'W'\n", ""
    )
    exec(source.replace("PUNISH", HER_PUNISH), namespace)
    verdict, printed = verdict_of(capsys, check_him, namespace["play_game"])
    assert not verdict and "went on and asked White to move" in printed


def test_check_him_needs_the_boxes_beside_play_game(capsys: pytest.CaptureFixture[str]) -> None:
    verdict, printed = verdict_of(capsys, check_him, lambda white: "W")
    assert not verdict and "a dictionary named boxes" in printed


def page_table() -> dict[str, tuple[int, float]]:
    pages = sorted(SEEDS.glob("003_*.txt"))
    if not pages:
        pytest.skip(f"the classroom page ({SEEDS}/003_*.txt) is not here; it is not part of the repository")
    rows = re.findall(r"(Random|Sharp): most losses (\d+) \| average (\d+\.\d+)", pages[0].read_text(encoding="utf-8"))
    return {name: (int(most), float(average)) for name, most, average in rows}


@pytest.mark.slow
def test_a_right_him_passes_beside_the_pages_table_of_hers(capsys: pytest.CaptureFixture[str]) -> None:
    namespace = program()
    verdict, printed = verdict_of(capsys, check_him, namespace["play_game"])
    assert verdict and printed.startswith("Right: in all 20,000 games")
    her = re.search(
        r"HER's, the page's table: Random, most (\d+), average (\d+\.\d+); Sharp, most (\d+), average (\d+\.\d+)",
        printed,
    )
    assert her is not None
    table = page_table()
    assert (int(her.group(1)), float(her.group(2))) == table["Random"]
    assert (int(her.group(3)), float(her.group(4))) == table["Sharp"]
    assert re.search(
        r"So HIM loses (more|fewer|as many) against Random and (more|fewer|as many) against Sharp\.", printed
    )


# In any Jupyter: the classroom needs twelve files of gamelearn and the standard library ------------

#: What docs/lesson.md says a JupyterLite user copies: the package's root, the games by name, hexapawn's
#: rules and picture, the classroom.
CLASSROOM_FILES = (
    "__init__.py",
    "games/__init__.py",
    "games/base.py",
    "games/registry.py",
    "games/specs.py",
    "games/svg.py",
    "games/hexapawn.py",
    "classroom/__init__.py",
    "classroom/hexapawn.py",
    "classroom/checks.py",
    "classroom/him.py",
    "classroom/verdicts.py",
)

# Run with -S -E -s: no site-packages (so no numpy, numba or scipy), no PYTHONPATH, only the folder
# that holds the twelve files.
ONLY_THE_STANDARD_LIBRARY = """
import sys
from gamelearn.classroom import check_count_boxes, check_him, check_mirror, check_winner
from gamelearn.classroom.hexapawn import has_lost

print(bool(check_mirror(lambda b: "".join(b[r + 2 - c] for r in (0, 3, 6) for c in range(3)))))
print(bool(check_winner(lambda b, s: ("B" if s == "W" else "W") if has_lost(b, s) else "")))
print(bool(check_count_boxes(lambda m: [19, 47] if m else [37, 90])))
boxes = {}
print(bool(check_him(lambda white: "W")))
print(*sorted(m for m in sys.modules if m.startswith("gamelearn")))
print(*sorted(m for m in sys.modules if m.partition(".")[0] not in sys.stdlib_module_names and m != "__main__"))
"""


def test_the_classroom_runs_on_twelve_files_and_the_standard_library(tmp_path: Path) -> None:
    package = Path(__file__).resolve().parents[2] / "src" / "gamelearn"
    for name in CLASSROOM_FILES:
        (tmp_path / "gamelearn" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "gamelearn" / name).write_bytes((package / name).read_bytes())
    script = tmp_path / "lesson.py"
    script.write_text(ONLY_THE_STANDARD_LIBRARY)
    done = subprocess.run(
        [sys.executable, "-S", "-E", "-s", str(script)], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    *printed, loaded, outside = done.stdout.splitlines()
    verdicts = [line for line in printed if line in ("True", "False")]
    assert verdicts == ["True", "True", "True", "False"]  # the last: a play_game that never asks White
    modules = sorted(
        "gamelearn." + name.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for name in CLASSROOM_FILES
    )
    assert loaded.split() == [module.removesuffix(".__init__") for module in modules]
    assert outside.split() == loaded.split()  # nothing beyond the standard library and the twelve files


def test_docs_lesson_shows_what_check_mirror_prints(capsys: pytest.CaptureFixture[str]) -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "lesson.md").read_text(encoding="utf-8")
    shown = re.search(r"```\n(Not yet: mirror\(.*?)```", page, flags=re.DOTALL)
    assert shown is not None
    check_mirror(lambda b: "".join(b[3 * r + (1, 0, 2)[c]] for r in range(3) for c in range(3)))
    assert capsys.readouterr().out == shown.group(1)


@pytest.mark.slow
def test_a_him_that_does_not_look_in_the_mirror_is_right_too(capsys: pytest.CaptureFixture[str]) -> None:
    # A box for each board, its mirror image another: more boxes, the same rules.
    namespace = program(looks_in_the_mirror=False)
    verdict, printed = verdict_of(capsys, check_him, namespace["play_game"])
    assert verdict and printed.startswith("Right: in all 20,000 games")
