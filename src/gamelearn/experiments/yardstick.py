"""Games lost to perfect play: a player against ``perfect`` from every opening of a game's balanced
book (:mod:`.openings`), once with each colour.

Every opening of the balanced book is a draw with best play, so perfect play never loses from it,
and a game the player loses is its own mistake: the count of games lost is a yardstick beside the
share of a suite's positions kept (:mod:`.grading`).  A game that reaches the ply limit is a draw.
"""

from __future__ import annotations

from typing import Any

from ..games import Game
from ..match import play_game
from ..players.base import Player
from ..players.registry import make_player
from .openings import balanced_openings

#: The plies a game against perfect play may last (perfect play wins within a few dozen plies of
#: a mistake; a drawn game goes on until then).
PLIES = 120


def games_lost_to_perfect(
    game: Game[Any],
    player: Player[Any],
    plies: int | None = None,
    limit: int | None = None,
    seed: int = 0,
    max_plies: int = PLIES,
) -> dict[str, Any]:
    """``player`` (made frozen) against ``perfect`` from each opening of the book ``plies`` deep (the
    game's default), first with each colour: the games, those lost and won, and each lost game's
    opening and colour.  ``limit``: the book's first openings only.  ValueError where the
    game's solution is missing."""
    book = balanced_openings(game, plies)[:limit]
    lost: list[dict[str, Any]] = []
    won = games = 0
    for index, opening in enumerate(book):
        for colour in (0, 1):
            oracle = make_player(game, "perfect", seed=seed + 2 * index + colour)
            seats = [player, oracle] if colour == 0 else [oracle, player]
            record = play_game(game, seats, seed=seed + index, max_plies=max_plies, learn=False, opening=opening)
            games += 1
            if record.winner == colour:
                won += 1
            elif record.winner is not None:
                lost.append({"opening": list(opening), "colour": colour, "plies": record.plies})
    return {"openings": len(book), "games": games, "lost": len(lost), "won": won, "lost_games": lost}
