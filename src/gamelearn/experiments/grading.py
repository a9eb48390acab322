"""Grading players on a suite of positions: the one yardstick (``gamelearn grade``, and the measure
of ``train``, ``curves`` and ``tournament --grade``).

A player is graded frozen and greedy (:func:`gamelearn.players.registry.graded_spec`: a learner
learns nothing, and exploration is switched off), and chooses one move in every position of the
suite (:mod:`.suites`), each position on its own: before each choice the player is reseeded from
the grade's seed and the position's place in the suite, so a stochastic player (random, MENACE's
beads, MCTS) is graded the same way on every run, in any order, in any number of processes.

The measures, each a share of the suite's positions:

* **keeps**: the chosen move keeps the position's value (a win stays a win, a draw a draw).  The
  headline figure; a suite holds no lost position, where every move would keep the value.
* **best**: the move perfect play would choose (for a win, the fastest; for a draw, any move that
  holds it).
* **blunders**: a win or a draw thrown to a loss.  A player that resigns blunders.

Each is split by phase (Teeko's placement and moving; the other games' opening and endgame) and by
value (the positions the mover wins, and the drawn ones).

A learner that plays one side (Gardner's HER and HIM play Black; a MENACE trained as X) is graded
on its side's positions (:meth:`.suites.Suite.of_side`), and on no other: in the small games' whole
suites, those where its side moves that it meets from the start while each of its moves keeps the
value, whatever the other side plays (HER: 15 of hexapawn's 27).  It never meets the other side's
positions on its turn, and it meets the 4 other Black positions only after a slip of its own, which
a learner that has learnt its side no longer makes: there its boxes keep their first beads.  The report names the side and the positions (:meth:`GradeReport.yardstick`); a
player says which side it plays by :meth:`~gamelearn.players.base.Player.side_played`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..games import Game, get_game
from ..keeper import Keeper, is_stored, reading_keeper
from ..players.base import Player
from ..players.knowledge import Learner
from ..players.registry import graded_spec, make_player
from .notebook import dataframe, percent, table
from .runners import default_workers, run_all
from .suites import Suite, SuitePosition, get_suite

#: The measures, in the order tables show them.
MEASURES = ("keeps", "best", "blunders")


def position_seed(seed: int, index: int) -> int:
    """The seed a player is given before choosing in the suite's position ``index``."""
    digest = hashlib.blake2b(f"grade:{seed}:{index}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


@dataclass(frozen=True)
class Tally:
    """Counts over some positions: how many, and how many moves kept, were best, blundered."""

    positions: int = 0
    keeps: int = 0
    best: int = 0
    blunders: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.positions + other.positions,
            self.keeps + other.keeps,
            self.best + other.best,
            self.blunders + other.blunders,
        )

    def shares(self) -> dict[str, float | None]:
        """Each measure as a share of the positions (None where there are none)."""
        if not self.positions:
            return dict.fromkeys(MEASURES)
        return {measure: getattr(self, measure) / self.positions for measure in MEASURES}


def judge(position: SuitePosition, move: str | None) -> Tally:
    """One position's tally for the move a player chose there (None: it resigned)."""
    if move is None:
        return Tally(1, 0, 0, 1)
    return Tally(1, int(move in position.keeping), int(move in position.best), int(move in position.losing))


