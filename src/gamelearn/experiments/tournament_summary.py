"""A tournament's tables from its games (:mod:`.tournament` plays them): each game's result, the
standings (score and its intervals, rating, grades), each pair's line, and the result that holds
them.  The policy of the statistics is :mod:`.tournament`'s docstring's: points 1, 1/2, 0; the
score's 95% interval a t interval over game pairs (:mod:`.pairs`), the Wilson interval over games
beside it (:mod:`.statistics`); Bradley-Terry ratings by Hunter's (2004) minorize-maximize
iteration with a bootstrap over game pairs (:mod:`.ratings`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..solver import Grade
from .grading import GradeReport
from .notebook import dataframe, percent, table
from .openings import Book
from .pairs import Sprt, pair_interval, pentanomial
from .ratings import bootstrap_ratings, bradley_terry_ratings
from .statistics import wilson

#: The grades in the order tables show them.
GRADES: tuple[str, ...] = tuple(grade.value for grade in Grade)


def pairings(count: int) -> list[tuple[int, int]]:
    """The round robin's pairs (i, j), i < j, in order; a pair's number is its place here."""
    return [(i, j) for i in range(count) for j in range(i + 1, count)]


@dataclass(frozen=True)
class GameResult:
    """One game of the tournament, in the spec indices of the tournament."""

    pair: int
    index: int
    seed: int
    players: tuple[int, int]  # spec index moving first, spec index moving second
    winner: int | None  # the spec index that won; None for a draw
    end: str  # the End of the record ("win", "draw", ...), or "forfeit": a player that would hang lost
    plies: int
    moves: tuple[str, ...]
    #: per side of this game (first mover, second mover): counts of best, keeps, mistake, blunder
    grades: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    #: the book's moves played before the players chose; the game is opening + moves from the start
    opening: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["players"] = list(self.players)
        data["moves"] = list(self.moves)
        data["opening"] = list(self.opening)
        data["grades"] = None if self.grades is None else [list(side) for side in self.grades]
        return data


def points_of(result: GameResult, spec: int) -> float:
    """The points ``spec`` took from one game: 1, 1/2 or 0."""
    return 0.5 if result.winner is None else float(result.winner == spec)


def game_pairs(games: Sequence[GameResult], spec: int) -> tuple[list[float], list[float]]:
    """(points of ``spec`` in each whole game pair, points in each game left without its pair) for
    the games of one pair of specs, in index order: games 2m and 2m + 1 are pair m."""
    by_index = {g.index: g for g in games}
    whole, alone = [], []
    for index, result in sorted(by_index.items()):
        partner = index + 1 if index % 2 == 0 else index - 1
        if partner not in by_index:
            alone.append(points_of(result, spec))
        elif index % 2 == 0:
            whole.append(points_of(result, spec) + points_of(by_index[partner], spec))
    return whole, alone


# Statistics ----------------------------------------------------------------------------------------


def wilson_interval(points: float, games: int) -> tuple[float, float]:
    """The score's Wilson 95% interval (draws as half points); (0, 1) for no games."""
    if games <= 0:
        return (0.0, 1.0)
    interval = wilson(points, games)
    return (interval.low, interval.high)


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
    interval: tuple[float, float]  # the score's 95% t interval over its game pairs
    rating: float
    grades: dict[str, int] | None = None  # best, keeps, mistake, blunder: its moves' grades
    wilson: tuple[float, float] = (0.0, 1.0)  # the score's Wilson 95% interval over games
    rating_interval: tuple[float, float] = (0.0, 0.0)  # bootstrap over game pairs, 95%
    pairs: int = 0  # its whole game pairs

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
        data["wilson"] = list(self.wilson)
        data["rating_interval"] = list(self.rating_interval)
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
    #: game pairs (one opening, both colours) giving the first spec 0, 1/2, 1, 3/2, 2 points of 2
    pentanomial: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)
    #: the first spec's score over the game pairs, with its 95% t interval over them
    pair_score: float = 0.5
    pair_interval: tuple[float, float] = (0.0, 1.0)
    unpaired: int = 0  # games without their pair (an odd number of games)

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    @property
    def pairs(self) -> int:
        return sum(self.pentanomial)

    def to_dict(self) -> dict[str, Any]:
        data = {**asdict(self), "points": self.points, "pairs": self.pairs}
        data["pentanomial"] = list(self.pentanomial)
        data["pair_interval"] = list(self.pair_interval)
        return data


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
    book: Book = field(default_factory=Book)
    #: the sequential test's report (Sprt.report), None without one
    sprt: dict[str, Any] | None = None
    #: with grade: each spec graded on the game's suite, frozen and greedy (the yardstick)
    suite_grades: tuple[GradeReport, ...] = ()

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
            "rating_interval_method": "95% percentile bootstrap over game pairs, 200 resamples, seeded",
            "interval_method": "score: Student t 95% over game pairs; wilson: Wilson 95% over games",
            "openings": self.book.to_dict(),
            "sprt": self.sprt,
            "suite_grades": [report.to_dict() for report in self.suite_grades],
            "pairs": [p.to_dict() for p in self.pairs],
            "standings": [s.to_dict() for s in self.standings],
        }
        if with_games:
            data["games"] = [g.to_dict() for g in self.games]
        return data

    def _repr_html_(self) -> str:
        """The standings as a notebook shows them: a row a spec (score and its interval over game
        pairs, rating and its bootstrap interval, wins, draws, losses; with grades, best moves)."""
        columns = ["spec", "score", "95% (pairs)", "rating", "95% (bootstrap)", "W", "D", "L"]
        if self.graded:
            columns.append("best moves")
        rows = []
        for s in self.standings:
            row: list[Any] = [s.spec, percent(s.score), f"{percent(s.interval[0])}-{percent(s.interval[1])}"]
            row += [f"{s.rating:.0f}", f"{s.rating_interval[0]:.0f}-{s.rating_interval[1]:.0f}"]
            row += [s.wins, s.draws, s.losses]
            if self.graded:
                row.append(percent(s.best_share))
            rows.append(row)
        distinct = sum(p.distinct for p in self.pairs)
        caption = (
            f"{self.game}: {len(self.games):,} games ({distinct:,} different), "
            f"{self.games_per_pair} a pair, seed {self.seed}"
        )
        if self.sprt:
            caption += f"; SPRT: {self.sprt.get('decision', self.sprt)}"
        return table(columns, rows, caption)

    def to_dataframe(self, table: str = "standings") -> Any:
        """One of the result's tables as a pandas DataFrame (pandas imported here): "standings"
        (a row a spec, in the order given), "pairs" (a row a pair of specs) or "games"."""
        if table not in ("standings", "pairs", "games"):
            raise ValueError(f"table is 'standings', 'pairs' or 'games', not {table!r}")
        rows: tuple[Standing | PairStanding | GameResult, ...] = getattr(self, table)
        return dataframe([row.to_dict() for row in rows])


