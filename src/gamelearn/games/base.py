"""The contract every game of gamelearn keeps (OpenSpiel style: each game declares its facts).

Rules are pure functions of immutable, hashable states.  A move is a string in the game's own
notation (docs/api.md); ``play`` parses it, checks it against the rules and returns a *new* state,
or raises :class:`IllegalMove` naming the move and the reason, leaving nothing changed.

This module imports nothing of gamelearn and nothing outside the standard library.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar

S = TypeVar("S", bound=Hashable)
Interned = TypeVar("Interned", bound="InternedState")

#: A permutation of the squares: ``perm[i]`` is where square ``i`` goes.
Permutation = tuple[int, ...]


#: The most characters of a person's text a message quotes (a pasted paragraph is cut, not echoed).
SHOWN_TEXT = 40


def shown_text(text: object) -> str:
    """``text`` as a message quotes it: its repr, cut to :data:`SHOWN_TEXT` characters (and how long
    it was) when longer.

    >>> shown_text("x" * 50)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (50 characters)"
    """
    if isinstance(text, str) and len(text) > SHOWN_TEXT:
        return f"{text[:SHOWN_TEXT] + '…'!r} ({len(text):,} characters)"
    return repr(text)


class IllegalMove(ValueError):
    """A move the rules do not allow in this state.  The message names the move (cut short when
    long: :func:`shown_text`) and the reason."""

    def __init__(self, move: object, reason: str) -> None:
        self.move = move
        self.reason = reason
        super().__init__(f"illegal move {shown_text(move)}: {reason}")


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What a game declares about itself; the contract tests read these."""

    name: str
    players: int
    rows: int
    columns: int
    symbols: tuple[str, str]
    symmetry_names: tuple[str, ...]
    #: True when a game can go on for ever (so play needs repetition / ply-cap draws).
    can_cycle: bool
    #: The value of the start position for player 0 with best play: +1 win, 0 draw, -1 loss; None
    #: where no published result is known (the solver says).
    value_of_start: int | None
    #: The game's options and their values in this form, e.g. (("goals", "advanced"), ...).
    options: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class GameOption:
    """An option of a game's spec (``NAME:option=value,...``), declared for parsers and pickers.

    ``values`` are the allowed values, or, where ``pattern`` (a regular expression) is given, the
    named choices among the values the pattern allows (``labels`` names them).
    """

    name: str
    default: str
    values: tuple[str, ...]
    help: str
    pattern: str | None = None
    labels: tuple[tuple[str, str], ...] = ()

    def check(self, game: str, value: str) -> None:
        """ValueError naming the option of ``game`` and the allowed values, unless ``value`` is one of them."""
        if self.pattern is not None:
            if not isinstance(value, str) or not re.fullmatch(self.pattern, value):
                raise ValueError(
                    f"option {self.name!r} of game {game!r}: {shown_text(value)} is not a pattern {self.pattern} "
                    f"(e.g. {', '.join(self.values)})"
                )
        elif value not in self.values:
            raise ValueError(
                f"option {self.name!r} of game {game!r}: {shown_text(value)} is not one of {', '.join(self.values)}"
            )

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "default": self.default,
            "values": list(self.values),
            "labels": dict(self.labels),
            "pattern": self.pattern,
            "help": self.help,
        }


