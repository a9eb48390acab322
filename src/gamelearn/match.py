"""One game between two players: the record of the game, the draws that end endless games, and
learning after it (the play layer)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from .games import Game, IllegalMove
from .games.record import End, GameRecord
from .players.base import Player, seat_seed

if TYPE_CHECKING:
    from .players.knowledge import Kept

#: The state type of the game played.
S = TypeVar("S", bound=Hashable)

__all__ = ["DEFAULT_MAX_PLIES", "End", "GameOver", "GameRecord", "Match", "MatchKeeper", "end_by_policy", "play_game"]


DEFAULT_MAX_PLIES = 200


def end_by_policy(game: Game[S], state: S, times_seen: int, plies: int, max_plies: int) -> End | None:
    """How the play layer ends a game that has reached ``state``, seen ``times_seen`` times, after
    ``plies`` plies; None while it goes on.  The rules' end first (a win on a third repetition is
    a win), then a position (board and side to move) seen a third time, then the ply cap: the
    policy of every Match, and of the environments (gamelearn.envs), which report the last two as
    truncations."""
    if game.is_over(state):
        return End.WIN if game.winner(state) is not None else End.DRAW
    if times_seen >= 3:
        return End.REPETITION
    if plies >= max_plies:
        return End.MAX_PLIES
    return None


class GameOver(ValueError):
    """A move asked of a match that has ended."""


class MatchKeeper(Protocol):
    """What a match needs of the keeper it is given (:class:`gamelearn.keeper.Keeper` is one):
    the match knows nothing of the store behind it."""

    def attach_once(self, player: object) -> bool:
        """Load a kept learner's knowledge into ``player`` the first time it is seen."""
        ...

    def keep(
        self, record: GameRecord[S], seats: Sequence[tuple[Player[S], int | None]], record_context: str | None = None
    ) -> list[Kept]:
        """Teach each seated learner the finished game and keep what it learned."""
        ...


