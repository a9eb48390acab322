"""Checkers for the exercises of the classroom page "Can a Machine Learn a Game by Itself?".

The page's exercises ask a student to write ★ ``mirror(board)``, ★★ ``winner(board, side)``,
★★★ ``count_boxes(use_mirror)`` and to turn HER's ``play_game`` into HIM's (whose checker is
:mod:`gamelearn.classroom.him`).  The rules are Martin Gardner's, "A Matchbox Game-Learning
Machine" (Scientific American, March 1962).  Each checker runs the student's function against the
rules of :mod:`gamelearn.classroom.hexapawn` and prints one verdict
(:mod:`gamelearn.classroom.verdicts`):

* for the first wrong answer, the board drawn, what was expected and what came back, and which of
  the game's rules it missed;
* for a right one, a line of praise and the figure the function reproduces (HER's 19 boxes).

A checker never lets a traceback reach the student: an exception inside the student's function is
reported as one message naming the call, the error and the line of the student's code.  It returns
a :class:`Verdict` (true when right) besides printing it, for a teacher's script or a test.

Plain Python on the pure classroom module: no numpy, no numba, so it runs in any Jupyter.

>>> from gamelearn.classroom import check_mirror
>>> verdict = check_mirror(lambda board: board[2::-1] + board[5:2:-1] + board[8:5:-1])
Right: your mirror gives back the mirror image of every one of hexapawn's 135 positions. With it, the 37 positions Black can face share 19 boxes: HER's 19.
>>> bool(verdict)
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache
from typing import Any

from .hexapawn import START, has_lost, mirror, moves, play
from .verdicts import Verdict, crashed, described, draw, not_a_function, verdict

__all__ = ["check_count_boxes", "check_mirror", "check_winner", "positions"]

_NAMES = {"W": "White", "B": "Black"}
_ROW_NAMES = ("top", "middle", "bottom")


# The positions and the rules ------------------------------------------------------------------


def _other(side: str) -> str:
    return "B" if side == "W" else "W"


@cache
def positions() -> tuple[tuple[str, str], ...]:
    """Every position a game of hexapawn reaches, ``(board, side to move)``, finished ones included:
    135 of them, in the order games reach them (by the number of moves played, then board)."""
    found: list[tuple[str, str]] = []
    seen = {(START, "W")}
    layer = [(START, "W")]
    while layer:
        found.extend(layer)
        following = set()
        for board, side in layer:
            if has_lost(board, side):
                continue  # the game is over: nobody moves on
            for move in moves(board, side):
                after = (play(board, move), _other(side))
                if after not in seen:
                    seen.add(after)
                    following.add(after)
        layer = sorted(following)
    return tuple(found)


def _black_faces() -> list[str]:
    """The boards Black faces on its turn in a game not yet over: where HER opens a box."""
    return [board for board, side in positions() if side == "B" and not has_lost(board, "B")]


def _how_won(board: str, side: str) -> tuple[str, str]:
    """(winner, way) of a position, ``side`` to move: way is 'far row', 'all taken', 'stuck', or
    'goes on' with winner ''.  Only the side to move can have lost (the other side just moved)."""
    if not has_lost(board, side):
        return "", "goes on"
    enemy = _other(side)
    far_row = board[0:3] if enemy == "W" else board[6:9]
    if enemy in far_row:
        return enemy, "far row"
    if side not in board:
        return enemy, "all taken"
    return enemy, "stuck"


# ★ mirror --------------------------------------------------------------------------------------

_MIRROR_RULE = (
    "The rule: in a mirror each row of three reads back to front, so the left and right columns "
    "swap (squares 0 and 2, 3 and 5, 6 and 8) and the middle column stays; each row stays where it is."
)


def _mirror_missed(board: str, expected: str, got: object, wrong: list[tuple[str, object]]) -> str:
    """What a wrong mirror did: said of every wrong answer where one mistake explains them all,
    else of the first board's first wrong row."""
    if not isinstance(got, str):
        return f"A board is a string of 9 characters, and your mirror gave back {described(got)}."
    if len(got) != 9:
        return f"A board has 9 characters, and yours has {len(got)}."
    if all(answer == shown for shown, answer in wrong):
        return "Your mirror gives every board back unchanged."
    if all(answer == shown[::-1] for shown, answer in wrong):
        return (
            "You read the whole board back to front, which also turns it upside down: "
            "White's pawns end up at the top. In a mirror only each row reads back to front."
        )
    if sorted(got) != sorted(board):
        return (
            f"A mirror moves pawns but never adds or takes one: the board has {board.count('B')} black "
            f"and {board.count('W')} white pawns, yours {got.count('B')} and {got.count('W')}."
        )
    row = next(r for r in range(3) if got[3 * r : 3 * r + 3] != expected[3 * r : 3 * r + 3])
    part = slice(3 * row, 3 * row + 3)
    return f"The {_ROW_NAMES[row]} row {board[part]!r} should read {expected[part]!r}; yours reads {got[part]!r}."


