"""Graded position suites: named, versioned sets of positions with their exact values, the one
yardstick every learner and player is measured on (``gamelearn grade``, ``train``, ``curves``,
``tournament --grade``).

A suite holds only positions where a mistake is possible: the side to move has at least one move
that keeps the position's value and at least one that loses it.  A lost position is never in a
suite (every move of a lost position "keeps" its value, so it would only flatter a player).  Each
position carries its exact value for the side to move (+1 a win, 0 a draw, from the solution), the
moves that keep that value, the best moves (the fastest win; for a draw every keeping move), the
moves that throw it to a loss, and its phase.

The suites, built from the exact solution on the spot, deterministically (``SUITE_VERSION``):

* **tic-tac-toe** and **hexapawn**: every position reachable from the start, in breadth-first order
  of the game's move order, where the side to move has a move that loses value.  Positions are not
  merged by symmetry here: the suite weighs each reachable position once, as the game meets them.
* **Teeko** (each form whose table is built): positions met in seeded games between a mix of players
  (uniform random, Scarne's sharp, alpha-beta over the 1999 thesis program's evaluation at depths 1
  and 2, and the perfect player slipped into random moves a tenth or a third of the time), merged by
  the 8 symmetries of the board, then drawn stratified: by phase (placement, moving), by value (win,
  draw) and by how many moves keep the value (one, two or three, four or more; the positions where
  only one move holds are the puzzles that separate players).  Each of the twelve strata gets an
  equal share of :data:`TEEKO_SUITE_SIZE` where it has that many positions; what a small stratum
  cannot fill goes to the others, in turn.  Within a stratum the draw is a seeded shuffle of the
  positions sorted by their board.
* **Teeko's held-out suite**, ``teeko-val-v1``: every choice of a learner's settings is made on it,
  so that ``teeko-v1`` stays a test set, graded only to report.  It is drawn the way ``teeko-v1``
  is, but independently of it: from the games of *other* players (the 1999 thesis program,
  alpha-beta over the open-lines evaluation at depths 1 and 3, MCTS with 30 random playouts,
  uniform random, and the perfect player slipping into a random move a fifth or a half of the
  time), another seed, and with every position of ``teeko-v1`` (up to symmetry) left out, so the
  two suites share no position.  It holds :data:`VALIDATION_SIZE` positions: at 95% a keeps
  figure on it is good to about three points (Wilson's interval, :func:`keeps_interval`).
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..games import Game, get_game
from ..match import play_game
from ..players.base import Player
from ..players.registry import make_player
from ..solver import Solution, solve
from . import suites_connect4 as shipped
from .statistics import Interval, wilson

#: The version of the suites' recipe: a change of recipe is a new version, never the same name.
SUITE_VERSION = "v1"
#: The positions of a Teeko suite.
TEEKO_SUITE_SIZE = 2000
#: The seed of the Teeko suites' games and draws.
TEEKO_SUITE_SEED = 19
#: The games played to find Teeko positions, and the plies each may last.
TEEKO_GAMES = 600
TEEKO_MAX_PLIES = 48
#: The classic players whose games give Teeko positions (with two noisy perfect players).
TEEKO_PLAYERS = (
    "random",
    "sharp",
    "alphabeta:depth=1,eval=thesis",
    "alphabeta:depth=2,eval=thesis",
)
#: How often the noisy perfect players slip into a uniformly random move.
PERFECT_SLIPS = (0.1, 0.33)


#: Every phase a position may be in (:func:`phase_of`), in the order games meet them.
PHASES = ("placement", "moving", "opening", "endgame")


@dataclass(frozen=True)
class SuitePosition:
    """One position of a suite, with what the exact solution says of it."""

    state: Hashable
    value: int  # +1 the side to move wins with best play, 0 a draw (lost positions are never in a suite)
    keeping: tuple[str, ...]  # the moves that keep the value
    best: tuple[str, ...]  # the fastest win's moves; for a draw, every keeping move
    losing: tuple[str, ...]  # the moves that throw the position to a loss
    phase: str
    mover: int = 0  # the side to move (0 moves first): a one-sided learner is graded where it moves

    @property
    def value_name(self) -> str:
        return "win" if self.value > 0 else "draw"

    @property
    def holding(self) -> str:
        """How many moves keep the value: "1", "2-3" or "4+"."""
        count = len(self.keeping)
        return "1" if count == 1 else "2-3" if count <= 3 else "4+"


@dataclass(frozen=True)
class Suite:
    """A named, versioned set of graded positions (see the module's text)."""

    name: str
    game: str  # the game's spec
    description: str
    positions: tuple[SuitePosition, ...]
    #: True where the suite holds every reachable position of the game where a mistake is possible
    #: (the small games'): a side's own positions can then be told apart (:meth:`of_side`).
    whole: bool = False
    _sides: dict[int, tuple[SuitePosition, ...]] = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.positions)

    def of_side(self, side: int | None) -> tuple[SuitePosition, ...]:
        """The positions a learner that plays ``side`` is graded on (every position for None).

        In a whole suite, the positions where ``side`` moves that it meets from the start while
        each of its moves keeps the value, whatever the other side plays: what a player of that
        side must know to play it perfectly.  A position where it moves only after a slip of its
        own (HER's Black: 4 of hexapawn's 19 Black positions) is left out; a learner that has
        learnt to keep its value never goes there, so nothing it does there can be learnt or
        graded.  In a drawn suite (Teeko's, Connect Four's), every position where ``side`` moves."""
        if side is None:
            return self.positions
        if side not in self._sides:
            mine = tuple(p for p in self.positions if p.mover == side)
            if self.whole:
                met = met_while_keeping(get_game(self.game), mine, side)
                mine = tuple(p for p in mine if p.state in met)
            self._sides[side] = mine
        return self._sides[side]

    def phases(self) -> list[str]:
        """The phases in the order the game meets them."""
        found = {p.phase for p in self.positions}
        return [phase for phase in PHASES if phase in found]

    def counts(self) -> dict[str, int]:
        """How many positions each stratum holds: ``phase/value/holding`` -> count, sorted."""
        found = Counter(f"{p.phase}/{p.value_name}/{p.holding}" for p in self.positions)
        return dict(sorted(found.items()))

    def summary(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "game": self.game,
            "size": len(self),
            "description": self.description,
            "by_phase": dict(Counter(p.phase for p in self.positions)),
            "by_value": dict(Counter(p.value_name for p in self.positions)),
            "strata": self.counts(),
        }


