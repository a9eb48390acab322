"""The Teeko solver on a smaller Teeko (4x4 board, three pawns each, three in a row wins), solved
whole by the same kernels and checked position by position against a plain, independent solver:
forward value iteration over an explicit game graph for the moving phase, memoised negamax for the
placing phase.  The full Teeko build is a command and a benchmark (benchmarks/bench_solve.py)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest

from gamelearn import get_game
from gamelearn.games import IllegalMove
from gamelearn.games.teeko import TeekoState
from gamelearn.solver import Grade
from gamelearn.solver.table import TableError, build_layers, open_table, write_table
from gamelearn.solver.teeko import TableSolution, solve_teeko
from gamelearn.solver.variant import Variant, small_variant, teeko, teeko_form
from small_teeko import SmallTeeko

pytestmark = pytest.mark.slow  # retrograde solves of small Teeko boards against a plain solver


def oracle_moving(variant: Variant) -> dict[tuple[int, int], tuple[int, int | None]]:
    """(value, distance) of every moving-phase position (mover, other) by forward value iteration:
    round r decides the wins in r plies (a successor lost in r - 1) and the losses in r plies (every
    successor won, the last in r - 1); what no round decides is a draw."""
    n, k = variant.squares, variant.pawns
    positions = []
    for a_squares in itertools.combinations(range(n), k):
        a = sum(1 << sq for sq in a_squares)
        if variant.has_four(a):
            continue  # the side to move cannot already have four
        rest = [sq for sq in range(n) if sq not in a_squares]
        for b_squares in itertools.combinations(rest, k):
            positions.append((a, sum(1 << sq for sq in b_squares)))
    ids = {position: number for number, position in enumerate(positions)}
    terminal = np.array([variant.has_four(b) for _, b in positions])
    starts = [0]
    successors: list[int] = []
    for (a, b), done in zip(positions, terminal, strict=True):
        if not done:
            empty = ((1 << n) - 1) & ~(a | b)
            for src in range(n):
                if a >> src & 1:
                    for dst in range(n):
                        if empty >> dst & 1 and variant.neighbours[src] >> dst & 1:
                            successors.append(ids[(b, (a ^ (1 << src)) | (1 << dst))])
        starts.append(len(successors))
    succ = np.array(successors)
    first = np.array(starts[:-1])
    has_moves = np.diff(starts) > 0
    value = np.where(terminal, -1, 0)
    distance = np.where(terminal, 0, -1)
    rounds = 0
    while True:
        rounds += 1
        open_ = (value == 0) & has_moves & ~terminal
        lost_last = (value == -1) & (distance == rounds - 1)
        won = value == 1
        any_lost_last = np.logical_or.reduceat(lost_last[succ], first[has_moves])
        all_won = np.logical_and.reduceat(won[succ], first[has_moves])
        new_win = np.zeros(len(positions), bool)
        new_loss = np.zeros(len(positions), bool)
        new_win[has_moves] = any_lost_last
        new_loss[has_moves] = all_won
        new_win &= open_
        new_loss &= open_ & ~new_win
        if not new_win.any() and not new_loss.any():
            break
        value[new_win], distance[new_win] = 1, rounds
        value[new_loss], distance[new_loss] = -1, rounds
    return {p: (int(v), None if v == 0 else int(d)) for p, v, d in zip(positions, value, distance, strict=True)}


def oracle_placing(
    variant: Variant, moving: dict[tuple[int, int], tuple[int, int | None]]
) -> dict[tuple[int, int], tuple[int, int | None]]:
    """Every placing-phase position by memoised negamax down to the moving phase."""
    n, k = variant.squares, variant.pawns
    memo: dict[tuple[int, int], tuple[int, int | None]] = {}

    def rank(result: tuple[int, int | None]) -> tuple[int, int]:
        v, d = result
        return (2, -d) if v > 0 else (0, d) if v < 0 else (1, 0)  # type: ignore[operator]

    def solve(a: int, b: int) -> tuple[int, int | None]:
        if a.bit_count() == k and b.bit_count() == k:
            return moving[(a, b)]
        if variant.has_four(b):
            return (-1, 0)
        if (a, b) not in memo:
            options = []
            for sq in range(n):
                if not (a | b) >> sq & 1:
                    v, d = solve(b, a | 1 << sq)
                    options.append((-v, None if d is None else d + 1))
            memo[(a, b)] = max(options, key=rank)
        return memo[(a, b)]

    solve(0, 0)
    return memo


SMALL = small_variant(4, 4, 3)


#: Every progress report of the small table's build: (stage, done, total).
BUILD_REPORTS: list[tuple[str, int, int]] = []


@pytest.fixture(scope="module")
def small_build() -> tuple[dict, dict]:
    BUILD_REPORTS.clear()
    return build_layers(SMALL, lambda stage, done, total: BUILD_REPORTS.append((stage, done, total)))


@pytest.fixture(scope="module")
def small_table(tmp_path_factory: pytest.TempPathFactory, small_build: tuple[dict, dict]) -> Path:
    path = tmp_path_factory.mktemp("tables") / "small.table"
    layers, facts = small_build
    write_table(SMALL, layers, facts, path)
    return path


def test_every_stage_of_the_build_knows_its_total_from_its_first_report(small_build: tuple[dict, dict]) -> None:
    """The bar of `gamelearn solve teeko` is honest: each stage's total is there at its first report
    and never changes, the count only goes up, and the last report is the total.  The retrograde
    analysis counts arrangements of the moving phase (C(16,3) x C(13,3) here) settled so far; the
    draws are settled last, when a level resolves nothing."""
    _, facts = small_build
    stages: dict[str, list[tuple[int, int]]] = {}
    for stage, done, total in BUILD_REPORTS:
        stages.setdefault(stage, []).append((done, total))
    assert list(stages) == ["counting moves", "retrograde analysis", "placing phase"]
    for reports in stages.values():
        totals = {total for _, total in reports}
        assert len(totals) == 1, totals
        counts = [done for done, _ in reports]
        assert counts == sorted(counts) and counts[-1] == reports[0][1]
    retrograde = stages["retrograde analysis"]
    arrangements = 560 * 286  # mover sets of 3 of 16 squares, times the other side's 3 of the 13 left
    assert retrograde[0][1] == arrangements
    # one report after level 0 and after each level that resolved something, then the draws
    assert len(retrograde) == len(facts["levels"]) + 2
    assert [b - a for (a, _), (b, _) in zip(retrograde, retrograde[1:-1], strict=False)] == facts["levels"]
    assert retrograde[-1][0] - retrograde[-2][0] == facts["census"]["drawn"]
    assert stages["placing phase"][0][1] == len(SMALL.layers()) - 1


@pytest.fixture(scope="module")
def small_solution(small_table: Path) -> TableSolution:
    layers, header = open_table(SMALL, small_table)
    return TableSolution(SmallTeeko(SMALL), SMALL, layers, header)


@pytest.fixture(scope="module")
def oracle() -> tuple[dict, dict]:
    moving = oracle_moving(SMALL)
    return moving, oracle_placing(SMALL, moving)


def test_real_teeko_masks_are_the_variant_of_5x5_with_four_pawns() -> None:
    assert set(small_variant(5, 5, 4).win_masks) == set(teeko().win_masks)
    assert small_variant(5, 5, 4).neighbours == teeko().neighbours
    assert teeko().layers() == [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4)]


def test_a_set_of_pawns_covers_a_goal_as_the_plain_test_over_every_goal_says() -> None:
    # has_four answers a set as large as a goal by looking it up among the goals; the plain test
    # tries the set against each goal: the same on every set of up to six pawns of the small board
    # and on random sets of Teeko's forms (goals of four, a set larger than a goal included).
    def plain(variant: Variant, bits: int) -> bool:
        return any(bits & goal == goal for goal in variant.win_masks)

    for count in range(7):
        for squares in itertools.combinations(range(SMALL.squares), count):
            bits = sum(1 << square for square in squares)
            assert SMALL.has_four(bits) == plain(SMALL, bits)
    rng = random.Random(5)
    for variant in (teeko(), teeko_form(get_game("teeko:goals=advanced"))):  # type: ignore[arg-type]
        for _ in range(20_000):
            bits = sum(1 << square for square in rng.sample(range(25), rng.randint(0, 6)))
            assert variant.has_four(bits) == plain(variant, bits)


def test_every_moving_position_matches_the_plain_solver(
    small_solution: TableSolution, oracle: tuple[dict, dict]
) -> None:
    moving, _ = oracle
    mismatches = []
    for (a, b), expected in moving.items():
        got = small_solution.outcome(TeekoState(a, b, 0))
        swapped = small_solution.outcome(TeekoState(b, a, 1))  # the same position with O to move
        if got != expected or swapped != expected:
            mismatches.append(((a, b), expected, got, swapped))
    assert not mismatches[:5]
    values = [v for v, _ in moving.values()]
    assert values.count(0) and values.count(1) and values.count(-1)  # all three outcomes occur


def test_every_placing_position_matches_the_plain_solver(
    small_solution: TableSolution, oracle: tuple[dict, dict]
) -> None:
    _, placing = oracle
    assert len(placing) > 1000
    for (a, b), expected in placing.items():
        to_move = 0 if a.bit_count() == b.bit_count() else 1
        state = TeekoState(a, b, 0) if to_move == 0 else TeekoState(b, a, 1)
        assert small_solution.outcome(state) == expected, (a, b)


def test_census_from_the_stored_rows_matches_the_plain_solver(
    small_solution: TableSolution, small_table: Path, oracle: tuple[dict, dict]
) -> None:
    moving, _ = oracle
    census = small_solution.census()
    live = [(v, d) for (a, b), (v, d) in moving.items() if d != 0]
    assert census.won == sum(v > 0 for v, _ in live)
    assert census.lost == sum(v < 0 for v, _ in live)
    assert census.drawn == sum(v == 0 for v, _ in live)
    assert census.longest_win == max(d for v, d in live if v > 0)
    assert small_solution.header["census"] == census.to_dict()  # the build's own count agrees


def test_best_moves_and_grades_follow_the_values(small_solution: TableSolution) -> None:
    game = small_solution.game
    state = game.initial()
    for move in ["11", "12", "21", "22", "00", "33"]:
        state = game.play(state, move)
    # now in the moving phase: every move graded against the oracle-checked values
    value, distance = small_solution.outcome(state)
    best = small_solution.best_moves(state)
    assert best
    for row in small_solution.analyze(state):
        child_value, child_distance = small_solution.outcome(game.play(state, row.move))
        assert row.value == -child_value
        drop = value - row.value
        expected = {2: Grade.BLUNDER, 1: Grade.MISTAKE}.get(drop)
        if expected is None:
            expected = Grade.BEST if row.move in best else Grade.KEEPS
        assert small_solution.grade(state, row.move) is expected
    assert all(small_solution.grade(state, move) is Grade.BEST for move in best)
    with pytest.raises(IllegalMove):
        small_solution.grade(state, "0000")


def test_a_damaged_table_is_refused(small_table: Path, tmp_path: Path) -> None:
    data = bytearray(small_table.read_bytes())
    partial = tmp_path / "partial.table"
    partial.write_bytes(bytes(data[:-100]))
    with pytest.raises(TableError, match="partial"):
        open_table(SMALL, partial)
    data[-5] ^= 0xFF
    corrupt = tmp_path / "corrupt.table"
    corrupt.write_bytes(bytes(data))
    with pytest.raises(TableError, match="checksum"):
        open_table(SMALL, corrupt)
    with pytest.raises(TableError, match="another game"):
        open_table(teeko(), small_table)


def test_missing_teeko_table_says_how_to_build_it(tmp_path: Path) -> None:
    from gamelearn.games import get_game

    with pytest.raises(ValueError, match="gamelearn solve teeko"):
        solve_teeko(get_game("teeko"), path=tmp_path / "none.table")


def test_forward_check_accepts_the_table_and_catches_a_changed_byte(small_table: Path) -> None:
    from gamelearn.solver.table import check_moving

    layers, _ = open_table(SMALL, small_table)
    assert check_moving(SMALL, layers) == 0
    changed = {key: np.array(value) for key, value in layers.items()}
    moving = changed[(3, 3)]
    position = int(np.flatnonzero(moving == 0)[7])  # a draw ...
    moving[position] = 4  # ... claimed a win in 3
    assert check_moving(SMALL, changed) >= 1
