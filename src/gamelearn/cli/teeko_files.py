"""``gamelearn teeko memory ...`` and ``gamelearn teeko stat ...``: the thesis's memory.m and
stat.m in and out of the store (Despotović 1999).

Parsing is store.thesis_files' (one policy: a file the original could not have written is refused
naming the record, its byte offset and what is wrong); the store's side is
store.thesis_memories'.  A refused file is one line on stderr, exit status 2, nothing changed.
The commands are registered by :mod:`.teeko`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ..files import NotWritableTargetError
from ..store.thesis_memories import (
    STAT_FIELDS,
    MemorySummary,
    export_memory,
    export_stat,
    import_memory,
    import_stat,
    load_stat,
    read_stat,
    save_stat,
    write_stat,
)
from .common import console, fail
from .teeko_common import open_store, percent


def writable_file(path: Path) -> None:
    """Refuse, in one line, a target that is a folder or lies in a folder that does not exist."""
    if path.is_dir():
        fail(f"{path} is a folder; give the file to write")
    if not path.absolute().parent.is_dir():
        fail(f"folder {path.parent} does not exist")


# --- memory -----------------------------------------------------------------------------------

#: What the sums of a memory's counts are: a won game adds one to the record of every position it
#: went through (Despotović 1999), so they count positions of won games, not games (issue 50: a
#: batch that X won 716 times read "16242 wins of side 1").
SUMMED = (
    "Summed over the records, side 1's wins come to {first:,} and side 2's to {second:,}: a won game "
    "counts once in the record of each of its positions (some 20 a game), so these are no count of games."
)


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
        f"Imported {summary.records:,} records from {path} as [bold]{summary.name}[/bold]: each a position and "
        "the won games that went through it, by side 1 and by side 2."
    )
    console.print(SUMMED.format(first=summary.x_wins, second=summary.o_wins), markup=False)


def memory_export(
    name: Annotated[str, typer.Argument(help="a memory in the store (see: gamelearn teeko memory list)")],
    path: Annotated[Path, typer.Argument(help="the file to write, in the thesis format (written atomically)")],
) -> None:
    """Write a stored memory to PATH byte for byte in the thesis format."""
    writable_file(path)
    store = open_store(readonly=True)
    try:
        summary = export_memory(store, name, path)
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")
    except ValueError as error:
        fail(str(error))
    console.print(f"Wrote {summary.records} records ({summary.bytes} bytes) of {name} to {path}.")


def memory_list() -> None:
    """The memories in the store, with their sizes."""
    store = open_store(readonly=True)
    names = store.list_memories()
    if not names:
        console.print("No memories in the store (import one: gamelearn teeko memory import PATH).")
        return
    table = Table("name", "records", "side 1's wins, summed", "side 2's wins, summed")
    for name in names:
        summary, _ = streamed_summary(store, name)
        table.add_row(name, f"{summary.records:,}", f"{summary.x_wins:,}", f"{summary.o_wins:,}")
    console.print(table)
    console.print(
        "A won game counts once in the record of each of its positions (some 20 a game): the sums are no "
        "count of games.",
        markup=False,
    )


def streamed_summary(store: Any, name: str, keep: int = 0) -> tuple[Any, list[Any]]:
    """A stored memory's summary and its first ``keep`` entries, read as a stream: the memory held
    is the ``keep`` entries and a batch of rows, not the whole memory as Python tuples (several
    times the memory's size)."""
    records = x_wins = o_wins = 0
    first: list[Any] = []
    for entry in store.iter_memory(name):
        records, x_wins, o_wins = records + 1, x_wins + entry[1], o_wins + entry[2]
        if len(first) < keep:
            first.append(entry)
    return MemorySummary(name, records, x_wins, o_wins), first


def memory_show(
    name: str = typer.Argument(..., help="a memory in the store"),
    records: int = typer.Option(0, "--records", min=0, max=1_000_000, help="also list the first N records"),
) -> None:
    """A stored memory: its records and the sums of both counts."""
    store = open_store(readonly=True)
    if not store.has_memory(name):
        fail(f"no memory named {name!r} in the store (see: gamelearn teeko memory list)")
    summary, entries = streamed_summary(store, name, keep=records)
    console.print(f"[bold]{name}[/bold]: {summary.records} records ({summary.bytes} bytes as memory.m)")
    console.print(SUMMED.format(first=summary.x_wins, second=summary.o_wins), markup=False)
    if records:
        table = Table("#", "board (rows from the top)", "side 1", "side 2")
        for index, (board, x_wins, o_wins) in enumerate(entries[:records]):
            rows = " ".join(board[r * 5 : r * 5 + 5] for r in range(5))
            table.add_row(str(index + 1), rows, str(x_wins), str(o_wins))
        console.print(table)


def memory_delete(name: str = typer.Argument(..., help="a memory in the store")) -> None:
    """Delete a stored memory."""
    store = open_store()
    if not store.delete_memory(name):
        fail(f"no memory named {name!r} in the store (see: gamelearn teeko memory list)")
    console.print(f"Deleted {name}.")


# --- stat -------------------------------------------------------------------------------------


def stat_table(counts: tuple[int, ...]) -> Table:
    """The statistics screen: self-play, games the program began, games it played second."""
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


def stat_show(
    file: Annotated[
        Path | None, typer.Option("--file", help="a thesis stat.m file instead of the store's score")
    ] = None,
) -> None:
    """The score: self-play results and games against people, with percentages."""
    if file is not None:
        try:
            counts = read_stat(file)
        except ValueError as error:
            fail(str(error))
        source = str(file)
    else:
        try:
            counts = load_stat(open_store(readonly=True))
        except ValueError as error:
            fail(str(error))
        source = "the store"
    console.print(f"Statistics from {source}:")
    console.print(stat_table(counts))


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
            write_stat(zeros, file)
        except OSError as error:
            fail(f"cannot write {file}: {error.strerror or error}")
        except ValueError as error:  # a FIFO, a device or a socket: refused, nothing written
            fail(str(error))
        console.print(f"Reset {file}.")
        return
    save_stat(open_store(), zeros)
    console.print("Reset the score in the store.")


def stat_import(
    path: Annotated[Path, typer.Argument(help="a thesis stat.m file (nine 4-character counts, 36 bytes)")],
    replace: bool = typer.Option(False, "--replace", help="overwrite a score in the store that already counts games"),
) -> None:
    """Make a thesis stat.m the store's score; a bad file is refused and nothing changes."""
    store = open_store()
    try:
        counts = import_stat(store, path, replace=replace)
    except ValueError as error:
        fail(str(error))
    console.print(f"Imported the score from {path}: {sum(counts)} games.")
    console.print(stat_table(counts))


def stat_export(
    path: Annotated[Path, typer.Argument(help="the stat.m file to write (written atomically)")],
) -> None:
    """Write the store's score to PATH byte for byte in the thesis's stat.m format."""
    writable_file(path)
    store = open_store(readonly=True)
    try:
        counts = export_stat(store, path)
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")
    except NotWritableTargetError as error:  # it names the path itself
        fail(str(error))
    except ValueError as error:
        fail(f"cannot write {path}: {error}")
    console.print(f"Wrote the score ({sum(counts)} games, 36 bytes) to {path}.")