def met_while_keeping(game: Game[Any], graded: Sequence[SuitePosition], side: int) -> set[Hashable]:
    """Every position reachable from the start when ``side`` plays only moves that keep the value
    where ``graded`` (its positions of a whole suite) says which those are, and any move elsewhere
    (where it has no choice to make: every move keeps, or none does), against every reply."""
    keeping = {p.state: p.keeping for p in graded}
    seen: set[Hashable] = set()
    frontier = [game.initial()]
    while frontier:
        state = frontier.pop()
        if state in seen or game.is_over(state):
            continue
        seen.add(state)
        mine = game.to_move(state) == side and state in keeping
        moves = keeping[state] if mine else game.legal_moves(state)
        frontier.extend(game.play(state, move) for move in moves)
    return seen


def phase_of(game: Game[Any], state: Any) -> str:
    """The phase a position is in: Teeko's placement or moving; tic-tac-toe's opening (at most three
    marks down) or endgame; hexapawn's opening (no pawn taken yet) or endgame; any other game's
    opening (at most a quarter of the board's squares taken) or endgame."""
    if game.name == "teeko":
        return "placement" if game.placing(state) else "moving"  # type: ignore[attr-defined]
    pieces = sum(cell != "." for cell in game.board(state))
    if game.name == "connect4":  # by ply, as its shipped suites are drawn (.suites_connect4)
        return shipped.phase_of_ply(pieces)
    if game.name == "tictactoe":
        return "opening" if pieces <= 3 else "endgame"
    if game.name == "hexapawn":
        return "opening" if pieces == 6 else "endgame"
    return "opening" if pieces <= game.squares // 4 else "endgame"