@dataclass(frozen=True)
class GradeReport:
    """One player graded on one suite."""

    spec: str
    suite: str
    size: int
    keeps: float
    best: float
    blunders: float
    by_phase: dict[str, dict[str, float | None]] = field(default_factory=dict)
    by_value: dict[str, dict[str, float | None]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    #: The side whose positions were graded (0 moves first), None for both; ``size`` is then the
    #: positions where it moves, of the suite's ``suite_size``.
    side: int | None = None
    side_name: str = ""
    suite_size: int = 0

    def yardstick(self) -> str:
        """What the shares are of: 'hexapawn-v1, 27 positions', or for a one-sided learner
        'hexapawn-v1, Black's 15 of 27 positions'."""
        return yardstick_words(self.suite, self.size, self.suite_size or self.size, self.side_name)

    def _repr_html_(self) -> str:
        """A one-row table, as :func:`grades_html` shows many."""
        return grades_html([self])

    def to_dict(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "suite": self.suite,
            "size": self.size,
            "keeps": self.keeps,
            "best": self.best,
            "blunders": self.blunders,
            "by_phase": self.by_phase,
            "by_value": self.by_value,
            "counts": self.counts,
            "side": self.side,
            "side_name": self.side_name,
            "suite_size": self.suite_size or self.size,
        }


def side_name(game: Game[Any], side: int | None) -> str:
    """How a yardstick names a side: hexapawn's White and Black (Gardner's words), another game's
    symbol (tic-tac-toe's X and O); "" for both sides."""
    if side is None:
        return ""
    if game.name == "hexapawn":
        return ("White", "Black")[side]
    return game.symbols[side]


def yardstick_words(suite: str, positions: int, suite_size: int, side: str = "") -> str:
    """'hexapawn-v1, 27 positions' or 'hexapawn-v1, Black's 15 of 27 positions'."""
    if not side:
        return f"{suite}, {suite_size:,} positions"
    return f"{suite}, {side}'s {positions:,} of {suite_size:,} positions"


def grades_html(reports: Sequence[GradeReport]) -> str:
    """Reports as a notebook shows them: a row a spec, keeps, best, blunders, then keeps by phase
    and by value."""
    phases = list(dict.fromkeys(phase for r in reports for phase in r.by_phase))
    values = list(dict.fromkeys(value for r in reports for value in r.by_value))
    columns = ["spec", "keeps", "best", "blunders", *(f"keeps, {name}" for name in [*phases, *values])]
    rows = [
        [r.spec, percent(r.keeps), percent(r.best), percent(r.blunders)]
        + [percent(r.by_phase.get(phase, {}).get("keeps")) for phase in phases]
        + [percent(r.by_value.get(value, {}).get("keeps")) for value in values]
        for r in reports
    ]
    suites = "; ".join(dict.fromkeys(r.yardstick() for r in reports))
    return table(columns, rows, f"graded frozen and greedy on {suites}")


def report(spec: str, suite: Suite, tallies: Sequence[Tally], side: int | None = None) -> GradeReport:
    """The report of ``spec`` from one tally per position of ``suite`` where ``side`` moves (every
    position for None), in the suite's order."""
    total = sum(tallies, Tally())
    by_phase: dict[str, Tally] = {}
    by_value: dict[str, Tally] = {}
    for position, tally in zip(suite.of_side(side), tallies, strict=True):
        by_phase[position.phase] = by_phase.get(position.phase, Tally()) + tally
        by_value[position.value_name] = by_value.get(position.value_name, Tally()) + tally
    shares = total.shares()
    return GradeReport(
        spec=spec,
        suite=suite.name,
        size=total.positions,
        keeps=shares["keeps"] or 0.0,
        best=shares["best"] or 0.0,
        blunders=shares["blunders"] or 0.0,
        by_phase={phase: by_phase[phase].shares() for phase in suite.phases() if phase in by_phase},
        by_value={value: by_value[value].shares() for value in ("win", "draw") if value in by_value},
        counts={"positions": total.positions, "keeps": total.keeps, "best": total.best, "blunders": total.blunders},
        side=side,
        side_name=side_name(get_game(suite.game), side),
        suite_size=len(suite),
    )


def choose_all(
    player: Player[Any], states: Sequence[Any], seed: int, start: int = 0, places: Sequence[int] | None = None
) -> list[str | None]:
    """The player's move in each state, reseeded before each by its place in the suite (``start``,
    ``start + 1``, ... or ``places``; see the module's text); a player that chooses many at once
    (az's batched search) is asked once."""
    places = range(start, start + len(states)) if places is None else places
    many = getattr(player, "choose_many", None)
    if many is not None:
        player.reseed(position_seed(seed, places[0] if places else start))
        return list(many(list(states)))
    moves: list[str | None] = []
    for place, state in zip(places, states, strict=True):
        player.reseed(position_seed(seed, place))
        moves.append(player.choose(state))
    return moves


def grade_player(
    player: Player[Any], suite: Suite, seed: int = 0, spec: str | None = None, side: int | None = None
) -> GradeReport:
    """Grade a player already made frozen and greedy (a frozen copy of a learner in training) on
    every position of ``suite`` where ``side`` moves (None: every position).  Each position keeps
    its seed (its place in the whole suite), so a side's grade is the same positions' choices as
    the whole suite's."""
    chosen = places(suite, side)
    moves = choose_all(player, [p.state for _, p in chosen], seed, places=[index for index, _ in chosen])
    tallies = [judge(position, move) for (_, position), move in zip(chosen, moves, strict=True)]
    return report(spec or player.spec, suite, tallies, side)


def graded_player(game: Game[Any], spec: str, seed: int = 0) -> Player[Any]:
    """The player ``spec`` stands for, frozen and greedy; a stored learner comes loaded through a
    read-only store, so grading workers never wait on a writer's lock (:func:`check_arguments`
    has made sure something is kept under its name)."""
    player = make_player(game, graded_spec(game, spec), seed=seed)
    if Keeper.is_kept(player):
        reading_keeper().attach(player)
    return player


def spec_side(game: Game[Any], spec: str) -> int | None:
    """The side ``spec``'s player plays, as it says (:meth:`Player.side_played`; a stored learner
    from what it keeps), None for both: the side its grade is measured on."""
    player = make_player(game, graded_spec(game, spec), seed=0)
    if type(player).side_played is Player.side_played:
        return None  # plays both: nothing to load
    if Keeper.is_kept(player):
        reading_keeper().attach(player)
    return player.side_played()


@dataclass(frozen=True)
class GradeTask:
    """One run of one spec over a slice of the suite's positions where ``side`` moves (names, not
    objects: it is pickled)."""

    game: str
    spec: str
    suite: str
    seed: int
    start: int
    stop: int
    side: int | None = None


def places(suite: Suite, side: int | None) -> list[tuple[int, SuitePosition]]:
    """The positions ``side`` is graded on (all for None; :meth:`Suite.of_side`), each with its
    place in the whole suite."""
    graded = {id(p) for p in suite.of_side(side)}
    return [(index, p) for index, p in enumerate(suite.positions) if id(p) in graded]


def grade_slice(task: GradeTask) -> list[Tally]:
    game = get_game(task.game)
    suite = get_suite(game, task.suite)
    player = graded_player(game, task.spec, seed=task.seed)
    chosen = places(suite, task.side)[task.start : task.stop]
    moves = choose_all(player, [p.state for _, p in chosen], task.seed, places=[index for index, _ in chosen])
    return [judge(position, move) for (_, position), move in zip(chosen, moves, strict=True)]


def check_arguments(game: Game[Any], specs: Sequence[str], suite: str | None) -> Suite:
    """The suite, once every spec is known to make a machine player (ValueError naming what is
    wrong, before anything is graded)."""
    if not specs:
        raise ValueError("name at least one player spec to grade")
    for spec in specs:
        player = make_player(game, graded_spec(game, spec), seed=0)
        if player.is_human:
            raise ValueError(f"{spec!r}: grading measures machines, not a person")
        if isinstance(player, Learner) and Keeper.is_kept(player):
            if not is_stored(player):
                raise ValueError(f"{spec!r}: nothing is kept in the store under that name")
    return get_suite(game, suite)


@dataclass(frozen=True)
class GradeOptions:
    """What grading is asked, each default written here once: ``gamelearn grade`` fills it from its
    options, ``gamelearn.grade`` from its arguments.  Each of ``specs``, frozen and greedy, on
    ``suite`` (the game's default suite when None), on the positions of the side it plays
    (:meth:`.suites.Suite.of_side`; ``sides``, one a spec, 0 moves first, None both; by default each player's own word,
    :func:`spec_side`); ``workers`` local processes (None: Teeko's the machine's, the small games'
    one), or a ``dask`` cluster."""

    game: Game[Any] | str
    specs: Sequence[str]
    suite: str | None = None
    seed: int = 0
    workers: int | None = None
    dask: str | None = None
    sides: Sequence[int | None] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "specs", tuple(spec.strip() for spec in self.specs))
        if self.sides is not None:
            object.__setattr__(self, "sides", tuple(self.sides))

    @property
    def chosen(self) -> Game[Any]:
        """The game, made from its name where a name was given."""
        return get_game(self.game) if isinstance(self.game, str) else self.game

    def check(self) -> tuple[Suite, list[int | None]]:
        """The suite and each spec's side, once every spec is known to make a machine player
        (ValueError naming what is wrong, before anything is graded)."""
        game = self.chosen
        chosen = check_arguments(game, self.specs, self.suite)
        sides = [spec_side(game, spec) for spec in self.specs] if self.sides is None else list(self.sides)
        if len(sides) != len(self.specs):
            raise ValueError(f"give one side a spec: {len(sides)} sides for {len(self.specs)} specs")
        return chosen, sides

    def positions(self) -> int:
        """The positions graded in all (what progress counts); ValueError as :meth:`check`."""
        chosen, sides = self.check()
        return sum(len(chosen.of_side(side)) for side in sides)


