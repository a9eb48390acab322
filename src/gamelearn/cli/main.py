"""The `gamelearn` command (Typer and Rich).  Interfaces hold no game logic: every rule question
goes to the game, every decision to a player."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Hashable

import typer

from ..games import GAME_NAMES, Game, IllegalMove, get_game
from ..match import DEFAULT_MAX_PLIES, End, GameRecord, Match
from ..players.basic import HumanPlayer
from ..players.registry import kinds_for, make_player
from .common import EXIT_USAGE, UserError, console, err_console, fail

app = typer.Typer(
    name="gamelearn",
    help="Machines learn strategic games by playing them: Teeko, hexapawn, tic-tac-toe.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)

#: Modules of this layer that add commands (each has register(app)).
COMMAND_MODULES = ("matchbox", "teeko", "solve", "web", "tournament", "learning")


#: The opponent of `gamelearn play GAME` without --second.
DEFAULT_OPPONENTS = {"teeko": "thesis:memory=play", "hexapawn": "her:name=play", "tictactoe": "menace:name=play"}
#: The name an unnamed learner seated by `gamelearn play` is kept under (per game and kind).
PLAY_LEARNER_NAME = "play"


class Quit(Exception):
    """The person typed q."""


def load_game(name: str) -> Game:
    try:
        return get_game(name)
    except ValueError as error:
        fail(str(error))


def make_or_fail(game: Game, spec: str, seed: int | None, option: str):
    try:
        return make_player(game, spec, seed=seed)
    except ValueError as error:
        fail(f"{option}: {error}")


def terminal_ask(game: Game, who: str):
    """A human's move from the terminal: a bad move gets one line and a new prompt, q quits."""

    def ask(state: Hashable) -> str:
        console.print()
        console.print(game.render(state))
        while True:
            symbol = game.symbols[game.to_move(state)]
            try:
                text = console.input(f"{who} ({symbol}) to move, q to quit: ").strip()
            except EOFError:
                raise Quit from None
            if text.lower() in ("q", "quit", "exit"):
                raise Quit
            try:
                game.play(state, text)
            except IllegalMove as error:
                console.print(
                    str(error), style="red", markup=False, soft_wrap=True
                )  # the text is the user's: no markup, one line
                continue
            return text

    return ask


def describe_result(game: Game, record: GameRecord) -> str:
    if record.winner is not None:
        how = " (the other side resigned)" if record.end is End.RESIGN else ""
        return f"{game.symbols[record.winner]} wins after {record.plies} plies{how}."
    reasons = {
        End.DRAW: "a draw",
        End.REPETITION: "a draw: the same position came up a third time",
        End.MAX_PLIES: "a draw: the ply limit was reached",
    }
    return reasons.get(record.end, record.end.value).capitalize() + f" after {record.plies} plies."


@app.command()
def play(
    game_name: str = typer.Argument(..., metavar="GAME", help=f"one of {', '.join(GAME_NAMES)}"),
    first: str = typer.Option("human", "--first", help="the player who moves first: a player spec"),
    second: str = typer.Option("", "--second", help="the second player (default: a good computer player)"),
    seed: int | None = typer.Option(None, "--seed", help="seed for the computer players' random choices"),
    max_plies: int = typer.Option(DEFAULT_MAX_PLIES, "--max-plies", min=1, help="ply limit; reaching it is a draw"),
) -> None:
    """Play GAME in the terminal: you, or any player spec, against any other."""
    game = load_game(game_name)
    # Without --second: the game's own learner, kept in the store under the name "play": it goes on learning
    # from the games you play, session after session (seeds 000 and 003).
    chosen_for_you = not second
    if chosen_for_you:
        second = DEFAULT_OPPONENTS.get(game.name, "alphabeta:depth=4")
    players = [
        make_or_fail(game, first, seed, "--first"),
        make_or_fail(game, second, None if seed is None else seed + 1, "--second"),
    ]
    from ..keeper import Keeper, default_keeper
    from ..players.knowledge import Learner

    if chosen_for_you:
        console.print(f"Your opponent is {second}.", markup=False)

    for player in players:
        # An unnamed learner is kept too, as the default opponent is: what you teach it lasts.
        if isinstance(player, Learner) and player.trains and not Keeper.is_kept(player):
            player.keep_as(PLAY_LEARNER_NAME)
    for player in dict.fromkeys(players):
        if isinstance(player, Learner) and player.keep_name() is not None:
            fresh = "name" if player.kind != "thesis" else "memory"
            how = "it learns from this game" if player.trains else "frozen (train=off): it learns nothing"
            console.print(
                f"{player.kind} is kept in the store as {player.keep_name()!r}: {how}; "
                f"give {player.kind}:{fresh}=NEW to start a fresh one.",
                markup=False,
            )
    names = []
    humans = sum(player.is_human for player in players)
    for index, player in enumerate(players):
        # One person is "You"; two people at one terminal are "Player 1" and "Player 2".
        label = ("You" if humans == 1 else f"Player {index + 1}") if player.is_human else player.spec()
        if isinstance(player, HumanPlayer) and player.ask is None:
            player.ask = terminal_ask(game, label)
        names.append(label)
    console.print(f"[bold]{game.name}[/bold]: {game.symbols[0]} = {names[0]}, {game.symbols[1]} = {names[1]}")

    try:
        match = Match(game, players, max_plies=max_plies, learn=False, keeper=default_keeper())
        while match.end is None:
            before = match.state
            move = match.advance()
            mover = game.to_move(before)
            if move is not None and not players[mover].is_human:
                console.print(f"{names[mover]} ({game.symbols[mover]}) plays [bold]{move}[/bold]")
    except Quit:
        console.print("Game abandoned.")
        return
    except ValueError as error:  # a stored learner its keeper cannot load
        fail(str(error))
    match.learn_from_game()
    record = match.record
    assert record is not None  # a finished match has its record
    console.print()
    console.print(game.render(record.final))
    console.print(describe_result(game, record))
    for kept in match.lessons:
        if kept.learner.keep_name() is not None and kept.learner.trains:
            console.print(f"{kept.learner.kind} learned: {kept.lesson.text}.", markup=False)


@app.command()
def rules(game_name: str = typer.Argument(..., metavar="GAME", help=f"one of {', '.join(GAME_NAMES)}")) -> None:
    """Print the rules of GAME and its move notation."""
    game = load_game(game_name)
    console.print(game.rules_text(), markup=False)


@app.command()
def players(game_name: str = typer.Argument(..., metavar="GAME", help=f"one of {', '.join(GAME_NAMES)}")) -> None:
    """List the player specs GAME accepts, with their options."""
    from rich.table import Table

    game = load_game(game_name)
    table = Table("spec", "what it is", "options")
    for kind in kinds_for(game):
        options = ", ".join(f"{o.name}={o.default}" for o in kind.options)
        table.add_row(kind.name, kind.summary, options)
    console.print(table)


def _register_commands() -> None:
    for module in COMMAND_MODULES:
        name = f"{__package__}.{module}"
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name).register(app)


_register_commands()


def main() -> None:
    """Entry point: user errors become one line on stderr and exit status 2, never a traceback."""
    try:
        app()
    except (UserError, IllegalMove, ValueError) as error:
        err_console.print(f"gamelearn: error: {error}", markup=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    except KeyboardInterrupt:
        err_console.print("gamelearn: interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
