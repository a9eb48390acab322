"""Players made once in the background when the server starts, so that the first person to seat
one does not wait for it.  ``az``'s first move after a start makes its network and compiles its
search (JAX), tens of seconds (docs/web.md).  Made and played once here, its compiled code is in
the process (and in JAX's compilation cache in the data directory, players/az/cache.py, for the
next start).
Its progress is public (``GET /api/warm-up``), so the page can say "az is loading its network"
while it is not ready.  Ready means what the page will ask has run once: a trainable az's move
(its exploring search is compiled apart from a frozen one's), its ``explain``, and a reply a ply
later, so the first real move takes what any later move takes.

:func:`settle` is what `gamelearn serve` does before it listens: every player module imported
and the matchbox tables built (what the first game started would do), then all of it kept out
of the garbage collector's full passes (``gc.freeze``).  A full pass walks every object the
process holds, and no request moves meanwhile (docs/web.md measures it).  Frozen, those objects
are never walked again (they live as long as the process anyway); what requests make later is
collected as usual.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable, Iterable

from ..games import GAME_NAMES, Game, get_game
from ..players.base import Player
from ..players.knowledge import Learner
from ..players.matchbox.tables import position_table
from ..players.registry import kinds_for, make_player

#: What ``WarmUp.states`` says of a kind in a game.
WAITING, LOADING, READY, SKIPPED = "waiting", "loading", "ready", "skipped"


class WarmUp(threading.Thread):
    """The warm-up's thread; ``warmed`` lists each ``kind game`` made and played so far.  It
    begins after ``delay`` seconds (0: at once)."""

    def __init__(
        self,
        kinds: tuple[str, ...],
        games: tuple[str, ...],
        delay: float = 0.0,
        then: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(name="gamelearn-warm-up", daemon=True)
        self.kinds = kinds
        self.games = games
        self.delay = delay
        self.then = then  # called once every kind is warm (or skipped)
        self.warmed: list[str] = []
        self._states = {kind: dict.fromkeys(games, WAITING) for kind in kinds}

    def states(self) -> dict[str, dict[str, str]]:
        """For each kind, its state per game: waiting, loading, ready, or skipped (not offered
        there, or it could not be made: its first real move does the work)."""
        return {kind: dict(per_game) for kind, per_game in self._states.items()}

    def run(self) -> None:
        time.sleep(self.delay)
        for name in self.games:
            game = get_game(name)
            offered = {kind.name: kind for kind in kinds_for(game)}
            for kind_name in self.kinds:
                kind = offered.get(kind_name)
                if kind is None:
                    self._states[kind_name][name] = SKIPPED
                    continue
                self._states[kind_name][name] = LOADING
                try:
                    play_as_the_page_does(make_player(game, kind_name, seed=0), game)
                except Exception:  # only a head start: the first real move does the work instead
                    self._states[kind_name][name] = SKIPPED
                    continue
                self._states[kind_name][name] = READY
                self.warmed.append(f"{kind_name} {name}")
        if self.then is not None:
            self.then()


def play_as_the_page_does(player: Player, game: Game) -> None:
    """What the page's first games ask of ``player``: a move as a trainable learner chooses it
    (az explores: a search compiled apart from a frozen one's), the learner's account of it
    (``explain``, a frozen search), and the same at the next ply, where a person moved first.
    The player is unnamed and never told to learn, so nothing is kept."""
    state = game.initial()
    for _ in range(2):
        move = player.choose(state)
        if move is None:
            return
        if isinstance(player, Learner):
            player.explain(state, move)
        state = game.play(state, move)
        if game.is_over(state):
            return


def warm_up(
    kinds: Iterable[str],
    games: Iterable[str] = GAME_NAMES,
    delay: float = 0.0,
    then: Callable[[], None] | None = None,
) -> WarmUp | None:
    """Start a daemon thread that makes a player of each of ``kinds`` for each game that offers it
    and has it choose the first move, then calls ``then``; None when there is nothing to warm.  A
    player that cannot be made here (az without the neural extra) is skipped: the page says why
    when someone seats it."""
    wanted = tuple(kinds)
    if not wanted:
        return None
    thread = WarmUp(wanted, tuple(games), delay, then)
    thread.start()
    return thread


def settle() -> None:
    """For a long-running server (see the module docstring): load what the first games would
    (every player module, the matchbox tables), collect what is garbage now, and freeze the rest
    out of the garbage collector's full passes.  Called again after az's warm-up (JAX's objects).
    Not for a test process or a library: a frozen object in a reference cycle is never freed."""
    for name in GAME_NAMES:
        game = get_game(name)
        kinds_for(game)  # imports every player module, as the first game started would
        if name in ("hexapawn", "tictactoe"):
            position_table(name)  # the matchbox learners' tables, built on their first game
    _thesis_into_moving_phase()
    gc.collect()
    gc.freeze()


def _thesis_into_moving_phase(plies: int = 12) -> None:
    """The thesis program plays itself past the drops: its numba kernels (search, heuristics)
    are loaded on its first move of the moving phase, time in which no request would move.  An
    unnamed player: nothing is kept."""
    if "teeko" not in GAME_NAMES:
        return
    game = get_game("teeko")
    try:
        player = make_player(game, "thesis", seed=0)
        state = game.initial()
        for _ in range(plies):
            if game.winner(state) is not None:
                break
            move = player.choose(state)
            if move is None:
                break
            state = game.play(state, move)
    except Exception:  # only a head start, as the warm-up: the first real move does the work
        return
