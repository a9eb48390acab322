"""The Game contract's invariants as checks any game can be put through (docs/own-game.md):
``problems(game)`` returns what breaks, one line each, and an empty list for a game that keeps
them.  ``tests/games/test_contract.py`` runs them over every game found, and ``gamelearn check-game NAME``
prints them for a game of another author.  Rules only: this module imports nothing but the rules layer.
"""

from __future__ import annotations

import copy
import pickle
import random
import re
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from .base import Game, IllegalMove

#: Each check reports each kind of problem once (the first position showing it), and at most this
#: many kinds: one broken rule usually breaks it everywhere.
MOST_PER_CHECK = 5


def sample_states(game: Game[Any], games: int = 12, seed: int = 0, plies: int = 120) -> list[Hashable]:
    """Every position of ``games`` seeded random games (each capped at ``plies``), the start first."""
    rng = random.Random(seed)
    states: list[Hashable] = []
    for _ in range(games):
        state = game.initial()
        states.append(state)
        for _ in range(plies):
            if game.is_over(state):
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
            states.append(state)
    return states


def check_facts(game: Game[Any]) -> Iterator[str]:
    facts = game.facts
    squares = facts.rows * facts.columns
    if facts.players != 2:
        yield f"facts.players is {facts.players}, not 2"
    board = game.board(game.initial())
    if len(board) != squares:
        yield f"board(initial()) has {len(board)} characters, but rows x columns is {squares}"
    if len(facts.symbols) != 2 or any(len(s) != 1 or s == "." for s in facts.symbols) or len(set(facts.symbols)) != 2:
        yield f"facts.symbols must be two different characters other than '.', not {facts.symbols!r}"
    if len(facts.symmetry_names) != len(game.symmetries):
        yield f"{len(facts.symmetry_names)} symmetry names for {len(game.symmetries)} symmetries"
    if not game.symmetries or tuple(game.symmetries[0]) != tuple(range(squares)):
        yield "the first symmetry must be the identity, tuple(range(rows * columns))"
    for index, perm in enumerate(game.symmetries):
        if sorted(perm) != list(range(squares)):
            yield f"symmetry {index} is not a permutation of the {squares} squares"
            return
    group = {tuple(perm) for perm in game.symmetries}
    if len(group) != len(game.symmetries):
        yield "two symmetries are the same permutation"
    for a in game.symmetries:
        for b in game.symmetries:
            if tuple(b[a[sq]] for sq in range(squares)) not in group:
                yield "the symmetries are not a group: composing two gives a permutation not among them"
                return
    if game.to_move(game.initial()) != 0:
        yield "player 0 must move first: to_move(initial()) is not 0"


def check_states(game: Game[Any], states: list[Hashable]) -> Iterator[str]:
    for state in states:
        moves = game.legal_moves(state)
        where = f"in position {game.board(state)!r}"
        if not all(isinstance(move, str) for move in moves):
            yield f"{where}: legal_moves gives something other than strings"
            continue
        for problem in (
            *_move_list_problems(game, state, moves),
            *_board_problems(game, state),
            *_value_problems(state),
            *_play_problems(game, state, moves),
        ):
            yield f"{where}: {problem}"


def _move_list_problems(game: Game[Any], state: Hashable, moves: list[str]) -> Iterator[str]:
    if moves != sorted(moves) or len(set(moves)) != len(moves):
        yield f"legal_moves is not sorted without repeats: {moves}"
    if (moves == []) != game.is_over(state):
        yield f"legal_moves is {'empty' if not moves else 'not empty'} but is_over says {game.is_over(state)}"
    if game.winner(state) is not None and not game.is_over(state):
        yield "a winner, but the game is not over"
    if game.to_move(state) not in (0, 1):
        yield f"to_move is {game.to_move(state)!r}, not 0 or 1"


def _board_problems(game: Game[Any], state: Hashable) -> Iterator[str]:
    board = game.board(state)
    strange = set(board) - {".", *game.symbols}
    if strange:
        yield f"the board holds {sorted(strange)}, not only '.' and the symbols"
    try:
        rebuilt = game.from_board(board, game.to_move(state))
    except ValueError as error:
        yield f"from_board refuses the board of a reachable position: {error}"
        return
    if rebuilt != state or hash(rebuilt) != hash(state):
        yield "from_board(board(s), to_move(s)) is not s (or hashes otherwise)"


def _value_problems(state: Hashable) -> Iterator[str]:
    clone = pickle.loads(pickle.dumps(state))
    if clone != state or hash(clone) != hash(state):
        yield "the state does not survive pickle equal"


