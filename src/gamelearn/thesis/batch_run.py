"""A batch of the 1999 thesis program (Despotović 1999) as a command runs it: a plan, checked whole
before any game, and a runner that plays it and keeps what it played.

``gamelearn teeko batch`` parses its options into a :class:`BatchPlan`, opens the store, and plays
it with a :class:`BatchRun`; it renders the :class:`BatchOutcome`.  The games themselves are
:func:`~.batch.run_batch`'s; what a run keeps as it goes is :class:`~.batch.BatchKeeper`'s.

What the runner promises (docs/store.md):

* Every file the run rewrites (a memory file, a ``stat`` file) is locked before it is read, and
  stays locked until the run is closed: a second batch on the same file would rewrite it from its
  own copy and undo the first one's lessons.
* A store memory NAME that does not exist is refused (a typo would silently start an empty
  memory) unless the plan says ``new``; a memory FILE the run could not write back is refused.
* Progress is kept every few seconds and when the run ends, hangs or is stopped (^C, SIGTERM): a
  crash loses at most the last few seconds of play.  What finished games taught is kept even when
  a later game hung or the run was stopped, as the original's files were.
* The trace goes to a file beside its target, renamed over it once every game is played: a run
  that stops early (an original-mode hang, a count past 9999, ^C) leaves the target as it was.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..experiments.interrupts import signals_deferred
from ..files import AtomicFile, FileLock
from ..paths import looks_like_path
from ..store.failures import StoreError
from .files import read_stat
from .memories import STAT_FIELDS, MemoryRef, list_memories, resolve_memory
from .transcript import Transcript, settings_table

# The engine's modules (numba) load when a batch is planned, not when the command starts: every
# `gamelearn` command imports this module for its bound, MAX_BATCH_GAMES.
if TYPE_CHECKING:
    from ..store.store import Store
    from .batch import BatchKeeper, GameSummary
    from .engine import Settings
    from .memory import Memory

#: The most games one batch plays (a million took the original's machine days).
MAX_BATCH_GAMES = 1_000_000
#: The seed is the original's ``srand(time)`` value: an unsigned 32-bit number.
SEED_LIMIT = 2**32
#: What a batch stopped by ^C or SIGTERM says in its record's ``stopped``.
INTERRUPTED = "interrupted"
#: Each side's memory option, the side it plays (+1 player I, X; -1 player II, O) and its name.
SIDES = {"--first-memory": (1, "Player I"), "--second-memory": (-1, "Player II")}


def _checked_name(option: str, name: str) -> str:
    """A memory name as the store keeps it (or a file's path): not empty, no control character."""
    cleaned = name.strip()
    if not cleaned:
        raise ValueError(f"{option}: a name cannot be empty")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in cleaned):
        raise ValueError(f"{option}: name {name!r} holds a control character")
    return cleaned


def _writable_target(option: str, target: Path) -> None:
    if target.is_dir():
        raise ValueError(f"{option}: cannot write {target}: it is a folder")
    if not target.absolute().parent.is_dir():
        raise ValueError(f"{option}: cannot write {target}: no such folder")


@dataclass(frozen=True)
class BatchPlan:
    """What a batch is asked to do, as ``teeko <I flags> <II flags> mem2.m N`` took it, checked
    when it is made (a ValueError naming the option, in one line): ``games`` games of player I
    (``first``'s switches, such as ``+h+s+l``) against player II (``second``'s), each side's
    memory a thesis FILE or a store NAME (None: an empty one, not kept), counted into the ``stat``
    file (None: the store's score), ``original`` the 1999 program as it was (Microsoft rand()
    seeded with ``seed``), its output with TRACE lines written to ``trace``; ``new`` lets a store
    NAME that does not exist yet start empty."""

    games: int
    first: str = "+h+s+l"
    second: str = "+h+s+l"
    first_memory: str | None = None
    second_memory: str | None = None
    stat: Path | None = None
    seed: int = 1
    original: bool = False
    trace: Path | None = None
    new: bool = False
    #: the parsed switches, by option (--first, --second)
    settings: dict[str, Settings] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        from .engine import Settings  # the engine (numba): see the imports

        if not 1 <= self.games <= MAX_BATCH_GAMES:
            raise ValueError(f"--games: {self.games} is outside 1..{MAX_BATCH_GAMES:,}")
        if not 0 <= self.seed < SEED_LIMIT:
            raise ValueError(f"--seed: {self.seed} is outside 0..{SEED_LIMIT - 1} (the original's srand)")
        settings = {}
        for option, value in (("--first", self.first), ("--second", self.second)):
            try:
                settings[option] = Settings.parse(value)
            except ValueError as error:
                raise ValueError(f"{option}: {error}") from None
        object.__setattr__(self, "first", self.first.strip())
        object.__setattr__(self, "second", self.second.strip())
        object.__setattr__(self, "settings", settings)
        for option, target in (("--trace", self.trace), ("--stat", self.stat)):
            if target is not None:
                _writable_target(option, target)
        for option, spec in self.memory_specs().items():
            object.__setattr__(self, option.removeprefix("--").replace("-", "_"), _checked_name(option, spec))

    @property
    def mode(self) -> str:
        return "original" if self.original else "fixed"

    def memory_specs(self) -> dict[str, str]:
        """Each side's memory as named, by option (a side without one is left out)."""
        named = {"--first-memory": self.first_memory, "--second-memory": self.second_memory}
        return {option: spec for option, spec in named.items() if spec is not None}

    def record(self) -> dict[str, Any]:
        """The plan as the ``teeko-batch`` result keeps it."""
        return {
            "asked": self.games,
            "mode": self.mode,
            "seed": self.seed,
            "first": self.settings["--first"].flags(),
            "second": self.settings["--second"].flags(),
            "first_memory": None,
            "second_memory": None,
        }


