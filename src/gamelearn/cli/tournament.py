"""``gamelearn tournament GAME SPEC SPEC [SPEC...]``: a round robin between player specs, with a
progress bar, a crosstable and a standings table, saved to the store.  Parsing and rendering only:
the tournament lives in gamelearn.experiments.tournament."""

from __future__ import annotations

import json
import time
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..experiments.tournament import TournamentResult, check_arguments, default_workers, run_tournament
from ..games import get_game
from ..match import DEFAULT_MAX_PLIES
from ..store.db import Store
from .common import GAME_HELP, console, err_console, fail


def crosstable(result: TournamentResult) -> Table:
    """Row player's wins-draws-losses against each column player."""
    table = Table(title=f"{result.game}: row's W-D-L against column", box=box.SIMPLE_HEAD)
    table.add_column("player", no_wrap=True)
    for index in range(len(result.specs)):
        table.add_column(str(index + 1), justify="center", no_wrap=True)
    for i, spec in enumerate(result.specs):
        cells = []
        for j in range(len(result.specs)):
            if i == j:
                cells.append("-")
            else:
                wins, draws, losses = result.pair(i, j)
                cells.append(f"{wins}-{draws}-{losses}")
        table.add_row(f"{i + 1} {spec}", *cells)
    return table


def standings_table(result: TournamentResult) -> Table:
    """Players by rating: points, score with its 95% interval, rating, and the grades of their moves."""
    table = Table(title="standings (rating: Bradley-Terry fit, first player = 1500)", box=box.SIMPLE_HEAD)
    for name in ("#", "player", "games", "W-D-L", "points", "score", "95% CI", "rating"):
        table.add_column(name, justify="left" if name == "player" else "right", no_wrap=True)
    if result.graded:
        for name in ("best", "mistakes", "blunders"):
            table.add_column(name, justify="right", no_wrap=True)
    order = sorted(range(len(result.specs)), key=lambda i: -result.standings[i].rating)
    for i in order:
        s = result.standings[i]
        low, high = s.interval
        row = [
            str(i + 1),
            s.spec,
            str(s.games),
            f"{s.wins}-{s.draws}-{s.losses}",
            f"{s.points:g}",
            f"{100 * s.score:.1f}%",
            f"{100 * low:.0f}-{100 * high:.0f}%",
            f"{s.rating:.0f}",
        ]
        if result.graded and s.grades is not None:
            share = s.best_share
            row += ["-" if share is None else f"{100 * share:.1f}%", str(s.grades["mistake"]), str(s.grades["blunder"])]
        table.add_row(*row)
    return table


def register(app: typer.Typer) -> None:
    @app.command()
    def tournament(
        game_name: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
        specs: Annotated[list[str], typer.Argument(metavar="SPEC SPEC [SPEC...]", help="player specs, at least two")],
        games: Annotated[int, typer.Option("--games", help="games per pair, colours alternating")] = 10,
        seed: Annotated[int, typer.Option("--seed", help="seed of every game (same seed, same tournament)")] = 0,
        max_plies: Annotated[
            int, typer.Option("--max-plies", help="ply limit; reaching it is a draw")
        ] = DEFAULT_MAX_PLIES,
        grade: Annotated[bool, typer.Option("--grade", help="grade every move against the perfect player")] = False,
        workers: Annotated[int | None, typer.Option("--workers", help="local processes (1: in this process)")] = None,
        dask: Annotated[
            str | None, typer.Option("--dask", metavar="ADDRESS|local", help="run the pairs on a Dask cluster")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="print the result as JSON (tables go away)")] = False,
    ) -> None:
        """A round robin between player SPECs: each pair plays --games games, every game seeded, every
        move graded against the perfect player with --grade; the result is saved to the store."""
        try:
            game = get_game(game_name)
        except ValueError as error:
            fail(str(error))
        if games < 1:
            fail(f"--games must be at least 1, not {games}")
        if max_plies < 1:
            fail(f"--max-plies must be at least 1, not {max_plies}")
        if workers is not None and workers < 1:
            fail(f"--workers must be at least 1, not {workers}")
        try:  # every bad argument is refused before the progress bar shows
            check_arguments(game, specs, games, max_plies, grade, workers or 1)
        except ValueError as error:
            fail(str(error))
        pairs = len(specs) * (len(specs) - 1) // 2
        shown: Console = err_console if as_json else console  # --json keeps stdout for the JSON
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        started = time.perf_counter()
        with Progress(*columns, console=shown, transient=as_json) as progress:
            task = progress.add_task("games", total=pairs * games)
            try:
                result = run_tournament(
                    game,
                    specs,
                    games,
                    seed,
                    max_plies=max_plies,
                    grade=grade,
                    workers=workers,
                    dask=dask,
                    progress=lambda n: progress.advance(task, n),
                )
            except ValueError as error:
                fail(str(error))
        seconds = time.perf_counter() - started
        payload = result.to_dict()
        payload["seconds"] = round(seconds, 3)
        payload["runner"] = f"dask {dask}" if dask else f"{workers or default_workers()} worker(s)"
        with Store() as store:
            number = store.save_result("tournament", payload)
        if as_json:
            print(json.dumps(payload))
            return
        # A pipe or a file gets the tables whole (Rich would cut them to 80 columns); a terminal
        # gets them at its width.
        out = console if console.is_terminal else Console(width=max(console.width, 160), highlight=False)
        out.print(crosstable(result))
        out.print(standings_table(result))
        out.print(
            f"{pairs * games} games in {seconds:.1f} s ({payload['runner']}); saved to the store as result {number}."
        )
