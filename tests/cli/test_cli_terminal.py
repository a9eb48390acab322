"""The command as a person reads it in a terminal: the tour (docs/tour.md) at 80 columns (no cell cut, no line
past the edge, no trailing space, no ragged re-wrapped prose) and run twice, each time in a fresh
data directory and working folder, with the same figures; every --help screen at 80 columns; the wide tables at 200 columns.

The tour is docs/tour.md's own block, parsed here, in a small version (fewer games and learners) so that it
stays quick.  Left out: `gamelearn solve teeko`, and the perfect Teeko player and Teeko's suite,
which need its table (a 300 MB build of tens of seconds: tests/solver/test_solve_teeko_real.py and
tests/experiments/test_grading.py cover them), and `gamelearn serve` (its --help is rendered).
The commands that read the thesis author's files run where ../shared/thesis-data is present.
"""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from gamelearn.cli import common
from gamelearn.cli.main import app

README = Path(__file__).resolve().parents[2] / "README.md"
TOUR = README.parent / "docs" / "tour.md"


def thesis_data_dir() -> Path:
    """The thesis author's files, as tests/conftest.py finds them."""
    override = os.environ.get("GAMELEARN_THESIS_DATA")
    return Path(override) if override else README.parent.parent / "shared" / "thesis-data"


runner = CliRunner()

#: The small version of the tour: each option's value at most this (the figures' shape is kept).
SMALLER: dict[str, float] = {"--games": 20, "--learners": 3, "--seeds": 2, "--cpu-minutes": 0.02}
#: In a player spec, each search at most this many plies: alphabeta's depth=, and ntuple's search=,
#: given or not (Connect Four's ntuple searches 8 plies unless told): the same rows at the same
#: widths, a digit for a digit, in a fraction of the time (`grade connect4 ...`: 22 s to 2 s of CPU).
SEARCH_AT_MOST = 2
#: Added to commands that would otherwise take long or use every CPU.
EXTRA = {
    ("teeko", "experiment"): ["--train-games", "10", "--chart-games", "2", "--workers", "1"],
    ("tournament",): ["--workers", "1"],
    ("curves",): ["--workers", "1"],
}
#: What a person types at the prompts of the interactive commands: the helpers, then quit.
TYPED = {"play": "?\nhint\nundo\nq\n", "console": "q\n"}
BOX = set("│┃─━┏┓┗┛┡┩╇╈┳┻┼╭╮╰╯")


def tour_commands() -> list[list[str]]:
    """The commands of the tour's block, argument lists without `gamelearn`."""
    text = TOUR.read_text(encoding="utf-8").split("## The tour", 1)[1]
    block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = []
    for line in block.splitlines():
        line = line.split(" # ", 1)[0].strip()
        if line.startswith("gamelearn "):
            commands.append(shlex.split(line)[1:])
    return commands


def readme_commands() -> list[list[str]]:
    """The commands of README's ```sh blocks, argument lists without `gamelearn` (a line of two
    joined by && gives both; the set-up lines, which install, are not commands of gamelearn)."""
    text = README.read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            for part in line.split(" # ", 1)[0].split("&&"):
                part = part.strip()
                if part.startswith("gamelearn "):
                    commands.append(shlex.split(part)[1:])
    return commands


def smaller_spec(spec: str) -> str:
    """A player spec whose search is at most SEARCH_AT_MOST plies (any other argument as it is)."""
    kind, colon, options = spec.partition(":")
    if kind not in ("alphabeta", "ntuple"):
        return spec
    pieces = [piece for piece in options.split(",") if piece] if colon else []
    for index, piece in enumerate(pieces):
        key, _, value = piece.partition("=")
        if key in ("depth", "search") and value.isdigit():
            pieces[index] = f"{key}={min(int(value), SEARCH_AT_MOST)}"
    if kind == "ntuple" and colon and not any(piece.startswith("search=") for piece in pieces):
        pieces.append(f"search={SEARCH_AT_MOST}")
    return f"{kind}:{','.join(pieces)}" if pieces else spec


