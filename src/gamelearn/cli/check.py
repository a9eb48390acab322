"""``gamelearn check-game NAME``: a game put through the contract's checks (gamelearn.games.contract),
then a smoke run of the players, the solver and the grade on it; what breaks, one line each."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer

from ..experiments.api import get_suite, grade_player, graded_player
from ..games import Game, get_game
from ..games.contract import problems
from ..match import play_game  # unnamed players: nothing to keep
from ..players.registry import make_player
from ..solver import solve
from ..solver.exhaustive import ExhaustiveSolution
from .common import GAME_HELP, complete_game, console, fail

#: The players of the smoke run: a game that keeps the contract is played by each.
SMOKE_PLAYERS = ("random", "alphabeta:depth=2", "mcts:playouts=20", "td", "ntuple")
#: The most positions the smoke run solves and grades (a larger game is only checked and played).
SMOKE_POSITIONS = 200_000


def _smoke_players(game: Game) -> list[str]:
    found = []
    for index, spec in enumerate(SMOKE_PLAYERS):
        try:
            seats = [make_player(game, spec, seed=index), make_player(game, "random", seed=index + 1)]
            record = play_game(game, seats, seed=index, max_plies=500)
            if record.final is None or len(record.moves) == 0:
                found.append(f"players: {spec} played no move")
        except Exception as error:  # noqa: BLE001 (what breaks is reported, one line)
            found.append(f"players: {spec}: {type(error).__name__}: {_first_line(error)}")
    return found


def _smoke_solver(game: Game) -> tuple[list[str], list[str]]:
    """(problems, notes): the solution against the declared value, the perfect player and the grade."""
    if game.facts.can_cycle:
        return [], ["solver: not run (the game can repeat positions; the exhaustive solver needs one that ends)"]
    try:
        solution = ExhaustiveSolution(game, limit=SMOKE_POSITIONS)
    except ValueError as error:
        return [], [f"solver: not run ({error})"]
    except Exception as error:  # noqa: BLE001
        return [f"solver: {type(error).__name__}: {_first_line(error)}"], []
    value = solution.outcome(game.initial())[0]
    found: list[str] = []
    declared = game.facts.value_of_start
    if declared is not None and declared != value:
        found.append(f"solver: facts.value_of_start is {declared}, but the solved value of the start is {value}")
    notes = [f"solver: {solution.reachable:,} positions; the start is worth {value:+d} to the first player"]
    try:
        solve(game)
        suite = get_suite(game)
        report = grade_player(graded_player(game, "perfect"), suite)
        if report.keeps != 1.0 and len(suite):
            found.append(f"grade: the perfect player keeps only {100 * report.keeps:.1f}% of the suite")
        notes.append(f"suite: {len(suite):,} positions where a move loses value")
    except Exception as error:  # noqa: BLE001
        found.append(f"grade: {type(error).__name__}: {_first_line(error)}")
    return found, notes


def _first_line(error: BaseException) -> str:
    text = str(error)
    return text.splitlines()[0] if text else ""


def check_game_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP, autocompletion=complete_game)],
) -> None:
    """Check GAME against the Game contract (docs/own-game.md), then play, solve and grade it; print what
    breaks, one line each (exit status 1 when something does)."""
    try:
        game = get_game(game_name)
    except ValueError as error:
        fail(str(error))
    steps: tuple[Callable[[Game], list[str]], ...] = (problems, _smoke_players)
    found: list[str] = []
    for step in steps:
        found += step(game)
    notes: list[str] = []
    if not found:  # the solver and the grade need rules that keep the contract
        more, notes = _smoke_solver(game)
        found += more
    for line in notes:
        console.print(line, markup=False)
    for line in found:
        console.print(line, markup=False, soft_wrap=True)
    if found:
        console.print(f"{game.spec}: {len(found)} problem(s)", markup=False)
        raise typer.Exit(1)
    console.print(f"{game.spec}: keeps the Game contract (version 1); every check passed", markup=False)


def register(app: typer.Typer) -> None:
    app.command("check-game")(check_game_command)
