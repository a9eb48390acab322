"""Tournaments in game pairs from a balanced opening book, checked against
facts found independently: the values of tic-tac-toe's and hexapawn's positions from a plain
negamax written here, symmetry classes from the games' own transforms enumerated here, the t
interval from scipy.stats, the GSPRT's constrained maximum likelihood from scipy.optimize."""

from __future__ import annotations

import json
import math
from functools import cache

import pytest
from typer.testing import CliRunner

import gamelearn
from gamelearn.cli.main import app
from gamelearn.experiments.api import tournament as run_tournament
from gamelearn.experiments.openings import balanced_openings
from gamelearn.experiments.pairs import Sprt
from gamelearn.games import IllegalMove

runner = CliRunner()


def negamax_value(game: gamelearn.Game):
    """The value of a position for the side to move (+1, 0, -1), by plain negamax."""

    @cache
    def value(state) -> int:
        if game.is_over(state):
            return 0 if game.winner(state) is None else -1
        return max(-value(game.play(state, move)) for move in game.legal_moves(state))

    return value


def positions_at(game: gamelearn.Game, plies: int) -> dict[tuple[str, ...], object]:
    """Every unfinished position ``plies`` plies from the start, by its move sequence."""
    level: dict[tuple[str, ...], object] = {(): game.initial()}
    for _ in range(plies):
        level = {
            (*moves, move): game.play(state, move)
            for moves, state in level.items()
            if not game.is_over(state)
            for move in game.legal_moves(state)
        }
    return {moves: state for moves, state in level.items() if not game.is_over(state)}


def orbit(game: gamelearn.Game, state) -> frozenset:
    return frozenset(game.transform(state, k) for k in range(len(game.symmetries)))


def after(game: gamelearn.Game, moves) -> object:
    state = game.initial()
    for move in moves:
        state = game.play(state, move)
    return state


def test_the_tictactoe_book_is_every_drawn_class_three_plies_in_each_once() -> None:
    game = gamelearn.get_game("tictactoe")
    value = negamax_value(game)
    book = balanced_openings(game)
    assert book == balanced_openings("tictactoe", 3)  # the default depth
    positions = [after(game, opening) for opening in book]
    assert all(len(opening) == 3 for opening in book)
    assert all(value(state) == 0 == gamelearn.solve(game).value(state) for state in positions)
    orbits = [orbit(game, state) for state in positions]
    assert len(set(orbits)) == len(orbits)  # no two openings are symmetric
    drawn = {orbit(game, state) for state in positions_at(game, 3).values() if value(state) == 0}
    assert set(orbits) == drawn  # and every drawn class has its opening
    assert len(book) >= 20  # enough for 40 games without repeating an opening
    # At 2 plies, most classes are won for X: the book is the few drawn ones.
    two = balanced_openings(game, 2)
    assert {orbit(game, after(game, o)) for o in two} == {
        orbit(game, s) for s in positions_at(game, 2).values() if value(s) == 0
    }


def test_hexapawn_has_no_balanced_openings_and_plays_its_pairs_from_the_start() -> None:
    game = gamelearn.get_game("hexapawn")
    value = negamax_value(game)
    assert value(game.initial()) == -1  # a forced win for Black
    for plies in (1, 2, 3):
        assert balanced_openings(game, plies) == []
        assert all(value(state) != 0 for state in positions_at(game, plies).values())
    result = run_tournament(game, ["random", "perfect"], 8, seed=4, workers=1)
    assert result.book.used == () and "no balanced openings" in result.book.note
    assert all(g.opening == () for g in result.games)
    assert result.pairs[0].pairs == 4 and sum(result.pairs[0].pentanomial) == 4
    for m in range(4):
        first, second = result.games[2 * m], result.games[2 * m + 1]
        assert first.players == second.players[::-1]


def test_connect4_s_balanced_openings_come_from_its_shipped_book() -> None:
    """The standard board's book ships with the package, so its balanced openings are read from
    it: every drawn position two plies in, one a mirror pair, and no other."""
    game = gamelearn.get_game("connect4")
    book = balanced_openings(game, 2)
    value = gamelearn.solve(game).value
    positions = positions_at(game, 2)
    assert book and all(value(positions[moves]) == 0 for moves in book)
    drawn = {game.canonical(state)[0] for state in positions.values() if value(state) == 0}
    assert len(book) == len(drawn)
    result = run_tournament(game, ["random", "alphabeta:depth=1"], 4, seed=4, workers=1, grade=False)
    assert result.book.used and all(g.opening in book for g in result.games)


def test_connect4_without_an_opening_book_plays_from_the_start_and_says_why() -> None:
    """A position two discs into a board of 40 squares takes the solver long searches, and no book
    ships for it: the default book is not walked then (the tournament would not start) but named
    as missing."""
    game = gamelearn.get_game("connect4:columns=8,rows=5")
    result = run_tournament(game, ["random", "alphabeta:depth=1"], 2, seed=4, workers=1, grade=False)
    assert result.book.used == () and all(g.opening == () for g in result.games)
    assert "opening book" in result.book.note and "gamelearn solve connect4" in result.book.note
    with pytest.raises(ValueError, match="opening book to that ply"):
        run_tournament(game, ["random", "random"], 2, seed=4, workers=1, openings="balanced", grade=False)


