"""Action numbers: each game's moves, in its own notation, laid out on a fixed range of integers
so that a policy network has one output per action.  The one numbering of record: the environments
(gamelearn.envs), the OpenSpiel bridge and the ``az`` player's array rules all read it from here.

* tic-tac-toe: action ``a`` (0-8) is the move ``str(a)``, the square;
* hexapawn: action ``9 * a + b`` (0-80) is the move ``"ab"``, from square a to square b;
* Connect Four: action ``c`` (0 up) is the move ``str(c + 1)``, the column from the left (its
  ``action_moves()``, one action a column of the board's size);
* any other game (docs/own-game.md): its ``action_moves()`` in order, or every move found in the
  positions reachable from the start, shortest first and then in text order (:func:`found_moves`);
* Teeko: actions 0-24 put a pawn down on square ``5 * r + c`` (move ``"rc"``); action
  ``25 + 8 * square + d`` (25-224) steps the pawn on ``square`` in direction ``d`` of
  ``TEEKO_DIRECTIONS`` (up-left, up, up-right, left, right, down-left, down, down-right); in the
  forms with ``steps=knight``, direction ``d`` of ``KNIGHT_DIRECTIONS`` instead (the same 225
  actions, so one network shape serves every form of Teeko).

Numbers that name no move on the board (a step off the edge, a hexapawn move no pawn can make) are
never legal: the action mask is 0 there.  The rules themselves stay in the games' modules: this
module only translates between numbers and move text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .base import Game

#: Teeko step directions (row, column), in action order.
TEEKO_DIRECTIONS: tuple[tuple[int, int], ...] = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


#: Knight jumps (row, column), in action order, for the forms of Teeko with ``steps=knight``.
KNIGHT_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
)


def _tictactoe_actions() -> list[str | None]:
    return [str(square) for square in range(9)]


def _hexapawn_actions() -> list[str | None]:
    return [f"{a}{b}" for a in range(9) for b in range(9)]


def _teeko_actions(directions: tuple[tuple[int, int], ...] = TEEKO_DIRECTIONS) -> list[str | None]:
    actions: list[str | None] = [f"{square // 5}{square % 5}" for square in range(25)]
    for square in range(25):
        row, column = divmod(square, 5)
        for dr, dc in directions:
            r, c = row + dr, column + dc
            actions.append(f"{row}{column}{r}{c}" if 0 <= r < 5 and 0 <= c < 5 else None)
    return actions


@dataclass(frozen=True)
class ActionCodec:
    """Move text <-> action number for one game."""

    game: str
    moves: tuple[str | None, ...]
    numbers: dict[str, int] = field(compare=False, hash=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.numbers.update({move: number for number, move in enumerate(self.moves) if move is not None})

    @property
    def size(self) -> int:
        return len(self.moves)

    def to_move(self, action: int) -> str:
        """The move text of an action number; ValueError for a number that names no move."""
        number = int(action)
        if 0 <= number < len(self.moves):
            move = self.moves[number]
            if move is not None:
                return move
        raise ValueError(f"action {action} names no {self.game} move (actions run 0..{self.size - 1})")

    def to_action(self, move: str) -> int:
        try:
            return self.numbers[move]
        except KeyError:
            raise ValueError(f"{move!r} is not a {self.game} move") from None


def _teeko_knight_actions() -> list[str | None]:
    return _teeko_actions(KNIGHT_DIRECTIONS)


#: The most positions walked to find the moves of a game that does not list them (:func:`found_moves`).
MOVE_SEARCH_LIMIT = 1_000_000


def found_moves(game: Game[Any]) -> tuple[str, ...]:
    """Every move of a game of another author, as action numbers: the game's ``action_moves()``
    where it defines one (docs/own-game.md), else every move legal in a position reachable from the
    start, found by walking them all, shortest first and then in text order ("2" before "10").
    ValueError in one line where more than :data:`MOVE_SEARCH_LIMIT` positions would be walked."""
    listed = getattr(game, "action_moves", None)
    if callable(listed):
        moves = tuple(listed())
        if len(set(moves)) != len(moves) or not all(isinstance(move, str) for move in moves):
            raise ValueError(f"{game.name}.action_moves() must give each move once, as text")
        return moves
    seen = {game.initial()}
    todo = [game.initial()]
    found: set[str] = set()
    while todo:
        for move, child in game.successors(todo.pop()):
            found.add(move)
            if child not in seen:
                if len(seen) >= MOVE_SEARCH_LIMIT:
                    raise ValueError(
                        f"{game.name} has more than {MOVE_SEARCH_LIMIT:,} positions: give it an action_moves() "
                        "method listing its moves (docs/own-game.md)"
                    )
                seen.add(child)
                todo.append(child)
    return tuple(sorted(found, key=lambda move: (len(move), move)))


_BUILDERS = {
    "tictactoe": _tictactoe_actions,
    "hexapawn": _hexapawn_actions,
    "teeko": _teeko_actions,
    "teeko:steps=knight": _teeko_knight_actions,
}
_CODECS: dict[str, ActionCodec] = {}


def codec_for(game: Game[Any]) -> ActionCodec:
    """The action numbering of a game: by its name, but for the forms of Teeko whose pawns jump as
    knights, which number their steps by knight jumps."""
    form = getattr(game, "form", None)
    if game.name not in _BUILDERS:  # a game of another author: its own moves, numbered once a form
        if game.spec not in _CODECS or _CODECS[game.spec].game != game.spec:
            _CODECS[game.spec] = ActionCodec(game.spec, found_moves(game))
        return _CODECS[game.spec]
    return codec("teeko:steps=knight" if form is not None and form.steps == "knight" else game.name)


def codec(game: str) -> ActionCodec:
    """The action numbering of the game called ``game`` ("teeko:steps=knight" for knight steps)."""
    if game not in _BUILDERS:
        raise ValueError(f"no action numbering for {game!r}; games: {', '.join(_BUILDERS)}")
    if game not in _CODECS:
        _CODECS[game] = ActionCodec(game, tuple(_BUILDERS[game]()))
    return _CODECS[game]
