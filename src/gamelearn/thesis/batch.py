"""Batch self-play of the 1999 thesis program, fixed or original (Despotović 1999).

``run_batch(BatchConfig(...)) -> BatchResult`` plays ``games`` games of player I (side +1, X,
always first) against player II (side -1, O), each with its own h/s/l switches and its own memory
('1' = player I in both), as ``teeko <I flags> <II flags> mem2.m N`` did:

* the thesis's ply counter ``n`` (1-8 place, 9 on move); before each ply from ``n = 7`` in the
  opening and every ply of the moving phase, a four of the side to move, then of the other side,
  ends the game (a four made on ply 8 is seen at ``n = 9``, as in the original);
* from ``n = 25`` the draw checks: ``n > 100`` (the 100-ply cap), then cycles of 2, 3 and 4 over
  the 16-slot history of moving-phase boards (newest in slot 15): slots 8-11 = 12-15, 4-9 = 10-15,
  0-7 = 8-15;
* after a won game, if the winner (the last mover) has learning on and the moving phase was
  reached, every board after plies 9 .. last is counted in player I's memory if player I learns,
  and in player II's if player II learns (the memory's update; the winner is side +1 when the last
  ply is odd: the original's parity rule, right in batch since player I always begins);
* stat.m's fields 1-3 count X wins, draws and O wins.

``original=True`` plays the C as it was (every fix off, :class:`~gamelearn.thesis.fixes.Fixes`),
drawing from Microsoft's rand() seeded with ``seed`` (the traces' TEEKO_TIME); ``original=False``
plays the fixed program with ``random.Random(seed)``.  What hung the original (an opening pick
with all four cells taken, a random move with no move) raises :class:`BatchHang` naming the game
and ply; fixed mode falls back to a random free cell instead (fix 11).

``trace`` (a path or a text stream) receives the reference traces' lines: ``TRACE SEED``, one
``TRACE RAND`` per draw, one ``TRACE PLY`` per ply (g n side mv src [h] [eh es el] [sk smax si]
[lc] r b), ``TRACE OOB`` per layout-sensitive off-board read, and ``TRACE END`` per game (ret
lastmove plies result reason r oob), with the same keys and values as
the reference runs of the compiled original.  ``progress`` is called with each :class:`GameSummary`.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ..experiments.interrupts import signals_deferred
from ..files import AtomicFile
from ..keeper import LOCAL_OWNER
from ..players.hangs import OpeningHang
from .board import digits, key
from .engine import EngineState, Settings, decide, play
from .evaluation import has_four
from .files import read_memory, write_memory, write_stat
from .fixes import Fixes
from .heuristics import NoMoveError
from .kept import ThesisMemory
from .memories import MemoryRef, load_stat, save_stat
from .memory import Memory
from .rng import Draws, MicrosoftRand, SeededDraws
from .rules import HISTORY_SLOTS, draw_reason, learned_winner, push
from .trace import Tracer, ply_line

if TYPE_CHECKING:
    from ..store.store import Store

MemorySource = Memory | Mapping[str, tuple[int, int]] | str | Path | None

#: stat.m field (0-based) by result: X won, drawn, O won.
STAT_FIELD = {"X": 0, "D": 1, "O": 2}


class BatchHang(RuntimeError):
    """The original would have hung here (reported instead of looping for ever)."""


@dataclass
class BatchConfig:
    games: int
    first: Settings = field(default_factory=Settings)
    second: Settings = field(default_factory=Settings)
    original: bool = False
    seed: int = 1
    first_memory: MemorySource = None  # memory.m: player I's memory
    second_memory: MemorySource = None  # mem2.m: player II's memory
    stat: Sequence[int] | None = None  # stat.m's nine counts at the start (default all zero)
    trace: str | Path | IO[str] | None = None
    progress: Callable[[GameSummary], None] | None = None
    fixes: Fixes | None = None  # overrides ``original`` when given (e.g. one bug at a time)
    #: keep every game's summary in the result (``BatchResult.games``); a caller that hears each
    #: game through ``progress`` and keeps what it needs passes False, so a million-game batch
    #: does not hold a million summaries twice
    keep_games: bool = True


@dataclass(frozen=True)
class Lesson:
    """What a won game taught: its boards after plies 9 .. last (keys, in order) and the side
    (+1/-1) it is learned as won by, for the memories of ``sides`` (+1 player I, -1 player II)."""

    boards: tuple[int, ...]
    winner: int
    sides: tuple[int, ...]


@dataclass(frozen=True)
class GameSummary:
    number: int  # from 1
    last_move: int  # the program's "[last move was M]": plies + 1
    plies: int
    result: str  # "X", "O" or "D"
    reason: str  # four, cycle2, cycle3, cycle4, cap100
    moves: tuple[str, ...]
    lesson: Lesson | None = None  # None: nothing learned (a draw, learning off, no moving phase)

    @property
    def winner(self) -> int | None:
        """0 (X), 1 (O) or None, as GameRecord.winner."""
        return {"X": 0, "O": 1}.get(self.result)


@dataclass
class BatchResult:
    games: list[GameSummary]
    first_memory: Memory
    second_memory: Memory
    stat: tuple[int, ...]
    rand_calls: int

    def counts(self) -> tuple[int, int, int]:
        """X wins, draws, O wins of this run."""
        results = [g.result for g in self.games]
        return results.count("X"), results.count("D"), results.count("O")


def load_memory(source: MemorySource) -> Memory:
    """A Memory from a Memory (used as is), a mapping, a memory.m path, or None (empty)."""
    if source is None:
        return Memory()
    if isinstance(source, Memory):
        return source
    if isinstance(source, (str, Path)):
        return Memory(read_memory(source))
    return Memory(source)


@dataclass
class _Game:
    """One game as it is played: the board, the thesis's ply counter ``n``, the side to move, and
    what its summary and trace need."""

    number: int
    plus: int = 0
    minus: int = 0
    n: int = 1
    side: int = 1
    moves: list[str] = field(default_factory=list)
    boards: list[int] = field(default_factory=list)  # moving-phase boards, for the lesson
    off_reads: int = 0
    sensitive: int = 0


@dataclass(frozen=True)
class _Ending:
    result: str  # "X", "O" or "D"
    reason: str
    ret: int = 0  # the trace's ret: +1 the mover had the four, -1 the other side


@dataclass
class _Batch:
    """What lasts from one game of a batch to the next, as the original's globals do: the engine's
    state, the history of boards (recentpositions) and the ``learning`` flag set by each
    moving-phase decision."""

    config: BatchConfig
    fixes: Fixes
    draws: Draws
    memories: dict[int, Memory]
    tracer: Tracer
    state: EngineState = field(default_factory=EngineState)
    history: list[int] = field(default_factory=lambda: [0] * HISTORY_SLOTS)
    learning_flag: bool = True

    def settings(self, side: int) -> Settings:
        return self.config.first if side > 0 else self.config.second

    def play(self, number: int) -> GameSummary:
        """Play game ``number`` to its end, learn from it, write its END line."""
        self.tracer.game = number
        game = _Game(number)
        ending = self.ending(game)
        while ending is None:
            self.ply(game)
            ending = self.ending(game)
        lesson = self.learn(game, ending)
        self.tracer.write(
            f"END g={number} ret={ending.ret} lastmove={game.n} plies={game.n - 1} result={ending.result} "
            f"reason={ending.reason} r={self.draws.calls} oob={game.off_reads}/{game.sensitive}"
        )
        return GameSummary(number, game.n, game.n - 1, ending.result, ending.reason, tuple(game.moves), lesson)

    def ending(self, game: _Game) -> _Ending | None:
        """Before ply ``n``: from ``n = 7`` a four of the side to move, then of the other side, ends
        the game; then the draw checks (:func:`~gamelearn.thesis.rules.draw_reason`)."""
        if game.n >= 7:
            mover_four = has_four(game.plus if game.side > 0 else game.minus)
            other_four = has_four(game.minus if game.side > 0 else game.plus)
            if mover_four or other_four:
                winner = game.side if mover_four else -game.side
                return _Ending("X" if winner > 0 else "O", "four", 1 if mover_four else -1)
        drawn = draw_reason(self.history, game.n)
        return _Ending("D", drawn) if drawn is not None else None

    def ply(self, game: _Game) -> None:
        """The side to move decides and plays; the ply's trace lines are written."""
        n, side = game.n, game.side
        self.tracer.ply = n
        settings = self.settings(side)
        try:
            decision = decide(
                (game.plus, game.minus), side, n, settings, self.memories[side], self.draws, self.fixes, self.state
            )
        except (OpeningHang, NoMoveError) as error:
            self.tracer.flush()
            raise BatchHang(f"game {game.number}, ply {n}: {error}") from None
        self.tracer.off_board(side, decision.layout_sensitive)
        self.tracer.flush()
        if n >= 9:
            self.learning_flag = settings.learn
        game.plus, game.minus = play((game.plus, game.minus), side, decision)
        game.moves.append(decision.move)
        game.off_reads += decision.off_board_reads
        game.sensitive += decision.layout_sensitive
        self.tracer.write(ply_line(game.number, n, side, decision, self.draws.calls, digits(game.plus, game.minus)))
        if n >= 9:
            board = key(game.plus, game.minus)
            game.boards.append(board)
            push(self.history, board)
        game.n += 1
        game.side = -side

    def learn(self, game: _Game, ending: _Ending) -> Lesson | None:
        """A won game that reached the moving phase, its last decision made with learning on, is
        learned by every side whose learning is on; the lesson, or None."""
        config = self.config
        if ending.result == "D" or not (config.first.learn or config.second.learn):
            return None
        if not self.learning_flag or game.n < 9:
            return None
        winner = learned_winner(game.n - 1, 1 if ending.result == "X" else -1, self.fixes)
        sides = tuple(side for side in (1, -1) if self.settings(side).learn)
        for learner in sides:
            self.memories[learner].learn(game.boards, winner)
        return Lesson(tuple(game.boards), winner, sides)


