"""Teeko (John Scarne, 1937) on bitboards.

A board is two 25-bit integers, one per side; square ``rc`` (row r, column c, 0..4 from the top
left) is bit ``5*r + c``.  X (player 0) moves first.  Each side puts down 4 pawns, one at a time
(plies 1-8); then a move steps one own pawn to a free square among its 8 neighbours.  Four in a
row (across, down, diagonal) or on the four squares of a 2x2 block wins: 28 lines + 16 blocks = 44
winning sets, kept as masks in gamelearn.games.teeko_board with the other tables of the board
(Despotović 1999).

Notation: a placement is ``rc``; a step is ``rcRC`` (from, to).  The state keeps whose turn it is,
since in the moving phase the board alone does not tell.

Pure Python, no dependency: the solver and the thesis player build numba kernels over the same
masks in their own layers.
"""

from __future__ import annotations

from .base import Game, GameFacts, IllegalMove, invert
from .teeko_board import (
    _PAWN_SQUARES,
    BLOCK_MASKS,
    FULL,
    KING_STEPS,
    LINE_MASKS,
    LOW_BITS,
    LOW_MASK,
    NEIGHBOUR_WINDOWS,
    NEIGHBOURS,
    PAWNS,
    PLACEMENTS,
    SIZE,
    SQUARE_NAMES,
    SQUARES,
    STEP_TARGETS,
    STEPS,
    SYMMETRIES,
    SYMMETRY_NAMES,
    WIN_MASKS,
    WIN_SET,
    StepTables,
    TeekoState,
    _bits,
    _by_rows,
    _free_squares,
    _new_state,
    _pawn_squares,
    has_four,
    permute_bits,
    square_name,
    symmetry_tables,
)
from .teeko_forms import (
    CENTRE_SQUARE,
    TEEKO_OPTIONS,
    TeekoForm,
    choosers,
    goal_masks,
    published_value,
    step_masks,
)

#: The board's names (gamelearn.games.teeko_board) are importable from here too.
__all__ = [
    "Teeko",
    "BLOCK_MASKS",
    "FULL",
    "KING_STEPS",
    "LINE_MASKS",
    "LOW_BITS",
    "LOW_MASK",
    "NEIGHBOUR_WINDOWS",
    "NEIGHBOURS",
    "PAWNS",
    "PLACEMENTS",
    "SIZE",
    "SQUARE_NAMES",
    "SQUARES",
    "STEP_TARGETS",
    "STEPS",
    "SYMMETRIES",
    "SYMMETRY_NAMES",
    "WIN_MASKS",
    "WIN_SET",
    "StepTables",
    "TeekoState",
    "has_four",
    "permute_bits",
    "square_name",
    "symmetry_tables",
]


def _parse_board(board: str) -> tuple[int, int]:
    """X's and O's squares, as masks, from 25 characters of '.', 'X' and 'O' (row-major)."""
    if not isinstance(board, str) or len(board) != SQUARES or set(board) - set(".XO"):
        raise ValueError(f"a Teeko board is 25 characters of '.', 'X' and 'O', not {board!r}")
    x = o = 0
    for sq, ch in enumerate(board):
        if ch == "X":
            x |= 1 << sq
        elif ch == "O":
            o |= 1 << sq
    return x, o