class Game(ABC, Generic[S]):
    """A two-player, perfect-information, deterministic game.

    Invariants every implementation keeps (checked by ``tests/games/test_contract.py``):

    * ``legal_moves(s)`` is sorted and empty exactly when ``is_over(s)``;
    * ``play`` never mutates its argument; equal states hash equal and pickle round-trip;
    * ``from_board(board(s), to_move(s)) == s`` for every reachable ``s``.
    """

    facts: GameFacts
    #: The options the game's spec takes (none for most games).
    game_options: tuple[GameOption, ...] = ()
    #: The square permutations that map the game onto itself (identity first).
    symmetries: tuple[Permutation, ...]

    @property
    def name(self) -> str:
        return self.facts.name

    @property
    def spec(self) -> str:
        """The canonical spec of this form: the name, then the options that differ from their
        defaults (``teeko:goals=advanced``); ``get_game(game.spec) is game``."""
        return self.facts.name

    @property
    def symbols(self) -> tuple[str, str]:
        return self.facts.symbols

    @property
    def squares(self) -> int:
        return self.facts.rows * self.facts.columns

    @abstractmethod
    def initial(self) -> S: ...

    @abstractmethod
    def to_move(self, state: S) -> int: ...

    @abstractmethod
    def legal_moves(self, state: S) -> list[str]: ...

    def legal_move_tuple(self, state: S) -> tuple[str, ...]:
        """``legal_moves(state)`` as a tuple: nothing a caller could change, so a game that keeps
        its answers hands out the one it keeps where ``legal_moves`` copies it into a new list
        (the random player asks for one every ply of every random game)."""
        return tuple(self.legal_moves(state))

    @abstractmethod
    def play(self, state: S, move: str) -> S: ...

    @abstractmethod
    def winner(self, state: S) -> int | None: ...

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def board(self, state: S) -> str: ...

    @abstractmethod
    def from_board(self, board: str, to_move: int) -> S: ...

    @abstractmethod
    def transform(self, state: S, symmetry: int) -> S:
        """The state with ``symmetries[symmetry]`` applied to its squares."""

    @abstractmethod
    def transform_move(self, move: str, symmetry: int) -> str:
        """The move with ``symmetries[symmetry]`` applied to its squares."""

    @abstractmethod
    def rules_text(self) -> str:
        """The rules, for ``gamelearn rules GAME``: one paragraph or list item a line, unwrapped
        (each interface wraps them to its width)."""

    # Derived helpers shared by every game -------------------------------------------------

    def successors(self, state: S) -> tuple[tuple[str, S], ...]:
        """Every legal move with the position it leads to, in ``legal_moves`` order (for searches
        that visit every child; a game with interned states keeps the answer)."""
        return tuple((move, self.play(state, move)) for move in self.legal_moves(state))

    def canonical(self, state: S) -> tuple[S, int]:
        """The least image of ``state`` under the symmetries (by ``board``), and which symmetry gives it."""
        best_index = 0
        best = state
        best_key = self.board(state)
        for index in range(1, len(self.symmetries)):
            image = self.transform(state, index)
            key = self.board(image)
            if key < best_key:
                best, best_key, best_index = image, key, index
        return best, best_index

    def pawn_side(self, state: S) -> int:
        """Whose piece the next ply puts down or moves: the side to move's, except where the
        opponent chooses (Teeko's Alternate drops, where the side to move places the other's pawn)."""
        return self.to_move(state)

    def winning_squares(self, state: S) -> tuple[int, ...]:
        """The squares that make the winner's win (its line, its goal), in increasing order; ()
        while nobody has won, or when the win is not a set of squares.  Games override it."""
        return ()

    def end_reason(self, state: S) -> str:
        """Why a finished position is over, in words ("X has three in a row"); "" while it is not.
        Games override it to name their own ways of winning."""
        if not self.is_over(state):
            return ""
        winner = self.winner(state)
        return "a draw" if winner is None else f"{self.symbols[winner]} has won"

    def render(self, state: S) -> str:
        """The board as rows of text for terminals, each row beside the numbers of its squares
        (the notation of games whose squares are numbered 0, 1, 2, ... along the rows)."""
        cells = self.board(state)
        columns = self.facts.columns
        width = len(str(len(cells) - 1))
        lines = []
        for row in range(self.facts.rows):
            squares = range(row * columns, (row + 1) * columns)
            board = " ".join(cells[sq] for sq in squares)
            numbers = " ".join(str(sq).rjust(width) for sq in squares)
            lines.append(f"{board}    {numbers}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec!r}>"


# Interned states --------------------------------------------------------------------------------
# Tic-tac-toe (5,478 positions) and hexapawn (135) are small enough to make each position once and
# keep, on it, the rules' answers (side to move, winner, legal moves, each successor once played),
# so that the loop of ``is_over``, ``legal_moves`` and ``play`` is a few look-ups a ply.  Each
# game's state class subclasses InternedState and keeps its own table of the states made so far.


class InternedState(tuple[Any, ...]):  # each game's class names its fields' types
    """A position as a tuple, made once: calling the class with a position gives back the one object
    for it.  No ``__slots__``: each state keeps the rules' answers in its own (private) ``__dict__``,
    which the game object hands out."""

    #: The game's registered name (its picture in Jupyter: :class:`.svg.Pictured`) and its name in
    #: words (messages).
    game_name: str = ""
    game_words: str = ""
    # The rules' answers, kept in the state's __dict__ as the game works them out.
    _winner: int | None
    _moves: tuple[str, ...]  # the legal moves; empty exactly when the game is over
    _next: dict[str, Self]  # move -> the state it leads to, for the moves played so far
    _successors: tuple[tuple[str, Self], ...]  # every move and its state, made when first asked for
    _canonical: tuple[Self, int]  # made the first time it is asked for

    if TYPE_CHECKING:  # each game's class takes its position's fields

        def __new__(cls, *position: Any) -> Self: ...

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (type(self), tuple(self))  # the position only: the answers are rebuilt on use

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: object) -> Self:
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a {self.game_words} state cannot be changed")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a {self.game_words} state cannot be changed")


