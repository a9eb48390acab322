"""``gamelearn records list/export/import`` and ``gamelearn review FILE``: kept games in and out of
the store as text (gamelearn.games.record_text), and a game graded move by move against the
perfect player (gamelearn.experiments.review), as the web page's review grades it.  Parsing and
rendering only; the store is reached through the play layer's keeper."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from ..experiments.api import review_moves
from ..files import (
    FileTooLargeError,
    NotARegularFileError,
    NotWritableTargetError,
    atomic_write_bytes,
    read_regular_file,
)
from ..games import get_game
from ..games.record import GameRecord
from ..games.record_text import RecordText, parse, result_of
from ..games.record_text import format as format_record
from ..keeper import default_keeper, reading_keeper
from .common import HELP_MARKUP, check_store, console, fail, printable, spec_column

#: A record file larger than this is no game (a 200-ply Teeko game is under 2 KB).
MAX_RECORD_BYTES = 1_000_000
#: The context of a record imported from a file.
IMPORTED = "imported"
#: The games `records list` shows without --last.
LISTED = 20


def register(app: typer.Typer) -> None:
    records_app = typer.Typer(
        rich_markup_mode=HELP_MARKUP,
        name="records",
        help="Kept games: list them, export one as a text record, import a record file.",
        no_args_is_help=True,
    )
    records_app.command("list")(records_list)
    records_app.command("export")(records_export)
    records_app.command("import")(records_import)
    app.add_typer(records_app, name="records")
    app.command("review")(review_command)


def date_of(row: dict[str, Any]) -> datetime.date:
    return datetime.datetime.fromtimestamp(float(row["created"]), tz=datetime.UTC).date()


def records_list(
    game: Annotated[str | None, typer.Option("--game", help="only this game's records")] = None,
    last: Annotated[int, typer.Option("--last", min=1, max=100_000, help="how many of the latest")] = LISTED,
) -> None:
    """The latest kept games: number, game, players, result, how it ended, plies, date."""
    check_store(readonly=True)
    spec = None
    if game is not None:
        try:
            spec = get_game(game).spec
        except ValueError as error:
            fail(f"--game: {error}")
    rows = reading_keeper().records(game=spec, limit=last)
    if not rows:
        console.print("No kept games (play one: gamelearn play GAME).", markup=False)
        return
    # Names and specs break only after a ':' or a ',' (never mid-word: issue 50); the short
    # columns never wrap.
    # columns never wrap; the result and how it ended share a column, wrapped at their space.
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    table.add_column("#", justify="right", no_wrap=True)
    # what the other columns leave (#, plies, result 10, date 10, 2 a gap and the edges) is shared by three
    share = (console.width - len(str(max(row["id"] for row in rows))) - 5 - 10 - 10 - 2 * 6 - 2) // 3
    games = spec_column(table, "game", [str(row["game"]) for row in rows], width=share)
    # an imported record's names, as its file wrote them: shown as text, never as markup or escapes
    firsts = spec_column(table, "first", [printable(str(row["players"][0])) for row in rows], width=share)
    seconds = spec_column(table, "second", [printable(str(row["players"][1])) for row in rows], width=share)
    table.add_column("result", min_width=10, max_width=10)
    table.add_column("plies", justify="right", no_wrap=True)
    table.add_column("date", no_wrap=True)
    for row, game, first, second in zip(rows, games, firsts, seconds, strict=True):
        result = "1/2-1/2" if row["winner"] is None else ("1-0", "0-1")[int(row["winner"])]
        table.add_row(
            str(row["id"]),
            game,
            Text(first),
            Text(second),
            f"{result} {row['end']}",
            str(row["plies"]),
            str(date_of(row)),
        )
    console.print(table)


def records_export(
    record_id: Annotated[int, typer.Argument(metavar="ID", help="a kept game's number (gamelearn records list)")],
    path: Annotated[Path, typer.Argument(metavar="FILE", help="the text file to write (whole or not at all)")],
    force: Annotated[bool, typer.Option("--force", help="write over FILE if it exists")] = False,
) -> None:
    """Write kept game ID to FILE as a text record: tag pairs, then the moves."""
    if path.is_dir():
        fail(f"{path} is a folder; give the file to write")
    if path.exists() and not force:
        fail(f"{path} exists; give --force to write over it")
    check_store(readonly=True)
    row = reading_keeper().record(record_id)
    if row is None:
        fail(f"no kept game {record_id} (see: gamelearn records list)")
    try:
        record = GameRecord.from_dict(get_game(row["game"]), row)
        text = format_record(record, date=date_of(row))
    except ValueError as error:  # a game no longer installed, or moves its rules now refuse
        fail(f"kept game {record_id} cannot be written: {error}")
    try:
        atomic_write_bytes(path, text.encode("utf-8"))
    except NotWritableTargetError as error:  # it names the path and what it is
        fail(str(error))
    except (OSError, ValueError) as error:
        fail(f"cannot write {path}: {getattr(error, 'strerror', None) or error}")
    console.print(
        f"Wrote game {record_id} ({record.game}, {record.plies} plies) to {path}.", markup=False, soft_wrap=True
    )


def read_record(path: Path) -> RecordText:
    """The record in ``path``, or one line naming the file, the line and what is wrong (exit 2)."""
    try:
        data = read_regular_file(path, MAX_RECORD_BYTES, "a game record")
    except (NotARegularFileError, FileTooLargeError) as error:  # they name the path and what it is
        fail(str(error))
    except (OSError, ValueError) as error:
        fail(f"cannot read {path}: {getattr(error, 'strerror', None) or error}")
    try:
        return parse(data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        fail(f"{path}: not UTF-8 text (byte {error.start})")
    except ValueError as error:
        fail(f"{path}: {error}")


def records_import(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="a text record (as records export writes)")],
) -> None:
    """Keep the game FILE records in the store, every move checked by the rules; it teaches no one."""
    parsed = read_record(path)
    check_store()
    record_id = default_keeper().keep_record(parsed.record, context=IMPORTED)
    record = parsed.record
    console.print(
        f"Kept {path} as game {record_id} ({record.game}, {result_of(record)}, {record.plies} plies).",
        markup=False,
        soft_wrap=True,
    )


def review_command(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="a text record (as records export writes)")],
) -> None:
    """Replay the game FILE records and grade every move against the perfect player, with a
    summary per side.  Teeko needs its table (gamelearn solve teeko)."""
    parsed = read_record(path)
    record = parsed.record
    game = get_game(record.game)
    try:
        reviewed = review_moves(game, record.moves, start=record.states[0])
    except ValueError as error:  # TableError: Teeko's table not built, or damaged
        fail(f"cannot review {record.game}: {error}")
    table = Table(
        title=f"{record.game}: {result_of(record)} ({record.end.value}, {record.plies} plies)",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("ply", justify="right", no_wrap=True)
    table.add_column("side", no_wrap=True)
    table.add_column("move", no_wrap=True)
    table.add_column("grade", no_wrap=True)
    table.add_column("value after", no_wrap=True)
    table.add_column("perfect play's moves", overflow="fold", max_width=34)
    for ply, after in zip(reviewed.plies, reviewed.positions[1:], strict=True):
        shown_best = "" if ply.grade == "best" else " ".join(ply.best)
        table.add_row(str(ply.ply), game.symbols[ply.side], ply.move, ply.grade, value_words(game, after), shown_best)
    console.print(table)
    for side in (0, 1):
        console.print(side_summary(game, record, reviewed, side), markup=False, soft_wrap=False)


def value_words(game: Any, position: Any) -> str:
    """The position's exact value in words: 'X wins in 3', 'draw', 'O won'."""
    if position.value == 0:
        return "draw"
    winner = game.symbols[0 if position.value > 0 else 1]
    if position.over:
        return f"{winner} won"
    return f"{winner} wins in {position.distance}" if position.distance is not None else f"{winner} wins"


def side_summary(game: Any, record: GameRecord[Any], reviewed: Any, side: int) -> str:
    """One side's moves by grade, and the share of its positions at risk where it kept the value."""
    counts = reviewed.grades[side]
    tally = reviewed.measure[side]
    words = {"best": "best", "keeps": "keeping", "mistake": "mistake", "blunder": "blunder"}
    grades = ", ".join(
        f"{counts[name]} {words[name]}{'s' if counts[name] != 1 and name in ('mistake', 'blunder') else ''}"
        for name in words
    )
    kept = f"kept the value in {tally.keeps} of {tally.positions} positions that could lose it"
    return f"{game.symbols[side]} {printable(record.players[side])}: {grades}; {kept}"