def small(args: list[str]) -> list[str] | None:
    """The small version of one tour command, or None for one this test leaves out."""
    teeko = any(arg == "teeko" or arg.startswith("teeko:") for arg in args)
    needs_table = teeko and ("perfect" in args or args[0] in ("grade", "suite", "analyze"))
    if args[0] == "serve" or (args[:2] == ["solve", "teeko"]) or needs_table:
        return None
    out = []
    for index, arg in enumerate(args):
        previous = args[index - 1] if index else ""
        if previous in SMALLER and arg.replace(".", "", 1).isdigit():
            arg = f"{min(float(arg), SMALLER[previous]):g}"
        if arg.endswith((".txt", ".m")) and " " in arg:  # the thesis author's file: the thesis data's
            found = thesis_data_dir() / Path(arg).name
            if not found.is_file():
                return None
            arg = str(found)
        out.append(smaller_spec(arg))
    for prefix, extra in EXTRA.items():
        if tuple(out[: len(prefix)]) == prefix:
            out += extra
    if out[0] == "play" and "--seed" not in out:
        out += ["--seed", "1"]  # a person's game: the computer's choices seeded, so that both passes agree
    if "memory-after-10000-games" in out and not (thesis_data_dir() / "memory after 10000 games.txt").is_file():
        return None
    if out[:2] == ["teeko", "experiment"]:  # it reads the memory from the working folder: name it here
        memory = thesis_data_dir() / "memory after 10000 games.txt"
        if not memory.is_file():
            return None
        out += ["--thesis-memory", str(memory)]
    return out


#: What a word is for cut_words: a name, an option's key or value (a spec's pieces between ':' and ',').
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_.=-]{3,}")


def cut_words(text: str, words: set[str]) -> list[str]:
    """The ``words`` that ``text`` shows cut in two across a line break: the head at the end of a
    table cell's line and the tail where that cell's text begins on the next line.  Rich folds a
    cell that has no space to wrap at mid-word ("tictact" over "oe"); a spec broken only after its
    ':' or ',' cuts none.  (Prose is wrapped at spaces, never mid-word: common.WordConsole.)"""
    found = []
    lines = text.splitlines()
    for upper, lower in zip(lines, lines[1:], strict=False):
        for word in words:
            if word in upper or word in lower:
                continue  # whole here
            for cut in range(1, len(word)):
                head, tail = word[:cut], word[cut:]
                for start in [m.start() for m in re.finditer(re.escape(head), upper)]:
                    after = upper[start + cut : start + cut + 2]
                    if after.strip() and after[:1] not in BOX:
                        continue  # the head goes on, or a word follows: not the end of a cell's line
                    cell = start  # where the cell's text begins on this line (a spec's earlier pieces too)
                    while cell and upper[cell - 1].strip() and upper[cell - 1] not in BOX:
                        cell -= 1
                    edge = lower[cell - 1 : cell] if cell else ""
                    ends = lower[cell + len(tail) : cell + len(tail) + 1]
                    aligned = lower[cell : cell + len(tail)] == tail and (not edge.strip() or edge in BOX)
                    aligned = aligned and (not ends.strip() or ends in BOX or ends in ":,")
                    if aligned:
                        found.append(f"{word!r} cut as {head!r} / {tail!r}: {upper!r} / {lower!r}")
    return found


def words_of(command: list[str], text: str) -> set[str]:
    """The words a person would expect whole: the command's names and its specs' pieces (split at
    ':' and ','), and every word of six letters or more the output shows whole somewhere."""
    words = {w for arg in command for piece in re.split(r"[:,\s]", arg) for w in WORD.findall(piece)}
    return words | {word for word in WORD.findall(text) if len(word) >= 6}