def _play_problems(game: Game[Any], state: Hashable, moves: list[str]) -> Iterator[str]:
    board = game.board(state)
    frozen = copy.deepcopy(state)
    for move in moves[:6]:
        after = game.play(state, move)
        if state != frozen or game.board(state) != board:
            yield f"play({move!r}) changed its argument"
        if after == state:
            yield f"play({move!r}) gives back the same position"
        if game.pawn_side(after) != 1 - game.pawn_side(state):
            yield f"after {move!r} the same side moves again"


def check_illegal_moves(game: Game[Any], states: list[Hashable]) -> Iterator[str]:
    rng = random.Random(3)
    every = sorted({move for state in states for move in game.legal_moves(state)})
    widths = sorted({len(move) for move in every}) or [1]
    for state in states[::5]:
        legal = set(game.legal_moves(state))
        frozen = copy.deepcopy(state)
        candidates = {"".join(rng.choice("0123456789") for _ in range(w)) for w in widths for _ in range(30)}
        candidates |= set(every) | {"", "x", " 0"}
        for move in sorted(candidates - legal):
            try:
                game.play(state, move)
            except IllegalMove as error:
                if repr(move) not in str(error) or not error.reason:
                    yield f"the IllegalMove for {move!r} does not name the move and a reason: {error}"
                    return
            except Exception as error:  # noqa: BLE001 (what a game raises is what is reported)
                yield f"play({move!r}) in {game.board(state)!r} raises {type(error).__name__}, not IllegalMove"
                return
            else:
                yield f"play({move!r}) in {game.board(state)!r} is accepted, but it is not a legal move"
                return
            if state != frozen:
                yield f"a refused move {move!r} changed the state"
                return


def check_symmetries(game: Game[Any], states: list[Hashable]) -> Iterator[str]:
    for state in states:
        moves = game.legal_moves(state)
        where = f"in position {game.board(state)!r}"
        for index in range(len(game.symmetries)):
            image = game.transform(state, index)
            if game.to_move(image) != game.to_move(state) or game.winner(image) != game.winner(state):
                yield f"{where}: symmetry {index} changes the side to move or the winner"
            if game.legal_moves(image) != sorted(game.transform_move(m, index) for m in moves):
                yield f"{where}: symmetry {index} does not map the legal moves onto the image's"
            for move in moves[:3]:
                if game.transform(game.play(state, move), index) != game.play(image, game.transform_move(move, index)):
                    yield f"{where}: symmetry {index} of the play {move!r} is not the play of its image"
        canonical, used = game.canonical(state)
        if canonical != game.transform(state, used):
            yield f"{where}: canonical() does not give the image of the symmetry it names"
        least = min(game.board(game.transform(state, k)) for k in range(len(game.symmetries)))
        if game.board(canonical) != least:
            yield f"{where}: canonical() is not the least image by board"


def check_winning_squares(game: Game[Any], states: list[Hashable]) -> Iterator[str]:
    for state in states:
        squares, winner = game.winning_squares(state), game.winner(state)
        board = game.board(state)
        if winner is None and squares:
            yield f"in position {board!r}: winning squares {squares} but no winner"
        elif winner is not None and (
            list(squares) != sorted(set(squares)) or {board[sq] for sq in squares} - {game.symbols[winner]}
        ):
            yield f"in position {board!r}: the winning squares {squares} are not sorted squares of the winner's"


CHECKS: tuple[tuple[str, Callable[..., Iterator[str]]], ...] = (
    ("facts", check_facts),
    ("states", check_states),
    ("illegal moves", check_illegal_moves),
    ("symmetries", check_symmetries),
    ("winning squares", check_winning_squares),
)


def problems(game: Game[Any], states: list[Hashable] | None = None) -> list[str]:
    """What ``game`` breaks of the contract's invariants, ``check: problem`` one a line (each kind
    once, at most :data:`MOST_PER_CHECK` kinds a check), over ``states`` (default: :func:`sample_states`).  A check
    that raises is reported as what it raised."""
    found: list[str] = []
    if states is None:
        try:
            states = sample_states(game)
        except Exception as error:  # noqa: BLE001 (a game that cannot play is the first problem)
            return [f"random games: {type(error).__name__}: {error}"]
    for name, check in CHECKS:
        kinds: set[str] = set()
        try:
            runs = check(game) if name == "facts" else check(game, states)
            for problem in runs:
                kind = re.sub(
                    r"'[^']*'|\[[^\]]*\]|\d+", "", problem
                )  # the problem without its position, moves, numbers
                if kind in kinds:
                    continue
                kinds.add(kind)
                found.append(f"{name}: {problem}")
                if len(kinds) >= MOST_PER_CHECK:
                    break
        except Exception as error:  # noqa: BLE001
            found.append(f"{name}: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}")
    return found


__all__ = ["CHECKS", "check_facts", "problems", "sample_states"]
