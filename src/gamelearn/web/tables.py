"""Building a solved table from the page: Teeko's review and analysis need its table, which takes
about 20 s to build on an idle 2-core machine (39 s under load, minutes on a crowded one; about
300 MB of memory while it builds, a 13 MB file; docs/solve.md), so the page offers to build it and
shows the build's progress, its time so far and an estimate of the time left.

One build at a time in all (a Teeko build takes hundreds of MB and both cores: three at once made
every other answer wait seconds), in a thread of its own, started for a browser that has its
cookie; the page polls :meth:`TableBuilds.status`."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from ..games import Game, get_game
from ..solver import solve
from ..solver.teeko import build_table, default_path, variant_of
from ..solver.variant import teeko
from .guards import public_message
from .models import TableStatus

#: The stages of a build, in order, with the share of the bar each fills: the share of the build's
#: time each took in a build of Standard Teeko's table (the moving phase 18 of 21 s).
STAGES = (("counting moves", 0.05), ("retrograde analysis", 0.81), ("placing phase", 0.14))
#: Games whose solution is a table to build (the others are searched on the spot).
TABLE_GAMES = ("teeko",)

Progress = Callable[[str, int, int], None]
Builder = Callable[[Progress], None]


def build_teeko(progress: Progress) -> None:
    build_table(teeko(), default_path(), progress)


def build_teeko_form(game: Game, progress: Progress) -> None:
    """The table of one form of Teeko (``teeko:goals=advanced``), where `gamelearn solve` keeps it."""
    build_table(variant_of(game), default_path(game), progress)


class BuildInProgress(RuntimeError):
    """Another table is being built: one build at a time in all."""


def table_ready(game_name: str) -> tuple[bool, str]:
    """(True, "") when the game's solution can be read now, else (False, why and how to build)."""
    try:
        solve(get_game(game_name))
    except Exception as error:  # a missing or damaged table, or no solver: the page says why
        return False, public_message(error)
    return True, ""


@dataclass
class Build:
    """One build of a table: its state (building, done, failed), its stage and share done."""

    started: float
    owner: str
    state: str = "building"
    stage: str = "starting"
    fraction: float = 0.0
    error: str = ""


class TableBuilds:
    """The builds, keyed by the game's canonical spec (each form of Teeko has its own table)."""

    def __init__(self, builders: dict[str, Builder] | None = None) -> None:
        self.builders: dict[str, Builder] = builders or {"teeko": build_teeko}
        self._lock = threading.Lock()
        self._jobs: dict[str, Build] = {}

    def builder(self, game: Game) -> Builder | None:
        """The build of this form's table: a builder named for its spec, else the form's own."""
        if game.spec in self.builders:
            return self.builders[game.spec]
        return partial(build_teeko_form, game) if game.name in TABLE_GAMES else None

    def status(self, game_name: str) -> TableStatus:
        game = get_game(game_name)  # ValueError naming the valid games
        game_name = game.spec
        with self._lock:
            found = self._jobs.get(game_name)
            job = None if found is None else replace(found)  # a copy, read outside the lock
        building = job is not None and job.state == "building"
        ready, reason = (False, "") if building else table_ready(game_name)
        return TableStatus(
            game=game_name,
            ready=ready,
            reason=reason,
            buildable=self.builder(game) is not None,
            building=building,
            stage=job.stage if job is not None else "",
            fraction=round(job.fraction if job is not None else 1.0 if ready else 0.0, 3),
            # seconds since the build started (the page estimates the time left from it)
            elapsed=round(time.monotonic() - job.started, 1) if job is not None and building else None,
            error=job.error if job is not None else "",
        )

    def start(self, game_name: str, owner: str = "") -> TableStatus:
        """Start the build of the game's table for ``owner``; its status if it is being built or
        ready; BuildInProgress while another game's table is being built."""
        game = get_game(game_name)
        game_name = game.spec
        builder = self.builder(game)
        if builder is None:
            raise ValueError(f"{game_name} needs no table: it is solved on the spot")
        if table_ready(game_name)[0]:
            return self.status(game_name)  # built already: never built twice
        with self._lock:
            building = next((name for name, job in self._jobs.items() if job.state == "building"), None)
            if building is not None and building != game_name:
                raise BuildInProgress(f"the table of {building} is being built; try again when it is done")
            if building is None:
                job = Build(started=time.monotonic(), owner=owner)
                self._jobs[game_name] = job
        if building is not None:  # this table's build: its progress, never a second build
            return self.status(game_name)
        threading.Thread(target=self._run, args=(game_name, builder, job), daemon=True).start()
        return self.status(game_name)

    def _run(self, game_name: str, builder: Builder, job: Build) -> None:
        def progress(stage: str, done: int, total: int) -> None:
            before = 0.0
            for name, share in STAGES:
                if name == stage:
                    part = done / max(1, total)  # every stage's total is known from its first report
                    with self._lock:
                        job.stage, job.fraction = stage, max(job.fraction, before + share * min(1.0, part))
                    return
                before += share
            with self._lock:
                job.stage = stage

        try:
            builder(progress)
        except Exception as error:  # a failed build is reported on the page, never raised
            with self._lock:
                job.state, job.error = "failed", public_message(f"the build failed: {error}")
            return
        with self._lock:
            job.state, job.stage, job.fraction = "done", "done", 1.0
