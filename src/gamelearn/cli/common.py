"""What every command shares: one-line errors with exit status 2, the console, the data directory."""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import typer
from rich.console import Console

from ..games import GAME_NAMES
from ..paths import data_dir as store_data_dir

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

#: The help of every GAME argument.
GAME_HELP = f"one of {', '.join(GAME_NAMES)}, or a spec with options: teeko:goals=advanced,drops=saaa,centre=off"

#: Exit status for anything a user got wrong (a bad move, option, file): 2, as for usage errors.
EXIT_USAGE = 2


class UserError(Exception):
    """An error a user caused; main() prints its message on one line and exits with status 2."""


def fail(message: str) -> NoReturn:
    """Report a user's error in one line on stderr and stop with exit status 2."""
    err_console.print(f"gamelearn: error: {message}", markup=False, soft_wrap=True)
    raise typer.Exit(EXIT_USAGE)


def data_dir() -> Path:
    """$GAMELEARN_HOME, else the platform's user data directory (the store layer decides)."""
    return store_data_dir()
