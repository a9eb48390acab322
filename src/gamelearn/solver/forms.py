"""Steele's table: the forms of Teeko in Scarne's book solved together, each start's value
beside the published one.

The forms that share goals and steps share the moving phase, which is built once a goal set; the
placing phase of each form is built back from it, and its layers are shared too where two forms'
drop patterns agree from a round on (``table.build_placing``'s cache).  So the 32 forms cost two
retrograde analyses and a few placing phases.

The results are values of the empty board for the first player (X), with the length of a win in
plies from the empty board, as the solver finds them; the published values (games.teeko_forms.
PUBLISHED: Weisstein's MathWorld table of Steele's results and Steele's 1999 summary) are set
beside them, never used to compute them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..games import get_game
from ..games.teeko_forms import GOALS, PUBLISHED, SCARNE_DROPS
from .codes import decode
from .table import Census, PlacingCache, build_moving, build_placing, census_of_codes, write_table
from .teeko import table_name
from .variant import Indexing, teeko_form

#: report(spec, done, total): called after each form.
Report = Callable[[str, int, int], None]


@dataclass(frozen=True)
class FormResult:
    """The solved start of one form, for the first player, beside the published value."""

    spec: str
    goals: str
    drops: str
    centre: str
    value: int
    distance: int | None
    published: tuple[int, str] | None

    @property
    def name(self) -> str:
        return SCARNE_DROPS.get(self.drops, self.drops)

    @property
    def agrees(self) -> bool | None:
        """True or False against the published value; None where none was found."""
        return None if self.published is None else self.published[0] == self.value

    def words(self) -> str:
        if self.value > 0:
            return f"first-player win in {self.distance} plies"
        if self.value < 0:
            return f"second-player win in {self.distance} plies"
        return "draw"

    def to_dict(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "goals": self.goals,
            "drops": self.drops,
            "centre": self.centre,
            "value": self.value,
            "distance": self.distance,
            "published": None if self.published is None else self.published[1],
            "agrees": self.agrees,
        }


@dataclass
class FormsReport:
    """Every form's result, the census of the moving phase a goal set, and timings."""

    results: list[FormResult]
    census: dict[str, Census]
    moving_seconds: dict[str, float]
    total_seconds: float
    #: CPU time of this process over the solve (the wall clock depends on what else the machine runs)
    cpu_seconds: float


def _nothing(spec: str, done: int, total: int) -> None:
    return None


def solve_forms(
    goal_sets: Iterable[str] = GOALS,
    drop_patterns: Iterable[str] = tuple(SCARNE_DROPS),
    centres: Iterable[str] = ("on", "off"),
    steps: str = "king",
    report: Report = _nothing,
    keep: Path | None = None,
    keep_only: Container[str] | None = None,
) -> FormsReport:
    """Solve every combination of the given goal sets, drop patterns and centre rules.  With
    ``keep`` (a folder), each form's table is written there too (under its default file name);
    with ``keep_only`` too, only the forms whose spec it holds, and none whose file is there."""

    def table_file(spec: str) -> str:
        return f"{table_name(spec)}.table"

    started, cpu = time.perf_counter(), time.process_time()
    goal_sets, drop_patterns, centres = list(goal_sets), list(drop_patterns), list(centres)
    total = len(goal_sets) * len(drop_patterns) * len(centres)
    results: list[FormResult] = []
    census: dict[str, Census] = {}
    moving_seconds: dict[str, float] = {}
    for goals in goal_sets:
        first = get_game(f"teeko:goals={goals},steps={steps}")
        base = teeko_form(first)  # type: ignore[arg-type]
        index = Indexing(base)
        rows, facts = build_moving(base)
        moving_seconds[goals] = facts["moving_seconds"]
        census[goals] = census_from_rows(index, rows)
        cache: PlacingCache = {}
        for drops in drop_patterns:
            for centre in centres:
                game = get_game(f"teeko:goals={goals},drops={drops},centre={centre},steps={steps}")
                variant = teeko_form(game)  # type: ignore[arg-type]
                layers = build_placing(variant, rows, cache=cache, index=index)
                value, distance = decode(int(layers[(0, 0)][0]))  # X's pawn goes down first: X's view
                if keep is not None and (
                    keep_only is None or (game.spec in keep_only and not (keep / table_file(game.spec)).exists())
                ):
                    form_facts = {**facts, "moving_phase": "shared"}
                    write_table(variant, layers, form_facts, keep / table_file(game.spec))
                published = PUBLISHED.get((goals, drops, centre)) if steps == "king" else None
                results.append(FormResult(game.spec, goals, drops, centre, value, distance, published))
                report(game.spec, len(results), total)
        del rows, cache
    return FormsReport(
        results, census, moving_seconds, round(time.perf_counter() - started, 2), round(time.process_time() - cpu, 2)
    )


def census_from_rows(index: Indexing, rows: Any) -> Census:
    """The moving phase's census from its stored rows (each row counts once per member of its class)."""
    k = index.k
    row = index.layer_shape(k, k)[1]
    codes = np.asarray(rows).reshape(-1, row)
    members = index.classes[k].members
    histogram = np.zeros(256, dtype=np.int64)
    for cls in range(codes.shape[0]):
        histogram += np.bincount(codes[cls], minlength=256) * members[cls]
    return census_of_codes(histogram)


MARK_START = "<!-- teeko-forms:start -->"
MARK_END = "<!-- teeko-forms:end -->"


def markdown(report: FormsReport, command: str) -> str:
    """The results as Markdown: one row a form, the published value beside, then the censuses."""
    lines = [
        MARK_START,
        f"Written by `{command}` in {report.total_seconds:.1f} s, {report.cpu_seconds:.1f} s of CPU "
        f"(moving phases: {', '.join(f'{g} {s:.1f} s' for g, s in report.moving_seconds.items())}).",
        "",
        "| goals | drops | Scarne's name | centre | solved here (first player) | published (Steele 1998) | agrees |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in report.results:
        published = r.published[1] if r.published else "not found in a published source"
        agrees = {True: "yes", False: "**NO**", None: "-"}[r.agrees]
        lines.append(f"| {r.goals} | `{r.drops}` | {r.name} | {r.centre} | {r.words()} | {published} | {agrees} |")
    lines += [
        "",
        "The moving phase (4 pawns each, the side to move's set first), a goal set:",
        "",
        "| goals | won | drawn | lost | finished | longest win (plies) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for goals, c in report.census.items():
        lines.append(f"| {goals} | {c.won:,} | {c.drawn:,} | {c.lost:,} | {c.finished:,} | {c.longest_win} |")
    lines.append(MARK_END)
    return "\n".join(lines)


def replace_section(text: str, section: str) -> str:
    """``text`` with the part between the markers replaced by ``section`` (appended if absent)."""
    if MARK_START in text and MARK_END in text:
        head, _, rest = text.partition(MARK_START)
        _, _, tail = rest.partition(MARK_END)
        return head + section + tail
    return text.rstrip("\n") + "\n\n" + section + "\n"
