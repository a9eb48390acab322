"""The built-in games' rules again, in JAX, so that thousands of self-play games and search trees
run at once on the device (``jax.vmap``, ``jax.lax.scan``).  The rules of record stay in
``gamelearn.games`` (pure Python, no dependency); this copy lives with the ``az`` player that needs
it, and ``tests/players/az/test_az_rules.py`` checks it against them on every reachable tic-tac-toe and
hexapawn position and on random Teeko and Connect Four games.  A game of another author is not written again: its
own rules are tabulated (:mod:`.tabulated`), behind the same :class:`JaxRules` interface.

A position is a :class:`Position` of arrays: the board (one int8 a square: +1 a pawn or mark of the
first player, -1 of the second, 0 empty), the side to move, the plies played, whether the game is
over and who won (-1 nobody).  Actions are numbered as ``gamelearn.games.actions`` numbers them for
every interface (tic-tac-toe: the square; hexapawn: ``9 * from + to``; Teeko: 0-24 put a pawn
down, ``25 + 8 * square + direction`` steps it; Connect Four: the column from the left, 0 up, the
move ``str(column + 1)``), so a policy output means the same move everywhere.

Teeko in this copy has no repetition draw (the play layer's rule, which needs a game's history); a
self-play game that reaches ``max_plies`` is a draw, as in the play layer.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from ...games import Game
from ...games.actions import TEEKO_DIRECTIONS, codec
from ...games.connect4 import geometry
from ...games.teeko import WIN_MASKS


class Position(NamedTuple):
    """A batch (or one) of positions as arrays; see the module docstring."""

    # Any: JAX arrays on the device, or numpy values on their way there (encode).
    board: Any  # int8[..., squares]
    to_move: Any  # int32[...]
    plies: Any  # int32[...]
    over: Any  # bool[...]
    winner: Any  # int32[...], -1 for none


def action_moves(game: str) -> tuple[str | None, ...]:
    """Action number -> move text (None for a number that names no move on the board): the rules
    layer's numbering (:mod:`gamelearn.games.actions`), of the three games az plays."""
    if game not in ("tictactoe", "hexapawn", "teeko"):
        raise ValueError(f"az plays tictactoe, hexapawn and teeko, not {game!r}")
    return codec(game).moves


@dataclass(frozen=True, eq=False)
class JaxRules:
    """One game's rules over :class:`Position` arrays.  Every method works on one position; vmap it."""

    name: str
    rows: int
    columns: int
    actions: int
    max_plies: int
    moves: tuple[str | None, ...]

    @property
    def squares(self) -> int:
        return self.rows * self.columns

    # To be given by each game ------------------------------------------------------------------

    def legal(self, position: Position) -> jax.Array:
        """bool[actions]: the legal actions (none once the game is over)."""
        raise NotImplementedError

    def _after(self, board: jax.Array, to_move: jax.Array, action: jax.Array) -> jax.Array:
        """The board after ``to_move`` plays ``action`` (assumed legal)."""
        raise NotImplementedError

    def _winner(self, board: jax.Array, next_to_move: jax.Array) -> jax.Array:
        """-1, or the side that has won on ``board`` with ``next_to_move`` to move."""
        raise NotImplementedError

    def _drawn(self, board: jax.Array) -> jax.Array:
        """True where the rules end the game drawn (tic-tac-toe's full board)."""
        return jnp.bool_(False)

    # Shared -------------------------------------------------------------------------------------

    def initial(self) -> Position:
        raise NotImplementedError

    def step(self, position: Position, action: jax.Array) -> tuple[Position, jax.Array]:
        """(the next position, the reward for the side that moved: 1 a win, 0 otherwise).  A finished
        game stays as it is, with reward 0."""
        mover = position.to_move
        board = self._after(position.board, mover, action)
        nxt = 1 - mover
        plies = position.plies + 1
        winner = self._winner(board, nxt)
        over = (winner >= 0) | self._drawn(board) | (plies >= self.max_plies)
        reward = jnp.where(winner == mover, 1.0, 0.0)
        moved = Position(board, nxt.astype(jnp.int32), plies, over, winner.astype(jnp.int32))
        done = position.over
        kept = jax.tree_util.tree_map(lambda old, new: jnp.where(done, old, new), position, moved)
        return kept, jnp.where(done, 0.0, reward)

    def cells(self, position: Position) -> jax.Array:
        """int8[squares]: the board, +1 the first player's, -1 the second's, 0 empty."""
        return position.board

    def planes(self, position: Position) -> jax.Array:
        """float32[3, rows, columns]: the first player's pawns, the second's, and the side to move."""
        shape = (self.rows, self.columns)
        cells = self.cells(position)
        first = (cells == 1).astype(jnp.float32).reshape(shape)
        second = (cells == -1).astype(jnp.float32).reshape(shape)
        side = jnp.full(shape, position.to_move, dtype=jnp.float32)
        return jnp.stack([first, second, side])

    # Between the Python rules and the arrays ----------------------------------------------------

    def encode(self, game: Game[Any], state: Hashable) -> Position:
        """The arrays of a state of the Python rules (plies: the pawns or marks on the board)."""
        text = game.board(state)
        symbols = game.symbols
        board = np.array([1 if ch == symbols[0] else -1 if ch == symbols[1] else 0 for ch in text], dtype=np.int8)
        winner = game.winner(state)
        return Position(  # numpy values: cheap to make one by one, stacked and sent to the device once
            board,
            np.int32(game.to_move(state)),
            np.int32(np.count_nonzero(board)),
            np.bool_(game.is_over(state)),
            np.int32(-1 if winner is None else winner),
        )

    def action_of(self, move: str) -> int:
        return self.moves.index(move)


