"""Round-robin tournaments between player specs, every move optionally graded against the perfect
player (the experiments layer: "tournaments, grading against the perfect player ...
runners: local processes (default) and a Dask cluster").

The policy, in one place:

- Every pair of specs (i < j, in the order given) plays ``games_per_pair`` games.  Game ``k`` of a
  pair has spec i moving first when ``k`` is even and spec j when it is odd, so each side moves first
  in half the games (one more for i when the number is odd).
- Game ``k`` of pair ``p`` is played with ``play_game(game, players, seed=game_seed(seed, p, k),
  max_plies=...)``.  A game between players that do not learn replays on its own from that seed;
  a learner's game replays after the games before it in its pair.
- One player object per spec per pair: it plays both colours against that opponent and learns from
  every game of the pair (``learn(record, side)`` with the side it had), in memory.  A stored
  learner is loaded by the keeper and must be frozen (``train=off``) or read-only (a memory file).  Pairs start from fresh
  players, so they are independent tasks and the result does not depend on the order pairs finish
  in; the games within a pair run in order.
- Points are 1 for a win, 1/2 for a draw (a repetition or the ply cap included), 0 for a loss.  The
  score is points / games with a Wilson 95% interval (:mod:`.statistics`), the draws counted as
  half a success.
- Ratings: a Bradley-Terry model fitted by maximum likelihood to all games (each game a score of
  1, 1/2 or 0), with Hunter's (2004) minorize-maximize iteration, plus one virtual drawn game per
  pair as a prior so that a player with every point (or none) still gets a finite rating.  On the
  Elo scale: 400 * log10 of the strength ratio, the first spec anchored at 1500.
- With ``grade=True`` every move is graded with ``gamelearn.solve(game).grade(state, move)`` and
  counted for the spec that played it: best, keeps, mistake, blunder.

Runners (:mod:`.runners`; identical results for the same arguments): in-process (``workers=1``),
local processes (``concurrent.futures.ProcessPoolExecutor``, the default, ``min(2, cpu)`` workers)
and Dask (``dask="local"`` starts a ``LocalCluster``, any other text is a scheduler address).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..games import Game, get_game
from ..keeper import Keeper, reading_keeper
from ..match import DEFAULT_MAX_PLIES, play_game
from ..players.registry import make_player
from ..solve import Grade, Solution, solve
from .runners import Interrupted, default_workers, run_all
from .statistics import wilson

#: The grades in the order tables show them.
GRADES: tuple[str, ...] = tuple(grade.value for grade in Grade)

ELO_ANCHOR = 1500.0


def game_seed(seed: int, pair: int, index: int) -> int:
    """The seed of game ``index`` of pair ``pair``: a hash, so nearby tournaments' seeds do not
    overlap (seed 1's game 1 is not seed 2's game 0); 48 bits, non-negative."""
    digest = hashlib.blake2b(f"tournament:{seed}:{pair}:{index}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


def pairings(count: int) -> list[tuple[int, int]]:
    """The round robin's pairs (i, j), i < j, in order; a pair's number is its place here."""
    return [(i, j) for i in range(count) for j in range(i + 1, count)]


# One pair: a picklable task and its outcome ------------------------------------------------------


@dataclass(frozen=True)
class PairTask:
    """Everything a worker needs to play one pair's games (names, not objects: it is pickled)."""

    game: str
    pair: int
    first: int  # index of spec i
    second: int  # index of spec j
    specs: tuple[str, str]
    games: int
    seed: int
    max_plies: int
    grade: bool


@dataclass(frozen=True)
class GameResult:
    """One game of the tournament, in the spec indices of the tournament."""

    pair: int
    index: int
    seed: int
    players: tuple[int, int]  # spec index moving first, spec index moving second
    winner: int | None  # the spec index that won; None for a draw
    end: str
    plies: int
    moves: tuple[str, ...]
    #: per side of this game (first mover, second mover): counts of best, keeps, mistake, blunder
    grades: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["players"] = list(self.players)
        data["moves"] = list(self.moves)
        data["grades"] = None if self.grades is None else [list(side) for side in self.grades]
        return data