class InternedGame(Game[Interned]):
    """A game whose states are interned: the rules' answers are read off the state, and a plain
    tuple of the same position (what ``pickle`` of an older state or a caller may hand in) is
    answered by its interned state."""

    state_class: type[Interned]

    def legal_moves(self, state: Interned) -> list[str]:
        try:
            return [*state._moves]  # a new list each call: callers may change it
        except AttributeError:  # a plain tuple: its interned state answers
            return [*self.state_class(*state)._moves]

    def legal_move_tuple(self, state: Interned) -> tuple[str, ...]:
        """The tuple the state keeps, read as ``legal_moves`` reads it: a subclass that changes
        ``legal_moves`` changes this with it."""
        try:
            return state._moves  # a tuple: handed out as kept
        except AttributeError:
            return self.state_class(*state)._moves

    def winner(self, state: Interned) -> int | None:
        try:
            return state._winner
        except AttributeError:
            return self.state_class(*state)._winner

    def is_over(self, state: Interned) -> bool:
        try:
            return not state._moves  # no legal move exactly when the game is over
        except AttributeError:
            return not self.state_class(*state)._moves

    def successors(self, state: Interned) -> tuple[tuple[str, Interned], ...]:
        try:
            return state._successors
        except AttributeError:
            pass
        if type(state) is not self.state_class:
            return self.successors(self.state_class(*state))
        answer = state.__dict__["_successors"] = self._successors_of(state)
        return answer

    def _successors_of(self, state: Interned) -> tuple[tuple[str, Interned], ...]:
        """Every legal move and the state it leads to, worked out (once: ``successors`` keeps them)."""
        return tuple((move, self.play(state, move)) for move in state._moves)


def invert(perm: Permutation) -> Permutation:
    inverse = [0] * len(perm)
    for square, image in enumerate(perm):
        inverse[image] = square
    return tuple(inverse)


def square_symmetries(size: int) -> tuple[tuple[str, ...], tuple[Permutation, ...]]:
    """The 8 symmetries of a ``size`` x ``size`` board (the dihedral group D4), identity first."""

    def apply(name: str, r: int, c: int) -> tuple[int, int]:
        n = size - 1
        return {
            "identity": (r, c),
            "rotate90": (c, n - r),
            "rotate180": (n - r, n - c),
            "rotate270": (n - c, r),
            "mirror": (r, n - c),
            "flip": (n - r, c),
            "transpose": (c, r),
            "antitranspose": (n - c, n - r),
        }[name]

    names = ("identity", "rotate90", "rotate180", "rotate270", "mirror", "flip", "transpose", "antitranspose")
    perms = []
    for name in names:
        perm = []
        for square in range(size * size):
            r, c = apply(name, square // size, square % size)
            perm.append(r * size + c)
        perms.append(tuple(perm))
    return names, tuple(perms)


#: A bitboard permutation as tables: ``tables[c][v]`` is what the bits ``v`` of chunk ``c`` (the
#: ``width`` squares from ``c * width``) become, so permuting a board is one look-up a chunk.
BitTables = tuple[tuple[int, ...], ...]


def _chunk_tables(weights: tuple[int, ...], width: int) -> BitTables:
    """``tables[c][v]``: the sum of ``weights[c * width + k]`` over the bits ``k`` set in ``v``.
    Each entry is the entry without its lowest bit plus that bit's weight: one addition an entry."""
    tables = []
    for start in range(0, len(weights), width):
        chunk = weights[start : start + width]
        table = [0] * (1 << len(chunk))
        for bits in range(1, len(table)):
            low = bits & -bits
            table[bits] = table[bits ^ low] + chunk[low.bit_length() - 1]
        tables.append(tuple(table))
    return tuple(tables)


def bit_tables(perm: Permutation, width: int) -> BitTables:
    """The chunk tables of ``perm``, ``width`` squares a chunk: each entry is a bitboard (all 9
    squares of tic-tac-toe in one table of 512 entries; a row of 5 for Teeko, 5 tables of 32,
    where one table would need 2^25 entries)."""
    return _chunk_tables(tuple(1 << image for image in perm), width)


def board_order_tables(perm: Permutation, width: int) -> BitTables:
    """Like :func:`bit_tables`, but each entry is the image's weight in the order of ``board``
    strings: square ``s`` weighs ``3 ** (n - 1 - s)``, so ``2 * weight(x) + weight(o)`` of a
    position with disjoint marks ``x`` ('X') and ``o`` ('O') is its board read as a base-3 number
    ('.' = 0 < 'O' = 1 < 'X' = 2), and comparing such numbers compares the boards."""
    last = len(perm) - 1
    return _chunk_tables(tuple(3 ** (last - image) for image in perm), width)
