"""Hexapawn against an independent, deliberately naive implementation (3x3 lists of characters),
over every reachable position (board and side to move)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamelearn import IllegalMove, get_game

GAME = get_game("hexapawn")


class Naive:
    """A position as rows of characters; rules from Gardner's text, recomputed by looking."""

    def __init__(self, rows: list[list[str]], side: str) -> None:
        self.rows, self.side = rows, side

    def key(self) -> tuple[str, int]:
        return "".join("".join(row) for row in self.rows), "WB".index(self.side)

    def pawn_moves(self, side: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
        ahead, enemy = (-1, "B") if side == "W" else (1, "W")
        found = []
        for r in range(3):
            for c in range(3):
                if self.rows[r][c] != side or not 0 <= r + ahead <= 2:
                    continue
                if self.rows[r + ahead][c] == ".":
                    found.append(((r, c), (r + ahead, c)))
                for dc in (-1, 1):
                    if 0 <= c + dc <= 2 and self.rows[r + ahead][c + dc] == enemy:
                        found.append(((r, c), (r + ahead, c + dc)))
        return found

    def winner(self) -> int | None:
        flat = [ch for row in self.rows for ch in row]
        if "W" in self.rows[0] or "B" not in flat:
            return 0
        if "B" in self.rows[2] or "W" not in flat:
            return 1
        if not self.pawn_moves(self.side):
            return 1 if self.side == "W" else 0
        return None

    def moves(self) -> list[str]:
        if self.winner() is not None:
            return []
        return sorted(f"{3 * a[0] + a[1]}{3 * b[0] + b[1]}" for a, b in self.pawn_moves(self.side))

    def after(self, move: str) -> Naive:
        (r0, c0), (r1, c1) = divmod(int(move[0]), 3), divmod(int(move[1]), 3)
        rows = [row[:] for row in self.rows]
        rows[r1][c1], rows[r0][c0] = rows[r0][c0], "."
        return Naive(rows, "B" if self.side == "W" else "W")


def naive_reachable() -> dict[tuple[str, int], Naive]:
    seen: dict[tuple[str, int], Naive] = {}
    stack = [Naive([list("BBB"), list("..."), list("WWW")], "W")]
    while stack:
        position = stack.pop()
        if position.key() not in seen:
            seen[position.key()] = position
            stack.extend(position.after(m) for m in position.moves())
    return seen


def api_reachable() -> list:
    seen: dict = {}
    stack = [GAME.initial()]
    while stack:
        state = stack.pop()
        if state not in seen:
            seen[state] = True
            stack.extend(GAME.play(state, m) for m in GAME.legal_moves(state))
    return list(seen)


def test_every_reachable_position_agrees_with_the_naive_oracle() -> None:
    oracle = naive_reachable()
    states = api_reachable()
    assert len(states) == len(oracle)
    for state in states:
        key = (GAME.board(state), GAME.to_move(state))
        naive = oracle[key]
        assert GAME.winner(state) == naive.winner()
        assert GAME.is_over(state) == (naive.winner() is not None)
        assert GAME.legal_moves(state) == naive.moves()
        assert GAME.from_board(*key) == state
        for src in range(9):
            for dst in range(9):
                move = f"{src}{dst}"
                if move not in naive.moves():
                    with pytest.raises(IllegalMove):
                        GAME.play(state, move)
                else:
                    assert GAME.board(GAME.play(state, move)) == naive.after(move).key()[0]


def test_black_wins_with_best_play() -> None:
    # Gardner: the second player wins; the game declares it, and a naive negamax agrees.
    def wins(position: Naive) -> bool:  # the side to move wins
        return position.winner() is None and any(not wins(position.after(m)) for m in position.moves())

    start = naive_reachable()[("BBB...WWW", 0)]
    assert not wins(start)
    assert GAME.facts.value_of_start == -1


def test_the_three_ways_to_win() -> None:
    # Positions games reach (found by search over the reachable ones).  White never takes every
    # black pawn in a game: a win on the far row or a blocked Black always comes first.
    assert GAME.winner(GAME.from_board("..WWB....", 1)) == 0  # a pawn on the far row
    assert GAME.winner(GAME.from_board("...BB....", 0)) == 1  # every enemy pawn taken
    stuck = GAME.from_board(".B..WB..W", 0)  # White to move, both pawns blocked, nothing to take
    assert GAME.legal_moves(stuck) == [] and GAME.winner(stuck) == 1
    black_stuck = GAME.from_board(".B..W....", 1)
    assert GAME.legal_moves(black_stuck) == [] and GAME.winner(black_stuck) == 0


@pytest.mark.parametrize(
    "move, reason",
    [
        ("30", "no W pawn"),
        ("73", "steps one square"),
        ("60", "steps one square"),
        ("63", None),
        ("6", "not a hexapawn move"),
        ("69", "off the board"),
        ("x3", "not a hexapawn"),
    ],
)
def test_illegal_moves_name_the_move_and_the_reason(move: str, reason: str | None) -> None:
    state = GAME.initial()
    if reason is None:
        GAME.play(state, move)
        return
    with pytest.raises(IllegalMove, match=reason) as caught:
        GAME.play(state, move)
    assert repr(move) in str(caught.value)
    with pytest.raises(IllegalMove, match="steps one square"):
        GAME.play(GAME.play(GAME.play(state, "63"), "03"), "63")  # straight onto an enemy pawn
    with pytest.raises(IllegalMove, match="game is over"):
        GAME.play(GAME.from_board("..WWB....", 1), "47")


@pytest.mark.parametrize(
    "board, to_move",
    [
        ("WWW.B.BBB", 0),
        ("BBBB..WWW", 0),
        ("W.B......", 0),
        ("W.....B..", 1),
        (".........", 0),
        ("BBB...WW", 0),
        ("BBB...WWX", 0),
        ("BBB...WWW", 1),
        ("W.B......", 1),
        ("......W..", 1),
        ("B.B.W.W..", 0),
        ("BBB.W.W.W", 0),
    ],
)
def test_from_board_refuses_boards_no_game_reaches(board: str, to_move: int) -> None:
    with pytest.raises(ValueError):
        GAME.from_board(board, to_move)


def test_from_board_accepts_exactly_the_positions_games_reach() -> None:
    # The contract: a ValueError for a board no game can reach.  Every board of 3^9 with either side
    # to move, against the naive oracle's positions reachable from the start (finished included).
    reachable = naive_reachable()
    assert len(reachable) == 135
    accepted = set()
    for code in range(3**9):
        digits = [(code // 3**k) % 3 for k in range(9)]
        board = "".join(".WB"[d] for d in digits)
        for to_move in (0, 1):
            try:
                state = GAME.from_board(board, to_move)
            except ValueError as error:
                assert (board, to_move) not in reachable, f"{board} {to_move}: {error}"
                continue
            assert (GAME.board(state), GAME.to_move(state)) == (board, to_move)
            accepted.add((board, to_move))
    assert accepted == set(reachable)
    with pytest.raises(ValueError, match="cannot arise from the start"):
        GAME.from_board("B.B.W.W..", 0)  # pawns as they could stand, but no game gets there


def test_perft_against_the_naive_counts_kept_as_data() -> None:
    data = json.loads((Path(__file__).resolve().parents[1] / "data" / "perft.json").read_text())["hexapawn"]
    api_nodes: list[int] = []
    api_ends = [0, 0]
    layer = [GAME.initial()]
    while layer:
        api_nodes.append(len(layer))
        for state in layer:
            winner = GAME.winner(state)
            if winner is not None:  # hexapawn has no draws: every finished game has a winner
                api_ends[winner] += 1
        layer = [GAME.play(s, m) for s in layer for m in GAME.legal_moves(s)]
    naive_nodes: list[int] = []
    naive_layer = [Naive([list("BBB"), list("..."), list("WWW")], "W")]
    while naive_layer:
        naive_nodes.append(len(naive_layer))
        naive_layer = [p.after(m) for p in naive_layer for m in p.moves()]
    assert api_nodes == naive_nodes == data["nodes_per_ply"]
    assert api_ends == [data["first_player_wins"], data["second_player_wins"]] and sum(api_ends) == data["games"]
    assert len(naive_reachable()) == data["reachable_positions"]