def _grader(game: Game, solution: Solution, counts: list[list[int]]) -> Callable[[Hashable, str, Hashable], None]:
    """play_game's on_move: each move's grade counted for the side that played it."""

    def on_move(before: Hashable, move: str, after: Hashable) -> None:
        counts[game.to_move(before)][GRADES.index(solution.grade(before, move).value)] += 1

    return on_move


def pair_player(game: Game, spec: str, seed: int) -> Any:
    """A player for a pair: a stored learner loaded by the keeper (frozen, checked before the
    tournament) through a read-only store, which it never writes; any other made without opening
    the store."""
    player = make_player(game, spec, seed=seed)
    if Keeper.is_kept(player):
        reading_keeper().attach(player)
    return player


def play_pair(task: PairTask) -> list[GameResult]:
    """Play one pair's games in order with one player object per spec (learners keep learning)."""
    game = get_game(task.game)
    spec_indices = (task.first, task.second)
    players = [
        pair_player(game, spec, seed=game_seed(task.seed, task.pair, -1 - side)) for side, spec in enumerate(task.specs)
    ]
    solution = solve(game) if task.grade else None
    results = []
    for index in range(task.games):
        order = (0, 1) if index % 2 == 0 else (1, 0)  # which of the pair's two players moves first
        seat = [players[order[0]], players[order[1]]]
        counts = [[0] * len(GRADES), [0] * len(GRADES)]
        on_move = None if solution is None else _grader(game, solution, counts)
        seed = game_seed(task.seed, task.pair, index)
        record = play_game(game, seat, seed=seed, max_plies=task.max_plies, on_move=on_move)
        seated = (spec_indices[order[0]], spec_indices[order[1]])
        results.append(
            GameResult(
                pair=task.pair,
                index=index,
                seed=seed,
                players=seated,
                winner=None if record.winner is None else seated[record.winner],
                end=record.end.value,
                plies=record.plies,
                moves=record.moves,
                grades=None if solution is None else (tuple(counts[0]), tuple(counts[1])),
            )
        )
    return results


# Statistics ----------------------------------------------------------------------------------------


def wilson_interval(points: float, games: int) -> tuple[float, float]:
    """The score's Wilson 95% interval (draws as half points); (0, 1) for no games."""
    if games <= 0:
        return (0.0, 1.0)
    interval = wilson(points, games)
    return (interval.low, interval.high)


def bradley_terry_ratings(
    count: int, scores: dict[tuple[int, int], tuple[float, int]], prior_draws: float = 1.0, anchor: int = 0
) -> list[float]:
    """Elo-scale ratings fitted by maximum likelihood to ``scores[(i, j)] = (points of i against j,
    games)`` under the Bradley-Terry model P(i beats j) = g_i / (g_i + g_j).

    Hunter's (2004) minorize-maximize iteration: g_i <- W_i / sum_j n_ij / (g_i + g_j), W_i the
    points of i.  ``prior_draws`` virtual drawn games are added to every pair that played, so a
    player with every point (or none) still has a finite rating.  Rating = anchor's 1500 + 400 *
    log10(g_i / g_anchor)."""
    wins = [0.0] * count
    played: dict[tuple[int, int], float] = {}
    for (i, j), (points, games) in scores.items():
        if games <= 0:
            continue
        # A virtual draw is one more game and half a point to each side.
        wins[i] += points + prior_draws / 2
        wins[j] += games - points + prior_draws / 2
        key = (min(i, j), max(i, j))
        played[key] = played.get(key, 0.0) + games + prior_draws
    strength = [1.0] * count
    for _ in range(10_000):
        new = []
        for i in range(count):
            denominator = sum(
                n / (strength[i] + strength[j if a == i else a]) for (a, j), n in played.items() if i in (a, j)
            )
            new.append(wins[i] / denominator if denominator > 0 else strength[i])
        # Normalise (the model only fixes ratios) so the numbers stay in range.
        total = math.exp(sum(math.log(g) for g in new) / count)
        new = [g / total for g in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < 1e-10:
            break
    return [ELO_ANCHOR + 400 * math.log10(g / strength[anchor]) for g in strength]


# The tournament's result ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One player's line of the table."""

    spec: str
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    score: float
    interval: tuple[float, float]
    rating: float
    grades: dict[str, int] | None = None  # best, keeps, mistake, blunder: its moves' grades

    @property
    def moves(self) -> int:
        return sum(self.grades.values()) if self.grades else 0

    @property
    def best_share(self) -> float | None:
        """The share of its moves graded best; None when not graded or no moves."""
        if not self.grades or not self.moves:
            return None
        return self.grades["best"] / self.moves

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["interval"] = list(self.interval)
        data["best_share"] = self.best_share
        return data


@dataclass(frozen=True)
class PairStanding:
    """One pair's result, from the view of its first spec."""

    pair: int
    first: int
    second: int
    wins: int  # the first spec's wins
    draws: int
    losses: int  # the first spec's losses (the second's wins)
    games: int
    #: Different games among them (who moved first and every move): players that choose alike
    #: every time repeat a few games, and then the intervals, which count each game as an
    #: independent trial, are far too narrow.
    distinct: int = 0

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "points": self.points}


