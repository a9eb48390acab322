"""Tournaments (gamelearn.experiments.tournament and `gamelearn tournament`), checked against facts
found independently: tic-tac-toe's and hexapawn's values from a plain negamax written here, replays
with play_game, closed forms of the Wilson interval and of a two-player Bradley-Terry fit."""

from __future__ import annotations

import json
import math
from functools import cache

import pytest
from typer.testing import CliRunner

import gamelearn
from extras import need
from gamelearn.cli.main import app
from gamelearn.experiments.api import tournament as run_tournament
from gamelearn.experiments.tournament import (
    GRADES,
    bradley_terry_ratings,
    game_seed,
    wilson_interval,
)
from gamelearn.store.store import Store

runner = CliRunner()

# An independent solver: negamax over the rules API, (value, distance) for the side to move, the
# winner hurrying and the loser holding out.  Slow but plain; tic-tac-toe and hexapawn are small.


def negamax_for(game: gamelearn.Game):
    @cache
    def outcome(state) -> tuple[int, int]:
        if game.is_over(state):
            return (0 if game.winner(state) is None else -1, 0)
        results = [outcome(game.play(state, move)) for move in game.legal_moves(state)]
        best = max(results, key=lambda r: (-r[0], r[1] if r[0] > 0 else -r[1]))  # child's view
        return (-best[0], best[1] + 1)

    return outcome


def independent_grade(game: gamelearn.Game, outcome, state, move: str) -> str:
    """Grade of a move from negamax values: drop of 2 blunder, 1 mistake, else best at the best
    distance, keeps otherwise (draws have no distance to compare)."""
    value, distance = outcome(state)
    child_value, child_distance = outcome(game.play(state, move))
    mine = -child_value
    drop = value - mine
    if drop >= 2:
        return "blunder"
    if drop == 1:
        return "mistake"
    if value == 0 or child_distance + 1 == distance:
        return "best"
    return "keeps"


@pytest.mark.slow  # a graded tournament: every move of every game against the perfect player
@pytest.mark.parametrize("game_name", ["tictactoe", "hexapawn"])
def test_perfect_never_loses_what_it_can_hold_and_every_move_grades_best(game_name: str) -> None:
    # Two randoms, so that random also meets won positions it can throw away (perfect never hands
    # one over: against perfect alone random could never blunder).
    game = gamelearn.get_game(game_name)
    start_value = negamax_for(game)(game.initial())[0]  # for the first player: tic-tac-toe 0, hexapawn -1
    result = run_tournament(game, ["random", "perfect", "random"], 20, seed=7, grade=True, workers=1)
    rand, perfect, _ = result.standings
    for played in result.games:
        if 1 in played.players:
            side = played.players.index(1)
            can_hold = (start_value if side == 0 else -start_value) >= 0
            if can_hold:
                assert played.winner != played.players[1 - side]
            if can_hold and start_value != 0:  # hexapawn as Black: a win every time
                assert played.winner == 1
    if game_name == "tictactoe":
        assert perfect.losses == 0
    assert perfect.grades is not None and rand.grades is not None
    assert perfect.grades["best"] == perfect.moves > 0 and perfect.best_share == 1.0
    assert perfect.grades["mistake"] == perfect.grades["blunder"] == 0
    assert rand.grades["blunder"] > 0
    assert perfect.rating > rand.rating


@pytest.mark.parametrize("game_name", ["tictactoe", "hexapawn"])
def test_grades_agree_with_an_independent_negamax(game_name: str) -> None:
    game = gamelearn.get_game(game_name)
    outcome = negamax_for(game)
    specs = ["random", "minimax:depth=1", "perfect"]
    result = run_tournament(game, specs, 6, seed=11, grade=True, workers=1)
    totals = {index: dict.fromkeys(GRADES, 0) for index in range(len(specs))}
    for played in result.games:
        state = game.initial()
        for move in played.opening:  # the book's moves are nobody's: not graded
            state = game.play(state, move)
        for move in played.moves:
            totals[played.players[game.to_move(state)]][independent_grade(game, outcome, state, move)] += 1
            state = game.play(state, move)
    assert [s.grades for s in result.standings] == [totals[i] for i in range(len(specs))]


