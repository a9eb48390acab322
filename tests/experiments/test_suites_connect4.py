"""Connect Four's shipped suites (``connect4-v1``, ``connect4-val-v1``): stratified as their files
say, every position one where a mistake is possible, the two suites disjoint up to the mirror, a
sample of the shipped move values against a fresh solve by the project's solver (and against
BitBully where it is installed), the grade of random against its expectation from the suite, perfect
keeping everything, and random losing to perfect from a won opening."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from typer.testing import CliRunner

import gamelearn
from gamelearn.cli.main import app
from gamelearn.experiments import suites_connect4 as shipped
from gamelearn.experiments.grading import grade_player, graded_player
from gamelearn.experiments.suites import Suite, get_suite
from gamelearn.experiments.versus_perfect import against_perfect
from gamelearn.solver.base import move_outcome
from gamelearn.solver.connect4 import Connect4Solution, outcome_of_score

runner = CliRunner()
GAME = gamelearn.get_game("connect4")


def discs(state: Any) -> int:
    return (state[0] | state[1]).bit_count()


@pytest.mark.parametrize("name", shipped.NAMES)
def test_the_suite_is_stratified_as_its_file_says(name: str) -> None:
    suite = get_suite(GAME, name)
    header = shipped.shipped_header(name)
    assert suite.name == name and len(suite) == int(header["positions"]) > 0
    assert suite.counts() == json.loads(header["strata"])
    # Both phases and both values, each phase's positions of its plies.
    assert {key.split("/")[0] for key in suite.counts()} == {"opening", "endgame"}
    assert {key.split("/")[1] for key in suite.counts()} == {"win", "draw"}
    for position in suite.positions:
        ply = discs(position.state)
        assert ply >= shipped.MIN_PLY
        assert position.phase == ("opening" if ply < shipped.OPENING_END else "endgame")
        # Only positions where a mistake is possible: a move keeps the value and one loses it
        # (a draw thrown to a loss, or a win thrown to a draw or a loss).
        assert position.value in (0, 1) and position.keeping
        assert len(position.keeping) < len(GAME.legal_moves(position.state))
        assert set(position.best) <= set(position.keeping)
        assert not set(position.keeping) & set(position.losing)
    # Drawn evenly: no stratum takes more than its share while another holds less than it has
    # (a stratum under its share is one random play seldom reaches).
    counts = suite.counts()
    share = math.ceil(len(suite) / 12)
    assert min(counts.values()) <= share <= max(counts.values())
    assert sum(counts.values()) == len(suite)


def test_the_two_suites_share_no_position_up_to_the_mirror() -> None:
    report, held_out = ({GAME.canonical(p.state)[0] for p in get_suite(GAME, name).positions} for name in shipped.NAMES)
    assert len(report) == len(get_suite(GAME, shipped.REPORT_NAME))
    assert len(held_out) == len(get_suite(GAME, shipped.VALIDATION_NAME))
    assert not report & held_out


def sample(count: int, seed: int) -> list[tuple[str, list[Any]]]:
    """``count`` shipped lines of each suite, drawn with ``seed``."""
    lines = []
    for name in shipped.NAMES:
        found = shipped.shipped_lines(name)
        lines += random.Random(seed).sample(found, count)
    return lines


@pytest.mark.slow
def test_a_sample_of_the_shipped_values_agrees_with_a_fresh_solve() -> None:
    solution = Connect4Solution(GAME, table_bits=20)  # no book, an empty table: searched afresh
    for moves, outcomes in sample(12, 1):
        state = shipped.state_of(GAME, moves)
        fresh = dict(solution.move_outcomes(state))
        assert [fresh.get(str(column)) for column in range(1, 8)] == outcomes, moves


@pytest.mark.slow
def test_a_sample_of_the_shipped_values_agrees_with_bitbully() -> None:
    """BitBully (Markus Thill's solver; AGPL, a test oracle only, never imported by gamelearn)
    scores each move's position as Pascal Pons' solver does, which names the outcome."""
    bitbully = pytest.importorskip(
        "bitbully", reason="BitBully is not installed (pip install bitbully): an optional oracle"
    )
    agent = bitbully.BitBully(None)
    for moves, outcomes in sample(20, 2):
        state = shipped.state_of(GAME, moves)
        for column, stored in enumerate(outcomes, start=1):
            if stored is None:
                assert str(column) not in GAME.legal_moves(state)
                continue
            child = GAME.play(state, str(column))
            if GAME.is_over(child):
                assert stored == ((1, 1) if GAME.winner(child) is not None else (0, None))
                continue
            score = agent.mtdf(bitbully.Board("".join(str(int(m) - 1) for m in moves + str(column))))
            assert move_outcome(outcome_of_score(score, discs(child), 42)) == stored, (moves, column)


def random_expectation(suite: Suite) -> tuple[float, float]:
    """A uniformly random mover's expected keeps on the suite and its standard deviation: each
    position a Bernoulli trial with the share of legal moves that keep the value."""
    shares = [len(p.keeping) / len(GAME.legal_moves(p.state)) for p in suite.positions]
    mean = sum(shares) / len(shares)
    spread = math.sqrt(sum(s * (1 - s) for s in shares)) / len(shares)
    return mean, spread


@pytest.mark.parametrize("name", shipped.NAMES)
def test_random_keeps_what_the_suite_says_it_should(name: str) -> None:
    suite = get_suite(GAME, name)
    (report,) = gamelearn.grade("connect4", ["random"], suite=name)
    assert report.suite == name and report.size == len(suite)
    mean, spread = random_expectation(suite)
    assert abs(report.keeps - mean) <= 4 * spread
    assert 0 < report.keeps < 1 and report.blunders > 0


@pytest.mark.slow
def test_perfect_keeps_every_position_and_plays_the_best_move() -> None:
    suite = get_suite(GAME)
    picked = Suite(suite.name, suite.game, "a sample", tuple(random.Random(3).sample(suite.positions, 12)))
    report = grade_player(graded_player(GAME, "perfect"), picked)
    assert (report.keeps, report.best, report.blunders) == (1.0, 1.0, 0.0)


def test_grade_reads_the_held_out_suite_and_names_the_suites_for_another() -> None:
    result = runner.invoke(app, ["grade", "connect4", "random", "--suite", shipped.VALIDATION_NAME, "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    assert found["suite"] == shipped.VALIDATION_NAME and found["size"] == len(get_suite(GAME, shipped.VALIDATION_NAME))
    assert set(found["grades"][0]["by_phase"]) == {"opening", "endgame"}
    result = runner.invoke(app, ["grade", "connect4", "random", "--suite", "connect4-v9"])
    assert result.exit_code == 2
    assert "connect4-v1, connect4-val-v1" in result.output
    result = runner.invoke(app, ["grade", "connect4:columns=5,rows=4", "random"])
    assert result.exit_code == 2 and "7x6" in result.output


@pytest.mark.slow
def test_random_moving_first_from_won_openings_loses_them_to_perfect() -> None:
    # 12-ply openings, so that each opening's value is quick to search without the book.
    result = against_perfect(GAME, "random", side=0, games=3, plies=12, seed=5)
    assert result["games"] == result["openings_won"] == 3
    assert result["won"] == 0 and result["short"] == 3 and result["lost"] >= 1
    assert result["won_low"] == pytest.approx(0.0, abs=1e-9) and result["cpu_seconds"] > 0
    for shortfall in result["shortfalls"]:  # each game replays, by the rules, to its result
        state = GAME.initial()
        for move in shortfall["opening"] + shortfall["moves"]:
            state = GAME.play(state, move)
        assert GAME.is_over(state) and len(shortfall["moves"]) == shortfall["plies"]
        assert shortfall["result"] == {None: 0, 0: 1, 1: -1}[GAME.winner(state)]


@pytest.mark.slow
def test_perfect_moving_second_never_falls_short_of_the_opening() -> None:
    result = against_perfect(GAME, "perfect", side=1, games=3, plies=13, seed=6)
    assert result["games"] == 3 and result["short"] == 0
    assert result["won"] == result["openings_won"] and result["lost"] == result["openings_lost"]
