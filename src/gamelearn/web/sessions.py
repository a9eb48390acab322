"""Games in progress in the web app: one game between two seats, played a move at a time.

A person's move arrives in a later HTTP request than the computer's, so a :class:`WebGame` keeps
a :class:`gamelearn.match.Match` between requests: the play layer's policy (players reseeded with
``seed`` and ``seed + 1``, a third repetition or the ply cap a draw, an empty matchbox a
resignation, learning once after the game) lives there, as it does for ``play_game``.  Here is
only what the web adds: who sits where (a person or a computer), the moves as they happened for
the page, and a computer that fails ending the game instead of the server's request.

Every rule question goes to the game object through the match: nothing here knows a rule.  Games
live in server memory, keyed by (owner, game id), in a :class:`GameTable` bounded per owner and in
all (least recently used goes first).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from ..games import Game
from ..keeper import Keeper
from ..match import DEFAULT_MAX_PLIES, End, GameRecord, Match
from ..players.base import Player
from ..players.knowledge import Learner
from .guards import public_message
from .models import Decision, LessonOut, PlyEventOut


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
    decision: Decision | None = None

    def answer(self) -> PlyEventOut:
        return PlyEventOut(
            ply=self.ply, side=self.side, move=self.move, by=self.by, human=self.human, decision=self.decision
        )


@dataclass
class GameExtras:
    """What the web app keeps beside a game: the learner players and what they learned."""

    learners: list[tuple[int, Learner]] = field(default_factory=list)
    learning: list[LessonOut] = field(default_factory=list)
    opened: dict[int, list[str]] = field(default_factory=dict)  # side -> boxes the learner opened


#: A function that looks at a computer player just before and after its choice and describes the
#: decision for the page (HER's box and bead, the thesis memory's recall); see web/learners.py.
DecisionProbe = Callable[[Player[Any], Hashable, str | None], Decision | None]


@dataclass
class WebGame:
    """A game in progress between two seats, advanced one ply per call."""

    id: str
    owner: str
    game: Game
    seats: tuple[Seat, Seat]
    seed: int
    max_plies: int = DEFAULT_MAX_PLIES
    events: list[PlyEvent] = field(default_factory=list)
    #: True once the service has dealt with the game's end (learners taught and saved, record kept).
    learned: bool = False
    #: What the interface keeps beside the game (the web app's learner players and lessons).
    extras: GameExtras = field(default_factory=GameExtras)
    #: Why the game stopped when a computer player failed (the original thesis program's hangs).
    failure: str | None = None
    #: True once the store keeps the game: a later save replaces its row and adds none.
    in_store: bool = False
    lock: threading.RLock = field(default_factory=threading.RLock)
    touched: float = field(default_factory=time.monotonic)
    #: The keeper of the browser's learners (the play layer's; None: the players learn nothing kept).
    keeper: Keeper | None = None
    #: The game itself.  It does not learn by itself: the service has the keeper teach and keep
    #: the learners (match.learn_from_game) under the owner's lock.
    match: Match = field(init=False)

    def __post_init__(self) -> None:
        players = (self.seats[0].player, self.seats[1].player)
        self.match = Match(
            self.game, players, seed=self.seed, max_plies=self.max_plies, learn=False, keeper=self.keeper
        )

    # What the page asks -----------------------------------------------------------------------

    @property
    def state(self) -> Hashable:
        return self.match.state

    @property
    def moves(self) -> tuple[str, ...]:
        return self.match.moves

    @property
    def winner(self) -> int | None:
        return self.match.winner

    @property
    def end(self) -> End | None:
        return self.match.end

    @property
    def record(self) -> GameRecord | None:
        return self.match.record

    @property
    def over(self) -> bool:
        return self.match.is_finished

    @property
    def to_move(self) -> int:
        return self.match.to_move

    def legal_moves(self) -> list[str]:
        return self.match.legal_moves()

    def human_to_move(self) -> bool:
        return not self.over and self.seats[self.to_move].human

    def computer_to_move(self) -> bool:
        return not self.over and not self.seats[self.to_move].human

    def specs(self) -> list[str]:
        return [seat.spec for seat in self.seats]

    def has_human(self) -> bool:
        return any(seat.human for seat in self.seats)

    # Moves ------------------------------------------------------------------------------------

    def play_human(self, move: str) -> PlyEvent:
        """A person's move; IllegalMove (from the game) when the rules refuse it, nothing changed."""
        if self.over:
            raise NotYourTurn("the game is over: start a new one")
        side = self.to_move
        if not self.seats[side].human:
            raise NotYourTurn(f"it is the computer's turn ({self.game.symbols[side]}), not yours")
        self.match.play(move)  # raises IllegalMove, leaving everything as it was
        return self._event(side, move, human=True, decision=None)

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
            move = self.match.advance()
        except (
            Exception
        ) as error:  # a player that cannot go on (or plays an illegal move) ends the game; the page says why
            # The page shows this: the reason, never the server's paths (guards.public_message).
            self.failure = public_message(f"{seat.spec} ({self.game.symbols[side]}) could not move: {error}")
            self.abandon()
            return None
        # The probe reads the player's view of ``before`` and its choice; nobody has learned yet.
        decision = probe(seat.player, before, move) if probe is not None else None
        if move is None:  # an empty matchbox: the player gave up (End.RESIGN, the match ended)
            self.events.append(PlyEvent(len(self.moves), side, "", seat.spec, False, decision))
            return None
        return self._event(side, move, human=False, decision=decision)

    def abandon(self) -> None:
        """A person left the game: it ends without a winner and nobody learns from it."""
        self.match.abandon()

    def resign(self) -> None:
        """The person gives up (the side to move when both are people): the other side wins."""
        if self.over:
            raise NotYourTurn("the game is over: start a new one")
        humans = [side for side, seat in enumerate(self.seats) if seat.human]
        if not humans:
            raise NotYourTurn("only a person can resign; this game is between two computers")
        side = self.to_move if len(humans) == 2 else humans[0]
        self.match.resign(side)
        self.events.append(PlyEvent(len(self.moves), side, "", self.seats[side].spec, True))

    def rewind(self, moves: list[str] | tuple[str, ...]) -> None:
        """Play the game again from the start up to ``moves`` (a take-back, or a game brought back
        from the store): the same seats and seed, every move checked by the rules again."""
        players = (self.seats[0].player, self.seats[1].player)
        self.match = Match(
            self.game, players, seed=self.seed, max_plies=self.max_plies, learn=False, keeper=self.keeper
        )
        for move in moves:
            self.match.play(move)
        self.events = [event for event in self.events if event.ply <= len(moves)]
        self.failure = None

    def last_human_ply(self) -> int | None:
        """The index of the last move a person made, or None."""
        states = self.match.states
        for index in range(len(self.moves) - 1, -1, -1):
            if self.seats[self.game.to_move(states[index])].human:
                return index
        return None

    def _event(self, side: int, move: str, human: bool, decision: Decision | None) -> PlyEvent:
        event = PlyEvent(len(self.moves), side, move, self.seats[side].spec, human, decision)
        self.events.append(event)
        return event


