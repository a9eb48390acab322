"""The thesis engine's parts against independent oracles: evaluation (section d) written over a
5x5 grid straight from its definition, the two-ply search by brute force, level1 order against the
rules module, Microsoft's rand(), the memory's update and recall (section a), draw detection (h)."""

from __future__ import annotations

import random

import pytest

import gamelearn
from gamelearn.thesis.board import digits, digits_key, from_digits, key, key_digits, successors, swap_key
from gamelearn.thesis.evaluation import evaluate
from gamelearn.thesis.fixes import Fixes
from gamelearn.thesis.memory import Memory
from gamelearn.thesis.rng import MicrosoftRand
from gamelearn.thesis.rules import draw_reason, learned_winner, person_game_depths
from gamelearn.thesis.search import new_move_buffer, two_ply

Grid = list[list[int]]


def grid(own: int, opp: int) -> Grid:
    return [[1 if own >> (5 * r + c) & 1 else -1 if opp >> (5 * r + c) & 1 else 0 for c in range(5)] for r in range(5)]


def oracle_four(g: Grid, t: int) -> bool:
    lines = []
    for r in range(5):
        lines += [[(r, c0 + k) for k in range(4)] for c0 in range(2)]
    for c in range(5):
        lines += [[(r0 + k, c) for k in range(4)] for r0 in range(2)]
    for r0 in range(2):
        lines += [[(r0 + k, c0 + k) for k in range(4)] for c0 in range(2)]
        lines += [[(r0 + k, c0 - k) for k in range(4)] for c0 in (3, 4)]
    lines += [[(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)] for r in range(4) for c in range(4)]
    return any(all(g[r][c] == t for r, c in line) for line in lines)


def oracle_three(g: Grid, t: int) -> bool:
    for k in range(5):
        for cells in ([g[k][c] for c in range(5)], [g[r][k] for r in range(5)]):
            own = [i for i, v in enumerate(cells) if v == t]
            if len(own) == 3 and own[2] - own[0] == 2:
                return True
    diagonals = [
        [(0, 1), (1, 2), (2, 3), (3, 4)],
        [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)],
        [(1, 0), (2, 1), (3, 2), (4, 3)],
        [(0, 3), (1, 2), (2, 1), (3, 0)],
        [(0, 4), (1, 3), (2, 2), (3, 1), (4, 0)],
        [(1, 4), (2, 3), (3, 2), (4, 1)],
    ]
    for line in diagonals:
        for s in range(len(line) - 2):
            if all(g[r][c] == t for r, c in line[s : s + 3]):
                return True
    for r in range(4):
        for c in range(4):
            if [g[r][c], g[r][c + 1], g[r + 1][c], g[r + 1][c + 1]].count(t) == 3:
                return True
    return False


def oracle_eval(own: int, opp: int) -> int:
    g = grid(own, opp)
    four = -1 if oracle_four(g, -1) else 1 if oracle_four(g, 1) else 0
    three = int(oracle_three(g, 1)) - int(oracle_three(g, -1))
    centre = g[2][2]
    ring = sum(g[r][c] for r in (1, 2, 3) for c in (1, 2, 3) if (r, c) != (2, 2))
    return 1000 * four + 15 * three + 6 * centre + 3 * ring


def random_board(rng: random.Random) -> tuple[int, int]:
    cells = rng.sample(range(25), 8)
    own = sum(1 << c for c in cells[:4])
    opp = sum(1 << c for c in cells[4:])
    return own, opp


def test_evaluation_matches_the_definition_on_2000_boards() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        own, opp = random_board(rng)
        assert evaluate(own, opp) == oracle_eval(own, opp), digits(own, opp)


def test_evaluation_examples_by_hand() -> None:
    own, opp = from_digits("0000001000001000000000000")[0], 0  # 11 and 22 own: 6 + 3
    assert evaluate(own, opp) == 9
    four_row, blocked = from_digits("1111000000222000000000000")  # X four on row 0; O three 20 21 22
    assert evaluate(four_row, blocked) == 1000 - 15 - 6 - 3  # O holds 22 (-6) and ring cell 21 (-3)
    assert evaluate(blocked, four_row) == -1000 + 15 + 6 + 3


