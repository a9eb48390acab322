"""Connect Four's solver (gamelearn.solver.connect4) against independent oracles: the exhaustive
solver on every position of the small boards, a plain memoised negamax written here on positions
near the end of 7x6 games, and the results Allis (1988) proved for boards of 6 and 7 columns (the
empty board of each size against Tromp's table: tests/solver/test_connect4_sizes.py)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

import gamelearn
from gamelearn import get_game, make_player, play_game
from gamelearn.solver.base import move_outcome, outcome_key
from gamelearn.solver.connect4 import Connect4Solution, outcome_of_score
from gamelearn.solver.connect4.book import Book, build_book, load_book, save_book
from gamelearn.solver.exhaustive import ExhaustiveSolution


def naive_solver(game):  # type: ignore[no-untyped-def]
    """(value, distance) of a position by plain negamax over the rules, memoised: the fastest win,
    else a draw, else the slowest loss (small trees only)."""

    @cache
    def search(position) -> tuple[int, int | None]:  # type: ignore[no-untyped-def]
        if game.is_over(position):
            return (0, None) if game.winner(position) is None else (-1, 0)
        children = [search(game.play(position, move)) for move in game.legal_moves(position)]
        wins = [d for v, d in children if v < 0]
        if wins:
            return (1, min(wins) + 1)  # type: ignore[type-var, operator]
        if any(v == 0 for v, _ in children):
            return (0, None)
        return (-1, max(d for _, d in children) + 1)  # type: ignore[type-var, operator]

    return search


def random_position(game, rng: random.Random, plies: int):  # type: ignore[no-untyped-def]
    while True:
        state = game.initial()
        for _ in range(plies):
            if game.is_over(state):
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
        if not game.is_over(state):
            return state


def test_a_score_says_who_wins_and_at_which_ply() -> None:
    # 7x6, 42 squares: with 0 discs down, X's win with its last disc as the 41st scores 1 (X wins
    # by the last ply but one); with 40 down, X to move and a four at hand scores (43 - 40) // 2.
    assert outcome_of_score(1, 0, 42) == (1, 41)
    assert outcome_of_score(1, 40, 42) == (1, 1)
    assert outcome_of_score(-1, 1, 42) == (-1, 40)  # O to move, X's 41st disc wins
    assert outcome_of_score(0, 12, 42) == (0, None)
    assert outcome_of_score(-((42 - 10) // 2), 10, 42) == (-1, 2)  # the opponent's next disc wins


@pytest.mark.parametrize(("plies", "count"), [(38, 10), pytest.param(33, 40, marks=pytest.mark.slow)])
def test_late_7x6_positions_agree_with_a_plain_negamax(plies: int, count: int) -> None:
    game = get_game("connect4")
    solution = Connect4Solution(game, table_bits=16)
    naive = naive_solver(game)
    rng = random.Random(7)
    for _ in range(count):
        state = random_position(game, rng, plies)
        assert solution.outcome(state) == naive(state), game.board(state)
        results = {move: move_outcome(naive(game.play(state, move))) for move in game.legal_moves(state)}
        top = max(outcome_key(result) for result in results.values())
        assert solution.best_moves(state) == [move for move, result in results.items() if outcome_key(result) == top]


@pytest.mark.slow
def test_every_position_of_4x4_agrees_with_the_exhaustive_solver() -> None:
    """All 161,029 positions of 4x4: the value, the distance and perfect play's moves of each.
    5x4's 3,945,711 are benchmarks/connect4_small_boards.py's (its exhaustive solve alone is 46 CPU s)."""
    game = get_game("connect4:columns=4,rows=4")
    exhaustive = ExhaustiveSolution(game)
    searched = Connect4Solution(game, table_bits=20)
    for position in exhaustive.positions():
        assert searched.outcome(position) == exhaustive.outcome(position), game.board(position)
        # and perfect play's moves, asked of the search one null window a move
        assert searched.best_moves(position) == exhaustive.best_moves(position), game.board(position)
    assert exhaustive.reachable == 161_029


@pytest.mark.slow
def test_allis_black_holds_six_columns_and_seven_unless_white_starts_in_the_middle() -> None:
    """Allis (1988, abstract): the second player at least draws on every 6 x 2n board, and on every
    7 x 2n board where the first disc is not in the middle column.  On 6x4 the second player wins
    (with the last disc); on 7x4 only the middle column keeps the draw for X."""
    six = get_game("connect4:columns=6,rows=4")
    six_solution = Connect4Solution(six, table_bits=20)
    assert six_solution.outcome(six.initial()) == (-1, 24)
    seven = get_game("connect4:columns=7,rows=4")
    solution = Connect4Solution(seven, table_bits=20)
    firsts = {move: solution.result_of(seven.initial(), move) for move in seven.legal_moves(seven.initial())}
    assert {move for move, (value, _) in firsts.items() if value >= 0} == {"4"}
    assert solution.best_moves(seven.initial()) == ["4"]


def test_the_moves_of_the_book_s_positions_are_read_from_it_not_searched() -> None:
    """Allis (1988): on 7x4 only the middle column keeps the draw for X.  With a book to ply 3, the
    best moves of a position of the first plies are read from its children's scores in the book."""
    game = get_game("connect4:columns=7,rows=4")
    book = build_book(Connect4Solution(game, table_bits=16).searcher, 3)
    solution = Connect4Solution(game, book, table_bits=16)
    assert solution.best_moves(game.initial()) == ["4"]
    after = game.play(game.initial(), "3")
    assert solution.best_moves(after) == Connect4Solution(game, table_bits=16).best_moves(after)
    assert solution.searcher.searched == 0


