"""Games in progress in the web app: one game between two seats, played a move at a time.

The web app cannot hand a game to ``match.play_game`` (a person's move arrives in a later HTTP
request), so a :class:`WebGame` steps through the same loop one ply at a time and keeps the same
policy as ``play_game``: players reseeded with ``seed`` and ``seed + 1``, a position seen for the
third time or the ply cap ends the game as a draw, an empty matchbox (``choose`` returning None)
resigns, and after the game each player learns from the :class:`GameRecord` with its side.

Every rule question goes to the game object (``legal_moves``, ``play``, ``winner``, ``is_over``):
nothing here knows a rule.  Games live in server memory, keyed by (owner, game id), in a
:class:`GameTable` bounded per owner and in all (least recently used goes first).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from ..games import Game
from ..match import DEFAULT_MAX_PLIES, End, GameRecord
from ..players.base import Player


class NotYourTurn(ValueError):
    """A request that does not fit the game's moment (a person's move while the computer is to
    move, a computer's move while a person is, anything after the end)."""


@dataclass
class Seat:
    """One side of a game: the spec it was made from and the player object."""

    spec: str
    player: Player

    @property
    def human(self) -> bool:
        return bool(self.player.is_human)


@dataclass
class PlyEvent:
    """One move as it happened: who played it and, for a computer, what its learner view showed."""

    ply: int
    side: int
    move: str
    by: str
    human: bool
    decision: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "side": self.side,
            "move": self.move,
            "by": self.by,
            "human": self.human,
            "decision": self.decision,
        }


#: A function that looks at a computer player just before and after its choice and describes the
#: decision for the page (HER's box and bead, the thesis memory's recall); see web/learners.py.
DecisionProbe = Callable[[Player, Hashable, str | None], dict[str, Any] | None]


