"""The Python API for experiments: gamelearn.tournament, curves, grade and
train take the command's options, check them before any work, and return typed results with
to_dict() and to_dataframe(); the command renders the same results.  Progress given as True is a
few plain lines, never a redrawn bar.

Oracles: tic-tac-toe's perfect player never loses (a draw with best play, Michie 1961's game), so
against random it takes every point it does not draw; counts add up to the games asked for; the
command's --json holds the same figures as the API's to_dict for the same seed."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gamelearn
from extras import need
from gamelearn.cli.main import app
from gamelearn.experiments import api
from gamelearn.experiments.notebook import PANDAS_MISSING
from gamelearn.experiments.progress import Milestones
from gamelearn.experiments.tournament import TournamentResult

runner = CliRunner()


@pytest.fixture(scope="module")
def small_tournament() -> TournamentResult:
    return gamelearn.tournament("tictactoe", ["random", "perfect", "sharp"], games=4, seed=3, workers=1)


def test_a_tournament_from_python_counts_every_game_and_perfect_play_never_loses(
    small_tournament: TournamentResult,
) -> None:
    result = small_tournament
    assert [s.spec for s in result.standings] == ["random", "perfect", "sharp"]
    assert all(s.wins + s.draws + s.losses == 8 for s in result.standings)  # 4 games against each other spec
    assert result.standings[1].losses == 0
    assert len(result.games) == 3 * 4


def test_the_command_renders_the_same_tournament_as_the_api(small_tournament: TournamentResult) -> None:
    done = runner.invoke(
        app,
        [
            "tournament",
            "tictactoe",
            "random",
            "perfect",
            "sharp",
            "--games",
            "4",
            "--seed",
            "3",
            "--workers",
            "1",
            "--json",
            "-q",
        ],
    )
    assert done.exit_code == 0, done.output
    shown = json.loads(done.stdout)
    assert shown["standings"] == json.loads(json.dumps(small_tournament.to_dict()["standings"]))
    assert shown["games"] == json.loads(json.dumps(small_tournament.to_dict()["games"]))


def test_results_become_dataframes_with_one_row_per_item(small_tournament: TournamentResult) -> None:
    need("pandas", "pandas")
    standings = small_tournament.to_dataframe()
    assert list(standings["spec"]) == ["random", "perfect", "sharp"]
    assert list(standings["wins"] + standings["draws"] + standings["losses"]) == [8, 8, 8]
    assert len(small_tournament.to_dataframe("pairs")) == 3
    assert len(small_tournament.to_dataframe("games")) == 12
    with pytest.raises(ValueError, match="standings"):
        small_tournament.to_dataframe("players")


def test_without_pandas_to_dataframe_says_so_in_one_line(
    small_tournament: TournamentResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails, as where it is not installed
    with pytest.raises(ImportError) as raised:
        small_tournament.to_dataframe()
    assert str(raised.value) == PANDAS_MISSING and "\n" not in PANDAS_MISSING and "pandas" in PANDAS_MISSING


def test_grade_is_still_a_list_of_reports_and_a_table_too() -> None:
    need("pandas", "pandas")
    grades = gamelearn.grade("tictactoe", ["perfect", "random"])
    assert isinstance(grades, list) and [r.spec for r in grades] == ["perfect", "random"]
    assert (grades[0].keeps, grades[0].blunders) == (1.0, 0.0)  # perfect play keeps every value
    frame = grades.to_dataframe()
    assert list(frame["spec"]) == ["perfect", "random"] and list(frame["size"]) == [grades[0].size] * 2
    assert grades.to_dict()["grades"][1] == grades[1].to_dict()


def test_curves_from_python_with_progress_lines(capsys: pytest.CaptureFixture[str]) -> None:
    need("pandas", "pandas")
    result = gamelearn.curves("hexapawn", ["her"], games=6, every=3, seeds=2, eval_games=2, workers=1, progress=True)
    lines = capsys.readouterr().out.splitlines()
    assert lines == [line for line in lines if line.startswith("curves: ")] and len(lines) == 2  # 50%, 100%
    assert "\x1b" not in "".join(lines)
    frame = result.to_dataframe()
    assert list(frame["point"]) == [0, 1, 2] and set(frame["seeds"]) == {2}
    assert len(result.to_dataframe(per_seed=True)) == 2 * 3


def test_the_api_refuses_sizes_no_machine_holds_before_any_work() -> None:
    with pytest.raises(ValueError, match="seeds"):
        gamelearn.curves("tictactoe", ["menace"], seeds=1_000_000_000)
    with pytest.raises(ValueError, match="minutes"):
        gamelearn.train("tictactoe", "az", minutes=1e12)
    with pytest.raises(ValueError, match="parallel"):
        gamelearn.train("tictactoe", "az", games=1, parallel=100_000_000)
    with pytest.raises(ValueError, match="self-play"):
        gamelearn.train("tictactoe", "menace", games=1)
    with pytest.raises(ValueError, match="openings"):
        gamelearn.tournament("tictactoe", ["random", "perfect"], openings="book")


def test_a_named_training_refused_for_its_learner_makes_no_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "new"
    monkeypatch.setenv("GAMELEARN_HOME", str(home))
    with pytest.raises(ValueError, match="self-play"):
        gamelearn.train("tictactoe", "menace", name="n", games=10, grade=False)
    with pytest.raises(ValueError, match="unknown option 'bogus'"):
        gamelearn.train("tictactoe", "ntuple:bogus=1", name="n", games=10, grade=False)
    assert not home.exists()
    first = gamelearn.train("tictactoe", "ntuple", name="n", games=100, grade=False)
    again = gamelearn.train("tictactoe", "ntuple", name="n", games=100, grade=False)
    assert (first.games_after, again.games_before, again.games_after) == (100, 100, 200)


def test_milestones_write_a_line_a_quarter_however_many_steps() -> None:
    lines: list[str] = []
    bar = Milestones("games", 1000, "games", write=lines.append)
    for _ in range(1000):
        bar.advance()
    assert [line.split(" (")[0] for line in lines] == ["games: 25%", "games: 50%", "games: 75%", "games: 100%"]
    assert lines[-1].startswith("games: 100% (1,000 of 1,000 games, ")


def test_the_public_names_are_the_api() -> None:
    assert gamelearn.tournament is api.tournament and gamelearn.train is api.train
    assert gamelearn.curves is api.curves and gamelearn.grade is api.grade
    for name in gamelearn.__all__:
        assert getattr(gamelearn, name) is not None, name
    assert gamelearn.solve("tictactoe").value(gamelearn.get_game("tictactoe").initial()) == 0


PAGE = Path(__file__).resolve().parents[2] / "docs" / "experiments-api.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def test_the_pages_python_blocks_run_in_order() -> None:
    assert len(BLOCKS) >= 3
    namespace: dict[str, object] = {"__name__": "page"}  # one session: a block goes on from the one before
    for index, block in enumerate(BLOCKS):
        exec(compile(block, f"experiments-api.md block {index + 1}", "exec"), namespace)


def test_the_tournament_counts_progress_a_game_at_a_time() -> None:
    heard: list[int] = []
    gamelearn.tournament("tictactoe", ["random", "sharp", "perfect"], games=3, workers=1, progress=heard.append)
    assert heard == [1] * 9  # in this process: each game as it ends
    heard.clear()
    gamelearn.tournament("tictactoe", ["random", "sharp", "perfect"], games=3, workers=2, progress=heard.append)
    assert sum(heard) == 9 and max(heard) <= 3  # in worker processes: each game once, never more than a pair


def test_a_game_heard_after_its_pair_finished_is_not_counted_twice() -> None:
    from gamelearn.experiments.progress import GameCounter

    heard: list[int] = []
    counter = GameCounter(heard.append, processes=False)
    counter.queue.put((0, 0))
    counter.finish(0, 3)  # the pair's result: its two games not heard yet
    counter.queue.put((0, 1))  # late: dropped
    counter.finish(1, 2)  # a pair never heard of game by game
    counter.close()
    assert heard == [1, 2, 2]


def test_dask_workers_games_are_heard_once_even_from_a_rerun_pair() -> None:
    """On Dask each game is an event the client subscribed to; a pair rerun after its worker died
    tells its games again, and a game told after its pair's result is dropped."""
    import pickle

    from gamelearn.experiments.progress import GameCounter

    class Client:  # what the counter uses of dask.distributed's Client
        def subscribe_topic(self, topic: str, handler) -> None:  # type: ignore[no-untyped-def]
            self.topic, self.handler = topic, handler

    heard: list[int] = []
    counter = GameCounter(heard.append, processes=False, dask=True)
    assert pickle.loads(pickle.dumps(counter.queue)).topic == counter.queue.topic  # travels with a task
    client = Client()
    counter.listen(client)
    assert client.topic == counter.queue.topic
    for game in (0, 1, 0, 1, 2):  # games 0 and 1, then the rerun from the start
        client.handler((1.0, [0, game]))
    counter.finish(0, 4)  # the result: one game not heard
    client.handler((2.0, [0, 3]))  # the dead worker's late event: dropped
    need("dask", "distributed")
    counter.queue.put((0, 3))  # a put outside any Dask worker does nothing
    counter.close()
    assert heard == [1, 1, 1, 1]


