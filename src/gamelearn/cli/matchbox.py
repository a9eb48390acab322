"""``gamelearn boxes``, ``her``, ``him`` and ``menace``: Gardner's box count and experiments with
the matchbox learners, and moving a named learner's boxes in and out of the store as JSON.

This module only parses, validates and renders: the learners live in players.matchbox, the runs in
experiments.matchbox.
"""

# no "from __future__ import annotations": for_kind reads the commands' Annotated options as
# objects, to say each learner kind's name in their help

import functools
import inspect
from collections.abc import Callable
from copy import copy
from pathlib import Path
from typing import Annotated, Any, get_args, get_origin

import typer
from rich.table import Table

from ..experiments.api import HerOptions, MenaceOptions
from ..files import MissingFolderError
from ..games import get_game
from ..keeper import Keeper
from ..players.matchbox import HerPlayer, HimPlayer, MatchboxPlayer, MenacePlayer
from ..players.matchbox.beads import parse_beads
from ..players.matchbox.learners import plays_plugged_in_game
from ..players.matchbox.tables import count_boxes
from ..players.registry import parse_switch
from ..store.json_files import read_json_file, write_json_file
from .common import (
    HELP_MARKUP,
    MAX_LEARNER_GAMES,
    SEED_MAX,
    SEED_MIN,
    check_name,
    console,
    fail,
    open_store,
)
from .matchbox_runs import MAX_GAMES_IN_ALL, run_her_command, run_menace_command
from .progress import QUIET_HELP

#: The most fresh learners an experiment trains against each opponent.
MAX_LEARNERS = 100_000
SIZE_HELP = f"learners x games at most {MAX_GAMES_IN_ALL:,}"
#: Beads a result may add or take out per bead drawn (MENACE's rewards).
MAX_REWARD = 100

OUT_HELP = "folder for the learning-curve PNG (default: plots/ in the data directory)"
JSON_HELP = "print the result as one JSON object on stdout (the figures of the tables, the plot's path)"


HER_HELP = "Gardner's HER (1962): train fresh HERs as Black against Random and Sharp; export/import named ones."
HIM_HELP = (
    "HIM, HER with Gardner's reward: the same experiment, and the answer to the classroom page's question against HER."
)
MENACE_HELP = "Michie's MENACE: train fresh MENACEs against random, the perfect player and itself; export/import."


def register(app: typer.Typer) -> None:
    app.command("boxes")(boxes)
    for kind, help_text in (("her", HER_HELP), ("him", HIM_HELP), ("menace", MENACE_HELP)):
        sub = typer.Typer(rich_markup_mode=HELP_MARKUP, no_args_is_help=False, invoke_without_command=True)
        experiment = menace_experiment if kind == "menace" else her_experiment
        sub.callback(invoke_without_command=True)(for_kind(experiment, kind))
        sub.command("export")(for_kind(export_boxes, kind))
        sub.command("import")(for_kind(import_boxes, kind))
        sub.command("show")(for_kind(show_boxes, kind))
        app.add_typer(sub, name=kind, help=help_text)


def for_kind(command: Callable[..., None], kind: str) -> Callable[..., None]:
    """``command`` for one learner kind: called with ``kind=kind``, and ``{kind}`` (``{KIND}``
    in capitals) in its options' help said with it.  Typer reads a command's options from its
    signature, so the signature shown is the command's own without ``kind``."""
    signature = inspect.signature(command)
    parameters = []
    for parameter in signature.parameters.values():
        if parameter.name == "kind":
            continue
        annotation = parameter.annotation
        if get_origin(annotation) is Annotated:
            base, *infos = get_args(annotation)
            annotation = Annotated[(base, *(said_for(info, kind) for info in infos))]
        parameters.append(parameter.replace(annotation=annotation))

    @functools.wraps(command)
    def bound(*args: Any, **kwargs: Any) -> None:
        command(*args, kind=kind, **kwargs)

    bound.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    bound.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
    return bound


def said_for(info: Any, kind: str) -> Any:
    """A copy of a Typer option or argument whose help names ``kind``."""
    if not isinstance(getattr(info, "help", None), str):
        return info
    named = copy(info)
    named.help = info.help.format(kind=kind, KIND=kind.upper())
    return named