class TableFull(RuntimeError):
    """No room for a newcomer's game: every game in memory is another browser's game in progress."""


class GameTable:
    """Games in memory keyed by (owner, id): at most ``per_owner`` per owner (its own oldest go,
    finished ones first) and ``total`` in all.  When full, room is made by putting out, in this
    order: finished games of idle owners, any finished game, then unfinished games of owners idle
    for ``idle_seconds``; else TableFull.  A game being played is never put out, but a flood of
    made-up browsers fills the table for ``idle_seconds`` at most.  Games in progress are also
    kept in the store, so a game put out of memory comes back when asked for."""

    def __init__(self, per_owner: int = 16, total: int = 2000, idle_seconds: float = 3600.0) -> None:
        self.per_owner = per_owner
        self.total = total
        self.idle_seconds = idle_seconds
        self._games: OrderedDict[tuple[str, str], WebGame] = OrderedDict()
        self._seen: dict[str, float] = {}  # owner -> when last seen (of the owners with games here)
        self._lock = threading.Lock()

    @staticmethod
    def new_id() -> str:
        return secrets.token_urlsafe(9)

    def add(self, game: WebGame) -> None:
        with self._lock:
            now = time.monotonic()
            mine = [key for key in self._games if key[0] == game.owner]
            while len(mine) >= self.per_owner:
                finished = [key for key in mine if self._games[key].over]
                victim = (finished or mine)[0]
                del self._games[victim]
                mine.remove(victim)
            if (game.owner, game.id) not in self._games and len(self._games) >= self.total:
                self._make_room(now)
            self._games[(game.owner, game.id)] = game
            self._seen[game.owner] = now

    def _make_room(self, now: float) -> None:
        idle = {owner for owner, seen in self._seen.items() if now - seen > self.idle_seconds}
        orders = [
            lambda key, g: g.over and key[0] in idle,
            lambda key, g: g.over,
            lambda key, g: key[0] in idle,
        ]
        for fits in orders:
            victim = next((key for key, g in self._games.items() if fits(key, g)), None)
            if victim is not None:
                del self._games[victim]
                if not any(key[0] == victim[0] for key in self._games):
                    self._seen.pop(victim[0], None)
                return
        raise TableFull("the server is full of other players' games in progress; try again later")

    def get(self, owner: str, game_id: str) -> WebGame | None:
        """The owner's game, or None: another owner's id is as unknown as a made-up one."""
        with self._lock:
            game = self._games.get((owner, game_id))
            if game is not None:
                self._games.move_to_end((owner, game_id))
                game.touched = self._seen[owner] = time.monotonic()
            return game

    def peek(self, owner: str, game_id: str) -> WebGame | None:
        """The owner's game, or None, without counting as a use (the least recently used stays so)."""
        with self._lock:
            return self._games.get((owner, game_id))

    def remove(self, owner: str, game_id: str) -> bool:
        with self._lock:
            gone = self._games.pop((owner, game_id), None) is not None
            if not any(key[0] == owner for key in self._games):
                self._seen.pop(owner, None)
            return gone

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)

    def count(self, owner: str) -> int:
        with self._lock:
            return sum(1 for key in self._games if key[0] == owner)

    def known(self, owner: str) -> bool:
        with self._lock:
            return owner in self._seen
