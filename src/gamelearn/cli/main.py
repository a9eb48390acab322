"""The `gamelearn` command (Typer and Rich).  Interfaces hold no game logic: every rule question
goes to the game, every decision to a player."""

from __future__ import annotations

import os
import signal
import sys
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table

from .. import __version__
from ..games import Game, get_game
from ..keeper import Keeper, default_keeper
from ..match import DEFAULT_MAX_PLIES
from ..players.evaluation import default_evaluation
from ..players.knowledge import Learner
from ..players.registry import Option, kinds_for, make_player
from ..store.store import StoreError
from ..thesis import commands as thesis_commands
from . import check, grading, learning, matchbox, quiet_start_handler, records, solve, tournament, web
from .common import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    GAME_HELP,
    HELP_MARKUP,
    SEED_MAX,
    SEED_MIN,
    SaidWhy,
    UserError,
    check_store,
    complete_game,
    complete_player,
    console,
    err_console,
    fail,
    quiet_flag_types,
    report_internal_error,
)
from .play import TerminalGame, play_again
from .usage import OneLineErrors

if TYPE_CHECKING:
    from ..players.base import Player

quiet_flag_types()

app = typer.Typer(
    cls=OneLineErrors,
    rich_markup_mode=HELP_MARKUP,
    name="gamelearn",
    help="Machines learn strategic games by playing them: Teeko, hexapawn, tic-tac-toe, Connect Four.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # `gamelearn --install-completion` adds tab completion of commands, options, games and players
    # to bash, zsh, fish or PowerShell (docs/cli.md)
    add_completion=True,
)

#: Modules that add commands (each has register(app)), in the order of --help; the thesis
#: program's ``teeko`` commands live with it (gamelearn.thesis.commands).
COMMAND_MODULES = (matchbox, thesis_commands, solve, web, tournament, learning, grading, check, records)


#: The most plies `--max-plies` allows (a game that long is a draw anyway).
MAX_PLIES_LIMIT = 100_000

#: The opponent of `gamelearn play GAME` without --second.
DEFAULT_OPPONENTS = {"teeko": "thesis:memory=play", "hexapawn": "her:name=play", "tictactoe": "menace:name=play"}
#: The name an unnamed learner seated by `gamelearn play` is kept under (per game and kind).
PLAY_LEARNER_NAME = "play"


def load_game(name: str) -> Game:
    try:
        return get_game(name)
    except ValueError as error:
        fail(str(error))


def make_or_fail(game: Game, spec: str, seed: int | None, option: str):
    try:
        return make_player(game, spec, seed=seed)
    except ValueError as error:  # the spec's parse errors (unknown kind or option, a bad value)
        fail(f"{option}: {error}")


def kept_players(players: list[Any]) -> Any:
    """The default store's keeper, with every kept learner of ``players`` loaded from it (an
    unnamed learner that trains is kept as the default opponent is: what you teach it lasts).
    The store, a damaged learner, one a training run holds: refused in one line, before the game."""
    for player in players:
        if isinstance(player, Learner) and player.trains and not Keeper.is_kept(player):
            player.keep_as(PLAY_LEARNER_NAME)
    keeper = default_keeper()
    if any(isinstance(player, Learner) and player.keep_name() is not None for player in players):
        check_store()  # a learner is kept there: a store it cannot be kept in is named before the game
        for player in dict.fromkeys(players):
            try:
                keeper.attach_once(player)
            except ValueError as error:
                fail(str(error))
    return keeper


def play(
    game_name: str = typer.Argument(..., metavar="GAME", help=GAME_HELP, autocompletion=complete_game),
    first: str = typer.Option(
        "human", "--first", help="the player who moves first: a player spec", autocompletion=complete_player
    ),
    second: str = typer.Option(
        "", "--second", help="the second player (default: a good computer player)", autocompletion=complete_player
    ),
    seed: int | None = typer.Option(
        None, "--seed", min=SEED_MIN, max=SEED_MAX, help="seed for the computer players' random choices"
    ),
    max_plies: int = typer.Option(
        DEFAULT_MAX_PLIES, "--max-plies", min=1, max=MAX_PLIES_LIMIT, help="ply limit; reaching it is a draw"
    ),
) -> None:
    """Play GAME in the terminal: you, or any player spec, against any other.  At your move, ? lists
    the legal moves, hint shows perfect play, undo takes back your last move, q quits."""
    game = load_game(game_name)
    # Without --second: the game's own learner, kept in the store under the name "play": it goes on learning
    # from the games you play, session after session (seeds 000 and 003).
    chosen_for_you = not second
    if chosen_for_you:
        second = DEFAULT_OPPONENTS.get(game.spec, "alphabeta:depth=4")
    players = [
        make_or_fail(game, first, seed, "--first"),
        make_or_fail(game, second, None if seed is None else seed + 1, "--second"),
    ]
    keeper = kept_players(players)  # loaded before a line is printed: a refusal is the only line
    if chosen_for_you:
        console.print(f"Your opponent is {second}.", markup=False)
    say_kept(players)
    play_games(game, players, seat_names(players, (first, second)), max_plies, keeper, seed)