def check_mirror(mirror_function: Callable[[str], Any]) -> Verdict:
    """★ Check ``mirror(board)`` on every position of hexapawn against each row read back to front."""
    if not callable(mirror_function):
        return not_a_function("check_mirror", "mirror", mirror_function)
    wrong: list[tuple[str, object]] = []  # every wrong answer: one mistake may explain them all
    for board, _ in positions():
        try:
            got = mirror_function(board)
        except Exception as error:
            return crashed(f"mirror({board!r})", error)
        if got != mirror(board):
            wrong.append((board, got))
    if wrong:
        board, got = wrong[0]
        expected = mirror(board)
        drawn = draw([("the board", board), ("its mirror", expected), ("yours", got)])
        return verdict(
            False,
            f"Not yet: mirror({board!r}) should give back {expected!r}, and yours gave back {got!r}.\n"
            f"{drawn}\n{_mirror_missed(board, expected, got, wrong)}\n{_MIRROR_RULE}",
        )
    faced = _black_faces()
    shared = {min(board, mirror_function(board)) for board in faced}
    return verdict(
        True,
        f"Right: your mirror gives back the mirror image of every one of hexapawn's {len(positions())} "
        f"positions. With it, the {len(faced)} positions Black can face share {len(shared)} boxes: HER's 19.",
    )


# ★★ winner -------------------------------------------------------------------------------------


def _why(board: str, side: str, winner: str, way: str) -> str:
    """The rule behind the right answer, said about this board."""
    if way == "goes on":
        first = moves(board, side)[0]
        return (
            f"The game goes on: no pawn is on its far row, both sides have pawns, and {_NAMES[side]}, "
            f"to move, can play {first}. Only Gardner's three ways end a game: a pawn on the far row, "
            "all enemy pawns taken, or the enemy to move and stuck."
        )
    loser = _NAMES[side]
    if way == "far row":
        squares = range(0, 3) if winner == "W" else range(6, 9)
        square = next(sq for sq in squares if board[sq] == winner)
        return (
            f"{_NAMES[winner]} has won with a pawn on the far row (square {square}): Gardner's first way. "
            "White's far row is the top one (squares 0 to 2), Black's the bottom one (6 to 8)."
        )
    if way == "all taken":
        return f"{_NAMES[winner]} has won: {loser} has no pawn left. Gardner's second way: all enemy pawns taken."
    return (
        f"{_NAMES[winner]} has won: {loser}, to move, is stuck. No pawn of {loser}'s can step straight "
        "ahead onto an empty square or take diagonally ahead: Gardner's third way, the enemy to move "
        "and stuck."
    )


def check_winner(winner_function: Callable[[str, str], Any]) -> Verdict:
    """★★ Check ``winner(board, side)`` on every position of hexapawn against Gardner's three ways to win."""
    if not callable(winner_function):
        return not_a_function("check_winner", "winner", winner_function)
    ways: Counter[str] = Counter()
    for board, side in positions():
        expected, way = _how_won(board, side)
        try:
            got = winner_function(board, side)
        except Exception as error:
            return crashed(f"winner({board!r}, {side!r})", error)
        if got != expected:
            if got not in ("W", "B", ""):
                form = f"winner gives back 'W', 'B' or '' (an empty string), and yours gave back {described(got)}.\n"
            else:
                form = ""
            return verdict(
                False,
                f"Not yet: winner({board!r}, {side!r}), {_NAMES[side]} to move, should give back {expected!r}, "
                f"and yours gave back {got!r}.\n{draw([('the board', board)])}\n{form}"
                f"{_why(board, side, expected, way)}",
            )
        ways[way] += 1
    finished = len(positions()) - ways["goes on"]
    return verdict(
        True,
        f"Right on all {len(positions())} positions of hexapawn: {ways['goes on']} where the game goes on and "
        f"{finished} won, {ways['far row']} with a pawn on the far row, {ways['all taken']} with all enemy "
        f"pawns taken, {ways['stuck']} with the enemy stuck.",
    )


# ★★★ count_boxes -------------------------------------------------------------------------------


def _count(sides: str, finished_too: bool, use_mirror: bool) -> tuple[int, int]:
    """(boxes, beads) for the positions where one of ``sides`` is to move: a box a position (a
    position and its mirror image once, with ``use_mirror``), a bead a move of the side to move."""
    boxes: dict[tuple[str, str], int] = {}
    for board, side in positions():
        if side not in sides or (has_lost(board, side) and not finished_too):
            continue
        name = min(board, mirror(board)) if use_mirror else board
        boxes[(name, side)] = len(moves(name, side))
    return len(boxes), sum(boxes.values())


