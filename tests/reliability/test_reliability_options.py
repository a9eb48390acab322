"""Arguments that can never finish are refused (docs/store.md, "Work limits"): each whole-number
option of a player has a range, lowered per game where a larger value would take more than
about a minute a move, and the range is shown by `gamelearn players GAME`."""

from __future__ import annotations

import pytest

from gamelearn.games import get_game
from gamelearn.players.registry import kinds_for, make_player

NEVER_FINISH = ["minimax:depth=12", "alphabeta:depth=12", "sharp:depth=20", "mcts:playouts=10000000"]


@pytest.mark.parametrize("spec", NEVER_FINISH)
def test_teeko_searches_that_could_never_finish_are_refused_naming_the_range(spec: str):
    with pytest.raises(ValueError, match=r"is outside \d+\.\.\d+ for teeko \(the range where a move takes"):
        make_player(get_game("teeko"), spec)


@pytest.mark.slow  # runs each option at its top value
def test_every_whole_number_option_has_a_range_and_its_top_is_accepted():
    for name in ("teeko", "tictactoe", "hexapawn"):
        game = get_game(name)
        for kind in kinds_for(game):
            for option in kind.options:
                bounds = option.bounds(game.name)
                if isinstance(option.default, int) and not isinstance(option.default, bool):
                    assert bounds is not None, (name, kind.name, option.name)
                if bounds is None:
                    continue
                # an option off by default (None: ntuple's node budget) has only its range to check
                assert option.default is None or bounds[0] <= option.default <= bounds[1], (
                    name,
                    kind.name,
                    option.name,
                )
                for value in bounds:
                    make_player(game, f"{kind.name}:{option.name}={value}")  # the ends are accepted
                with pytest.raises(ValueError, match="is outside|too large"):
                    make_player(game, f"{kind.name}:{option.name}={bounds[1] + 1}")


def test_a_smaller_game_keeps_the_full_range():
    # Teeko's bound is what a move costs there; a small game searches to its end at any depth
    assert make_player(get_game("tictactoe"), "minimax:depth=9").options["depth"] == 9
    assert make_player(get_game("hexapawn"), "sharp:depth=20").options["depth"] == 20
    with pytest.raises(ValueError, match="outside 1..4 for teeko"):
        make_player(get_game("teeko"), "minimax:depth=9")