class Teeko(Game[TeekoState]):
    """Teeko in any of its forms (gamelearn.games.teeko_forms): ``Teeko()`` is Standard Teeko,
    ``Teeko(goals="advanced", drops="saaa", centre="off", steps="knight")`` a form of Scarne's book.
    Every form is called ``teeko`` (``game.name``); ``game.spec`` names the form, ``game.form`` holds
    its options.

    In a drop round whose letter is ``a``, the side to move is the one that *chooses* the square
    (the pawn's owner's opponent); whose pawn is dropped is told by the board (X's when both sides
    have as many pawns down, else O's).  Once a side has four, the side to move is the other one,
    the loser, in every form.
    """

    game_options = TEEKO_OPTIONS
    symmetries = SYMMETRIES
    _inverse = tuple(invert(p) for p in SYMMETRIES)

    def __init__(self, goals: str = "standard", drops: str = "ssss", centre: str = "on", steps: str = "king") -> None:
        self.form = TeekoForm(goals, drops, centre, steps)
        self.facts = GameFacts(
            name="teeko",
            players=2,
            rows=SIZE,
            columns=SIZE,
            symbols=("X", "O"),
            symmetry_names=SYMMETRY_NAMES,
            can_cycle=True,
            # Guy Steele, 1998: Standard Teeko is a draw with best play; the other forms as published.
            value_of_start=published_value(self.form),
            options=self.form.options(),
        )
        self.win_masks: tuple[int, ...] = WIN_MASKS if goals == "standard" else goal_masks(goals)
        #: A side has at most 4 pawns, so it has won exactly when its pawns *are* a goal: one hash
        #: lookup instead of a test a mask (this is the hot path).
        self.win_set: frozenset[int] = WIN_SET if goals == "standard" else frozenset(self.win_masks)
        self.neighbours: tuple[int, ...] = NEIGHBOURS if steps == "king" else step_masks(steps)
        self.step_tables = KING_STEPS if steps == "king" else StepTables(self.neighbours)
        self.can_be_hemmed_in = steps == "knight"
        #: chooser[placed]: the side to move with ``placed`` pawns down and no four (8: X steps first).
        self.chooser = choosers(drops)
        #: forbidden[placed]: squares the next pawn may not take (the centre for the first, centre=off).
        self.forbidden = tuple((1 << CENTRE_SQUARE) if placed == 0 and centre == "off" else 0 for placed in range(9))

    @property
    def spec(self) -> str:
        return self.form.spec

    def __reduce__(self) -> tuple[object, tuple[str, str, str, str]]:
        return (Teeko, (self.form.goals, self.form.drops, self.form.centre, self.form.steps))

    def initial(self) -> TeekoState:
        return TeekoState(0, 0, self.chooser[0])

    def to_move(self, state: TeekoState) -> int:
        return state.to_move

    @staticmethod
    def placing(state: TeekoState) -> bool:
        """True while pawns are still being put down (fewer than 8 on the board)."""
        return (state.x | state.o).bit_count() < 2 * PAWNS

    def pawn_side(self, state: TeekoState) -> int:
        """Whose pawn the next ply moves or drops: while placing, X's when both sides have as many
        pawns down, else O's (whoever chooses the square); then the side to move's."""
        placed = (state.x | state.o).bit_count()
        return placed % 2 if placed < 2 * PAWNS else state.to_move

    def legal_moves(self, state: TeekoState) -> list[str]:
        x, o, mover = state
        win_set = self.win_set
        if x in win_set or o in win_set:
            return []
        occupied = x | o
        placed = occupied.bit_count()
        if placed < 2 * PAWNS:
            return _free_squares(occupied | self.forbidden[placed])
        moves: list[str] = []
        own = o if mover else x
        tables = self.step_tables
        padded = occupied << tables.pad
        window, free = tables.window, tables.free
        sources = _PAWN_SQUARES.get(own) or _pawn_squares(own)
        for src in sources:  # sources in increasing square order, then targets: the list comes out sorted
            taken = (padded >> src) & window[src]
            steps = free[src].get(taken)
            moves.extend(steps if steps is not None else tables.free_steps(src, taken))
        return moves

    def play(self, state: TeekoState, move: str) -> TeekoState:
        x, o, mover = state
        occupied = x | o
        win_set = self.win_set
        # Fast path for the moves the rules allow; anything else goes to parse_move for the reason.
        placed = occupied.bit_count()
        if placed < 2 * PAWNS:
            dst = PLACEMENTS.get(move) if isinstance(move, str) else None
            if (
                dst is not None
                and not (occupied | self.forbidden[placed]) >> dst & 1
                and x not in win_set
                and o not in win_set
            ):
                return self._dropped(x, o, placed, dst)
        else:
            step = self.step_tables.steps.get(move) if isinstance(move, str) else None
            if step is not None:
                src, dst = step
                own = o if mover else x
                if own >> src & 1 and not occupied >> dst & 1 and x not in win_set and o not in win_set:
                    own ^= (1 << src) | (1 << dst)
                    return _new_state((own, o, 1) if mover == 0 else (x, own, 0))
        # Only an illegal move gets here, and parse_move raises IllegalMove with the reason; were it
        # to accept one, the move is applied the slow way (tests check both paths agree).
        source, target = self.parse_move(state, move)
        if source is None:
            return self._dropped(x, o, placed, target)
        own = (o if mover else x) ^ (1 << source) | (1 << target)
        return TeekoState(own, o, 1) if mover == 0 else TeekoState(x, own, 0)

    def _dropped(self, x: int, o: int, placed: int, dst: int) -> TeekoState:
        """The state after the pawn of the side whose turn it is to drop goes on ``dst``: the next
        chooser moves, unless the pawn made four, when the loser is to move."""
        if placed % 2 == 0:
            x |= 1 << dst
            return _new_state((x, o, 1 if x in self.win_set else self.chooser[placed + 1]))
        o |= 1 << dst
        return _new_state((x, o, 0 if o in self.win_set else self.chooser[placed + 1]))

    def parse_move(self, state: TeekoState, move: str) -> tuple[int | None, int]:
        """Check ``move`` in ``state``: (source square or None for a placement, target square).

        Raises IllegalMove naming the move and the first rule it breaks.
        """
        if not isinstance(move, str) or len(move) not in (2, 4) or not move.isascii() or not move.isdigit():
            raise IllegalMove(move, "not a Teeko move: write rc to place a pawn or rcRC to step (rows and columns 0-4)")
        if any(ch > "4" for ch in move):
            raise IllegalMove(move, "off the board: rows and columns run from 0 to 4")
        if self.winner(state) is not None:
            raise IllegalMove(move, "the game is over")
        occupied = state.x | state.o
        dst = int(move[-2]) * SIZE + int(move[-1])
        symbol = self.symbols[state.to_move]
        if len(move) == 2:
            if not self.placing(state):
                raise IllegalMove(move, "wrong phase: all 8 pawns are down, step a pawn with rcRC")
            if occupied >> dst & 1:
                raise IllegalMove(move, f"square {move} is occupied")
            if self.forbidden[occupied.bit_count()] >> dst & 1:
                raise IllegalMove(move, "the first pawn may not go on the centre square (centre=off)")
            return None, dst
        src = int(move[0]) * SIZE + int(move[1])
        if self.placing(state):
            raise IllegalMove(move, "wrong phase: pawns are still being placed, put one down with rc")
        if not state.pawns(state.to_move) >> src & 1:
            raise IllegalMove(move, f"no {symbol} pawn on {move[:2]}")
        if occupied >> dst & 1:
            raise IllegalMove(move, f"square {move[2:]} is occupied")
        if not self.neighbours[src] >> dst & 1:
            if self.form.steps == "knight":
                raise IllegalMove(move, f"not a knight's jump: {move[2:]} is not a knight's move from {move[:2]}")
            raise IllegalMove(move, f"too far: {move[2:]} is not next to {move[:2]}")
        return src, dst

    def has_four(self, bits: int) -> bool:
        """True if the pawns in ``bits`` cover one of this form's goals."""
        if bits.bit_count() == PAWNS:
            return bits in self.win_set
        return bits.bit_count() > PAWNS and any(bits & mask == mask for mask in self.win_masks)

    def winner(self, state: TeekoState) -> int | None:
        if state[0] in self.win_set:
            return 0
        if state[1] in self.win_set:
            return 1
        return None

    def winning_squares(self, state: TeekoState) -> tuple[int, ...]:
        """The goal of this form the winner's four pawns make (a line, a block or, in Advanced
        Teeko, the corners of a larger square)."""
        winner = self.winner(state)
        if winner is None:
            return ()
        pawns = state[winner]
        goal = next((mask for mask in self.win_masks if pawns & mask == mask), 0)
        return tuple(_bits(goal))

    def is_over(self, state: TeekoState) -> bool:
        win_set = self.win_set
        if state[0] in win_set or state[1] in win_set:
            return True
        # A knight can be hemmed in (four corner pawns, their four targets taken): a side with no
        # move ends the game drawn, as the solver counts it.  A king always has a free square.
        return self.can_be_hemmed_in and not self.placing(state) and not self.legal_moves(state)

    def end_reason(self, state: TeekoState) -> str:
        winner = self.winner(state)
        if winner is None:
            return ""
        squares = [sq for sq in range(SQUARES) if state[winner] >> sq & 1]
        rows, columns = {sq // SIZE for sq in squares}, {sq % SIZE for sq in squares}
        if len(rows) == len(columns) == 2:
            span = max(rows) - min(rows)
            shape = "on a 2x2 square" if span == 1 else f"on the corners of a {span + 1}x{span + 1} square"
        else:
            shape = "in a row"
        return f"{self.symbols[winner]} has four {shape}"

    def board(self, state: TeekoState) -> str:
        chars = []
        for sq in range(SQUARES):
            bit = 1 << sq
            chars.append("X" if state.x & bit else "O" if state.o & bit else ".")
        return "".join(chars)

    def from_board(self, board: str, to_move: int) -> TeekoState:
        if to_move not in (0, 1):
            raise ValueError(f"to_move must be 0 (X) or 1 (O), not {to_move!r}")
        x, o = _parse_board(board)
        self._check_reachable(x, o, to_move)
        return TeekoState(x, o, to_move)

    def _check_reachable(self, x: int, o: int, to_move: int) -> None:
        """ValueError unless some game of this form reaches X on ``x`` and O on ``o`` with
        ``to_move`` to move: pawn counts, turn order, at most one four, the centre rule."""
        nx, no = x.bit_count(), o.bit_count()
        placing = nx + no < 2 * PAWNS
        if nx > PAWNS or no > PAWNS:
            raise ValueError(f"each side has at most 4 pawns; this board has {nx} X and {no} O")
        if placing and nx not in (no, no + 1):
            raise ValueError(f"placing alternates from X: {nx} X and {no} O cannot happen")
        x_four, o_four = self.has_four(x), self.has_four(o)
        if x_four and o_four:
            raise ValueError("both sides have four: no game reaches this board")
        if (x_four and to_move == 0) or (o_four and to_move == 1):
            raise ValueError("the side that has just made four cannot be the side to move")
        if placing and not (x_four or o_four) and to_move != self.chooser[nx + no]:
            raise ValueError(f"with {nx} X and {no} O on the board it is {self.symbols[self.chooser[nx + no]]} to move")
        if self.forbidden[0] & (x | o) and nx + no == 1:
            raise ValueError("the first pawn may not be on the centre square (centre=off)")

    def transform(self, state: TeekoState, symmetry: int) -> TeekoState:
        tables = symmetry_tables()[0][symmetry]
        return _new_state((_by_rows(state[0], tables), _by_rows(state[1], tables), state[2]))

    def canonical(self, state: TeekoState) -> tuple[TeekoState, int]:
        """As :meth:`Game.canonical` (the least image by board, the first symmetry giving it): each
        image's board is compared as a number, 5 look-ups a side, and only the least is made."""
        x, o, to_move = state
        images, order = symmetry_tables()
        best_key = -1
        best_index = 0
        for index, tables in enumerate(order):
            key = 2 * _by_rows(x, tables) + _by_rows(o, tables)
            if key < best_key or best_key < 0:
                best_key, best_index = key, index
        tables = images[best_index]
        return _new_state((_by_rows(x, tables), _by_rows(o, tables), to_move)), best_index

    def transform_move(self, move: str, symmetry: int) -> str:
        perm = self.symmetries[symmetry]
        out = []
        for k in range(0, len(move), 2):
            sq = perm[int(move[k]) * SIZE + int(move[k + 1])]
            out.append(square_name(sq))
        return "".join(out)

    def render(self, state: TeekoState) -> str:
        cells = self.board(state)
        lines = ["  0 1 2 3 4"]
        for r in range(SIZE):
            lines.append(f"{r} " + " ".join(cells[r * SIZE : (r + 1) * SIZE]))
        return "\n".join(lines)

    def rules_text(self) -> str:
        form = self.form
        placing = "1. Placing: in turn, each player puts one pawn on any free square, until all 8 are down."
        if "a" in form.drops:
            rounds = ", ".join(str(k + 1) for k, letter in enumerate(form.drops) if letter == "a")
            placing += f" In drop round {rounds} (each side's drop of that number) the OPPONENT chooses the square."
        if form.centre == "off":
            placing += " The first pawn dropped may not go on the centre square (22)."
        if form.steps == "knight":
            moving = (
                "2. Moving: in turn, each player jumps one of their pawns to a free square a chess knight's move "
                "away. A player who has no jump ends the game drawn."
            )
        else:
            moving = (
                "2. Moving: in turn, each player steps one of their pawns to a free square next to it, "
                "in any of the 8 directions."
            )
        goals = "squares of a 2x2 block"
        if form.goals == "advanced":
            goals += ", or on the four corners of any larger square (3x3, 4x4, 5x5),"
        lines = [
            "Teeko (John Scarne, 1937)" + ("" if form.is_standard else f": {form.describe()} ({form.spec})"),
            "Two players, X and O, with four pawns each, on a 5x5 board. "
            + ("X begins." if form.drops[0] == "s" else "X's pawn goes down first, where O chooses."),
            placing,
            moving,
            f"Whoever first has four pawns in a row (across, down or diagonally) or on the four {goals} wins.",
            "Notation: squares are rc, row then column, 0-4 from the top left (22 is the middle). "
            "Place with rc (e.g. 22); step with rcRC, from and to (e.g. 2223).",
            "A position repeated for the third time, or the ply limit, ends the game as a draw.",
        ]
        return "\n".join(lines)