@dataclass
class WebGame:
    """A game in progress between two seats, advanced one ply per call."""

    id: str
    owner: str
    game: Game
    seats: tuple[Seat, Seat]
    seed: int
    max_plies: int = DEFAULT_MAX_PLIES
    state: Hashable = None
    states: list[Hashable] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    events: list[PlyEvent] = field(default_factory=list)
    seen: Counter[Hashable] = field(default_factory=Counter)
    winner: int | None = None
    end: End | None = None
    record: GameRecord | None = None
    #: True once the players have learned from the finished game (it happens once).
    learned: bool = False
    #: What the interface keeps beside the game (the web app's learner players and lessons).
    extras: Any = None
    #: Why the game stopped when a computer player failed (the original thesis program's hangs).
    failure: str | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    touched: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        # Same seeding as play_game, so a web game with a seed replays like the CLI's.
        for index, seat in enumerate(self.seats):
            seat.player.reseed(self.seed + index)
        self.state = self.game.initial()
        self.states = [self.state]
        self.seen = Counter({self.state: 1})
        self._check_end()

    # What the page asks -----------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def to_move(self) -> int:
        return self.game.to_move(self.state)

    def legal_moves(self) -> list[str]:
        return [] if self.over else self.game.legal_moves(self.state)

    def human_to_move(self) -> bool:
        return not self.over and self.seats[self.to_move].human

    def computer_to_move(self) -> bool:
        return not self.over and not self.seats[self.to_move].human

    def has_human(self) -> bool:
        return any(seat.human for seat in self.seats)

    # Moves ------------------------------------------------------------------------------------

    def play_human(self, move: str) -> PlyEvent:
        """A person's move; IllegalMove (from the game) when the rules refuse it, nothing changed."""
        if self.over:
            raise NotYourTurn("the game is over: start a new one")
        if not self.seats[self.to_move].human:
            raise NotYourTurn(f"it is the computer's turn ({self.game.symbols[self.to_move]}), not yours")
        after = self.game.play(self.state, move)  # raises IllegalMove, leaving everything as it was
        return self._advance(move, after, human=True, decision=None)

    def play_computer(self, probe: DecisionProbe | None = None) -> PlyEvent | None:
        """The computer to move chooses and plays; None when it resigned or failed (the game is
        then over: a resignation is a loss, a failure abandons the game, nobody learns from it)."""
        if self.over:
            raise NotYourTurn("the game is over: start a new one")
        side = self.to_move
        seat = self.seats[side]
        if seat.human:
            raise NotYourTurn(f"it is a person's turn ({self.game.symbols[side]}), not the computer's")
        before = self.state
        try:
            move = seat.player.choose(before)
        except Exception as error:  # a player that cannot go on ends the game; the page says why
            self.failure = f"{seat.spec} ({self.game.symbols[side]}) could not move: {error}"
            self.abandon()
            return None
        decision = probe(seat.player, before, move) if probe is not None else None
        if move is None:  # an empty matchbox: the player gives up (play_game's End.RESIGN)
            self.winner, self.end = 1 - side, End.RESIGN
            self.events.append(PlyEvent(len(self.moves), side, "", seat.spec, False, decision))
            self._finish()
            return None
        after = self.game.play(before, move)
        return self._advance(move, after, human=False, decision=decision)

    def abandon(self) -> None:
        """A person left the game: it ends without a winner and nobody learns from it."""
        if not self.over:
            self.end = End.ABANDONED
            self.record = self._make_record()

    def _advance(self, move: str, after: Hashable, human: bool, decision: dict[str, Any] | None) -> PlyEvent:
        side = self.to_move
        self.moves.append(move)
        self.states.append(after)
        self.state = after
        self.seen[after] += 1
        event = PlyEvent(len(self.moves), side, move, self.seats[side].spec, human, decision)
        self.events.append(event)
        self._check_end()
        return event

    def _check_end(self) -> None:
        # The order of play_game's loop: the rules' end first, then repetition, then the ply cap.
        if self.game.is_over(self.state):
            self.winner = self.game.winner(self.state)
            self.end = End.WIN if self.winner is not None else End.DRAW
        elif self.seen[self.state] >= 3:
            self.end = End.REPETITION
        elif len(self.moves) >= self.max_plies:
            self.end = End.MAX_PLIES
        else:
            return
        self._finish()

    def _finish(self) -> None:
        self.record = self._make_record()

    def _make_record(self) -> GameRecord:
        return GameRecord(
            game=self.game.name,
            players=(self.seats[0].spec, self.seats[1].spec),
            moves=tuple(self.moves),
            states=tuple(self.states),
            winner=self.winner,
            end=self.end if self.end is not None else End.ABANDONED,
            seed=self.seed,
        )


class GameTable:
    """Games in progress keyed by (owner, id), at most ``per_owner`` per owner and ``total`` in all;
    when full, the least recently used game goes (a person can have only so many open tabs)."""

    def __init__(self, per_owner: int = 16, total: int = 2000) -> None:
        self.per_owner = per_owner
        self.total = total
        self._games: OrderedDict[tuple[str, str], WebGame] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def new_id() -> str:
        return secrets.token_urlsafe(9)

    def add(self, game: WebGame) -> None:
        with self._lock:
            self._games[(game.owner, game.id)] = game
            mine = [key for key in self._games if key[0] == game.owner]
            for key in mine[: max(0, len(mine) - self.per_owner)]:
                del self._games[key]
            while len(self._games) > self.total:
                self._games.popitem(last=False)

    def get(self, owner: str, game_id: str) -> WebGame | None:
        """The owner's game, or None: another owner's id is as unknown as a made-up one."""
        with self._lock:
            game = self._games.get((owner, game_id))
            if game is not None:
                self._games.move_to_end((owner, game_id))
                game.touched = time.monotonic()
            return game

    def remove(self, owner: str, game_id: str) -> bool:
        with self._lock:
            return self._games.pop((owner, game_id), None) is not None

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)

    def count(self, owner: str) -> int:
        with self._lock:
            return sum(1 for key in self._games if key[0] == owner)