def say_kept(players: list[Player]) -> None:
    """Each kept learner named, with whether it learns from this game."""
    for learner in dict.fromkeys(players):
        if not isinstance(learner, Learner) or learner.keep_name() is None:
            continue
        fresh = "name" if learner.kind != "thesis" else "memory"
        how = "it learns from this game" if learner.trains else "frozen (train=off): it learns nothing"
        console.print(
            f"{learner.kind} is kept in the store as {learner.keep_name()!r}: {how}; "
            f"give {learner.kind}:{fresh}=NEW to start a fresh one.",
            markup=False,
        )


def seat_names(players: list[Player], typed: tuple[str, str]) -> list[str]:
    """One person is "You"; two people at one terminal are "Player 1" and "Player 2".  A program is
    named as it was typed (its full spec spells out defaults such as c=1.4142135623730951), a
    learner by its spec, which says the name it is kept under."""
    humans = sum(player.is_human for player in players)
    names = []
    for index, (player, spec) in enumerate(zip(players, typed, strict=True)):
        shown = player.spec if isinstance(player, Learner) else spec.strip()
        names.append(("You" if humans == 1 else f"Player {index + 1}") if player.is_human else shown)
    return names


def play_games(
    game: Game, players: list[Player], names: list[str], max_plies: int, keeper: Any, seed: int | None = None
) -> None:
    """A game, then another while the person at the terminal says yes, its learners kept by
    ``keeper``; what each kept learner learned is said after each game.  The first game is seeded
    ``seed`` (its record names it); the games after it go on with the players' own streams."""
    humans = any(player.is_human for player in players)
    while True:
        console.print(f"[bold]{game.spec}[/bold]: {game.symbols[0]} = {names[0]}, {game.symbols[1]} = {names[1]}")
        try:  # the keeper loads the stored learners here: one it cannot load is refused in one line
            session = TerminalGame(game, players, names, seed=seed, max_plies=max_plies, keeper=keeper)
            seed = None
        except ValueError as error:
            fail(str(error))
        if session.run() is None:
            return
        for kept in session.match.lessons:
            if kept.learner.keep_name() is not None and kept.learner.trains:
                console.print(f"{kept.learner.kind} learned: {kept.lesson.text}.", markup=False)
        if not humans or not play_again():
            return


def rules(game_name: str = typer.Argument(..., metavar="GAME", help=GAME_HELP, autocompletion=complete_game)) -> None:
    """Print the rules of GAME and its move notation."""
    game = load_game(game_name)
    console.print(game.rules_text(), markup=False)


def shown_range(game: Game, option: Option) -> str:
    """`` (1..4)`` for a whole-number option: the values it accepts for ``game``."""
    bounds = option.bounds(game.name)
    return f" ({bounds[0]}..{bounds[1]})" if bounds else ""


def shown_default(game: Game, option: Option) -> str:
    """An option's default as a person types it in a spec: on/off, a name, 1.41, the evaluation's name."""
    value = option.default_for(game)
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None or value == "":
        return option.name.upper()  # no default: a placeholder, as in `her:name=NAME`
    if option.name == "eval" and value == "default":
        return default_evaluation(game)
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, tuple):
        return "-".join(str(item) for item in value)
    return str(value)


