"""Batch kernels (numba) for tic-tac-toe: thousands of games per call, move for move the games the
Python players play.

The Python players draw every random number from ``random.Random`` (the Mersenne Twister,
MT19937).  These kernels carry their own copy of that generator -- seeded as CPython seeds it from
an integer (``init_by_array`` over the seed's 32-bit words), ``getrandbits``, ``_randbelow`` with
its rejection loop, ``random()`` from two 32-bit draws -- so that a kernel given the same seeds
makes the same choices in the same order:

* ``random_games(n, seed0, seed1)`` is ``play_game(tictactoe, [RandomPlayer(seed0),
  RandomPlayer(seed1)])`` called ``n`` times (no per-game reseed: each player's stream runs on);
* ``random_games_reseeded(seeds)`` is ``play_game(..., seed=s)`` for each ``s`` (player 0 reseeded
  with ``s``, player 1 with ``s + 1``);
* ``td_selfplay(n, seed, alpha, epsilon, symmetry)`` is a ``td`` player (players/td.py) playing
  itself ``n`` games through ``play_game(tictactoe, [p, p])``, learning each side of every game
  once, and returns its table.

tests/test_differential.py checks all three against the Python players game by game and entry by
entry.  Board cells are numbered as the rules number them (square i is bit i); a position's table
index is its board read as a base-3 number, square 0 most significant, with '.' = 0, 'O' = 1,
'X' = 2, so that the least index is the least board string, which is how ``Game.canonical`` picks a
position's representative.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..games.tictactoe import LINES, SYMMETRIES

MT_N = 624
MT_M = 397
MASK32 = 0xFFFFFFFF
#: A generator's state: 624 words, then the index of the next word to use.
MT_STATE_SIZE = MT_N + 1

TTT_LINES = np.array(LINES, dtype=np.int64)
TTT_SYMMETRIES = np.array(SYMMETRIES, dtype=np.int64)
TABLE_SIZE = 3**9
#: Results of a game in the kernels' arrays: the winner, or DRAW.
DRAW = -1


# The Mersenne Twister as CPython's _randommodule.c has it ------------------------------------


@njit(cache=True)
def mt_init_genrand(state: np.ndarray, seed: int) -> None:
    state[0] = seed & MASK32
    for i in range(1, MT_N):
        previous = state[i - 1]
        state[i] = (1812433253 * (previous ^ (previous >> 30)) + i) & MASK32
    state[MT_N] = MT_N


@njit(cache=True)
def mt_seed(state: np.ndarray, seed: int) -> None:
    """``random.Random(seed)`` for an integer seed: init_by_array over |seed|'s 32-bit words."""
    value = abs(seed)
    key = np.zeros(3, dtype=np.int64)
    length = 0
    while True:
        key[length] = value & MASK32
        length += 1
        value >>= 32
        if value == 0:
            break
    mt_init_genrand(state, 19650218)
    i = 1
    j = 0
    for _ in range(max(MT_N, length)):
        previous = state[i - 1]
        state[i] = ((state[i] ^ ((previous ^ (previous >> 30)) * 1664525)) + key[j] + j) & MASK32
        i += 1
        j += 1
        if i >= MT_N:
            state[0] = state[MT_N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(MT_N - 1):
        previous = state[i - 1]
        state[i] = ((state[i] ^ ((previous ^ (previous >> 30)) * 1566083941)) - i) & MASK32
        i += 1
        if i >= MT_N:
            state[0] = state[MT_N - 1]
            i = 1
    state[0] = 0x80000000


@njit(cache=True)
def mt_next32(state: np.ndarray) -> int:
    if state[MT_N] >= MT_N:
        for k in range(MT_N):
            y = (state[k] & 0x80000000) | (state[(k + 1) % MT_N] & 0x7FFFFFFF)
            state[k] = state[(k + MT_M) % MT_N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        state[MT_N] = 0
    y = state[state[MT_N]]
    state[MT_N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK32


@njit(cache=True)
def mt_randbelow(state: np.ndarray, n: int) -> int:
    """``Random._randbelow_with_getrandbits(n)`` for 0 < n < 2**32: k = n.bit_length(), reject >= n."""
    k = 0
    while (n >> k) != 0:
        k += 1
    r = mt_next32(state) >> (32 - k)
    while r >= n:
        r = mt_next32(state) >> (32 - k)
    return r


@njit(cache=True)
def mt_random(state: np.ndarray) -> float:
    """``Random.random()``: 53 bits from two 32-bit draws."""
    a = mt_next32(state) >> 5
    b = mt_next32(state) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


def new_mt_state(seed: int) -> np.ndarray:
    state = np.zeros(MT_STATE_SIZE, dtype=np.int64)
    mt_seed(state, seed)
    return state


# Tic-tac-toe --------------------------------------------------------------------------------


@njit(cache=True)
def ttt_has_line(bits: int, lines: np.ndarray) -> bool:
    for line in lines:
        if bits & line == line:
            return True
    return False


@njit(cache=True)
def _random_game(x_stream: np.ndarray, o_stream: np.ndarray, lines: np.ndarray, moves_out: np.ndarray) -> int:
    """One game of two RandomPlayers; the squares played go to ``moves_out``; returns the result."""
    x = 0
    o = 0
    empty = np.empty(9, dtype=np.int64)
    for ply in range(9):
        count = 0
        for square in range(9):
            if not ((x | o) >> square) & 1:
                empty[count] = square
                count += 1
        stream = x_stream if ply % 2 == 0 else o_stream
        square = empty[mt_randbelow(stream, count)]
        moves_out[ply] = square
        if ply % 2 == 0:
            x |= 1 << square
            if ttt_has_line(x, lines):
                return 0
        else:
            o |= 1 << square
            if ttt_has_line(o, lines):
                return 1
    return DRAW


@njit(cache=True)
def _random_games(
    n: int, x_stream: np.ndarray, o_stream: np.ndarray, lines: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    results = np.empty(n, dtype=np.int8)
    moves = np.full((n, 9), -1, dtype=np.int8)
    row = np.empty(9, dtype=np.int64)
    for game in range(n):
        row[:] = -1
        results[game] = _random_game(x_stream, o_stream, lines, row)
        moves[game, :] = row
    return results, moves


@njit(cache=True)
def _random_games_reseeded(seeds: np.ndarray, lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = seeds.shape[0]
    results = np.empty(n, dtype=np.int8)
    moves = np.full((n, 9), -1, dtype=np.int8)
    x_stream = np.zeros(MT_STATE_SIZE, dtype=np.int64)
    o_stream = np.zeros(MT_STATE_SIZE, dtype=np.int64)
    row = np.empty(9, dtype=np.int64)
    for game in range(n):
        mt_seed(x_stream, seeds[game])
        mt_seed(o_stream, seeds[game] + 1)
        row[:] = -1
        results[game] = _random_game(x_stream, o_stream, lines, row)
        moves[game, :] = row
    return results, moves


def random_games(n: int, seed0: int, seed1: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` games of two random players seeded ``seed0`` (X) and ``seed1`` (O), streams running on.

    Returns (results, moves): results[g] is 0 (X won), 1 (O won) or -1 (draw); moves[g] the squares
    played, padded with -1.
    """
    return _random_games(n, new_mt_state(seed0), new_mt_state(seed1), TTT_LINES)


def random_games_reseeded(seeds: Any) -> tuple[np.ndarray, np.ndarray]:
    """One game per seed, as ``play_game(tictactoe, [random, random], seed=s)`` plays it."""
    return _random_games_reseeded(np.asarray(seeds, dtype=np.int64), TTT_LINES)


# The full solve -------------------------------------------------------------------------------


@njit(cache=True)
def _solve(lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every board with legal counts (X's = O's or one more), children before parents."""
    values = np.zeros(TABLE_SIZE, dtype=np.int8)
    distances = np.full(TABLE_SIZE, -2, dtype=np.int8)  # -2: no game has these counts; -1: a draw
    xs = np.zeros(TABLE_SIZE, dtype=np.int64)
    os_ = np.zeros(TABLE_SIZE, dtype=np.int64)
    pieces = np.zeros(TABLE_SIZE, dtype=np.int64)
    powers = np.empty(9, dtype=np.int64)
    for square in range(9):
        powers[square] = 3 ** (8 - square)
    for index in range(TABLE_SIZE):
        rest = index
        x = 0
        o = 0
        for square in range(8, -1, -1):
            digit = rest % 3
            rest //= 3
            if digit == 2:
                x |= 1 << square
            elif digit == 1:
                o |= 1 << square
        xs[index] = x
        os_[index] = o
        nx = 0
        no = 0
        for square in range(9):
            nx += (x >> square) & 1
            no += (o >> square) & 1
        pieces[index] = nx + no if (nx == no or nx == no + 1) else -1
    for count in range(9, -1, -1):
        for index in range(TABLE_SIZE):
            if pieces[index] != count:
                continue
            x = xs[index]
            o = os_[index]
            if ttt_has_line(x, lines) or ttt_has_line(o, lines):
                values[index] = -1  # the side that has just moved has won
                distances[index] = 0
                continue
            if count == 9:
                values[index] = 0  # a full board without a line: drawn
                distances[index] = -1
                continue
            digit = 2 if count % 2 == 0 else 1  # X moves when the counts are equal
            best_rank = -1
            best_key = 0
            best_value = 0
            best_distance = -1
            for square in range(9):
                if ((x | o) >> square) & 1:
                    continue
                child = index + digit * powers[square]
                value = -values[child]
                distance = -1 if distances[child] < 0 else distances[child] + 1
                # outcome_key of solve/base.py: wins first (sooner better), draws, losses (later better)
                rank = 2 if value > 0 else (1 if value == 0 else 0)
                key = -distance if value > 0 else (distance if value < 0 else 0)
                if rank > best_rank or (rank == best_rank and key > best_key):
                    best_rank, best_key, best_value, best_distance = rank, key, value, distance
            values[index] = best_value
            distances[index] = best_distance
    return values, distances


def solve_all() -> tuple[np.ndarray, np.ndarray]:
    """Every tic-tac-toe board with legal counts solved, indexed as the td table is (base 3, square 0
    most significant, '.' 0, 'O' 1, 'X' 2): (value for the side to move: 1, 0, -1; plies to the end
    with best play, -1 for a draw, -2 for a board no game has).  The values and distances of
    ``gamelearn.solve`` (solve/base.py), for a superset of the 5,478 reachable positions."""
    return _solve(TTT_LINES)


def board_index(board: str) -> int:
    """The table index of a board string ('.', 'O', 'X'; square 0 most significant)."""
    index = 0
    for cell in board:
        index = index * 3 + ".OX".index(cell)
    return index


# The td learner -------------------------------------------------------------------------------


@njit(cache=True)
def _symmetric_weights(symmetries: np.ndarray, use_symmetry: bool) -> np.ndarray:
    """weights[s, square]: what a digit on ``square`` is worth in the index of the board's image
    under symmetry ``s`` (the square goes to symmetries[s, square]; square 0 most significant)."""
    count = symmetries.shape[0] if use_symmetry else 1
    weights = np.empty((count, 9), dtype=np.int64)
    for s in range(count):
        for square in range(9):
            weights[s, square] = 3 ** (8 - symmetries[s, square])
    return weights


@njit(cache=True)
def _td_selfplay(
    n: int,
    stream: np.ndarray,
    alpha: float,
    epsilon: float,
    use_symmetry: bool,
    values: np.ndarray,
    seen: np.ndarray,
    lines: np.ndarray,
    symmetries: np.ndarray,
) -> np.ndarray:
    """``n`` self-play games of one td player learning after each (players/td.py, draw for draw).

    The indices of the board's symmetric images are kept up to date move by move, so a candidate
    move's canonical index (the least image, as Game.canonical picks it) costs one add per symmetry.
    """
    weights = _symmetric_weights(symmetries, use_symmetry)
    images = weights.shape[0]
    image_index = np.zeros(images, dtype=np.int64)
    results = np.empty(n, dtype=np.int8)
    moves = np.empty(9, dtype=np.int64)
    scores = np.empty(9, dtype=np.float64)
    tied = np.empty(9, dtype=np.int64)
    after_index = np.empty(9, dtype=np.int64)
    for game in range(n):
        x = 0
        o = 0
        image_index[:] = 0
        result = DRAW
        plies = 0
        for ply in range(9):
            count = 0
            for square in range(9):
                if not ((x | o) >> square) & 1:
                    moves[count] = square
                    count += 1
            me = ply % 2
            digit = 2 if me == 0 else 1  # 'X' is 2, 'O' is 1
            if mt_random(stream) < epsilon:
                square = moves[mt_randbelow(stream, count)]
            else:
                best = -1.0
                for k in range(count):
                    bit = 1 << moves[k]
                    if ttt_has_line((x if me == 0 else o) | bit, lines):
                        score = 1.0
                    elif ply == 8:
                        score = 0.5
                    else:
                        index = image_index[0] + digit * weights[0, moves[k]]
                        for s in range(1, images):
                            candidate = image_index[s] + digit * weights[s, moves[k]]
                            if candidate < index:
                                index = candidate
                        score = values[index] if seen[index] else 0.5
                    scores[k] = score
                    if score > best:
                        best = score
                ties = 0
                for k in range(count):
                    if scores[k] == best:
                        tied[ties] = moves[k]
                        ties += 1
                square = tied[mt_randbelow(stream, ties)]
            if me == 0:
                x |= 1 << square
            else:
                o |= 1 << square
            least = -1
            for s in range(images):
                image_index[s] += digit * weights[s, square]
                if least < 0 or image_index[s] < least:
                    least = image_index[s]
            after_index[ply] = least
            plies = ply + 1
            if ttt_has_line(x if me == 0 else o, lines):
                result = me
                break
        results[game] = result
        # learn(record, None): side 0 then side 1, each backwards over the positions it moved into
        for learner in range(2):
            target = 0.5 if result == DRAW else (1.0 if result == learner else 0.0)
            last = plies - 1
            for ply in range(last, -1, -1):
                if ply % 2 != learner:
                    continue
                if ply == last:  # the final position: its value is the result, never learnt
                    continue
                index = after_index[ply]
                old = values[index] if seen[index] else 0.5
                new = old + alpha * (target - old)
                values[index] = new
                seen[index] = True
                target = new
    return results


def index_to_board(index: int) -> str:
    """The board string of a table index (square 0 the most significant base-3 digit)."""
    cells = []
    for _ in range(9):
        index, digit = divmod(index, 3)
        cells.append(".OX"[digit])
    return "".join(reversed(cells))


class TDTable:
    """A td player's table as the kernel keeps it, with the conversion to the player's keys."""

    def __init__(self, symmetry: bool = True) -> None:
        self.symmetry = symmetry
        self.values = np.full(TABLE_SIZE, 0.5, dtype=np.float64)
        self.seen = np.zeros(TABLE_SIZE, dtype=np.bool_)

    def as_dict(self) -> dict[str, float]:
        """{td key: value}, keys as players/td.py writes them: side to move, then the board."""
        table = {}
        for index in np.flatnonzero(self.seen):
            board = index_to_board(int(index))
            to_move = 0 if board.count("X") == board.count("O") else 1
            table[f"{to_move}{board}"] = float(self.values[index])
        return table


def td_selfplay(
    n: int, seed: int, alpha: float = 0.2, epsilon: float = 0.1, symmetry: bool = True, table: TDTable | None = None
) -> tuple[TDTable, np.ndarray]:
    """``n`` games of a td player (seeded ``seed``) against itself, learning after each.

    The same as ``p = make_player(tictactoe, f"td:alpha={alpha},epsilon={epsilon}", seed=seed)``
    then ``play_game(tictactoe, [p, p])`` ``n`` times.  Returns the table and each game's result.
    """
    table = table or TDTable(symmetry)
    stream = new_mt_state(seed)
    results = _td_selfplay(n, stream, alpha, epsilon, symmetry, table.values, table.seen, TTT_LINES, TTT_SYMMETRIES)
    return table, results


def train_td_player(game: Any, games: int, seed: int, alpha: float = 0.2, epsilon: float = 0.1) -> Any:
    """A tic-tac-toe ``td`` player trained by ``games`` self-play games in the kernel (seeded ``seed``).

    The table is the one the Python player would have learnt; the returned player's own random
    stream starts afresh from ``seed``.
    """
    from ..players.td import TDPlayer

    if game.name != "tictactoe":
        raise ValueError(f"the td kernel plays tic-tac-toe, not {game.name}")
    table, _ = td_selfplay(games, seed, alpha, epsilon)
    player = TDPlayer(game, seed=seed, alpha=alpha, epsilon=epsilon)
    player.values = table.as_dict()
    player.games_learnt = games
    return player