def graded_position(game: Game[Any], solution: Solution, state: Hashable) -> SuitePosition | None:
    """The suite's view of ``state``, or None where no mistake is possible there (a finished game,
    a lost position, or one where every move keeps the value)."""
    if game.is_over(state):
        return None
    value = solution.value(state)
    if value < 0:
        return None
    outcomes = solution.move_outcomes(state)
    keeping = tuple(move for move, (result, _) in outcomes if result == value)
    if len(keeping) == len(outcomes):
        return None
    losing = tuple(move for move, (result, _) in outcomes if result < 0)
    best = tuple(solution.best_moves(state))
    return SuitePosition(state, value, keeping, best, losing, phase_of(game, state), game.to_move(state))


def suite_name(game: Game[Any]) -> str:
    """The default suite's name for a game or form: ``tictactoe-v1``, ``teeko:goals=advanced-v1``."""
    return f"{game.spec}-{SUITE_VERSION}"


_SUITES: dict[str, Suite] = {}


def get_suite(game: Game[Any] | str, name: str | None = None) -> Suite:
    """The suite ``name`` of ``game`` (its default suite when None; Standard Teeko also has the
    held-out ``teeko-val-v1``), built once a process.
    ValueError naming the suites there are for an unknown name, and how to build a missing table."""
    if isinstance(game, str):
        game = get_game(game)
    if game.name == "connect4":
        return _shipped_suite(game, name)
    expected = suite_name(game)
    held_out = validation_names(game)
    if name is not None and name != expected and name not in held_out:
        known = ", ".join((expected, *held_out))
        raise ValueError(f"unknown suite {name!r} for {game.spec}; the suites there are: {known}")
    if name in held_out:
        if name not in _SUITES:
            _SUITES[name] = validation_suite(game, _solution_for(game))
        return _SUITES[name]
    if expected not in _SUITES:
        solution = _solution_for(game)
        if game.name == "teeko":
            _SUITES[expected] = _teeko_suite(game, solution, expected)
        else:
            _SUITES[expected] = _whole_suite(game, solution, expected)
    return _SUITES[expected]


def _shipped_suite(game: Game[Any], name: str | None) -> Suite:
    """Connect Four's suite ``name`` (``connect4-v1`` when None), read from the file the package
    ships (:mod:`.suites_connect4`: its positions cost the solver too long to draw on the spot)."""
    if not shipped.applies(game):
        raise ValueError(f"{game.spec} has no suite: Connect Four's suites are of the standard 7x6 board")
    chosen = name or shipped.REPORT_NAME
    if chosen not in _SUITES:
        lines = shipped.shipped_lines(chosen)  # ValueError naming the suites for another name
        stored = shipped.StoredOutcomes(game, lines)
        positions = [graded_position(game, stored, shipped.state_of(game, moves)) for moves, _ in lines]
        if any(position is None for position in positions):
            raise ValueError(f"the shipped suite {chosen} holds a position where no mistake is possible")
        description = shipped.shipped_header(chosen).get("description", shipped.RECIPE)
        _SUITES[chosen] = Suite(chosen, game.spec, description, tuple(p for p in positions if p is not None))
    return _SUITES[chosen]


def _solution_for(game: Game[Any]) -> Solution:
    try:
        return solve(game)
    except ValueError as error:
        raise ValueError(
            f"the {game.spec} suite needs its solved table: run `gamelearn solve {game.spec}` first ({error})"
        ) from None