@pytest.mark.slow  # every game of a tournament replayed
def test_every_game_replays_with_play_game_and_learners_replay_in_order() -> None:
    game = gamelearn.get_game("tictactoe")
    specs = ["random", "mcts:playouts=20", "menace"]
    result = run_tournament(game, specs, 5, seed=3, workers=1)
    by_pair: dict[int, list] = {}
    for played in result.games:
        by_pair.setdefault(played.pair, []).append(played)
    for pair, games in by_pair.items():
        assert [g.index for g in games] == list(range(5))
        assert all(g.seed == game_seed(3, pair, g.index) for g in games)
        # One player object per spec for the whole pair (menace learns from game to game).
        made = {spec: gamelearn.make_player(game, specs[spec], seed=0) for spec in set(games[0].players)}
        for played in games:
            seats = [made[played.players[0]], made[played.players[1]]]
            record = gamelearn.play_game(game, seats, seed=played.seed, opening=played.opening)
            assert record.moves == played.moves and record.opening == played.opening
            assert (None if record.winner is None else played.players[record.winner]) == played.winner
    # Without menace, any single game replays alone from its seed with fresh players.
    lone = result.games[3]
    assert result.specs[lone.players[0]] != "menace" and result.specs[lone.players[1]] != "menace"
    fresh = [gamelearn.make_player(game, result.specs[i], seed=99) for i in lone.players]
    assert gamelearn.play_game(game, fresh, seed=lone.seed, opening=lone.opening).moves == lone.moves


def test_colours_alternate_and_points_add_up() -> None:
    games_per_pair = 7
    result = run_tournament("hexapawn", ["random", "her", "sharp", "perfect"], games_per_pair, seed=5, workers=1)
    assert len(result.games) == 6 * games_per_pair
    for pair in result.pairs:
        own = [g for g in result.games if g.pair == pair.pair]
        firsts = [g.players[0] for g in own]
        assert firsts == [pair.first if k % 2 == 0 else pair.second for k in range(games_per_pair)]
        assert pair.wins + pair.draws + pair.losses == games_per_pair
    points = sum(s.points for s in result.standings)
    assert points == len(result.games)  # one point shared out per game
    assert all(s.games == 3 * games_per_pair for s in result.standings)
    # Hexapawn is a win for the second player (Black): perfect as Black beats sharp every time.
    perfect_vs_sharp = [g for g in result.games if set(g.players) == {2, 3}]
    assert all(g.winner == 3 for g in perfect_vs_sharp if g.players[1] == 3)


@pytest.mark.slow  # local processes and a Dask cluster
def test_runners_give_identical_results() -> None:
    arguments = dict(game="tictactoe", specs=["random", "menace", "perfect"], games=4, seed=21, grade=True)
    alone = run_tournament(**arguments, workers=1)
    processes = run_tournament(**arguments, workers=2)
    assert processes == alone
    need("dask", "distributed")
    heard: list[int] = []
    on_dask = run_tournament(**arguments, workers=2, dask="local", progress=heard.append)
    assert on_dask == alone
    # Each game reaches the bar from the Dask workers as it ends, not a pair at a time: a worker
    # logs a game's event before its pair's result, on the same stream, so none is left to the result.
    assert heard == [1] * len(alone.games)
    other_seed = run_tournament(**{**arguments, "seed": 22}, workers=1)
    assert [g.moves for g in other_seed.games] != [g.moves for g in alone.games]


def test_wilson_interval_of_a_score_is_the_wilson_interval() -> None:
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0) and low == pytest.approx(0.7225, abs=1e-4)