def problems(text: str, width: int, home: Path, command: list[str] | None = None) -> list[str]:
    """What a person would see wrong in ``text`` at ``width`` columns: a cut cell or word, a line
    past the edge, trailing spaces, ragged re-wrapping."""
    found = cut_words(text, words_of(command or [], text))
    lines = text.splitlines()
    for number, line in enumerate(lines):
        where = f"line {number + 1} {line!r}"
        if "…" in line:
            found.append(f"a cut cell: {where}")
        if line != line.rstrip():
            found.append(f"trailing spaces: {where}")
        if len(line) > width and str(home) not in line:  # a path is printed whole, to be copied
            found.append(f"longer than {width}: {where}")
        # ragged re-wrapping (a text wrapped twice, at two widths): a short fragment cut from a long
        # prose line, in the middle of its sentence, with the sentence going on in the next line
        if 0 < number < len(lines) - 1 and not BOX & set(line + lines[number - 1] + lines[number + 1]):
            before, after = lines[number - 1], lines[number + 1]
            if (
                0 < len(line.strip()) < 20
                and not line.startswith(" ")  # an indented line is laid out so (a chart, a list)
                and len(before) > width - 20
                and not re.search(r"[.:!?)]$", line.rstrip())
                and after.strip()
            ):
                found.append(f"a ragged wrap: {where}")
    return found


@pytest.fixture
def width_80() -> Iterator[None]:
    """The command's consoles at 80 columns, as in an 80x40 terminal."""
    saved = common.console.width, common.err_console.width
    common.console.width = common.err_console.width = 80
    yield
    common.console.width, common.err_console.width = saved


def run_tour(home: Path, commands: list[list[str]] | None = None) -> list[tuple[list[str], str]]:
    outputs = []
    for args in tour_commands() if commands is None else commands:
        command = small(args)
        if command is None:
            continue
        typed = TYPED.get(command[0] if command[0] == "play" else command[-1], None)
        result = runner.invoke(app, command, input=typed)
        assert result.exit_code == 0, (command, result.output)
        assert "Traceback" not in result.output and "internal error" not in result.output, command
        outputs.append((command, as_on_screen(result.stdout)))
    return outputs


def as_on_screen(output: str) -> str:
    """A captured session as the terminal shows it: what follows a prompt starts a new line there,
    after the person's typing and Enter (which the capture does not hold)."""
    return re.sub(r"(to move:|[Cc]hoice[^:\n]*:|> ) (?=.)", r"\1\n", output).replace(": \n", ":\n")


#: Lines that tell how long something took, and the store's running numbers of saved results.
TIMING = re.compile(r"\b\d+(\.\d+)? s\b|\d+:\d\d:\d\d")
RESULT_NUMBER = re.compile(r"(#|result ?)\d+")


#: The UTC time stamp in the names of files a run writes (curves-...-20261201T163159.csv).
STAMP = re.compile(r"\d{8}T\d{6}(-\d+)?")


def comparable(text: str) -> str:
    """The output with what differs from run to run masked: times, then (with every space and line
    break gone, since a long file name wraps anywhere) time stamps and the store's result numbers."""
    timed = "".join(TIMING.sub("T", line) for line in text.splitlines())
    return RESULT_NUMBER.sub(r"\1N", STAMP.sub("STAMP", "".join(timed.split())))


