"""Each bug of the 1999 thesis program, built as a board: the fixed program does what was meant, and original mode
shows the bug where the 1999 program would (the thesis's list of its bugs)."""

from __future__ import annotations

import pytest

from gamelearn import get_game, make_player
from gamelearn.thesis.board import digits_key, from_digits, successors
from gamelearn.thesis.engine import Decision, Settings, decide, play
from gamelearn.thesis.evaluation import evaluate, has_four
from gamelearn.thesis.fixes import Fixes
from gamelearn.thesis.heuristics import NoMoveError, random_move
from gamelearn.thesis.memory import Memory
from gamelearn.thesis.opening import OpeningHang
from gamelearn.thesis.rng import MicrosoftRand, SeededDraws

FIXED, ORIGINAL = Fixes(), Fixes.original()
ALL = Settings(True, True, True)
HEURISTICS = Settings(True, False, False)


def board(x: str, o: str) -> tuple[int, int]:
    """A position from the fields of X (side +1) and O, e.g. board("00 02", "40")."""
    plus = sum(1 << (5 * int(f[0]) + int(f[1])) for f in x.split())
    minus = sum(1 << (5 * int(f[0]) + int(f[1])) for f in o.split())
    return plus, minus


def move(
    position: tuple[int, int], side: int, settings: Settings, fixes: Fixes, memory: Memory | None = None, n: int = 30
) -> Decision:
    draws = MicrosoftRand(1) if fixes == ORIGINAL else SeededDraws(1)
    return decide(position, side, n, settings, memory, draws, fixes)


def wins(position: tuple[int, int], side: int, decision: Decision) -> bool:
    plus, minus = play(position, side, decision)
    return bool(has_four(plus if side > 0 else minus))


def test_search_plays_its_best_move() -> None:
    # Reference run A-1, game 1, ply 9: the original played 3343 (si=16 of sk=16: "move k-2").
    position = from_digits("0000002120021000121000000")
    search_only = Settings(False, True, False)
    plus, minus = position
    worst = []
    for src, dst in successors(plus, minus):
        mine = (plus & ~(1 << src)) | (1 << dst)
        worst.append(min(evaluate(mine, (minus & ~(1 << a)) | (1 << b)) for a, b in successors(minus, mine)))
    best = max(worst)
    fixed = move(position, 1, search_only, FIXED)
    original = move(position, 1, search_only, ORIGINAL)
    assert (fixed.source, fixed.smax, fixed.sk, fixed.si) == ("search", best, 16, 16)
    level1 = [f"{s // 5}{s % 5}{d // 5}{d % 5}" for s, d in successors(plus, minus)]
    assert worst[level1.index(fixed.move)] == best
    assert level1.index(fixed.move) == worst.index(best)  # the first best in generation order
    assert original.move == "3343"
    assert worst[level1.index("3343")] < best  # the original passed on its best move


def test_player_o_reads_memory_from_its_own_side() -> None:
    position = board("00 11 33 44", "02 20 24 42")
    o_moves = successors(position[1], position[0])
    (s1, d1), (s2, d2) = o_moves[0], o_moves[1]
    after1 = (position[0], (position[1] & ~(1 << s1)) | (1 << d1))
    after2 = (position[0], (position[1] & ~(1 << s2)) | (1 << d2))
    good_for_x = (digits_of(after1), 9, 0)
    good_for_o = (digits_of(after2), 0, 9)
    memory = Memory([good_for_x, good_for_o])
    learn_only = Settings(False, False, True)
    # One bug at a time: the original, but learning alone recalling from the board (fix 13).
    original = ORIGINAL.but(learn_without_search_uses_board=True)
    fixed = move(position, -1, learn_only, FIXED, memory)
    buggy = move(position, -1, learn_only, original, memory)
    name = lambda s, d: f"{s // 5}{s % 5}{d // 5}{d % 5}"  # noqa: E731
    assert (fixed.source, fixed.move, fixed.lc) == ("learn", name(s2, d2), 2)
    assert (buggy.source, buggy.move, buggy.lc) == ("learn", name(s1, d1), 2)  # O picks X's best
    # Side +1 reads it the same way in both.
    assert move(position, -1, learn_only, original.but(memory_sign_by_side=True), memory).move == fixed.move


def digits_of(position: tuple[int, int]) -> str:
    from gamelearn.thesis.board import digits

    return digits(*position)


def test_make4_pawns_00_02_03_does_not_step_00_01() -> None:
    position = board("00 02 03 11", "20 24 40 44")
    fixed = move(position, 1, HEURISTICS, FIXED)
    original = move(position, 1, HEURISTICS, ORIGINAL)
    assert (fixed.source, fixed.move) == ("killer:m4", "1101")
    assert wins(position, 1, fixed)
    assert (original.source, original.move) == ("killer:m4", "0001")  # a "killer" that is no four
    assert not wins(position, 1, original)


def test_wins_on_32_holding_10_21_43() -> None:
    position = board("10 21 43 33", "00 04 40 44")
    fixed = move(position, 1, HEURISTICS, FIXED)
    original = move(position, 1, HEURISTICS, ORIGINAL)
    assert (fixed.source, fixed.move) == ("killer:m4", "3332")
    assert wins(position, 1, fixed)
    assert (original.source, original.move) == ("killer:m4", "3334")
    assert not wins(position, 1, original)


def test_avoid4_stops_four_through_04_when_00_taken() -> None:
    position = board("00 03 40 44", "13 22 31 14")
    fixed = move(position, 1, HEURISTICS, FIXED)
    original = move(position, 1, HEURISTICS, ORIGINAL)
    assert (fixed.source, fixed.move) == ("killer:a4", "0304")
    assert not original.source.startswith("killer")
    after = play(position, 1, original)
    assert not after[0] >> 4 & 1  # 04 left open: O steps 14-04 and has four
    o_wins = (after[0], (after[1] & ~(1 << 9)) | (1 << 4))
    assert has_four(o_wins[1])
    # With 00 free the original sees the threat too.
    open_corner = board("01 03 40 44", "13 22 31 14")
    assert move(open_corner, 1, HEURISTICS, ORIGINAL).move == "0304"


