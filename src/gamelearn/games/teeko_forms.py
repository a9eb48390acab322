"""The forms of Teeko in John Scarne's book (*Scarne on Teeko*, 1955), as options of one game.

* ``goals``: ``standard``, the 44 goals (28 lines of four, 16 two-by-two blocks), or ``advanced``,
  58: those, plus the four corners of every larger square aligned with the board (nine 3x3, four
  4x4, the 5x5).
* ``drops``: four letters, one per drop round (round k is each side's k-th drop).  ``s``: the pawn's
  owner chooses its square; ``a``: the owner's opponent chooses it (Scarne's Alternate Game).
  Scarne's eight forms: ``ssss`` standard, ``aaaa`` alternate, ``asss`` / ``aass`` / ``aaas`` one-,
  two-, three-move alternate, ``saaa`` / ``ssaa`` / ``sssa`` one-, two-, three-move standard.
* ``centre``: ``off`` forbids the centre square to the first pawn dropped (the tournament rule of
  Scarne's later editions).
* ``steps``: ``king`` (one square in any of 8 directions) or ``knight`` (a chess knight's jump), a
  variant Guy Steele also analysed (1998).

The published results (Steele's 1998 solution, as summarised by Weisstein's MathWorld page "Teeko"
and by Steele's "Summary of the solving of the game of Teeko", 1999) are kept here as data, so
that the solver's results can be set beside them; they are not used to play.

Pure data and pure functions; imports nothing of gamelearn but the rules' base.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import GameOption

SIZE = 5
SQUARES = SIZE * SIZE
CENTRE_SQUARE = 12  # "22"

GOALS = ("standard", "advanced")
STEPS = ("king", "knight")
SWITCH = ("on", "off")
DROP_PATTERN = r"[sa]{4}"

#: Scarne's eight drop patterns and their names in his book, in the order of Steele's table.
SCARNE_DROPS: dict[str, str] = {
    "ssss": "standard",
    "aaaa": "alternate",
    "asss": "one-move alternate",
    "aass": "two-move alternate",
    "aaas": "three-move alternate",
    "saaa": "one-move standard",
    "ssaa": "two-move standard",
    "sssa": "three-move standard",
}

#: The options of ``teeko``, in the order a canonical spec lists them.
TEEKO_OPTIONS: tuple[GameOption, ...] = (
    GameOption(
        "goals", "standard", GOALS, "the goal sets: standard (44) or advanced (58, with the corners of larger squares)"
    ),
    GameOption(
        "drops",
        "ssss",
        tuple(SCARNE_DROPS),
        "one letter a drop round: s the owner chooses the square, a the opponent does (Scarne's Alternate Game)",
        pattern=DROP_PATTERN,
        labels=tuple(SCARNE_DROPS.items()),
    ),
    GameOption("centre", "on", SWITCH, "off: the first pawn dropped may not go on the centre square"),
    GameOption(
        "steps", "king", STEPS, "how a pawn moves after the drops: one square any way (king) or a knight's jump"
    ),
)


@dataclass(frozen=True)
class TeekoForm:
    """One form of Teeko; ValueError (one line) for a value the game does not have."""

    goals: str = "standard"
    drops: str = "ssss"
    centre: str = "on"
    steps: str = "king"

    def __post_init__(self) -> None:
        for option in TEEKO_OPTIONS:
            value = getattr(self, option.name)
            option.check("teeko", value)

    @property
    def spec(self) -> str:
        """The canonical spec: ``teeko``, then the options that differ from the defaults, in order."""
        changed = [f"{o.name}={getattr(self, o.name)}" for o in TEEKO_OPTIONS if getattr(self, o.name) != o.default]
        return "teeko" + (":" + ",".join(changed) if changed else "")

    def options(self) -> tuple[tuple[str, str], ...]:
        return tuple((o.name, getattr(self, o.name)) for o in TEEKO_OPTIONS)

    @property
    def is_standard(self) -> bool:
        return self == TeekoForm()

    def describe(self) -> str:
        """In words, e.g. 'Advanced Teeko, one-move standard drops, no first drop on the centre'."""
        words = [("Advanced" if self.goals == "advanced" else "Standard") + " Teeko"]
        if self.drops != "ssss":
            words.append(f"{SCARNE_DROPS.get(self.drops, 'drop pattern ' + self.drops)} drops ({self.drops})")
        if self.centre == "off":
            words.append("no first drop on the centre")
        if self.steps == "knight":
            words.append("knight steps")
        return ", ".join(words)


def _mask(cells: list[tuple[int, int]]) -> int:
    return sum(1 << (r * SIZE + c) for r, c in cells)


def standard_goals() -> tuple[int, ...]:
    """The 44 goals: 10 across, 10 down, 8 diagonal lines of four, then the 16 two-by-two blocks."""
    masks = []
    for r in range(SIZE):
        for c in range(2):
            masks.append(_mask([(r, c + k) for k in range(4)]))
    for c in range(SIZE):
        for r in range(2):
            masks.append(_mask([(r + k, c) for k in range(4)]))
    for r in range(2):
        for c in range(2):
            masks.append(_mask([(r + k, c + k) for k in range(4)]))
    for r in range(2):
        for c in range(3, 5):
            masks.append(_mask([(r + k, c - k) for k in range(4)]))
    masks.extend(square_corners(1))
    return tuple(masks)


def square_corners(span: int) -> list[int]:
    """The four corners of every square aligned with the board whose corners are ``span`` apart."""
    return [
        _mask([(r, c), (r, c + span), (r + span, c), (r + span, c + span)])
        for r in range(SIZE - span)
        for c in range(SIZE - span)
    ]


def goal_masks(goals: str) -> tuple[int, ...]:
    """The winning sets of a goal set: 44 for standard, 58 for advanced (the 14 larger squares last)."""
    masks = standard_goals()
    if goals == "advanced":
        masks += tuple(square_corners(2) + square_corners(3) + square_corners(4))
    return masks


def step_masks(steps: str) -> tuple[int, ...]:
    """STEP[sq]: the squares a pawn on ``sq`` may step to, as a mask (a king's or a knight's move)."""
    if steps == "knight":
        offsets = [(dr, dc) for dr in (-2, -1, 1, 2) for dc in (-2, -1, 1, 2) if abs(dr) != abs(dc)]
    else:
        offsets = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
    result = []
    for sq in range(SQUARES):
        r, c = divmod(sq, SIZE)
        result.append(
            sum(1 << ((r + dr) * SIZE + c + dc) for dr, dc in offsets if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE)
        )
    return tuple(result)


def choosers(drops: str) -> tuple[int, ...]:
    """CHOOSER[placed]: who picks the square of the next pawn when ``placed`` pawns are down (0-7),
    and who moves first once all 8 are down (index 8: X).  Pawns alternate X, O from X: the pawn
    dropped with ``placed`` down is X's when ``placed`` is even; round ``placed // 2``'s letter says
    whether its owner chooses (s) or the opponent does (a)."""
    result = []
    for placed in range(8):
        owner = placed % 2
        result.append(owner if drops[placed // 2] == "s" else 1 - owner)
    return (*result, 0)


#: Published values of the 32 forms with king steps, for the first player: +1 a win, 0 a draw, with
#: the published note.  Sources: E. W. Weisstein, "Teeko", MathWorld (the table of Steele's
#: sixteen results, all with the centre allowed), and G. L. Steele Jr., "Summary of the solving of
#: the game of Teeko" (1999), whose abstract says that the two first-player wins of Advanced Teeko
#: (standard and one-move standard drops) become draws when the first drop may not occupy the centre.
#: The other fourteen forms with ``centre=off`` were not found in a published source: absent here.
PUBLISHED: dict[tuple[str, str, str], tuple[int, str]] = {
    **{("standard", drops, "on"): (0, "draw") for drops in SCARNE_DROPS},
    **{("advanced", drops, "on"): (0, "draw") for drops in SCARNE_DROPS if drops not in ("ssss", "saaa")},
    ("advanced", "ssss", "on"): (1, "first-player win (13 turns)"),
    ("advanced", "saaa", "on"): (1, "first-player win (25 turns)"),
    ("advanced", "ssss", "off"): (0, "draw"),
    ("advanced", "saaa", "off"): (0, "draw"),
}


def published_value(form: TeekoForm) -> int | None:
    """The published value of the start for the first player, or None where none was found."""
    if form.steps != "king":
        return None
    entry = PUBLISHED.get((form.goals, form.drops, form.centre))
    return None if entry is None else entry[0]
