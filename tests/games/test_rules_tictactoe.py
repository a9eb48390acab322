"""Tic-tac-toe against an independent, deliberately naive implementation (3x3 lists of characters).

Every reachable position (5,478 with the empty board) is compared with the oracle: board, side to
move, winner, end, legal moves; the whole game tree has 549,946 nodes (the root included).
"""

from __future__ import annotations

import json
from functools import cache
from itertools import product
from pathlib import Path

import pytest

from gamelearn import IllegalMove, get_game

GAME = get_game("tictactoe")
LINES = (
    [[(r, 0), (r, 1), (r, 2)] for r in range(3)]
    + [[(0, c), (1, c), (2, c)] for c in range(3)]
    + [
        [(0, 0), (1, 1), (2, 2)],
        [(0, 2), (1, 1), (2, 0)],
    ]
)


class Naive:
    """A position as a 3x3 list of '.', 'X', 'O', with everything recomputed by looking at it."""

    def __init__(self, rows: list[list[str]]) -> None:
        self.rows = rows

    def text(self) -> str:
        return "".join("".join(row) for row in self.rows)

    def count(self, mark: str) -> int:
        return sum(row.count(mark) for row in self.rows)

    def to_move(self) -> int:
        return 0 if self.count("X") == self.count("O") else 1

    def winner(self) -> int | None:
        for index, mark in enumerate("XO"):
            if any(all(self.rows[r][c] == mark for r, c in line) for line in LINES):
                return index
        return None

    def over(self) -> bool:
        return self.winner() is not None or self.count(".") == 0

    def moves(self) -> list[str]:
        if self.over():
            return []
        return [str(3 * r + c) for r in range(3) for c in range(3) if self.rows[r][c] == "."]

    def after(self, move: str) -> Naive:
        r, c = divmod(int(move), 3)
        rows = [row[:] for row in self.rows]
        rows[r][c] = "XO"[self.to_move()]
        return Naive(rows)


def naive_reachable() -> dict[str, Naive]:
    seen: dict[str, Naive] = {}
    stack = [Naive([["."] * 3 for _ in range(3)])]
    while stack:
        position = stack.pop()
        if position.text() in seen:
            continue
        seen[position.text()] = position
        stack.extend(position.after(m) for m in position.moves())
    return seen


def api_reachable() -> dict:
    seen = {}
    stack = [GAME.initial()]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen[state] = True
        stack.extend(GAME.play(state, m) for m in GAME.legal_moves(state))
    return seen


def test_every_reachable_position_agrees_with_the_naive_oracle() -> None:
    oracle = naive_reachable()
    states = api_reachable()
    assert len(oracle) == 5478
    assert len(states) == 5478
    boards = {}
    for state in states:
        text = GAME.board(state)
        boards[text] = state
        naive = oracle[text]
        assert GAME.to_move(state) == naive.to_move()
        assert GAME.winner(state) == naive.winner()
        assert GAME.is_over(state) == naive.over()
        assert GAME.legal_moves(state) == naive.moves()
        assert GAME.from_board(text, naive.to_move()) == state
    assert set(boards) == set(oracle)
    # where the oracle says a move is illegal, play says so too
    for text, naive in list(oracle.items())[::7]:
        for square in range(9):
            if str(square) not in naive.moves():
                with pytest.raises(IllegalMove):
                    GAME.play(boards[text], str(square))


def test_the_game_tree_has_549946_nodes() -> None:
    @cache
    def nodes(state) -> int:
        return 1 + sum(nodes(GAME.play(state, m)) for m in GAME.legal_moves(state))

    assert nodes(GAME.initial()) == 549_946


def test_outcomes_of_finished_games() -> None:
    finished = [s for s in api_reachable() if GAME.is_over(s)]
    wins = [GAME.winner(s) for s in finished]
    # 958 terminal positions: 626 X wins, 316 O wins, 16 draws (the well-known counts)
    assert (len(finished), wins.count(0), wins.count(1), wins.count(None)) == (958, 626, 316, 16)


@pytest.mark.parametrize(
    "board, to_move, reason",
    [
        ("XX.......", 0, "alternate"),
        ("O........", 1, "alternate"),
        ("X........", 0, "O to move"),
        ("XXXOO.OO.", 0, "alternate"),
        ("XXXOOO...", 0, "three in a row"),
        ("XXX.OO...", 0, "O to move"),
        ("XXXOO.O..", 0, "winner's move"),
        ("OOOXX.XX.", 1, "winner's move"),
        ("X.?......", 1, "characters"),
        ("X.......", 1, "characters"),
        ("X........", 2, "to_move"),
    ],
)
def test_from_board_refuses_boards_no_game_reaches(board: str, to_move: int, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        GAME.from_board(board, to_move)


def test_illegal_moves_name_the_move_and_the_reason() -> None:
    state = GAME.play(GAME.initial(), "4")
    for move, reason in [("4", "occupied"), ("9", "off the board"), ("a", "not a tic-tac-toe move"), ("44", "not a")]:
        with pytest.raises(IllegalMove, match=reason) as caught:
            GAME.play(state, move)
        assert repr(move) in str(caught.value)
    won = GAME.from_board("XXXOO....", 1)
    with pytest.raises(IllegalMove, match="over"):
        GAME.play(won, "8")


def perft(game, state, ply: int, nodes: list[int], ends: list[int]) -> None:
    """Count the tree's nodes per ply and how each complete game ends (ends: X, O, draw)."""
    if len(nodes) <= ply:
        nodes.append(0)
    nodes[ply] += 1
    if game.is_over(state):
        winner = game.winner(state)
        ends[2 if winner is None else winner] += 1
        return
    for move in game.legal_moves(state):
        perft(game, game.play(state, move), ply + 1, nodes, ends)


def test_perft_against_the_published_counts() -> None:
    data = json.loads((Path(__file__).resolve().parents[1] / "data" / "perft.json").read_text())["tictactoe"]
    nodes: list[int] = []
    ends = [0, 0, 0]
    perft(GAME, GAME.initial(), 0, nodes, ends)
    assert nodes == data["nodes_per_ply"] and sum(nodes) == 549_946
    assert ends == [data["first_player_wins"], data["second_player_wins"], data["draws"]]
    assert sum(ends) == data["games"]


def test_from_board_accepts_exactly_the_reachable_positions() -> None:
    # All 3**9 boards, each with either side to move: from_board accepts the 5,478 positions play
    # reaches, and refuses every other with a ValueError.
    reachable = set(api_reachable())
    accepted = set()
    for cells in product(".XO", repeat=9):
        for to_move in (0, 1):
            try:
                accepted.add(GAME.from_board("".join(cells), to_move))
            except ValueError:
                pass
    assert accepted == reachable
