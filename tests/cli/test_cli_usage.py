"""The terminal as a person meets it: a mistyped game,
player, option or command gets the name it most likely meant; every usage error is one line in
gamelearn's style with exit status 2, never Typer's boxed panel; shell completion works; sizes no
machine holds are refused before any work, with the range in --help; --quiet leaves the result
alone and, off a terminal, progress is a few plain lines; the move prompt refuses control
sequences, cuts what it echoes, offers another game, and at a terminal has readline's history."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from extras import need
from gamelearn.cli.main import app
from gamelearn.experiments import runners
from gamelearn.games import get_game
from gamelearn.thesis.memories import update_memory
from reliability_support import PtyReader

runner = CliRunner()
#: The characters of Typer's boxed panels: never in an error.
BOX = set("╭╮╰╯│─")


def one_line_error(args: list[str]) -> str:
    """The command's error: exit status 2, one line on stderr in gamelearn's style, nothing boxed."""
    done = runner.invoke(app, args)
    assert done.exit_code == 2, done.output
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamelearn: error: "), done.stderr
    assert not BOX & set(done.stderr) and "Traceback" not in done.output
    return lines[0]


@pytest.mark.parametrize(
    ("args", "meant"),
    [
        (["play", "teko"], "'teeko'"),
        (["rules", "tictacto"], "'tictactoe'"),
        (["play", "tictactoe", "--second", "minmax"], "'minimax'"),
        (["play", "tictactoe", "--second", "menace:nmae=x"], "'name'"),
        (["rules", "teeko:goal=advanced"], "'goals'"),
        (["tournament", "tictactoe", "random", "random", "--gams", "2"], "'--games'"),
        (["plya", "tictactoe"], "'play'"),
    ],
)
def test_a_mistyped_name_gets_the_one_it_most_likely_meant(args: list[str], meant: str) -> None:
    assert f"(did you mean {meant}?)" in one_line_error(args)


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "tictactoe"],  # a missing argument
        ["play", "tictactoe", "--seed", "x"],  # not a number
        ["play", "tictactoe", "--max-plies", "0"],  # out of range
        ["curves", "tictactoe", "menace", "--seeds", "1000000000"],
        ["train", "tictactoe", "az", "--name", "a", "--parallel", "100000000"],
        ["train", "tictactoe", "az", "--name", "a", "--minutes", "1e12"],
        ["her", "--learners", "100000", "--games", "200000"],
        ["menace", "--learners", "100000", "--games", "500000"],
    ],
)
def test_every_usage_error_is_one_line_with_status_2(args: list[str]) -> None:
    line = one_line_error(args)
    assert len(line) < 300


def test_the_bounds_are_in_help() -> None:
    assert "1<=x<=1000]" in runner.invoke(app, ["curves", "--help"]).stdout
    shown = runner.invoke(app, ["train", "--help"]).stdout
    assert "1<=x<=4096]" in shown and "0<=x<=10080]" in shown
    cells = [
        line.strip("│ ").split("  ")[-1].strip() for line in runner.invoke(app, ["her", "--help"]).stdout.splitlines()
    ]
    assert "learners x games at most 20,000,000" in " ".join(cells)  # the help column, its lines joined


def test_shell_completion_completes_commands_games_and_players() -> None:
    def complete(words: str) -> list[str]:
        env = {"_GAMELEARN_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
        done = runner.invoke(app, [], env=env, prog_name="gamelearn")
        assert done.exit_code == 0, done.output
        return done.stdout.split()

    assert complete("gamelearn tour") == ["tournament"]
    assert complete("gamelearn play te") == ["teeko"]
    assert set(complete("gamelearn play tictactoe --second m")) == {"minimax", "mcts", "menace"}
    # the options that install it (they detect the shell they run in: shellingham)
    shown = runner.invoke(app, ["--help"]).stdout
    assert "--install-completion" in shown and "--show-completion" in shown


def test_quiet_leaves_the_result_and_off_a_terminal_progress_is_four_lines() -> None:
    args = ["grade", "tictactoe", "random", "--workers", "1"]
    told = runner.invoke(app, args)
    progress = [line for line in told.stderr.splitlines() if line.startswith("positions: ")]
    # a line as each quarter is passed, saying the share then done (a chunk of work may pass it)
    shares = [int(line.split(" (")[0].removeprefix("positions: ").removesuffix("%")) for line in progress]
    assert len(shares) == 4 and shares[-1] == 100
    assert all(25 * quarter <= share < 25 * quarter + 25 for quarter, share in enumerate(shares[:3], start=1))
    assert "\x1b" not in told.output
    quiet = runner.invoke(app, [*args, "--quiet"])
    assert quiet.exit_code == 0 and quiet.stderr == ""
    assert quiet.stdout == told.stdout  # the same result


def test_the_prompt_refuses_control_sequences_and_cuts_what_it_echoes() -> None:
    typed = "\x1b[A\n" + "4" * 500 + "\nq\n"
    done = runner.invoke(app, ["play", "tictactoe", "--first", "human", "--second", "random"], input=typed)
    assert done.exit_code == 0, done.output
    assert "not a move: that holds control characters" in done.output
    assert "4" * 21 not in done.output and "far longer than a move" in done.output


def test_another_game_is_offered_after_one_ends() -> None:
    draw = ["4", "0", "2", "6", "3", "5", "1", "7", "8"]  # a full board, no line
    typed = "\n".join([*draw, "y", *draw, "n"]) + "\n"
    done = runner.invoke(app, ["play", "tictactoe", "--first", "human", "--second", "human"], input=typed)
    assert done.exit_code == 0, done.output
    assert done.output.count("A draw after 9 plies") == 2 and done.output.count("Play again? [y/N]") == 2


@pytest.mark.slow  # the command under a terminal, in a process
def test_at_a_terminal_the_prompt_has_readline_history() -> None:
    """Through a pty: ``?`` then the up arrow and Enter lists the legal moves twice (readline gave
    back the line); without readline the arrow would be refused as a control sequence."""
    leader, follower = pty.openpty()
    command = [sys.executable, "-m", "gamelearn.cli.main", "play", "tictactoe", "--first", "human", "--second", "human"]
    process = subprocess.Popen(
        command, stdin=follower, stdout=follower, stderr=follower, env={**os.environ, "TERM": "dumb"}
    )
    os.close(follower)
    terminal = PtyReader(leader)
    try:
        terminal.read_until(b"to move: ", 60)
        os.write(leader, b"?\r")
        terminal.read_until(b"Legal moves", 60)
        os.write(leader, b"\x1b[A\r")
        deadline = time.monotonic() + 30
        while (
            terminal.seen.count(b"Legal moves") < 2
            and b"not a move" not in terminal.seen
            and time.monotonic() < deadline
        ):
            terminal.read_until(b"\x00", 0.5)
        os.write(leader, b"q\r")
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(leader)
    assert terminal.seen.count(b"Legal moves") == 2, terminal.seen.decode(errors="replace")[-500:]


@pytest.mark.slow  # a Dask scheduler
def test_a_dask_scheduler_without_workers_is_named_in_bounded_time(monkeypatch: pytest.MonkeyPatch) -> None:
    need("dask", "distributed")
    from dask.distributed import LocalCluster

    monkeypatch.setattr(runners, "DASK_WORKER_WAIT", 1.0)
    with LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        with pytest.raises(ValueError, match=r"has no worker \(waited 1 s\)"):  # not a hang
            runners.run_all(abs, [1, -2], 1, cluster.scheduler_address)


def test_memory_show_streams_the_memory_and_sums_it_right(monkeypatch: pytest.MonkeyPatch) -> None:
    """``teeko memory show`` reads the memory as a stream (it held 7 times the memory's size as
    Python tuples): whole loads are refused here, and the sums are a plain sum of the entries."""
    from gamelearn.store.store import Store

    entries = {i: (f"{i % 3}" * 25, i, 2 * i) for i in range(30)}
    with Store() as store:
        update_memory(store, "m", entries)

    def whole(*args: object, **kwargs: object) -> None:
        raise AssertionError("the whole memory was loaded")

    monkeypatch.setattr("gamelearn.thesis.memories.load_memory", whole)
    done = runner.invoke(app, ["teeko", "memory", "show", "m", "--records", "2"])
    assert done.exit_code == 0, done.output
    assert "m: 30 records" in done.stdout
    said = " ".join(done.stdout.split())
    assert f"side 1's wins come to {sum(range(30))} and side 2's to {2 * sum(range(30)):,}" in said
    assert "no count of games" in said  # a game counts once in each of its positions' records (issue 50)
    assert "00000 00000" in done.stdout and "11111 11111" in done.stdout and "22222" not in done.stdout
    listed = runner.invoke(app, ["teeko", "memory", "list"])
    assert listed.exit_code == 0 and "30" in listed.stdout


def test_the_solve_bars_have_their_totals_from_the_first_update(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each stage of the Teeko build reports its total from its first report (the retrograde
    analysis counts arrangements settled out of all of them): every bar shows that total from its
    first update, and its count, never a total that moves ahead of it."""
    from rich.progress import Progress

    from gamelearn.cli import solve as solve_command
    from gamelearn.solver import teeko

    seen: list[tuple[str, float, float | None]] = []

    class Recorded(Progress):
        def update(self, task_id, **fields):  # type: ignore[no-untyped-def, override]
            super().update(task_id, **fields)
            task = self.tasks[task_id]
            seen.append((task.description, task.completed, task.total))

    def build(variant: object, path: object, report) -> dict[str, object]:  # type: ignore[no-untyped-def]
        report("counting moves", 0, 1)
        report("counting moves", 1, 1)
        for done in (40, 70, 90, 100):
            report("retrograde analysis", done, 100)
        return {}

    monkeypatch.setattr(solve_command, "Progress", Recorded)
    monkeypatch.setattr(solve_command, "build_table", build)
    solve_command._build_teeko(get_game("teeko"), teeko.default_path())
    assert seen == [
        ("counting moves", 0, 1),
        ("counting moves", 1, 1),
        *[("retrograde analysis", done, 100) for done in (40, 70, 90, 100)],
    ]


def test_a_batch_holds_no_second_list_and_no_moves_of_its_games() -> None:
    from gamelearn.store.store import Store
    from gamelearn.thesis.batch import BatchConfig, BatchKeeper, run_batch

    heard: list[object] = []
    result = run_batch(BatchConfig(games=3, progress=heard.append, keep_games=False))
    assert result.games == [] and len(heard) == 3  # every game heard, none kept twice
    with Store() as store:
        keeper = BatchKeeper(store, [], (0,) * 9, None, {})
        for summary in heard:
            keeper.add(summary)  # type: ignore[arg-type]
        assert [g.moves for g in keeper.played] == [(), (), ()]
        assert [g.result for g in keeper.played] == [g.result for g in heard]  # type: ignore[attr-defined]
        assert all(g.moves for g in heard)  # type: ignore[attr-defined]