def boxes(
    game_name: Annotated[
        str, typer.Argument(metavar="GAME", help="hexapawn, tictactoe or a game of another author that always ends")
    ],
    no_symmetry: Annotated[
        bool, typer.Option("--no-symmetry", help="count a position and its mirror images apart")
    ] = False,
    side: Annotated[
        str,
        typer.Option(
            "--side",
            help="whose boxes: W or B for hexapawn (default B, HER's side), X or O for tictactoe (default X), "
            "a symbol of another game (default its first)",
        ),
    ] = "",
) -> None:
    """Count a matchbox learner's boxes and beads without playing (Gardner 1962: a box per position)."""
    try:
        game = get_game(game_name)
    except ValueError as error:
        fail(str(error))
    if game.name not in ("hexapawn", "tictactoe") and not plays_plugged_in_game(game):
        fail(
            "the matchbox learners play hexapawn (her, him), tictactoe (menace) and the games of other authors that "
            f"always end (all three), not {game.name}"
        )
    symbol = side.strip().upper() or game.symbols[1 if game.name == "hexapawn" else 0]
    if symbol not in game.symbols:
        fail(f"--side must be {' or '.join(game.symbols)} for {game.name}, not {side!r}")
    mover = game.symbols.index(symbol)
    symmetries = len(game.symmetries)
    mirror = {"hexapawn": "up to the mirror image", "tictactoe": "up to the 8 symmetries of the square"}.get(
        game.name, f"up to the game's {symmetries} symmetr{'y' if symmetries == 1 else 'ies'}"
    )
    how = "every position counted apart" if no_symmetry else mirror
    try:
        if game.name != "tictactoe":
            count = count_boxes(game, mover, use_symmetry=not no_symmetry)
            learners = "" if game.name == "hexapawn" else "HER and HIM: "
            console.print(
                f"{learners}{game.name}, {symbol} to move in a game not over ({how}): [bold]{count.boxes:,} boxes, "
                f"{count.beads:,} beads[/bold], {count.bad_beads:,} of them bad (after them the other side can force a win)"
            )
        if game.name != "hexapawn":
            moves = count_boxes(game, mover, use_symmetry=not no_symmetry, min_choices=2)
            colours = count_boxes(game, mover, use_symmetry=not no_symmetry, min_choices=2, merge_colours=True)
            learner = "" if game.name == "tictactoe" else "MENACE: "
            console.print(
                f"{learner}{game.name}, {symbol} to move with more than one choice ({how}): [bold]{moves.boxes:,} "
                f"boxes[/bold], {moves.beads:,} moves in them, [bold]{colours.beads:,} bead colours[/bold] (symmetric "
                f"moves of a box's own position are one colour), {colours.bad_beads:,} colours that lose against best "
                "play"
            )
    except ValueError as error:  # a game too large for the tables
        fail(str(error))