def _pair_standing(
    number: int, i: int, j: int, own: Sequence[GameResult]
) -> tuple[PairStanding, list[float], list[float]]:
    """Pair ``number``'s standing (spec ``i`` against ``j``, from ``i``'s side), with its whole game
    pairs' points and its unpaired games' points for ``i``."""
    wins = sum(g.winner == i for g in own)
    losses = sum(g.winner == j for g in own)
    draws = len(own) - wins - losses
    distinct = len({(g.players, g.opening, tuple(g.moves)) for g in own})
    whole, alone = game_pairs(own, i)
    interval = pair_interval(whole)
    standing = PairStanding(
        number,
        i,
        j,
        wins,
        draws,
        losses,
        len(own),
        distinct,
        pentanomial(whole),
        interval.estimate,
        (interval.low, interval.high),
        len(alone),
    )
    return standing, whole, alone


def _record(index: int, pairs: Sequence[PairStanding]) -> tuple[int, int, int]:
    """Spec ``index``'s wins, draws and losses over every pair it is in."""
    wins = draws = losses = 0
    for standing in pairs:
        if standing.first == index:
            wins, draws, losses = wins + standing.wins, draws + standing.draws, losses + standing.losses
        elif standing.second == index:
            wins, draws, losses = wins + standing.losses, draws + standing.draws, losses + standing.wins
    return wins, draws, losses


def _grade_totals(index: int, games: Sequence[GameResult]) -> dict[str, int]:
    """Spec ``index``'s move grades summed over every game it played, by grade."""
    totals = [0] * len(GRADES)
    for g in games:
        assert g.grades is not None  # graded tournaments grade every game
        for side in (0, 1):
            if g.players[side] == index:
                totals = [a + b for a, b in zip(totals, g.grades[side], strict=True)]
    return dict(zip(GRADES, totals, strict=True))


def summarize(
    game: str,
    specs: Sequence[str],
    games_per_pair: int,
    seed: int,
    max_plies: int,
    graded: bool,
    games: Sequence[GameResult],
    book: Book | None = None,
    sprt: Sprt | None = None,
) -> TournamentResult:
    """Tables from the games (sorted by pair and index first, so the runner's order does not matter)."""
    ordered = tuple(sorted(games, key=lambda g: (g.pair, g.index)))
    count = len(specs)
    pairs = []
    scores: dict[tuple[int, int], tuple[float, int]] = {}
    units: dict[tuple[int, int], list[tuple[float, int]]] = {}  # what the bootstrap resamples
    pair_points: list[list[float]] = [[] for _ in specs]  # each spec's points in its game pairs
    for number, (i, j) in enumerate(pairings(count)):
        own = [g for g in ordered if g.pair == number]
        standing, whole, alone = _pair_standing(number, i, j, own)
        pairs.append(standing)
        scores[(i, j)] = (standing.wins + standing.draws / 2, len(own))
        units[(i, j)] = [(points, 2) for points in whole] + [(points, 1) for points in alone]
        pair_points[i] += whole
        pair_points[j] += [2 - points for points in whole]
    ratings = bradley_terry_ratings(count, scores)
    rating_intervals = bootstrap_ratings(count, units, seed=seed)
    standings = []
    for index, spec in enumerate(specs):
        wins, draws, losses = _record(index, pairs)
        played = wins + draws + losses
        points = wins + draws / 2
        over_pairs = pair_interval(pair_points[index])
        standings.append(
            Standing(
                spec=spec,
                games=played,
                wins=wins,
                draws=draws,
                losses=losses,
                points=points,
                score=points / played if played else 0.0,
                interval=(over_pairs.low, over_pairs.high),
                rating=ratings[index],
                grades=_grade_totals(index, ordered) if graded else None,
                wilson=wilson_interval(points, played),
                rating_interval=rating_intervals[index],
                pairs=len(pair_points[index]),
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
        book=_played(book or Book(), ordered),
        sprt=None if sprt is None else sprt.report(pairs[0].pentanomial),
    )


def _played(book: Book, games: Sequence[GameResult]) -> Book:
    """The book with ``used`` cut to the openings some game started from (a GSPRT that decided,
    or an interrupt, leaves the rest unplayed)."""
    if not book.used:
        return book
    reached = max((g.index // 2 + 1 for g in games), default=0)
    return replace(book, used=book.used[:reached])
