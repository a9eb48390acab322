"""``gamelearn teeko``: the tools around the 1999 thesis program (seed 000, THESIS-FACTS.md).

memory import/export/list/show/delete and stat show/reset move the thesis's files in and out of
the store; batch, console and experiment are added below.  This module only parses, validates and
renders: the logic lives in store.thesis_memories and experiments.thesis_*.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from ..store.thesis_memories import (
    STAT_FIELD_NAMES,
    STAT_FIELDS,
    export_memory,
    import_memory,
    load_stat,
    read_stat_counts,
    save_stat,
    summarize,
    write_stat_counts,
)
from .common import console, fail

teeko_app = typer.Typer(
    name="teeko",
    help="The 1999 thesis Teeko program: its memories and scores, batch self-play, the console game, the experiment.",
    no_args_is_help=True,
)
memory_app = typer.Typer(
    help="Thesis memories (memory.m) in the store: import, export, list, show, delete.", no_args_is_help=True
)
stat_app = typer.Typer(
    help="The thesis score (stat.m): show or reset, in the store or in a file.", no_args_is_help=True
)
teeko_app.add_typer(memory_app, name="memory")
teeko_app.add_typer(stat_app, name="stat")


def register(app: typer.Typer) -> None:
    app.add_typer(teeko_app, name="teeko")


def open_store():  # -> Store; imported late so that `gamelearn --help` stays quick
    from ..store.db import Store

    try:
        return Store()
    except ValueError as error:
        fail(str(error))


# --- memory -----------------------------------------------------------------------------------


@memory_app.command("import")
def memory_import(
    path: Annotated[Path, typer.Argument(help="a thesis memory file (memory.m format: 33-byte records)")],
    name: str | None = typer.Option(None, "--name", help="the name in the store (default: the file's name)"),
    replace: bool = typer.Option(False, "--replace", help="replace a memory of that name already in the store"),
) -> None:
    """Import a thesis memory file into the store; a bad file is refused and nothing changes."""
    store = open_store()
    try:
        summary = import_memory(store, path, name=name, replace=replace)
    except ValueError as error:
        fail(str(error))
    console.print(
        f"Imported {summary.records} records ({summary.x_wins} wins of side 1, {summary.o_wins} of side 2) "
        f"from {path} as [bold]{summary.name}[/bold]."
    )


@memory_app.command("export")
def memory_export(
    name: Annotated[str, typer.Argument(help="a memory in the store (see: gamelearn teeko memory list)")],
    path: Annotated[Path, typer.Argument(help="the file to write, in the thesis format (written atomically)")],
) -> None:
    """Write a stored memory to PATH byte for byte in the thesis format."""
    store = open_store()
    if path.is_dir():
        fail(f"{path} is a folder; give the file to write")
    if not path.parent.is_dir() and str(path.parent):
        fail(f"folder {path.parent} does not exist")
    try:
        summary = export_memory(store, name, path)
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")
    except ValueError as error:
        fail(str(error))
    console.print(f"Wrote {summary.records} records ({summary.bytes} bytes) of {name} to {path}.")


@memory_app.command("list")
def memory_list() -> None:
    """The memories in the store, with their sizes."""
    store = open_store()
    names = store.list_memories()
    if not names:
        console.print("No memories in the store (import one: gamelearn teeko memory import PATH).")
        return
    table = Table("name", "records", "side 1 wins", "side 2 wins")
    for name in names:
        summary = summarize(name, store.load_memory(name) or [])
        table.add_row(name, str(summary.records), str(summary.x_wins), str(summary.o_wins))
    console.print(table)


@memory_app.command("show")
def memory_show(
    name: str = typer.Argument(..., help="a memory in the store"),
    records: int = typer.Option(0, "--records", min=0, help="also list the first N records"),
) -> None:
    """A stored memory: its records and the sums of both counts."""
    store = open_store()
    entries = store.load_memory(name)
    if entries is None:
        fail(f"no memory named {name!r} in the store (see: gamelearn teeko memory list)")
    summary = summarize(name, entries)
    console.print(f"[bold]{name}[/bold]: {summary.records} records ({summary.bytes} bytes as memory.m)")
    console.print(f"  games won by side 1 (X in self-play), summed over records: {summary.x_wins}")
    console.print(f"  games won by side 2 (O in self-play), summed over records: {summary.o_wins}")
    if records:
        table = Table("#", "board (rows from the top)", "side 1", "side 2")
        for index, (board, x_wins, o_wins) in enumerate(entries[:records]):
            rows = " ".join(board[r * 5 : r * 5 + 5] for r in range(5))
            table.add_row(str(index + 1), rows, str(x_wins), str(o_wins))
        console.print(table)


@memory_app.command("delete")
def memory_delete(name: str = typer.Argument(..., help="a memory in the store")) -> None:
    """Delete a stored memory."""
    store = open_store()
    if not store.delete_memory(name):
        fail(f"no memory named {name!r} in the store (see: gamelearn teeko memory list)")
    console.print(f"Deleted {name}.")


# --- stat -------------------------------------------------------------------------------------


def percent(part: int, whole: int) -> str:
    """A percentage with 2 decimals, as the original's statistics screen showed it."""
    return f"{100.0 * part / whole:.2f}%" if whole else "-"


