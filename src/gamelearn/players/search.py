"""Depth-limited minimax and alpha-beta over a named evaluation function (Russell & Norvig: cut off the
search at a depth and estimate the rest), and the classroom page's Sharp."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .base import Player, S
from .evaluation import default_evaluation, evaluation
from .registry import Option, PlayerKind, parse_int, register

if TYPE_CHECKING:
    from collections.abc import Hashable
    from typing import Any

    from ..games import Game

#: A won game scores WIN_SCORE minus the plies it took, so a search prefers the faster win.
WIN_SCORE = 10_000_000.0


class MinimaxPlayer(Player[S]):
    """Plays a move of best minimax value to ``depth`` plies; ties are broken at random (seeded)."""

    kind = "minimax"

    def __init__(self, game: Game[Any], seed: int | None = None, depth: int = 2, eval: str | None = None) -> None:
        # "default" (what `gamelearn players` shows) and None both mean the game's first evaluation
        eval_name = eval if eval and eval != "default" else default_evaluation(game)
        super().__init__(game, seed, depth=depth, eval=eval_name)
        self.depth = depth
        self.evaluate = evaluation(game, eval_name)
        self.nodes = 0

    def value(self, state: S, player: int, depth: int, ply: int, alpha: float, beta: float) -> float:
        """Negamax value of ``state`` for ``player``, the side to move there (the window is for
        alpha-beta; plain minimax searches every move)."""
        settled = self.settled_score(state, player, depth, ply)
        if settled is not None:
            return settled
        game = self.game
        best = -math.inf
        for move in game.legal_move_tuple(state):
            score = self.child_score(game.play(state, move), player, depth - 1, ply + 1, alpha, beta)
            if score > best:
                best = score
        return best

    def settled_score(self, state: S, player: int, depth: int, ply: int) -> float | None:
        """The score for ``player`` of a node the search goes no deeper from: a finished game's
        (a win scores WIN_SCORE less the plies to it, so the faster win is preferred), or at
        depth 0 the evaluation's; None for a node to expand.  Every node is counted here."""
        self.nodes += 1
        game = self.game
        if game.is_over(state):
            winner = game.winner(state)
            if winner is None:
                return 0.0
            return WIN_SCORE - ply if winner == player else -(WIN_SCORE - ply)
        if depth > 0:
            return None
        score = self.evaluate(state)
        return score if player == 0 else -score

    def child_score(self, child: S, player: int, depth: int, ply: int, alpha: float, beta: float) -> float:
        """The value for ``player`` of the position its move led to: negated when the other side
        moves there, as is; when ``player`` moves again (a drop round of Scarne's Alternate Game,
        where the chooser can choose twice in a row)."""
        after = self.game.to_move(child)
        if after == player:
            return self.value(child, player, depth, ply, alpha, beta)
        return -self.value(child, after, depth, ply, -beta, -alpha)

    def scores(self, state: S) -> dict[str, float]:
        """Each legal move's value for the side to move (exact, with a full window)."""
        player = self.game.to_move(state)
        return {
            move: self.child_score(self.game.play(state, move), player, self.depth - 1, 1, -float("inf"), float("inf"))
            for move in self.game.legal_moves(state)
        }

    def choose(self, state: S) -> str | None:
        """A move of best value, drawn at random among the equal best.

        Each root move is searched with the window (just below the best so far, +inf): a worse
        move fails low and is dropped, an equal or better one comes back exact.  So alpha-beta
        prunes at the root too and still sees every tie, and minimax and alpha-beta with the same
        seed choose the same moves.
        """
        player = self.game.to_move(state)
        best = -math.inf
        ties: list[str] = []
        for move in self.moves_to_choose_from(state):
            alpha = math.nextafter(best, -math.inf)
            score = self.child_score(self.game.play(state, move), player, self.depth - 1, 1, alpha, math.inf)
            if score > best:
                best, ties = score, [move]
            elif score == best:
                ties.append(move)
        return self.rng.choice(ties)


class AlphaBetaPlayer(MinimaxPlayer[S]):
    """Minimax with alpha-beta pruning (Knuth & Moore 1975) and a transposition table: the same
    values and moves, fewer nodes.

    The search is fail-soft: for the window (alpha, beta) it returns the exact value when that lies
    inside, else a bound on the far side of the window edge it crossed.  The table keeps, for each
    position searched, the tightest lower and upper bounds on its value the search has proved
    (Plaat et al. 1996, "alpha-beta with memory"); a position met again by another order of the
    same moves (a transposition: X0 O4 X8 and X8 O4 X0) is answered from them, or searched in the
    window they narrow.  One table serves one root search, where a position's plies to go fix its
    ply from the root, so its stored value holds wherever the search meets it again.
    """

    kind = "alphabeta"

    def __init__(self, game: Game[Any], seed: int | None = None, depth: int = 2, eval: str | None = None) -> None:
        super().__init__(game, seed, depth=depth, eval=eval)
        #: bounds[plies to go][position]: (lowest, highest) value it can have for its side to move.
        self.bounds: list[dict[S, tuple[float, float]]] = []

    def value(self, state: S, player: int, depth: int, ply: int, alpha: float, beta: float) -> float:
        """The negamax value of ``state`` for ``player``, the side to move there, when it lies in
        the window (alpha, beta); else a bound r beyond it: r <= alpha says the value is at most
        r, r >= beta at least r.  Inside a search :meth:`begin_search` began (``depth`` + ``ply``
        the same all through it, as in :meth:`choose` and :meth:`scores`)."""
        settled = self.settled_score(state, player, depth, ply)
        if settled is not None:
            return settled
        known = self.bounds[depth]
        low, high = known.get(state, UNBOUNDED)
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        game = self.game
        best = -math.inf
        floor = alpha  # the best value this node is already sure of, for its children's window
        for move in game.legal_move_tuple(state):
            score = self.child_score(game.play(state, move), player, depth - 1, ply + 1, floor, beta)
            if score > best:
                best = score
                if score > floor:
                    floor = score
                    if floor >= beta:
                        break
        if best <= alpha:
            known[state] = (low, best)  # every move failed low: the value is at most best
        elif best >= beta:
            known[state] = (best, high)  # cut off: the value is at least best
        else:
            known[state] = (best, best)
        return best

    def begin_search(self) -> None:
        """Start a search from a new root: the table holds what this search proves, and only
        that (at another root a position's ply, on which a win's score depends, differs)."""
        self.bounds = [{} for _ in range(self.depth)]

    def choose(self, state: S) -> str | None:
        self.begin_search()
        try:
            return super().choose(state)
        finally:
            self.bounds = []  # of no use to the next root: let it go

    def scores(self, state: S) -> dict[str, float]:
        self.begin_search()
        try:
            return super().scores(state)
        finally:
            self.bounds = []