def test_level1_order_is_pawns_row_major_then_scan_order() -> None:
    game = gamelearn.get_game("teeko")
    rng = random.Random(3)
    for _ in range(200):
        own, opp = random_board(rng)
        state = (
            game.from_board(
                "".join("X" if own >> s & 1 else "O" if opp >> s & 1 else "." for s in range(25)), to_move=0
            )
            if not (oracle_four(grid(own, opp), 1) or oracle_four(grid(own, opp), -1))
            else None
        )
        moves = [f"{s // 5}{s % 5}{d // 5}{d % 5}" for s, d in successors(own, opp)]
        buffer = new_move_buffer()
        k = two_ply(own, opp, buffer)[0]
        assert [(int(a), int(b)) for a, b in buffer[:k]] == successors(own, opp)
        if state is not None:
            assert moves == game.legal_moves(state)  # the rules module sorts the same way


def brute_force(own: int, opp: int) -> tuple[list[tuple[int, int]], list[int]]:
    level1 = successors(own, opp)
    worst = []
    for src, dst in level1:
        mine = (own & ~(1 << src)) | (1 << dst)
        replies = successors(opp, mine)
        values = [oracle_eval(mine, (opp & ~(1 << a)) | (1 << b)) for a, b in replies]
        worst.append(min(values) if values else oracle_eval(mine, opp))
    return level1, worst


@pytest.mark.slow  # a brute-force search over many boards
def test_two_ply_search_against_brute_force() -> None:
    rng = random.Random(11)
    buffer = new_move_buffer()
    for _ in range(30):
        own, opp = random_board(rng)
        level1, worst = brute_force(own, opp)
        k, smax, si, fixed_index, original_index = two_ply(own, opp, buffer)
        assert k == len(level1)
        assert smax == max(worst)
        assert fixed_index == worst.index(smax)  # the first best in generation order
        one_ply = [oracle_eval((own & ~(1 << a)) | (1 << b), opp) for a, b in level1]
        expected_si = one_ply.index(smax) if smax in one_ply else k
        assert si == expected_si
        expected = expected_si if expected_si <= 1 else expected_si - 2 if expected_si < k else k - 2
        assert original_index == expected


def test_microsoft_rand_seed_1() -> None:
    generator = MicrosoftRand(1)
    assert [generator.rand() for _ in range(5)] == [41, 18467, 6334, 26500, 19169]


def test_key_swap_and_digits() -> None:
    board = "0000002120021000120000010"
    k = digits_key(board)
    assert digits(*from_digits(board)) == board
    assert swap_key(swap_key(k)) == k
    assert digits(*from_digits(board)[::-1]) == board.translate(str.maketrans("12", "21"))
    assert key(*from_digits(board)[::-1]) == swap_key(k)


def test_digits_are_each_square_s_side_on_random_boards_and_the_corners() -> None:
    rng = random.Random(7)
    boards = ["0" * 25, "1" * 25, "2" * 25, "1" + "0" * 23 + "2", "2" + "0" * 23 + "1"]
    boards += ["".join(rng.choice("00012") for _ in range(25)) for _ in range(2000)]
    for board in boards:
        plus = sum(1 << s for s, ch in enumerate(board) if ch == "1")
        minus = sum(1 << s for s, ch in enumerate(board) if ch == "2")
        assert digits(plus, minus) == board
        assert digits(*from_digits(board)) == board and key_digits(digits_key(board)) == board


A = "1100000000220000110000220"
B = "1010000000220000110000220"


def test_memory_update_adds_then_adjusts_direct_and_swapped() -> None:
    memory = Memory()
    swapped_a = A.translate(str.maketrans("12", "21"))
    assert memory.learn([digits_key(A), digits_key(B), digits_key(A)], winner=1) == ["add", "add", "adjust"]
    assert list(memory.entries()) == [(A, 2, 0), (B, 1, 0)]
    memory.learn([digits_key(swapped_a)], winner=1)  # the swap matches record 1: the other field
    assert memory.entry(0) == (A, 2, 1)
    memory.learn([digits_key(B)], winner=-1)
    assert memory.entry(1) == (B, 1, 1)
    memory.learn([digits_key(swapped_a)], winner=-1)  # a side -1 win from the swap counts for '1'
    assert memory.entry(0) == (A, 3, 1)
    assert memory.take_changes() == {0: (A, 3, 1), 1: (B, 1, 1)}
    assert memory.take_changes() == {}


def test_memory_new_record_is_appended_as_played() -> None:
    memory = Memory([(A, 5, 0)])
    memory.learn([digits_key(B)], winner=-1)
    assert list(memory.entries()) == [(A, 5, 0), (B, 0, 1)]


