"""A training budget means what it says: exactly N games (a smaller last batch), or seconds on
one named clock (the wall's or the process's CPU time), every figure printed with its clock."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import gamelearn
from extras import needs
from gamelearn.cli.main import app
from gamelearn.experiments.budget import Budget
from gamelearn.experiments.progress import Milestones
from gamelearn.store.store import Store

runner = CliRunner()


@pytest.mark.parametrize("games", [1, 300, 2_000, 2_500])
def test_a_budget_of_games_plays_exactly_that_many(games: int) -> None:
    # tic-tac-toe's ntuple plays 2,000 games a batch: 300 and 2,500 end on a smaller batch
    run = gamelearn.train("tictactoe", "ntuple", games=games, grade=False, checkpoints=2)
    assert run.games_after - run.games_before == games
    assert run.checkpoints[-1].games == games


def test_a_cut_last_batch_replays_for_the_same_seed_and_keeps_the_batch_size() -> None:
    first = gamelearn.train("tictactoe", "ntuple", games=2_500, grade=False, seed=3)
    again = gamelearn.train("tictactoe", "ntuple", games=2_500, grade=False, seed=3)
    assert first.player.knowledge() == again.player.knowledge()
    assert first.player.trainer.settings.games_per_batch == 2_000  # the cut was for one batch only


def test_a_cpu_budget_is_counted_on_the_cpu_clock_and_said_so() -> None:
    run = gamelearn.train("hexapawn", "ntuple", cpu_seconds=0.5, grade=False, checkpoints=2)
    last = run.checkpoints[-1]
    assert last.cpu_seconds >= 0.5  # it trained until the CPU clock reached the budget
    assert Budget(cpu_seconds=0.5).unit == "CPU seconds" and Budget(wall_seconds=60).unit == "wall seconds"
    assert Budget(games=300).describe(300) == "300 of 300 games"


def test_budgets_that_cannot_be_met_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="cpu-minutes"):
        gamelearn.train("tictactoe", "ntuple", cpu_seconds=-1)
    with pytest.raises(ValueError, match="--minutes M \\(wall\\), --cpu-minutes M or --games N"):
        gamelearn.train("tictactoe", "ntuple")


@needs("neural", "jax")  # refused before the network is built: neither JAX's import nor a compilation
def test_az_with_busy_slots_refuses_a_budget_of_games_naming_its_batch() -> None:
    with pytest.raises(ValueError, match="plays 32 games at once"):
        gamelearn.train("teeko", "az", games=100, grade=False)
    with pytest.raises(ValueError, match="plays 8 games at once"):
        gamelearn.train("teeko", "az", games=100, grade=False, parallel=8)


@needs("neural", "jax")
def test_the_command_refuses_a_named_busy_learners_games_as_early_as_an_unnamed_ones(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # one line, before the learner is built or its header printed, and no store made for it
    home = tmp_path / "new"
    monkeypatch.setenv("GAMELEARN_HOME", str(home))
    shown = runner.invoke(app, ["train", "teeko", "az", "--name", "n", "--games", "100", "--no-grade"])
    assert shown.exit_code == 2
    assert shown.output.splitlines() == [
        "gamelearn: error: --games 100: this learner plays 32 games at once and starts a new one in a slot as soon "
        "as one ends, so a batch ends a varying number of games; train it for --minutes or --cpu-minutes"
    ]
    assert not home.exists()
    # a kept learner batches as it was kept: its settings are read, not the game's, and nothing is written
    with Store() as store:
        store.save_learner("az", "k", {"format": "gamelearn-az", "game": "teeko", "settings": KEPT_SETTINGS})
    before = (home / "gamelearn.sqlite3").stat().st_mtime_ns
    shown = runner.invoke(app, ["train", "teeko", "az", "--name", "k", "--games", "100", "--no-grade"])
    assert shown.exit_code == 2
    assert len(shown.output.splitlines()) == 1 and "plays 12 games at once" in shown.output
    assert (home / "gamelearn.sqlite3").stat().st_mtime_ns == before


#: A kept az learner's settings that batch in 12 busy slots (Teeko's own are 32).
KEPT_SETTINGS = {"games_per_batch": 12, "plies_per_batch": 32}


def test_the_command_labels_its_clock_and_names_every_learner(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("GAMELEARN_HOME", str(tmp_path))
    shown = runner.invoke(app, ["train", "--help"])
    assert "ntuple" in shown.output and "az" in shown.output and "--cpu-minutes" in shown.output
    shown = runner.invoke(
        app, ["train", "hexapawn", "ntuple", "--name", "h", "--cpu-minutes", "0.01", "--no-grade", "--quiet"]
    )
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    header = next(line for line in lines if line.split()[-3:] == ["keeps", "best", "blund."])
    assert header.split()[:2] == ["CPU", "s"]  # the checkpoints' time column is the budget's clock
    trained = next(line for line in lines if line.startswith("Trained "))
    assert " of 0.6 CPU seconds " in trained and " s wall, " in trained
    shown = runner.invoke(app, ["train", "hexapawn", "ntuple", "--name", "h2", "--games", "300", "--no-grade", "-q"])
    assert "Trained 300 of 300 games: " in shown.output


def test_progress_lines_say_the_share_done_and_skip_no_quarter() -> None:
    lines: list[str] = []
    bar = Milestones("learners", 3, "learners", write=lines.append)
    for _ in range(3):
        bar.advance()
    assert [line.split(" (")[0] for line in lines] == ["learners: 33%", "learners: 66%", "learners: 100%"]
    assert lines[-1].endswith(" s wall)")


def test_a_learner_that_searches_is_graded_as_its_raw_network_unless_asked_in_full() -> None:
    # Issue 50: Teeko's ntuple plays with an 8-ply search (a fifth of a CPU second a move), so each
    # checkpoint graded it on 2,000 positions for minutes, outside the budget: ten CPU minutes asked
    # for ran past twenty-nine.  Its checkpoints grade the raw network; --full-grade its play.
    from gamelearn.experiments.training import Training

    teeko = gamelearn.get_game("teeko")
    quick = Training(teeko, "ntuple", name=None, keeper=None, grade=False)
    assert quick.quick == {"search": "0"} and quick.graded == "ntuple:search=0"
    full = Training(teeko, "ntuple", name=None, keeper=None, grade=False, full_grade=True)
    assert full.quick == {} and full.graded == "ntuple"
    raw = Training(teeko, "ntuple:search=0", name=None, keeper=None, grade=False)
    assert raw.quick == {} and raw.graded == "ntuple:search=0"  # its play is the raw network already
    ttt = Training(gamelearn.get_game("tictactoe"), "ntuple", name=None, keeper=None, grade=False)
    assert ttt.quick == {} and ttt.graded == "ntuple"  # tic-tac-toe's play is the raw network


@pytest.mark.slow  # Teeko's table and suite, and its ntuple compiled
@pytest.mark.usefixtures("teeko_suite")  # drawn once a run
def test_teekos_ntuple_checkpoints_are_the_raw_networks_grade(teeko_table) -> None:  # type: ignore[no-untyped-def]
    from gamelearn.experiments.grading import grade_player
    from gamelearn.experiments.suites import get_suite
    from gamelearn.experiments.training import frozen_copy

    teeko = gamelearn.get_game("teeko")
    run = gamelearn.train(teeko, "ntuple", games=200, checkpoints=1)
    assert run.graded == "ntuple:search=0" and run.to_dict()["graded"] == "ntuple:search=0"
    raw = grade_player(frozen_copy(run.player, "ntuple:search=0,train=off", 0), get_suite(teeko), seed=0)
    assert run.checkpoints[-1].keeps == raw.keeps


def test_train_columns_stay_put_past_ten_million() -> None:
    from gamelearn.cli.learning import checkpoint_header, checkpoint_line
    from gamelearn.experiments.training import Checkpoint

    header = checkpoint_header("CPU")
    for many in (999, 9_999_999, 10_000_000, 123_456_789, 2_000_000_000):
        point = Checkpoint(
            seconds=3600, games=many, positions=many, steps=many, loss=0.01, value_loss=0.01,
            games_per_second=many / 7, positions_per_second=many, keeps=0.5, best=0.5, blunders=0.1,
            cpu_seconds=600_000,
        )  # fmt: skip
        line = checkpoint_line(point, "CPU")
        assert len(line) == len(header) <= 80
        # every column ends where its heading ends
        for heading in ("games", "steps", "games/s", "pos/s", "keeps"):
            end = header.index(heading) + len(heading)
            assert line[end - 1] != " " and (end == len(line) or line[end] == " "), (many, heading, line)
