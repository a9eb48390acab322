"""The CLI renders what experiments do: a thesis batch is a plan checked before any game and a
runner (thesis.batch_run), and `gamelearn train` runs gamelearn.train's one loop.

Oracles: the plan's refusals name the option in one line; the runner's outcome is what
``run_batch`` (the games themselves, called directly) plays for the same plan; the command's
checkpoints are the Python API's for the same seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gamelearn
from gamelearn.cli.main import app
from gamelearn.store.store import Store
from gamelearn.thesis.batch import BatchConfig, run_batch
from gamelearn.thesis.batch_run import BatchPlan, BatchRun
from gamelearn.thesis.engine import Settings

runner = CliRunner()


def refusal(options: dict[str, object]) -> str:
    with pytest.raises(ValueError) as refused:
        BatchPlan(**{"games": 3, **options})  # type: ignore[arg-type]
    message = str(refused.value)
    assert "\n" not in message, message
    return message


@pytest.mark.parametrize(
    "options, said",
    [
        ({"games": 0}, "--games: 0 is outside"),
        ({"games": 10**7}, "--games: 10000000 is outside"),
        ({"seed": -1}, "--seed: -1 is outside"),
        ({"seed": 2**32}, "--seed: 4294967296 is outside"),
        ({"first": "+h+s"}, "--first: flags are six characters"),
        ({"second": "+h+s+x"}, "--second: flags are six characters"),
        ({"first_memory": "  "}, "--first-memory: a name cannot be empty"),
        ({"second_memory": "a\x07b"}, "--second-memory: name 'a\\x07b' holds a control character"),
    ],
)
def test_a_bad_batch_option_is_refused_by_the_plan_in_one_line(options: dict[str, object], said: str) -> None:
    assert refusal(options).startswith(said)


def test_a_batch_plan_refuses_files_it_could_not_write(tmp_path: Path) -> None:
    assert refusal({"trace": tmp_path}) == f"--trace: cannot write {tmp_path}: it is a folder"
    missing = tmp_path / "nowhere" / "stat.m"
    assert refusal({"stat": missing}) == f"--stat: cannot write {missing}: no such folder"


def test_the_batch_runner_refuses_an_unknown_memory_and_the_same_memory_twice(tmp_path: Path) -> None:
    with Store(tmp_path / "store.sqlite3") as store:
        with pytest.raises(ValueError, match=r"^--second-memory: no memory named 'mine' in the store"):
            BatchRun(BatchPlan(3, second_memory="mine"), store).__enter__()
        same = BatchPlan(3, first_memory="mine", second_memory="mine", new=True)
        with pytest.raises(ValueError, match="name the same memory; each player keeps its own"):
            BatchRun(same, store).__enter__()


def test_the_batch_runner_plays_and_keeps_what_run_batch_plays(tmp_path: Path) -> None:
    plan = BatchPlan(12, first="+h-s+l", second="+h+s+l", second_memory="fresh", seed=7, new=True)
    heard: list[int] = []
    with Store(tmp_path / "store.sqlite3") as store, BatchRun(plan, store) as run:
        outcome = run.play(on_game=lambda summary: heard.append(summary.number))
        kept = store.result(outcome.result_id) if outcome.result_id is not None else None
    direct = run_batch(BatchConfig(games=12, first=Settings.parse("+h-s+l"), second=Settings.parse("+h+s+l"), seed=7))
    assert heard == list(range(1, 13)) and outcome.stopped is None and outcome.played == 12
    assert (outcome.x_wins, outcome.draws, outcome.o_wins) == direct.counts()
    assert [side.key for side in outcome.memories] == ["second"]
    assert len(outcome.memories[0].memory) == len(direct.second_memory)
    assert kept is not None and kept["games"] == 12 and kept["second_memory"] == "fresh (store)"
    assert outcome.to_dict()["memories"] == {
        "second": {"memory": "fresh (store)", "records": len(direct.second_memory)}
    }


def test_gamelearn_train_and_the_command_train_the_same_for_a_seed() -> None:
    by_api = gamelearn.train(
        "tictactoe", "ntuple", name="api", games=16, seed=5, checkpoints=2, grade=False, parallel=8
    )
    shown = runner.invoke(
        app,
        ["train", "tictactoe", "ntuple", "--name", "cli", "--games", "16", "--seed", "5", "--checkpoints", "2"]
        + ["--no-grade", "--parallel", "8", "--json"],
    )
    assert shown.exit_code == 0, shown.output
    by_cli = json.loads(shown.stdout)
    measured = ("games", "positions", "steps", "loss", "value_loss")  # not the clock's figures
    api_points = [{key: point.to_dict()[key] for key in measured} for point in by_api.checkpoints]
    cli_points = [{key: point[key] for key in measured} for point in by_cli["checkpoints"]]
    assert len(api_points) >= 2 and cli_points == api_points
    assert by_cli["games"] == by_api.games_after and by_api.result_id is not None
    assert by_cli["result_id"] != by_api.result_id  # each run is kept as its own train result
