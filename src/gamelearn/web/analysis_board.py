"""The analysis board of a review: any line of moves from the start, played by the game's own
rules, answered with the position it reaches as the page draws it, its legal moves, the perfect
player's value of each (where the game's solution can be read here) and what each learner seated
on the side to move makes of each move in its own terms (knowledge_views.move_views).

Nothing here is a rule: every move is the game's ``play``, every legal move the game's list; a
move the rules refuse is a ValueError naming the move and where in the line it stands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..games import Game
from ..games.specs import spec_name
from ..players.knowledge import Learner
from ..players.registry import kinds_for
from .analysis import Analyst, unavailable
from .guards import public_message
from .knowledge_views import move_views
from .learners import learner_games, words_for
from .models import AnalysisBoard, MoveViews, SeatView
from .tables import table_ready
from .views import drops, played_squares

#: Makes the browser's own learner of a kind for the game, its kept knowledge loaded.
LearnerMaker = Callable[[str], Learner]


def replay(game: Game, moves: list[str]) -> Any:
    """The state after ``moves`` from the start; a move the rules refuse is a ValueError saying
    which move of the line it is."""
    state = game.initial()
    for index, move in enumerate(moves):
        if game.is_over(state):
            raise ValueError(f"move {index + 1} of the line ({move[:16]!r}): the game is over before it")
        try:
            state = game.play(state, move)
        except ValueError as error:
            raise ValueError(f"move {index + 1} of the line: {error}") from None
    return state


def check_players(game: Game, players: list[str]) -> list[str]:
    """The players' kinds, each one the game seats (else a ValueError naming it)."""
    known = {kind.name for kind in kinds_for(game)}
    kinds = [spec_name(spec) for spec in players]
    for kind in kinds:
        if kind not in known:
            raise ValueError(f"unknown player {kind[:40]!r} for {game.name}; players: {', '.join(sorted(known))}")
    return kinds


def seats(game: Game, players: list[str] | tuple[str, ...]) -> list[str]:
    """A record's players as the analysis board seats them: a spec of a player the game seats as
    it is, anything else (a person's name, "Ana") as ``human``, who keeps no view of its own."""
    known = {kind.name for kind in kinds_for(game)}
    return [spec if spec_name(spec) in known else "human" for spec in players]


def analysis_board(
    game: Game, moves: list[str], players: list[str], analyst: Analyst, make_learner: LearnerMaker
) -> AnalysisBoard:
    """The position after ``moves`` with its legal moves, their perfect values (``perfect``) and
    the view of the player seated on the side to move (``learners``: one entry, ``view`` None
    and ``none`` saying why for a player with no view of its own)."""
    kinds = check_players(game, players)
    state = replay(game, moves)
    before = replay(game, moves[:-1]) if moves else None  # where the last move was played from
    over = game.is_over(state)
    winner = game.winner(state) if over else None
    mover = None if over else game.to_move(state)
    ready, reason = table_ready(game.spec)  # each form of Teeko has its own table
    perfect = analyst.position(game, state) if ready else unavailable(reason)
    for move, entry in perfect.moves.items():  # the squares an arrow joins
        entry.squares = played_squares(game, state, move)
    answer = AnalysisBoard(
        game=game.name,
        spec=game.spec,
        moves=list(moves),
        board=game.board(state),
        to_move=mover,
        pawn_side=None if over else game.pawn_side(state),
        legal_moves=[] if over else game.legal_moves(state),
        last_squares=played_squares(game, before, moves[-1]) if moves else [],
        drops=drops(game, state),
        over=over,
        winner=winner,
        winning_squares=list(game.winning_squares(state)) if winner is not None else [],
        perfect=perfect,
        learners=[],
    )
    outcome = analyst.outcome(game, state) if ready else None
    if outcome is not None:  # from the first player's side, as the review's bar reads
        value, distance = outcome
        answer.value = value if (mover or 0) == 0 else -value
        answer.distance = distance
    if mover is not None and len(kinds) == 2:
        answer.learners = [_seat_view(game, state, mover, players, make_learner)]
    return answer


def _seat_view(game: Game, state: Any, side: int, players: list[str], make_learner: LearnerMaker) -> SeatView:
    """What the player seated on ``side`` makes of each legal move: a learner's own view, or none."""
    kind = spec_name(players[side])
    name = words_for(kind).name
    if game.name not in learner_games().get(kind, []):
        none = f"{name} has no view of its own: it keeps no knowledge"
        return SeatView(side=side, spec=players[side], kind=kind, name=name, view=None, none=none)
    try:
        said = move_views(make_learner(kind), game, state)
    except ValueError as error:  # a position its boxes never hold, a form it does not learn
        none = public_message(f"no view here: {error}")
        return SeatView(side=side, spec=players[side], kind=kind, name=name, view=None, none=none)
    return SeatView(side=side, spec=players[side], kind=kind, name=name, view=MoveViews.model_validate(said), none="")