def _checked_start(config: BatchConfig) -> tuple[Fixes, Draws, dict[int, Memory], list[int]]:
    """The batch's fixes, draws, memories (+1 player I, -1 player II) and stat.m counts, each checked."""
    if not isinstance(config.games, int) or config.games < 1:
        raise ValueError(f"the number of games must be a whole number of at least 1, not {config.games!r}")
    fixes = config.fixes if config.fixes is not None else (Fixes.original() if config.original else Fixes())
    draws: Draws = MicrosoftRand(config.seed) if config.original else SeededDraws(config.seed)
    memories = {1: load_memory(config.first_memory), -1: load_memory(config.second_memory)}
    if memories[1] is memories[-1]:
        raise ValueError("player I and player II each keep their own memory: pass two Memory objects")
    stat = list(config.stat) if config.stat is not None else [0] * 9
    if len(stat) != 9:
        raise ValueError(f"stat.m holds nine counts, not {len(stat)}")
    return fixes, draws, memories, stat


def run_batch(config: BatchConfig) -> BatchResult:
    fixes, draws, memories, stat = _checked_start(config)
    # A trace file is written beside its target and renamed over it when every game is done: a
    # run that stops (a hang, a count past 9999, an interrupt) leaves the target as it was.
    own_file = None
    stream: IO[str] | None
    if isinstance(config.trace, (str, Path)):
        own_file = AtomicFile(config.trace, encoding="ascii", newline="\n")
        stream = own_file.stream
    else:
        stream = config.trace
    tracer = Tracer(stream)
    tracer.listen(draws)
    if config.original:
        tracer.write(f"SEED teeko_time={config.seed} srand={config.seed}")
    batch = _Batch(config, fixes, draws, memories, tracer)
    summaries: list[GameSummary] = []
    try:
        for number in range(1, config.games + 1):
            summary = batch.play(number)
            stat[STAT_FIELD[summary.result]] += 1
            if config.keep_games:
                summaries.append(summary)
            if config.progress is not None:
                config.progress(summary)
    except BaseException:
        if own_file is not None:
            own_file.discard()
        raise
    if own_file is not None:
        own_file.commit()
    return BatchResult(summaries, memories[1], memories[-1], tuple(stat), draws.calls)


