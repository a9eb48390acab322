"""The yardstick: suites of graded positions and the grade of players on them, checked against a
negamax written here from the rules alone (not the solver's), and the command that prints them."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import gamelearn
from gamelearn.cli.main import app
from gamelearn.experiments.api import grade
from gamelearn.experiments.grading import grade_player, graded_player, judge, position_seed, spec_side
from gamelearn.experiments.suites import TEEKO_SUITE_SIZE, get_suite
from gamelearn.players.registry import graded_spec

runner = CliRunner()


def oracle(game_name: str) -> Any:
    """value(state) for the side to move (+1, 0, -1) by a plain memoised negamax over the rules."""
    game = gamelearn.get_game(game_name)

    @cache
    def value(state: Any) -> int:
        if game.winner(state) is not None:
            return -1  # the side that just moved has won
        moves = game.legal_moves(state)
        if not moves:
            return 0
        return max(-value(game.play(state, move)) for move in moves)

    return game, value


def mistakes_possible(game_name: str) -> dict[Any, tuple[int, list[str]]]:
    """Every reachable position where a move loses value: state -> (value, keeping moves)."""
    game, value = oracle(game_name)
    found: dict[Any, tuple[int, list[str]]] = {}
    seen = set()
    stack = [game.initial()]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        if game.winner(state) is not None or not game.legal_moves(state):
            continue
        results = {move: -value(game.play(state, move)) for move in game.legal_moves(state)}
        here = value(state)
        if here >= 0 and any(result < here for result in results.values()):
            found[state] = (here, sorted(m for m, r in results.items() if r == here))
        stack.extend(game.play(state, move) for move in game.legal_moves(state))
    return found


@pytest.mark.parametrize("game_name", ["tictactoe", "hexapawn"])
def test_the_small_games_suites_hold_every_position_where_a_move_loses_value(game_name: str) -> None:
    suite = get_suite(game_name)
    expected = mistakes_possible(game_name)
    assert len(suite) == len(expected)
    for position in suite.positions:
        value, keeping = expected[position.state]
        assert position.value == value
        assert sorted(position.keeping) == keeping
        assert set(position.best) <= set(position.keeping)
        assert not set(position.losing) & set(position.keeping)
    assert suite.name == f"{game_name}-v1"


def test_no_suite_holds_a_lost_position_or_a_finished_game() -> None:
    game, value = oracle("tictactoe")
    for position in get_suite("tictactoe").positions:
        assert not game.is_over(position.state) and value(position.state) >= 0


def test_perfect_keeps_every_position_and_random_keeps_its_exact_expectation() -> None:
    game, value = oracle("tictactoe")
    suite = get_suite(game)
    # The expectation of a uniformly random move, from the oracle: the mean share of keeping moves.
    expectation = sum(
        len(keeping) / len(game.legal_moves(state)) for state, (_, keeping) in mistakes_possible("tictactoe").items()
    ) / len(suite)
    perfect, random_player = grade(game, ["perfect", "random"], seed=3)
    assert perfect.keeps == perfect.best == 1.0 and perfect.blunders == 0.0
    assert abs(random_player.keeps - expectation) < 0.02
    assert 0 < random_player.blunders < 1 - random_player.keeps + 1e-9


@pytest.mark.slow  # a second process
def test_a_grade_is_the_same_for_the_same_seed_in_one_process_or_two() -> None:
    game = gamelearn.get_game("tictactoe")
    alone = grade(game, ["random", "mcts:playouts=20"], seed=5, workers=1)
    spread = grade(game, ["random", "mcts:playouts=20"], seed=5, workers=2)
    assert [r.to_dict() for r in alone] == [r.to_dict() for r in spread]
    other = grade(game, ["random"], seed=6, workers=1)
    assert other[0].counts != alone[0].counts


def test_learners_are_graded_frozen_and_greedy() -> None:
    game = gamelearn.get_game("tictactoe")
    assert graded_spec(game, "td:alpha=0.5") == "td:alpha=0.5,train=off,epsilon=0"
    assert graded_spec(game, "td:epsilon=0.3,train=on") == "td:train=off,epsilon=0"
    assert graded_spec(game, "random") == "random"
    assert graded_spec(game, "minimax:depth=2,eval=better") == "minimax:depth=2,eval=better"
    player = graded_player(game, "td")
    assert player.trains is False and player.epsilon == 0  # type: ignore[attr-defined]


def test_phases_and_values_split_the_whole_grade() -> None:
    suite = get_suite("tictactoe")
    (result,) = grade("tictactoe", ["minimax:depth=1,eval=simple"], seed=0)
    sizes = {phase: sum(p.phase == phase for p in suite.positions) for phase in suite.phases()}
    weighted = sum(result.by_phase[phase]["keeps"] * size for phase, size in sizes.items())  # type: ignore[operator]
    assert weighted == pytest.approx(result.keeps * len(suite))
    assert set(result.by_value) == {"win", "draw"}


def test_a_resignation_is_a_blunder() -> None:
    position = get_suite("hexapawn").positions[0]
    assert judge(position, None).blunders == 1 and judge(position, None).keeps == 0


def test_grade_player_grades_a_player_already_made() -> None:
    game = gamelearn.get_game("hexapawn")
    report = grade_player(gamelearn.make_player(game, "sharp", seed=0), get_suite(game))
    assert report.keeps == 1.0 and report.spec.startswith("sharp")  # sharp finds every forced win of hexapawn


def test_grade_json_holds_each_spec_with_shares() -> None:
    result = runner.invoke(app, ["grade", "tictactoe", "perfect", "random", "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["suite"] == "tictactoe-v1" and payload["size"] == len(get_suite("tictactoe"))
    specs = [row["spec"] for row in payload["grades"]]
    assert specs == ["perfect", "random"]
    for row in payload["grades"]:
        for measure in ("keeps", "best", "blunders"):
            assert 0 <= row[measure] <= 1
    assert payload["grades"][0]["keeps"] == 1.0


def test_grade_table_fits_80_columns() -> None:
    result = runner.invoke(app, ["grade", "tictactoe", "perfect", "minimax:depth=2,eval=better"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "tictactoe-v1" in result.stdout and "100.0%" in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["grade", "tictactoe", "nobody"], "unknown player 'nobody'"),
        (["grade", "tictactoe", "random", "--suite", "teeko-v1"], "unknown suite 'teeko-v1'"),
        (["grade", "tictactoe", "human"], "machines, not a person"),
        (["grade", "tictactoe", "td:name=never-kept"], "nothing is kept"),
        (["grade", "chess", "random"], "chess"),
    ],
)
def test_bad_grade_arguments_get_one_line_and_exit_2(arguments: list[str], said: str) -> None:
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    assert said in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_teeko_without_its_table_says_how_to_build_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from gamelearn.experiments import suites

    # A test before it in this worker (another module's, under xdist) may have drawn teeko-v1 into
    # the process's suites, which grade would then use without the table: this test's home has none.
    monkeypatch.delitem(suites._SUITES, suites.suite_name(gamelearn.get_game("teeko")), raising=False)
    result = runner.invoke(app, ["grade", "teeko", "random"])
    assert result.exit_code == 2 and "gamelearn solve teeko" in result.stderr


@pytest.mark.slow  # reads the solved Teeko table, built once a run, and the suite drawn from it once a run
@pytest.mark.usefixtures("teeko_suite")
def test_the_teeko_suite_is_stratified_deterministic_and_exact(teeko_table: Path) -> None:
    game = gamelearn.get_game("teeko")
    solution = gamelearn.solve(game)
    suite = get_suite(game)
    assert len(suite) == TEEKO_SUITE_SIZE and suite.name == "teeko-v1"
    strata = suite.counts()
    assert len(strata) == 12  # phase x value x moves that hold
    assert max(strata.values()) <= TEEKO_SUITE_SIZE // 12 + 12
    boards = set()
    for position in suite.positions:
        canonical, _ = game.canonical(position.state)
        assert canonical == position.state  # one position per symmetry class
        boards.add(position.state)
        assert solution.value(position.state) == position.value >= 0
        results = dict(solution.move_outcomes(position.state))
        assert set(position.keeping) == {m for m, r in results.items() if r[0] == position.value}
        assert len(position.keeping) < len(results) and all(results[m][0] < 0 for m in position.losing)
    assert len(boards) == len(suite)
    # perfect keeps all of it; a random mover keeps far less
    perfect, random_player = grade(game, ["perfect", "random"], seed=0, workers=1)
    assert perfect.keeps == 1.0 and set(perfect.by_phase) == {"placement", "moving"}
    assert random_player.keeps < 0.6


def test_one_spec_twice_is_graded_twice_alike() -> None:
    first, second = grade("hexapawn", ["random", "random"], seed=2)
    assert first.to_dict() == second.to_dict()


@pytest.mark.slow  # a graded tournament
def test_a_graded_tournament_reports_the_suite_beside_the_games() -> None:
    from gamelearn.experiments.api import tournament

    result = tournament("tictactoe", ["perfect", "random"], games=4, seed=1, grade=True, workers=1)
    suite = {report.spec: report for report in result.suite_grades}
    assert suite["perfect"].keeps == 1.0 and suite["random"].keeps < 0.5
    assert result.to_dict()["suite_grades"][0]["suite"] == "tictactoe-v1"


def test_a_stored_learner_is_graded_as_it_is_kept_through_a_read_only_store() -> None:
    game = gamelearn.get_game("hexapawn")
    learner = gamelearn.make_player(game, "td:name=kept", seed=1)
    opponent = gamelearn.make_player(game, "random", seed=2)
    for index in range(30):
        gamelearn.play_game(game, [learner, opponent] if index % 2 else [opponent, learner], seed=index, learn=True)
    gamelearn.Keeper().save(learner)  # type: ignore[arg-type]
    copy = gamelearn.make_player(game, "td:train=off,epsilon=0", seed=0)
    copy.load(learner.knowledge())  # type: ignore[attr-defined]
    (stored,) = grade(game, ["td:name=kept"], seed=4, workers=2)
    assert stored.counts == grade_player(copy, get_suite(game), seed=4).counts
    assert stored.counts != grade(game, ["td"], seed=4)[0].counts  # what it learnt shows


# One-sided learners (issue 50): graded where their side moves, and the yardstick says so ------------


def own_positions(game_name: str, side: int) -> set[Any]:
    """The positions where a move loses value, ``side`` to move, that ``side`` meets from the start
    while every move of its own keeps the value (by the negamax above), against every reply."""
    game, value = oracle(game_name)
    graded = mistakes_possible(game_name)
    met: set[Any] = set()
    stack = [game.initial()]
    while stack:
        state = stack.pop()
        if state in met or game.winner(state) is not None or not game.legal_moves(state):
            continue
        met.add(state)
        moves = game.legal_moves(state)
        if game.to_move(state) == side:
            moves = [move for move in moves if -value(game.play(state, move)) == value(state)]
        stack.extend(game.play(state, move) for move in moves)
    return {state for state in met if state in graded and game.to_move(state) == side}


def black_positions() -> list[Any]:
    """The hexapawn suite's positions HER, who plays Black, is graded on, from the rules."""
    game = gamelearn.get_game("hexapawn")
    own = own_positions("hexapawn", 1)
    return [p for p in get_suite(game).positions if p.state in own]


