"""The forms of Teeko on the small Teeko of test_solve_teeko (4x4 board, three pawns each,
three in a row wins): every drop pattern (s: the owner chooses the square, a: the opponent does)
and both centre rules, solved by the kernels and checked position by position against a plain
minimax written here, in which the side that chooses a square maximises the first player's result
or minimises it.  And the goal sets of the real board, against lists written out by hand."""

from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path

import pytest
from test_solve_teeko import oracle_moving

from gamelearn.games import IllegalMove
from gamelearn.games.teeko import TeekoState
from gamelearn.solver import Grade
from gamelearn.solver.table import build_layers, build_moving, open_table, write_table
from gamelearn.solver.teeko import TableSolution
from gamelearn.solver.variant import Variant, small_variant
from small_teeko import SmallTeeko

pytestmark = pytest.mark.slow  # retrograde solves of small Teeko boards against plain minimax

PAWNS = 3
PATTERNS = ["".join(letters) for letters in itertools.product("sa", repeat=PAWNS)]
#: The centre of the 4x4 board: its four middle squares (11, 12, 21, 22).
CENTRE = (1 << 5) | (1 << 6) | (1 << 9) | (1 << 10)

Result = tuple[int, int | None]


def rank(result: Result) -> tuple[int, int]:
    """Larger is better for the first player (X): wins sooner, then draws, then losses later."""
    value, distance = result
    return (2, -distance) if value > 0 else (0, distance) if value < 0 else (1, 0)  # type: ignore[operator]