def test_perfect_plays_connect4_by_the_search() -> None:
    game = get_game("connect4:columns=5,rows=4")
    perfect = make_player(game, "perfect", seed=1)
    assert isinstance(perfect.solution, Connect4Solution)  # type: ignore[attr-defined]
    for seed in range(4):
        record = play_game(game, [make_player(game, "random", seed=seed), perfect], seed=seed)
        assert record.winner != 0  # a draw with best play: random never beats it
    both = play_game(game, [perfect, make_player(game, "perfect", seed=2)], seed=5)
    assert both.winner is None and both.plies == 20


def test_perfect_wins_fastest_and_loses_slowest() -> None:
    game = get_game("connect4")
    solution = gamelearn.solve(game)
    rng = random.Random(3)
    for _ in range(10):
        state = random_position(game, rng, 30)
        best = solution.best_moves(state)
        results = {move: solution.result_of(state, move) for move in game.legal_moves(state)}
        top = max(results.values(), key=outcome_key)
        assert best == [move for move, result in results.items() if result == top]


def test_the_book_holds_what_the_search_says(tmp_path: Path) -> None:
    game = get_game("connect4:columns=5,rows=4")
    solution = Connect4Solution(game, table_bits=18)
    book = build_book(solution.searcher, 3)
    # every unfinished position of plies 0-3 by the rules, one a mirror pair (the lesser board)
    level, found = {game.initial()}, set()
    for _ in range(4):
        found |= {min(game.board(s), game.board(game.transform(s, 1))) for s in level if not game.is_over(s)}
        level = {game.play(s, m) for s in level for m in game.legal_moves(s)}
    assert book.plies == 3 and len(book) == len(found)
    fresh = Connect4Solution(game, table_bits=16)
    rng = random.Random(2)
    for _ in range(20):
        state = random_position(game, rng, rng.randrange(0, 4))
        key = fresh.searcher.key(*_own_both(state))
        assert book.get(key, (state[0] | state[1]).bit_count()) == fresh.score(state)
    path = tmp_path / "connect4-5x4.book"
    save_book(book, path)
    again = load_book(5, 4, path)
    assert again is not None and again.plies == 3 and (again.keys == book.keys).all()
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(ValueError, match="cut short"):
        load_book(5, 4, path)
    assert load_book(5, 4, tmp_path / "none.book") is None
    assert isinstance(again, Book)


def _own_both(state) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    both = state[0] | state[1]
    return (state[0] if both.bit_count() % 2 == 0 else state[1]), both


def test_a_board_too_large_for_the_search_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="columns x \\(rows \\+ 1\\) <= 63"):
        gamelearn.solve("connect4:columns=9,rows=8")


# BitBully (Markus Thill; AGPL): an independent solver, a test oracle only, never imported by gamelearn


def moves_to(game, rng: random.Random, plies: int) -> list[str]:  # type: ignore[no-untyped-def]
    """The moves of a seeded random game to an unfinished position of ``plies`` discs."""
    while True:
        state, moves = game.initial(), []
        for _ in range(plies):
            if game.is_over(state):
                break
            move = rng.choice(game.legal_moves(state))
            state, moves = game.play(state, move), [*moves, move]
        if not game.is_over(state) and len(moves) == plies:
            return moves


@pytest.mark.parametrize(
    ("low", "count"), [(22, 12), pytest.param(10, 200, marks=[pytest.mark.slow, pytest.mark.timeout(1800)])]
)
def test_scores_agree_with_bitbully(low: int, count: int) -> None:
    """The exact score (who wins, at which ply) of positions of seeded random games, ours against
    BitBully's, which counts a score as Pascal Pons' solver does, as ours does."""
    bitbully = pytest.importorskip(
        "bitbully", reason="BitBully is not installed (pip install bitbully): an optional oracle"
    )
    agent = bitbully.BitBully(None)  # no opening book: its own search on every position
    game = get_game("connect4")
    solution = Connect4Solution(game, table_bits=20)
    rng = random.Random(11)
    for _ in range(count):
        moves = moves_to(game, rng, rng.randrange(low, 31))
        state = game.initial()
        for move in moves:
            state = game.play(state, move)
        board = bitbully.Board("".join(str(int(move) - 1) for move in moves))
        assert solution.score(state) == agent.mtdf(board), "".join(moves)


