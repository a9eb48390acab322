"""The held-out yardstick: ``teeko-val-v1`` shares no position with ``teeko-v1`` and is drawn the
same way (strata, exact values); keeps come with Wilson's interval; and games against perfect
play over the balanced book are lost only by a player that errs."""

from __future__ import annotations

from pathlib import Path

import pytest
from scipy.stats import binomtest

import gamelearn
from gamelearn.experiments.openings import balanced_openings
from gamelearn.experiments.suites import VALIDATION_NAME, VALIDATION_SIZE, get_suite, keeps_interval
from gamelearn.experiments.yardstick import games_lost_to_perfect


def test_the_keeps_interval_is_wilsons() -> None:
    for kept, size in ((900, 1000), (1000, 1000), (3, 27)):
        expected = binomtest(kept, size).proportion_ci(method="wilson")
        found = keeps_interval(kept, size)
        assert found.low == pytest.approx(expected.low) and found.high == pytest.approx(expected.high)


def test_an_unknown_suite_names_the_held_out_one() -> None:
    with pytest.raises(ValueError, match=VALIDATION_NAME):
        get_suite("teeko", "teeko-v2")
    with pytest.raises(ValueError, match="tictactoe-v1$"):
        get_suite("tictactoe", VALIDATION_NAME)  # only Standard Teeko has one


def test_perfect_play_loses_nothing_over_the_book_and_random_play_does() -> None:
    game = gamelearn.get_game("tictactoe")
    book = balanced_openings(game)
    perfect = games_lost_to_perfect(game, gamelearn.make_player(game, "perfect", seed=1))
    assert perfect["games"] == 2 * len(book) and perfect["lost"] == perfect["won"] == 0
    random_play = games_lost_to_perfect(game, gamelearn.make_player(game, "random", seed=1))
    assert random_play["lost"] == len(random_play["lost_games"]) > 0 and random_play["won"] == 0
    assert {tuple(lost["opening"]) for lost in random_play["lost_games"]} <= set(book)


@pytest.mark.slow
@pytest.mark.usefixtures("teeko_suite")  # teeko-v1, whose positions it leaves out, drawn once a run
def test_the_held_out_suite_shares_no_position_and_is_exact(teeko_table: Path) -> None:
    game = gamelearn.get_game("teeko")
    solution = gamelearn.solve(game)
    held_out = get_suite(game, VALIDATION_NAME)
    assert held_out.name == VALIDATION_NAME and len(held_out) == VALIDATION_SIZE
    assert len(held_out.counts()) == 12 and max(held_out.counts().values()) <= VALIDATION_SIZE // 12 + 12
    test_set = {position.state for position in get_suite(game).positions}
    for position in held_out.positions:
        assert game.canonical(position.state)[0] == position.state not in test_set
        assert solution.value(position.state) == position.value >= 0
        results = dict(solution.move_outcomes(position.state))
        assert set(position.keeping) == {move for move, result in results.items() if result[0] == position.value}
    assert len({position.state for position in held_out.positions}) == len(held_out)