@pytest.mark.slow  # the whole tour, twice
@pytest.mark.timeout(900)  # minutes on a loaded machine
def test_the_tour_reads_at_80_columns_and_runs_twice_the_same(
    isolated_home: Path, width_80: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    commands = tour_commands()
    assert commands[0] == ["serve"], "the tour begins with the web app, right after the set-up command"
    monkeypatch.chdir(isolated_home)  # the files it writes (a memory exported) go to a folder of its own
    first = run_tour(isolated_home)
    # Every command is run but those small() leaves out, each for a reason it names (the Teeko
    # table's build, the thesis author's files where they are absent, the server).
    assert len(first) == sum(small(command) is not None for command in commands) > len(commands) // 2
    for command, output in first:
        said = problems(output, 80, isolated_home, command)
        assert not said, (command, said)
    again = tmp_path / "again"  # a person following it afresh: a new data directory and folder
    again.mkdir()
    monkeypatch.setenv("GAMELEARN_HOME", str(again))
    monkeypatch.chdir(again)
    second = run_tour(again)
    assert [c for c, _ in first] == [c for c, _ in second]
    for (command, one), (_, two) in zip(first, second, strict=True):
        assert comparable(one.replace(str(isolated_home), "HOME")) == comparable(two.replace(str(again), "HOME")), (
            command
        )


@pytest.mark.slow  # README's commands, small
@pytest.mark.timeout(900)
def test_readmes_commands_read_at_80_columns_with_no_word_cut(
    isolated_home: Path, width_80: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands = readme_commands()
    assert ["grade", "tictactoe", "random", "alphabeta:depth=2,eval=better", "mcts:playouts=100", "perfect"] in commands
    monkeypatch.chdir(isolated_home)
    ran = run_tour(isolated_home, [command for command in commands if small(command) is not None])
    assert len(ran) >= 8  # the teacher's and the researcher's paths; Teeko's needs its table
    for command, output in ran:
        said = problems(output, 80, isolated_home, command)
        assert not said, (command, said)


@pytest.mark.slow  # games played, then listed
def test_records_list_breaks_names_only_after_a_colon_or_a_comma(isolated_home: Path, width_80: None) -> None:
    # Issue 50: "teeko:g…", "tictact…", "her:name=⏎play".
    for first, second, game in (
        ("random", "alphabeta:depth=2,eval=thesis", "teeko:goals=advanced"),
        ("sharp", "her:name=play", "hexapawn"),
        ("alphabeta:depth=4,eval=better", "mcts:playouts=100,c=1.4", "tictactoe"),
    ):
        played = runner.invoke(app, ["play", game, "--first", first, "--second", second, "--seed", "1"])
        assert played.exit_code == 0, played.output
    listed = runner.invoke(app, ["records", "list"])
    assert listed.exit_code == 0, listed.output
    names = ["teeko:goals=advanced", "alphabeta:depth=2,eval=thesis", "her:name=play", "mcts:playouts=100,c=1.4"]
    said = problems(listed.stdout, 80, isolated_home, names)
    assert not said, said
    lines = listed.stdout.splitlines()
    for name in names:  # each piece whole on one line, the pieces in order on lines that follow
        pieces = re.findall(r"[^:,]+[:,]?", name)
        assert all(any(piece in line for line in lines) for piece in pieces), (name, listed.stdout)


@pytest.mark.slow  # commands each in a process
def test_more_commands_read_at_80_columns(isolated_home: Path, width_80: None) -> None:
    commands = [
        ["players", "teeko"],
        ["players", "tictactoe"],
        ["players", "hexapawn"],
        ["rules", "teeko"],
        ["rules", "tictactoe"],
        ["solve", "tictactoe", "--stats"],
        ["analyze", "hexapawn", "63"],
        ["boxes", "tictactoe"],
        ["menace", "--learners", "2", "--games", "30", "--against", "random", "--against", "sharp"],
        [
            "tournament",
            "teeko",
            "random",
            "alphabeta:depth=2,eval=thesis",
            "thesis",
            "thesis:original=on",
            "--games",
            "2",
            "--seed",
            "1",
            "--workers",
            "1",
        ],  # fmt: skip
        ["teeko", "stat", "show"],
        ["teeko", "memory", "list"],
        ["--version"],
    ]
    for command in commands:
        result = runner.invoke(app, command)
        assert result.exit_code == 0, (command, result.output)
        said = problems(result.stdout, 80, isolated_home, command)
        assert not said, (command, said)


@pytest.mark.slow  # a graded tournament
def test_the_graded_tournament_table_reads_at_200_columns(isolated_home: Path) -> None:
    saved = common.console.width
    common.console.width = 200
    try:
        result = runner.invoke(
            app,
            ["tournament", "tictactoe", "random", "minimax:depth=2", "menace", "perfect", "--games", "4", "--grade",
             "--seed", "1", "--workers", "1"],
        )  # fmt: skip
    finally:
        common.console.width = saved
    assert result.exit_code == 0, result.output
    assert not problems(result.stdout, 200, isolated_home)
    header = next(line for line in result.stdout.splitlines() if line.split()[:2] == ["#", "player"])
    for name in ("W-D-L", "score", "95% CI", "rating", "best", "mist.", "blun."):
        assert name in header


def all_command_paths() -> list[list[str]]:
    group = typer.main.get_command(app)
    paths: list[list[str]] = [[]]

    def walk(command: object, prefix: list[str]) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            paths.append([*prefix, name])
            walk(sub, [*prefix, name])

    walk(group, [])
    return paths


@pytest.mark.slow  # every command's help, each its own process
def test_every_help_screen_reads_at_80_columns(isolated_home: Path) -> None:
    paths = all_command_paths()
    assert ["teeko", "batch"] in paths and ["tournament"] in paths and ["her", "export"] in paths
    for path in paths:
        result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "80", "TERMINAL_WIDTH": "80"})
        assert result.exit_code == 0, (path, result.output)
        text = result.stdout
        assert "<bool>" not in text, path  # a flag takes no value
        for line in text.splitlines():
            assert len(line) <= 80 and "…" not in line, (path, line)
        found = [p for p in problems(text.replace(" ", " "), 80, isolated_home) if "ragged" in p]
        assert not found, (path, found)
    batch = runner.invoke(app, ["teeko", "batch", "--help"], env={"COLUMNS": "80"}).stdout
    assert re.search(r"--games\s+<int( range)?>", batch) and re.search(r"--seed\s+<int( range)?>", batch)
    assert "4294967295" in batch  # the seed's range is documented


