"""The 1999 thesis program's console on the page: each browser's console session, its screens as
text, and its memory.m and stat.m in and out of the store.

The session is the one ``gamelearn teeko console`` drives (thesis.console, Despotović
1999): the page only shows text and sends the lines a person types, and the server answers with
the screens the terminal would print (``screen_text``), each answered prompt followed by what was
typed, as a terminal's scrollback.  The program's memory and score are the browser's in the store
(the owner's memory ``console`` and score ``stat``, as the command's are the command line's), so
they outlive the session: a reload, a server restart or a session put out of memory starts the
program again on the same memory, as the original started again on its memory.m.  A thesis
memory.m or stat.m uploaded replaces the browser's (checked whole first: a refused file changes
nothing), and both download byte for byte in the thesis format.

Each session runs the fixed program or, switched on the page, the original 1999 console (the
session's ``original``, thesis.console's original mode, as ``gamelearn teeko console
--original``).  The mode is the browser's: a restart keeps it unless the restart names one, and a
session started again after it was put out of memory (or on first sight) takes the browser's last.

Sessions live in server memory, one per browser, at most ``total`` (the least recently used goes
first: its game in progress is lost, never its memory or score).
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict, deque
from dataclasses import dataclass, field

from pydantic import Field

from ..web.models import Answer
from ..web.service import WebService
from .console import ConsoleSession, EngineBrain, Screen, screen_text
from .files import format_memory, format_stat, parse_memory_entries, parse_stat
from .memories import DEFAULT_STAT_NAME, load_memory, load_stat, save_memory, save_stat, summarize

#: The browser's memory and score in the store (the command's defaults, under the browser's owner).
MEMORY_NAME = "console"
STAT_NAME = DEFAULT_STAT_NAME
#: Lines of scrollback kept per session (a game with thinking output on is about 150).
SCROLLBACK = 2000
#: Sessions kept in server memory in all.
TOTAL_SESSIONS = 256
#: The most characters of a typed line (the console reads a move of 4, a menu choice of 1).
LINE_LIMIT = 200
SEED_LIMIT = 2**31 - 1
#: The browsers whose choice of the original console is kept, per session kept.
MODES_KEPT = 16


@dataclass
class ConsoleRun:
    """One browser's session and what its screen shows so far."""

    session: ConsoleSession
    seed: int
    original: bool
    scrollback: deque[str] = field(default_factory=lambda: deque(maxlen=SCROLLBACK))
    prompt: str = ""
    finished: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def show(self, screen: Screen) -> None:
        self.scrollback.extend(screen_text(screen))
        self.prompt = "" if screen.finished else screen.prompt
        self.finished = screen.finished

    def typed(self, line: str) -> None:
        """The prompt answered, with what was typed after it, as a terminal leaves it."""
        self.scrollback.append(self.prompt + line)


class ConsoleFiles(Answer):
    """The browser's memory.m and stat.m as the store keeps them."""

    memory_records: int = Field(description="33-byte records in memory.m")
    memory_bytes: int
    side1_wins: int = Field(description="the sum of the records' first counts (games side '1' won)")
    side2_wins: int = Field(description="the sum of the records' second counts")
    stat: list[int] = Field(description="stat.m's nine counts, in the file's order")


class ConsoleView(Answer):
    """The console's screen: what the terminal's `gamelearn teeko console` prints, line by line."""

    screen: list[str] = Field(description="the lines shown so far, each answered prompt with what was typed")
    prompt: str = Field(description="the prompt waiting for a line (empty once the program has ended)")
    finished: bool = Field(description="the program has ended (q): it can be started again")
    seed: int = Field(description="the seed of the program's random choices in this session")
    original: bool = Field(description="the original 1999 console, its bugs included (else the fixed program)")
    files: ConsoleFiles