def chooser(pattern: str, placed: int) -> int:
    owner = placed % 2  # pawns go down X, O, X, O, ...
    return owner if pattern[placed // 2] == "s" else 1 - owner


def oracle_placing(variant: Variant, pattern: str, centre: bool, moving: dict) -> dict[tuple[int, int], Result]:
    """Every placing position (X's pawns, O's pawns) reachable from the start, valued for X by plain
    minimax: X, when it chooses the square, takes the best result for X; O takes the worst."""
    n = variant.squares
    full = (1 << n) - 1
    memo: dict[tuple[int, int], Result] = {}
    # Whether a set of pawns holds a row depends on the set alone: each set is looked at once, not
    # at every one of the million visits that meet it (a few hundred sets on the small board).
    four = cache(variant.has_four)

    def for_x(x: int, o: int) -> Result:
        if (x, o) in memo:  # a position kept is one still being placed: no row, not all down
            return memo[(x, o)]
        if four(x):
            return (1, 0)
        if four(o):
            return (-1, 0)
        placed = (x | o).bit_count()
        if placed == 2 * PAWNS:
            return moving[(x, o)]  # X steps first: its own view is X's
        options = []
        forbidden = CENTRE if placed == 0 and not centre else 0
        for sq in range(n):
            if (full & ~(x | o | forbidden)) >> sq & 1:
                child = for_x(x | 1 << sq, o) if placed % 2 == 0 else for_x(x, o | 1 << sq)
                value, distance = child
                options.append((value, None if distance is None else distance + 1))
        pick = max if chooser(pattern, placed) == 0 else min
        memo[(x, o)] = pick(options, key=rank)
        return memo[(x, o)]

    for_x(0, 0)
    return memo


class SmallForm(SmallTeeko):
    """The small Teeko's rules with a drop pattern and the centre rule, written plainly."""

    def __init__(self, variant: Variant, pattern: str, centre: bool) -> None:
        super().__init__(variant)
        self.pattern, self.centre = pattern, centre

    def initial(self) -> TeekoState:
        return TeekoState(0, 0, chooser(self.pattern, 0))

    def legal_moves(self, state: TeekoState) -> list[str]:
        placed = (state.x | state.o).bit_count()
        if self.is_over(state) or placed == 2 * PAWNS:
            return super().legal_moves(state)
        blocked = state.x | state.o | (CENTRE if placed == 0 and not self.centre else 0)
        return [self.name_of(sq) for sq in range(self.variant.squares) if not blocked >> sq & 1]

    def play(self, state: TeekoState, move: str) -> TeekoState:
        placed = (state.x | state.o).bit_count()
        if placed == 2 * PAWNS:
            return super().play(state, move)
        if move not in self.legal_moves(state):
            raise IllegalMove(move, "not legal here")
        bit = 1 << (int(move[0]) * self.variant.columns + int(move[1]))
        x, o = (state.x | bit, state.o) if placed % 2 == 0 else (state.x, state.o | bit)
        if self.variant.has_four(x if placed % 2 == 0 else o):
            return TeekoState(x, o, 1 - placed % 2)  # the loser is to move
        return TeekoState(x, o, chooser(self.pattern, placed + 1) if placed + 1 < 2 * PAWNS else 0)


@cache
def moving_oracle() -> dict:
    return oracle_moving(small_variant(4, 4, PAWNS))


@cache
def oracle(pattern: str, centre: bool) -> dict[tuple[int, int], Result]:
    return oracle_placing(small_variant(4, 4, PAWNS, pattern, centre), pattern, centre, moving_oracle())


@pytest.fixture(scope="module")
def moving_phase() -> tuple:
    return build_moving(small_variant(4, 4, PAWNS)), moving_oracle()


@pytest.mark.parametrize("centre", [True, False], ids=["centre=on", "centre=off"])
@pytest.mark.parametrize("pattern", PATTERNS)
def test_every_placing_position_matches_plain_minimax(
    pattern: str, centre: bool, moving_phase: tuple, tmp_path: Path
) -> None:
    built, moving = moving_phase
    variant = small_variant(4, 4, PAWNS, pattern, centre)
    assert variant.first_forbidden == (0 if centre else CENTRE)
    layers, facts = build_layers(variant, moving=built)
    path = tmp_path / "form.table"
    write_table(variant, layers, facts, path)
    stored, header = open_table(variant, path)
    solution = TableSolution(SmallForm(variant, pattern, centre), variant, stored, header)
    expected = oracle(pattern, centre)
    assert len(expected) > 5000
    wrong = []
    for (x, o), (value, distance) in expected.items():
        mover = chooser(pattern, (x | o).bit_count())
        state = TeekoState(x, o, mover)
        want = (value, distance) if mover == 0 else (-value, distance)
        if solution.outcome(state) != want:
            wrong.append((x, o, want, solution.outcome(state)))
    assert wrong == []


def test_the_centre_rule_and_the_drops_change_results_on_the_small_board(moving_phase: tuple) -> None:
    """The oracle is not blind to the options: on the small board they change the start's value."""
    starts = {(pattern, centre): oracle(pattern, centre)[(0, 0)] for pattern in PATTERNS for centre in (True, False)}
    assert len(set(starts.values())) > 1


def test_best_moves_and_grades_in_alternate_drops_follow_the_values(moving_phase: tuple, tmp_path: Path) -> None:
    """In an a-round the chooser places the opponent's pawn, and may choose twice in a row: the
    grade of a move reads the child's value for the side that chose it, flipped only when the other
    side is to move next."""
    built, moving = moving_phase
    pattern = "ass"
    variant = small_variant(4, 4, PAWNS, pattern)
    layers, facts = build_layers(variant, moving=built)
    path = tmp_path / "ass.table"
    write_table(variant, layers, facts, path)
    stored, header = open_table(variant, path)
    game = SmallForm(variant, pattern, True)
    solution = TableSolution(game, variant, stored, header)
    state = game.play(game.initial(), "00")  # O chose X's first pawn; X now chooses O's ...
    assert game.to_move(state) == 0
    after = game.play(state, "33")
    assert game.to_move(after) == 0  # ... and then its own: X moves twice
    checked = 0
    for position in (state, after):
        value, distance = solution.outcome(position)
        best = solution.best_moves(position)
        assert best
        for row in solution.analyze(position):
            child = game.play(position, row.move)
            child_value, _ = solution.outcome(child)
            same = game.to_move(child) == game.to_move(position)
            assert row.value == (child_value if same else -child_value)
            drop = value - row.value
            expected = {2: Grade.BLUNDER, 1: Grade.MISTAKE}.get(drop)
            if expected is None:
                expected = Grade.BEST if row.move in best else Grade.KEEPS
            assert solution.grade(position, row.move) is expected
            checked += 1
        assert max(solution.outcome(game.play(position, m)) == (value, None) for m in best) or value != 0
    assert checked > 20


def test_the_start_of_a_form_agrees_with_the_oracle_through_the_reader(moving_phase: tuple, tmp_path: Path) -> None:
    built, moving = moving_phase
    for pattern in ("aaa", "saa"):
        variant = small_variant(4, 4, PAWNS, pattern, False)
        layers, facts = build_layers(variant, moving=built)
        path = tmp_path / f"{pattern}.table"
        write_table(variant, layers, facts, path)
        stored, header = open_table(variant, path)
        game = SmallForm(variant, pattern, False)
        solution = TableSolution(game, variant, stored, header)
        value, distance = oracle(pattern, False)[(0, 0)]
        mover = game.to_move(game.initial())
        assert solution.outcome(game.initial()) == ((value, distance) if mover == 0 else (-value, distance))
        assert header["moving_phase"] == "reused"