@cache
def _box_figures() -> dict[bool, tuple[int, int]]:
    """HER's boxes and beads counted from the rules: {use_mirror: (boxes, beads)}."""
    return {use_mirror: _count("B", False, use_mirror) for use_mirror in (True, False)}


def _count_missed(use_mirror: bool, got: tuple[int, int]) -> str:
    """Which rule of the count a wrong [boxes, beads] missed, with a board that shows it."""
    right = _box_figures()[use_mirror]
    faced = _black_faces()
    pair = next(board for board in faced if mirror(board) != board)
    over = next(board for board, side in positions() if side == "B" and has_lost(board, "B"))
    white = next(board for board, side in positions() if side == "W" and board != START)
    mistakes = [
        (
            _count("B", False, not use_mirror),
            (
                "That is the count without the mirror: with use_mirror True a position and its mirror "
                "image share one box, as in her_turn. These two are one box:"
                if use_mirror
                else "That is the count with the mirror: with use_mirror False a position and its mirror "
                "image each get a box of their own. These two are two boxes:"
            ),
            [("a position", pair), ("its mirror", mirror(pair))],
        ),
        (
            (right[1], right[0]),
            "Those are the right figures the wrong way round: count_boxes gives back [boxes, beads].",
            [],
        ),
        (
            _count("B", True, use_mirror),
            "You counted positions where the game is already over. When White has won, as here, "
            "Black opens no box: count only games not over yet (has_lost(board, 'B') is False).",
            [("game over", over)],
        ),
        (
            _count("W", False, use_mirror),
            "You counted the positions White faces. HER plays Black: count the positions where it is Black's turn.",
            [("White to move", white)],
        ),
        (
            _count("WB", False, use_mirror),
            "You counted both players' positions. HER's boxes are Black's only: where it is Black's turn.",
            [("White to move", white)],
        ),
        (
            _count("WB", True, use_mirror),
            "You counted every position of hexapawn, both players' and finished ones too. HER's boxes "
            "are only where Black is to move in a game not over yet.",
            [("game over", over)],
        ),
    ]
    for figures, text, boards in mistakes:
        if figures == got:
            return text + ("\n" + draw(boards) if boards else "")
    first = faced[0]
    if got[0] == right[0]:
        return (
            f"The boxes are right and the beads not: a box holds a bead for each of Black's moves in its "
            f"position, moves(board, 'B'). This box holds {len(moves(first, 'B'))}, {moves(first, 'B')}:\n"
            + draw([("a box", first)])
        )
    return (
        "Count every position Black can face on its turn, from every possible game: start at the start, "
        "'BBB...WWW', with White to move, try every move of the side to move, then every answer, and so on, keeping a list "
        "of positions still to look at and a set of those already seen, so each counts once. Stop where "
        "the game is over. For example, after White plays (6, 3) Black faces this position, one box "
        f"with {len(moves(first, 'B'))} beads:\n" + draw([("one box", first)])
    )


def _as_pair(value: object) -> tuple[int, int] | None:
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return (int(value[0]), int(value[1]))
    return None


def check_count_boxes(count_boxes: Callable[[bool], Any]) -> Verdict:
    """★★★ Check ``count_boxes(use_mirror)``: [boxes, beads] of HER, with the mirror and without,
    against a count of every position Black can face in a game not over."""
    if not callable(count_boxes):
        return not_a_function("check_count_boxes", "count_boxes", count_boxes)
    figures = _box_figures()
    for use_mirror in (True, False):
        right = figures[use_mirror]
        try:
            answer = count_boxes(use_mirror)
        except Exception as error:
            return crashed(f"count_boxes({use_mirror})", error)
        got = _as_pair(answer)
        if got is None:
            return verdict(
                False,
                f"Not yet: count_boxes({use_mirror}) should give back two whole numbers, [boxes, beads]: "
                f"{list(right)}; yours gave back {described(answer)}.",
            )
        if got != right:
            return verdict(
                False,
                f"Not yet: count_boxes({use_mirror}) should give back {list(right)}, and yours gave back "
                f"{list(got)}.\n{_count_missed(use_mirror, got)}",
            )
    with_mirror, without = figures[True], figures[False]
    return verdict(
        True,
        f"Right: {list(with_mirror)} with the mirror, {list(without)} without. HER needs {with_mirror[0]} "
        f"boxes and {with_mirror[1]} beads, as Gardner counted; without the mirror, {without[0]} and {without[1]}.",
    )