def test_each_opening_is_played_with_both_colours_and_deterministic_players_vary() -> None:
    game = gamelearn.get_game("tictactoe")
    specs = ["minimax:depth=2,eval=better", "alphabeta:depth=3,eval=simple"]
    result = run_tournament(game, specs, 40, seed=1, workers=1)
    book = balanced_openings(game)
    assert len(result.book.used) == 20 and len(set(result.book.used)) == 20 <= len(book)
    assert set(result.book.used) <= set(book)
    for m, opening in enumerate(result.book.used):
        first, second = result.games[2 * m], result.games[2 * m + 1]
        assert first.opening == second.opening == opening
        assert first.players == (0, 1) and second.players == (1, 0)
    [pair] = result.pairs
    different = {(g.players, g.opening, g.moves) for g in result.games}
    assert pair.distinct == len(different) >= 20
    start = run_tournament(game, specs, 4, seed=1, workers=1, openings="none")
    assert start.book.used == () and all(g.opening == () for g in start.games)


def test_a_book_game_replays_from_its_opening_and_its_record_keeps_the_opening() -> None:
    game = gamelearn.get_game("tictactoe")
    opening = balanced_openings(game)[0]
    players = [gamelearn.make_player(game, "random", seed=0), gamelearn.make_player(game, "random", seed=1)]
    record = gamelearn.play_game(game, players, seed=5, opening=opening)
    assert record.opening == opening and record.states[0] == after(game, opening)
    assert record.to_dict()["opening"] == list(opening)
    state = game.initial()
    for move in record.opening + record.moves:  # the whole game from the start
        state = game.play(state, move)
    assert state == record.final
    with pytest.raises(IllegalMove):
        gamelearn.play_game(game, players, opening=("4", "4"))
    with pytest.raises(ValueError, match="ends the game"):
        gamelearn.play_game(game, players, opening=("0", "3", "1", "4", "2"))