def _whole_suite(game: Game[Any], solution: Solution, name: str) -> Suite:
    """Every reachable position where a move loses value, breadth first from the start."""
    seen: set[Hashable] = {game.initial()}
    frontier = [game.initial()]
    positions = []
    while frontier:
        following = []
        for state in frontier:
            graded = graded_position(game, solution, state)
            if graded is not None:
                positions.append(graded)
            if game.is_over(state):
                continue
            for _, child in game.successors(state):
                if child not in seen:
                    seen.add(child)
                    following.append(child)
        frontier = following
    description = (
        f"every position of {game.spec} reachable from the start where the side to move has a move "
        f"that loses value ({len(positions)} of {len(seen)} reachable positions)"
    )
    return Suite(name, game.spec, description, tuple(positions), whole=True)


class _SlippingPerfect(Player[Hashable]):
    """The perfect player that slips into a uniformly random move with a given chance: it meets the
    positions a good but fallible player reaches, which the classic players alone seldom do."""

    kind = "perfect-slipping"

    def __init__(self, game: Game[Any], solution: Solution, slip: float, seed: int) -> None:
        super().__init__(game, seed)
        self.solution, self.slip = solution, slip

    def choose(self, state: Hashable) -> str | None:
        moves = self.moves_to_choose_from(state)
        if self.rng.random() < self.slip:
            return self.rng.choice(moves)
        return self.rng.choice(self.solution.best_moves(state))


