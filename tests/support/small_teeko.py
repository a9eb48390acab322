"""A small Teeko's rules written plainly, for the oracles of the Teeko solver's tests (the 4x4 board
of tests/solver/test_solve_teeko.py and its forms, and the perfect player's tests): any variant's
board, pawns and goals, with no bit tricks beyond reading the variant's masks."""

from __future__ import annotations

from gamelearn.games import IllegalMove
from gamelearn.games.base import Game, GameFacts
from gamelearn.games.teeko import TeekoState
from gamelearn.solver.variant import Variant


class SmallTeeko(Game[TeekoState]):
    """The rules of a Teeko variant, written plainly for the oracle (rc notation, as Teeko)."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.facts = GameFacts(variant.name, 2, variant.rows, variant.columns, ("X", "O"), (), True, 0)
        self.symmetries = variant.symmetries

    def name_of(self, square: int) -> str:
        return f"{square // self.variant.columns}{square % self.variant.columns}"

    def initial(self) -> TeekoState:
        return TeekoState(0, 0, 0)

    def to_move(self, state: TeekoState) -> int:
        return state.to_move

    def winner(self, state: TeekoState) -> int | None:
        if self.variant.has_four(state.x):
            return 0
        if self.variant.has_four(state.o):
            return 1
        return None

    def is_over(self, state: TeekoState) -> bool:
        return self.winner(state) is not None

    def legal_moves(self, state: TeekoState) -> list[str]:
        if self.is_over(state):
            return []
        n = self.variant.squares
        occupied = state.x | state.o
        own = state.o if state.to_move else state.x
        if own.bit_count() < self.variant.pawns:
            return [self.name_of(sq) for sq in range(n) if not occupied >> sq & 1]
        return [
            self.name_of(src) + self.name_of(dst)
            for src in range(n)
            if own >> src & 1
            for dst in range(n)
            if self.variant.neighbours[src] >> dst & 1 and not occupied >> dst & 1
        ]

    def play(self, state: TeekoState, move: str) -> TeekoState:
        if move not in self.legal_moves(state):
            raise IllegalMove(move, "not legal here")
        cols = self.variant.columns
        own = state.o if state.to_move else state.x
        dst = int(move[-2]) * cols + int(move[-1])
        if len(move) == 4:
            own ^= 1 << (int(move[0]) * cols + int(move[1]))
        own |= 1 << dst
        return TeekoState(state.x, own, 0) if state.to_move else TeekoState(own, state.o, 1)

    def board(self, state: TeekoState) -> str:
        return "".join(
            "X" if state.x >> sq & 1 else "O" if state.o >> sq & 1 else "." for sq in range(self.variant.squares)
        )

    def from_board(self, board: str, to_move: int) -> TeekoState:
        raise NotImplementedError

    def transform(self, state: TeekoState, symmetry: int) -> TeekoState:
        raise NotImplementedError

    def transform_move(self, move: str, symmetry: int) -> str:
        raise NotImplementedError

    def rules_text(self) -> str:
        return ""