def _stack(positions: list[Position]) -> Position:
    return jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *positions)


class TicTacToeRules(JaxRules):
    LINES = np.array([(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)])

    def __init__(self) -> None:
        super().__init__("tictactoe", 3, 3, 9, 9, action_moves("tictactoe"))

    def initial(self) -> Position:
        return Position(jnp.zeros(9, jnp.int8), jnp.int32(0), jnp.int32(0), jnp.bool_(False), jnp.int32(-1))

    def legal(self, position: Position) -> jax.Array:
        return (position.board == 0) & ~position.over

    def _after(self, board: jax.Array, to_move: jax.Array, action: jax.Array) -> jax.Array:
        return board.at[action].set(jnp.where(to_move == 0, 1, -1).astype(jnp.int8))

    def _winner(self, board: jax.Array, next_to_move: jax.Array) -> jax.Array:
        sums = board[self.LINES].astype(jnp.int32).sum(axis=1)
        return jnp.where(jnp.any(sums == 3), 0, jnp.where(jnp.any(sums == -3), 1, -1))

    def _drawn(self, board: jax.Array) -> jax.Array:
        return jnp.all(board != 0)


def _hexapawn_tables() -> dict[str, np.ndarray]:
    source = np.array([a for a in range(9) for _ in range(9)])
    target = np.array([b for _ in range(9) for b in range(9)])
    same_row = source // 3 == target // 3
    tables = {"source": source, "target": target}
    for side, step in (("white", -3), ("black", 3)):
        straight = target == source + step
        diagonal = ((target == source + step - 1) & (source % 3 > 0)) | (
            (target == source + step + 1) & (source % 3 < 2)
        )
        tables[f"{side}_straight"] = straight & ~same_row
        tables[f"{side}_diagonal"] = diagonal & ~same_row
    return tables


class HexapawnRules(JaxRules):
    def __init__(self) -> None:
        super().__init__("hexapawn", 3, 3, 81, 64, action_moves("hexapawn"))
        object.__setattr__(self, "tables", _hexapawn_tables())

    def initial(self) -> Position:
        board = jnp.array([-1, -1, -1, 0, 0, 0, 1, 1, 1], jnp.int8)
        return Position(board, jnp.int32(0), jnp.int32(0), jnp.bool_(False), jnp.int32(-1))

    def _moves(self, board: jax.Array, to_move: jax.Array) -> jax.Array:
        t = self.tables  # type: ignore[attr-defined]
        own = jnp.where(to_move == 0, 1, -1).astype(jnp.int8)
        straight = jnp.where(to_move == 0, t["white_straight"], t["black_straight"])
        diagonal = jnp.where(to_move == 0, t["white_diagonal"], t["black_diagonal"])
        at_source = board[t["source"]] == own
        at_target = board[t["target"]]
        return at_source & ((straight & (at_target == 0)) | (diagonal & (at_target == -own)))

    def legal(self, position: Position) -> jax.Array:
        return self._moves(position.board, position.to_move) & ~position.over

    def _after(self, board: jax.Array, to_move: jax.Array, action: jax.Array) -> jax.Array:
        source, target = action // 9, action % 9
        return board.at[target].set(board[source]).at[source].set(jnp.int8(0))

    def _winner(self, board: jax.Array, next_to_move: jax.Array) -> jax.Array:
        white_home = jnp.any(board[0:3] == 1) | ~jnp.any(board == -1)
        black_home = jnp.any(board[6:9] == -1) | ~jnp.any(board == 1)
        stuck = ~jnp.any(self._moves(board, next_to_move))
        return jnp.where(white_home, 0, jnp.where(black_home, 1, jnp.where(stuck, 1 - next_to_move, -1)))


