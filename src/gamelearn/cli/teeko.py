"""``gamelearn teeko``: the tools around the 1999 thesis program (Despotović 1999).

The sub-app is split along its seams; this module registers every command of it, in one place:

* :mod:`.teeko_files`: ``memory import/export/list/show/delete`` and ``stat
  show/reset/import/export``, the thesis's files in and out of the store;
* :mod:`.teeko_runs`: ``console``, ``batch`` and ``experiment``, the program at play.

The CLI only parses, validates and renders: the formats are store.thesis_files', the store's side
store.thesis_memories', the games experiments.thesis_*'s (a batch's plan and runner
experiments.thesis_batch_run's, the console game's experiments.thesis_console's).  What the
commands share is :mod:`.teeko_common`'s.
"""

from __future__ import annotations

import typer

from . import teeko_files, teeko_runs
from .common import HELP_MARKUP

TEEKO_HELP = (
    "The 1999 thesis Teeko program: its memories and scores, batch self-play, the console game, the experiment."
)


def register(app: typer.Typer) -> None:
    teeko_app = typer.Typer(rich_markup_mode=HELP_MARKUP, name="teeko", help=TEEKO_HELP, no_args_is_help=True)
    memory_app = typer.Typer(
        rich_markup_mode=HELP_MARKUP,
        help="Thesis memories (memory.m) in the store: import, export, list, show, delete.",
        no_args_is_help=True,
    )
    stat_app = typer.Typer(
        rich_markup_mode=HELP_MARKUP,
        help="The thesis score (stat.m): show, reset, import or export, in the store or in a file.",
        no_args_is_help=True,
    )
    memory_app.command("import")(teeko_files.memory_import)
    memory_app.command("export")(teeko_files.memory_export)
    memory_app.command("list")(teeko_files.memory_list)
    memory_app.command("show")(teeko_files.memory_show)
    memory_app.command("delete")(teeko_files.memory_delete)
    stat_app.command("show")(teeko_files.stat_show)
    stat_app.command("reset")(teeko_files.stat_reset)
    stat_app.command("import")(teeko_files.stat_import)
    stat_app.command("export")(teeko_files.stat_export)
    teeko_app.add_typer(memory_app, name="memory")
    teeko_app.add_typer(stat_app, name="stat")
    teeko_app.command("console")(teeko_runs.console_game)
    teeko_app.command("batch")(teeko_runs.batch)
    teeko_app.command("experiment")(teeko_runs.experiment)
    app.add_typer(teeko_app, name="teeko")
