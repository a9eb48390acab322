"""The classroom experiments with Gardner's matchbox learners (1962): many fresh HERs (or HIMs)
trained against Random and Sharp, the bead check against the exact solution, Gardner's chart, the learning curve;
and MENACE trained against random, the perfect player and itself.

Each run goes through the fast path (``players/matchbox/fast.py``), which plays the same games as
``play_game`` with the Player objects and the same seeds: game ``g`` of learner ``n`` in a run
seeded ``s`` is ``play_game(game, players, seed=game_seed(s, n, g))``.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..files import atomic_write_bytes
from ..games import get_game
from ..players.matchbox.beads import MENACE_BEADS, MENACE_REWARDS
from ..players.matchbox.fast import fast_tables, game_seed, train_her, train_menace
from ..players.matchbox.tables import count_boxes
from ..solver import solve
from .interrupts import signals_deferred

HER_OPPONENTS = ("random", "sharp")
MENACE_OPPONENTS = ("random", "perfect", "self")


def chart(record: str, per_line: int = 10) -> list[str]:
    """Gardner's chart: a letter a game, ``per_line`` to a line."""
    return [record[start : start + per_line] for start in range(0, len(record), per_line)]


# HER and HIM ------------------------------------------------------------------------------------


def bead_is_bad(box_board: str, bead: str, side: int = 1) -> bool:
    """The classroom page's ``bad``: after this bead (``side``'s move in the box's position; Black by
    default) the other side can force a win.  Asked of the exact solver, not of the tables the
    training used."""
    game = get_game("hexapawn")
    after = game.play(game.from_board(box_board, side), bead)
    return game.winner(after) == 1 - side or (not game.is_over(after) and solve(game).value(after) == 1)


@dataclass(frozen=True)
class HerOpponentResult:
    opponent: str
    losses: tuple[int, ...]  # per learner
    good_taken_out: int
    bad_taken_out: int
    last_loss: int  # the latest game (1-based) any learner lost; 0 if none lost
    loss_matrix: tuple[str, ...]  # per learner, a letter a game

    @property
    def most(self) -> int:
        return max(self.losses)

    @property
    def average(self) -> float:
        return sum(self.losses) / len(self.losses)

    def to_dict(self) -> dict[str, Any]:
        return {
            "opponent": self.opponent,
            "learners": len(self.losses),
            "most_losses": self.most,
            "average_losses": self.average,
            "good_beads_taken_out": self.good_taken_out,
            "bad_beads_taken_out": self.bad_taken_out,
            "last_loss_game": self.last_loss,
            "losses": list(self.losses),
            "chart": self.loss_matrix[0],
            "loss_rate_per_game": loss_rate(self.loss_matrix, "L"),
        }


def loss_rate(records: Sequence[str], letter: str) -> list[float]:
    """The fraction of learners whose game ``g`` ended with ``letter``, for every ``g``."""
    games = len(records[0])
    return [sum(1 for r in records if r[g] == letter) / len(records) for g in range(games)]


class MatchboxInterrupted(KeyboardInterrupt):
    """A matchbox experiment stopped by ^C or SIGTERM: ``result`` is the experiment's result over
    the learners that had finished (``finished`` of ``total``; None when none had), marked
    ``stopped``; the learner cut short is left out, so the result is what the same seed and these
    learner counts replay."""

    def __init__(self, result: dict[str, Any] | None, finished: int, total: int) -> None:
        super().__init__(f"interrupted with {finished} of {total} learners finished")
        self.result, self.finished, self.total = result, finished, total


@dataclass
class _HerTally:
    """One opponent's HER (or HIM) learners so far: what a finished learner adds, in one step."""

    opponent: str
    side: int
    verdict: dict[tuple[int, str], bool]
    losses: list[int] = field(default_factory=list)
    records: list[str] = field(default_factory=list)
    good: int = 0
    bad: int = 0
    last: int = 0

    def add(self, run: Any, opened: set[int]) -> None:
        table = fast_tables("hexapawn").table
        good = bad = 0
        for box, bead in run.removed:
            if (box, bead) not in self.verdict:
                self.verdict[box, bead] = bead_is_bad(table.boards[box], bead, self.side)
            if self.verdict[box, bead]:
                bad += 1
            else:
                good += 1
        with signals_deferred():  # a learner is counted whole or not at all
            self.good, self.bad = self.good + good, self.bad + bad
            self.last = max(self.last, run.record.rfind("L") + 1)
            opened.update(run.boxes)
            self.losses.append(run.losses)
            self.records.append(run.record)

    def result(self) -> HerOpponentResult:
        return HerOpponentResult(self.opponent, tuple(self.losses), self.good, self.bad, self.last, tuple(self.records))


