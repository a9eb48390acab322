"""``gamelearn grade GAME SPEC [SPEC...]``: players graded, frozen and greedy, on the game's suite
of positions (the one yardstick), and ``gamelearn suite GAME``: what the suite holds.  Parsing and
rendering only: the work is in gamelearn.experiments.grading and .suites."""

from __future__ import annotations

from typing import Annotated

import typer
from rich import box
from rich.table import Table

from ..experiments import api
from ..experiments.api import GradeOptions, GradeReport, Suite
from ..games import get_game
from .common import (
    GAME_HELP,
    MAX_WORKERS,
    SEED_MAX,
    SEED_MIN,
    check_store,
    complete_game,
    console,
    err_console,
    fail,
    print_json,
    room_left,
    spec_column,
    title_fits,
)
from .progress import QUIET_HELP, progress_bar


def percent(share: float | None) -> str:
    return "-" if share is None else f"{100 * share:.1f}%"


#: Column headings short enough for 80 columns.
SHORT_NAMES = {"placement": "place", "moving": "moving", "opening": "open", "endgame": "end"}


def grades_table(suite: Suite, reports: list[GradeReport]) -> Table:
    """One row a spec: keeps, best, blunders, then keeps by phase and by value.  It fits 80 columns:
    the figures never wrap, a long spec folds."""
    table = Table(
        title=f"{suite.name}: {len(suite):,} positions, graded frozen and greedy",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    one_sided = any(report.side is not None for report in reports)
    phases = suite.phases()
    values = [value for value in ("win", "draw") if any(p.value_name == value for p in suite.positions)]
    headers = ["keeps", "best", "blund.", *(SHORT_NAMES.get(name, name) for name in [*phases, *values])]
    if one_sided:  # a learner that plays one side is graded on its side's positions
        headers.insert(0, "graded")
    rows = []
    for report in reports:
        graded = [f"{report.side_name} {report.size:,}" if report.side is not None else f"all {report.size:,}"]
        rows.append(
            [
                *(graded if one_sided else []),
                percent(report.keeps),
                percent(report.best),
                percent(report.blunders),
                *(percent(report.by_phase.get(phase, {}).get("keeps")) for phase in phases),
                *(percent(report.by_value.get(value, {}).get("keeps")) for value in values),
            ]
        )
    # a long spec breaks after a ':' or a ',' where the console has no room for it; the figures never wrap
    columns = [[heading, *(row[k] for row in rows)] for k, heading in enumerate(headers)]
    specs = [report.spec for report in reports]
    players = spec_column(table, "player", specs, width=room_left(columns, per_column=2))
    for heading in headers:
        table.add_column(heading, justify="right", no_wrap=True)
    title_fits(table)
    for player, row in zip(players, rows, strict=True):
        table.add_row(player, *row)
    return table


LEGEND = (
    "keeps: the share of positions where the move keeps the value (the headline); best: perfect "
    "play's move; blund.: a win or a draw thrown to a loss; the last columns: keeps by phase and by "
    "the position's value."
)
#: Said under the table when a player is graded on one side's positions.
ONE_SIDED = (
    "graded: the positions graded; a learner that plays one side (HER and HIM play Black, a MENACE "
    "trained as X) is graded where its side moves and it can be while keeping its value."
)


def register(app: typer.Typer) -> None:
    app.command("grade")(grade_command)
    app.command("suite")(suite_command)


def grade_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP, autocompletion=complete_game)],
    specs: Annotated[list[str], typer.Argument(metavar="SPEC [SPEC...]", help="player specs to grade")],
    suite: Annotated[str | None, typer.Option("--suite", help="the suite (default: the game's, e.g. teeko-v1)")] = None,
    seed: Annotated[
        int, typer.Option("--seed", min=SEED_MIN, max=SEED_MAX, help="seed of stochastic players")
    ] = GradeOptions.seed,
    workers: Annotated[
        int | None, typer.Option("--workers", min=1, max=MAX_WORKERS, help="local processes (1: in this process)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print the grades as JSON")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
) -> None:
    """Grade player SPECs on the game's suite of positions, each frozen and greedy: the share of
    positions where its move keeps the value (keeps), is perfect play's (best), or throws a win
    or a draw to a loss (blunders)."""
    try:
        game = get_game(game_name)
        api.check_arguments(game, specs, suite)
    except ValueError as error:
        fail(str(error))
    check_store(readonly=True)  # stored learners are read from it
    try:
        chosen, sides = GradeOptions(game, specs, suite, seed, workers).check()
    except ValueError as error:
        fail(str(error))
    options = GradeOptions(game, specs, chosen.name, seed, workers, sides=sides)
    total = sum(len(chosen.of_side(side)) for side in sides)
    with progress_bar(err_console, "positions", total, "positions", quiet) as progress:
        try:
            reports = api.grade(options, progress=progress.advance)
        except ValueError as error:
            fail(str(error))
    if as_json:
        print_json(
            {
                "game": game.spec,
                "suite": chosen.name,
                "size": len(chosen),
                "seed": seed,
                "grades": [report.to_dict() for report in reports],
            }
        )
        return
    console.print(grades_table(chosen, reports))
    console.print(LEGEND, markup=False)
    if any(report.side is not None for report in reports):
        console.print(ONE_SIDED, markup=False)


def suite_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP, autocompletion=complete_game)],
    as_json: Annotated[bool, typer.Option("--json", help="print the suite's summary as JSON")] = False,
) -> None:
    """What the game's suite of graded positions holds: how it was drawn, and its counts by
    phase, value and how many moves keep the value."""
    try:
        chosen = api.get_suite(get_game(game_name))
    except ValueError as error:
        fail(str(error))
    summary = chosen.summary()
    if as_json:
        print_json(summary)
        return
    console.print(f"{chosen.name}: {summary['description']}", markup=False)
    table = title_fits(Table(title="positions by stratum", box=box.SIMPLE_HEAD))
    for name in ("phase", "value", "moves that keep it", "positions"):
        table.add_column(name, justify="right" if name == "positions" else "left")
    for key, count in summary["strata"].items():
        phase, value, holding = key.split("/")
        table.add_row(phase, value, holding, str(count))
    console.print(table)
