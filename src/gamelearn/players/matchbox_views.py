"""What an interface shows of a matchbox learner's boxes: each box's beads with their counts, every
bead it ever held included (a count of 0 is the empty ring a lost bead leaves, as in Gardner 1962's
picture of HER's boxes)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from .matchbox_beads import bead_counts

if TYPE_CHECKING:
    from .matchbox import MatchboxPlayer


def box_beads(player: MatchboxPlayer[Any], board: str) -> list[tuple[str, int]]:
    """The box for ``board`` as (bead, count) pairs in the box's own order, every bead it ever
    held included: a count of 0 is the empty ring a lost bead leaves (Gardner's picture)."""
    beads = player.boxes.get(board)  # read, never changed: no copy of every box
    counts = bead_counts(beads if beads is not None else player.fresh_box(board))
    order = list(bead_counts(player.fresh_box(board)))
    order += [bead for bead in counts if bead not in order]
    return [(bead, counts.get(bead, 0)) for bead in order]


class BoxView(TypedDict):
    """One box as a page shows it: its board, its beads as [bead, count] pairs, their total."""

    board: str
    beads: list[list[str | int]]
    count: int


class BoxesView(TypedDict):
    """A matchbox learner as a page shows it: its counts and the boxes shown."""

    kind: str
    boxes_total: int
    beads_total: int
    games: int
    boxes: list[BoxView]


def boxes_view(player: MatchboxPlayer[Any], focus: list[str] | None = None) -> BoxesView:
    """Every box for hexapawn (19 at most fit a page, as in Gardner's picture); MENACE's boxes
    of ``focus`` (it has up to 304).  Each box lists its beads with their counts, every bead it
    ever held included (0: the empty ring a lost bead leaves)."""
    boxes = player.boxes  # read, never changed: no copy of every box on every answer
    shown = sorted(boxes) if player.game.name == "hexapawn" else [b for b in dict.fromkeys(focus or []) if b in boxes]
    counts = player.describe()
    return {
        "kind": player.kind,
        "boxes_total": counts["boxes"],
        "beads_total": counts["beads"],
        "games": counts["games"],
        "boxes": [
            {
                "board": board,
                "beads": [list(pair) for pair in box_beads(player, board)],
                "count": sum(bead_counts(boxes[board]).values()),
            }
            for board in shown
        ],
    }
