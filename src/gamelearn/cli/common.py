"""What every command shares: one-line errors with exit status 2, internal errors that show as
bugs, the console, the data directory and where output files go, the bounds of numeric options."""

from __future__ import annotations

import json
import re
import sys
import textwrap
import traceback
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, NoReturn

import typer
from rich.console import Console
from typer.core import TyperOption

from ..games import GAME_NAMES, game_names, get_game
from ..paths import data_dir as store_data_dir
from ..players.registry import kinds_for
from ..store.store import Store

#: Spaces before a line's end, and any style codes after them (Rich pads wrapped lines and tables).
_TRAILING_SPACES = re.compile(r"[ ]+((?:\x1b\[[0-9;]*m)*)\n")


class TrimmedOutput:
    """sys.stdout (or stderr), looked up at every write so that a test's capture is honoured, with
    the spaces at the end of each line dropped: Rich pads the lines it wraps and its tables' rows,
    and a copied or piped result should not carry them.  A prompt (no line end) keeps its space."""

    def __init__(self, stderr: bool = False) -> None:
        self.stderr = stderr

    @property
    def stream(self) -> Any:
        stream = sys.stderr if self.stderr else sys.stdout
        # while a progress bar shows, Rich puts proxies in sys.stdout and sys.stderr that print
        # through the console: write to the file behind them, or the bar would feed itself
        return getattr(stream, "rich_proxied_file", stream)

    def write(self, text: str) -> int:
        self.stream.write(_TRAILING_SPACES.sub(r"\1\n", text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return bool(getattr(self.stream, "isatty", lambda: False)())

    def fileno(self) -> int:
        return int(self.stream.fileno())

    @property
    def encoding(self) -> str:
        return getattr(self.stream, "encoding", None) or "utf-8"


class WordConsole(Console):
    """Rich's console, with plain lines that break between words and never inside one.  Rich's
    wrapping cuts a word longer than the line (a path, a spec: ``overflow="fold"``), and its
    other overflows crop it or stop wrapping; so a plain line (``markup=False``) longer than the
    console is wrapped here at spaces, a longer word left whole for the terminal to carry on.  A
    line printed with ``soft_wrap=True`` (an error: one line in a log or a pipe) is wrapped too
    when shown on a terminal, which would otherwise cut it at its last column, mid-word."""

    def print(self, *objects: Any, **options: Any) -> None:
        if options.get("soft_wrap") and self.is_terminal:
            options["soft_wrap"] = False
        plain = options.get("markup") is False and not options.get("soft_wrap")
        if plain and len(objects) == 1 and isinstance(objects[0], str):
            objects = (word_wrapped(objects[0], self.width),)
            options.update(overflow="ignore", crop=False)
        super().print(*objects, **options)


def word_wrapped(text: str, width: int) -> str:
    r"""``text`` with each line longer than ``width`` broken at spaces; a word longer than the
    line is kept whole.

    >>> word_wrapped("written /a/very/long/path.csv and more", 12)
    'written\n/a/very/long/path.csv\nand more'
    """
    lines = []
    for line in text.split("\n"):
        if len(line) <= width:
            lines.append(line)
            continue
        lines.extend(
            textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False, replace_whitespace=False)
            or [line]
        )
    return "\n".join(lines)


def spec_lines(spec: str, width: int = 22) -> str:
    r"""``spec`` in lines of at most ``width`` characters where it can, broken only after a ':' or
    a ',' (never inside a name or an option), for a table cell: Rich wraps a cell at spaces, and a
    spec has none, so without this it would cut one mid-word.  A piece longer than ``width`` stays
    whole (the column folds it only if it must).

    >>> spec_lines("alphabeta:depth=2,eval=thesis")
    'alphabeta:depth=2,\neval=thesis'
    >>> spec_lines("teeko:goals=advanced", 10)
    'teeko:\ngoals=advanced'
    """
    pieces = re.findall(r"[^:,]*[:,]?", spec)
    lines = [""]
    for piece in filter(None, pieces):
        if lines[-1] and len(lines[-1]) + len(piece) > width:
            lines.append("")
        lines[-1] += piece
    return "\n".join(lines)


def longest_piece(spec: str) -> int:
    """The widest piece ``spec_lines`` can leave on a line: a column's least width, so that no
    name or option is folded."""
    return max((len(piece) for piece in re.findall(r"[^:,]*[:,]?", spec)), default=0)


def spec_column(table: Any, header: str, values: list[str], width: int = 16, **options: Any) -> list[str]:
    """Add a column of specs (players, games, names) to a Rich ``table`` that breaks each only
    after a ':' or a ',' and never cuts a name: its least width is its widest piece (or
    ``width``, where the values are longer), and each cell, broken by :func:`spec_lines` at that
    width, fits it, so Rich never has to fold one; the cells to add, one a value."""
    widest = max([len(header), *(longest_piece(value) for value in values)])
    longest = max([len(header), *(len(value) for value in values)])
    least = min(longest, max(widest, width))
    table.add_column(header, min_width=least, overflow="fold", **options)
    return [spec_lines(value, least) for value in values]


def room_left(columns: list[list[str]], per_column: int = 3) -> int:
    """The console's columns left for one more column beside ``columns`` (each its heading and
    cells), each of which takes its widest line and ``per_column`` more (padding and rule): the
    width a spec column can break its specs at, at least 10."""
    used = sum(max(len(line) for cell in column for line in cell.split("\n")) + per_column for column in columns)
    return max(10, console.width - used - per_column - 1)


def title_fits(table: Any, width: int | None = None) -> Any:
    """``table`` at least as wide as its title (up to ``width``, the console's): Rich wraps a
    title at its table's width, so a narrow table's long title broke mid-phrase; past the console's
    width it wraps at its spaces."""
    if isinstance(table.title, str):
        table.min_width = min(len(table.title) + 2, width or console.width)
    return table


console = WordConsole(file=TrimmedOutput(), highlight=False)  # type: ignore[arg-type]
err_console = WordConsole(file=TrimmedOutput(stderr=True), highlight=False)  # type: ignore[arg-type]

#: The help of every GAME argument.
GAME_HELP = (
    f"one of {', '.join(GAME_NAMES)}, a game installed or registered (docs/own-game.md), "
    "or a form of Teeko such as teeko:goals=advanced"
)


def complete_game(incomplete: str) -> list[str]:
    """Tab completion of a GAME argument: the games found whose names start with what is typed."""
    return [name for name in game_names() if name.startswith(incomplete.lower())]


def complete_player(ctx: typer.Context, incomplete: str) -> list[str]:
    """Tab completion of a player spec: the kinds of the game already typed (every kind of
    tic-tac-toe before it is), those that start with what is typed; the options are the user's."""
    try:
        game = get_game(str(ctx.params.get("game_name") or "tictactoe"))
    except ValueError:
        return []
    return [kind.name for kind in kinds_for(game) if kind.name.startswith(incomplete)]


#: Exit status for anything a user got wrong (a bad move, option, file): 2, as for usage errors.
EXIT_USAGE = 2
#: Exit status for a bug inside gamelearn (the traceback goes to a log file).
EXIT_INTERNAL = 1
#: Exit status after Ctrl-C, as shells report a process stopped by SIGINT (128 + 2).
EXIT_INTERRUPTED = 130


class SaidWhy(int):
    """An exit status (130, 143) of a command that has already said how it stopped ("Game
    abandoned.", what was kept): the entry point adds no line of its own."""


#: Every seed is a whole number in this range, as numpy's and the thesis's srand take (one rule).
SEED_MIN, SEED_MAX = 0, 2**32 - 1
SEED_RANGE = f"{SEED_MIN}..{SEED_MAX}"
#: The most games one learner plays in a matchbox experiment, and the most of a thesis batch run.
MAX_LEARNER_GAMES = 500_000
MAX_BATCH_GAMES = 1_000_000
#: The most local processes a --workers option takes (the CPUs bound them further: runners.check_workers).
MAX_WORKERS = 256


#: How --help reads docstrings: Markdown joins a paragraph's lines (Rich markup would keep each
#: line break of a docstring, a stray break in the middle of a sentence) and shows `code` as code.
HELP_MARKUP: Final = "markdown"


class UserError(Exception):
    """An error a user caused (a bad option, name, file); main() prints its message on one line and
    exits with status 2.  Anything else that escapes a command is a bug and shown as one."""


def fail(message: str) -> NoReturn:
    """Report a user's error in one line on stderr and stop with exit status 2."""
    err_console.print(f"gamelearn: error: {message}", markup=False, soft_wrap=True)
    raise typer.Exit(EXIT_USAGE)


def data_dir() -> Path:
    """$GAMELEARN_HOME, else the platform's user data directory (the store layer decides)."""
    return store_data_dir()


def open_store(readonly: bool = False, check: bool = True) -> Any:
    """The store, or one line naming why it cannot be used (exit 2): missing and cannot be made,
    read-only, locked, damaged, not a database.  ``readonly`` for commands that only read (they
    work on a read-only store).  ``check`` reads every page first (``PRAGMA quick_check``, 0.35 s
    for a 75 MB store), so that a damaged file is named before the command's work, not halfway."""
    try:
        store = Store(readonly=readonly)
        if check:
            store.check()
    except ValueError as error:  # StoreError: missing, read-only, locked, damaged, not a database
        fail(str(error))
    return store


def check_store(readonly: bool = False) -> None:
    """Before any work: the store opens, can be written (unless ``readonly``) and is not damaged;
    else one line naming the real cause, exit status 2 (docs/store.md, promise 5)."""
    open_store(readonly=readonly, check=True).close()


def output_dir(out: Path | None, default: str) -> Path:
    """Where a command writes its files (one rule for every command): ``--out DIR`` when given (it
    must exist: a folder the user names is theirs to make), else ``default`` under the data
    directory, made on first use.  Always absolute, so the path printed can be opened from anywhere."""
    if out is not None:
        if not out.is_dir():
            fail(f"--out: {out} is not a folder" if out.exists() else f"--out: no such folder {out}")
        return out.resolve()
    folder = data_dir().absolute() / default
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"cannot make the output folder {folder}: {error.strerror or error} (give --out DIR)")
    return folder


