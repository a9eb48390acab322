"""Beads: a box's beads as counts, the beads a game took out of and put into each box (a lesson)
and the line it is told in, MENACE's beads by stage and rewards as specs give them, and the shake
of a box (a seeded draw, one bead uniformly)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from ..knowledge import BoxesKnowledge, Change, Lesson
from ..registry import parse_int

#: MENACE's defaults (Michie 1961): beads per colour at its 1st, 2nd, 3rd and 4th move, and rewards.
MENACE_BEADS = (4, 3, 2, 1)
MENACE_REWARDS = (3, 1, -1)


def bead_counts(beads: Any) -> Counter[str]:
    """A box's beads as counts: HER's and HIM's are a list of moves, MENACE's colour -> count."""
    if isinstance(beads, dict):
        return Counter({str(colour): int(count) for colour, count in beads.items()})
    return Counter(str(bead) for bead in beads)


def bead_total(boxes: dict[str, Any]) -> int:
    """Every bead in ``boxes``: HER's and HIM's boxes are lists of moves, MENACE's colour -> count."""
    total = 0
    for beads in boxes.values():  # a plain loop: read on every web answer, over every box
        total += len(beads) if isinstance(beads, list) else sum(beads.values())
    return total


def lesson_text(changes: list[Change], opened: int) -> str:
    """One line for people: "bead 03 taken out of box BBB..WWW." or counts."""
    taken = [(change.where, bead) for change in changes for bead in change.removed]
    put = sum(len(change.added) for change in changes)
    parts = []
    if len(taken) == 1:
        parts.append(f"bead {taken[0][1]} taken out of box {taken[0][0]}")
    elif taken:
        boxes = len({where for where, _ in taken})
        parts.append(f"{len(taken)} beads taken out of {boxes} box{'es' if boxes != 1 else ''}")
    if put:
        boxes = sum(1 for change in changes if change.added)
        parts.append(f"{put} bead{'s' if put != 1 else ''} put into {boxes} box{'es' if boxes != 1 else ''}")
    if opened:
        parts.append(f"{opened} new box{'es' if opened != 1 else ''} opened")
    return "; ".join(parts) if parts else "nothing changed"


def box_lesson(kind: str, before: BoxesKnowledge, after: BoxesKnowledge, fresh_box: Callable[[str], Any]) -> Lesson:
    """Beads taken out of and put into each box between two knowledge values of a learner of
    ``kind``.  A box the learner opened since ``before`` is compared with a new box of that
    position (``fresh_box`` of its board: its beads were not learned, only found)."""
    old_boxes: Mapping[str, object] = before.get("boxes", {})
    new_boxes: Mapping[str, object] = after.get("boxes", {})
    changes = []
    opened = 0
    for board in sorted(set(old_boxes) | set(new_boxes)):
        if board in old_boxes and board in new_boxes and old_boxes[board] == new_boxes[board]:
            continue  # the same beads: nothing changed there (most boxes, after one game)
        if board in old_boxes:
            old = bead_counts(old_boxes[board])
        else:
            opened += 1
            old = bead_counts(fresh_box(board))
        new = bead_counts(new_boxes.get(board, {}))
        removed, added = old - new, new - old
        if removed or added or board not in old_boxes:
            changes.append(
                Change(
                    where=board,
                    removed=tuple(sorted(removed.elements())),
                    added=tuple(sorted(added.elements())),
                    before=None if board not in old_boxes else sum(old.values()),
                    after=sum(new.values()),
                )
            )
    return Lesson(kind, tuple(changes), lesson_text(changes, opened))


def parse_beads(text: str) -> tuple[int, ...]:
    """Beads per colour by stage, written ``4-3-2-1`` (a spec's options are comma separated)."""
    try:
        values = tuple(int(part) for part in text.replace("/", "-").split("-"))
    except ValueError:
        raise ValueError(f"{text!r} is not beads by stage such as 4-3-2-1") from None
    if not values or any(v < 1 or v > 1000 for v in values):
        raise ValueError(f"{text!r}: each stage needs 1 to 1000 beads per colour")
    return values


#: Beads added (or, negative, taken out) after a result: a whole number, its range shown.
parse_reward = parse_int(-1000, 1000)


def draw_colour(rng: Any, counts: dict[str, int]) -> str | None:
    """Shake the box: a bead drawn uniformly, so a colour with twice the beads is twice as likely.
    The walk is in the box's colour order, which the fast path repeats draw for draw."""
    total = sum(counts.values())
    if total <= 0:
        return None
    pick = rng.randrange(total)
    for colour, count in counts.items():
        if pick < count:
            return colour
        pick -= count
    raise AssertionError("unreachable: pick < total")
