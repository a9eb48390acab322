"""Which JAX rules a game is played by: the hand-written ones of tic-tac-toe, hexapawn, Teeko and
Connect Four, each of its sizes (:mod:`.rules`), or, for a game of another author, its own rules tabulated over every reachable
position (:mod:`.tabulated`)."""

from __future__ import annotations

from typing import Any

from ...games import Game
from .rules import ConnectFourRules, HexapawnRules, JaxRules, TeekoRules, TicTacToeRules
from .tabulated import tabulate

_RULES: dict[str, JaxRules] = {}
#: A game of another author's tabulated rules, by spec, with the game object they were made from.
_TABULATED: dict[str, tuple[Game[Any], JaxRules]] = {}
#: The games whose JAX rules are written by hand above.
BUILT_IN = ("tictactoe", "hexapawn", "teeko", "connect4")


def rules_for(game: str | Game[Any]) -> JaxRules:
    """The JAX rules of ``game`` (one object per game and size, so jit caches are shared): the
    hand-written ones of tic-tac-toe, hexapawn, Teeko and Connect Four (by name or game; the name
    "connect4" is the standard 7x6 board, a game object its own size), or, for any other game
    object, its own rules tabulated over every reachable position (:mod:`.tabulated`; ValueError
    in one line where they do not fit)."""
    name = game if isinstance(game, str) else game.name
    if name == "connect4":
        columns, rows = (7, 6) if isinstance(game, str) else (game.facts.columns, game.facts.rows)
        key = f"connect4:{columns}x{rows}"
        if key not in _RULES:
            _RULES[key] = ConnectFourRules(columns, rows)
        return _RULES[key]
    if name in BUILT_IN:
        if name not in _RULES:
            makers = {"tictactoe": TicTacToeRules, "hexapawn": HexapawnRules, "teeko": TeekoRules}
            _RULES[name] = makers[name]()
        return _RULES[name]
    if isinstance(game, str):
        raise ValueError(f"az's rules of {game!r} are tabulated from the game itself: pass the game, not its name")
    known = _TABULATED.get(game.spec)
    if known is None or known[0] is not game:  # a game registered again is tabulated again
        known = (game, tabulate(game))
        _TABULATED[game.spec] = known
    return known[1]
