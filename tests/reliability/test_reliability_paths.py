"""No path can hang a command (docs/store.md, "No path can hang a command").

The store, its ``-wal``, a record, a memory file or an export's target that is a FIFO, a device,
a folder, a link that leads nowhere or a link in a loop is one line naming the path and what it
is, exit 2, nothing on stdout: before anything opens it, so a FIFO with no writer cannot block
the command, and ``/dev/null`` or ``/dev/zero`` never read as an empty store.  Every command runs
as a real ``gamelearn`` process, three at a time, each with a timeout that fails the
test on a hang (nothing is timed).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from reliability_support import command_env, gamelearn, memory_file, one_error_line

pytestmark = [
    pytest.mark.slow,  # every command as its own process
    pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and /dev: POSIX"),
]

STORE = "gamelearn.sqlite3"
#: A hang fails the test after this long (a refused command ends in about a second).
GUARD_SECONDS = 60
#: Commands run at once (a 2-core machine).
AT_ONCE = 3


def things(folder: Path) -> dict[str, tuple[Path, str]]:
    """Each kind of path that is no file, made in ``folder``: its path, and what the line says."""
    folder.mkdir(parents=True, exist_ok=True)
    fifo = folder / "fifo"
    os.mkfifo(fifo)
    (folder / "folder").mkdir()
    made = {
        "fifo": (fifo, "is a FIFO (named pipe), not a file"),
        "link-to-fifo": (folder / "link-to-fifo", f"leads to {fifo}, a FIFO (named pipe), not a file"),
        "dev-zero": (folder / "dev-zero", "leads to /dev/zero, a character device, not a file"),
        "dev-null": (Path("/dev/null"), "is a character device, not a file"),
        "folder": (folder / "folder", "is a folder, not a file"),
        "dangling": (folder / "dangling", f"is a link to {folder / 'nowhere'}, which does not exist"),
        "loop": (folder / "loop", "is a link in a loop (too many symbolic links)"),
    }
    os.symlink(fifo, folder / "link-to-fifo")
    os.symlink("/dev/zero", folder / "dev-zero")
    os.symlink("nowhere", folder / "dangling")
    os.symlink("loop", folder / "loop")
    return made


def run_all(commands: Iterable[tuple[Path, tuple[str, ...]]]) -> list[subprocess.CompletedProcess]:
    """Each (home, args) as a real ``gamelearn`` process, :data:`AT_ONCE` at a time, in order;
    each must end within the guard (a hang fails the test, and its process is killed)."""
    waiting = list(commands)
    running: list[subprocess.Popen] = []
    done: list[subprocess.CompletedProcess] = []
    try:
        while waiting or running:
            while waiting and len(running) < AT_ONCE:
                home, args = waiting.pop(0)
                running.append(
                    subprocess.Popen(
                        [sys.executable, "-m", "gamelearn.cli.main", *args],
                        env=command_env(home),
                        stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE,
                        text=True,
                    )
                )
            process = running.pop(0)
            stdout, stderr = process.communicate(timeout=GUARD_SECONDS)
            done.append(subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr))
    finally:
        for process in running:
            process.kill()
            process.wait()
    return done


def refused(result: subprocess.CompletedProcess, *texts: str) -> None:
    line = one_error_line(result)
    assert result.stdout == "", (result.args, result.stdout)
    for text in texts:
        assert text in line, (result.args[3:], line)


def a_kept_menace_and_memory(home: Path, tmp_path: Path) -> None:
    """A store that holds a MENACE ``m``, a kept game (#1) and a thesis memory ``mem``."""
    played = gamelearn(home, "play", "tictactoe", "--first", "menace:name=m", "--second", "random", "--seed", "1")
    assert played.returncode == 0, played.stderr
    memory = memory_file(tmp_path / "mem.m", 3)
    imported = gamelearn(home, "teeko", "memory", "import", str(memory), "--name", "mem")
    assert imported.returncode == 0, imported.stderr


#: Every command that reads or writes the store (the issue's and the writers').
STORE_COMMANDS: list[tuple[str, ...]] = [
    ("records", "list"),
    ("teeko", "memory", "list"),
    ("teeko", "memory", "show", "mem"),
    ("teeko", "memory", "export", "mem", "{out}"),
    ("teeko", "stat", "show"),
    ("menace", "show", "m"),
    ("her", "show", "m"),
    ("play", "tictactoe", "--first", "menace:name=m", "--second", "random"),
    ("records", "import", "{record}"),
    ("teeko", "batch", "--games", "1", "--new"),
]


def test_a_store_that_is_no_file_is_one_line_for_every_command(tmp_path: Path):
    record = tmp_path / "game.txt"
    record.write_text('[Game "tictactoe"]\n[First "a"]\n[Second "b"]\n[Result "*"]\n[End "abandoned"]\n\n1. 4 *\n')
    made = things(tmp_path / "things")
    fifo, folder = made["fifo"][0], made["folder"][0]
    through_a_link = {  # the store a link to each kind of thing: what the line says of it
        "fifo": f"it leads to {fifo}, a FIFO (named pipe), not a file",
        "link-to-fifo": f"it leads to {fifo}, a FIFO (named pipe), not a file",
        "dev-zero": "it leads to /dev/zero, a character device, not a file",
        "dev-null": "it leads to /dev/null, a character device, not a file",
        "folder": f"it leads to {folder}, a folder, not a file",
        "dangling": f"it is a link to {fifo.parent / 'nowhere'}, which does not exist",
        "loop": "it is a link in a loop (too many symbolic links)",
    }
    homes: dict[str, tuple[Path, str]] = {}
    for kind, said in through_a_link.items():
        home = tmp_path / kind
        home.mkdir()
        os.symlink(made[kind][0], home / STORE)  # the store is a link to it...
        homes[f"link-{kind}"] = (home, said)
    fifo_home = tmp_path / "fifo-home"
    fifo_home.mkdir()
    os.mkfifo(fifo_home / STORE)  # ...or the thing itself
    homes["fifo"] = (fifo_home, "it is a FIFO (named pipe), not a file")
    folder_home = tmp_path / "folder-home"
    (folder_home / STORE).mkdir(parents=True)
    homes["folder"] = (folder_home, "it is a folder, not a file")
    wal_home = tmp_path / "wal-home"  # a good store whose write-ahead log is a FIFO
    a_kept_menace_and_memory(wal_home, tmp_path)
    os.mkfifo(wal_home / f"{STORE}-wal")
    homes["wal-fifo"] = (wal_home, f"its {STORE}-wal is a FIFO (named pipe), not a file")

    def args(command: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(arg.format(out=tmp_path / "out.m", record=record) for arg in command)

    # Every command meets a FIFO store, the hang; every other kind is met by two commands,
    # taken in turn from the list, so that every command meets more than one kind (each command
    # is a process of its own: the whole cross product would cost minutes for no new path).
    cases = [(homes["fifo"], args(command)) for command in STORE_COMMANDS]
    others = [kind for kind in homes if kind != "fifo"]
    for index, kind in enumerate(others):
        for turn in (index, index + len(others)):
            cases.append((homes[kind], args(STORE_COMMANDS[turn % len(STORE_COMMANDS)])))
    results = run_all((home, command) for (home, _), command in cases)
    for ((home, said), _), result in zip(cases, results, strict=True):
        refused(result, f"cannot open the store {home / STORE}: ", said)
    assert not (tmp_path / "out.m").exists()
    assert (fifo_home / STORE).is_fifo() and (wal_home / f"{STORE}-wal").is_fifo()  # left as they were


def test_a_home_that_is_a_link_to_nowhere_or_in_a_loop_is_named(tmp_path: Path):
    os.symlink(tmp_path / "gone", tmp_path / "dangling")
    os.symlink("loop", tmp_path / "loop")
    results = run_all([(tmp_path / "dangling", ("records", "list")), (tmp_path / "loop", ("records", "list"))])
    refused(results[0], f"{tmp_path / 'dangling'} is a link to {tmp_path / 'gone'}, which does not exist")
    refused(results[1], f"{tmp_path / 'loop'} is a link in a loop")


#: Every command that reads a file it is given.
READERS: list[tuple[str, ...]] = [
    ("review", "{}"),
    ("records", "import", "{}"),
    ("teeko", "memory", "import", "{}"),
    ("teeko", "stat", "show", "--file", "{}"),
    ("menace", "import", "{}"),
]
#: Every command that writes a file it is given.
WRITERS: list[tuple[str, ...]] = [
    ("records", "export", "1", "{}", "--force"),
    ("teeko", "memory", "export", "mem", "{}"),
    ("menace", "export", "m", "{}"),
    ("teeko", "stat", "export", "{}"),
]


def test_a_file_argument_that_is_no_file_is_one_line_naming_it(tmp_path: Path):
    home = tmp_path / "home"
    a_kept_menace_and_memory(home, tmp_path)
    made = things(tmp_path / "things")
    # Every reader and writer meets the FIFO; every other kind is met by a reader and a writer,
    # taken in turn from the lists (each command is a process of its own).
    fifo = made["fifo"]
    cases = [(*fifo, command) for command in READERS + WRITERS]
    for index, (path, said) in enumerate(value for kind, value in made.items() if kind != "fifo"):
        cases += [(path, said, READERS[index % len(READERS)]), (path, said, WRITERS[index % len(WRITERS)])]
    results = run_all((home, tuple(arg.replace("{}", str(path)) for arg in command)) for path, _, command in cases)
    for (path, said, command), result in zip(cases, results, strict=True):
        if command in WRITERS and said == "is a folder, not a file":
            refused(result, str(path), "is a folder")  # most commands name a folder before the store
        elif command in WRITERS:
            refused(result, f"cannot write {path}: it {said}; nothing was written")
        else:
            refused(result, f"{path} {said}")
    assert (tmp_path / "things" / "fifo").is_fifo() and (tmp_path / "things" / "folder").is_dir()
    assert [entry.name for entry in (tmp_path / "things").iterdir() if entry.name.endswith(".tmp")] == []