def test_a_book_build_stopped_half_way_goes_on_where_it_was(tmp_path: Path) -> None:
    game = get_game("connect4:columns=5,rows=4")
    clean = Connect4Solution(game, table_bits=16).searcher
    whole = build_book(clean, 4)
    partial = tmp_path / "book.partial"

    class Stop(Exception):
        pass

    def stop_at_40(stage: str, done: int, total: int) -> None:
        if done == 40:
            raise Stop

    with pytest.raises(Stop):
        build_book(Connect4Solution(game, table_bits=16).searcher, 4, stop_at_40, partial=partial, save_every=10)
    kept = Book.from_bytes(partial.read_bytes())
    assert len(kept) == 40 and kept.plies == 4
    resumed = Connect4Solution(game, table_bits=16).searcher
    again = build_book(resumed, 4, partial=partial, save_every=10)
    assert (again.keys == whole.keys).all() and (again.scores == whole.scores).all()
    assert resumed.searched < clean.searched  # the 40 kept were not searched again
    assert not partial.exists()


def test_a_book_searched_by_worker_processes_is_the_book_searched_here() -> None:
    from gamelearn.experiments.runners import run_all

    game = get_game("connect4:columns=5,rows=4")
    here = build_book(Connect4Solution(game, table_bits=16).searcher, 5)
    chunks_run = []

    def in_two_processes(search, chunks, on_done) -> None:  # type: ignore[no-untyped-def]
        chunks_run.extend(chunks)
        run_all(search, chunks, 2, None, on_done)

    there = build_book(Connect4Solution(game, table_bits=16).searcher, 5, run=in_two_processes, chunk_size=40)
    sent = [key for chunk in chunks_run for key, _, _ in chunk.positions]
    assert len(chunks_run) > 2 and len(sent) == len(set(sent))  # several chunks, each position in one
    assert set(sent) <= set(here.keys.tolist())
    assert (there.keys == here.keys).all() and (there.scores == here.scores).all()
    assert there.cpu_seconds > 0  # the workers' CPU is counted


def test_the_solve_command_builds_the_book_and_reads_it_back() -> None:
    from typer.testing import CliRunner

    from gamelearn.cli.main import app

    runner = CliRunner()
    spec = "connect4:columns=5,rows=4"
    built = runner.invoke(app, ["solve", spec, "--plies", "3"])
    assert built.exit_code == 0, built.stderr
    assert "Built the opening book of connect4:columns=5,rows=4 to ply 3" in built.stdout
    assert "The start: a draw with best play." in built.stdout
    assert "1 loses in 20, 2 draws, 3 draws, 4 draws, 5 loses in 20" in built.stdout
    read = runner.invoke(app, ["solve", spec, "--json"])
    report = json.loads(read.stdout)
    assert report["book_plies"] == 3 and report["start_value"] == 0 and report["first_moves"]["1"] == [-1, 20]
    assert gamelearn.solve(spec).book is not None  # perfect and hints read it
    refused = runner.invoke(app, ["solve", spec, "--variants"])
    assert refused.exit_code == 2 and "connect4 takes --plies" in refused.stderr
    elsewhere = runner.invoke(app, ["solve", "tictactoe", "--workers", "2"])
    assert elsewhere.exit_code == 2 and "--workers and --dask are for Connect Four's opening book" in elsewhere.stderr
    too_large = runner.invoke(app, ["solve", "connect4:columns=9,rows=8"])
    assert too_large.exit_code == 2 and "columns x (rows + 1) <= 63" in too_large.stderr