def test_a_one_sided_learner_is_graded_on_the_positions_its_side_meets_while_keeping_its_value() -> None:
    # Issue 50: hexapawn's Black moves in 19 of the suite's 27 positions, 4 of which it meets only
    # after a slip of its own; tic-tac-toe's X in 1,732 of 3,191, O in 1,459.
    for game_name, side, moves_in, own in (
        ("hexapawn", 1, 19, 15),
        ("hexapawn", 0, 8, 8),
        ("tictactoe", 0, 1732, 1578),
        ("tictactoe", 1, 1459, 987),
    ):
        game = gamelearn.get_game(game_name)
        suite = get_suite(game)
        assert sum(game.to_move(p.state) == side for p in suite.positions) == moves_in
        assert {p.state for p in suite.of_side(side)} == own_positions(game_name, side)
        assert len(suite.of_side(side)) == own


def test_a_side_is_graded_on_its_own_positions_with_the_same_choices_as_the_whole_suite() -> None:
    game = gamelearn.get_game("hexapawn")
    suite = get_suite(game)
    black = black_positions()
    assert len(black) == 15 and len(suite) == 27  # hexapawn-v1: Black's own 15
    mover = gamelearn.make_player(game, "random", seed=0)
    whole = grade_player(mover, suite, seed=3)
    one = grade_player(mover, suite, seed=3, side=1)
    # The same seed a position: Black's tally is the whole grade's tally over Black's positions.
    by_place = {id(p.state): p for p in black}
    kept = 0
    for index, position in enumerate(suite.positions):
        if id(position.state) in by_place:
            mover.reseed(position_seed(3, index))
            kept += judge(position, mover.choose(position.state)).keeps
    assert one.counts["keeps"] == kept and one.size == 15 and one.counts["positions"] == 15
    assert whole.size == one.suite_size == 27 and whole.side is None
    assert one.yardstick() == "hexapawn-v1, Black's 15 of 27 positions"
    assert whole.yardstick() == "hexapawn-v1, 27 positions"


