"""Why a matchbox learner is stuck, in its own terms, and what the literature does about it.

An empty box resigns (Gardner 1962; Michie 1961).  For HER that is the design: a box empties
only when every move in it has lost, and the bead of the move before comes out next.  For MENACE
it can end learning altogether: every loss takes a bead of each colour it drew and only a draw or a
win puts beads back, so against an opponent that never loses MENACE draws only once it plays well
everywhere, and meanwhile its early boxes, opened in every game, empty.  Once its first box is
empty it resigns every game and learns nothing more.  The remedies are options of the player:
restocking an emptied box with its first beads (``restock=on``), a draw that puts back more
beads (``draw=3``), and a teacher that makes mistakes (``perfect:random=0.5``) so that some games
are won or drawn; each is an option of ``gamelearn menace`` too (``--restock on``, ``--draw 3``,
``--against perfect:random=0.5``), and each remedy's text names it.  docs/matchbox.md measures each.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..knowledge import Advice, Remedy

#: How many of the empty boxes an advice names (MENACE can have dozens).
NAMED = 12

RESTOCK = Remedy(
    "Restock an emptied box",
    "an emptied box is filled again with its first beads when MENACE next meets it, so it plays on "
    "instead of resigning, and can go on to find the draw (in the terminal: gamelearn menace --against "
    "perfect --restock on)",
    options="restock=on",
)
DRAW_REWARD = Remedy(
    "A draw worth as much as a win",
    "each draw puts back 3 beads of every colour drawn instead of 1; it helps once MENACE draws "
    "sometimes (restocked, or against a mixed opponent), and alone it refills no empty box (in the "
    "terminal: gamelearn menace --against perfect --restock on --draw 3)",
    options="draw=3",
)
MIXED = Remedy(
    "Train against a mixed opponent",
    "the perfect player with a random move half the time: MENACE wins and draws some games, and those put beads "
    "back (in the terminal: gamelearn menace --against perfect:random=0.5)",
    opponent="perfect:random=0.5",
)


def empty_boxes(boxes: Mapping[str, object]) -> list[str]:
    """The boards of the boxes with no bead left, in board order (HER's and HIM's boxes are lists
    of moves, MENACE's colour -> count)."""
    return sorted(board for board, beads in boxes.items() if not _holds_beads(beads))


def _holds_beads(beads: object) -> bool:
    if isinstance(beads, dict):
        return any(beads.values())
    return bool(beads)


def her_advice(kind: str, boxes: Mapping[str, object]) -> Advice | None:
    """HER and HIM (``kind``) with ``boxes``: an empty box is a position where every move lost,
    as Gardner's rules mean."""
    empty = empty_boxes(boxes)
    if not empty:
        return None
    name = kind.upper()
    text = (
        f"{len(empty)} of its {len(boxes)} boxes are empty: every move in them lost, so {name} "
        "resigns there and the bead of the move before comes out (Gardner 1962). That is how it learns."
    )
    return Advice(text, tuple(empty[:NAMED]))


def menace_advice(boxes: Mapping[str, object], rewards: tuple[int, int, int], restock: bool) -> Advice | None:
    """MENACE with ``boxes``, paid ``rewards`` (win, draw, loss), restocking or not: why its empty
    boxes emptied, and the remedies its options offer (None where it restocks them: nothing then
    stops it)."""
    empty = empty_boxes(boxes)
    if not empty:
        return None
    win, draw, loss = rewards
    count = f"{len(empty)} of its {len(boxes)} boxes {'is' if len(empty) == 1 else 'are'} empty"
    if restock:
        return None  # each is filled again with its first beads when MENACE next meets it
    text = (
        f"{count}, and in their positions MENACE resigns. Each loss takes {abs(loss)} bead of every colour "
        f"it drew; only a draw (+{draw}) or a win (+{win}) puts beads back. Against an opponent that never "
        "loses MENACE wins nothing and draws only once it plays well everywhere, so while it learns nearly "
        "every game is lost and the early boxes, opened in every game, empty first. Once its first box is "
        "empty it resigns every game and learns nothing more: Michie's rules (1961), not a fault."
    )
    return Advice(text, tuple(empty[:NAMED]), (RESTOCK, DRAW_REWARD, MIXED))
