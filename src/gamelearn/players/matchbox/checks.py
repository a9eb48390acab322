"""Checking a matchbox learner's knowledge before it is installed: the document's header, each
box's name (a canonical position with a move to make), HER's and HIM's bead lists, MENACE's colour
counts and its settings.  Every check raises ValueError, prefixed with ``where`` (the file or the
store's row), naming the box and what is wrong; the learner installs nothing until all of it has
passed (:mod:`.learners`)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

from .tables import PositionTable

FORMAT = "gamelearn-matchboxes"
FORMAT_VERSION = 1


def check_header(payload: Any, where: str, game: str, kinds: Collection[str], kind: str) -> tuple[int, dict[str, Any]]:
    """The games learned from and the boxes of a matchbox document, once its format, version,
    game and learner kind (one of ``kinds``, for a learner of kind ``kind``) are checked."""
    if not isinstance(payload, dict):
        raise ValueError(f"{where}not a matchbox file (a JSON object is expected)")
    if payload.get("format") != FORMAT:
        raise ValueError(f"{where}not a matchbox file (format {payload.get('format')!r}, expected {FORMAT!r})")
    if payload.get("version") != FORMAT_VERSION:
        raise ValueError(f"{where}matchbox format version {payload.get('version')!r} is not supported")
    if payload.get("game") != game:
        raise ValueError(f"{where}boxes for {payload.get('game')!r}, not {game}")
    if payload.get("kind") not in kinds:
        raise ValueError(f"{where}boxes of a {payload.get('kind')!r}, not a {kind}")
    games = payload.get("games", 0)
    if not isinstance(games, int) or isinstance(games, bool) or games < 0:
        raise ValueError(f"{where}'games' must be a whole number >= 0, not {games!r}")
    boxes = payload.get("boxes")
    if not isinstance(boxes, dict):
        raise ValueError(f"{where}'boxes' must be an object from board to beads")
    return games, boxes


def box_of_board(table: PositionTable, board: Any, where: str, min_choices: int) -> int:
    """The position a box's name stands for; ValueError unless it is a canonical, unfinished
    position with at least ``min_choices`` moves."""
    if not isinstance(board, str):
        raise ValueError(f"{where}box name {board!r} is not a board string")
    position = table.unfinished.get(board)
    if position is None:
        raise ValueError(f"{where}box {board!r}: not a position any game reaches with a move to make")
    if table.canonical[position] != position:
        raise ValueError(
            f"{where}box {board!r}: not the canonical board (its box is {table.boards[table.canonical[position]]!r})"
        )
    if len(table.moves[position]) < min_choices:
        raise ValueError(f"{where}box {board!r}: only one move there, so no box")
    return position


def check_bead_lists(
    table: PositionTable,
    boxes: dict[str, Any],
    where: str,
    legal_beads: Callable[[int], Iterable[str]],
    copies: bool,
) -> dict[str, list[str]]:
    """HER's and HIM's boxes: each a list of legal moves of its position (``legal_beads``), one
    of each for HER, copies allowed for HIM (``copies``)."""
    checked: dict[str, list[str]] = {}
    for board, beads in boxes.items():
        legal = set(legal_beads(box_of_board(table, board, where, min_choices=1)))
        if not isinstance(beads, list):
            raise ValueError(f"{where}box {board!r}: beads must be a list of moves, not {beads!r}")
        for bead in beads:
            if not isinstance(bead, str) or bead not in legal:
                raise ValueError(
                    f"{where}box {board!r}: bead {bead!r} is not a legal move there (legal: {', '.join(sorted(legal))})"
                )
        if not copies:
            for bead in set(beads):
                if beads.count(bead) > 1:
                    raise ValueError(
                        f"{where}box {board!r}: bead {bead!r} is there {beads.count(bead)} times; HER has one of each (HIM may have copies)"
                    )
        checked[board] = list(beads)
    return checked


def check_colour_counts(
    table: PositionTable, boxes: dict[str, Any], where: str, colours_of: Callable[[int], tuple[str, ...]]
) -> dict[str, dict[str, int]]:
    """MENACE's boxes: each a count of beads, a whole number >= 0, for every colour of its
    position (``colours_of``) and no other, in the colours' order."""
    checked: dict[str, dict[str, int]] = {}
    for board, counts in boxes.items():
        colours = colours_of(box_of_board(table, board, where, min_choices=2))
        if not isinstance(counts, dict):
            raise ValueError(f"{where}box {board!r}: beads must be an object from colour to count")
        if set(counts) != set(colours):
            raise ValueError(f"{where}box {board!r}: colours {sorted(counts)} but the position has {list(colours)}")
        for colour, count in counts.items():
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise ValueError(
                    f"{where}box {board!r}: colour {colour!r} has {count!r} beads, not a whole number >= 0"
                )
        checked[board] = {colour: counts[colour] for colour in colours}
    return checked


def check_menace_settings(
    settings: Any,
    where: str,
    beads: tuple[int, ...],
    rewards: tuple[int, int, int],
    restock: bool = False,
    keep: set[str] | frozenset[str] = frozenset(),
) -> tuple[tuple[int, ...], tuple[int, int, int], bool]:
    """MENACE's beads by stage, rewards and restocking as a document gives them, ``beads``,
    ``rewards`` and ``restock`` where it leaves them out or ``keep`` names them (``beads``,
    ``win``, ``draw``, ``loss``, ``restock``: the options a player was given, which win)."""
    if not isinstance(settings, dict):
        raise ValueError(f"{where}'settings' must be an object")
    given = settings.get("beads", list(beads))
    if not isinstance(given, list) or not given or any(not isinstance(b, int) or b < 1 for b in given):
        raise ValueError(f"{where}settings 'beads' must be a list of whole numbers >= 1, not {given!r}")
    values = []
    for key, default in zip(("win", "draw", "loss"), rewards, strict=True):
        value = settings.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{where}settings {key!r} must be a whole number, not {value!r}")
        values.append(default if key in keep else value)
    restocks = settings.get("restock", restock)
    if not isinstance(restocks, bool):
        raise ValueError(f"{where}settings 'restock' must be true or false, not {restocks!r}")
    stages = beads if "beads" in keep else tuple(given)
    return stages, (values[0], values[1], values[2]), restock if "restock" in keep else restocks
