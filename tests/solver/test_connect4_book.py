"""The standard board's opening book, shipped with the package: every position of its first seven
plies, checked against the positions counted by ply (OEIS A212693, John Tromp's counts), the
first moves' published scores (Allis 1988; Pascal Pons' -2 -1 0 1 0 -1 -2), a fresh search of a
seeded sample, and, where BitBully (Markus Thill's solver; AGPL, a test oracle only) is installed,
its score of every position of the book."""

from __future__ import annotations

import json
import random
from functools import cache

import pytest

from gamelearn import get_game
from gamelearn.paths import data_dir
from gamelearn.solver.connect4 import Connect4Solution
from gamelearn.solver.connect4.book import Book, load_book, save_book, shipped_book
from gamelearn.solver.connect4.searcher import Connect4Searcher

#: Distinct positions of the standard board after each ply, finished ones included (OEIS A212693).
POSITIONS_BY_PLY = [1, 7, 49, 238, 1120, 4263, 16422, 54859]
GAME = get_game("connect4")


@cache
def book() -> Book:
    found = shipped_book(7, 6)
    assert found is not None, "the package ships no book of the standard board"
    return found


@cache
def states_by_ply() -> list[set]:  # type: ignore[type-arg]
    """Every position of each ply up to 7, by the rules (not the book's own enumeration)."""
    levels = [{GAME.initial()}]
    for _ in range(7):
        levels.append(
            {
                GAME.play(state, move)
                for state in levels[-1]
                if not GAME.is_over(state)
                for move in GAME.legal_moves(state)
            }
        )
    return levels


def moves_of(state) -> str:  # type: ignore[no-untyped-def]
    """BitBully's move string of a position (columns from 0): any order of a column's discs that
    alternates X and O reaches it, so this rebuilds one from the squares."""
    x, o = state[0], state[1]
    remaining = [[1 if x >> (column * 7 + row) & 1 else 2 for row in range(6) if (x | o) >> (column * 7 + row) & 1]
                 for column in range(7)]  # fmt: skip
    moves, side = "", 1
    heights = [0] * 7

    def place(moves: str, side: int) -> str | None:
        if all(heights[c] == len(remaining[c]) for c in range(7)):
            return moves
        for column in range(7):
            if heights[column] < len(remaining[column]) and remaining[column][heights[column]] == side:
                heights[column] += 1
                found = place(moves + str(column), 3 - side)
                if found is not None:
                    return found
                heights[column] -= 1
        return None

    found = place(moves, side)
    assert found is not None
    return found


def test_the_book_holds_every_unfinished_position_of_the_first_seven_plies_once() -> None:
    levels = states_by_ply()
    assert [len(level) for level in levels] == POSITIONS_BY_PLY
    searcher = Connect4Searcher(7, 6, table_bits=10)
    wanted = set()
    for level in levels:
        for state in level:
            if not GAME.is_over(state):
                x, o = state[0], state[1]
                own = x if (x | o).bit_count() % 2 == 0 else o
                wanted.add(searcher.key(own, x | o))
    shipped = book()
    assert shipped.shipped and shipped.plies == 7
    assert len(shipped) == len(wanted) and set(shipped.keys.tolist()) == wanted
    assert shipped.cpu_seconds > 3600  # the build's own record: hours of search, not a copy


def test_the_first_moves_score_as_published() -> None:
    solution = Connect4Solution(GAME, book())
    start = GAME.initial()
    scores = [-solution.score(GAME.play(start, str(column))) for column in range(1, 8)]
    assert scores == [-2, -1, 0, 1, 0, -1, -2]
    assert solution.score(start) == 1  # X wins with its 21st disc, the board's 41st (Allis 1988)
    assert solution.searcher.searched == 0  # all of it read from the book


def test_a_seeded_sample_of_the_deepest_ply_is_what_a_fresh_search_finds() -> None:
    shipped, solution = book(), Connect4Solution(GAME, table_bits=20)
    level = sorted(states_by_ply()[7], key=repr)
    sample = [state for state in random.Random(7).sample(level, 40) if not GAME.is_over(state)][:6]
    for state in sample:
        x, o = state[0], state[1]
        key = solution.searcher.key(o, x | o)  # ply 7: O to move
        assert shipped.get(key, 7) == solution.score(state)
    assert solution.searcher.searched > 0