#: The bounds of a position the search has not met: its value may be anything.
UNBOUNDED = (-math.inf, math.inf)


def can_force_win(game: Game[Any], state: Hashable, plies: int | None) -> bool:
    """True if the side to move can win within ``plies`` plies (None: no limit) whatever the other does."""
    player = game.to_move(state)
    if game.is_over(state) or plies is not None and plies <= 0:
        return False
    for move in game.legal_moves(state):
        after = game.play(state, move)
        if game.winner(after) == player:
            return True
        if game.is_over(after):
            continue
        remaining = None if plies is None else plies - 2
        if remaining is not None and remaining <= 0:
            continue
        if all(
            game.winner(reply) == player or (not game.is_over(reply) and can_force_win(game, reply, remaining))
            for reply in (game.play(after, answer) for answer in game.legal_moves(after))
        ):
            return True
    return False


#: Sharp's deepest look in Teeko: a first move in well under a minute (docs/performance.md).
SHARP_TEEKO_DEPTH = 8


class SharpPlayer(Player[S]):
    """The classroom page's Sharp: whenever it can see a way to win however the other answers, it plays it;
    otherwise any move.  It looks ``depth`` plies ahead (default: to the end in hexapawn and
    tic-tac-toe, 3 plies in Teeko, whose tree has no end, and in Connect Four, whose tree is too
    large to walk to its end: a win of its next two moves, whatever the other answers)."""

    kind = "sharp"

    def __init__(self, game: Game[Any], seed: int | None = None, depth: int = 0) -> None:
        super().__init__(game, seed, depth=depth)
        self.horizon = depth if depth > 0 else (3 if game.facts.can_cycle or game.name == "connect4" else None)

    def winning_moves(self, state: S) -> list[str]:
        player = self.game.to_move(state)
        wins = []
        for move in self.game.legal_moves(state):
            after = self.game.play(state, move)
            if self.game.winner(after) == player:
                wins.append(move)
                continue
            if self.game.is_over(after):
                continue
            remaining = None if self.horizon is None else self.horizon - 2
            if remaining is not None and remaining <= 0:
                continue
            replies = [self.game.play(after, answer) for answer in self.game.legal_moves(after)]
            if all(
                self.game.winner(r) == player or (not self.game.is_over(r) and can_force_win(self.game, r, remaining))
                for r in replies
            ):
                wins.append(move)
        return wins

    def choose(self, state: S) -> str | None:
        moves = self.moves_to_choose_from(state)
        wins = self.winning_moves(state)
        return self.rng.choice(wins or moves)


def _depth(limits: tuple[tuple[str, int], ...]) -> Option:
    return Option("depth", parse_int(1, 12), 2, "plies to search before the evaluation takes over", limits=limits)


# Teeko's tree is wide (25 placements, then up to 32 moves): its depth limits keep a first move
# under about a minute (WORK_LIMIT; docs/performance.md).
_MINIMAX_OPTIONS = (
    _depth((("teeko", 4),)),
    Option(
        "eval",
        str,
        "default",
        "the evaluation function (per game: tictactoe better|simple, hexapawn material, teeko thesis|lines, "
        "connect4 threats|lines|none)",
    ),
)
_ALPHABETA_OPTIONS = (_depth((("teeko", 5),)), _MINIMAX_OPTIONS[1])
register(PlayerKind("minimax", MinimaxPlayer, "minimax to a depth, then a named evaluation", options=_MINIMAX_OPTIONS))
register(PlayerKind("alphabeta", AlphaBetaPlayer, "minimax with alpha-beta pruning", options=_ALPHABETA_OPTIONS))
register(
    PlayerKind(
        "sharp",
        SharpPlayer,
        "the classroom page's Sharp: a forced win when it sees one, else any move",
        options=(
            Option(
                "depth",
                parse_int(0, 20),
                0,
                "plies it looks ahead; 0 = to the end where the game has one",
                limits=(("teeko", SHARP_TEEKO_DEPTH),),
            ),
        ),
    )
)