def trace_text(config: BatchConfig) -> tuple[BatchResult, str]:
    """Run a batch and return its trace as text (the config's own trace target is ignored)."""
    buffer = io.StringIO()
    config = BatchConfig(**{**config.__dict__, "trace": buffer})
    return run_batch(config), buffer.getvalue()


# --- keeping a batch's outcome as it goes: its memories, its score, its record ------------------

#: A batch saves what it played at least this often (and when it ends or is interrupted): a crash
#: loses at most this much play.
SAVE_EVERY_SECONDS = 2.0

#: The test hook of docs/store.md, promise 2: a batch saves this many seconds apart instead (at
#: least 0.1, never more than :data:`SAVE_EVERY_SECONDS`), so that the reliability tests reach a
#: batch's first saves, and replay its kept games, in a fraction of the time.  Read once per batch;
#: unset (the default), a batch saves every :data:`SAVE_EVERY_SECONDS`.
TEST_SAVE_EVERY_VARIABLE = "GAMELEARN_TEST_SAVE_EVERY"


def save_every() -> float:
    """Seconds between a batch's periodic saves: :data:`SAVE_EVERY_SECONDS`, or the test hook's."""
    try:
        seconds = float(os.environ.get(TEST_SAVE_EVERY_VARIABLE, "") or SAVE_EVERY_SECONDS)
    except ValueError:
        return SAVE_EVERY_SECONDS
    return min(max(seconds, 0.1), SAVE_EVERY_SECONDS)


