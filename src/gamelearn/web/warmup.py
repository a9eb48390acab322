"""Players made once in the background when the server starts, so that the first person to seat
one does not wait for it.  ``az``'s first move after a start took 27 to 46 s: making its network
and compiling its search (JAX).  Made and played once here, its compiled code is in the process
(and in JAX's compilation cache in the data directory, players/az/cache.py, for the next start).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from ..games import GAME_NAMES, get_game
from ..players.registry import kinds_for, make_player


class WarmUp(threading.Thread):
    """The warm-up's thread; ``warmed`` lists each ``kind game`` made and played so far."""

    def __init__(self, kinds: tuple[str, ...], games: tuple[str, ...]) -> None:
        super().__init__(name="gamelearn-warm-up", daemon=True)
        self.kinds = kinds
        self.games = games
        self.warmed: list[str] = []

    def run(self) -> None:
        for name in self.games:
            game = get_game(name)
            offered = {kind.name: kind for kind in kinds_for(game)}
            for kind_name in self.kinds:
                kind = offered.get(kind_name)
                if kind is None:
                    continue
                frozen = any(option.name == "train" for option in kind.options)  # learns nothing from it
                try:
                    player = make_player(game, f"{kind_name}:train=off" if frozen else kind_name, seed=0)
                    player.choose(game.initial())
                except Exception:  # only a head start: the first real move does the work instead
                    continue
                self.warmed.append(f"{kind_name} {name}")


def warm_up(kinds: Iterable[str], games: Iterable[str] = GAME_NAMES) -> WarmUp | None:
    """Start a daemon thread that makes a player of each of ``kinds`` for each game that offers it
    and has it choose the first move; None when there is nothing to warm.  A player that cannot be
    made here (az without the neural extra) is skipped: the page says why when someone seats it."""
    wanted = tuple(kinds)
    if not wanted:
        return None
    thread = WarmUp(wanted, tuple(games))
    thread.start()
    return thread
