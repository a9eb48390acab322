"""Balanced opening books drawn from a game's exact solution (the experiments layer).

A tournament between players that choose alike every time (``perfect``, ``minimax``, a frozen
``az``) replays a handful of games, and counting them as independent trials makes its intervals
far too narrow.  Engine testers answer this with an opening book and game pairs: each opening is
played twice, colours swapped (see :mod:`.pairs`).  Here the book needs no engine's judgement:
the exact solution says which positions are balanced.

:func:`balanced_openings` walks the game tree ``plies`` plies deep, in the rules' move order, and
keeps every position whose exact value is a draw (``gamelearn.solve(game).value(state) == 0``),
one per symmetry class (:meth:`Game.canonical`): the first move sequence reaching the class in
lexicographic order stands for it.  Finished positions are never openings.

Default depths (:data:`DEFAULT_PLIES`): tic-tac-toe 3 plies (21 drawn classes; 2 plies give only
5, since X wins after most second moves), Teeko 2 plies (63 drawn classes of 85; 3 plies give
618).  Hexapawn has no drawn position at all (a forced win for Black, Gardner 1962), so its book
is empty and a tournament plays its pairs from the start.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..games import Game, get_game
from ..solver import solve

#: The depth of each game's default book, in plies.
DEFAULT_PLIES: dict[str, int] = {"tictactoe": 3, "teeko": 2, "hexapawn": 2}
#: The deepest book a game allows: a Teeko book 4 plies deep already has 6,759 openings.
MAX_PLIES: dict[str, int] = {"tictactoe": 8, "teeko": 4, "hexapawn": 8}


class NoQuickSolution(ValueError):
    """The solution a balanced book needs is not at hand: no solved table, or (Connect Four) no
    opening book for the book's ply, whose positions would each take a long search."""


def default_plies(game: Game[Any]) -> int:
    return DEFAULT_PLIES.get(game.name, 2)


def max_plies(game: Game[Any]) -> int:
    return MAX_PLIES.get(game.name, 4)


def balanced_openings(game: Game[Any] | str, plies: int | None = None) -> list[tuple[str, ...]]:
    """The balanced book of ``game``: one move sequence per symmetry class of the positions
    ``plies`` plies from the start whose exact value is a draw, in lexicographic order of the
    sequences.  ``plies`` None: the game's default.  ValueError for a depth out of range, or (Teeko)
    when the solved table is missing (the message says to run ``gamelearn solve``)."""
    if isinstance(game, str):
        game = get_game(game)
    depth = default_plies(game) if plies is None else plies
    if not 1 <= depth <= max_plies(game):
        raise ValueError(f"opening plies for {game.spec} go from 1 to {max_plies(game)}, not {depth}")
    return list(_book(game.spec, depth))


@cache
def _book(spec: str, plies: int) -> tuple[tuple[str, ...], ...]:
    game = get_game(spec)
    try:
        solution = solve(game)
    except ValueError as error:
        raise NoQuickSolution(
            f"balanced openings for {spec} need its solved table: run `gamelearn solve {spec}` first, "
            f"or give --openings none ({error})"
        ) from None
    if not solution.answers_at_once(plies):
        raise NoQuickSolution(
            f"balanced openings for {spec} {plies} plies in need its opening book to that ply: "
            f"run `gamelearn solve {spec}` first, or give --openings none"
        )
    seen: set[Hashable] = set()
    book: list[tuple[str, ...]] = []

    def walk(state: Hashable, moves: tuple[str, ...]) -> None:
        if game.is_over(state):
            return
        if len(moves) == plies:
            canonical, _ = game.canonical(state)
            if canonical not in seen:
                seen.add(canonical)
                if solution.value(state) == 0:
                    book.append(moves)
            return
        for move in game.legal_moves(state):  # sorted: the walk is in lexicographic order
            walk(game.play(state, move), (*moves, move))

    walk(game.initial(), ())
    return tuple(book)


