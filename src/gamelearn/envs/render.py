"""The render modes, and the board as an RGB image for ``rgb_array``: the form Gymnasium's
``RecordVideo`` and Stable-Baselines3's vectorised environments (whose ``make_vec_env`` asks for
``rgb_array``) take.  ``ansi`` and ``human`` show the board as text (gamelearn.envs.aec).

The image is drawn from ``game.board(state)`` alone, with numpy: each square is ``CELL`` pixels on
a side, alternately light and dark, with a one-pixel grid line, and each pawn a disc, white for
the side that moves first (X, or White in hexapawn) and black for the other.
"""

from __future__ import annotations

from typing import Any

import numpy as np

RENDER_MODES = ("human", "ansi", "rgb_array")

#: Pixels on a side of one square of the image.
CELL = 32
LIGHT_SQUARE = (222, 184, 135)
DARK_SQUARE = (200, 160, 110)
GRID_LINE = (90, 60, 30)
PAWN_COLOURS = ((250, 250, 245), (25, 25, 25))  # the side that moves first, then the other


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r} is not one of {', '.join(RENDER_MODES)}")


def _disc(cell: int) -> np.ndarray:
    """The pixels of a pawn inside one square: a disc of 0.38 of the square's side in radius."""
    centre = (cell - 1) / 2
    ys, xs = np.mgrid[0:cell, 0:cell]
    return (ys - centre) ** 2 + (xs - centre) ** 2 <= (0.38 * cell) ** 2


def rgb_image(game: Any, state: Any, cell: int = CELL) -> np.ndarray:
    """The board as an ``(rows * cell, columns * cell, 3)`` ``np.uint8`` RGB image."""
    rows, columns = game.facts.rows, game.facts.columns
    board = game.board(state)
    checker = (np.add.outer(np.arange(rows), np.arange(columns)) % 2).astype(bool)
    squares = np.where(checker[:, :, None], DARK_SQUARE, LIGHT_SQUARE).astype(np.uint8)
    image = np.repeat(np.repeat(squares, cell, axis=0), cell, axis=1)
    image[::cell, :] = GRID_LINE
    image[:, ::cell] = GRID_LINE
    image[-1, :] = GRID_LINE
    image[:, -1] = GRID_LINE
    disc = _disc(cell)
    for index, symbol in enumerate(board):
        if symbol in game.symbols:
            row, column = divmod(index, columns)
            square = image[row * cell : (row + 1) * cell, column * cell : (column + 1) * cell]
            square[disc] = PAWN_COLOURS[game.symbols.index(symbol)]
    return image