def test_a_named_learner_made_through_the_api_comes_with_what_the_store_keeps() -> None:
    """``gamelearn.make_player`` gives a named learner the same kept knowledge with the default
    store and with a keeper of that store given, so both keep the same share of tic-tac-toe's
    positions; the players layer's ``make_player``, which knows no store, gives an untrained one
    of that name."""
    from gamelearn.experiments.grading import grade_player
    from gamelearn.keeper import default_keeper
    from gamelearn.players.registry import make_player as make_new_player

    game = gamelearn.get_game("tictactoe")
    trained = gamelearn.train(game, "ntuple", name="t", games=100, grade=False, seed=1, checkpoints=1)
    games_learnt = trained.player.describe()["games"]
    assert games_learnt >= 100
    made = gamelearn.make_player(game, "ntuple:name=t,train=off")
    loaded = gamelearn.make_player(game, "ntuple:name=t,train=off", keeper=default_keeper())
    fresh = make_new_player(game, "ntuple:name=t,train=off")
    assert made.describe()["games"] == loaded.describe()["games"] == games_learnt
    assert fresh.describe()["games"] == 0
    assert made.knowledge() == loaded.knowledge() != fresh.knowledge()
    suite = gamelearn.get_suite(game)
    graded = [grade_player(player, suite, seed=2).keeps for player in (made, loaded, fresh)]
    assert graded[0] == graded[1] != graded[2]
    # with train on (the spec's default) it is loaded too, and learns from there
    assert gamelearn.make_player(game, "ntuple:name=t").describe()["games"] == games_learnt


def test_a_frozen_named_learner_is_only_read(isolated_home: Path) -> None:
    """With ``train=off`` make_player reads the store and writes nothing: a name kept nowhere yet
    gives a learner that knows nothing, and no store file is made for it."""
    game = gamelearn.get_game("tictactoe")
    menace = gamelearn.make_player(game, "menace:name=nobody,train=off", seed=1)
    assert menace.describe()["games"] == 0
    assert list(isolated_home.rglob("*")) == []
