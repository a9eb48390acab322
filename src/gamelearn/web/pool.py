"""The bounded worker pool of computer moves, in two lanes: ordinary moves, and heavy ones (a search
of many playouts or simulations, a deep alpha-beta).  At most one move per browser is worked on at
a time, in either lane, so one client asking for expensive moves cannot slow everyone else's: its
heavy moves wait in the heavy lane's queue, and ordinary moves never wait behind them.

Each lane has ``workers`` moves at once and one first-come queue.  A browser has one move in the
pool at most, so the queue takes the browsers waiting in turn: fair per owner.  A request that
waits longer than the lane's wait, or finds its queue full, is answered 503 with Retry-After
(:class:`PoolFull`); a browser that asks for a second move while its first is still being worked on
is answered 409 (:class:`MoveInFlight`)."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager


class PoolFull(RuntimeError):
    """Every worker is busy: try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the server is busy with other players' moves; try again in {retry_after} s")
        self.retry_after = retry_after


class MoveInFlight(ValueError):
    """This browser already has a computer move being worked on."""


class Lane:
    """``workers`` moves at once; the others wait first come, first served, ``queue`` at most.

    Each waiting request has a condition of its own on the lane's lock, and a worker set free
    wakes only the first in line: with one condition for all, every release woke every waiting
    thread to find it was not its turn (seven wake-ups a move with 8 browsers on 2 workers)."""

    def __init__(self, workers: int, queue: int, wait_seconds: float, retry_after: int) -> None:
        self.workers = workers
        self.queue = queue
        self.wait_seconds = wait_seconds
        self.retry_after = retry_after
        self._lock = threading.Lock()
        self._waiting: deque[threading.Condition] = deque()
        self.busy = 0  # moves being worked on now (for tests and the benchmark)
        self.most_busy = 0

    @property
    def waiting(self) -> int:
        with self._lock:
            return len(self._waiting)

    def _wake_first(self) -> None:
        """The first in line, when a worker is free for it (the lane's lock held)."""
        if self._waiting and self.busy < self.workers:
            self._waiting[0].notify()

    @contextmanager
    def slot(self) -> Iterator[None]:
        with self._lock:
            if len(self._waiting) >= self.queue:
                raise PoolFull(self.retry_after)
            turn = threading.Condition(self._lock)
            self._waiting.append(turn)
            deadline = time.monotonic() + self.wait_seconds
            while self._waiting[0] is not turn or self.busy >= self.workers:
                left = deadline - time.monotonic()
                if left <= 0:
                    self._waiting.remove(turn)
                    self._wake_first()  # the one behind may be first now
                    raise PoolFull(self.retry_after)
                turn.wait(left)
            self._waiting.popleft()
            self.busy += 1
            self.most_busy = max(self.most_busy, self.busy)
            self._wake_first()  # the next in line may start too, if a worker is free
        try:
            yield
        finally:
            with self._lock:
                self.busy -= 1
                self._wake_first()


class MovePool:
    """The two lanes, and the rule of one move in flight per browser across both."""

    def __init__(
        self,
        workers: int,
        wait_seconds: float,
        retry_after: int,
        heavy_workers: int = 1,
        heavy_queue: int = 16,
        heavy_wait_seconds: float = 180.0,
    ) -> None:
        # The ordinary queue's bound: every request thread may wait in it for a moment.
        self.ordinary = Lane(workers, 10_000, wait_seconds, retry_after)
        self.heavy = Lane(heavy_workers, heavy_queue, heavy_wait_seconds, max(retry_after, 10))
        self.workers = workers
        self._owners: set[str] = set()
        self._lock = threading.Lock()

    @property
    def busy(self) -> int:
        return self.ordinary.busy + self.heavy.busy

    @property
    def most_busy(self) -> int:
        return self.ordinary.most_busy

    @contextmanager
    def slot(self, owner: str, heavy: bool = False) -> Iterator[None]:
        with self._lock:
            if owner in self._owners:
                raise MoveInFlight("your previous move is still being answered; wait for it")
            self._owners.add(owner)
        try:
            with (self.heavy if heavy else self.ordinary).slot():
                yield
        finally:
            with self._lock:
                self._owners.discard(owner)