def test_every_score_of_the_book_is_bitbully_s() -> None:
    bitbully = pytest.importorskip(
        "bitbully", reason="BitBully is not installed (pip install bitbully): an optional oracle"
    )
    pytest.importorskip(
        "bitbully_databases", reason="BitBully's opening books are not installed (pip install bitbully-databases)"
    )
    agent = bitbully.BitBully("12-ply-dist")  # the exact score of every 12-disc position
    shipped, searcher = book(), Connect4Searcher(7, 6, table_bits=10)
    checked = 0
    for level in states_by_ply():
        for state in level:
            if GAME.is_over(state):
                continue
            x, o = state[0], state[1]
            own = x if (x | o).bit_count() % 2 == 0 else o
            score = shipped.get(searcher.key(own, x | o), (x | o).bit_count())
            assert score == agent.mtdf(bitbully.Board(moves_of(state))), moves_of(state)
            checked += 1
    assert checked > len(shipped)  # each position and its mirror image


def test_a_deeper_book_built_in_the_data_directory_is_read_before_the_shipped_one() -> None:
    shipped, built = book(), data_dir() / "solved" / "connect4-7x6.book"
    assert load_book(7, 6).shipped  # type: ignore[union-attr]  # nothing built: the shipped one
    save_book(Book(shipped.plies + 1, shipped.keys, shipped.scores), built)
    deeper = load_book(7, 6)
    assert deeper is not None and deeper.plies == 8 and not deeper.shipped and deeper.source == str(built)
    save_book(Book(3, shipped.keys[:10], shipped.scores[:10]), built)
    assert load_book(7, 6).shipped  # type: ignore[union-attr]  # a shallower one is passed over
    assert load_book(7, 6, built).plies == 3  # type: ignore[union-attr]  # unless named


def test_a_book_file_is_compressed_and_reads_back_whole() -> None:
    shipped = book()
    data = shipped.to_bytes()
    assert len(data) < len(shipped) * 9 / 5  # the keys' steps and the scores compressed, not 9 bytes each
    again = Book.from_bytes(data)
    assert again.plies == shipped.plies and again.cpu_seconds == shipped.cpu_seconds
    assert again.keys.tolist() == shipped.keys.tolist() and again.scores.tolist() == shipped.scores.tolist()


def test_a_book_of_the_first_format_still_reads() -> None:
    # Books, solved positions and half-built books written before the compressed format: the
    # header line, then every key (little-endian int64) and every score (int8) as they are.
    keys, scores = [5, 3, 1 << 40], [2, -1, 0]
    header = b"gamelearn connect4 book 1\nplies=4 positions=3 cpu_seconds=1.5\n"
    data = header + b"".join(key.to_bytes(8, "little") for key in keys) + bytes(score & 0xFF for score in scores)
    old = Book.from_bytes(data)
    assert old.plies == 4 and old.cpu_seconds == 1.5
    assert [old.get(key, 4) for key in keys] == scores and old.get(4, 4) is None and old.get(5, 5) is None


@pytest.mark.parametrize("cut", [1, 200, 20_000])
def test_a_book_cut_short_is_refused_in_one_line(cut: int) -> None:
    data = book().to_bytes()
    with pytest.raises(ValueError, match=r"^a Connect Four book cut short"):
        Book.from_bytes(data[:-cut])


def test_the_solve_command_reads_the_shipped_book() -> None:
    from typer.testing import CliRunner

    from gamelearn.cli.main import app

    read = CliRunner().invoke(app, ["solve", "connect4"])
    assert read.exit_code == 0, read.stderr
    assert f"Read the shipped opening book of connect4 to ply 7: {len(book()):,} positions" in read.stdout
    assert "The start: X (to move) wins in 41 plies with best play." in read.stdout
    assert "4 wins in 41" in read.stdout and "3 draws" in read.stdout and "1 loses in 40" in read.stdout
    report = json.loads(CliRunner().invoke(app, ["solve", "connect4", "--json"]).stdout)
    assert report["book_shipped"] and report["book_plies"] == 7 and report["start_distance"] == 41
