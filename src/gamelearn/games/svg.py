"""Pictures of positions for notebooks: states, records and solutions show as boards in Jupyter
(``_repr_svg_``, ``_repr_html_``), as python-chess boards do.

Drawing only: everything here is worked out from what the games already say (the board string,
the side to move, the winner's squares), so the rules stay free of it: a game's state class takes
its picture from :class:`Pictured`, which finds the game by its name.  Each board carries its
coordinates in the game's notation (row and column for Teeko; the square numbers for tic-tac-toe
and hexapawn; the columns' numbers for Connect Four), marks the squares the last move changed where it is known, and rings the winner's.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from html import escape
from typing import Any

from .base import Game
from .registry import get_game

CELL = 40
MARGIN = 18  # room for Teeko's row and column numbers
CAPTION = 22

#: How each game's pieces look: Teeko's X black and O red, hexapawn's white and
#: black pawns, tic-tac-toe's crosses and noughts.
PIECES: dict[str, dict[str, str]] = {
    "teeko": {"X": "#222222", "O": "#c0392b"},
    "hexapawn": {"W": "#ffffff", "B": "#222222"},
    "tictactoe": {"X": "cross", "O": "nought"},
    "connect4": {"X": "#c0392b", "O": "#f1c40f"},
}
LAST_MOVE = "#f7dc6f"
GOAL = "#27ae60"


def _piece(kind: str, x: float, y: float) -> str:
    radius = CELL * 0.34
    if kind == "cross":
        d = CELL * 0.26
        return (
            f'<path d="M{x - d:.0f},{y - d:.0f} L{x + d:.0f},{y + d:.0f} M{x + d:.0f},{y - d:.0f} '
            f'L{x - d:.0f},{y + d:.0f}" stroke="#222222" stroke-width="4" stroke-linecap="round"/>'
        )
    if kind == "nought":
        return (
            f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{radius * 0.85:.0f}" fill="none" stroke="#c0392b" stroke-width="4"/>'
        )
    return f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{radius:.0f}" fill="{kind}" stroke="#222222" stroke-width="1.5"/>'


def board_svg(
    game: Game[Any],
    board: str,
    moved: Iterable[int] = (),
    goal: Iterable[int] = (),
    caption: str = "",
) -> str:
    """The board string ``board`` of ``game`` as an SVG picture: ``moved`` squares shaded (the last
    move), ``goal`` squares ringed (the winner's), ``caption`` written underneath."""
    rows, columns = game.facts.rows, game.facts.columns
    teeko_labels = game.name == "teeko"  # squares named rc: numbers along the edges
    column_labels = game.name == "connect4"  # a move is its column, 1 from the left: numbers above
    left = MARGIN if teeko_labels else 2
    top = MARGIN if teeko_labels or column_labels else 2
    # 12-pixel sans-serif letters are about 7 pixels wide: a long caption widens the picture
    width = max(left + columns * CELL + 2, left + 7 * len(caption))
    height = top + rows * CELL + (CAPTION if caption else 2)
    pieces = PIECES.get(game.name, {})
    moved, goal = set(moved), set(goal)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f"<title>{escape(game.spec)}: {escape(board)}</title>",
    ]
    for square, cell in enumerate(board):
        row, column = divmod(square, columns)
        x, y = left + column * CELL, top + row * CELL
        fill = LAST_MOVE if square in moved else "#f4ecd8" if (row + column) % 2 else "#e8dcc0"
        parts.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#8b7d5b"/>')
        if not (teeko_labels or column_labels):
            parts.append(f'<text x="{x + 3}" y="{y + 11}" font-size="9" fill="#6b5d3b">{square}</text>')
        if cell in pieces:
            parts.append(_piece(pieces[cell], x + CELL / 2, y + CELL / 2))
        if square in goal:
            parts.append(
                f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" fill="none" '
                f'stroke="{GOAL}" stroke-width="3"/>'
            )
    if teeko_labels:
        for k in range(max(rows, columns)):
            middle = MARGIN + k * CELL + CELL / 2
            if k < columns:
                parts.append(f'<text x="{middle:.0f}" y="13" font-size="11" text-anchor="middle">{k}</text>')
            if k < rows:
                parts.append(f'<text x="6" y="{middle + 4:.0f}" font-size="11">{k}</text>')
    for k in range(columns if column_labels else 0):
        middle = left + k * CELL + CELL / 2
        parts.append(f'<text x="{middle:.0f}" y="13" font-size="11" text-anchor="middle">{k + 1}</text>')
    if caption:
        parts.append(f'<text x="{left}" y="{height - 6}" font-size="12">{escape(caption)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def changed_squares(game: Game[Any], before: Hashable, after: Hashable) -> tuple[int, ...]:
    """The squares whose contents differ between two positions: where the last move went (and,
    for a step, where it came from)."""
    old, new = game.board(before), game.board(after)
    return tuple(square for square, (a, b) in enumerate(zip(old, new, strict=True)) if a != b)


def status(game: Game[Any], state: Hashable) -> str:
    """How a finished position ended, else whose move it is."""
    if game.is_over(state):
        return game.end_reason(state)
    return f"{game.symbols[game.to_move(state)]} to move"


def position_svg(game: Game[Any], state: Hashable, previous: Hashable | None = None) -> str:
    """A position of ``game`` as a picture; the squares the last move changed are shaded where the
    position before it, ``previous``, is given."""
    moved = changed_squares(game, previous, state) if previous is not None else ()
    return board_svg(game, game.board(state), moved, game.winning_squares(state), status(game, state))


def record_html(
    game: Game[Any], moves: Sequence[str], states: Sequence[Hashable], summary: str, opening: Sequence[str] = ()
) -> str:
    """A game's record for a notebook: its final board (the last move shaded), a line of what
    happened, and the moves, each with the symbol of the side that chose it."""
    previous = states[-2] if len(states) > 1 else None
    listed = [f"{escape(move)}" for move in opening]
    listed += [f"{k + 1}. {game.symbols[game.to_move(states[k])]} {escape(move)}" for k, move in enumerate(moves)]
    book = f"<div>opening: {' '.join(listed[: len(opening)])}</div>" if opening else ""
    return (
        f'<div style="display:flex;gap:1em;align-items:flex-start">'
        f'<div style="flex:none">{position_svg(game, states[-1], previous)}</div>'
        f"<div><div><b>{escape(summary)}</b></div>{book}"
        f'<div style="font-family:monospace">{" &#183; ".join(listed[len(opening) :]) or "no moves"}</div>'
        "</div></div>"
    )


def facts_html(game: Game[Any], title: str, facts: Sequence[tuple[str, str]]) -> str:
    """A small table of facts beside the game's starting board (for a solution)."""
    rows = "".join(
        f"<tr><th style='text-align:left;white-space:nowrap'>{escape(k)}</th><td>{escape(v)}</td></tr>"
        for k, v in facts
    )
    return (
        f'<div style="display:flex;gap:1em;align-items:flex-start">'
        f'<div style="flex:none">{position_svg(game, game.initial())}</div>'
        f"<div><b>{escape(title)}</b><table>{rows}</table></div></div>"
    )


class Pictured:
    """A state that shows as its board in Jupyter: mixed into a game's state class, whose
    ``game_name`` (:class:`.base.InternedState`'s) names the game that draws it."""

    __slots__ = ()
    game_name: str

    def _repr_svg_(self) -> str:
        return position_svg(get_game(self.game_name), self)