@dataclass(frozen=True)
class HerOptions:
    """What a HER or HIM experiment is asked (Gardner 1962), each default written here once:
    ``gamelearn her`` and ``gamelearn him`` fill it from their options.  ``learners`` fresh HERs
    (``kind`` "her") or HIMs ("him") play ``games`` games against each of ``opponents``, seeded,
    on ``side`` (1, Black, as in Gardner 1962; 0 for White)."""

    kind: str = "her"
    learners: int = 50
    games: int = 200
    opponents: Sequence[str] = ("random", "sharp")
    seed: int = 1
    side: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "opponents", tuple(self.opponents))

    def check(self) -> None:
        """ValueError, one line, for options no run can take."""
        if self.kind not in ("her", "him"):
            raise ValueError(f"kind must be her or him, not {self.kind!r}")
        if self.learners < 1 or self.games < 1:
            raise ValueError("learners and games must be at least 1")


def run_her(options: HerOptions, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Train the HERs or HIMs ``options`` ask for against each opponent; check every bead taken out
    against the exact solution.  ``progress(games)`` after each learner.  ^C or SIGTERM:
    :class:`MatchboxInterrupted`, with the result of the learners that had finished."""
    options.check()
    kind, learners, games, opponents, seed, side = (
        options.kind, options.learners, options.games, options.opponents, options.seed, options.side
    )  # fmt: skip
    verdict: dict[tuple[int, str], bool] = {}
    tallies: list[_HerTally] = []
    opened: set[int] = set()
    try:
        for number, opponent in enumerate(opponents):
            tally = _HerTally(opponent, side, verdict)
            tallies.append(tally)
            for learner in range(learners):
                seeds = [game_seed(seed + number, learner, g) for g in range(games)]
                tally.add(train_her(seeds, opponent, him=kind == "him", learner_side=side), opened)
                if progress is not None:
                    progress(games)
    except KeyboardInterrupt:
        kept = [tally for tally in tallies if tally.losses]
        finished = sum(len(tally.losses) for tally in kept)
        result = _her_result(kind, learners, games, seed, side, kept, opened, stopped=True) if kept else None
        raise MatchboxInterrupted(result, finished, learners * len(opponents)) from None
    return _her_result(kind, learners, games, seed, side, tallies, opened, stopped=False)


def _her_result(
    kind: str,
    learners: int,
    games: int,
    seed: int,
    side: int,
    tallies: list[_HerTally],
    opened: set[int],
    stopped: bool,
) -> dict[str, Any]:
    results = [tally.result() for tally in tallies]
    table = fast_tables("hexapawn").table
    counted = count_boxes("hexapawn", side=side)
    # the boxes the runs opened, with every bead a box starts with, checked against the solver
    opened_beads = [(box, bead) for box in sorted(opened) for bead in fast_tables("hexapawn").new_box[box]]
    opened_bad = sum(1 for box, bead in opened_beads if bead_is_bad(table.boards[box], bead, side))
    return {
        "experiment": kind,
        "learners": learners,
        "games": games,
        "seed": seed,
        "side": "WB"[side],
        "opponents": [r.to_dict() for r in results],
        "boxes_counted": {"boxes": counted.boxes, "beads": counted.beads, "bad_beads": counted.bad_beads},
        "boxes_opened": {"boxes": len(opened), "beads": len(opened_beads), "bad_beads": opened_bad},
        "most_losses_overall": max(r.most for r in results),
        "good_beads_taken_out": sum(r.good_taken_out for r in results),
        "stopped": stopped,
    }


# MENACE -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MenaceOptions:
    """What a MENACE experiment is asked (Michie 1961), each default written here once:
    ``gamelearn menace`` fills it from its options.  ``learners`` fresh MENACEs play ``games``
    games against each of ``opponents`` (an opponent may be a mixed teacher,
    ``perfect:random=P``; in self-play one MENACE plays both sides), seeded, on ``side`` (0 first,
    as Michie's did), starting with ``beads`` a colour by stage and adding ``rewards`` (win, draw,
    loss) per bead drawn; with ``restock`` an emptied box is filled again with its first beads
    when MENACE next meets it (the page's remedy, ``menace:restock=on``)."""

    learners: int = 10
    games: int = 1000
    opponents: Sequence[str] = MENACE_OPPONENTS
    seed: int = 1
    side: int = 0
    beads: Sequence[int] = MENACE_BEADS
    rewards: Sequence[int] = MENACE_REWARDS
    restock: bool = False

    def __post_init__(self) -> None:
        for name in ("opponents", "beads", "rewards"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    def check(self) -> None:
        """ValueError, one line, for options no run can take."""
        if self.learners < 1 or self.games < 1:
            raise ValueError("learners and games must be at least 1")


def run_menace(options: MenaceOptions, progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Train the MENACEs ``options`` ask for against each opponent.  ``progress(games)`` after each
    learner.  ^C or SIGTERM: :class:`MatchboxInterrupted`, with the result of the learners that
    had finished."""
    options.check()
    learners, games, opponents, seed, side = (
        options.learners, options.games, options.opponents, options.seed, options.side
    )  # fmt: skip
    beads, rewards, restock = options.beads, options.rewards, options.restock
    runs: list[tuple[str, list[Any]]] = []
    try:
        for number, opponent in enumerate(opponents):
            done: list[Any] = []
            runs.append((opponent, done))
            for learner in range(learners):
                seeds = [game_seed(seed + number, learner, g) for g in range(games)]
                done.append(
                    train_menace(seeds, opponent, learner_side=side, beads=beads, rewards=rewards, restock=restock)
                )
                if progress is not None:
                    progress(games)
    except KeyboardInterrupt:
        kept = [(opponent, done) for opponent, done in runs if done]
        finished = sum(len(done) for _, done in kept)
        result = _menace_result(learners, games, seed, side, beads, rewards, kept, restock) if kept else None
        if result is not None:
            result["stopped"] = True
        raise MatchboxInterrupted(result, finished, learners * len(opponents)) from None
    return _menace_result(learners, games, seed, side, beads, rewards, runs, restock)


def _menace_result(
    learners: int,
    games: int,
    seed: int,
    side: int,
    beads: Sequence[int],
    rewards: Sequence[int],
    runs: list[tuple[str, list[Any]]],
    restock: bool = False,
) -> dict[str, Any]:
    window = max(1, min(100, games // 10))
    results = []
    for opponent, done in runs:
        records = [run.record for run in done]
        count = len(records)
        totals = {letter: sum(r.count(letter) for r in records) / count for letter in "WDL"}
        results.append(
            {
                "opponent": opponent,
                "learners": count,
                "average_wins": totals["W"],
                "average_draws": totals["D"],
                "average_losses": totals["L"],
                "window": window,
                "loss_rate_first": sum(r[:window].count("L") for r in records) / (count * window),
                "loss_rate_last": sum(r[-window:].count("L") for r in records) / (count * window),
                "draw_rate_last": sum(r[-window:].count("D") for r in records) / (count * window),
                "boxes_opened_average": sum(len(run.boxes) for run in done) / count,
                "chart": records[0],
                "loss_rate_per_game": loss_rate(records, "L"),
            }
        )
    counted = count_boxes("tictactoe", side=side, min_choices=2, merge_colours=True)
    return {
        "experiment": "menace",
        "learners": learners,
        "games": games,
        "seed": seed,
        "side": side,
        "beads": list(beads),
        "rewards": {"win": rewards[0], "draw": rewards[1], "loss": rewards[2]},
        "restock": restock,
        "boxes_counted": {"boxes": counted.boxes, "colours": counted.beads},
        "opponents": results,
        "stopped": False,
    }


# the learning curve -------------------------------------------------------------------------------


def smoothed(values: Sequence[float], window: int) -> list[float]:
    """A trailing moving average (the first points average what there is)."""
    out, total = [], 0.0
    for index, value in enumerate(values):
        total += value
        if index >= window:
            total -= values[index - window]
        out.append(total / min(index + 1, window))
    return out


def plot_learning_curve(result: dict[str, Any], path: Path, title: str) -> Path:
    """Losses per game averaged over the learners (a trailing moving average), with the band of
    +-1.96 standard errors of that average; one line per opponent.  Written atomically
    (files.atomic_write_bytes); ``path``'s folder must exist (ValueError otherwise)."""
    # a chart alone needs matplotlib (0.3 CPU s to import); Agg is chosen before pyplot loads
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    window = max(1, result["games"] // 40)
    figure, axes = plt.subplots(figsize=(8, 4.5))
    for item in result["opponents"]:
        learners = item.get("learners", result["learners"])  # fewer in a run that was stopped
        rates = smoothed(item["loss_rate_per_game"], window)
        # each point averages learners x (up to) window games of 0/1 losses
        spans = [min(i + 1, window) for i in range(len(rates))]
        errors = [1.96 * math.sqrt(max(r * (1 - r), 0.0) / (learners * n)) for r, n in zip(rates, spans, strict=True)]
        games = range(1, len(rates) + 1)
        line = axes.plot(games, rates, label=f"against {item['opponent']}")[0]
        axes.fill_between(
            games,
            [max(0.0, r - e) for r, e in zip(rates, errors, strict=True)],
            [min(1.0, r + e) for r, e in zip(rates, errors, strict=True)],
            color=line.get_color(),
            alpha=0.2,
        )
    axes.set_xlabel("game")
    shown = sorted({item.get("learners", result["learners"]) for item in result["opponents"]})
    axes.set_ylabel(f"losses per game (mean of {'/'.join(map(str, shown))}, {window}-game moving average)")
    axes.set_ylim(0, 1)
    axes.set_title(title)
    axes.legend()
    figure.tight_layout()
    buffer = io.BytesIO()
    try:
        figure.savefig(buffer, format="png", dpi=100)
    finally:
        plt.close(figure)
    # rendered first, then written whole: a missing folder is refused (ValueError), never created
    atomic_write_bytes(path, buffer.getvalue())
    return path