def _teeko_tables() -> dict[str, np.ndarray]:
    wins = np.array([[sq for sq in range(25) if mask >> sq & 1] for mask in WIN_MASKS])
    source = np.repeat(np.arange(25), 8)
    target = np.full(200, -1)
    for square in range(25):
        row, column = divmod(square, 5)
        for d, (dr, dc) in enumerate(TEEKO_DIRECTIONS):
            r, c = row + dr, column + dc
            if 0 <= r < 5 and 0 <= c < 5:
                target[8 * square + d] = 5 * r + c
    return {"wins": wins, "source": source, "target": target}


class TeekoRules(JaxRules):
    def __init__(self, max_plies: int = 200) -> None:
        super().__init__("teeko", 5, 5, 225, max_plies, action_moves("teeko"))
        object.__setattr__(self, "tables", _teeko_tables())

    def initial(self) -> Position:
        return Position(jnp.zeros(25, jnp.int8), jnp.int32(0), jnp.int32(0), jnp.bool_(False), jnp.int32(-1))

    def legal(self, position: Position) -> jax.Array:
        t = self.tables  # type: ignore[attr-defined]
        board = position.board
        placing = jnp.sum(board != 0) < 8
        own = jnp.where(position.to_move == 0, 1, -1).astype(jnp.int8)
        target = t["target"]
        steps = (target >= 0) & (board[t["source"]] == own) & (board[jnp.maximum(target, 0)] == 0)
        places = board == 0
        legal = jnp.concatenate([places & placing, steps & ~placing])
        return legal & ~position.over

    def _after(self, board: jax.Array, to_move: jax.Array, action: jax.Array) -> jax.Array:
        t = self.tables  # type: ignore[attr-defined]
        own = jnp.where(to_move == 0, 1, -1).astype(jnp.int8)
        step = jnp.maximum(action - 25, 0)
        source = jnp.asarray(t["source"])[step]
        target = jnp.where(action < 25, action, jnp.asarray(t["target"])[step])
        lifted = jnp.where(action < 25, board, board.at[source].set(jnp.int8(0)))
        return lifted.at[target].set(own)

    def _winner(self, board: jax.Array, next_to_move: jax.Array) -> jax.Array:
        cells = board[self.tables["wins"]].astype(jnp.int32).sum(axis=1)  # type: ignore[attr-defined]
        return jnp.where(jnp.any(cells == 4), 0, jnp.where(jnp.any(cells == -4), 1, -1))


class ConnectFourRules(JaxRules):
    """Connect Four on ``columns`` x ``rows`` (7 x 6, the standard board, by default; any size the
    game takes, :mod:`gamelearn.games.connect4`).  The board is the game's ``board()`` order: rows
    from the top, ``square = row * columns + column``.  Action ``c`` drops a disc into column ``c``
    (the move ``str(c + 1)``), where it falls to the lowest empty square; four in a row across,
    down or diagonally wins (the game's own table of lines, :func:`gamelearn.games.connect4.geometry`);
    a full board is a draw, so the longest game is ``columns * rows`` plies."""

    def __init__(self, columns: int = 7, rows: int = 6) -> None:
        moves = tuple(str(column + 1) for column in range(columns))
        super().__init__("connect4", rows, columns, columns, columns * rows, moves)
        _, lines = geometry(columns, rows)
        object.__setattr__(self, "lines", np.array([squares for _, squares in lines]))

    def initial(self) -> Position:
        return Position(jnp.zeros(self.squares, jnp.int8), jnp.int32(0), jnp.int32(0), jnp.bool_(False), jnp.int32(-1))

    def legal(self, position: Position) -> jax.Array:
        # A column takes a disc while its top square (row 0) is empty.
        return (position.board[: self.columns] == 0) & ~position.over

    def _after(self, board: jax.Array, to_move: jax.Array, action: jax.Array) -> jax.Array:
        column = board.reshape(self.rows, self.columns)[:, action]
        row = self.rows - 1 - jnp.sum(column != 0)
        # A full column (never legal) would give row -1: the index is sent off the board and dropped,
        # rather than wrapping round to the bottom row.
        square = jnp.where(row >= 0, row * self.columns + action, self.squares)
        return board.at[square].set(jnp.where(to_move == 0, 1, -1).astype(jnp.int8), mode="drop")

    def _winner(self, board: jax.Array, next_to_move: jax.Array) -> jax.Array:
        sums = board[self.lines].astype(jnp.int32).sum(axis=1)  # type: ignore[attr-defined]
        return jnp.where(jnp.any(sums == 4), 0, jnp.where(jnp.any(sums == -4), 1, -1))

    def _drawn(self, board: jax.Array) -> jax.Array:
        return jnp.all(board != 0)