def test_a_half_built_book_is_told_kept_from_other_builds_and_named_when_damaged(isolated_home: Path) -> None:
    """Hours of search kept half-way: ``solve`` says what is kept and how to go on, a build of other
    plies refuses to overwrite it, a build of its plies goes on from it, and a damaged one is named."""
    from typer.testing import CliRunner

    from gamelearn.cli.main import app

    runner, spec = CliRunner(), "connect4:columns=5,rows=4"
    assert runner.invoke(app, ["solve", spec, "--plies", "3"]).exit_code == 0  # a book to ply 3
    partial = isolated_home / "solved" / "connect4-5x4.book.partial"

    def stop_at_40(stage: str, done: int, total: int) -> None:
        if done == 40:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # a build to ply 4 stopped half-way, as ^C stops it
        build_book(Connect4Solution(get_game(spec), table_bits=16).searcher, 4, stop_at_40, partial=partial)
    kept = partial.read_bytes()

    told = runner.invoke(app, ["solve", spec])
    assert told.exit_code == 0 and "Read the opening book of connect4:columns=5,rows=4 to ply 3" in told.stdout
    assert "A half-built book to ply 4 is kept: 40 positions of ply 4 searched so far" in told.stdout
    assert f"`gamelearn solve {spec} --plies 4` goes on from there" in told.stdout
    report = json.loads(runner.invoke(app, ["solve", spec, "--json"]).stdout)
    assert report["half_built"] == {"plies": 4, "positions": 40, "path": str(partial.absolute())}

    other = runner.invoke(app, ["solve", spec, "--plies", "5"])
    assert other.exit_code == 2 and other.stdout == "", other.stdout
    assert "a half-built book of connect4:columns=5,rows=4 to ply 4 is kept in" in other.stderr
    assert "go on with --plies 4, or remove it to build another" in other.stderr
    assert partial.read_bytes() == kept  # not overwritten

    partial.write_bytes(kept[:-10])  # cut short
    damaged = runner.invoke(app, ["solve", spec])
    assert damaged.exit_code == 2 and len(damaged.stderr.strip().splitlines()) == 1, damaged.stderr
    assert "connect4-5x4.book.partial: a Connect Four book cut short" in damaged.stderr
    assert "remove it and the build starts afresh" in damaged.stderr

    partial.write_bytes(kept)
    went_on = runner.invoke(app, ["solve", spec, "--plies", "4"])
    assert went_on.exit_code == 0 and "Built the opening book of connect4:columns=5,rows=4 to ply 4" in went_on.stdout
    assert "half-built" not in went_on.stdout and not partial.exists()
    assert json.loads(runner.invoke(app, ["solve", spec, "--json"]).stdout)["half_built"] is None


ASK = """
import json, sys
import gamelearn
game = gamelearn.get_game("connect4")
solution = gamelearn.solve("connect4")
outcomes = []
for moves in sys.argv[1:]:
    state = game.initial()
    for move in moves:
        state = game.play(state, move)
    outcomes.append(solution.outcome(state))
print(json.dumps({"outcomes": outcomes, "searched": solution.searcher.searched}))
"""


def ask(*games: str) -> subprocess.Popen[str]:
    """A fresh process that asks gamelearn.solve("connect4") the outcome of each game's position."""
    return subprocess.Popen(
        [sys.executable, "-c", ASK, *games], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def answer(process: subprocess.Popen[str]) -> dict:  # type: ignore[type-arg]
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


@pytest.mark.slow
def test_solved_positions_are_kept_beside_the_book_for_later_processes(isolated_home: Path) -> None:
    """The positions one process searches are read by the next, which searches none of them;
    two processes that search at once both add theirs to the file, neither undoing the other's."""
    game = get_game("connect4")
    rng = random.Random(47)
    first = ["".join(moves_to(game, rng, rng.randrange(14, 19))) for _ in range(4)]
    second = ["".join(moves_to(game, rng, rng.randrange(14, 19))) for _ in range(4)]
    third = ["".join(moves_to(game, rng, rng.randrange(14, 19))) for _ in range(4)]
    fresh = Connect4Solution(game, table_bits=18)  # the oracle: a search that keeps nothing
    expected = {}
    for moves in first + second + third:
        state = game.initial()
        for move in moves:
            state = game.play(state, move)
        expected[moves] = list(fresh.outcome(state))
    path = isolated_home / "solved" / "connect4-7x6.solved"

    one = answer(ask(*first))
    assert one["searched"] > 0 and one["outcomes"] == [expected[m] for m in first]
    assert len(Book.from_bytes(path.read_bytes())) >= len(first)
    again = answer(ask(*first))
    assert again["searched"] == 0 and again["outcomes"] == one["outcomes"]  # read back, not searched

    both = [ask(*second), ask(*third)]  # at once: each merges into the file under its lock
    for process, games in zip(both, (second, third), strict=True):
        told = answer(process)
        assert told["searched"] > 0 and told["outcomes"] == [expected[m] for m in games]
    every = answer(ask(*first, *second, *third))
    assert every["searched"] == 0 and every["outcomes"] == [expected[m] for m in first + second + third]


def test_a_damaged_solved_file_is_named_in_one_line(isolated_home: Path) -> None:
    from gamelearn.solver.connect4 import solve_connect4

    path = isolated_home / "solved" / "connect4-5x4.solved"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a book")
    with pytest.raises(ValueError, match=r"connect4-5x4\.solved: not a gamelearn Connect Four book; remove it"):
        solve_connect4(get_game("connect4:columns=5,rows=4"))  # type: ignore[arg-type]