def openings_for(book: Sequence[tuple[str, ...]], count: int, seed: int) -> list[tuple[str, ...]]:
    """``count`` openings from ``book`` in a seeded order: the book shuffled with ``seed``, then
    cycled when more are needed than it holds (each opening used once before any twice).  The
    shuffle keeps a short tournament from taking only the book's first openings, which share
    their first moves."""
    if not book or count <= 0:
        return []
    order = list(book)
    random.Random(f"openings:{seed}").shuffle(order)
    return [order[k % len(order)] for k in range(count)]


def position_after(game: Game[Any], opening: Sequence[str]) -> Hashable:
    """The position an opening leads to from the start (IllegalMove for a move the rules refuse)."""
    state: Hashable = game.initial()
    for move in opening:
        state = game.play(state, move)
    return state


@dataclass(frozen=True)
class Book:
    """The openings a tournament plays: ``mode`` "balanced" (from the solution, ``plies`` deep),
    "given" (a list handed in) or "none" (every game from the start); ``size`` openings in the
    book, ``used`` the ones the games start from, in order (game pair m starts from used[m]);
    ``note`` says why a tournament that asked for the default book plays from the start."""

    mode: str = "none"
    plies: int | None = None
    size: int = 0
    used: tuple[tuple[str, ...], ...] = ()
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "plies": self.plies,
            "book_size": self.size,
            "used": [list(opening) for opening in self.used],
            "note": self.note,
        }


def parse_openings(
    openings: str | Sequence[Sequence[str]], game: Game[Any]
) -> tuple[str | Sequence[Sequence[str]], int | None]:
    """A tournament's ``openings`` (``--openings``): "auto", "balanced", "balanced:plies=K" (K from
    1 to the game's limit), "none", or a list of move sequences; (mode or book, plies or None).
    ValueError, one line."""
    if not isinstance(openings, str):
        return openings, None
    name, _, options = openings.strip().partition(":")
    if name in ("auto", "balanced", "none") and not options:
        return name, None
    if name != "balanced":
        raise ValueError(f"--openings: {openings!r} is not 'balanced', 'balanced:plies=K', 'none' or 'auto'")
    key, _, value = options.partition("=")
    limit = max_plies(game)
    if key.strip() != "plies" or not value.strip().isdigit() or not 1 <= int(value) <= limit:
        raise ValueError(f"--openings: {openings!r}: give balanced:plies=K with K from 1 to {limit} for {game.spec}")
    return "balanced", int(value)


def choose_book(
    game: Game[Any],
    openings: str | Sequence[Sequence[str]],
    plies: int | None,
    games_per_pair: int,
    seed: int,
) -> Book:
    """The book of a tournament.  ``openings``: "auto" (the balanced book where the game has one
    and its solution is at hand, else the start, saying why in ``note``), "balanced" (the same, but
    ValueError when the solution is missing), "none", or a list of move sequences.  With a book the
    games go in pairs, one opening each; an odd ``games_per_pair`` plays the last opening once."""
    if isinstance(openings, str):
        if openings not in ("auto", "balanced", "none"):
            raise ValueError(f"openings are 'auto', 'balanced', 'none' or a list of move lists, not {openings!r}")
        if openings == "none":
            return Book()
        depth = default_plies(game) if plies is None else plies
        try:
            book = balanced_openings(game, depth)
        except NoQuickSolution as error:
            if openings == "balanced":
                raise
            return Book(note=f"no balanced openings, every game from the start: {error}")
        if not book:
            start = game.facts.value_of_start
            why = {
                1: "; its start is a forced win for the first player",
                -1: "; its start is a forced win for the second",
            }
            return Book(
                mode="balanced",
                plies=depth,
                note=f"{game.spec} has no balanced openings (no drawn position {depth} plies in"
                f"{why.get(start or 0, '')}): every game pair starts from the start",
            )
        mode = "balanced"
    else:
        book = [tuple(str(move) for move in opening) for opening in openings]
        for opening in book:
            state = position_after(game, opening)  # IllegalMove (a ValueError) names the move
            if game.is_over(state):
                raise ValueError(f"the opening {' '.join(opening)} ends the game")
        if not book:
            return Book()
        mode, depth = "given", None
    return Book(mode, depth, len(book), tuple(openings_for(book, (games_per_pair + 1) // 2, seed)))
