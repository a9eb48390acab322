"""MENACE against a perfect opponent, and the remedies its options offer (Michie 1961, 1963): an
empty box resigns, restocking fills it again, a draw can be worth more, and a teacher that
makes mistakes lets it win.  Oracles: MENACE's own stage counts (4 beads a colour at its first
move), the exact solution (a perfect move keeps the value), and the result counts of seeded runs."""

from __future__ import annotations

from collections import Counter

import gamelearn
from gamelearn.match import play_game
from gamelearn.players.matchbox import MenacePlayer
from gamelearn.solver import solve

TICTACTOE = gamelearn.get_game("tictactoe")
EMPTY_BOARD = "........."


def results_as_o(spec: str, opponent: str, games: int, seed: int) -> tuple[MenacePlayer, list[str]]:
    menace = gamelearn.make_player(TICTACTOE, spec, seed=seed)
    assert isinstance(menace, MenacePlayer)
    teacher = gamelearn.make_player(TICTACTOE, opponent, seed=seed + 100)
    letters = []
    for game in range(games):
        record = play_game(TICTACTOE, [teacher, menace], seed=seed * 10_000 + 2 * game)
        letters.append("D" if record.winner is None else "W" if record.winner == 1 else "L")
    return menace, letters


def test_an_emptied_box_resigns_unless_restocked_and_restocking_refills_it_with_its_first_beads() -> None:
    plain = MenacePlayer(TICTACTOE, seed=1)
    plain.boxes[EMPTY_BOARD] = {"0": 0, "1": 0, "4": 0}  # corner, edge, centre: all gone
    assert plain.choose(TICTACTOE.initial()) is None
    restocked = MenacePlayer(TICTACTOE, seed=1, restock=True)
    restocked.boxes[EMPTY_BOARD] = {"0": 0, "1": 0, "4": 0}
    assert restocked.choose(TICTACTOE.initial()) in TICTACTOE.legal_moves(TICTACTOE.initial())
    # A game from the empty box: it was restocked (4 a colour at MENACE's first move), then the
    # game's reward went to the colour drawn (+3 a win, +1 a draw, -1 a loss).
    record = play_game(TICTACTOE, [restocked, gamelearn.make_player(TICTACTOE, "perfect", seed=2)], seed=5)
    reward = {0: 3, None: 1, 1: -1}[record.winner]
    counts = restocked.boxes[EMPTY_BOARD]
    assert sum(counts.values()) == 4 * 3 + reward and sorted(counts.values()).count(4) == 2


def test_options_given_win_over_a_stored_learners_settings_and_the_rest_are_kept() -> None:
    first = gamelearn.make_player(TICTACTOE, "menace:name=kept,draw=2", seed=1)
    gamelearn.play_game(TICTACTOE, [first, gamelearn.make_player(TICTACTOE, "random", seed=2)], seed=3)
    again = gamelearn.make_player(TICTACTOE, "menace:name=kept,restock=on")
    assert isinstance(again, MenacePlayer)
    assert again.restock and again.rewards == (3, 2, -1)  # restock given; the stored draw=2 kept
    assert again.knowledge()["settings"]["restock"] is True


def test_a_mixed_perfect_player_makes_mistakes_and_without_them_is_the_perfect_player() -> None:
    solution = solve(TICTACTOE)
    plain = gamelearn.make_player(TICTACTOE, "perfect", seed=7)
    none = gamelearn.make_player(TICTACTOE, "perfect:random=0", seed=7)
    mixed = gamelearn.make_player(TICTACTOE, "perfect:random=1", seed=7)
    state = TICTACTOE.initial()
    thrown = 0
    for _ in range(60):
        if TICTACTOE.is_over(state):
            state = TICTACTOE.initial()
        assert plain.choose(state) == none.choose(state)  # the same random stream, the same moves
        move = mixed.choose(state)
        assert move in TICTACTOE.legal_moves(state)
        thrown += move not in solution.best_moves(state)
        state = TICTACTOE.play(state, move)
    assert thrown > 0


def test_against_perfect_menace_empties_its_boxes_and_restocking_lets_it_learn_the_draw() -> None:
    menace, letters = results_as_o("menace", "perfect", 600, seed=1)
    assert Counter(letters[-100:]) == {"L": 100}  # it ends by resigning every game
    advice = menace.advice()
    assert advice is not None and advice.places
    assert all(not any(menace.boxes[board].values()) for board in advice.places)
    assert "restock=on" in [remedy.options for remedy in advice.remedies]
    assert "perfect:random=0.5" in [remedy.opponent for remedy in advice.remedies]
    restocked, letters = results_as_o("menace:restock=on", "perfect", 600, seed=1)
    assert Counter(letters[-100:])["D"] >= 80  # it learns to hold the draw
    later = restocked.advice()
    assert later is None or all(remedy.options != "restock=on" for remedy in later.remedies)
    mixed, letters = results_as_o("menace", "perfect:random=0.5", 600, seed=1)
    assert Counter(letters[-100:])["W"] > 0  # a teacher that makes mistakes can be beaten


def test_her_s_empty_boxes_are_explained_as_gardners_rule_with_no_remedy() -> None:
    hexapawn = gamelearn.get_game("hexapawn")
    her = gamelearn.make_player(hexapawn, "her", seed=1)
    sharp = gamelearn.make_player(hexapawn, "sharp", seed=2)
    for game in range(60):
        play_game(hexapawn, [her, sharp], seed=10 * game)  # as White, who loses with best play
    advice = her.advice()  # type: ignore[attr-defined]
    assert advice is not None and advice.places and not advice.remedies
    assert "Gardner" in advice.text
