"""Checkers for the exercises of the classroom page "Can a Machine Learn a Game by Itself?".

The page's exercises ask a student to write ★ ``mirror(board)``, ★★ ``winner(board, side)``,
★★★ ``count_boxes(use_mirror)`` and to turn HER's ``play_game`` into HIM's, whom Martin Gardner
proposed in "A Matchbox Game-Learning Machine" (Scientific American, March 1962): a win puts a
second bead of each move HIM drew back in its box.  Each checker here runs the student's function
against the rules of :mod:`gamelearn.classroom.hexapawn` and prints one verdict:

* for the first wrong answer, the board drawn, what was expected and what came back, and which of
  the game's rules it missed;
* for a right one, a line of praise and the figure the function reproduces (HER's 19 boxes, the
  page's table of fifty HERs).

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

import linecache
import random
import traceback
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .hexapawn import START, has_lost, mirror, moves, play, random_white, sharp_white

__all__ = ["Verdict", "check_count_boxes", "check_him", "check_mirror", "check_winner", "positions"]

Move = tuple[int, int]
_HERE = str(Path(__file__).resolve().parent)
_NAMES = {"W": "White", "B": "Black"}
_ROW_NAMES = ("top", "middle", "bottom")


@dataclass(frozen=True)
class Verdict:
    """What a checker found: ``passed`` (also the verdict's truth) and the ``message`` it printed."""

    passed: bool
    message: str = field(repr=False)

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        return f"<Verdict: {'right' if self.passed else 'not yet'}>"

    def _ipython_display_(self) -> None:
        """Nothing more below a notebook cell: the checker has printed the message already."""


def _verdict(passed: bool, message: str) -> Verdict:
    print(message)
    return Verdict(passed, message)


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


# Drawing --------------------------------------------------------------------------------------


def _is_board(value: object) -> bool:
    return isinstance(value, str) and len(value) == 9


def _draw(columns: Sequence[tuple[str, object]]) -> str:
    """Boards side by side under their titles; a value that is no board is written out instead."""
    width = max(len(title) for title, _ in columns) + 3
    lines = ["  " + "".join(title.ljust(width) for title, _ in columns).rstrip()]
    for row in range(3):
        cells = []
        for _, value in columns:
            cells.append(
                (value[3 * row : 3 * row + 3] if isinstance(value, str) and _is_board(value) else "").ljust(width)
            )
        lines.append("  " + "".join(cells).rstrip())
    for title, value in columns:
        if not _is_board(value):
            lines.append(f"  ({title}: {value!r}, which is no board of 9 characters)")
    return "\n".join(lines)


def _described(value: object) -> str:
    return "None (a function without `return` gives back None)" if value is None else repr(value)


# Calling the student's function ----------------------------------------------------------------


def _not_a_function(checker: str, wanted: str, value: object) -> Verdict:
    return _verdict(
        False,
        f"Not yet: {checker} needs your function itself, as in {checker}({wanted}), "
        f"with no brackets after {wanted}; it was given {value!r}.",
    )


def _crashed(call: str, error: Exception) -> Verdict:
    """One message for an exception inside the student's code: the call, the error, the line."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if not frame.filename.startswith(_HERE)]
    where = ""
    if frames:
        frame = frames[-1]
        text = (frame.line or linecache.getline(frame.filename, frame.lineno or 0)).strip()
        where = f"\nIt stopped at line {frame.lineno} of your cell" + (f": {text}" if text else ".")
    return _verdict(False, f"Not yet: {call} stopped with an error, {type(error).__name__}: {error}{where}")


# ★ mirror --------------------------------------------------------------------------------------

_MIRROR_RULE = (
    "The rule: in a mirror each row of three reads back to front, so the left and right columns "
    "swap (squares 0 and 2, 3 and 5, 6 and 8) and the middle column stays; each row stays where it is."
)


def _mirror_missed(board: str, expected: str, got: object, wrong: list[tuple[str, object]]) -> str:
    """What a wrong mirror did: said of every wrong answer where one mistake explains them all,
    else of the first board's first wrong row."""
    if not isinstance(got, str):
        return f"A board is a string of 9 characters, and your mirror gave back {_described(got)}."
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
        return _not_a_function("check_mirror", "mirror", mirror_function)
    wrong: list[tuple[str, object]] = []  # every wrong answer: one mistake may explain them all
    for board, _ in positions():
        try:
            got = mirror_function(board)
        except Exception as error:
            return _crashed(f"mirror({board!r})", error)
        if got != mirror(board):
            wrong.append((board, got))
    if wrong:
        board, got = wrong[0]
        expected = mirror(board)
        drawn = _draw([("the board", board), ("its mirror", expected), ("yours", got)])
        return _verdict(
            False,
            f"Not yet: mirror({board!r}) should give back {expected!r}, and yours gave back {got!r}.\n"
            f"{drawn}\n{_mirror_missed(board, expected, got, wrong)}\n{_MIRROR_RULE}",
        )
    faced = _black_faces()
    shared = {min(board, mirror_function(board)) for board in faced}
    return _verdict(
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
        return _not_a_function("check_winner", "winner", winner_function)
    ways: Counter[str] = Counter()
    for board, side in positions():
        expected, way = _how_won(board, side)
        try:
            got = winner_function(board, side)
        except Exception as error:
            return _crashed(f"winner({board!r}, {side!r})", error)
        if got != expected:
            if got not in ("W", "B", ""):
                form = f"winner gives back 'W', 'B' or '' (an empty string), and yours gave back {_described(got)}.\n"
            else:
                form = ""
            return _verdict(
                False,
                f"Not yet: winner({board!r}, {side!r}), {_NAMES[side]} to move, should give back {expected!r}, "
                f"and yours gave back {got!r}.\n{_draw([('the board', board)])}\n{form}"
                f"{_why(board, side, expected, way)}",
            )
        ways[way] += 1
    finished = len(positions()) - ways["goes on"]
    return _verdict(
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
            return text + ("\n" + _draw(boards) if boards else "")
    first = faced[0]
    if got[0] == right[0]:
        return (
            f"The boxes are right and the beads not: a box holds a bead for each of Black's moves in its "
            f"position, moves(board, 'B'). This box holds {len(moves(first, 'B'))}, {moves(first, 'B')}:\n"
            + _draw([("a box", first)])
        )
    return (
        "Count every position Black can face on its turn, from every possible game: start at the start, "
        "'BBB...WWW', with White to move, try every move of the side to move, then every answer, and so on, keeping a list "
        "of positions still to look at and a set of those already seen, so each counts once. Stop where "
        "the game is over. For example, after White plays (6, 3) Black faces this position, one box "
        f"with {len(moves(first, 'B'))} beads:\n" + _draw([("one box", first)])
    )


def _as_pair(value: object) -> tuple[int, int] | None:
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return (int(value[0]), int(value[1]))
    return None


def check_count_boxes(count_boxes: Callable[[bool], Any]) -> Verdict:
    """★★★ Check ``count_boxes(use_mirror)``: [boxes, beads] of HER, with the mirror and without,
    against a count of every position Black can face in a game not over."""
    if not callable(count_boxes):
        return _not_a_function("check_count_boxes", "count_boxes", count_boxes)
    figures = _box_figures()
    for use_mirror in (True, False):
        right = figures[use_mirror]
        try:
            answer = count_boxes(use_mirror)
        except Exception as error:
            return _crashed(f"count_boxes({use_mirror})", error)
        got = _as_pair(answer)
        if got is None:
            return _verdict(
                False,
                f"Not yet: count_boxes({use_mirror}) should give back two whole numbers, [boxes, beads]: "
                f"{list(right)}; yours gave back {_described(answer)}.",
            )
        if got != right:
            return _verdict(
                False,
                f"Not yet: count_boxes({use_mirror}) should give back {list(right)}, and yours gave back "
                f"{list(got)}.\n{_count_missed(use_mirror, got)}",
            )
    with_mirror, without = figures[True], figures[False]
    return _verdict(
        True,
        f"Right: {list(with_mirror)} with the mirror, {list(without)} without. HER needs {with_mirror[0]} "
        f"boxes and {with_mirror[1]} beads, as Gardner counted; without the mirror, {without[0]} and {without[1]}.",
    )


# HIM ------------------------------------------------------------------------------------------

#: The page's table of fifty HERs: 50 learners, 200 games each, against Random then Sharp, one seed.
LEARNERS, GAMES, SEED = 50, 200, 1
_TEACHERS: tuple[tuple[str, Callable[[str], Move]], ...] = (("Random", random_white), ("Sharp", sharp_white))


class _Wrong(Exception):
    """The student's play_game broke HIM's rules or the game's: the message says how."""


def _box_of(after_white: str, boxes: dict[str, Any]) -> str:
    """The name of the box HIM opens on ``after_white``: the lesser of the board and its mirror, as
    the page's her_turn names it (or the board itself, where a student's boxes are named so)."""
    name = min(after_white, mirror(after_white))
    if after_white == name or after_white not in boxes:
        return name
    # A HIM that does not look in the mirror has a box named by a greater board somewhere.
    if name not in boxes or any(key > mirror(key) for key in boxes):
        return after_white
    return name


def _beads(box: object) -> Counter[Move]:
    return Counter(box) if isinstance(box, list) else Counter()


def _show_beads(beads: Counter[Move]) -> str:
    return "[" + ", ".join(str(bead) for bead in sorted(beads.elements())) + "]"


@dataclass
class _Game:
    """One game as White saw it: the boards it was asked to move on and the draws they reveal."""

    number: int
    teacher: str
    draws: list[tuple[str, Move]] = field(default_factory=list)  # HIM's (box, bead), in order
    after_white: str = START  # the board after White's last move
    moves_seen: list[str] = field(default_factory=list)

    def where(self) -> str:
        return f"game {self.number} against {self.teacher}"


def _white_for(
    game: _Game, teacher: Callable[[str], Move], boxes_now: Callable[[], dict[str, Any]]
) -> Callable[[str], Move]:
    """The teacher, watching the boards play_game gives it: each must follow from the one before
    by a move of Black's, and never be a game already over."""

    def white(board: str) -> Move:
        if not game.moves_seen:
            if board != START:
                raise _Wrong(f"In {game.where()}, White's first move was asked on {board!r}; a game starts at START.")
        else:
            previous = game.after_white
            # HIM played on the board or on its mirror image: whichever a move of Black's leads from
            first = _box_of(previous, boxes_now())
            box, bead = next(
                ((name, m) for name in (first, mirror(first)) for m in moves(name, "B") if play(name, m) == board),
                (first, None),
            )
            if bead is None:
                raise _Wrong(
                    f"In {game.where()}, after White's move the board was {previous!r}, and then White was asked "
                    f"to move on {board!r}, which no move of Black's leads to. play_game plays HIM's bead on the "
                    f"board her_turn gave back.\n" + _draw([("after White", previous), ("White was given", board)])
                )
            game.draws.append((box, bead))
            if has_lost(board, "W"):
                raise _Wrong(
                    f"In {game.where()}, HIM's move {bead} won the game, and play_game went on and asked White "
                    "to move. After HIM's move, check has_lost(board, 'W') and stop: HIM has won.\n"
                    + _draw([("HIM has won", board)])
                )
        move = teacher(board)
        game.moves_seen.append(board)
        game.after_white = play(board, move)
        return move

    return white


class _Crash(Exception):
    """An exception inside the student's code, and the call it came from."""

    def __init__(self, call: str, error: Exception) -> None:
        super().__init__(call)
        self.call, self.error = call, error


def _opened(box: str, shadow: dict[str, Counter[Move]]) -> Counter[Move]:
    """A box as it was before this game: as HIM left it, or new, with a bead for each move."""
    return Counter(shadow[box]) if box in shadow else Counter(moves(box, "B"))


def _after_game(
    game: _Game, result: object, shadow: dict[str, Counter[Move]], boxes: dict[str, Any]
) -> dict[str, Counter[Move]]:
    """The boxes this game touched, as HIM's rules leave them: a box opened holds a bead a move;
    after a win a second bead of each move drawn, after a loss the last move's bead out.  The
    winning draw, which White never sees, is read from the box it was drawn from (and added to
    ``game.draws``)."""
    touched = {box: _opened(box, shadow) for box, _ in game.draws}
    last_board = game.after_white
    last_box = _box_of(last_board, boxes)
    if result == "W":
        if has_lost(last_board, "B"):
            raise _Wrong(
                f"In {game.where()}, White's last move won, and play_game gave back 'W', which means HIM won. "
                "It gives back 'L' when HIM loses.\n" + _draw([("White has won", last_board)])
            )
        # The box of the winning draw: the one named as her_turn names it, unless the board's other
        # name (a HIM that does not look in the mirror) holds a winning bead one more time.
        bead = None
        for name in dict.fromkeys((last_box, last_board, mirror(last_board))):
            held, found = _opened(name, shadow), _beads(boxes.get(name))
            winning = [move for move in held if has_lost(play(name, move), "W")]
            added = [move for move in winning if found[move] == held[move] + 1]
            if added or (name == last_box and winning):
                if added or bead is None:
                    last_box, bead = name, (added or winning)[0]
                if added:
                    break
        touched.setdefault(last_box, _opened(last_box, shadow))
        if bead is None:
            raise _Wrong(
                f"In {game.where()}, play_game gave back 'W', but no bead in HIM's last box wins the game.\n"
                + _draw([("HIM's last box", last_box)])
            )
        game.draws.append((last_box, bead))
        for box, drawn in game.draws:
            touched[box][drawn] += 1
    elif result == "L":
        if not has_lost(last_board, "B"):  # HIM gave up: its box was empty
            if last_box in shadow and sum(shadow[last_box].values()) > 0:
                raise _Wrong(
                    f"In {game.where()}, HIM gave up on a box that still held beads, "
                    f"{_show_beads(shadow[last_box])}; only an empty box gives up.\n" + _draw([("the box", last_box)])
                )
            touched.setdefault(last_box, Counter())
        box, drawn = game.draws[-1]
        touched[box][drawn] -= 1
    else:
        raise _Wrong(f"In {game.where()}, play_game gave back {_described(result)}; it gives back 'W' or 'L'.")
    return touched


def _win_rule(game: _Game, shadow: dict[str, Counter[Move]], boxes: dict[str, Any], name: str) -> str:
    """Which part of HIM's reward a won game's boxes missed."""
    rewarded = [box for box, bead in game.draws if _beads(boxes.get(box))[bead] > _opened(box, shadow)[bead]]
    if not rewarded:
        return (
            "After a win HIM puts a second copy of each bead it drew back in its box; here no bead of the "
            "game got one (that is HER: a win changes nothing). You need a list of all HIM's moves in the "
            "game, not just last."
        )
    if rewarded == [game.draws[-1][0]]:
        return (
            "After a win HIM puts a second copy of each bead it drew back in its box; here only the last "
            "move's bead got one. You need a list of all HIM's moves in the game, not just last."
        )
    drawn = [bead for box, bead in game.draws if box == name]
    if drawn:
        return (
            f"After a win HIM puts a second copy of each bead it drew back in its box: this box's bead "
            f"{drawn[0]}, drawn in this game, is there once more than before, and nothing else changes."
        )
    return "After a win, only the boxes HIM drew from in that game change, each by one bead."


def _compare(
    game: _Game,
    result: object,
    shadow: dict[str, Counter[Move]],
    touched: dict[str, Counter[Move]],
    boxes: dict[str, Any],
) -> None:
    """Raise _Wrong at the first box whose beads differ from HIM's rules, naming the rule it missed.
    Boxes this game did not touch are compared by size here, whole at the end of a training."""
    for name in sorted(set(boxes) - set(shadow) - set(touched)):
        raise _Wrong(f"After {game.where()}, HIM has a box for {name!r} that it never opened.")
    for name in [*touched, *(name for name in shadow if name not in touched)]:
        wanted = touched.get(name)
        if wanted is None:
            if len(boxes.get(name) or ()) == sum(shadow[name].values()):
                continue
            wanted = shadow[name]
        found = _beads(boxes.get(name))
        if found == wanted:
            continue
        if result == "W":
            rule = _win_rule(game, shadow, boxes, name)
        else:
            rule = (
                "After a loss the bead of HIM's last move comes out of its box (one copy), as with HER; "
                "no other box changes."
            )
        raise _Wrong(
            f"After {game.where()}, which HIM {'won' if result == 'W' else 'lost'}, its box for this "
            f"position should hold {_show_beads(wanted)} and holds {_show_beads(found)}.\n"
            + _draw([("the box", name)])
            + f"\n{rule}"
        )


def _train(
    play_game: Callable[..., Any], namespace: dict[str, Any], teacher: str, white: Callable[[str], Move], first: int
) -> list[int]:
    """LEARNERS fresh HIMs, GAMES games each against one teacher: each one's losses, every game checked.
    Games are numbered on from ``first``."""
    losses = []
    number = first
    for _ in range(LEARNERS):
        namespace["boxes"] = {}
        shadow: dict[str, Counter[Move]] = {}  # HIM's boxes as its rules have them so far
        lost = 0
        for _ in range(GAMES):
            number += 1
            game = _Game(number, teacher)
            try:
                result = play_game(_white_for(game, white, lambda: namespace["boxes"]))
            except _Wrong:
                raise
            except Exception as error:
                raise _Crash(f"play_game in {game.where()}", error) from error
            boxes = namespace["boxes"]
            if not game.moves_seen:
                raise _Wrong(f"In {game.where()}, play_game never asked White to move: White moves first.")
            touched = _after_game(game, result, shadow, boxes)
            _compare(game, result, shadow, touched, boxes)
            shadow.update(touched)
            lost += result == "L"
        for name, beads in shadow.items():
            if _beads(boxes.get(name)) != beads:
                raise _Wrong(
                    f"After {game.where()}, HIM's box for {name!r} should hold {_show_beads(beads)} and holds "
                    f"{_show_beads(_beads(boxes.get(name)))}: a box changes only when HIM draws from it."
                )
        losses.append(lost)
    return losses


def _her_game(boxes: dict[str, list[Move]], white: Callable[[str], Move]) -> str:
    """HER's play_game, the page's Step 3 word for word: the table HIM's is set beside."""
    board, last = START, None
    while True:
        board = play(board, white(board))
        if has_lost(board, "B"):
            break
        if mirror(board) < board:
            board = mirror(board)
        if board not in boxes:
            boxes[board] = moves(board, "B")
        if not boxes[board]:
            break
        bead = random.choice(boxes[board])
        last = (board, bead)
        board = play(board, bead)
        if has_lost(board, "W"):
            return "W"
    assert last is not None  # HER's first box never empties: every first move of White's loses
    boxes[last[0]].remove(last[1])
    return "L"


@cache
def _her_table() -> tuple[tuple[str, int, float], ...]:
    """The page's fifty-HERs table: (teacher, most losses, average), random.seed(SEED) as the page does."""
    state = random.getstate()
    try:
        random.seed(SEED)
        table = []
        for teacher, white in _TEACHERS:
            losses = []
            for _ in range(LEARNERS):
                boxes: dict[str, list[Move]] = {}
                losses.append(sum(_her_game(boxes, white) == "L" for _ in range(GAMES)))
            table.append((teacher, max(losses), sum(losses) / LEARNERS))
        return tuple(table)
    finally:
        random.setstate(state)


def _table(rows: Sequence[tuple[str, int, float]]) -> str:
    """A table of losses on one line: each teacher's most and average."""
    return "; ".join(f"{teacher}, most {most}, average {average:.2f}" for teacher, most, average in rows)


def check_him(play_game: Callable[..., Any]) -> Verdict:
    """Check HIM's ``play_game(white)``: the page's program, changed so that a win puts a second
    copy of each bead drawn back in its box (Gardner 1962), a loss taking out the last move's bead.

    It runs the page's experiment, fifty fresh HIMs of 200 games against Random and against Sharp
    with ``random.seed(1)``, through the student's own ``play_game``, ``her_turn`` and ``boxes``
    (the dictionary beside ``play_game``, given a fresh one for each HIM and put back after), and
    checks every game's boxes against HIM's rules: White sees each board, so each bead HIM drew is
    known.  The student's ``random`` state and ``boxes`` are as they were afterwards.
    """
    if not callable(play_game):
        return _not_a_function("check_him", "play_game", play_game)
    namespace = getattr(play_game, "__globals__", None)
    if not isinstance(namespace, dict) or not isinstance(namespace.get("boxes"), dict):
        return _verdict(
            False,
            "Not yet: check_him looks for HIM's boxes where play_game finds them, a dictionary named boxes "
            "beside it (boxes = {}), as in the page's programs; there is none.",
        )
    kept_boxes, kept_random = namespace["boxes"], random.getstate()
    table: list[tuple[str, int, float]] = []
    try:
        random.seed(SEED)
        for teacher, white in _TEACHERS:
            losses = _train(play_game, namespace, teacher, white, len(table) * LEARNERS * GAMES)
            table.append((teacher, max(losses), sum(losses) / LEARNERS))
    except _Wrong as wrong:
        said = str(wrong)
        return _verdict(False, f"Not yet: {said[0].lower()}{said[1:]}")
    except _Crash as crash:
        return _crashed(crash.call, crash.error)
    finally:
        namespace["boxes"] = kept_boxes
        random.setstate(kept_random)
    her = _her_table()
    comparison = " and ".join(
        f"{'more' if him[2] > mine[2] else 'fewer' if him[2] < mine[2] else 'as many'} against {him[0]}"
        for him, mine in zip(table, her, strict=True)
    )
    return _verdict(
        True,
        f"Right: in all {2 * LEARNERS * GAMES:,} games ({LEARNERS} HIMs, {GAMES} games each against Random and "
        f"against Sharp, random.seed({SEED})) every win put a second bead of each move back and every loss "
        f"took out the last move's bead.\nHIM's losses: {_table(table)}.\n"
        f"HER's, the page's table: {_table(her)}.\nSo HIM loses {comparison}.",
    )