@pytest.mark.slow  # commands each in a process
def test_command_lists_have_no_stray_line_break() -> None:
    """In a Commands panel a description that wraps fills its lines: a line that stops short in the
    middle of a sentence (a docstring's own line break kept) is a stray break."""
    for group in ([], ["teeko"], ["her"]):
        text = runner.invoke(app, [*group, "--help"], env={"COLUMNS": "80"}).stdout
        panel = text.split("Commands", 1)[1].splitlines()[1:]
        rows = [line[1:].rstrip("│").rstrip() for line in panel if line.startswith("│")]
        for row, following in zip(rows, rows[1:], strict=False):
            continues = following.startswith("  ")  # the next line goes on with the same description
            if continues and not row.endswith((".", ":", ")")):
                assert len(row) > 60, (group, row, following)


def test_a_progress_bar_in_a_terminal_is_drawn_and_ends(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    """Regression: while a bar shows, Rich swaps sys.stderr for a proxy that prints through the
    console; a console that wrote to that proxy fed the bar to itself and hung, the bar never drawn."""
    import threading

    from rich.progress import Progress

    monkeypatch.setattr(common.err_console, "_force_terminal", True)
    finished = threading.Event()

    def show() -> None:
        with Progress(console=common.err_console, transient=False) as progress:
            task = progress.add_task("training our memory", total=2)
            print("a line printed while the bar shows")
            progress.advance(task, 2)
        finished.set()

    worker = threading.Thread(target=show, daemon=True)
    worker.start()
    worker.join(timeout=30)
    assert finished.is_set(), "the progress bar hung"
    captured = capsys.readouterr()
    assert "training our memory" in captured.err and "2/2" not in captured.out
    assert "a line printed while the bar shows" in captured.out + captured.err