def menace_experiment(
    ctx: typer.Context,
    kind: str,
    learners: Annotated[
        int,
        typer.Option("--learners", min=1, max=MAX_LEARNERS, help="fresh MENACEs per opponent; " + SIZE_HELP),
    ] = MenaceOptions.learners,
    games: Annotated[
        int, typer.Option("--games", min=1, max=MAX_LEARNER_GAMES, help="games each MENACE plays")
    ] = MenaceOptions.games,
    against: Annotated[
        list[str] | None,
        typer.Option(
            "--against",
            help="random, perfect, self, sharp or a mixed teacher perfect:random=P (the perfect player with a "
            "random move with chance P, the page's 'mixed' at 0.5); repeat for several (default: random, perfect, self)",
        ),
    ] = None,
    side: Annotated[str, typer.Option("--side", help="X: MENACE moves first (Michie's), O: second")] = "X",
    restock: Annotated[
        str,
        typer.Option(
            "--restock",
            metavar="on|off",
            help="on: an emptied box is filled again with its first beads when MENACE next meets it, instead of "
            "resigning (the page's remedy, menace:restock=on)",
        ),
    ] = "off",
    beads: Annotated[str, typer.Option("--beads", help="beads per colour at its 1st, 2nd, ... move")] = "-".join(
        map(str, MenaceOptions.beads)
    ),
    win: Annotated[
        int,
        typer.Option("--win", min=-MAX_REWARD, max=MAX_REWARD, help="beads added per bead drawn after a win"),
    ] = MenaceOptions.rewards[0],
    draw: Annotated[
        int,
        typer.Option(
            "--draw", min=-MAX_REWARD, max=MAX_REWARD, help="after a draw (the page's remedy: 3, a draw worth a win)"
        ),
    ] = MenaceOptions.rewards[1],
    loss: Annotated[
        int,
        typer.Option("--loss", min=-MAX_REWARD, max=MAX_REWARD, help="after a loss (negative: taken out)"),
    ] = MenaceOptions.rewards[2],
    seed: Annotated[
        int, typer.Option("--seed", min=SEED_MIN, max=SEED_MAX, help="same seed, same games, same results")
    ] = MenaceOptions.seed,
    out: Annotated[Path | None, typer.Option("--out", metavar="DIR", help=OUT_HELP)] = None,
    chart: Annotated[
        bool, typer.Option("--chart/--no-chart", help="print the chart of one MENACE per opponent")
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
) -> None:
    if ctx.invoked_subcommand is not None:
        return

    try:
        bead_stages = parse_beads(beads)
    except ValueError as error:
        fail(f"--beads: {error}")
    if side.upper() not in ("X", "O"):
        fail(f"--side must be X or O, not {side!r}")
    try:
        restocks = parse_switch(restock)
    except ValueError as error:
        fail(f"--restock: {error}")
    options = MenaceOptions(
        learners,
        games,
        against or MenaceOptions.opponents,
        seed,
        0 if side.upper() == "X" else 1,
        bead_stages,
        (win, draw, loss),
        restocks,
    )
    run_menace_command(options, out, chart and not as_json, as_json, quiet)


def her_experiment(
    ctx: typer.Context,
    kind: str,
    learners: Annotated[
        int,
        typer.Option("--learners", min=1, max=MAX_LEARNERS, help="fresh {KIND}s per opponent; " + SIZE_HELP),
    ] = HerOptions.learners,
    games: Annotated[
        int, typer.Option("--games", min=1, max=MAX_LEARNER_GAMES, help="games each one plays")
    ] = HerOptions.games,
    against: Annotated[
        list[str] | None,
        typer.Option(
            "--against",
            help="random, sharp, perfect or a mixed teacher perfect:random=P; repeat for several "
            "(default: random and sharp)",
        ),
    ] = None,
    side: Annotated[str, typer.Option("--side", help="B: the learner plays Black, second (Gardner's); W: White")] = "B",
    seed: Annotated[
        int, typer.Option("--seed", min=SEED_MIN, max=SEED_MAX, help="same seed, same games, same results")
    ] = HerOptions.seed,
    out: Annotated[Path | None, typer.Option("--out", metavar="DIR", help=OUT_HELP)] = None,
    chart: Annotated[
        bool, typer.Option("--chart/--no-chart", help="print Gardner's chart of one learner per opponent")
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help=JSON_HELP)] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)] = False,
) -> None:
    if ctx.invoked_subcommand is not None:
        return
    if side.upper() not in ("W", "B"):
        fail(f"--side must be W or B, not {side!r}")
    options = HerOptions(kind, learners, games, against or HerOptions.opponents, seed, "WB".index(side.upper()))
    run_her_command(options, out, chart and not as_json, as_json, quiet)


#: The game option of export and show: a learner of another game is kept apart from the built-in one's.
GameOption = Annotated[
    str,
    typer.Option(
        "--game", metavar="GAME", help="the game it learns, if not its own built-in one (a game of another author)"
    ),
]


