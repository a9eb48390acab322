"""What the page is sent: plain JSON descriptions of games, players and results.

Notation (docs/api.md): Teeko names a square ``rc`` (two digits), hexapawn and tic-tac-toe by one
digit 0-8; a move is one square (a placement) or two (from, to).  The page composes moves from
these names and highlights squares from them; whether a move is legal is only ever the game's say.
"""

from __future__ import annotations

from typing import Any

from ..games import Game
from ..match import End
from ..players.registry import kinds_for
from .sessions import WebGame

#: The players the page offers first for each game (the seeds' learners against a person).
DEFAULT_SEATS = {
    "tictactoe": ("human", "menace"),
    "hexapawn": ("human", "her"),
    "teeko": ("human", "thesis"),
}


def square_names(game: Game) -> list[str]:
    columns = game.facts.columns
    if game.squares > 10:
        return [f"{sq // columns}{sq % columns}" for sq in range(game.squares)]
    return [str(sq) for sq in range(game.squares)]


def move_squares(game: Game, move: str) -> list[int]:
    """The squares a move names, in order (one for a placement, from and to for a step)."""
    names = square_names(game)
    width = len(names[0])
    index = {name: sq for sq, name in enumerate(names)}
    found = []
    for start in range(0, len(move), width):
        square = index.get(move[start : start + width])
        if square is not None:
            found.append(square)
    return found


def game_info(game: Game) -> dict[str, Any]:
    kinds = kinds_for(game)
    names = {kind.name for kind in kinds}
    defaults = [spec if spec in names else "random" for spec in DEFAULT_SEATS.get(game.spec, ("human", "random"))]
    return {
        "name": game.name,
        "spec": game.spec,
        # the game's options (Teeko's forms): name, default, allowed values (or a pattern), help
        "options": [option.to_dict() for option in game.game_options],
        "symbols": list(game.symbols),
        "rows": game.facts.rows,
        "columns": game.facts.columns,
        "square_names": square_names(game),
        "rules": game.rules_text(),
        "players": [
            {
                "name": kind.name,
                "summary": kind.summary,
                "options": [{"name": o.name, "default": o.default, "help": o.help} for o in kind.options],
            }
            for kind in kinds
        ],
        "defaults": defaults,
    }


def result_text(web_game: WebGame) -> str:
    game = web_game.game
    if web_game.end is None:
        return f"{game.symbols[web_game.to_move]} to move"
    plies = len(web_game.moves)
    if web_game.end is End.ABANDONED:
        why = f": {web_game.failure}" if web_game.failure else ""
        return f"Abandoned after {plies} plies{why}"
    if web_game.winner is not None:
        how = " (the other side resigned: an empty box)" if web_game.end is End.RESIGN else ""
        return f"{game.symbols[web_game.winner]} wins after {plies} plies{how}"
    reasons = {
        End.DRAW: "A draw",
        End.REPETITION: "A draw: the same position came up a third time",
        End.MAX_PLIES: "A draw: the ply limit was reached",
    }
    return f"{reasons.get(web_game.end, web_game.end.value)} after {plies} plies"


def game_view(web_game: WebGame) -> dict[str, Any]:
    game = web_game.game
    last = web_game.moves[-1] if web_game.moves else None
    return {
        "id": web_game.id,
        "game": game.name,
        "spec": game.spec,
        "players": [seat.spec for seat in web_game.seats],
        "humans": [seat.human for seat in web_game.seats],
        "symbols": list(game.symbols),
        "rows": game.facts.rows,
        "columns": game.facts.columns,
        "square_names": square_names(game),
        "board": game.board(web_game.state),
        "to_move": None if web_game.over else web_game.to_move,
        "legal_moves": web_game.legal_moves(),
        "human_to_move": web_game.human_to_move(),
        "computer_to_move": web_game.computer_to_move(),
        "moves": list(web_game.moves),
        "last_move": last,
        "last_squares": move_squares(game, last) if last else [],
        "over": web_game.over,
        "winner": web_game.winner,
        "end": web_game.end.value if web_game.end is not None else None,
        "result": result_text(web_game),
        "seed": web_game.seed,
        "max_plies": web_game.max_plies,
    }
