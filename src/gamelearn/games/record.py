"""The record of a finished game, a plain value of the rules layer: every layer above it (the
players that learn from it, the store that keeps it, the play layer that makes it) reads the same
record, and none of them needs the play layer to do so."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from . import get_game
from .svg import record_html

if TYPE_CHECKING:
    from .base import Game

S = TypeVar("S", bound=Hashable)
#: The state type of a record's game: a record of tic-tac-toe is a record of hashable states too.
S_co = TypeVar("S_co", bound=Hashable, covariant=True)


class End(StrEnum):
    """How a game ended."""

    WIN = "win"  # a side met the game's winning condition
    DRAW = "draw"  # a draw by the rules (tic-tac-toe's full board)
    REPETITION = "repetition"  # a position (board and side to move) seen for the third time
    MAX_PLIES = "max-plies"  # the ply cap was reached
    RESIGN = "resign"  # a player gave up (an empty matchbox)
    ABANDONED = "abandoned"  # a person quit


@dataclass(frozen=True)
class GameRecord(Generic[S_co]):
    """A finished game.  ``states[k]`` is the position before ``moves[k]``; the last is the final one.

    A game played from an opening (a tournament's book) keeps the opening's moves, played by the
    rules from the initial position to ``states[0]``, in ``opening``: the game replays as
    ``opening + moves`` from the start.  ``moves`` and ``states`` hold only what the players chose
    and met, so a learner learns from its own moves, never from the book's."""

    game: str
    players: tuple[str, str]
    moves: tuple[str, ...]
    states: tuple[S_co, ...]
    winner: int | None
    end: End
    seed: int | None = None
    opening: tuple[str, ...] = ()

    @classmethod
    def of(
        cls,
        game: str,
        players: tuple[str, str],
        moves: tuple[str, ...],
        states: tuple[S, ...],
        winner: int | None,
        end: End,
        seed: int | None = None,
        opening: tuple[str, ...] = (),
    ) -> GameRecord[S]:
        """The record of these fields, as ``GameRecord(...)`` makes it, for a caller that makes
        one a game (the play layer): a frozen dataclass's ``__init__`` sets each field through
        ``object.__setattr__``, a call a field, which is a tenth of a short game's play."""
        record: GameRecord[S] = object.__new__(GameRecord)
        record.__dict__.update(
            game=game, players=players, moves=moves, states=states, winner=winner, end=end, seed=seed, opening=opening
        )
        return record

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def final(self) -> S_co:
        return self.states[-1]

    def _repr_html_(self) -> str:
        """The moves and the final board (the last move shaded), for Jupyter (gamelearn.games.svg)."""
        game = get_game(self.game)
        result = "a draw" if self.winner is None else f"{game.symbols[self.winner]} won"
        sides = " v ".join(f"{symbol} {spec}" for symbol, spec in zip(game.symbols, self.players, strict=True))
        summary = f"{game.spec}, {sides}: {result} ({self.end.value}, {self.plies} plies)"
        return record_html(game, self.moves, self.states, summary, self.opening)

    def to_dict(self) -> dict[str, object]:
        """The record as JSON can write it: everything but the states, which the moves replay."""
        return {
            "game": self.game,
            "players": list(self.players),
            "moves": list(self.moves),
            "winner": self.winner,
            "end": self.end.value,
            "plies": self.plies,
            "seed": self.seed,
            "opening": list(self.opening),
        }

    @classmethod
    def from_dict(cls, game: Game[S], row: Mapping[str, Any], start: S | None = None) -> GameRecord[S]:
        """The record ``row`` describes (what :meth:`to_dict` writes, or a row of the store's
        records, which has no opening), its states replayed by ``game``'s rules: from ``start``
        if given, else from the initial position after the row's opening.  ``row["game"]``
        defaults to ``game.spec``.  IllegalMove (a ValueError) for a move the rules refuse,
        ValueError for an unknown end or a row without two players."""
        players = tuple(str(player) for player in row["players"])
        if len(players) != 2:
            raise ValueError(f"a game record has two players, not {len(players)}")
        opening = tuple(str(move) for move in row.get("opening") or ())
        moves = tuple(str(move) for move in row["moves"])
        if start is None:
            state = game.initial()
            for move in opening:
                state = game.play(state, move)
        else:
            state = start
        states: list[S] = [state]
        for move in moves:
            state = game.play(state, move)
            states.append(state)
        winner = row.get("winner")
        seed = row.get("seed")
        return GameRecord(
            game=str(row.get("game") or game.spec),
            players=(players[0], players[1]),
            moves=moves,
            states=tuple(states),
            winner=None if winner is None else int(winner),
            end=End(row["end"]),
            seed=None if seed is None else int(seed),
            opening=opening,
        )
