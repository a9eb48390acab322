"""The bounded worker pool of computer moves: at most ``workers`` moves are worked on at once and
at most one per browser, so one client asking for expensive moves cannot slow everyone else's.

A request that finds every worker busy waits a moment, then is answered 503 with Retry-After
(:class:`PoolFull`); a browser that asks for a second move while its first is still being worked
on is answered 409 (:class:`MoveInFlight`)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class PoolFull(RuntimeError):
    """Every worker is busy: try again in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the server is busy with other players' moves; try again in {retry_after} s")
        self.retry_after = retry_after


class MoveInFlight(ValueError):
    """This browser already has a computer move being worked on."""


class MovePool:
    def __init__(self, workers: int, wait_seconds: float, retry_after: int) -> None:
        self.workers = workers
        self.wait_seconds = wait_seconds
        self.retry_after = retry_after
        self._slots = threading.BoundedSemaphore(workers)
        self._owners: set[str] = set()
        self._lock = threading.Lock()
        self.busy = 0  # moves being worked on now (for tests and the benchmark)
        self.most_busy = 0

    @contextmanager
    def slot(self, owner: str) -> Iterator[None]:
        with self._lock:
            if owner in self._owners:
                raise MoveInFlight("your previous move is still being answered; wait for it")
            self._owners.add(owner)
        try:
            if not self._slots.acquire(timeout=self.wait_seconds):
                raise PoolFull(self.retry_after)
            try:
                with self._lock:
                    self.busy += 1
                    self.most_busy = max(self.most_busy, self.busy)
                yield
            finally:
                with self._lock:
                    self.busy -= 1
                self._slots.release()
        finally:
            with self._lock:
                self._owners.discard(owner)