class ConsoleService:
    """The console endpoints' work, over the games' service (its store, pool and owner locks)."""

    def __init__(self, service: WebService, total: int = TOTAL_SESSIONS) -> None:
        self.service = service
        self.total = total
        self._runs: OrderedDict[str, ConsoleRun] = OrderedDict()
        #: The browsers that chose the original console; kept longer than their sessions (a
        #: browser's choice outlives its session put out of memory), bounded all the same.
        self._original: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def knows(self, owner: str) -> bool:
        with self._lock:
            return owner in self._runs

    def _start(self, owner: str, seed: int | None, original: bool | None = None) -> ConsoleRun:
        chosen = secrets.randbelow(SEED_LIMIT + 1) if seed is None else seed
        with self._lock:
            if original is None:
                original = owner in self._original
            elif original:
                self._original[owner] = None
                self._original.move_to_end(owner)
                while len(self._original) > MODES_KEPT * self.total:
                    self._original.popitem(last=False)
            else:
                self._original.pop(owner, None)
        session = ConsoleSession(
            self.service.store,
            EngineBrain(chosen, original=original),
            memory_name=MEMORY_NAME,
            stat_name=STAT_NAME,
            owner=owner,
            original=original,
        )
        run = ConsoleRun(session, chosen, original)
        run.show(session.start())
        with self._lock:
            self._runs[owner] = run
            self._runs.move_to_end(owner)
            while len(self._runs) > self.total:
                self._runs.popitem(last=False)
        return run

    def _run(self, owner: str) -> ConsoleRun:
        with self._lock:
            run = self._runs.get(owner)
            if run is not None:
                self._runs.move_to_end(owner)
                return run
        return self._start(owner, None)

    def view(self, owner: str) -> ConsoleView:
        """The browser's session as its screen shows it (the program started, if it was not)."""
        run = self._run(owner)
        with run.lock:
            return self._view(owner, run)

    def restart(self, owner: str, seed: int | None, original: bool | None = None) -> ConsoleView:
        """The program started again (a game in progress is dropped, as quitting dropped it), in the
        mode ``original`` names, or the browser's mode when None."""
        run = self._start(owner, seed, original)
        with run.lock:
            return self._view(owner, run)

    def send(self, owner: str, line: str) -> ConsoleView:
        """One line typed at the prompt; the program answers (its moves are the pool's work)."""
        if any(ord(ch) < 32 for ch in line):
            raise ValueError("a typed line holds no control characters (Enter ends it)")
        run = self._run(owner)
        with self.service.pool.slot(owner), run.lock:
            if run.finished:
                raise ValueError("the program has ended (q): start it again")
            run.typed(line)
            run.show(run.session.send(line))
            return self._view(owner, run)

    def _view(self, owner: str, run: ConsoleRun) -> ConsoleView:
        return ConsoleView(
            screen=list(run.scrollback),
            prompt=run.prompt,
            finished=run.finished,
            seed=run.seed,
            original=run.original,
            files=self.files(owner),
        )

    # memory.m and stat.m ---------------------------------------------------------------------------

    # Reads on the pages' own connection (service.reader): a write waiting for another program's
    # lock holds the writer's, never a browser's read.

    def files(self, owner: str) -> ConsoleFiles:
        store = self.service.reader
        summary = summarize(MEMORY_NAME, load_memory(store, MEMORY_NAME, owner=owner) or [])
        return ConsoleFiles(
            memory_records=summary.records,
            memory_bytes=summary.bytes,
            side1_wins=summary.x_wins,
            side2_wins=summary.o_wins,
            stat=list(load_stat(store, STAT_NAME, owner=owner)),
        )

    def memory_file(self, owner: str) -> bytes:
        """The browser's memory as the thesis program's memory.m, byte for byte."""
        return format_memory(load_memory(self.service.reader, MEMORY_NAME, owner=owner) or [])

    def stat_file(self, owner: str) -> bytes:
        return format_stat(load_stat(self.service.reader, STAT_NAME, owner=owner))

    def load_memory(self, owner: str, data: bytes, source: str) -> ConsoleFiles:
        """A memory.m uploaded becomes the browser's memory: checked whole first (ThesisFormatError,
        a ValueError naming the record and what is wrong), then written in one transaction."""
        entries = parse_memory_entries(data, source=source)
        store = self.service.store
        with self.service.owner_lock(owner), store.transaction():
            save_memory(store, MEMORY_NAME, entries, owner=owner)
        return self.files(owner)

    def load_stat(self, owner: str, data: bytes, source: str) -> ConsoleFiles:
        counts = parse_stat(data, source=source)
        with self.service.owner_lock(owner):
            save_stat(self.service.store, counts, STAT_NAME, owner=owner)
        return self.files(owner)