@dataclass(frozen=True)
class SideMemory:
    """A side's memory as the run left it: which player, where it lives, how many records."""

    option: str
    player: str
    ref: MemoryRef
    memory: Memory

    @property
    def key(self) -> str:
        """'first' or 'second', as the JSON names the side."""
        return self.option.removeprefix("--").removesuffix("-memory")


@dataclass(frozen=True)
class BatchOutcome:
    """What a batch played and kept: ``played`` of the plan's games (all of them unless
    ``stopped``: "interrupted", or what hung the original), the score, and the ``teeko-batch``
    result they are kept as."""

    plan: BatchPlan
    played: int
    x_wins: int
    draws: int
    o_wins: int
    stopped: str | None
    result_id: int | None
    memories: tuple[SideMemory, ...]
    record: dict[str, Any] = field(repr=False)

    @property
    def interrupted(self) -> bool:
        return self.stopped == INTERRUPTED

    @property
    def hang(self) -> str | None:
        """What stopped the run early other than a signal (None: nothing did)."""
        return None if self.stopped in (None, INTERRUPTED) else self.stopped

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` object: the kept result without its per-game list, and each memory."""
        summary = {key: value for key, value in self.record.items() if key != "per_game"}
        summary["memories"] = {
            side.key: {"memory": side.ref.label, "records": len(side.memory)} for side in self.memories
        }
        return summary


class BatchInterrupted(KeyboardInterrupt):
    """A batch stopped by ^C or SIGTERM, after it kept every game it had finished (``outcome``)."""

    def __init__(self, outcome: BatchOutcome) -> None:
        super().__init__("interrupted")
        self.outcome = outcome


class BatchRun:
    """Plays a :class:`BatchPlan` and keeps it in ``store``; a context manager that holds the
    plan's files locked from :meth:`open` (which refuses, in one ValueError, a file locked by
    another gamelearn, an unreadable stat file, an unknown memory, the same memory twice, a trace
    that cannot be written) until it is closed."""

    def __init__(self, plan: BatchPlan, store: Store) -> None:
        self.plan, self.store = plan, store
        self.sides: list[SideMemory] = []
        self.outcome: BatchOutcome | None = None
        self._locks: dict[Path, FileLock] = {}
        self._trace_file: AtomicFile | None = None
        self._keeper: BatchKeeper | None = None
        self._stat_at_start: tuple[int, ...] = ()

    def __enter__(self) -> BatchRun:
        try:
            self.open()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def open(self) -> None:
        from .batch import BatchKeeper, KeptMemory  # the engine (numba): see the imports
        from .memory import Memory

        plan = self.plan
        if plan.stat is not None:
            self._lock("--stat", plan.stat, str(plan.stat))
        self._stat_at_start = (0,) * STAT_FIELDS
        if plan.stat is not None and plan.stat.exists():
            self._stat_at_start = read_stat(plan.stat)
        refs: dict[str, MemoryRef] = {}
        for option, spec in plan.memory_specs().items():
            if looks_like_path(spec) and Path(spec).exists():
                self._lock(option, Path(spec), spec)
            try:
                refs[option] = resolve_memory(self.store, spec)
            except ValueError as error:
                raise ValueError(f"{option}: {error}") from None
            self._check_memory(option, refs[option])
        if len(refs) == 2:
            a, b = refs["--first-memory"], refs["--second-memory"]
            same_file = a.path is not None and b.path is not None and a.path.resolve() == b.path.resolve()
            if same_file or (a.name is not None and a.name == b.name):
                raise ValueError("--first-memory and --second-memory name the same memory; each player keeps its own")
        self.sides = [SideMemory(option, SIDES[option][1], ref, Memory(ref.entries)) for option, ref in refs.items()]
        self._open_trace()
        record = plan.record()
        for side in self.sides:
            record[side.key + "_memory"] = side.ref.label
        kept = [KeptMemory(side.option, side.ref, side.memory, SIDES[side.option][0]) for side in self.sides]
        self._keeper = BatchKeeper(self.store, kept, self._stat_at_start, plan.stat, record)

    def _lock(self, option: str, path: Path, shown: str) -> None:
        """Lock ``path`` until the run is closed (or the process dies), or refuse: another
        gamelearn is using it.  The same file twice in one run is refused by what it names."""
        lock = FileLock(path, shown)
        if lock.path in self._locks:
            return
        try:
            lock.acquire()
        except ValueError as error:
            raise ValueError(f"{option}: {error}") from None
        self._locks[lock.path] = lock

    def _check_memory(self, option: str, ref: MemoryRef) -> None:
        if ref.created and not self.plan.new:
            known = list_memories(self.store)
            close = difflib.get_close_matches(ref.spec, known, n=1, cutoff=0.6)
            hint = f"did you mean {close[0]!r}? " if close else f"known: {', '.join(known)}; " if known else ""
            raise ValueError(f"{option}: no memory named {ref.spec!r} in the store ({hint}--new starts an empty one)")
        if ref.path is not None and not os.access(ref.path, os.W_OK):
            raise ValueError(f"{option}: {ref.path} is read-only, and a batch updates its memory file in place "
                             "(copy it, or import it: gamelearn teeko memory import FILE)")  # fmt: skip

    def _open_trace(self) -> None:
        trace = self.plan.trace
        if trace is None:
            return
        try:
            self._trace_file = AtomicFile(trace, encoding="ascii", newline="\n")
        except OSError as error:
            raise ValueError(f"--trace: cannot write {trace}: {error.strerror or error}") from None
        except ValueError as error:  # a FIFO, a device or a socket: refused, nothing written
            raise ValueError(f"--trace: {error}") from None

    def close(self) -> None:
        """Release the files; a trace not yet renamed over its target is dropped."""
        if self._trace_file is not None:
            self._trace_file.discard()
            self._trace_file = None
        for lock in self._locks.values():
            lock.release()
        self._locks.clear()

    def play(self, on_game: Callable[[GameSummary], None] | None = None) -> BatchOutcome:
        """Play the plan's games, ``on_game`` hearing each, and keep them.  A hang (or a count past
        9999, fatal in the original too) stops the run with what finished kept: the outcome says
        so.  ^C or SIGTERM (a KeyboardInterrupt) does too, and raises :class:`BatchInterrupted`
        once it is kept.  A ValueError if the store cannot keep it."""
        from .batch import BatchConfig, BatchHang, run_batch  # the engine (numba): see the imports

        plan, keeper = self.plan, self._keeper
        assert keeper is not None, "open the run first"
        transcript = None
        if self._trace_file is not None:
            transcript = Transcript(self._trace_file.stream, settings_table(plan.games, plan.first, plan.second))

        def each_game(summary: GameSummary) -> None:
            keeper.add(summary)
            if transcript is not None:
                transcript.game_done(summary)
            if on_game is not None:
                on_game(summary)
            if keeper.due():
                keeper.save()

        memories = {side.option: side.memory for side in self.sides}
        config = BatchConfig(
            games=plan.games,
            first=plan.settings["--first"],
            second=plan.settings["--second"],
            original=plan.original,
            seed=plan.seed,
            first_memory=memories.get("--first-memory"),
            second_memory=memories.get("--second-memory"),
            stat=self._stat_at_start,
            trace=transcript,  # type: ignore[arg-type]
            progress=each_game,
            keep_games=False,  # the keeper holds what it needs of each game
        )
        stopped: str | None = None
        try:
            run_batch(config)
        except (BatchHang, ValueError) as error:  # a hang, a count past 9999, a store failure
            stopped = str(error)
        except KeyboardInterrupt:
            stopped = INTERRUPTED
        if self._trace_file is not None and stopped is None:
            self._trace_file.commit()
            self._trace_file = None
        with signals_deferred():  # a signal during the last save is acted on once the outcome is known
            try:
                self.outcome = self._kept(keeper, stopped)
            except StoreError as error:  # the store took the games up to the last save, and no more
                raise type(error)(f"{error}; {kept_so_far(keeper.saved_games, plan.games, keeper.result_id)}") from None
        if self.outcome.interrupted:
            raise BatchInterrupted(self.outcome)
        return self.outcome

    def _kept(self, keeper: BatchKeeper, stopped: str | None) -> BatchOutcome:
        played = keeper.save(stopped)
        counts = keeper.results(keeper.played[:played])
        return BatchOutcome(
            plan=self.plan,
            played=played,
            x_wins=counts["X"],
            draws=counts["D"],
            o_wins=counts["O"],
            stopped=stopped,
            result_id=keeper.result_id,
            memories=tuple(self.sides),
            record=keeper.payload(played, stopped),
        )


def kept_so_far(saved: int, games: int, result_id: int | None) -> str:
    """What a batch that the store stopped had kept: the games of its last save."""
    if saved == 0 or result_id is None:
        return f"none of the {games:,} games was kept"
    return f"{saved:,} of the {games:,} games are kept (memories, score and the result teeko-batch #{result_id})"