def test_her_trained_as_black_is_graded_on_blacks_positions_and_a_learner_of_both_sides_on_all() -> None:
    game = gamelearn.get_game("hexapawn")
    assert spec_side(game, "her") == spec_side(game, "him") == 1  # Gardner: HER plays Black
    assert spec_side(gamelearn.get_game("tictactoe"), "menace") == 0  # Michie: MENACE is X
    assert spec_side(game, "random") is None and spec_side(game, "td") is None
    her = gamelearn.make_player(game, "her", seed=1)
    both = gamelearn.make_player(game, "her", seed=1)
    for index in range(40):
        opponent = gamelearn.make_player(game, "random", seed=100 + index)
        gamelearn.play_game(game, [opponent, her], seed=index, learn=True)
        gamelearn.play_game(game, [both, opponent] if index % 2 else [opponent, both], seed=index, learn=True)
    assert her.side_played() == 1 and both.side_played() is None  # type: ignore[attr-defined]
    menace = gamelearn.make_player(gamelearn.get_game("tictactoe"), "menace", seed=1)
    ttt = gamelearn.get_game("tictactoe")
    for index in range(10):
        gamelearn.play_game(ttt, [gamelearn.make_player(ttt, "random", seed=index), menace], seed=index, learn=True)
    assert menace.side_played() == 1  # a MENACE trained as O says so


def test_grade_names_the_side_and_its_positions_for_a_one_sided_learner() -> None:
    result = runner.invoke(app, ["grade", "hexapawn", "her", "random", "--json"])
    assert result.exit_code == 0, result.output
    her, mover = json.loads(result.stdout)["grades"]
    assert (her["side"], her["side_name"], her["size"], her["suite_size"]) == (1, "Black", 15, 27)
    assert (mover["side"], mover["size"]) == (None, 27)
    table = runner.invoke(app, ["grade", "hexapawn", "her", "random"], env={"COLUMNS": "80"})
    rows = {line.split()[0]: line.split() for line in table.stdout.splitlines() if line.strip()}
    assert rows["her"][1:3] == ["Black", "15"] and rows["random"][1:3] == ["all", "27"]
    assert "graded where its side moves and it can be while keeping its value" in " ".join(table.stdout.split())
    assert max(len(line) for line in table.stdout.splitlines()) <= 80
