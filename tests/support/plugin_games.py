"""Games of another author defined in the tests, kept to the public contract alone (docs/own-game.md)."""

from __future__ import annotations

from gamelearn import Game, GameFacts, IllegalMove

Cells = tuple[int, ...]


class GravityThree(Game[Cells]):
    """Three in a row on a 3x3 board with gravity: a disc dropped into a column that is not full
    falls to its lowest empty square; three of one's own discs in a line wins, a full board without
    one is a draw.  Squares 0-8 along the rows from the top; a move is the square where the disc
    lands.  A state is the 9 cells, 0 empty, 1 X, 2 O."""

    facts = GameFacts(
        name="gravity3",
        players=2,
        rows=3,
        columns=3,
        symbols=("X", "O"),
        symmetry_names=("identity", "mirror"),
        can_cycle=False,
        value_of_start=None,
    )
    symmetries = (tuple(range(9)), (2, 1, 0, 5, 4, 3, 8, 7, 6))
    LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))

    def initial(self) -> Cells:
        return (0,) * 9

    def to_move(self, state: Cells) -> int:
        return 0 if state.count(1) == state.count(2) else 1

    def winner(self, state: Cells) -> int | None:
        for a, b, c in self.LINES:
            if state[a] and state[a] == state[b] == state[c]:
                return state[a] - 1
        return None

    def is_over(self, state: Cells) -> bool:
        return self.winner(state) is not None or 0 not in state

    def legal_moves(self, state: Cells) -> list[str]:
        if self.is_over(state):
            return []
        lowest = [max((r * 3 + c for r in range(3) if not state[r * 3 + c]), default=None) for c in range(3)]
        return sorted(str(square) for square in lowest if square is not None)

    def play(self, state: Cells, move: str) -> Cells:
        if move not in self.legal_moves(state):
            raise IllegalMove(move, "a disc lands on the lowest empty square of a column, while the game is on")
        cells = list(state)
        cells[int(move)] = 1 + self.to_move(state)
        return tuple(cells)

    def board(self, state: Cells) -> str:
        return "".join(".XO"[cell] for cell in state)

    def from_board(self, board: str, to_move: int) -> Cells:
        if len(board) != 9 or set(board) - set(".XO"):
            raise ValueError(f"a gravity3 board is 9 characters of '.', 'X' and 'O', not {board!r}")
        state = tuple(".XO".index(ch) for ch in board)
        if any(state[square] and not state[square + 3] for square in range(6)):
            raise ValueError("a disc above an empty square would fall")
        if state.count(1) - state.count(2) not in (0, 1) or to_move != self.to_move(state):
            raise ValueError("X moves first and the players alternate: no game reaches this board and side")
        return state

    def transform(self, state: Cells, symmetry: int) -> Cells:
        cells = [0] * 9
        for square, image in enumerate(self.symmetries[symmetry]):
            cells[image] = state[square]
        return tuple(cells)

    def transform_move(self, move: str, symmetry: int) -> str:
        return str(self.symmetries[symmetry][int(move)])

    def winning_squares(self, state: Cells) -> tuple[int, ...]:
        for line in self.LINES:
            if state[line[0]] and state[line[0]] == state[line[1]] == state[line[2]]:
                return line
        return ()

    def rules_text(self) -> str:
        return "Three in a row on a 3x3 board with gravity: a disc falls to the lowest empty square of its column."


Heap = tuple[int, int]  # (counters left, side to move)


class TakeAway(Game[Heap]):
    """A heap of 7 counters; a move takes 1 or 2 and whoever takes the last one wins.  Its board
    shows the counters left as A's pieces, so a board does not say whose move it is."""

    facts = GameFacts(
        name="takeaway",
        players=2,
        rows=1,
        columns=7,
        symbols=("A", "B"),
        symmetry_names=("identity",),
        can_cycle=False,
        value_of_start=None,
    )
    symmetries = (tuple(range(7)),)

    def initial(self) -> Heap:
        return (7, 0)

    def to_move(self, state: Heap) -> int:
        return state[1]

    def legal_moves(self, state: Heap) -> list[str]:
        return [str(n) for n in (1, 2) if n <= state[0]]

    def play(self, state: Heap, move: str) -> Heap:
        if move not in self.legal_moves(state):
            raise IllegalMove(move, "take 1 or 2 counters, no more than are left")
        return (state[0] - int(move), 1 - state[1])

    def winner(self, state: Heap) -> int | None:
        return 1 - state[1] if state[0] == 0 else None

    def is_over(self, state: Heap) -> bool:
        return state[0] == 0

    def board(self, state: Heap) -> str:
        return "A" * state[0] + "." * (7 - state[0])

    def from_board(self, board: str, to_move: int) -> Heap:
        return (board.count("A") + board.count("B"), to_move)

    def transform(self, state: Heap, symmetry: int) -> Heap:
        return state

    def transform_move(self, move: str, symmetry: int) -> str:
        return move

    def rules_text(self) -> str:
        return "Take 1 or 2 of 7 counters; whoever takes the last wins."


class SidedTakeAway(TakeAway):
    """TakeAway with the counters shown as the pieces of the side to move: the board tells the
    position.  A position is reached in more than one number of plies ((1, A to move): 2 + 2 + 2
    or 1 + 1 + 2 + 2), so a breadth-first numbering meets some children before their parents."""

    facts = GameFacts(
        name="sidedtakeaway",
        players=2,
        rows=1,
        columns=7,
        symbols=("A", "B"),
        symmetry_names=("identity",),
        can_cycle=False,
        value_of_start=None,
    )

    def board(self, state: Heap) -> str:
        return "AB"[state[1]] * state[0] + "." * (7 - state[0])
