"""Games against perfect play (:mod:`gamelearn.experiments.versus_perfect`) with either perfect
player: the project's own solver, or BitBully (Markus Thill's solver, ``pip install bitbully
bitbully-databases``; AGPL-3.0, so a benchmark and test oracle only, reached through
``benchmarks/connect4_bitbully.py`` and never imported by gamelearn).  On positions the project's
solver answers quickly (ply 12 on, where BitBully reads its book of 12-disc positions or searches)
both name the same value, distance and best moves, and the same games are played with either; a
kept learner's spec plays what the store keeps."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import gamelearn
from gamelearn.experiments.grading import graded_player
from gamelearn.experiments.versus_perfect import against_perfect
from gamelearn.players.perfect import PerfectPlayer
from gamelearn.players.registry import graded_spec, make_player
from gamelearn.solver.connect4 import Connect4Solution

GAME = gamelearn.get_game("connect4")
ORACLE = Path(__file__).resolve().parents[2] / "benchmarks" / "connect4_bitbully.py"


@pytest.fixture(scope="module")
def oracle() -> ModuleType:
    """benchmarks/connect4_bitbully.py, loaded from its file (benchmarks/ is not a package)."""
    pytest.importorskip("bitbully", reason="BitBully is not installed (pip install bitbully): an optional oracle")
    pytest.importorskip(
        "bitbully_databases", reason="BitBully's opening books are not installed (pip install bitbully-databases)"
    )
    spec = importlib.util.spec_from_file_location("connect4_bitbully", ORACLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def position_at(rng: random.Random, plies: int) -> tuple[str, Any]:
    """A position of a seeded uniformly random game after ``plies`` plies, the game not over."""
    while True:
        state, moves = GAME.initial(), ""
        while len(moves) < plies and not GAME.is_over(state):
            move = rng.choice(GAME.legal_moves(state))
            state, moves = GAME.play(state, move), moves + move
        if not GAME.is_over(state):
            return moves, state


def test_bitbully_reads_the_position_it_is_given(oracle: ModuleType) -> None:
    solution = oracle.BitBullySolution(GAME)
    moves, state = position_at(random.Random(4), 17)
    board = solution.board(state)
    assert board == oracle.bitbully.Board("".join(str(int(move) - 1) for move in moves))
    assert sorted(solution.move_scores(state)) == sorted(GAME.legal_moves(state))
    # The empty board: only the middle column wins, with the last disc (Allis 1988).
    assert solution.move_scores(GAME.initial()) == {"1": -2, "2": -1, "3": 0, "4": 1, "5": 0, "6": -1, "7": -2}
    assert solution.best_moves(GAME.initial()) == ["4"] and solution.outcome(GAME.initial()) == (1, 41)
    with pytest.raises(ValueError, match="7x6"):
        oracle.BitBullySolution(gamelearn.get_game("connect4:columns=5,rows=4"))


@pytest.mark.slow
def test_both_perfect_players_choose_the_same_moves(oracle: ModuleType) -> None:
    """Value, distance and the set of best moves, ours against BitBully's, on 24 positions of
    seeded random games: 4 of ply 12 (the last ply of BitBully's book with distances), 20 from
    ply 14 to 30 (BitBully's search; ply 13 and the rest of 12 would cost our search seconds a
    position)."""
    ours, theirs = Connect4Solution(GAME, table_bits=20), oracle.BitBullySolution(GAME)
    rng = random.Random(12)
    plies = [12] * 4 + [rng.randrange(14, 31) for _ in range(20)]
    for ply in plies:
        moves, state = position_at(rng, ply)
        assert theirs.outcome(state) == ours.outcome(state), moves
        assert theirs.best_moves(state) == ours.best_moves(state), moves
        # the same seed, the same choice among the best moves
        assert PerfectPlayer(GAME, seed=ply, solution=theirs).choose(state) == PerfectPlayer(
            GAME, seed=ply, solution=ours
        ).choose(state)


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "side", "plies"), [("random", 0, 14), ("alphabeta:depth=2", 1, 15)])
def test_the_games_are_the_same_with_either_perfect_player(
    oracle: ModuleType, spec: str, side: int, plies: int
) -> None:
    ours = against_perfect(GAME, spec, side, games=4, plies=plies, seed=7, solution=Connect4Solution(GAME))
    theirs = against_perfect(GAME, spec, side, games=4, plies=plies, seed=7, solution=oracle.BitBullySolution(GAME))
    clocks = {"cpu_seconds", "move_cpu_mean", "move_cpu_worst"}
    assert {k: v for k, v in theirs.items() if k not in clocks} == {k: v for k, v in ours.items() if k not in clocks}
    assert ours["games"] == 4 and ours["moves"] > 0
    assert 0 <= ours["move_cpu_mean"] <= ours["move_cpu_worst"] <= ours["cpu_seconds"]
    if side == 0:  # moving first, only won openings are played
        assert ours["openings_won"] == 4 and ours["won"] + ours["drawn"] + ours["lost"] == 4


@pytest.mark.slow
def test_a_kept_learner_plays_from_the_store_by_its_spec() -> None:
    """The spec of a kept learner plays what the store keeps (frozen, greedy): the same games as
    the learner loaded by hand, and from won openings of tic-tac-toe it wins every game, which the
    same spec unloaded (an untrained learner) does not."""
    game = gamelearn.get_game("tictactoe")
    gamelearn.train(game, "ntuple", name="k", games=20_000, grade=False, seed=1, checkpoints=1)
    by_spec = against_perfect(game, "ntuple:name=k", 0, games=10, plies=2, seed=1)
    loaded = against_perfect(game, graded_player(game, "ntuple:name=k", seed=1), 0, games=10, plies=2, seed=1)
    clocks = {"cpu_seconds", "move_cpu_mean", "move_cpu_worst"}
    assert {k: v for k, v in by_spec.items() if k not in clocks} == {k: v for k, v in loaded.items() if k not in clocks}
    assert by_spec["openings_won"] == by_spec["won"] == 10 and by_spec["short"] == 0
    untrained = make_player(game, graded_spec(game, "ntuple:name=k"), seed=1)  # not loaded from the store
    assert against_perfect(game, untrained, 0, games=10, plies=2, seed=1)["won"] < 10