def test_recall_sign_tie_breaks_and_file_order() -> None:
    good_for_x, good_for_o = digits_key(A), digits_key(B)
    memory = Memory([(A, 9, 1), (B, 1, 9)])
    assert memory.recall([good_for_x, good_for_o], side=1, negate_for_minus=True) == (good_for_x, 2)
    assert memory.recall([good_for_x, good_for_o], side=-1, negate_for_minus=True) == (good_for_o, 2)
    assert memory.recall([good_for_x, good_for_o], side=-1, negate_for_minus=False) == (good_for_x, 2)
    # A swapped record scores second minus first.
    memory = Memory([(A.translate(str.maketrans("12", "21")), 1, 9)])
    assert memory.recall([good_for_x], side=1, negate_for_minus=True) == (good_for_x, 1)
    assert memory.candidates([good_for_x]) == [(0, 8, good_for_x)]
    # Equal scores and equal evaluations: the earliest record in the file.
    memory = Memory([(B, 2, 0), (A, 2, 0)])
    plus_a, minus_a = from_digits(A)
    plus_b, minus_b = from_digits(B)
    assert evaluate(plus_a, minus_a) == evaluate(plus_b, minus_b)
    assert memory.recall([good_for_x, good_for_o], side=1, negate_for_minus=True)[0] == good_for_o
    assert Memory().recall([good_for_x], 1, True) == (None, 0)


def test_draw_detection_cycles_and_cap() -> None:
    boards = [1, 2, 3, 4] * 4
    assert draw_reason(boards, 24) is None  # no check before ply 25
    assert draw_reason(boards, 25) == "cycle2"
    assert draw_reason(boards, 101) == "cap100"
    assert draw_reason(list(range(16)), 60) is None
    six = [9, 9, 9, 9] + [1, 2, 3, 4, 5, 6] * 2
    assert draw_reason(six, 40) == "cycle3"
    eight = [1, 2, 3, 4, 5, 6, 7, 8] * 2
    assert draw_reason(eight, 40) == "cycle4"


def test_draw_offered_only_when_moves_repeat() -> None:
    # The 1999 thesis: against a person the original asks for cycles 2, 3 and 5; "5" compares a slot with
    # itself, so from ply 25 every position is "a draw".
    never_repeating = list(range(16))
    assert draw_reason(never_repeating, 25, person_game_depths(Fixes.original())) == "cycle5"
    assert draw_reason(never_repeating, 25, person_game_depths(Fixes())) is None
    repeating = [1, 2, 3, 4] * 4
    assert draw_reason(repeating, 25, person_game_depths(Fixes())) == "cycle2"


def test_game_begun_by_human_learned_right_way_round() -> None:
    # Against a person the program is side +1 ('1') whoever begins.  The person began, so the
    # program moves on even plies; it wins with ply 20.
    assert learned_winner(20, last_mover=1, fixes=Fixes()) == 1
    assert learned_winner(20, last_mover=1, fixes=Fixes.original()) == -1  # the person credited
    memory_fixed, memory_original = Memory(), Memory()
    memory_fixed.learn([digits_key(A)], learned_winner(20, 1, Fixes()))
    memory_original.learn([digits_key(A)], learned_winner(20, 1, Fixes.original()))
    assert memory_fixed.entry(0) == (A, 1, 0)
    assert memory_original.entry(0) == (A, 0, 1)
    # In batch, player I always begins, and both rules agree.
    for last_ply in (9, 10, 27, 60):
        mover = 1 if last_ply % 2 else -1
        assert learned_winner(last_ply, mover, Fixes()) == learned_winner(last_ply, mover, Fixes.original())


@pytest.mark.parametrize("mode", [Fixes(), Fixes.original()])
def test_fixes_switches(mode: Fixes) -> None:
    assert Fixes.original().is_original and not Fixes().is_original
    assert Fixes.original().but(search_plays_best=True).search_plays_best
    assert mode == mode.but()


def test_every_switch_combination_plays_a_legal_step_in_both_modes() -> None:
    from gamelearn.thesis.engine import Settings, decide
    from gamelearn.thesis.evaluation import has_four
    from gamelearn.thesis.rng import SeededDraws

    rng = random.Random(5)
    memory = Memory()
    checked = 0
    while checked < 120:
        plus, minus = random_board(rng)
        if has_four(plus) or has_four(minus):
            continue
        checked += 1
        memory.learn([key(plus, minus)], winner=1)  # some records, some of them successors later
        for side in (1, -1):
            own, opp = (plus, minus) if side > 0 else (minus, plus)
            legal = set(successors(own, opp))
            for fixes in (Fixes(), Fixes.original()):
                for bits in range(8):
                    settings = Settings(bool(bits & 4), bool(bits & 2), bool(bits & 1))
                    decision = decide((plus, minus), side, 30, settings, memory, SeededDraws(checked), fixes)
                    assert (decision.src, decision.dst) in legal, (digits(plus, minus), side, settings, fixes)