#: C0 controls, DEL and C1 controls (ESC and CSI among them): the bytes a terminal acts on.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    r"""``text`` read from a file or the store (a record's names and tags), with every control
    character shown as its escape, so that it is shown as text and can never retitle, clear or
    colour the terminal (ESC ] ... BEL, ESC [ 2J).

    >>> printable('\x1b]0;x\x07\x1b[2J menace')
    '\\x1b]0;x\\x07\\x1b[2J menace'
    """
    return _CONTROL.sub(lambda found: f"\\x{ord(found.group()):02x}", text)


def check_name(option: str, name: str) -> str:
    """A learner or memory name as the store keeps it: not empty, no control character."""
    cleaned = name.strip()
    if not cleaned:
        fail(f"{option}: a name cannot be empty")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in cleaned):
        fail(f"{option}: name {name!r} holds a control character")
    return cleaned


def print_json(payload: dict[str, Any]) -> None:
    """A command's result for programs: one JSON object on stdout, nothing else there."""
    sys.stdout.write(json.dumps(payload) + "\n")
    sys.stdout.flush()


def report_internal_error(error: BaseException) -> None:
    """A bug: one line naming it and where its traceback went (a log file under the data directory),
    or the traceback itself when no log can be written."""
    text = "".join(traceback.format_exception(error))
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    try:
        folder = data_dir().absolute() / "logs"
        folder.mkdir(parents=True, exist_ok=True)
        log = folder / f"internal-error-{stamp}.log"
        log.write_text(f"gamelearn {' '.join(sys.argv[1:])}\n{text}", encoding="utf-8")
    except OSError:
        sys.stderr.write(text)
        sys.stderr.write(f"gamelearn: internal error: {type(error).__name__}: {error}\n")
        return
    sys.stderr.write(f"gamelearn: internal error: {type(error).__name__}: {error} (traceback in {log})\n")


def quiet_flag_types() -> None:
    """Typer 0.2x shows every option's type in --help, flags too (``--grade <bool>``, ``--help
    <bool>``), as if a flag took a value.  A flag takes none: show no type for it."""
    shown = getattr(TyperOption, "display_type_rich", None)
    if shown is None or getattr(shown, "quiet_for_flags", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> str | None:
        if self.is_flag and self.metavar is None:
            return None
        return shown(self, ctx)

    display_type_rich.quiet_for_flags = True  # type: ignore[attr-defined]
    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]
