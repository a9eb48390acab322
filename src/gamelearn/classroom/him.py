"""The checker of HIM, Gardner's second matchbox robot ("A Matchbox Game-Learning Machine",
Scientific American, March 1962): HER's ``play_game`` changed so that a win puts a second bead of
each move drawn back in its box.  It runs the classroom page's fifty-HERs experiment through the
student's own program and checks every game's boxes (see :func:`check_him`)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .hexapawn import START, has_lost, mirror, moves, play, random_white, sharp_white
from .verdicts import Verdict, crashed, described, draw, not_a_function, verdict

__all__ = ["GAMES", "LEARNERS", "SEED", "check_him"]

Move = tuple[int, int]


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
                    f"board her_turn gave back.\n" + draw([("after White", previous), ("White was given", board)])
                )
            game.draws.append((box, bead))
            if has_lost(board, "W"):
                raise _Wrong(
                    f"In {game.where()}, HIM's move {bead} won the game, and play_game went on and asked White "
                    "to move. After HIM's move, check has_lost(board, 'W') and stop: HIM has won.\n"
                    + draw([("HIM has won", board)])
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
                "It gives back 'L' when HIM loses.\n" + draw([("White has won", last_board)])
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
                + draw([("HIM's last box", last_box)])
            )
        game.draws.append((last_box, bead))
        for box, drawn in game.draws:
            touched[box][drawn] += 1
    elif result == "L":
        if not has_lost(last_board, "B"):  # HIM gave up: its box was empty
            if last_box in shadow and sum(shadow[last_box].values()) > 0:
                raise _Wrong(
                    f"In {game.where()}, HIM gave up on a box that still held beads, "
                    f"{_show_beads(shadow[last_box])}; only an empty box gives up.\n" + draw([("the box", last_box)])
                )
            touched.setdefault(last_box, Counter())
        box, drawn = game.draws[-1]
        touched[box][drawn] -= 1
    else:
        raise _Wrong(f"In {game.where()}, play_game gave back {described(result)}; it gives back 'W' or 'L'.")
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
            + draw([("the box", name)])
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
        return not_a_function("check_him", "play_game", play_game)
    namespace = getattr(play_game, "__globals__", None)
    if not isinstance(namespace, dict) or not isinstance(namespace.get("boxes"), dict):
        return verdict(
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
        return verdict(False, f"Not yet: {said[0].lower()}{said[1:]}")
    except _Crash as crash:
        return crashed(crash.call, crash.error)
    finally:
        namespace["boxes"] = kept_boxes
        random.setstate(kept_random)
    her = _her_table()
    comparison = " and ".join(
        f"{'more' if him[2] > mine[2] else 'fewer' if him[2] < mine[2] else 'as many'} against {him[0]}"
        for him, mine in zip(table, her, strict=True)
    )
    return verdict(
        True,
        f"Right: in all {2 * LEARNERS * GAMES:,} games ({LEARNERS} HIMs, {GAMES} games each against Random and "
        f"against Sharp, random.seed({SEED})) every win put a second bead of each move back and every loss "
        f"took out the last move's bead.\nHIM's losses: {_table(table)}.\n"
        f"HER's, the page's table: {_table(her)}.\nSo HIM loses {comparison}.",
    )