def export_boxes(
    kind: str,
    name: Annotated[str, typer.Argument(help="a {kind} kept in the store (player spec {kind}:name=NAME)")],
    path: Annotated[Path, typer.Argument(help="the JSON file to write (atomically)")],
    game: GameOption = "",
) -> None:
    """Write a named learner's boxes to a JSON file."""
    store = open_store(readonly=True)
    player = stored_learner(kind, check_name("NAME", name), store, game)
    try:
        write_json_file(path, player.knowledge())
    except MissingFolderError as error:
        fail(str(error))
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror or error}")
    except ValueError as error:  # a FIFO, a device, a socket or a folder: refused, nothing written
        fail(str(error))
    console.print(f"Exported {kind} [bold]{name}[/bold]: {len(player.boxes)} boxes to {path}.")


def import_boxes(
    kind: str,
    path: Annotated[Path, typer.Argument(help="a JSON file written by export")],
    name: Annotated[str | None, typer.Option("--name", help="the name in the store (default: the file's name)")] = None,
    replace: Annotated[
        bool, typer.Option("--replace", help="replace a learner of that name already in the store")
    ] = False,
) -> None:
    """Read boxes from a JSON file into the store, for the game the file names; every box and bead is
    checked, a bad file changes nothing."""
    store = open_store()
    target = check_name("--name", name or path.stem)
    try:
        payload = read_json_file(path)
    except ValueError as error:
        fail(str(error))
    player = make_learner(kind, target, file_game(kind, payload))
    try:
        player.load_payload(payload, where=f"{path}: ")
        # the name is checked inside the write's transaction: of two imports, one wins
        Keeper(store).save(player, replace=replace)
    except ValueError as error:
        fail(str(error))
    console.print(f"Imported {len(player.boxes)} boxes from {path} as {kind} [bold]{target}[/bold].")


def file_game(kind: str, payload: Any) -> str:
    """The game a matchbox file names, where ``kind`` plays it and it is a game of another author;
    otherwise "" (the learner's own built-in game, whose check names the file's game if it differs)."""
    named = payload.get("game") if isinstance(payload, dict) else None
    if not isinstance(named, str) or named in ("hexapawn", "tictactoe"):
        return ""
    try:
        return named if plays_plugged_in_game(get_game(named)) else ""
    except ValueError:  # not a game found here: the learner's own check says so
        return ""


def show_boxes(
    kind: str, name: Annotated[str, typer.Argument(help="a {kind} kept in the store")], game: GameOption = ""
) -> None:
    """Print a named learner's boxes: each canonical board and its beads."""
    player = stored_learner(kind, check_name("NAME", name), open_store(readonly=True), game)
    table = Table(
        "box (canonical board)",
        "beads",
        title=f"{kind} {name}{'' if not game else ' of ' + player.game.name}: {len(player.boxes)} boxes after "
        f"{player.games_played} games",
    )
    for board, beads in sorted(player.boxes.items()):
        shown = (
            " ".join(f"{m}x{c}" for m, c in beads.items())
            if isinstance(beads, dict)
            else " ".join(beads) or "(empty: resigns)"
        )
        table.add_row(board, shown)
    console.print(table)


def stored_learner(kind: str, name: str, store: Any, game: str = "") -> Any:
    """The learner of ``game`` (its own built-in one where "") kept in the store as ``name``; one
    line, exit 2, if there is none or it is damaged (the message then begins "KIND 'NAME' in the
    store:")."""
    player = make_learner(kind, name, game)
    own = player.game.name == player.game_name
    prefix = "" if own else f"{player.game.name}/"
    names = [
        n.removeprefix(prefix) for _, n in store.list_learners(kind) if ("/" not in n if own else n.startswith(prefix))
    ]
    if name not in names:
        where = "" if own else f" for {player.game.name}"
        fail(f"no {kind} named {name!r}{where} in the store (known: {', '.join(names) or 'none'})")
    try:
        Keeper(store).attach(player)
    except ValueError as error:
        fail(str(error))
    return player


def make_learner(kind: str, name: str, game_name: str = "") -> Any:
    """A matchbox learner of ``kind`` named ``name`` for ``game_name`` (its own built-in game where "")."""
    factories: dict[str, type[MatchboxPlayer[Any]]] = {"her": HerPlayer, "him": HimPlayer, "menace": MenacePlayer}
    factory = factories[kind]
    try:
        game = get_game(game_name or factory.game_name)
        return factory(game, name=name)
    except ValueError as error:
        fail(str(error))
