"""``gamelearn teeko``: the tools around the 1999 thesis program (Despotović 1999).

The sub-app is split along its seams, each module adding its commands in ``register``:

* :mod:`.teeko_files`: ``memory import/export/list/show/delete`` and ``stat
  show/reset/import/export``, the thesis's files in and out of the store;
* :mod:`.teeko_runs`: ``console``, ``batch`` and ``experiment``, the program at play.

The CLI only parses, validates and renders: the formats are store.thesis_files', the store's side
store.thesis_memories', the games experiments.thesis_*'s; the console game and the original's
batch screen output are this layer's own (.teeko_console, .teeko_transcript).  This module holds
what both halves share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from .common import HELP_MARKUP

if TYPE_CHECKING:
    from ..store.db import Store

teeko_app = typer.Typer(
    rich_markup_mode=HELP_MARKUP,
    name="teeko",
    help="The 1999 thesis Teeko program: its memories and scores, batch self-play, the console game, the experiment.",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    from . import teeko_files, teeko_runs

    teeko_files.register(teeko_app)
    teeko_runs.register(teeko_app)
    app.add_typer(teeko_app, name="teeko")


def open_store(readonly: bool = False, check: bool = True) -> Store:
    """The store (cli.common.open_store, checked whole unless ``check=False``): ``readonly`` for
    commands that only read; one line naming the cause where it cannot be used."""
    from .common import open_store as open_checked

    store: Store = open_checked(readonly=readonly, check=check)
    return store


def percent(part: int, whole: int) -> str:
    """A percentage with 2 decimals, as the original's statistics screen showed it."""
    return f"{100.0 * part / whole:.2f}%" if whole else "-"


__all__ = ["open_store", "percent", "register", "teeko_app"]