@dataclass(frozen=True)
class TournamentResult:
    game: str
    specs: tuple[str, ...]
    games_per_pair: int
    seed: int
    max_plies: int
    graded: bool
    games: tuple[GameResult, ...]
    pairs: tuple[PairStanding, ...] = field(default=())
    standings: tuple[Standing, ...] = field(default=())

    def pair(self, i: int, j: int) -> tuple[int, int, int]:
        """(wins, draws, losses) of spec i against spec j."""
        for standing in self.pairs:
            if (standing.first, standing.second) == (i, j):
                return (standing.wins, standing.draws, standing.losses)
            if (standing.first, standing.second) == (j, i):
                return (standing.losses, standing.draws, standing.wins)
        raise ValueError(f"no pair {i}, {j}")

    def to_dict(self, with_games: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "specs": list(self.specs),
            "games_per_pair": self.games_per_pair,
            "seed": self.seed,
            "max_plies": self.max_plies,
            "graded": self.graded,
            "rating_method": "Bradley-Terry maximum likelihood (MM), one virtual draw per pair, first spec = 1500",
            "pairs": [p.to_dict() for p in self.pairs],
            "standings": [s.to_dict() for s in self.standings],
        }
        if with_games:
            data["games"] = [g.to_dict() for g in self.games]
        return data


def summarize(
    game: str,
    specs: Sequence[str],
    games_per_pair: int,
    seed: int,
    max_plies: int,
    graded: bool,
    games: Sequence[GameResult],
) -> TournamentResult:
    """Tables from the games (sorted by pair and index first, so the runner's order does not matter)."""
    ordered = tuple(sorted(games, key=lambda g: (g.pair, g.index)))
    count = len(specs)
    pairs = []
    scores: dict[tuple[int, int], tuple[float, int]] = {}
    for number, (i, j) in enumerate(pairings(count)):
        own = [g for g in ordered if g.pair == number]
        wins = sum(g.winner == i for g in own)
        losses = sum(g.winner == j for g in own)
        draws = len(own) - wins - losses
        distinct = len({(g.players, tuple(g.moves)) for g in own})
        pairs.append(PairStanding(number, i, j, wins, draws, losses, len(own), distinct))
        scores[(i, j)] = (wins + draws / 2, len(own))
    ratings = bradley_terry_ratings(count, scores)
    standings = []
    for index, spec in enumerate(specs):
        wins = draws = losses = 0
        for standing in pairs:
            if standing.first == index:
                wins, draws, losses = wins + standing.wins, draws + standing.draws, losses + standing.losses
            elif standing.second == index:
                wins, draws, losses = wins + standing.losses, draws + standing.draws, losses + standing.wins
        played = wins + draws + losses
        points = wins + draws / 2
        grades = None
        if graded:
            totals = [0] * len(GRADES)
            for g in ordered:
                assert g.grades is not None  # graded tournaments grade every game
                for side in (0, 1):
                    if g.players[side] == index:
                        totals = [a + b for a, b in zip(totals, g.grades[side], strict=True)]
            grades = dict(zip(GRADES, totals, strict=True))
        standings.append(
            Standing(
                spec=spec,
                games=played,
                wins=wins,
                draws=draws,
                losses=losses,
                points=points,
                score=points / played if played else 0.0,
                interval=wilson_interval(points, played),
                rating=ratings[index],
                grades=grades,
            )
        )
    return TournamentResult(
        game=game,
        specs=tuple(specs),
        games_per_pair=games_per_pair,
        seed=seed,
        max_plies=max_plies,
        graded=graded,
        games=ordered,
        pairs=tuple(pairs),
        standings=tuple(standings),
    )