class Match(Generic[S]):
    """One game between two players, played a ply at a time (the play layer).

    ``play_game`` loops over a Match; an interface whose person's move arrives later (the web app,
    one HTTP request a move) keeps the Match between requests.  The policy is the play layer's, in
    one place: with a ``seed`` each player is reseeded (``seed`` for player 0, ``seed + 1`` for
    player 1) so the same seed and players replay the same game; the game ends by the rules (a win,
    or a draw like tic-tac-toe's full board), or as a draw when a position (board and side to move)
    comes up a third time or after ``max_plies`` plies (the moves after the opening, if any),
    checked in that order after every move; a
    player whose ``choose`` returns None resigns (an empty matchbox) and loses.  After the end each
    player learns from the record with its side, exactly once: at once when ``learn`` is True (as
    play_game does), else when the interface calls :meth:`learn_from_game`.  An abandoned game
    teaches nobody.

    ``opening`` (moves from the initial position, played by the rules before anyone chooses)
    starts the game where they lead, as ``start`` starts it from a given position; the record
    keeps them (:attr:`GameRecord.opening`).  IllegalMove (a ValueError) for an opening the rules
    refuse, ValueError for one that ends the game or for both ``start`` and ``opening``.

    Learners are kept only through the ``keeper`` given (a :class:`MatchKeeper`, such as
    :class:`gamelearn.keeper.Keeper`): it loads them when the match begins and applies the game's
    lesson to the latest stored knowledge in one transaction at the end; ``lessons`` then says
    what each learner learned.  Without a keeper the players learn in memory only and the match
    touches no store, whatever their names (``gamelearn.play_game`` gives kept learners the default
    store's keeper).
    """

    def __init__(
        self,
        game: Game[S],
        players: Sequence[Player[S]],
        seed: int | None = None,
        max_plies: int = DEFAULT_MAX_PLIES,
        start: S | None = None,
        learn: bool = True,
        keeper: MatchKeeper | None = None,
        opening: Sequence[str] = (),
    ) -> None:
        if len(players) != 2:
            raise ValueError(f"a game takes two players, not {len(players)}")
        if max_plies < 1:
            raise ValueError(f"max_plies must be at least 1, not {max_plies}")
        self.game = game
        self.players: tuple[Player[S], Player[S]] = (players[0], players[1])
        self.seed = seed
        self.max_plies = max_plies
        self.auto_learn = learn
        if seed is not None:
            for index, player in enumerate(self.players):
                player.reseed(seat_seed(seed, index))
        self.opening = tuple(opening)
        if self.opening and start is not None:
            raise ValueError("give a start position or an opening, not both")
        state = game.initial() if start is None else start
        for move in self.opening:
            state = game.play(state, move)  # IllegalMove names the move
            if game.is_over(state):
                raise ValueError(f"the opening {' '.join(self.opening)} ends the game")
        self._states: list[S] = [state]
        self._moves: list[str] = []
        self._seen: dict[S, int] = {state: 1}  # how often each position has come up
        self._winner: int | None = None
        self._end: End | None = None
        self._record: GameRecord[S] | None = None
        self._learned = False
        self.lessons: list[Kept] = []
        self.keeper = keeper
        if keeper is not None:
            for player in dict.fromkeys(self.players):  # one learner on both sides: loaded once
                keeper.attach_once(player)
        if game.is_over(state):  # seen once, no ply played: only the rules can have ended it
            self._check_end()

    # Where the game stands --------------------------------------------------------------------

    @property
    def state(self) -> S:
        return self._states[-1]

    @property
    def states(self) -> tuple[S, ...]:
        return tuple(self._states)

    @property
    def moves(self) -> tuple[str, ...]:
        return tuple(self._moves)

    @property
    def plies(self) -> int:
        return len(self._moves)

    @property
    def to_move(self) -> int:
        """The side whose turn it is in the current position (0 moves first)."""
        return self.game.to_move(self.state)

    @property
    def is_finished(self) -> bool:
        return self._end is not None

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def end(self) -> End | None:
        """How the game ended; None while it goes on."""
        return self._end

    @property
    def record(self) -> GameRecord[S] | None:
        """The record of the game once it has ended (abandoned included); None before."""
        return self._record

    @property
    def learned(self) -> bool:
        """True once the players have learned from this game."""
        return self._learned

    def legal_moves(self) -> list[str]:
        return [] if self.is_finished else self.game.legal_moves(self.state)

    # Moves ------------------------------------------------------------------------------------

    def play(self, move: str) -> S:
        """Play ``move``, supplied from outside (a person's), for the side to move; the new
        position.  IllegalMove when the rules refuse it or the game has ended: nothing changes."""
        if self.is_finished:
            raise IllegalMove(move, "the game is over")
        after = self.game.play(self.state, move)  # IllegalMove leaves everything as it was
        self._push(move, after)
        return after

    def advance(self) -> str | None:
        """The player to move chooses and its move is played; the move, or None when it resigned
        (the game is then over, won by the other side).  GameOver after the end.  Whatever the
        player or the rules raise (IllegalMove for a move the rules refuse) goes through with the
        game unchanged."""
        if self._end is not None:
            raise GameOver("the game is over")
        state = self._states[-1]
        mover = self.game.to_move(state)
        move = self.players[mover].choose(state)
        if move is None:
            self._winner, self._end = 1 - mover, End.RESIGN
            self._finish()
            return None
        self._push(move, self.game.play(state, move))
        return move

    def resign(self, side: int) -> GameRecord[S]:
        """``side`` gives up: the other side wins (End.RESIGN) and the players learn as from any
        loss.  GameOver after the end."""
        if self._end is not None:
            raise GameOver("the game is over")
        if side not in (0, 1):
            raise ValueError(f"side is 0 or 1, not {side!r}")
        self._winner, self._end = 1 - side, End.RESIGN
        self._finish()
        assert self._record is not None  # _finish makes the record
        return self._record

    def abandon(self) -> GameRecord[S]:
        """End an unfinished game without a winner (a person quit, a player failed); nobody
        learns from it.  A game that has ended keeps its end.  The record either way."""
        if self._end is None:
            self._end = End.ABANDONED
            self._record = self._make_record()
        assert self._record is not None  # every end makes the record
        return self._record

    def learn_from_game(self, record_context: str | None = None) -> bool:
        """Each player learns from the finished game with its side (one player on both sides once,
        from both sides, ``side`` None), exactly once in the life of the match; True when they
        learned now.  False for an unfinished or abandoned game, or when they already did.  With
        a keeper and ``record_context`` the game's record is stored in the same transaction as
        the lessons."""
        if self._record is None or self._learned or self._end is End.ABANDONED:
            return False
        self._learned = True
        first, second = self.players
        seats: list[tuple[Player[S], int | None]] = [(first, None)] if first is second else [(first, 0), (second, 1)]
        if self.keeper is not None:
            self.lessons = self.keeper.keep(self._record, seats, record_context=record_context)
        else:
            for player, side in seats:
                player.learn(self._record, side)
        return True

    # The policy -------------------------------------------------------------------------------

    def _push(self, move: str, after: S) -> None:
        self._moves.append(move)
        self._states.append(after)
        self._seen[after] = self._seen.get(after, 0) + 1
        self._check_end()

    def _check_end(self) -> None:
        state = self._states[-1]
        end = end_by_policy(self.game, state, self._seen[state], len(self._moves), self.max_plies)
        if end is None:
            return
        self._winner, self._end = self.game.winner(state) if end is End.WIN else None, end
        self._finish()

    def _finish(self) -> None:
        self._record = self._make_record()
        if self.auto_learn:
            self.learn_from_game()

    def _make_record(self) -> GameRecord[S]:
        assert self._end is not None
        return GameRecord.of(
            self.game.spec,  # the form's spec for Teeko's forms, so a record replays as it was played
            (self.players[0].spec, self.players[1].spec),
            tuple(self._moves),
            tuple(self._states),
            self._winner,
            self._end,
            self.seed,
            self.opening,
        )


def play_game(
    game: Game[S],
    players: Sequence[Player[S]],
    seed: int | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    start: S | None = None,
    learn: bool = True,
    on_move: Callable[[S, str, S], None] | None = None,
    keeper: MatchKeeper | None = None,
    opening: Sequence[str] = (),
) -> GameRecord[S]:
    """Play one game; ``players[0]`` moves first from the initial position (or ``start``).  With an
    ``opening`` the game starts after those moves, whoever is then to move: ``players[0]`` is still
    the first player (X, White), so it moves next after an even number of opening plies.

    With a ``seed`` each player is reseeded (``seed`` for player 0, ``seed + 1`` for player 1),
    so the same seed and the same players replay the same game.  A position seen for the third
    time, or ``max_plies`` plies, ends the game as a draw.  After it, each player's ``learn`` is
    called with the record and its side (unless ``learn`` is False).  ``on_move(before, move,
    after)`` sees every move played, before anyone learns.  A thin loop over :class:`Match`;
    learners are kept only through ``keeper`` (``gamelearn.play_game`` gives kept learners the
    default store's).
    """
    # The match does not learn by itself: on_move sees the last move before the players learn.
    match = Match(
        game, players, seed=seed, max_plies=max_plies, start=start, learn=False, keeper=keeper, opening=opening
    )
    while match.end is None:
        before = match.state
        move = match.advance()
        if move is not None and on_move is not None:
            on_move(before, move, match.state)
    if learn:
        match.learn_from_game()
    record = match.record
    assert record is not None  # a finished match has its record
    return record