class Grades(list[GradeReport]):
    """Grading's reports, one a spec in the order given (a list), as a table too."""

    def to_dict(self) -> dict[str, Any]:
        return {"grades": [report.to_dict() for report in self]}

    def _repr_html_(self) -> str:
        return grades_html(self)

    def to_dataframe(self) -> Any:
        """A row a spec: its suite, the side graded ("" for both), the positions graded, and the
        shares keeps, best, blunders."""
        columns = ("spec", "suite", "side_name", "size", "keeps", "best", "blunders")
        return dataframe([{key: report.to_dict()[key] for key in columns} for report in self], columns)


def run_grade(options: GradeOptions, progress: Callable[[int], None] | None = None) -> Grades:
    """Grade each spec as ``options`` ask.  ``progress(n)`` after each slice of ``n`` positions.
    ValueError for a bad spec or suite, before anything is graded."""
    game, specs, seed, workers, dask = options.chosen, list(options.specs), options.seed, options.workers, options.dask
    chosen, sides = options.check()
    if workers is None:  # Teeko's players think for long: spread them; the small games' are quicker in-process
        workers = default_workers() if game.name == "teeko" else 1
    # Slices small enough to spread over the workers and show progress, large enough that making
    # a player (and warming its compiled kernels) is paid rarely.
    slices = []
    for index, side in enumerate(sides):
        size = len(places(chosen, side))
        step = max(1, min(250, -(-size // max(1, workers))))
        slices += [(index, start, min(size, start + step)) for start in range(0, size, step)]
    tasks = [
        GradeTask(game.spec, specs[index], chosen.name, seed, start, stop, sides[index])
        for index, start, stop in slices
    ]

    def done(tallies: list[Tally]) -> None:
        if progress is not None:
            progress(len(tallies))

    results = run_all(grade_slice, tasks, workers, dask, done)
    reports = []
    for index, spec in enumerate(specs):
        tallies = [
            tally for (owner, _, _), found in zip(slices, results, strict=True) if owner == index for tally in found
        ]
        reports.append(report(spec, chosen, tallies, sides[index]))
    return Grades(reports)