def test_bradley_terry_two_players_has_the_closed_form() -> None:
    # 3 points of 4 plus one virtual draw: p = 3.5 / 5 and the rating gap is 400 log10(p / (1 - p)).
    ratings = bradley_terry_ratings(2, {(0, 1): (3.0, 4)})
    assert ratings[0] == 1500.0
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(0.7 / 0.3), abs=1e-6)
    # Three players in a cycle of equal results are equal.
    cycle = bradley_terry_ratings(3, {(0, 1): (2.0, 3), (1, 2): (2.0, 3), (0, 2): (1.0, 3)})
    assert cycle == pytest.approx([1500.0] * 3, abs=1e-6)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("random",), "at least 2"),
        (("random", "bogus"), "unknown player 'bogus'"),
        (("random", "minimax:depht=2"), "unknown option 'depht'"),
        (("random", "human"), "machines only"),
        (("random", "menace:name=mine"), "add train=off to measure it as stored"),
        (("random", "menace:name=nobody,train=off"), "nothing is kept in the store under that name"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(arguments: tuple[str, ...], message: str) -> None:
    result = runner.invoke(app, ["tournament", "tictactoe", *arguments])
    assert result.exit_code == 2
    assert message in result.stderr and result.stderr.strip().count("\n") == 0
    assert result.stdout == ""
    assert Store().results("tournament") == []


@pytest.mark.parametrize(
    ("arguments", "option"),
    [
        (("--games", "0"), "--games"),
        (("--workers", "0"), "--workers"),
        (("--seed", "-1"), "--seed"),
        (("--seed", str(2**32)), "--seed"),
    ],
)
def test_numbers_out_of_their_range_are_refused_by_typer_with_exit_2(arguments: tuple[str, ...], option: str) -> None:
    result = runner.invoke(app, ["tournament", "tictactoe", "random", "perfect", *arguments])
    assert result.exit_code == 2 and option in result.stderr and "Traceback" not in result.output
    assert result.stdout == ""
    assert Store().results("tournament") == []


def test_a_stored_learner_is_measured_frozen_as_it_is_kept() -> None:
    # MENACE trained and kept under a name, then measured in a tournament with train=off: every
    # pair loads the same stored boxes, and the store is unchanged afterwards.
    game = gamelearn.get_game("tictactoe")
    trainee = gamelearn.make_player(game, "menace:name=trained", seed=1)
    for seed in range(40):
        gamelearn.play_game(game, [trainee, gamelearn.make_player(game, "random", seed=seed)], seed=seed)
    kept = Store().load_learner("menace", "trained")
    assert kept is not None and kept["games"] == 40
    result = run_tournament(game, ["random", "menace:name=trained,train=off", "perfect"], 4, seed=2, workers=2)
    assert Store().load_learner("menace", "trained") == kept
    # The frozen learner plays from its stored boxes: as a fresh MENACE it would draw its first
    # move from 4 beads of each opening colour; the trained one's first box is what was stored.
    assert len(result.games) == 12
    assert gamelearn.make_player(game, "menace:name=trained,train=off").boxes == trainee.boxes


def test_regression_a_pair_waited_for_the_write_lock_to_load_a_frozen_learner() -> None:
    """A tournament's worker opened the store for writing to load a frozen learner, so under load
    it queued behind any writer and once gave up after the 10 s lock wait.  It now reads the store
    read-only: with another connection holding the write lock, the pair's learner still loads."""
    import sqlite3
    import subprocess
    import sys

    from gamelearn.store.store import default_store_path

    game = gamelearn.get_game("tictactoe")
    trainee = gamelearn.make_player(game, "menace:name=held", seed=1)
    for seed in range(5):
        gamelearn.play_game(game, [trainee, gamelearn.make_player(game, "random", seed=seed)], seed=seed)
    # A worker is a fresh process: it opens the store itself.
    worker = (
        "import json, gamelearn\n"
        "from gamelearn.experiments.tournament import pair_player\n"
        "player = pair_player(gamelearn.get_game('tictactoe'), 'menace:name=held,train=off', seed=3)\n"
        "print(json.dumps(player.knowledge()['games']))\n"
    )
    writer = sqlite3.connect(default_store_path(), isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # the write lock, held as a long write would hold it
    try:
        done = subprocess.run([sys.executable, "-c", worker], capture_output=True, text=True, timeout=120)
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == 5 == trainee.knowledge()["games"]


def test_unknown_game_and_teeko_grading_without_its_table() -> None:
    result = runner.invoke(app, ["tournament", "chess", "random", "random"])
    assert result.exit_code == 2 and "chess" in result.stderr
    result = runner.invoke(app, ["tournament", "teeko", "random", "random", "--grade"])
    assert result.exit_code == 2 and "gamelearn solve teeko" in result.stderr
    with pytest.raises(ValueError, match="gamelearn solve teeko"):
        run_tournament("teeko", ["random", "random"], 1, seed=0, grade=True, workers=1)


def test_cli_tables_store_and_json() -> None:
    result = runner.invoke(
        app, ["tournament", "hexapawn", "random", "perfect", "--games", "6", "--grade", "--seed", "2", "--workers", "1"]
    )
    assert result.exit_code == 0, result.stderr
    assert "W-D-L against" in result.stdout and "standings" in result.stdout
    assert "6-0-0" in result.stdout and "0-0-6" in result.stdout  # perfect wins every game
    assert "100.0%" in result.stdout and "blunders" in result.stdout
    saved = Store().results("tournament")
    assert len(saved) == 1 and saved[0]["specs"] == ["random", "perfect"] and saved[0]["graded"] is True
    result = runner.invoke(
        app,
        [
            "tournament",
            "hexapawn",
            "random",
            "perfect",
            "--games",
            "6",
            "--grade",
            "--seed",
            "2",
            "--json",
            "--workers",
            "1",
        ],
    )
    assert result.exit_code == 0
    payload = json.loads(result.stdout)
    assert payload["standings"][1]["wins"] == 6 and payload["standings"][1]["best_share"] == 1.0
    assert [g["moves"] for g in payload["games"]] == [g["moves"] for g in saved[0]["games"]]  # same seed, same games
    assert len(Store().results("tournament")) == 2


def test_repeated_games_are_counted_and_the_narrow_intervals_named() -> None:
    """Players that choose alike every time replay a few games over and over, and the Wilson
    interval, which counts each game as independent, is then far too narrow (an hour-trained az
    against the thesis program played 8 different Teeko games in 1,000).  Each pair counts its
    different games, and the command says when they repeat.  Oracle: every line of hexapawn where
    both sides play perfectly, enumerated with the negamax written here; random tic-tac-toe games
    practically never repeat."""
    game = gamelearn.get_game("hexapawn")
    outcome = negamax_for(game)

    def perfect_lines(state) -> set[tuple[str, ...]]:
        if game.is_over(state):
            return {()}
        scored = {m: outcome(game.play(state, m)) for m in game.legal_moves(state)}
        best = max(scored.values(), key=lambda r: (-r[0], r[1] if r[0] > 0 else -r[1]))
        return {(m, *rest) for m, r in scored.items() if r == best for rest in perfect_lines(game.play(state, m))}

    lines = perfect_lines(game.initial())
    result = run_tournament(game, ["perfect", "perfect"], 40, seed=3, workers=1)
    [pair] = result.pairs
    assert {tuple(g.moves) for g in result.games} <= lines
    # a game is who moved first and every move: each perfect line, with either spec moving first
    played = {(g.players, tuple(g.moves)) for g in result.games}
    assert pair.distinct == len(played) <= 2 * len(lines) < 40
    assert result.to_dict()["pairs"][0]["distinct"] == pair.distinct
    shown = runner.invoke(app, ["tournament", "hexapawn", "perfect", "perfect", "--games", "40", "--seed", "3"])
    assert shown.exit_code == 0, shown.output
    note = f"{pair.distinct} different games in 40"
    assert note in " ".join(shown.stdout.split()) and "too narrow" in shown.stdout
    fresh = run_tournament("tictactoe", ["random", "random"], 20, seed=3, workers=1)
    assert fresh.pairs[0].distinct == 20
    shown = runner.invoke(app, ["tournament", "tictactoe", "random", "random", "--games", "20", "--seed", "3"])
    assert shown.exit_code == 0 and "too narrow" not in shown.stdout
