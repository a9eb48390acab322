"""Progress told in a few plain lines, for where a redrawn bar does not belong: a notebook's cell,
a log file, a pipe.  A bar redraws itself many times a second with escape codes; written to
something that is not a terminal, each redraw is text that stays.  Here a run prints one line at
each quarter of its total (the share done then), so a long run leaves four lines (a task that plays many games at a
time tells each game through :class:`GameCounter`)."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any
from uuid import uuid4

from .runners import started_manager

#: How many lines a run with a known total prints: at 25%, 50%, 75% and 100%.
MILESTONES = 4


class Milestones:
    """``advance(n)`` as work is done, ``set(done)`` for an absolute count; a line is written
    (``write``, default ``print``) when the count passes each quarter of ``total``.  Without a
    total (a run for a time), ``set`` is given seconds, and the quarters are of that time."""

    def __init__(self, label: str, total: float, unit: str, write: Callable[[str], None] | None = None) -> None:
        self.label, self.total, self.unit = label, total, unit
        self.write = write or (lambda line: print(line, flush=True))
        self.done = 0.0
        self.shown = 0  # milestones written so far
        self.started = time.perf_counter()

    def advance(self, count: float = 1) -> None:
        self.set(self.done + count)

    def set(self, done: float) -> None:
        self.done = done
        if self.total <= 0:
            return
        reached = min(MILESTONES, int(MILESTONES * done / self.total + 1e-9))
        if reached > self.shown:
            self.shown = reached
            seconds = time.perf_counter() - self.started
            shown = f"{int(done):,} of {int(self.total):,} {self.unit}"
            # the share done, not the quarter's name: 3 learners are told at 33%, 66% and 100%
            share = min(100, int(100 * done / self.total + 1e-9))
            self.write(f"{self.label}: {share}% ({shown}, {seconds:.0f} s wall)")


def progress_of(
    progress: bool | Callable[[int], None] | None, label: str, total: float, unit: str
) -> Callable[[int], None] | None:
    """What an API call's ``progress=`` means: None or False, nothing; True, a few lines on stdout
    (:class:`Milestones`); a callable, called with each count of work just done."""
    if progress is None or progress is False:
        return None
    if progress is True:
        return Milestones(label, total, unit).advance
    if not callable(progress):
        raise ValueError(f"progress is True, False, None or a function of a count, not {progress!r}")
    return progress


class GameCounter:
    """Progress a game at a time from tasks that each play many games (a tournament's pairs), in
    this process, in local worker processes or on Dask workers: each task puts ``(task, game)`` on
    :attr:`queue` after each game, and they are passed on here to ``progress(1)``.  When a task's
    result arrives, :meth:`finish` counts its games not heard of yet; a message that comes after
    (a task rerun after its worker died tells its games again) is dropped, so every game counts
    once."""

    def __init__(self, progress: Callable[[int], None], processes: bool, dask: bool = False) -> None:
        self.progress = progress
        self.lock = threading.Lock()
        self.heard: dict[int, set[int]] = {}
        self.finished: set[int] = set()
        self.manager: Any = None
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None
        #: What ``progress`` raised in another thread (the drain's, Dask's): raised in the caller's
        #: thread at the next :meth:`finish`, where a ^C the callback stands for stops the run.
        self.failed: BaseException | None = None
        self.queue: Any
        if dask:  # the workers log events that the client hears once it subscribes (:meth:`listen`)
            self.queue = DaskEvents(f"gamelearn-games-{uuid4().hex}")
            return
        if not processes:  # the tasks run here, one after another: each game is heard at once
            self.queue = _Direct(self._hear)
            return
        self.manager = started_manager()  # a queue the worker processes can reach, picklable
        self.queue = self.manager.Queue()
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        while not self.stopping.is_set():
            try:
                task, game = self.queue.get(timeout=0.1)
            except queue.Empty:
                continue
            except (EOFError, OSError):  # the manager is gone: the run is over
                return
            self._hear_elsewhere(task, game)
            if self.failed is not None:
                return

    def _hear_elsewhere(self, task: int, game: int) -> None:
        """:meth:`_hear` from a thread not the caller's: what the progress callback raises is kept for
        :meth:`finish` to raise, where the caller can catch it (in this thread it would end the thread
        and only be printed)."""
        if self.failed is not None:
            return
        try:
            self._hear(task, game)
        except BaseException as error:
            self.failed = error

    def _hear(self, task: int, game: int) -> None:
        with self.lock:
            if task in self.finished or game in self.heard.setdefault(task, set()):
                return
            self.heard[task].add(game)
        self.progress(1)

    def finish(self, task: int, games: int) -> None:
        """Task ``task`` is done with ``games`` games: count those not heard of yet (first raising
        what the progress callback raised in another thread, if it did)."""
        if self.failed is not None:
            raise self.failed
        with self.lock:
            rest = games - len(self.heard.get(task, ()))
            self.finished.add(task)
        if rest > 0:
            self.progress(rest)

    def listen(self, client: Any) -> None:
        """Hear the Dask workers' games through ``client``, before any task is submitted (the
        subscription goes to the scheduler ahead of the tasks, on the same stream)."""
        client.subscribe_topic(self.queue.topic, lambda event: self._hear_elsewhere(*event[1]))

    def close(self) -> None:
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(timeout=5)
        if self.manager is not None:
            self.manager.shutdown()


class _Direct:
    """A queue's ``put`` that hands the item on at once (tasks run in this process)."""

    def __init__(self, hear: Callable[[int, int], None]) -> None:
        self.hear = hear

    def put(self, item: tuple[int, int]) -> None:
        self.hear(*item)


class DaskEvents:
    """A queue's ``put`` for a task on a Dask worker: the item is logged as an event under
    ``topic`` (Dask's ``Worker.log_event``: it joins the worker's batched stream to the scheduler,
    without a round trip), and the scheduler hands it to the client that subscribed.  Picklable:
    only the topic travels with the task.  Run outside a worker (a task run here), it does nothing:
    the task's result counts its games."""

    def __init__(self, topic: str) -> None:
        self.topic = topic

    def put(self, item: tuple[int, int]) -> None:
        from distributed import get_worker  # the optional extra gamelearn[dask]: only on a Dask worker

        try:
            worker = get_worker()
        except ValueError:  # not on a worker
            return
        worker.log_event(self.topic, list(item))
