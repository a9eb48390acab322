"""`gamelearn teeko ...` through the real command (Typer's CliRunner on the app of cli/main.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from gamelearn.cli.main import app
from gamelearn.store.store import default_store_path
from gamelearn.thesis.memories import list_memories, load_memory, save_memory

runner = CliRunner()

BOARD = "0000002120021000121000000"
OTHER = "0000002120021000120000010"


def run(*args: str):
    return runner.invoke(app, list(args))


def store_rows() -> list[tuple]:
    """Every row of the memory tables, read with sqlite3 directly (not through our code)."""
    path = default_store_path()
    if not path.exists():
        return []
    with sqlite3.connect(path) as db:
        return db.execute(
            "SELECT owner, name, position, board, x_wins, o_wins FROM memory_entries ORDER BY 1, 2, 3"
        ).fetchall() + [
            ("memories",) + row for row in db.execute("SELECT owner, name FROM memories ORDER BY 1, 2").fetchall()
        ]


def test_memory_import_export_round_trip_of_the_thesis_memory(thesis_data: Path, tmp_path: Path):
    source = thesis_data / "memory after 10000 games.txt"
    result = run("teeko", "memory", "import", str(source), "--name", "thesis10k")
    assert result.exit_code == 0, result.output
    assert "516 records" in result.stdout
    target = tmp_path / "exported.m"
    result = run("teeko", "memory", "export", "thesis10k", str(target))
    assert result.exit_code == 0, result.output
    assert target.read_bytes() == source.read_bytes()
    listing = run("teeko", "memory", "list")
    assert "thesis10k" in listing.stdout and "57,659" in listing.stdout and "17,974" in listing.stdout
    shown = run("teeko", "memory", "show", "thesis10k", "--records", "2")
    assert shown.exit_code == 0
    assert "516 records" in shown.stdout and "57,659" in shown.stdout
    assert "00000 02120 02100 01200 00010" in shown.stdout  # the file's first record
    assert run("teeko", "memory", "delete", "thesis10k").exit_code == 0
    assert run("teeko", "memory", "show", "thesis10k").exit_code == 2


def test_import_default_name_and_refusals_change_nothing(tmp_path: Path):
    good = tmp_path / "my memory.m"
    good.write_bytes((BOARD + "   3" + "   1" + OTHER + "    " + "  12").encode())
    assert run("teeko", "memory", "import", str(good)).exit_code == 0
    assert "my-memory" in run("teeko", "memory", "list").stdout
    before = store_rows()
    assert len(before) == 3

    corrupt = tmp_path / "corrupt.m"
    corrupt.write_bytes((BOARD + "   3" + "   1" + OTHER + "  1" + "x" + "   2").encode())
    foreign = tmp_path / "notes.txt"
    foreign.write_text("These are my notes about Teeko, not a memory.\n")
    cases = [
        (
            ["import", str(corrupt), "--name", "my-memory", "--replace"],
            "record 2 (byte offset 33): count field 1 (byte offset 58) is '  1x'",
        ),
        (["import", str(corrupt)], "record 2 (byte offset 33)"),
        (["import", str(foreign)], "record 1 (byte offset 0): board digit 1 (byte offset 0) is 'T'"),
        (["import", str(tmp_path / "missing.m")], "cannot read"),
        (["import", str(good)], "already in the store"),
        (["export", "nothing-such", str(tmp_path / "out.m")], "no memory named 'nothing-such'"),
        (["export", "my-memory", str(tmp_path / "no-folder" / "out.m")], "does not exist"),
        (["delete", "nothing-such"], "no memory named"),
    ]
    for args, message in cases:
        result = run("teeko", "memory", *args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.output
    assert store_rows() == before
    assert not (tmp_path / "out.m").exists()


def test_stat_show_and_reset(thesis_data: Path, tmp_path: Path):
    result = run("teeko", "stat", "show", "--file", str(thesis_data / "stat.m"))
    assert result.exit_code == 0
    assert "7001" in result.stdout and "3214 (45.91%)" in result.stdout and "1106 (15.80%)" in result.stdout
    copy = tmp_path / "stat.m"
    copy.write_bytes((thesis_data / "stat.m").read_bytes())
    assert run("teeko", "stat", "reset", "--file", str(copy)).exit_code == 0
    assert copy.read_bytes() == b" " * 36
    bad = tmp_path / "bad.m"
    bad.write_bytes(b"abc")
    result = run("teeko", "stat", "show", "--file", str(bad))
    assert result.exit_code == 2 and "3 bytes, but a stat file is 36" in result.stderr
    shown = run("teeko", "stat", "show")
    assert shown.exit_code == 0 and "against you, program began" in shown.stdout
    assert run("teeko", "stat", "reset").exit_code == 0


CONSOLE_SCRIPT = "1\n1344\n22\nq\np\nt\n3\n?\n\nq\n"


def test_console_through_the_command_with_scripted_input():
    result = runner.invoke(app, ["teeko", "console", "--seed", "5"], input=CONSOLE_SCRIPT)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "illegal move '1344': wrong phase" in out
    assert "The game has been abandoned" in out
    assert "Pause is now OFF." in out and "Thinking is now OFF." in out
    assert "Self-play:    1 in all" in out  # the autoplay game, and only it, was counted
    assert out.rstrip().endswith("Goodbye.")
    # the same seed plays the same games
    from gamelearn.store.store import Store
    from gamelearn.thesis.memories import load_stat

    counts = load_stat(Store())
    assert sum(counts[:3]) == 1 and sum(counts[3:]) == 0


def test_console_is_deterministic_by_seed(tmp_path: Path, monkeypatch):
    outputs = []
    for home in ("a", "b"):
        monkeypatch.setenv("GAMELEARN_HOME", str(tmp_path / home))
        result = runner.invoke(app, ["teeko", "console", "--seed", "11"], input="p\n3\nq\n")
        assert result.exit_code == 0, result.output
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
    assert "Player I (X) plays" in outputs[0]


# --- batch ------------------------------------------------------------------------------------


def reference_run(thesis_data: Path, tmp_path: Path, run: str, games: int, first: str, second: str) -> None:
    """Run one reference setting through the command in a folder laid out as the original's was,
    and compare everything it leaves with the reference files byte for byte."""
    traces = thesis_data / "original-traces"
    (tmp_path / "memory.m").write_bytes(b"")
    start = (thesis_data / "memory after 10000 games.txt").read_bytes() if run[0] == "C" else b""
    (tmp_path / "mem2.m").write_bytes(start)
    (tmp_path / "stat.m").write_bytes(b" " * 36)
    setting, seed = run.split("-")
    result = run_in(
        tmp_path,
        ["teeko", "batch", "--games", str(games), "--first", first, "--second", second, "--original",
         "--seed", seed, "--first-memory", str(tmp_path / "memory.m"), "--second-memory", str(tmp_path / "mem2.m"),
         "--stat", str(tmp_path / "stat.m"), "--trace", str(tmp_path / "out.txt")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out.txt").read_bytes() == (traces / f"run-{run}.out").read_bytes()
    for ours, theirs in (("memory.m", "memory.m"), ("mem2.m", "memory2.m"), ("stat.m", "stat.m")):
        assert (tmp_path / ours).read_bytes() == (traces / f"run-{run}.{theirs}").read_bytes(), ours


def run_in(folder: Path, args: list[str]):
    return runner.invoke(app, args)


def test_batch_reproduces_reference_run_a1_byte_for_byte(thesis_data: Path, tmp_path: Path):
    reference_run(thesis_data, tmp_path, "A-1", 30, "+h+s+l", "+h+s+l")


def test_batch_reproduces_reference_run_c2_with_the_thesis_memory(thesis_data: Path, tmp_path: Path):
    reference_run(thesis_data, tmp_path, "C-2", 20, "+h+s+l", "+h+s+l")


def test_batch_reproduces_reference_run_d2_with_off_board_reads_and_the_ply_cap(thesis_data: Path, tmp_path: Path):
    reference_run(thesis_data, tmp_path, "D-2", 30, "-h+s-l", "+h-s-l")


def test_batch_with_store_memories_learns_into_the_store_and_records_the_result():
    result = run(
        "teeko", "batch", "--games", "12", "--seed", "4", "--first-memory", "mine", "--second-memory", "theirs", "--new"
    )
    assert result.exit_code == 0, result.output
    assert "X wins (player I)" in result.stdout and "O wins (player II)" in result.stdout
    from gamelearn.store.store import Store

    store = Store()
    (saved,) = store.results("teeko-batch")
    assert saved["games"] == 12 and saved["x_wins"] + saved["draws"] + saved["o_wins"] == 12
    assert saved["mode"] == "fixed" and saved["first"] == "+h+s+l"
    from gamelearn.thesis.memories import load_stat

    assert load_stat(store) == (saved["x_wins"], saved["draws"], saved["o_wins"], 0, 0, 0, 0, 0, 0)
    shown = run("teeko", "stat", "show")
    assert f"{saved['x_wins']} (" in shown.stdout and "self-play" in shown.stdout
    mine, theirs = load_memory(store, "mine"), load_memory(store, "theirs")
    # both sides learn every won game: two memories that start empty stay identical (section f)
    assert mine == theirs
    assert (len(mine) > 0) == (saved["x_wins"] + saved["o_wins"] > 0)
    again = run(
        "teeko",
        "batch",
        "--games",
        "12",
        "--seed",
        "4",
        "--first-memory",
        "mine2",
        "--second-memory",
        "theirs2",
        "--new",
    )
    assert Store().results("teeko-batch")[1]["per_game"] == saved["per_game"]  # same seed, same games
    assert again.exit_code == 0


def test_batch_refuses_bad_arguments_with_one_line(tmp_path: Path):
    missing = str(tmp_path / "nothing.m")
    bad_memory = tmp_path / "bad.m"
    bad_memory.write_bytes(b"0" * 40)
    # numbers are Typer's to check: exit 2 and the option named (Typer's usage panel)
    for args in ([], ["--games", "0"], ["--games", "12x"], ["--games", "-3"], ["--games", "10000000000"],
                 ["--games", "3", "--seed", "x"], ["--games", "3", "--seed", "-1"], ["--games", "3", "--seed", str(2**32)]):  # fmt: skip
        result = run("teeko", "batch", *args)
        assert result.exit_code == 2, (args, result.output)
        assert ("--seed" if "--seed" in args else "--games") in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.output
    cases = [
        (["--games", "3", "--first", "+h+s+lx"], "--first: flags are six characters such as +h+s-l"),
        (["--games", "3", "--second", "+h+s"], "--second: flags are six characters"),
        (["--games", "3", "--first", "+s+h+l"], "--first: flags are six characters"),
        (["--games", "3", "--second-memory", missing], f"--second-memory: memory file {missing} does not exist"),
        (["--games", "3", "--first-memory", str(bad_memory)], "record 1 (byte offset 0): board"),
        (["--games", "3", "--first-memory", "same", "--second-memory", "same", "--new"], "name the same memory"),
        (["--games", "3", "--second-memory", "no-such-memory"], "no memory named 'no-such-memory' in the store"),
        (["--games", "3", "--second-memory", "a\x07b", "--new"], "holds a control character"),
        (["--games", "3", "--trace", str(tmp_path / "no" / "t.txt")], "--trace: cannot write"),
        (["--games", "3", "--stat", str(bad_memory)], "40 bytes, but a stat file is 36"),
    ]
    for args, message in cases:
        result = run("teeko", "batch", *args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1
    assert not Path(missing).exists()
    from gamelearn.store.store import Store

    assert list_memories(Store()) == [] and Store().results("teeko-batch") == []


# --- stat import / export ---------------------------------------------------------------------


def stat_rows() -> list[tuple]:
    """The store's score rows, read with sqlite3 directly (not through our code)."""
    path = default_store_path()
    if not path.exists():
        return []
    with sqlite3.connect(path) as db:
        return db.execute("SELECT kind, name, payload FROM learners WHERE kind = 'thesis-stat'").fetchall()


