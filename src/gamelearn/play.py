"""Games as the public API plays them: a kept learner (one with a name, or a thesis memory file)
is kept by the default store's keeper unless the caller gives a keeper of its own.

:class:`gamelearn.match.Match` keeps learners only through a keeper it is given, and knows no
store; this is where the default one is wired up, above both (``gamelearn.play_game``)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

from .match import DEFAULT_MAX_PLIES, Match, MatchKeeper
from .match import play_game as play_match
from .players.knowledge import Learner

if TYPE_CHECKING:
    from .games.base import Game
    from .games.record import GameRecord
    from .players.base import Player


def play_game(
    game: Game[Any],
    players: Sequence[Player],
    seed: int | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    start: Hashable | None = None,
    learn: bool = True,
    on_move: Callable[[Hashable, str, Hashable], None] | None = None,
    keeper: MatchKeeper | None = None,
    opening: Sequence[str] = (),
) -> GameRecord:
    """:func:`gamelearn.match.play_game`, with the default store's keeper for kept learners when
    no ``keeper`` is given: a named learner comes loaded with what the store keeps under its name
    and keeps each lesson there."""
    return play_match(
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


def kept_match(game: Game[Any], players: Sequence[Player], keeper: MatchKeeper | None = None, **options: Any) -> Match:
    """A :class:`~gamelearn.match.Match` (``options`` as it takes them) whose kept learners are
    kept by ``keeper``, else by the default store's keeper."""
    return Match(game, players, keeper=keeper if keeper is not None else _default_keeper_for(players), **options)


def _default_keeper_for(players: Sequence[Player]) -> MatchKeeper | None:
    """The default store's keeper when a player is a kept learner; without a learner the keeper
    and the store are not even imported (a game of random players loads no SQLite)."""
    if not any(isinstance(player, Learner) for player in players):
        return None
    from .keeper import keeper_for

    return keeper_for(players)
