"""The commands `gamelearn boxes`, `her`, `him`, `menace` and the export/import of named learners."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gamelearn
from gamelearn import play_game
from gamelearn.cli.main import app
from gamelearn.players.matchbox.advice import DRAW_REWARD, MIXED, RESTOCK
from gamelearn.store.store import Store

runner = CliRunner()
MENACE_REMEDIES = (RESTOCK, DRAW_REWARD, MIXED)


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def flat(text: str) -> str:
    """The output with Rich's line wrapping undone."""
    return " ".join(text.split())


def test_boxes_counts_without_playing() -> None:
    code, out = run("boxes", "hexapawn")
    assert code == 0 and "19 boxes, 47 beads, 17 of them bad" in flat(out)
    code, out = run("boxes", "tictactoe")
    assert code == 0 and "304 boxes" in out
    code, out = run("boxes", "hexapawn", "--no-symmetry")
    assert code == 0 and "37 boxes, 90 beads" in flat(out)
    code, out = run("boxes", "teeko")
    assert code == 2 and "hexapawn" in out


@pytest.mark.slow  # an experiment and its plot
def test_her_experiment_prints_the_figures_saves_the_plot_and_the_result(isolated_home: Path) -> None:
    plot = isolated_home / "her-learning-curve-seed3.png"
    code, out = run("her", "--learners", "5", "--games", "60", "--seed", "3", "--out", str(isolated_home))
    assert code == 0, out
    assert "19 boxes, 47 beads, 17 of them bad" in flat(out)
    assert "Good beads taken out: 0" in flat(out)
    assert "Gardner's chart" in flat(out)
    assert plot.read_bytes().startswith(b"\x89PNG")
    assert not [p for p in isolated_home.iterdir() if p.name.endswith(".tmp") or p.name.startswith(".her")]
    results = Store().results("her")
    assert len(results) == 1 and results[0]["learners"] == 5 and results[0]["seed"] == 3
    # the chart lines: ten letters a line, W and L only
    chart_lines = [
        line.strip() for line in out.splitlines() if line.startswith("  ") and set(line.strip()) <= {"W", "L"}
    ]
    assert len(chart_lines) == 12 and all(len(line) == 10 for line in chart_lines)
    code, again = run("her", "--learners", "5", "--games", "60", "--seed", "3", "--out", str(isolated_home))
    assert again.split("Result saved")[0] == out.split("Result saved")[0]  # same seed, same results


def test_him_answers_seed_003s_question() -> None:
    code, out = run("him", "--learners", "10", "--games", "100", "--no-chart")
    assert code == 0, out
    assert "Does HIM lose more games than HER, or fewer?" in flat(out)
    assert "against Random: HIM loses" in flat(out) and "against Sharp: HIM loses" in flat(out)
    saved = Store().results("him")[0]
    assert {item["opponent"] for item in saved["her_for_comparison"]} == {"random", "sharp"}


def test_menace_experiment_runs_against_each_opponent() -> None:
    code, out = run("menace", "--learners", "2", "--games", "100", "--no-chart")
    assert code == 0, out
    for opponent in ("random", "perfect", "self"):
        assert opponent in out
    assert "304 boxes" in out
    code, out = run("menace", "--against", "nobody")
    assert code == 2 and "unknown opponent" in out


def test_the_pages_remedies_are_options_of_the_command_and_the_pages_advice_names_them() -> None:
    # Issue 50: restocking, a mixed teacher and a draw reward were only on the page.
    code, out = run("menace", "--learners", "2", "--games", "300", "--against", "perfect", "--side", "O", "--json")
    assert code == 0, out
    stuck = json.loads(out[out.index("{") :])["opponents"][0]
    assert stuck["loss_rate_last"] == 1.0  # as O against perfect play every box it needs empties
    code, out = run("menace", "--learners", "2", "--games", "300", "--against", "perfect", "--side", "O", "--no-chart")
    assert "--restock on" in flat(out) and "--against perfect:random=0.5" in flat(out)  # the way out, said
    for remedy in MENACE_REMEDIES:
        command = remedy.text[remedy.text.index("gamelearn menace") : remedy.text.rindex(")")].split()[2:]
        code, out = run("menace", *command, "--learners", "2", "--games", "1000", "--side", "O", "--json")
        assert code == 0, (command, out)
        found = json.loads(out[out.index("{") :])
        item = found["opponents"][0]
        assert item["opponent"] == command[command.index("--against") + 1]
        assert found["restock"] == ("--restock" in command)
        if found["restock"]:  # restocked, it goes on to draw: no longer every game lost
            assert item["draw_rate_last"] > 0.5
        if item["opponent"] == "perfect:random=0.5":  # a teacher that errs lets it win
            assert item["average_wins"] > 0
    code, out = run("menace", "--against", "perfect:random=2")
    assert code == 2 and "outside 0..1" in out
    code, out = run("menace", "--restock", "maybe")
    assert code == 2 and "--restock" in out
    code, out = run("her", "--learners", "2", "--games", "50", "--against", "perfect:random=0.5", "--no-chart")
    assert code == 0 and "Perfect:" in out and "random=0.5" in out  # the spec broken after its colon only


def test_export_import_round_trip_and_a_bad_file_changes_nothing(tmp_path: Path) -> None:
    game = gamelearn.get_game("hexapawn")
    her = gamelearn.make_player(game, "her:name=ann", seed=1)
    for g in range(8):
        play_game(game, [gamelearn.make_player(game, "sharp", seed=g), her], seed=2 * g)
    path = tmp_path / "ann.json"
    code, out = run("her", "export", "ann", str(path))
    assert code == 0, out
    code, out = run("her", "import", str(path), "--name", "copy")
    assert code == 0, out
    store = Store()
    assert store.load_learner("her", "copy")["boxes"] == her.boxes  # type: ignore[attr-defined,index]
    payload = json.loads(path.read_text())
    board = next(iter(payload["boxes"]))
    payload["boxes"][board] = ["88"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(payload))
    before = store.load_learner("her", "copy")
    code, out = run("her", "import", str(bad), "--name", "copy", "--replace")
    assert code == 2 and f"box '{board}': bead '88' is not a legal move" in flat(out)
    assert store.load_learner("her", "copy") == before
    code, out = run("her", "export", "nobody", str(tmp_path / "x.json"))
    assert code == 2 and "no her named 'nobody'" in out
    code, out = run("her", "show", "ann")
    assert code == 0 and board in out
    code, out = run("menace", "import", str(path))
    assert code == 2 and "boxes for 'hexapawn'" in out