def test_stat_import_export_round_trip_of_the_thesis_score(thesis_data: Path, tmp_path: Path):
    source = thesis_data / "stat.m"
    result = run("teeko", "stat", "import", str(source))
    assert result.exit_code == 0, result.output
    assert "7001 games" in result.stdout  # 3214 + 2681 + 1106, the thesis's files
    shown = run("teeko", "stat", "show")
    assert "3214 (45.91%)" in shown.stdout and "1106 (15.80%)" in shown.stdout
    target = tmp_path / "out" / "stat.m"
    target.parent.mkdir()
    result = run("teeko", "stat", "export", str(target))
    assert result.exit_code == 0, result.output
    assert target.read_bytes() == source.read_bytes()
    assert [p.name for p in target.parent.iterdir()] == ["stat.m"]  # no temporary left behind
    # a fresh store's score exports as the original's fresh stat.m: 36 spaces
    assert run("teeko", "stat", "reset").exit_code == 0
    assert run("teeko", "stat", "export", str(target)).exit_code == 0
    assert target.read_bytes() == b" " * 36


def test_stat_import_refusals_are_one_line_and_change_nothing(thesis_data: Path, tmp_path: Path):
    mine = tmp_path / "mine.m"
    mine.write_bytes(b"   5   1   2" + b" " * 24)
    assert run("teeko", "stat", "import", str(mine)).exit_code == 0
    before = stat_rows()
    assert len(before) == 1
    cut = tmp_path / "cut.m"
    cut.write_bytes(b"   5   1   2")
    padded = tmp_path / "zero.m"
    padded.write_bytes(b"   5   0   2" + b" " * 24)
    memory = thesis_data / "memory after 10000 games.txt"
    cases = [
        (["import", str(cut), "--replace"], "12 bytes, but a stat file is 36"),
        (["import", str(padded), "--replace"], "field 2 (byte offset 4) is '   0'"),
        (["import", str(memory), "--replace"], "17028 bytes, but a stat file is 36"),
        (["import", str(tmp_path / "missing.m")], "cannot read"),
        (["import", str(thesis_data / "stat.m")], "already counts 8 games"),
        (["export", str(tmp_path / "no-folder" / "stat.m")], "does not exist"),
        (["export", str(tmp_path)], "is a folder"),
    ]
    for args, message in cases:
        result = run("teeko", "stat", *args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.output
    assert stat_rows() == before
    assert run("teeko", "stat", "import", str(thesis_data / "stat.m"), "--replace").exit_code == 0
    from gamelearn.store.store import Store
    from gamelearn.thesis.memories import load_stat

    assert load_stat(Store()) == (3214, 2681, 1106, 0, 0, 0, 0, 0, 0)


def test_stat_export_of_a_count_past_9999_is_refused_and_leaves_the_file(tmp_path: Path):
    from gamelearn.store.store import Store
    from gamelearn.thesis.memories import save_stat

    save_stat(Store(), (10000, 0, 0, 0, 0, 0, 0, 0, 0))
    target = tmp_path / "stat.m"
    target.write_bytes(b"old")
    result = run("teeko", "stat", "export", str(target))
    assert result.exit_code == 2 and "10000" in result.stderr and "9999" in result.stderr
    assert target.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["stat.m"]


# --- a thesis memory file played from, every way a user would try ------------------------------


def test_play_with_a_thesis_memory_path_that_holds_blanks(thesis_data: Path, monkeypatch):
    """The brief's command, its path relative to the working folder, with blanks; and the bare file
    name from its own folder.  The file is read, never written, and nothing enters the store."""
    import gamelearn

    source = thesis_data / "memory after 10000 games.txt"
    before = source.read_bytes()
    monkeypatch.chdir(thesis_data / "original-traces")
    for value in ("../memory after 10000 games.txt", str(source)):
        spec = f"thesis:memory={value}"
        player = gamelearn.make_player(gamelearn.get_game("teeko"), spec, seed=1)
        assert len(player.memory) == 516  # type: ignore[attr-defined]
        result = run("play", "teeko", "--first", "random", "--second", spec, "--seed", "1")
        assert result.exit_code == 0, result.output
        flat = " ".join(result.stdout.split())
        assert "wins after" in flat or "draw" in flat.lower()
    monkeypatch.chdir(thesis_data)
    player = gamelearn.make_player(gamelearn.get_game("teeko"), "thesis:memory=memory after 10000 games.txt", seed=1)
    assert len(player.memory) == 516  # type: ignore[attr-defined]
    assert source.read_bytes() == before
    from gamelearn.store.store import Store

    assert list_memories(Store()) == []


def test_play_with_a_missing_or_bad_memory_file_is_one_line(tmp_path: Path):
    bad = tmp_path / "bad memory.m"
    bad.write_bytes(b"0" * 33)
    cases = [
        (f"thesis:memory={tmp_path / 'missing.m'}", "does not exist"),
        (f"thesis:memory={bad}", "record 1 (byte offset 0): board 0000000000000000000000000 has 0 pawns"),
    ]
    for spec, message in cases:
        result = run("play", "teeko", "--first", "random", "--second", spec, "--seed", "1")
        assert result.exit_code == 2, (spec, result.output)
        assert message in result.stderr, (spec, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1


def test_imported_memory_is_recalled_by_the_console_and_learned_into(thesis_data: Path):
    """Import the 10,000-game memory, then autoplay one game in the console from it: the program
    finds matching records (with the same seed and an empty memory it finds none), and whatever
    the game teaches goes into that memory in the store."""
    import re

    source = thesis_data / "memory after 10000 games.txt"
    assert run("teeko", "memory", "import", str(source), "--name", "thesis10k").exit_code == 0
    outputs = {}
    for name in ("thesis10k", "empty"):
        result = runner.invoke(app, ["teeko", "console", "--memory", name, "--seed", "2"], input="p\n3\nq\n")
        assert result.exit_code == 0, result.output
        outputs[name] = result.stdout
    matches = {name: [int(k) for k in re.findall(r"memory \((\d+) matching", out)] for name, out in outputs.items()}
    assert matches["thesis10k"] and max(matches["thesis10k"]) > 0
    assert matches["empty"] and max(matches["empty"]) == 0
    from gamelearn.store.store import Store
    from gamelearn.thesis.files import read_memory_entries

    kept, imported = load_memory(Store(), "thesis10k"), read_memory_entries(source)
    assert kept is not None
    assert [e[0] for e in kept[:516]] == [e[0] for e in imported]  # file order kept, appended after
    # seed 2's game is won (seed 3's, drawn, leaves the memory as imported): learning adds one
    # count per moving-phase board after the import's 516 records, in place or appended
    assert "Learned" in outputs["thesis10k"] and "(memory 'thesis10k'" in outputs["thesis10k"]
    plies = int(re.findall(r"Learned (\d+) positions", outputs["thesis10k"])[0])
    assert sum(e[1] + e[2] for e in kept) == 57659 + 17974 + plies


# --- the --trace file: written beside its target, renamed at the end, left alone by a stopped run ---


def hang_after(games: int, monkeypatch) -> None:
    """Make the batch stop as an original-mode hang does, after ``games`` real games (their trace
    lines already written), by wrapping the real run_batch."""
    from gamelearn.thesis import batch as thesis_batch

    real = thesis_batch.run_batch

    def stopping(config):
        inner = config.progress

        def progress(summary):
            inner(summary)
            if summary.number == games:
                raise thesis_batch.BatchHang(f"game {games + 1}, ply 3: the original's opening loops for ever")

        config.progress = progress
        return real(config)

    monkeypatch.setattr(thesis_batch, "run_batch", stopping)


def test_a_batch_that_stops_leaves_the_trace_target_as_it_was(tmp_path: Path, monkeypatch):
    import os
    import stat as modes

    old_umask = os.umask(0o022)
    try:
        done = tmp_path / "done.txt"
        result = run("teeko", "batch", "--games", "3", "--original", "--trace", str(done))
        assert result.exit_code == 0, result.output
        assert done.read_text().count("TRACE END") == 3 and modes.S_IMODE(done.stat().st_mode) == 0o644
    finally:
        os.umask(old_umask)
    kept = tmp_path / "kept.txt"
    kept.write_text("an earlier trace\n")
    absent = tmp_path / "absent.txt"
    hang_after(2, monkeypatch)
    for target in (kept, absent):
        result = run("teeko", "batch", "--games", "5", "--original", "--trace", str(target))
        assert result.exit_code == 2 and "stopped after 2 of 5 games" in result.stderr, result.output
    assert kept.read_text() == "an earlier trace\n" and not absent.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["done.txt", "kept.txt"]  # no temporary left
    from gamelearn.store.store import Store

    assert [r["games"] for r in Store().results("teeko-batch")] == [3, 2, 2]  # what was played is kept


def test_run_batch_writes_a_trace_path_whole_or_not_at_all(tmp_path: Path):
    from gamelearn.thesis.batch import BatchConfig, run_batch, trace_text

    target = tmp_path / "t.txt"
    config = BatchConfig(games=2, original=True, seed=5, trace=target)
    run_batch(config)
    assert target.read_text(encoding="ascii") == trace_text(BatchConfig(games=2, original=True, seed=5))[1]
    written = target.read_bytes()

    def interrupted(summary):
        raise KeyboardInterrupt

    try:
        run_batch(BatchConfig(games=2, original=True, seed=6, trace=target, progress=interrupted))
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the progress callback's interrupt was swallowed")
    assert target.read_bytes() == written and [p.name for p in tmp_path.iterdir()] == ["t.txt"]


def test_experiment_results_are_saved_before_the_chart_is_written(thesis_data: Path, tmp_path: Path, monkeypatch):
    from gamelearn.store.store import Store
    from gamelearn.thesis import chart as thesis_chart

    def full_disk(report, path):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(thesis_chart, "write_chart", full_disk)
    memory = str(thesis_data / "memory after 10000 games.txt")
    result = run("teeko", "experiment", "--thesis-memory", memory, "--games", "2", "--seeds", "1",
                 "--train-games", "2", "--chart-games", "1", "--workers", "1", "--out", str(tmp_path))  # fmt: skip
    assert result.exit_code == 2 and "No space left on device" in result.stderr, result.output
    assert len(Store().results("teeko-thesis-experiment")) == 1


def test_a_mistyped_memory_name_is_refused_naming_the_closest_one():
    from gamelearn.store.store import Store

    save_memory(Store(), "memory-after-10000-games", [("1" * 25, 1, 0)])
    result = run("teeko", "batch", "--games", "2", "--second-memory", "memory-after-10000-game")
    assert result.exit_code == 2
    assert "did you mean 'memory-after-10000-games'?" in result.stderr and "--new" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert list_memories(Store()) == ["memory-after-10000-games"]  # nothing made
    assert Store().results("teeko-batch") == []


def test_a_memory_file_is_announced_as_updated_in_place_and_a_read_only_one_is_refused(tmp_path: Path):
    import os

    memory = tmp_path / "mem2.m"
    memory.write_bytes(b"")
    result = run("teeko", "batch", "--games", "3", "--second-memory", str(memory))
    assert result.exit_code == 0, result.output
    assert f"Player II's memory is the file {memory.resolve()}: it is updated in place" in " ".join(
        result.stdout.split()
    )
    memory.chmod(0o444)
    if os.access(memory, os.W_OK):  # root writes anyway: nothing a read-only mode could show
        return
    result = run("teeko", "batch", "--games", "3", "--second-memory", str(memory))
    assert result.exit_code == 2 and "is read-only" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
