"""Round-robin tournaments between player specs, every move optionally graded against the perfect
player (the experiments layer: "tournaments, grading against the perfect player ...
runners: local processes (default) and a Dask cluster").

The policy, in one place:

- Every pair of specs (i < j, in the order given) plays ``games_per_pair`` games.  Game ``k`` of a
  pair has spec i moving first when ``k`` is even and spec j when it is odd, so each side moves first
  in half the games (one more for i when the number is odd).
- Openings (:mod:`.openings`): with a balanced book, the default where the game has one, games
  ``2m`` and ``2m + 1`` of every pair of specs start from the same opening, the ``m``-th of the
  book in a seeded order (cycled when the book is shorter), once with each colour (an odd last
  game is left without its pair).  Without a book (hexapawn, ``openings="none"``) the same two games
  start from the start.  Either way games ``2m`` and ``2m + 1`` are a *game pair*, the trial of
  the statistics (:mod:`.pairs`): the pentanomial, the score's interval over pairs, the GSPRT.
- Game ``k`` of pair ``p`` is played as ``play_game(game, players, seed=game_seed(seed, p, k),
  max_plies=..., opening=...)`` plays it, except that a player that would hang for ever (the
  original thesis program's opening meeting a position it never foresaw) loses it by forfeit.  A game between players that do not learn replays on its own from that seed;
  a learner's game replays after the games before it in its pair.
- One player object per spec per pair: it plays both colours against that opponent and learns from
  every game of the pair (``learn(record, side)`` with the side it had), in memory.  A stored
  learner is loaded by the keeper and must be frozen (``train=off``) or read-only (a memory file).  Pairs start from fresh
  players, so they are independent tasks and the result does not depend on the order pairs finish
  in; the games within a pair run in order.
- Points are 1 for a win, 1/2 for a draw (a repetition or the ply cap included), 0 for a loss.  The
  score is points / games; its 95% interval is a t interval over the game pairs; the Wilson
  interval over games (draws as half a success, :mod:`.statistics`) is kept beside it, labelled.
- Ratings (:mod:`.ratings`): a Bradley-Terry model fitted by maximum likelihood to all games (each
  game a score of 1, 1/2 or 0), with Hunter's (2004) minorize-maximize iteration, plus one virtual
  drawn game per pair as a prior so that a player with every point (or none) still gets a finite
  rating.  On the Elo scale: 400 * log10 of the strength ratio, the first spec anchored at 1500.
  Each rating has a 95% interval from a bootstrap over game pairs, seeded by the tournament's seed.
- With ``sprt`` (two specs only) the games run in order and stop after the first game pair at
  which the GSPRT decides (:class:`.pairs.Sprt`), or after ``games_per_pair`` games.
- With ``grade=True`` every move is graded with ``gamelearn.solve(game).grade(state, move)`` and
  counted for the spec that played it: best, keeps, mistake, blunder.

Runners (:mod:`.runners`; identical results for the same arguments): in-process (``workers=1``),
local processes (``concurrent.futures.ProcessPoolExecutor``, the default, ``min(2, cpu)`` workers)
and Dask (``dask="local"`` starts a ``LocalCluster``, any other text is a scheduler address).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..games import Game, get_game
from ..keeper import Keeper, is_stored, reading_keeper
from ..match import DEFAULT_MAX_PLIES, GameRecord, Match
from ..players.hangs import NoMoveError, OpeningHang
from ..players.registry import make_player
from ..solver import Solution, solve
from .grading import GradeOptions, run_grade
from .openings import choose_book, parse_openings
from .pairs import Sprt, pentanomial
from .progress import GameCounter
from .ratings import bradley_terry_ratings as bradley_terry_ratings
from .runners import Interrupted, default_workers, run_all
from .tournament_games import TournamentInterrupted, game_channel, kept_games
from .tournament_summary import GRADES, GameResult, TournamentResult, game_pairs, pairings, summarize
from .tournament_summary import PairStanding as PairStanding  # the tables, where callers found them
from .tournament_summary import Standing as Standing
from .tournament_summary import points_of as points_of
from .tournament_summary import wilson_interval as wilson_interval


def game_seed(seed: int, pair: int, index: int) -> int:
    """The seed of game ``index`` of pair ``pair``: a hash, so nearby tournaments' seeds do not
    overlap (seed 1's game 1 is not seed 2's game 0); 48 bits, non-negative."""
    digest = hashlib.blake2b(f"tournament:{seed}:{pair}:{index}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


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
    #: the opening of game pair m is openings[m]; () plays every game from the start
    openings: tuple[tuple[str, ...], ...] = ()
    sprt: Sprt | None = None
    #: a queue that hears (pair, game index) after each game, for a progress bar by games (None: none)
    heard: Any = None
    #: where each finished game is also sent (tournament_games.game_channel), or None
    report: Any = None


def _grader(game: Game[Any], solution: Solution, counts: list[list[int]]) -> Callable[[Hashable, str, Hashable], None]:
    """play_game's on_move: each move's grade counted for the side that played it."""

    def on_move(before: Hashable, move: str, after: Hashable) -> None:
        counts[game.to_move(before)][GRADES.index(solution.grade(before, move).value)] += 1

    return on_move


def pair_player(game: Game[Any], spec: str, seed: int) -> Any:
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
    results: list[GameResult] = []
    for index in range(task.games):
        if task.sprt is not None and index % 2 == 0 and index and task.sprt.decide(_pentanomial_of(results))[1]:
            break  # the sequential test has decided after the last game pair
        opening = task.openings[index // 2] if task.openings else ()
        order = (0, 1) if index % 2 == 0 else (1, 0)  # which of the pair's two players moves first
        seat = [players[order[0]], players[order[1]]]
        counts = [[0] * len(GRADES), [0] * len(GRADES)]
        on_move = None if solution is None else _grader(game, solution, counts)
        seed = game_seed(task.seed, task.pair, index)
        record, forfeit = play_one(game, seat, seed, task.max_plies, on_move, opening)
        seated = (spec_indices[order[0]], spec_indices[order[1]])
        results.append(
            GameResult(
                pair=task.pair,
                index=index,
                seed=seed,
                players=seated,
                winner=None if record.winner is None else seated[record.winner],
                end="forfeit" if forfeit else record.end.value,
                plies=record.plies,
                moves=record.moves,
                grades=None if solution is None else (tuple(counts[0]), tuple(counts[1])),
                opening=opening,
            )
        )
        if task.heard is not None:
            task.heard.put((task.pair, index))
        if task.report is not None:  # kept if the tournament is interrupted before the pair ends
            task.report.put(results[-1])
    return results


#: What a player raises where the program it reproduces would loop for ever (``thesis:original=on``
#: meeting a position its opening code never foresaw, as a book's opening can bring about).
HANGS: tuple[type[Exception], ...] = (OpeningHang, NoMoveError)


def play_one(
    game: Game[Any],
    seat: Sequence[Any],
    seed: int,
    max_plies: int,
    on_move: Callable[[Hashable, str, Hashable], None] | None,
    opening: tuple[str, ...],
) -> tuple[GameRecord[Any], bool]:
    """One game, as ``play_game`` plays it, except that a player that would hang (:data:`HANGS`)
    loses the game by forfeit (End.RESIGN in the record, True beside it), as an engine that hangs
    loses on time."""
    forfeit = False
    match = Match(game, seat, seed=seed, max_plies=max_plies, learn=False, opening=opening)
    while match.end is None:
        before = match.state
        try:
            move = match.advance()
        except HANGS:
            match.resign(match.to_move)
            forfeit = True
            break
        if move is not None and on_move is not None:
            on_move(before, move, match.state)
    match.learn_from_game()
    assert match.record is not None  # a finished match has its record
    return match.record, forfeit


def _pentanomial_of(results: Sequence[GameResult]) -> tuple[int, int, int, int, int]:
    """The pentanomial of the first spec of a pair's games so far (play_pair's view)."""
    first = results[0].players[0] if results else 0
    return pentanomial(game_pairs(results, first)[0])


# Checking the arguments, then the runners ----------------------------------------------------------


@dataclass(frozen=True)
class TournamentOptions:
    """What a tournament is asked, each default written here once: ``gamelearn tournament`` fills
    it from its options, ``gamelearn.tournament`` from its arguments.  ``games`` games a pair of
    ``specs``; ``openings`` "auto" (the balanced book where the game has one, else the start),
    "balanced", "balanced:plies=K", "none" or a list of move sequences (:mod:`.openings`);
    ``sprt`` (ELO0, ELO1) or a :class:`~.pairs.Sprt` stops a two-spec match when the GSPRT
    decides; ``workers`` local processes (None: the machine's), or a ``dask`` cluster."""

    game: Game[Any] | str
    specs: Sequence[str]
    games: int = 10
    openings: str | Sequence[Sequence[str]] = "auto"
    seed: int = 0
    max_plies: int = DEFAULT_MAX_PLIES
    grade: bool = False
    sprt: tuple[float, float] | Sprt | None = None
    workers: int | None = None
    dask: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "specs", tuple(spec.strip() for spec in self.specs))
        if isinstance(self.sprt, tuple):
            object.__setattr__(self, "sprt", Sprt(*self.sprt))

    @property
    def chosen(self) -> Game[Any]:
        """The game, made from its name where a name was given."""
        return get_game(self.game) if isinstance(self.game, str) else self.game

    @property
    def test(self) -> Sprt | None:
        """The sequential test, if any."""
        return self.sprt if isinstance(self.sprt, Sprt) else None

    @property
    def total_games(self) -> int:
        """The games of every pair, when none stops early."""
        return len(self.specs) * (len(self.specs) - 1) // 2 * self.games

    def check(self) -> tuple[str | Sequence[Sequence[str]], int | None]:
        """ValueError, naming what is wrong, before any game is played; the openings read (mode or
        book, plies or None)."""
        game = self.chosen
        book = parse_openings(self.openings, game)
        specs, test = self.specs, self.test
        if len(specs) < 2:
            raise ValueError(f"a tournament needs at least 2 player specs, not {len(specs)}")
        if test is not None and len(specs) != 2:
            raise ValueError(f"--sprt tests one player against another: give exactly 2 specs, not {len(specs)}")
        if self.games < 1:
            raise ValueError(f"games per pair must be at least 1, not {self.games}")
        if self.max_plies < 1:
            raise ValueError(f"max plies must be at least 1, not {self.max_plies}")
        if self.workers is not None and self.workers < 1:
            raise ValueError(f"workers must be at least 1, not {self.workers}")
        for spec in specs:
            _check_player(game, spec)
        if self.grade:
            try:
                solve(game)
            except ValueError as error:
                raise ValueError(
                    f"grading {game.spec} needs its solved table: run `gamelearn solve {game.spec}` first ({error})"
                ) from None
        return book