def test_pentanomial_counts_add_up_and_agree_with_the_games() -> None:
    from scipy import stats

    result = run_tournament("tictactoe", ["random", "menace", "minimax:depth=1"], 12, seed=9, workers=1)
    for pair in result.pairs:
        own = sorted((g for g in result.games if g.pair == pair.pair), key=lambda g: g.index)
        scores = []
        for m in range(len(own) // 2):
            two = own[2 * m : 2 * m + 2]
            scores.append(sum(1.0 if g.winner == pair.first else 0.5 if g.winner is None else 0.0 for g in two))
        assert pair.pentanomial == tuple(scores.count(p) for p in (0, 0.5, 1, 1.5, 2))
        assert pair.pairs == 6 and pair.unpaired == 0
        assert pair.pair_score == pytest.approx(pair.points / pair.games)
        shares = [s / 2 for s in scores]
        mean, sd = sum(shares) / 6, math.sqrt(sum((s - sum(shares) / 6) ** 2 for s in shares) / 5)
        half = stats.t.ppf(0.975, 5) * sd / math.sqrt(6)
        assert pair.pair_interval == pytest.approx((max(0, mean - half), min(1, mean + half)))


def independent_llr(counts: list[int], elo0: float, elo1: float) -> float:
    """The GSPRT's LLR by direct maximization with scipy: the best pentanomial distribution with
    each hypothesis' expected score, counts regularized to at least 1e-3 as Fishtest does."""
    from scipy.optimize import minimize

    n = [max(c, 1e-3) for c in counts]
    scores = [0, 0.25, 0.5, 0.75, 1]

    def best(score: float) -> float:
        constraints = [
            {"type": "eq", "fun": lambda p: sum(p) - 1},
            {"type": "eq", "fun": lambda p: sum(pi * a for pi, a in zip(p, scores, strict=True)) - score},
        ]
        start = [1 / 5] * 5
        found = minimize(
            lambda p: -sum(ni * math.log(max(pi, 1e-300)) for ni, pi in zip(n, p, strict=True)),
            start,
            method="SLSQP",
            bounds=[(1e-12, 1)] * 5,
            constraints=constraints,
            options={"ftol": 1e-14, "maxiter": 1000},
        )
        return -float(found.fun)

    def score_of(elo: float) -> float:
        return 1 / (1 + 10 ** (-elo / 400))

    return best(score_of(elo1)) - best(score_of(elo0))


def test_sprt_stops_a_lopsided_match_as_soon_as_it_decides() -> None:
    test = Sprt(0, 200)
    result = run_tournament("tictactoe", ["perfect", "random"], 400, seed=3, workers=1, sprt=test)
    report = result.sprt
    assert report is not None and report["decision"] == "H1"
    played = len(result.games)
    assert played < 400 and played % 2 == 0 and report["pairs"] == played // 2
    assert report["lower"] == pytest.approx(math.log(0.05 / 0.95)) and report["upper"] == pytest.approx(
        math.log(0.95 / 0.05)
    )
    counts = list(result.pairs[0].pentanomial)
    assert report["llr"] == pytest.approx(independent_llr(counts, 0, 200), abs=1e-4)
    assert report["llr"] >= report["upper"]
    # One pair fewer, and the test had not decided: it stopped at the first pair it could.
    shorter = run_tournament("tictactoe", ["perfect", "random"], played - 2, seed=3, workers=1, sprt=test)
    assert shorter.sprt is not None and shorter.sprt["decision"] is None
    assert shorter.sprt["llr"] == pytest.approx(independent_llr(list(shorter.pairs[0].pentanomial), 0, 200), abs=1e-4)
    # A test between equals accepts H0 for a wide enough H1.
    even = run_tournament("tictactoe", ["perfect", "perfect"], 400, seed=3, workers=1, sprt=Sprt(0, 300))
    assert even.sprt is not None and even.sprt["decision"] == "H0"


def test_bootstrap_rating_intervals_hold_the_rating_and_are_seeded() -> None:
    specs = ["random", "minimax:depth=1", "perfect"]
    one = run_tournament("tictactoe", specs, 20, seed=2, workers=1)
    again = run_tournament("tictactoe", specs, 20, seed=2, workers=1)
    assert [s.rating_interval for s in one.standings] == [s.rating_interval for s in again.standings]
    anchor, *others = one.standings
    assert anchor.rating_interval == (1500.0, 1500.0)  # the anchor's rating is fixed by definition
    for standing in others:
        low, high = standing.rating_interval
        assert low <= standing.rating <= high and low < high
    other = run_tournament("tictactoe", specs, 20, seed=3, workers=1)
    assert [s.rating_interval for s in other.standings] != [s.rating_interval for s in one.standings]


def test_cli_openings_sprt_and_their_bad_input() -> None:
    shown = runner.invoke(
        app, ["tournament", "tictactoe", "perfect", "minimax:depth=2", "--games", "8", "--workers", "1", "--json"]
    )
    assert shown.exit_code == 0, shown.output
    payload = json.loads(shown.stdout)
    assert payload["openings"]["mode"] == "balanced" and payload["openings"]["plies"] == 3
    assert len(payload["openings"]["used"]) == 4 and payload["sprt"] is None
    assert [g["opening"] for g in payload["games"]] == [o for o in payload["openings"]["used"] for _ in (0, 1)]
    pair = payload["pairs"][0]
    assert sum(pair["pentanomial"]) == pair["pairs"] == 4 and "pair_interval" in pair
    assert {"interval", "wilson", "rating_interval"} <= set(payload["standings"][0])
    shown = runner.invoke(
        app,
        ["tournament", "tictactoe", "perfect", "random", "--games", "200", "--sprt", "0,200", "--workers", "1"],
    )
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.stdout.split())
    assert "H1 accepted" in text and "pentanomial" in text and "first player's points" in text
    for arguments, message in [
        (["--openings", "balanced:plies=0"], "--openings"),
        (["--openings", "book"], "--openings"),
        (["--sprt", "0"], "--sprt"),
        (["--sprt", "10,0"], "ELO0 must be below ELO1"),
        (["minimax:depth=1", "--sprt", "0,100"], "exactly 2 specs"),
    ]:
        shown = runner.invoke(app, ["tournament", "tictactoe", "perfect", "random", *arguments])
        assert shown.exit_code == 2 and message in shown.stderr, (arguments, shown.output)
        assert shown.stderr.strip().count("\n") == 0 and shown.stdout == ""


def test_teeko_without_its_table_plays_from_the_start_unless_the_book_is_asked_for() -> None:
    shown = runner.invoke(app, ["tournament", "teeko", "random", "random", "--games", "2", "--workers", "1"])
    assert shown.exit_code == 0, shown.output
    assert "gamelearn solve teeko" in " ".join(shown.stdout.split())
    shown = runner.invoke(app, ["tournament", "teeko", "random", "random", "--openings", "balanced"])
    assert shown.exit_code == 2 and "gamelearn solve teeko" in shown.stderr
    assert shown.stderr.strip().count("\n") == 0


def test_a_player_that_would_hang_loses_by_forfeit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The original thesis program raises OpeningHang where it would loop for ever (a book's
    opening can bring that about); in a tournament it then loses that game, which goes on."""
    from gamelearn.players.basic import RandomPlayer
    from gamelearn.thesis.opening import OpeningHang

    def hang(self, state):
        raise OpeningHang("all four cells taken")

    monkeypatch.setattr(RandomPlayer, "choose", hang)
    result = run_tournament("tictactoe", ["random", "perfect"], 4, seed=1, workers=1)
    assert [g.end for g in result.games] == ["forfeit"] * 4
    assert all(g.winner == 1 for g in result.games)
    assert result.pair(1, 0) == (4, 0, 0)