def _teeko_seed(*parts: object) -> int:
    digest = hashlib.blake2b(":".join(map(str, ("teeko-suite", *parts))).encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


def _seats(
    game: Game[Any], solution: Solution, kinds: list[str | float], suite_seed: int, index: int
) -> list[Player[Any]]:
    """The two players of a suite's game ``index``, each drawn from ``kinds`` (a player spec, or a
    perfect player's chance of slipping) by the suite's seed."""
    seats: list[Player[Any]] = []
    for side in (0, 1):
        kind = kinds[_teeko_seed(suite_seed, index, side) % len(kinds)]
        seed = _teeko_seed(suite_seed, index, side, "player")
        if isinstance(kind, float):
            seats.append(_SlippingPerfect(game, solution, kind, seed))
        else:
            seats.append(make_player(game, kind, seed=seed))
    return seats


def _positions_met(
    game: Game[Any],
    solution: Solution,
    kinds: list[str | float],
    suite_seed: int,
    games: int,
    left_out: set[Hashable] | frozenset[Hashable] = frozenset(),
) -> dict[Hashable, SuitePosition]:
    """The positions where a move loses value met in ``games`` seeded games between ``kinds``,
    merged by symmetry (each by its canonical board), less those of ``left_out``."""
    pool: dict[Hashable, SuitePosition] = {}
    looked_at: set[Hashable] = set()
    for index in range(games):
        record = play_game(
            game,
            _seats(game, solution, kinds, suite_seed, index),
            seed=_teeko_seed(suite_seed, index),
            max_plies=TEEKO_MAX_PLIES,
            learn=False,
        )
        for state in record.states:
            canonical, _ = game.canonical(state)
            if canonical in looked_at or canonical in left_out:
                continue
            looked_at.add(canonical)
            graded = graded_position(game, solution, canonical)
            if graded is not None:
                pool[canonical] = graded
    return pool


def _teeko_suite(game: Game[Any], solution: Solution, name: str) -> Suite:
    kinds: list[str | float] = [*TEEKO_PLAYERS, *PERFECT_SLIPS]
    pool = _positions_met(game, solution, kinds, TEEKO_SUITE_SEED, TEEKO_GAMES)
    chosen = draw_stratified(game, list(pool.values()), TEEKO_SUITE_SEED, TEEKO_SUITE_SIZE)
    description = (
        f"{len(chosen)} {game.spec} positions where a move loses value, from {TEEKO_GAMES} seeded games "
        f"(seed {TEEKO_SUITE_SEED}) between random, sharp, alpha-beta over the thesis evaluation (depths 1, 2) "
        f"and the perfect player slipping {', '.join(f'{s:.0%}' for s in PERFECT_SLIPS)} of the time; merged by "
        f"symmetry ({len(pool)} distinct) and drawn evenly over phase x value x moves that hold"
    )
    return Suite(name, game.spec, description, tuple(chosen))


# The held-out suite ----------------------------------------------------------------------------

#: The validation suite's name, positions, games and seed.
VALIDATION_NAME = "teeko-val-v1"
VALIDATION_SIZE = 1000
VALIDATION_GAMES = 500
VALIDATION_SEED = 2026
#: The players whose games give its positions: none of them gives ``teeko-v1``'s.
VALIDATION_PLAYERS = (
    "random",
    "thesis:train=off",
    "alphabeta:depth=1,eval=lines",
    "alphabeta:depth=3,eval=lines",
    "mcts:playouts=30",
)
VALIDATION_SLIPS = (0.2, 0.5)


def validation_names(game: Game[Any]) -> tuple[str, ...]:
    """The held-out suites of ``game`` (Standard Teeko's one; none for the other games)."""
    return (VALIDATION_NAME,) if game.spec == "teeko" else ()


def keeps_interval(keeps: int, positions: int) -> Interval:
    """The 95% Wilson interval of a keeps figure: ``keeps`` of ``positions``.

    >>> keeps_interval(900, 1000).percent()
    '90.0 (88.0-91.7)'
    """
    return wilson(keeps, positions)


def validation_suite(game: Game[Any], solution: Solution) -> Suite:
    """The suite ``teeko-val-v1`` of Standard Teeko (see the module's text), built afresh."""
    held_out = {position.state for position in get_suite(game).positions}
    kinds: list[str | float] = [*VALIDATION_PLAYERS, *VALIDATION_SLIPS]
    pool = _positions_met(game, solution, kinds, VALIDATION_SEED, VALIDATION_GAMES, held_out)
    chosen = draw_stratified(game, list(pool.values()), VALIDATION_SEED, VALIDATION_SIZE)
    description = (
        f"{len(chosen)} {game.spec} positions where a move loses value, held out from teeko-v1: from "
        f"{VALIDATION_GAMES} seeded games (seed {VALIDATION_SEED}) between {', '.join(VALIDATION_PLAYERS)} and the "
        f"perfect player slipping {', '.join(f'{s:.0%}' for s in VALIDATION_SLIPS)} of the time; merged by symmetry, "
        f"teeko-v1's positions left out ({len(pool)} distinct), drawn evenly over phase x value x moves that hold"
    )
    return Suite(VALIDATION_NAME, game.spec, description, tuple(chosen))


def _stratified_quotas(sizes: dict[str, int], total: int) -> dict[str, int]:
    """An equal share of ``total`` for each stratum, capped by its size; what small strata leave
    is shared among the others, in sorted order, until the total is met or every stratum is used."""
    quotas = dict.fromkeys(sizes, 0)
    left = min(total, sum(sizes.values()))
    while left > 0:
        open_strata = [key for key in sorted(sizes) if quotas[key] < sizes[key]]
        share = max(1, left // len(open_strata))
        for key in open_strata:
            take = min(share, sizes[key] - quotas[key], left)
            quotas[key] += take
            left -= take
            if left == 0:
                break
    return quotas


def draw_stratified(game: Game[Any], pool: list[SuitePosition], seed: int, size: int) -> list[SuitePosition]:
    """``size`` positions of ``pool`` drawn evenly over phase x value x moves that hold: each
    stratum in board order, shuffled by ``seed``, cut to its quota; the same pool and seed give the
    same positions."""
    strata: dict[str, list[SuitePosition]] = {}
    for position in sorted(pool, key=lambda p: game.board(p.state) + str(game.to_move(p.state))):
        strata.setdefault(f"{position.phase}/{position.value_name}/{position.holding}", []).append(position)
    rng = random.Random(seed)
    for key in sorted(strata):
        rng.shuffle(strata[key])
    quotas = _stratified_quotas({key: len(found) for key, found in strata.items()}, size)
    return [position for key in sorted(strata) for position in strata[key][: quotas[key]]]