def stat_table(counts: tuple[int, ...]) -> Table:
    """The statistics screen (section b): self-play, games the program began, games it played second."""
    table = Table("games", "total", "won / X wins", "drawn", "lost / O wins")
    groups = (("self-play (X, draws, O)", 0), ("against you, program began", 3), ("against you, program second", 6))
    for label, start in groups:
        a, d, b = counts[start : start + 3]
        total = a + d + b
        table.add_row(
            label,
            str(total),
            f"{a} ({percent(a, total)})",
            f"{d} ({percent(d, total)})",
            f"{b} ({percent(b, total)})",
        )
    return table


@stat_app.command("show")
def stat_show(
    file: Annotated[
        Path | None, typer.Option("--file", help="a thesis stat.m file instead of the store's score")
    ] = None,
) -> None:
    """The score: self-play results and games against people, with percentages."""
    if file is not None:
        try:
            counts = read_stat_counts(file)
        except ValueError as error:
            fail(str(error))
        source = str(file)
    else:
        try:
            counts = load_stat(open_store())
        except ValueError as error:
            fail(str(error))
        source = "the store"
    console.print(f"Statistics from {source}:")
    console.print(stat_table(counts))


@stat_app.command("reset")
def stat_reset(
    file: Annotated[
        Path | None, typer.Option("--file", help="reset this stat.m file (36 spaces) instead of the store's score")
    ] = None,
) -> None:
    """Reset the score to nothing, as the original's ? then r did."""
    zeros = (0,) * STAT_FIELDS
    if file is not None:
        if file.is_dir():
            fail(f"{file} is a folder")
        try:
            write_stat_counts(zeros, file)
        except OSError as error:
            fail(f"cannot write {file}: {error.strerror or error}")
        console.print(f"Reset {file}.")
        return
    save_stat(open_store(), zeros)
    console.print("Reset the score in the store.")


__all__ = ["register", "teeko_app", "STAT_FIELD_NAMES"]


# --- console ----------------------------------------------------------------------------------


@teeko_app.command("console")
def console_game(
    memory: Annotated[str, typer.Option("--memory", help="the memory in the store it recalls and learns")] = "console",
    seed: Annotated[int | None, typer.Option("--seed", help="seed of the program's random choices")] = None,
) -> None:
    """The thesis program's console game: you against it, or autoplay; it learns as it plays."""
    from ..experiments.thesis_console import ConsoleSession, EngineBrain

    store = open_store()
    try:
        session = ConsoleSession(store, EngineBrain(seed), memory_name=memory)
    except ValueError as error:
        fail(str(error))
    screen = session.start()
    while True:
        for line in screen.lines:
            console.print(line, markup=False, highlight=False)
        if screen.board:
            console.print(screen.board, markup=False, highlight=False)
        if screen.finished:
            return
        try:
            text = console.input(screen.prompt, markup=False)
        except EOFError:  # end of input: leave as q would, abandoning any game in progress
            console.print()
            return
        screen = session.send(text)