# Checking the arguments, then the runners ----------------------------------------------------------


def check_arguments(
    game: Game, specs: Sequence[str], games_per_pair: int, max_plies: int, grade: bool, workers: int
) -> None:
    """ValueError, naming what is wrong, before any game is played."""
    if len(specs) < 2:
        raise ValueError(f"a tournament needs at least 2 player specs, not {len(specs)}")
    if games_per_pair < 1:
        raise ValueError(f"games per pair must be at least 1, not {games_per_pair}")
    if max_plies < 1:
        raise ValueError(f"max plies must be at least 1, not {max_plies}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    for spec in specs:
        player = make_player(game, spec, seed=0)  # ValueError for an unknown spec or option
        if player.is_human:
            raise ValueError(f"{spec!r}: a tournament plays machines only, not a person")
        # A stored learner may be measured as it is kept (frozen: train=off, or a memory file).  One
        # that learns would be taught by every pair at once, each from its own copy, so its score
        # would measure no one learner: refused.
        if Keeper.is_kept(player) and getattr(player, "trains", False):
            raise ValueError(
                f"{spec!r}: a stored learner that learns would be taught by every pair at once; "
                "add train=off to measure it as stored, or drop its name to let it learn in memory"
            )
        if Keeper.is_kept(player) and getattr(player, "memory_path", None) is None:
            from ..keeper import default_keeper

            if not default_keeper().exists(player):  # type: ignore[arg-type]
                raise ValueError(f"{spec!r}: nothing is kept in the store under that name")
    if grade:
        try:
            solve(game)
        except ValueError as error:
            raise ValueError(
                f"grading {game.spec} needs its solved table: run `gamelearn solve {game.spec}` first ({error})"
            ) from None


def run_tournament(
    game: Game | str,
    specs: Sequence[str],
    games_per_pair: int,
    seed: int,
    max_plies: int = DEFAULT_MAX_PLIES,
    grade: bool = False,
    workers: int | None = None,
    dask: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> TournamentResult:
    """A round robin between ``specs`` (see the module's text for the policy).  ``progress(n)`` is
    called with the number of games just finished (a pair's at a time).  ValueError for bad
    arguments, before anything is played."""
    if isinstance(game, str):
        game = get_game(game)
    workers = default_workers() if workers is None else workers
    specs = [spec.strip() if isinstance(spec, str) else spec for spec in specs]
    check_arguments(game, specs, games_per_pair, max_plies, grade, workers)
    tasks = [
        PairTask(game.spec, number, i, j, (specs[i], specs[j]), games_per_pair, seed, max_plies, grade)
        for number, (i, j) in enumerate(pairings(len(specs)))
    ]

    def done(results: list[GameResult]) -> None:
        if progress is not None:
            progress(len(results))

    try:
        played = run_all(play_pair, tasks, workers, dask, done)
    except Interrupted as stopped:  # keep what finished: the pairs played to the end
        finished = [pair for pair in stopped.finished if pair is not None]
        partial = summarize(game.spec, specs, games_per_pair, seed, max_plies, grade, [r for p in finished for r in p])
        raise TournamentInterrupted(partial, len(finished), len(tasks)) from None
    collected = [result for pair in played for result in pair]
    return summarize(game.spec, specs, games_per_pair, seed, max_plies, grade, collected)


class TournamentInterrupted(KeyboardInterrupt):
    """A tournament stopped by ^C: ``result`` holds the pairs that had finished (``pairs`` of
    ``total``); the others count no games."""

    def __init__(self, result: TournamentResult, pairs: int, total: int) -> None:
        super().__init__(f"interrupted after {pairs} of {total} pairs")
        self.result, self.pairs, self.total = result, pairs, total