def players(
    game_name: str = typer.Argument(..., metavar="GAME", help=GAME_HELP, autocompletion=complete_game),
) -> None:
    """List the player specs GAME accepts, with their options and defaults."""
    game = load_game(game_name)
    table = Table("spec", "what it is")
    table.add_column("options (defaults)", overflow="fold")  # a long default (a layout's name) whole, not cut
    for kind in kinds_for(game):
        options = ", ".join(
            f"{o.name}={shown_default(game, o)}{shown_range(game, o)}" for o in kind.options if o.applies_to(game.name)
        )
        table.add_row(kind.name, kind.summary, options)
    console.print(table)
    console.print(f"A spec is KIND or KIND:OPTION=VALUE,...; e.g. --second {example_spec(game)}", markup=False)


def example_spec(game: Game) -> str:
    return {"teeko": "thesis:learn=off", "hexapawn": "her:name=mine", "tictactoe": "menace:name=mine"}.get(
        game.name, "minimax:depth=3"
    )


def version_callback(value: bool) -> None:
    if value:
        console.print(f"gamelearn {__version__}")
        raise typer.Exit()


@app.callback()
def top(
    version: bool = typer.Option(
        False, "--version", callback=version_callback, is_eager=True, help="print the version and exit"
    ),
) -> None:
    """Machines learn strategic games by playing them: Teeko, hexapawn, tic-tac-toe, Connect Four."""


def _register_commands() -> None:
    """Every command, in one place: this module's own, then each command module's ``register``."""
    app.command("play")(play)
    app.command("rules")(rules)
    app.command("players")(players)
    for module in COMMAND_MODULES:
        module.register(app)


_register_commands()


def _interrupted(error: BaseException) -> bool:
    """True when a KeyboardInterrupt caused ``error`` (its cause or context, link after link)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def _exit_now(status: int) -> None:
    """Exit with ``status`` after an interrupt, whatever Python would make of it: a ^C that
    escaped an ``exec`` of generated code (a dataclass or named tuple made by a module imported
    just then) marks the interpreter, which then ends itself by SIGINT at exit even though the
    interrupt was handled (seen: status -2 instead of 130).  What was kept is committed and its
    files closed by now; only the output streams need flushing."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


def main() -> None:
    """Entry point: a user's error is one line on stderr and exit status 2; a bug inside gamelearn
    is one line naming it and the log file that holds its traceback, exit status 1 (never disguised
    as bad input); Ctrl-C ends with a newline and status 130."""
    as_command = signal.getsignal(signal.SIGINT) is quiet_start_handler()
    if as_command:  # started: the commands handle ^C now
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _run_app()
    except KeyboardInterrupt:  # a ^C just as a command's own handling ended, before main's
        err_console.print("\ngamelearn: interrupted", markup=False)
        _exit_now(EXIT_INTERRUPTED)
    finally:
        if as_command:
            # The command has ended and what it kept is committed.  A ^C from here on could only
            # race the interpreter's shutdown, whose last steps put back SIGINT's default action
            # (the process then ends by SIGINT, status -2, with no line): it is ignored, and the
            # exit status stays the command's.
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_app() -> None:
    """The command itself, its failures each turned into one line and an exit status."""
    try:
        app()  # Typer shows usage errors itself (exit 2) and exits with the command's status
    except SystemExit as stop:
        if stop.code == EXIT_INTERRUPTED and not isinstance(stop.code, SaidWhy):  # ^C: end the cursor's line
            err_console.print("\ngamelearn: interrupted", markup=False)
        if stop.code in (EXIT_INTERRUPTED, 128 + signal.SIGTERM):
            _exit_now(int(stop.code))
        raise
    except KeyboardInterrupt:  # a ^C outside any command's own handling (Typer's start, say)
        err_console.print("\ngamelearn: interrupted", markup=False)
        _exit_now(EXIT_INTERRUPTED)
    except UserError as error:
        err_console.print(f"gamelearn: error: {error}", markup=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    except Exception as error:
        if _interrupted(error):  # ^C inside an import that wrapped it (Python 3.11's __set_name__ does)
            err_console.print("\ngamelearn: interrupted", markup=False)
            _exit_now(EXIT_INTERRUPTED)
        if isinstance(error, StoreError):  # the store's failures name their cause: one line, not a bug
            err_console.print(f"gamelearn: error: {error}", markup=False, soft_wrap=True)
            sys.exit(EXIT_USAGE)
        report_internal_error(error)
        sys.exit(EXIT_INTERNAL)


if __name__ == "__main__":
    main()