@dataclass(frozen=True)
class KeptMemory:
    """A side's memory to keep: where it lives (``ref``), the batch's own copy (``memory``, what
    it recalls from), and the side (+1 player I, -1 player II)."""

    label: str  # what a message calls it, e.g. the option that named it
    ref: MemoryRef
    memory: Memory
    side: int = -1


class BatchKeeper:
    """Saves a batch's progress: every won game's lesson, the score and the ``teeko-batch`` result,
    together in one store transaction, at most :data:`SAVE_EVERY_SECONDS` apart (:func:`save_every`).

    A memory in the store gets each lesson applied to its latest stored state inside the
    transaction, by its storage (:meth:`gamelearn.knowledge_formats.ThesisMemory.learn`: reload,
    apply the pending lessons in order, write the changed records), so
    batches, games and imports writing the same memory at once lose nothing: the memory is what
    some serial order of all their lessons makes.  A thesis file (and a ``stat_path``) is written
    whole from the batch's own copy, as the original program did: one writer per file.
    """

    def __init__(
        self,
        store: Store,
        memories: Sequence[KeptMemory],
        stat_at_start: Sequence[int],
        stat_path: Path | None,
        record: Mapping[str, object],
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.store = store
        self.memories = list(memories)
        self.stat_at_start = tuple(stat_at_start)
        self.stat_path = stat_path
        self.record = dict(record)
        self.clock = clock or time.monotonic
        self.every = save_every()
        self.played: list[GameSummary] = []  # every game, in order; one append per game
        self.saved_games = 0  # how many of them are in the store
        self.result_id: int | None = None
        self.last_save = self.clock()
        self._stored: dict[str, tuple[float | None, Memory]] = {}  # name -> (version, contents)

    def add(self, summary: GameSummary) -> None:
        """A finished game (one list append: an interrupt leaves it counted or not, never half),
        without its moves, which no save needs (the trace has them): what a batch holds a game
        is its result and its lesson."""
        self.played.append(replace(summary, moves=()))

    def due(self) -> bool:
        return self.clock() - self.last_save >= self.every

    def results(self, games: Sequence[GameSummary]) -> dict[str, int]:
        counts = {"X": 0, "D": 0, "O": 0}
        for game in games:
            counts[game.result] += 1
        return counts

    def payload(self, games: int, stopped: str | None) -> dict[str, object]:
        kept = self.played[:games]
        counts = self.results(kept)
        return {
            **self.record,
            "games": games,
            "x_wins": counts["X"],
            "draws": counts["D"],
            "o_wins": counts["O"],
            "per_game": [[g.result, g.plies, g.reason] for g in kept],
            "stopped": stopped,
        }

    def save(self, stopped: str | None = None) -> int:
        """Keep every game played so far; returns how many games are kept.  All or nothing: if this
        fails the store holds what the previous save kept.

        ^C and SIGTERM wait until the save is done, its bookkeeping included
        (:func:`~gamelearn.experiments.interrupts.signals_deferred`): one that landed just after
        COMMIT, while this copy still believed the games unsaved, made the next save apply them a
        second time.  And the games already kept are read from the stored result inside the
        save's own transaction, so an error after a COMMIT cannot count a game twice either."""
        with signals_deferred():
            games = len(self.played)
            try:
                self._save(games, stopped)
            except BaseException:
                self._stored.clear()  # perhaps rolled back: the cached copies are not to be trusted
                raise
            for name, (_, memory) in list(self._stored.items()):  # committed: what we wrote is current
                self._stored[name] = (self._kept(name).version(), memory)
            self.saved_games = games
            self.last_save = self.clock()
        return games

    def _games_kept(self) -> int:
        """How many games the stored result counts (inside the save's transaction): 0 when there
        is none yet, or when the save that made it was rolled back."""
        if self.result_id is None:
            return 0
        stored = self.store.result(self.result_id)
        if stored is None:
            self.result_id = None  # the save that inserted it never committed
            return 0
        return int(stored["games"])

    def _save(self, games: int, stopped: str | None) -> None:
        with self.store.transaction():
            new = self.played[self._games_kept() : games]
            for kept in self.memories:
                self._save_memory(kept, new)
            if self.stat_path is None:  # the store's score, as the original's stat.m counted every game
                counts = list(load_stat(self.store))
                for field_index, result in enumerate("XDO"):
                    counts[field_index] += self.results(new)[result]
                save_stat(self.store, counts)
            else:
                final = list(self.stat_at_start)
                for field_index, result in enumerate("XDO"):
                    final[field_index] += self.results(self.played[:games])[result]
                try:
                    write_stat(final, self.stat_path)
                except (OSError, ValueError) as error:
                    raise ValueError(f"--stat: cannot write {self.stat_path}: {error}") from None
            payload = self.payload(games, stopped)
            if self.result_id is None:
                self.result_id = self.store.save_result("teeko-batch", payload)
            else:
                self.store.update_result(self.result_id, payload)

    def _kept(self, name: str) -> ThesisMemory:
        """Where the store keeps memory ``name``: its lessons go through the play layer's storage."""
        return ThesisMemory(self.store, LOCAL_OWNER, name)

    def _save_memory(self, kept: KeptMemory, new: Sequence[GameSummary]) -> None:
        lessons = [g.lesson for g in new if g.lesson is not None and kept.side in g.lesson.sides]
        ref = kept.ref
        if ref.path is not None:  # a thesis file: the batch's own copy, whole, if it learned anything
            if kept.memory.take_changes():
                try:
                    write_memory(list(kept.memory.entries()), ref.path)
                except (OSError, ValueError) as error:
                    raise ValueError(f"{kept.label}: cannot write {ref.label}: {error}") from None
            return
        assert ref.name is not None
        lessons_in_order = [(lesson.boards, lesson.winner) for lesson in lessons]
        stored = self._kept(ref.name).learn(lessons_in_order, self._stored.get(ref.name))
        self._stored[ref.name] = (None, stored)  # its version is read back once the transaction commits
