"""What the page is sent of games and players (the models of models.py): a game as the page draws
it, each game with the players it accepts and their options.

Notation (docs/api.md): Teeko names a square ``rc`` (two digits), hexapawn and tic-tac-toe by one
digit 0-8; a move is one square (a placement) or two (from, to).  The page composes moves from
these names and highlights squares from them; whether a move is legal is only ever the game's say.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..games import Game
from ..games.specs import spec_name, split_spec
from ..match import End
from ..players.registry import IntRange, Option, PlayerKind, kinds_for, parse_switch
from .learners import words_for
from .models import GameInfo, GameView, OptionOut, PlayerInfo
from .sessions import WebGame

#: The players the page offers first for each game (the seeds' learners against a person).
DEFAULT_SEATS = {
    "tictactoe": ("human", "menace"),
    "hexapawn": ("human", "her"),
    "teeko": ("human", "thesis"),
}
#: The players the page offers first for a form other than the game's own (the thesis player plays
#: Standard Teeko only).
FORM_SEATS = {"teeko": ("human", "alphabeta")}


#: Options the web app does not offer (it keeps each browser's learners itself; see service.py).
WEB_REFUSED_OPTIONS = ("name", "memory", "store", "owner")


def player_name(spec: str) -> str:
    return words_for(spec_name(spec)).name


def square_names(game: Game) -> list[str]:
    """The squares' names in moves: Teeko's row and column digits ("00" to "44"); any other game's
    numbers along the rows, all of one width ("0" to "8"; "00" to "15": docs/own-game.md)."""
    columns = game.facts.columns
    if game.name == "teeko":
        return [f"{sq // columns}{sq % columns}" for sq in range(game.squares)]
    width = len(str(game.squares - 1))
    return [str(sq).zfill(width) for sq in range(game.squares)]


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


#: Games whose moves name a column, not a square: the disc falls where the rules put it, so the
#: square a move takes is the position's (:func:`drops`), never read off the move's name.
COLUMN_GAMES = ("connect4",)


def changed_squares(game: Game, before: Any, after: Any) -> list[int]:
    """The squares whose mark differs between two positions, in board order: where a disc fell."""
    return [sq for sq, (a, b) in enumerate(zip(game.board(before), game.board(after), strict=True)) if a != b]


def drops(game: Game, state: Any) -> dict[str, int]:
    """For a game whose moves are columns (:data:`COLUMN_GAMES`): each legal move and the square its
    disc lands on, as the game's own ``play`` puts it, so that the page marks where a click in a
    column lands without knowing the rules; empty for any other game."""
    if game.name not in COLUMN_GAMES or game.is_over(state):
        return {}
    return {move: changed_squares(game, state, game.play(state, move))[0] for move in game.legal_moves(state)}


def played_squares(game: Game, state: Any, move: str) -> list[int]:
    """The squares ``move`` names when played from ``state``: a column game's the square its disc
    lands on (the rules' say), any other game's read off the move (:func:`move_squares`)."""
    if game.name in COLUMN_GAMES:
        return changed_squares(game, state, game.play(state, move))
    return move_squares(game, move)


def web_range(option: Option, game: Game, work_bounds: dict[str, dict[str, int]] | None) -> tuple[int, int] | None:
    """The whole numbers a browser may give the option in this game: the option's own range
    narrowed by this server's work bounds.  The one source of both the picker's limits and the
    server's refusal, so the two never disagree."""
    bounds = option.bounds(game.name)  # the option's range for this game (player work limits included)
    if not isinstance(option.parse, IntRange) or bounds is None:
        return None
    low, high = bounds
    bound = (work_bounds or {}).get(option.name, {}).get(game.name)
    return low, high if bound is None else min(high, bound)


def check_web_ranges(game: Game, spec: str, work_bounds: dict[str, dict[str, int]] | None) -> None:
    """Refuse, before the player is made, a whole-number option outside :func:`web_range`, in the
    words the picker's limits use ("too large (at most 4 for teeko on this server)")."""
    name, written = split_spec(spec)
    kind = next((k for k in kinds_for(game) if k.name == name), None)
    if kind is None:
        return  # an unknown kind: make_player says which kinds there are
    options = {option.name: option for option in kind.options}
    for key, value in written:
        option = options.get(key)
        allowed = web_range(option, game, work_bounds) if option is not None else None
        if allowed is None or not value:
            continue
        try:
            IntRange(*allowed)(value)
        except ValueError as error:  # "5 is too large (at most 4)": the server's bound inside the brackets
            said = str(error)
            where = f"for {game.name} on this server"
            said = f"{said[:-1]} {where})" if said.endswith(")") else f"{said} ({where})"
            raise ValueError(f"option {key}={said}") from None


def option_info(option: Option, game: Game, work_bounds: dict[str, dict[str, int]] | None) -> OptionOut:
    """An option as the page's picker offers it: its default and the values it allows."""
    default = option.default_for(game)
    shown = default
    if isinstance(default, tuple):
        shown = "-".join(str(v) for v in default)
    elif isinstance(default, float):
        shown = round(default, 4)
    allowed = web_range(option, game, work_bounds)
    if allowed is not None:
        return OptionOut(name=option.name, default=shown, help=option.help, type="int", min=allowed[0], max=allowed[1])
    if option.parse is parse_switch:
        return OptionOut(
            name=option.name, default="on" if default else "off", help=option.help, type="switch", values=["on", "off"]
        )
    return OptionOut(name=option.name, default=shown, help=option.help, type="text")


def player_info(
    kind: PlayerKind, game: Game, work_bounds: dict[str, dict[str, int]] | None, trains: bool, options: bool
) -> PlayerInfo:
    """A player kind as the page offers it; ``trains`` said only where true, and its summary and
    options only with ``options`` (the page's first load asks without them)."""
    words = words_for(kind.name)
    info = PlayerInfo(name=kind.name, title=words.name, first_move_wait=words.first_move_wait)
    if options:
        info.summary = kind.summary
        info.options = [
            option_info(o, game, work_bounds)
            for o in kind.options
            if o.name not in WEB_REFUSED_OPTIONS and o.applies_to(game.name)
        ]
    if trains:
        info.trains = True
    return info


def game_info(
    game: Game,
    work_bounds: dict[str, dict[str, int]] | None = None,
    trains: Collection[str] = (),
    options: bool = True,
) -> GameInfo:
    """A game and the players it accepts (``trains``: the kinds that train from the page in this
    game; ``options`` False: each player by its name and words only)."""
    kinds = kinds_for(game)
    names = {kind.name for kind in kinds}
    defaults = [spec if spec in names else "random" for spec in DEFAULT_SEATS.get(game.spec, ("human", "random"))]
    return GameInfo(
        name=game.name,
        spec=game.spec,
        # the game's options (Teeko's forms): name, default, allowed values (or a pattern), help
        options=[OptionOut.model_validate(option.to_dict()) for option in game.game_options],
        symbols=list(game.symbols),
        rows=game.facts.rows,
        columns=game.facts.columns,
        square_names=square_names(game),
        rules=game.rules_text(),
        players=[player_info(kind, game, work_bounds, kind.name in trains, options) for kind in kinds],
        defaults=defaults,
        form_defaults=list(FORM_SEATS.get(game.name, defaults)) if game.game_options else defaults,
    )


def end_why(web_game: WebGame) -> str:
    """Why the game ended, in a few words."""
    game, end, winner = web_game.game, web_game.end, web_game.winner
    board = game.board(web_game.state)
    if end is End.WIN and winner is not None:
        squares = game.winning_squares(web_game.state)
        if game.name == "tictactoe":
            return "three in a row"
        if game.name == "teeko":
            rows = {sq // game.facts.columns for sq in squares}
            cols = {sq % game.facts.columns for sq in squares}
            if len(rows) == 2 and len(cols) == 2:
                span = max(rows) - min(rows) + 1
                return "four on a square" if span == 2 else f"four on the corners of a {span}x{span} square"
            return "four in a row"
        if game.name != "hexapawn":  # a game of another author: its line, else its own words
            return in_a_row(game, squares) or game.end_reason(web_game.state)
        if squares:
            return "a pawn reached the far row"
        if game.symbols[1 - winner] not in board:
            return "every pawn taken"
        return f"{game.symbols[1 - winner]} cannot move"
    if end is End.RESIGN and winner is not None:
        loser = web_game.seats[1 - winner]
        if loser.human:
            return "resigned"
        pronoun = words_for(spec_name(loser.spec)).pronoun
        return f"{pronoun} box is empty"
    return (
        {
            End.DRAW: "the board is full",
            End.REPETITION: "repetition",
            End.MAX_PLIES: f"the limit of {web_game.max_plies} plies",
        }.get(end, "")
        if end is not None
        else ""
    )


def in_a_row(game: Game, squares: tuple[int, ...]) -> str:
    """The winner's line in words ("three in a row") where the winning squares, at least two, lie
    next to each other along one row, column or diagonal of the board; "" otherwise."""
    columns = game.facts.columns
    cells = sorted(divmod(square, columns) for square in squares)
    if len(cells) < 2:
        return ""
    step = (cells[1][0] - cells[0][0], cells[1][1] - cells[0][1])
    if max(map(abs, step)) != 1:
        return ""
    for (row, column), (next_row, next_column) in zip(cells, cells[1:], strict=False):
        if (next_row - row, next_column - column) != step:
            return ""
    return f"{NUMBER_WORDS.get(len(cells), str(len(cells)))} in a row"


#: How a line's length is said.
NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}


def result_text(web_game: WebGame) -> str:
    """The game's state in a sentence, from the person's side when one person plays: "Your move
    (X)", "thesis is thinking…", "You win: four in a row", "HER resigns: her box is empty"."""
    humans = [side for side, seat in enumerate(web_game.seats) if seat.human]
    you = humans[0] if len(humans) == 1 else None
    if web_game.end is None:
        return _turn_text(web_game, you)
    if web_game.end is End.ABANDONED:
        why = f": {web_game.failure}" if web_game.failure else ""
        return f"Abandoned after {len(web_game.moves)} plies{why}"
    return _ending_text(web_game, you)


def _turn_text(web_game: WebGame, you: int | None) -> str:
    """Whose turn it is, in the words of :func:`result_text` (``you``: the one person's side)."""
    game, seats = web_game.game, web_game.seats
    side = web_game.to_move
    pawn_side = game.pawn_side(web_game.state)
    if pawn_side != side:  # an Alternate drop round: the side to move places the other's pawn
        pawn = game.symbols[pawn_side]
        if you is None:
            return f"{game.symbols[side]} places {pawn}'s pawn"
        if side == you:
            return f"Place {pawn}'s pawn (you choose for {pawn})"
        return f"{player_name(seats[side].spec)} places your pawn ({pawn})…"
    if you is None:
        return f"{game.symbols[side]} to move"
    if side == you:
        return f"Your move ({game.symbols[side]})"
    return f"{player_name(seats[side].spec)} is thinking…"


def _ending_text(web_game: WebGame, you: int | None) -> str:
    """How a finished (not abandoned) game ended, in the words of :func:`result_text`."""
    game, seats = web_game.game, web_game.seats
    why = end_why(web_game)
    winner = web_game.winner
    if winner is None:
        return "Draw by repetition" if web_game.end is End.REPETITION else f"Draw: {why}"
    if web_game.end is End.RESIGN:
        loser = 1 - winner
        if you is not None and loser == you:
            return "You resigned"
        if seats[loser].human:
            return f"{game.symbols[loser]} resigned"
        return f"{player_name(seats[loser].spec)} resigns: {why}"
    if you is not None:
        return f"You win: {why}" if winner == you else f"{player_name(seats[winner].spec)} wins: {why}"
    return f"{game.symbols[winner]} wins: {why}"


def game_view(web_game: WebGame) -> GameView:
    """The game as the page draws it (the service adds what happened and the learners)."""
    game = web_game.game
    last = web_game.moves[-1] if web_game.moves else None
    return GameView(
        id=web_game.id,
        game=game.name,
        spec=game.spec,
        players=[seat.spec for seat in web_game.seats],
        humans=[seat.human for seat in web_game.seats],
        symbols=list(game.symbols),
        rows=game.facts.rows,
        columns=game.facts.columns,
        square_names=square_names(game),
        # this form's rules (Teeko's forms differ from the game's rules that /api/games lists)
        rules=game.rules_text(),
        board=game.board(web_game.state),
        to_move=None if web_game.over else web_game.to_move,
        # whose pawn the next ply puts down or moves: not the side to move in an Alternate drop round
        pawn_side=None if web_game.over else game.pawn_side(web_game.state),
        legal_moves=web_game.legal_moves(),
        human_to_move=web_game.human_to_move(),
        computer_to_move=web_game.computer_to_move(),
        moves=list(web_game.moves),
        last_move=last,
        last_squares=played_squares(game, web_game.match.states[-2], last) if last else [],
        # a column game's legal moves and the square each one's disc lands on (else empty)
        drops=drops(game, web_game.state),
        over=web_game.over,
        winner=web_game.winner,
        end=web_game.end.value if web_game.end is not None else None,
        result=result_text(web_game),
        why=end_why(web_game) if web_game.over else "",
        # the rules' own goal (this form's, for Teeko), so the page lights what the rules counted
        winning_squares=list(game.winning_squares(web_game.state)) if web_game.end is End.WIN else [],
        can_take_back=not web_game.over and web_game.last_human_ply() is not None,
        seed=web_game.seed,
        max_plies=web_game.max_plies,
    )
