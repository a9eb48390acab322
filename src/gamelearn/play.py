"""Games and players as the public API gives them: a kept learner (one with a name, or a thesis
memory file) comes with what the default store keeps for it, and keeps each lesson there, unless
the caller gives a keeper of its own.

:class:`gamelearn.match.Match` and :func:`gamelearn.match.play_game` keep learners only through a
keeper they are given, and know no store; :func:`gamelearn.players.registry.make_player` makes a
player from its spec and knows no store either.  This is where the default keeper is wired up,
above them: :func:`play_and_keep` is ``gamelearn.play_game`` and :func:`make_player` is
``gamelearn.make_player``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, TypeGuard, TypeVar

from .match import DEFAULT_MAX_PLIES, MatchKeeper, play_game
from .players.knowledge import Learner
from .players.registry import make_player as make_new_player

if TYPE_CHECKING:
    from .games.base import Game
    from .games.record import GameRecord
    from .keeper import Keeper
    from .players.base import Player
    from .players.knowledge import Pupil

#: The state type of the game played.
S = TypeVar("S", bound=Hashable)


def is_learner(player: Player[S]) -> TypeGuard[Pupil[S]]:
    """Whether ``player`` is a learner, to be kept: its class derives from
    :class:`gamelearn.players.knowledge.Learner`."""
    return isinstance(player, Learner)


def make_player(game: Game[S], spec: str, seed: int | None = None, keeper: Keeper | None = None) -> Player[S]:
    """A player for ``game`` from a spec (``NAME`` or ``NAME:opt=value,...``, as
    :func:`gamelearn.players.registry.make_player` reads it): the one public way to make a player.
    A kept learner (``menace:name=mine``, ``thesis:memory=NAME``) comes loaded with what
    ``keeper``'s store keeps for it, else the default store's.  Without a keeper, a frozen learner
    (``train=off``) is read through a read-only store and never written; a name nothing is kept
    under yet gives a learner that knows nothing.  ValueError for an unknown kind or option, or a
    kept value the learner refuses.

    >>> import gamelearn
    >>> game = gamelearn.get_game("tictactoe")
    >>> state = game.initial()
    >>> for move in "0314":  # X on 0 and 1, O on 3 and 4
    ...     state = game.play(state, move)
    >>> gamelearn.make_player(game, "perfect").choose(state)  # X completes the top row
    '2'
    """
    player = make_new_player(game, spec, seed=seed)
    if is_learner(player) and keeper is not None:
        keeper.attach(player)
    elif is_learner(player):
        # the keeper and its store (SQLite) only for a learner: a program of random players loads none
        from .keeper import Keeper, default_keeper, reading_keeper
        from .store.database import default_store_path
        from .store.store import Store

        if Keeper.is_kept(player):
            if player.trains:
                default_keeper().attach_once(player)
            elif default_store_path().exists():
                reading_keeper().attach(player)
            else:  # nothing is kept yet (but a memory file may be): a store that makes no file
                Keeper(Store(readonly=True)).attach(player)
    return player


def play_and_keep(
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
    """:func:`gamelearn.match.play_game`, with the default store's keeper for kept learners when
    no ``keeper`` is given: a named learner comes loaded with what the store keeps under its name
    and keeps each lesson there (``gamelearn.play_game``).

    >>> import gamelearn
    >>> game = gamelearn.get_game("tictactoe")
    >>> players = [gamelearn.make_player(game, "perfect"), gamelearn.make_player(game, "perfect")]
    >>> record = gamelearn.play_game(game, players, seed=1)
    >>> record.end, record.winner, len(record.moves)  # perfect play draws tic-tac-toe
    (<End.DRAW: 'draw'>, None, 9)
    """
    return play_game(
        game,
        players,
        seed=seed,
        max_plies=max_plies,
        start=start,
        learn=learn,
        on_move=on_move,
        keeper=keeper if keeper is not None else _default_keeper_for(players),
        opening=opening,
    )


def _default_keeper_for(players: Sequence[Player[S]]) -> MatchKeeper | None:
    """The default store's keeper when a player is a kept learner; without a learner the keeper
    and the store are not even imported (a game of random players loads no SQLite)."""
    if not any(is_learner(player) for player in players):
        return None
    from .keeper import keeper_for  # as make_player: the store only where a learner is kept

    return keeper_for(players)