def test_square_patterns_of_nondefendable3_run() -> None:
    # 00 and 10 own, 01 empty, and O cannot reach the fourth corner 11: the square pattern AC->B.
    position = board("00 10 12 44", "13 24 34 40")
    fixed = move(position, 1, HEURISTICS, FIXED)
    original = move(position, 1, HEURISTICS, ORIGINAL)
    assert (fixed.heuristic, fixed.move) == ("mnd3", "1201")
    assert original.heuristic != "mnd3"  # the original's square loop never runs


def test_makedouble3_column_guard() -> None:
    # 10 and 30 own, 20 empty: O reaches both ends 00 (from 01) and 40 (from 41), so it is no double three.
    position = board("10 30 21 04", "01 41 13 34")
    fixed = move(position, 1, HEURISTICS, FIXED)
    original = move(position, 1, HEURISTICS, ORIGINAL)
    assert fixed.heuristic != "md3"
    # The original asks about the off-board cell (5,4) instead of 40, reads it empty, and fires.
    assert (original.heuristic, original.move, original.off_board_reads) == ("md3", "2120", 1)


def test_makedouble3_column_keeps_its_own_pawn() -> None:
    # Fixed keeps 10 and 30 and brings 31 in; the original keeps 31 and moves 30, breaking its pair.
    position = board("10 30 31 04", "02 14 42 44")
    assert move(position, 1, HEURISTICS, FIXED).move == "3120"
    assert move(position, 1, HEURISTICS, ORIGINAL).move == "3020"


def test_omake3_uses_22() -> None:
    position = board("21 23", "00 44")  # 22 free at ply 5: not reachable in play, built here
    assert move(position, 1, ALL, FIXED, n=5).dst == 12  # 22
    assert move(position, 1, ALL, ORIGINAL, n=5).dst == 7  # 12


def test_opening_never_hangs() -> None:
    # The thesis's recipe: the person (X) begins with 40 and 04; the program (O) has 22, 13, 31; the
    # person takes 33 and 11: at ply 8 the program's corner pick finds all four corners taken.
    position = board("40 04 33 11", "22 13 31")
    with pytest.raises(OpeningHang, match="11/13/31/33"):
        move(position, -1, ALL, ORIGINAL, n=8)
    for seed in range(20):
        decision = decide(position, -1, 8, ALL, None, SeededDraws(seed), FIXED)
        assert decision.source == "o:any"
        assert not (position[0] | position[1]) >> decision.dst & 1


def test_learning_without_search_uses_current_board() -> None:
    position = board("00 11 33 44", "02 20 24 42")
    src, dst = successors(position[0], position[1])[3]
    after = ((position[0] & ~(1 << src)) | (1 << dst), position[1])
    memory = Memory([(digits_of(after), 3, 0)])
    learn_only = Settings(False, False, True)
    fixed = move(position, 1, learn_only, FIXED, memory)
    original = move(position, 1, learn_only, ORIGINAL, memory)
    assert (fixed.source, fixed.lc) == ("learn", 1)
    assert fixed.src == src and fixed.dst == dst
    assert (original.source, original.lc) == ("random", 0)  # an empty board has no successors
    assert digits_key(digits_of(after)) in memory.index


def test_random_move_with_no_move_is_an_error_not_a_hang() -> None:
    # playrandom draws until it finds a move: with none it never stops.  Built with a lone pawn on
    # 00 walled in by 01, 10 and 11 (no full game reaches a side without a move).
    own, opp = board("00", "01 10 11")
    with pytest.raises(NoMoveError, match="no move"):
        random_move(own, opp, MicrosoftRand(1))
    own, opp = board("00", "01 10")
    assert random_move(own, opp, MicrosoftRand(1)) == (0, 6)  # 00-11, the only move


def test_opening_makes_and_stops_every_four() -> None:
    # X on 00, 10 and 30, O on 11, 22 and 33, X to place its fourth pawn: 20, the gap in its
    # column, wins (and O's 11-22-33 threatens 44).  The C's patterns know only cells 0-2 held
    # with target 3 and cells 2-4 with target 1, so the original plays elsewhere.
    teeko = get_game("teeko")
    state = teeko.from_board("X....XO.....O..X..O......", to_move=0)
    for seed in range(8):
        fixed = make_player(teeko, "thesis:train=off", seed=seed)
        assert fixed.choose(state) == "20"
        assert fixed.last_decision is not None and fixed.last_decision.source == "o:make4"
        assert teeko.winner(teeko.play(state, "20")) == 0
        original = make_player(teeko, "thesis:train=off,original=on", seed=seed)
        assert original.choose(state) != "20"
    # O on 21, 22 and 23 completes a four on an end cell, 20 or 24, which the C never tries.
    position = board("00 04 40 44", "21 22 23")
    assert move(position, -1, ALL, FIXED, n=8).move in ("20", "24")
    assert move(position, -1, ALL, ORIGINAL, n=8).move not in ("20", "24")
    # Block-four: X on 01, 12 and 34 threatens 23, the gap of its diagonal; O, to place its third
    # pawn, takes it, where the original picks a corner and X wins.
    position = board("01 12 34", "22 44")
    fixed_block = move(position, -1, ALL, FIXED, n=6)
    assert (fixed_block.source, fixed_block.move) == ("o:avoid4", "23")
    assert move(position, -1, ALL, ORIGINAL, n=6).move != "23"