def _check_player(game: Game[Any], spec: str) -> None:
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
    if Keeper.is_kept(player) and not is_stored(player):  # type: ignore[arg-type]
        raise ValueError(f"{spec!r}: nothing is kept in the store under that name")


def run_tournament(options: TournamentOptions, progress: Callable[[int], None] | None = None) -> TournamentResult:
    """The round robin ``options`` ask for (see the module's text for the policy).  ``progress(n)``
    is called with the number of games just finished (one as each game ends, wherever it runs; the
    rest of a pair whose result comes first).  ValueError for bad options, before anything is
    played; :class:`~.tournament_games.TournamentInterrupted` on ^C, with the games that had
    finished."""
    openings, opening_plies = options.check()
    game, specs, sprt, dask = options.chosen, list(options.specs), options.test, options.dask
    games_per_pair, seed, max_plies, grade = options.games, options.seed, options.max_plies, options.grade
    workers = default_workers() if options.workers is None else options.workers
    book = choose_book(game, openings, opening_plies, games_per_pair, seed)
    pairs = pairings(len(specs))
    inline = dask is None and min(workers, len(pairs)) == 1
    # progress a game at a time, wherever the pairs run (from Dask workers, as events to the client)
    counter = None if progress is None else GameCounter(progress, not inline and dask is None, dask is not None)
    heard = None if counter is None else counter.queue
    listen = None if counter is None or dask is None else counter.listen

    def done(results: list[GameResult]) -> None:
        if counter is not None and results:
            counter.finish(results[0].pair, len(results))

    def table(games: list[GameResult]) -> TournamentResult:
        return summarize(game.spec, specs, games_per_pair, seed, max_plies, grade, games, book, sprt)

    try:
        with game_channel(inline, dask) as channel:
            tasks = [
                PairTask(game.spec, n, i, j, (specs[i], specs[j]), games_per_pair, seed, max_plies, grade, book.used, sprt,
                         heard, channel)
                for n, (i, j) in enumerate(pairs)
            ]  # fmt: skip
            try:
                played = run_all(play_pair, tasks, workers, dask, done, listen)
            except KeyboardInterrupt as stopped:  # keep what finished: the pairs played to the end, and the games
                pairs_done = stopped.finished if isinstance(stopped, Interrupted) else [None] * len(tasks)
                kept, finished = kept_games(pairs_done, channel, games_per_pair)
                raise TournamentInterrupted(table(kept), finished, len(tasks)) from None
    finally:
        if counter is not None:
            counter.close()
    result = table([result for pair in played for result in pair])
    if not grade:
        return result
    # The yardstick beside the in-game grades: every spec as given (a learner in memory as it starts).
    graded = run_grade(GradeOptions(game, specs, seed=seed, workers=workers, dask=dask))
    return replace(result, suite_grades=tuple(graded))
