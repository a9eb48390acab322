"""Exact solutions: ``solve(game)`` returns a :class:`Solution` with value, distance, best_moves
and grade.  Tic-tac-toe, hexapawn and any other game that always ends and fits in memory are
searched on the spot; Teeko reads a table built once by retrograde analysis (``gamelearn solve
teeko``) and memory-mapped; Connect Four searches each position asked for (solver.connect4), the
first plies read from an opening book once built (``gamelearn solve connect4``).

The public API names the function ``gamelearn.solve``; this package is ``gamelearn.solver``.

This layer imports only the rules (gamelearn.games), gamelearn.paths, gamelearn.jit, numpy and numba.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING

from ..games import Game, get_game
from .base import Grade, MoveAnalysis, Outcome, Solution
from .exhaustive import ExhaustiveSolution
from .tictactoe import outcomes

if TYPE_CHECKING:
    from typing import Any

_CACHE: dict[str, Solution] = {}


def solve(game: Game[Any] | str, **options: Any) -> Solution:
    """The exact solution of ``game``.

    ``game`` is a game or a spec (``"teeko:goals=advanced"``): each form of Teeko has its own table.
    Options (Teeko only): ``path`` (the table file, default in the data directory) and
    ``build=True`` to build a missing or damaged table instead of refusing it (ValueError).

    >>> import gamelearn
    >>> solution = gamelearn.solve("tictactoe")
    >>> game = gamelearn.get_game("tictactoe")
    >>> solution.value(game.initial())  # a draw with best play
    0
    >>> state = game.initial()
    >>> for move in "0314":  # X on 0 and 1, O on 3 and 4, X to move
    ...     state = game.play(state, move)
    >>> solution.value(state), solution.best_moves(state)
    (1, ['2'])
    """
    if isinstance(game, str):
        game = get_game(game)
    if game.name in ("tictactoe", "hexapawn"):
        if options:
            raise ValueError(f"{game.name} takes no solve options; got {', '.join(sorted(options))}")
        if game.name not in _CACHE:
            known: Mapping[Hashable, Outcome] | None = None
            if game.name == "tictactoe":  # the fastest first solve: over bitboards, no state objects
                known = outcomes()
            _CACHE[game.name] = ExhaustiveSolution(game, known)
        return _CACHE[game.name]
    if game.name == "connect4":
        # One solution a board and book: its transposition table and the positions it has solved
        # serve every player made after it.
        if set(options) - {"path"}:
            raise ValueError(f"connect4 takes the solve option path only; got {', '.join(sorted(options))}")
        # Connect Four's solver is compiled: numba (0.2 CPU s) loads when it is first asked for
        from .connect4.book import book_path

        book = options.get("path") or book_path(game.columns, game.rows)  # type: ignore[attr-defined]
        try:  # a book built (or rebuilt) since is read afresh
            stamp = os.stat(book)
            key = f"connect4:{os.path.abspath(book)}:{stamp.st_mtime_ns}:{stamp.st_size}"
        except OSError:
            key = f"connect4:{os.path.abspath(book)}:none"
        if key not in _CACHE or _CACHE[key].game is not game:
            from .connect4 import solve_connect4  # numba, as above

            for stale in [k for k, kept in _CACHE.items() if k.startswith("connect4:") and kept.game is game]:
                del _CACHE[stale]  # one solution a board in memory, with its table
            _CACHE[key] = solve_connect4(game, options.get("path"))  # type: ignore[arg-type]
        return _CACHE[key]
    if game.name == "teeko":
        # Teeko's table reader brings numpy (0.1 CPU s): a fresh process that solves tic-tac-toe
        # does without it (docs/performance.md's whole-process rows)
        from .teeko import default_path, solve_teeko

        # One open table per file (and per version of it: a rebuilt file is opened afresh), so
        # that making many perfect players does not re-read and re-verify the table each time.
        path = options.get("path") or default_path(game)
        try:
            stamp = os.stat(path)
            key = f"teeko:{os.path.abspath(path)}:{stamp.st_mtime_ns}:{stamp.st_size}"
        except OSError:
            key = ""
        if key and key in _CACHE and not options.get("build"):
            return _CACHE[key]
        solution = solve_teeko(game, **options)
        if key:
            _CACHE[key] = solution
        return solution
    return _solve_exhaustively(game, options)


def _solve_exhaustively(game: Game, options: Mapping[str, Any]) -> Solution:
    """Any other game (one installed or registered, docs/own-game.md) by the exhaustive search,
    kept a form; ValueError in one line where its positions repeat or do not fit (solve.exhaustive)."""
    if options:
        raise ValueError(f"{game.name} takes no solve options; got {', '.join(sorted(options))}")
    if game.spec not in _CACHE or _CACHE[game.spec].game is not game:  # a game registered again is solved again
        _CACHE[game.spec] = ExhaustiveSolution(game)
    return _CACHE[game.spec]


__all__ = ["Grade", "MoveAnalysis", "Outcome", "Solution", "solve"]
