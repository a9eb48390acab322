"""Where an experiment's independent, seeded tasks run: in this process, in local processes
(concurrent.futures) or on a Dask cluster.  Every task carries its own seed, so the results are the
same wherever they run; the thesis experiment and the tournaments both go through here.

``workers=1`` runs each task at once in this process; more start a ``ProcessPoolExecutor``;
``dask="local"`` starts a ``LocalCluster`` of ``workers`` processes, and any other text is the
address of a running scheduler (ValueError, in one line, if it cannot be reached).

Local workers are bounded by the CPUs (:func:`check_workers`): more processes than cores only
share them, and a typo such as ``--workers 100000`` would start thousands of processes.

An interrupt (^C, or SIGTERM turned into one by the command) stops a run within seconds: the
pending tasks are cancelled (``shutdown(cancel_futures=True)``), the worker processes, which
ignore ^C themselves, are terminated, a Dask client and its local cluster are closed; what had
finished is handed back on the :class:`Interrupted` raised (a KeyboardInterrupt).

A worker process (a pool's, a manager's) ends when the process that started it dies, SIGKILL
included (:func:`end_with_parent`): the kernel's parent-death signal on Linux, and a watchdog
thread that sees the worker re-parented everywhere, so no orphan goes on computing, or holds the
parent's output open, after it.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from multiprocessing.managers import SyncManager
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


#: How long a run waits for a Dask scheduler's first worker before it says there is none.
DASK_WORKER_WAIT = 30.0


def default_workers() -> int:
    """min(2, cpu): the machine this was written on has two cores shared with others."""
    return max(1, min(2, os.cpu_count() or 1))


class InlineExecutor:
    """workers=1: run each task at once in this process, handing back a finished future."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args))
        except Exception as error:  # handed to whoever asks for the result, as a pool would
            future.set_exception(error)
        # an interrupt is not a task's result: it stops the run here, before the next task starts
        return future


class DaskExecutor:
    """A Dask client's ``submit``, each call a task of its own (``pure=False``: never merged with an
    equal one, as a process pool would not)."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        return self.client.submit(fn, *args, pure=False)


def max_workers() -> int:
    """The most local worker processes a run may start: this machine's CPUs."""
    return max(1, os.cpu_count() or 1)


def check_workers(workers: int, dask: str | None = None) -> None:
    """ValueError, in one line, for a number of local workers below 1 or above the CPUs (a remote
    Dask scheduler brings its own workers: only the local ones are bounded)."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if dask is not None:
        require_dask()
    if dask in (None, "local") and workers > max_workers():
        raise ValueError(
            f"workers: {workers} is more than the {max_workers()} CPUs of this machine; give at most {max_workers()} "
            "(more processes would only share them)"
        )


def require_dask() -> None:
    """ValueError, in one line naming the extra, where dask.distributed is not installed (before any
    game is played, instead of an ImportError from inside the run)."""
    try:
        import dask.distributed  # noqa: F401 - the dask extra, asked for by --dask alone
    except ModuleNotFoundError:
        raise ValueError(
            "a Dask run needs dask[distributed], which is not installed: pip install 'gamelearn[dask]'"
        ) from None


class Interrupted(KeyboardInterrupt):
    """A run stopped by an interrupt; ``finished`` holds the results of the tasks that had finished
    (``None`` for the others), in the order of the tasks."""

    def __init__(self, finished: list[Any]) -> None:
        super().__init__(f"interrupted with {sum(r is not None for r in finished)} of {len(finished)} tasks finished")
        self.finished = finished


#: prctl's option that asks the kernel for a signal when the parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: How often a worker's watchdog looks whether its parent is still there.
WATCH_SECONDS = 0.5


def end_with_parent(parent: int) -> None:
    """In a worker started by process ``parent``: end it when ``parent`` dies.  On Linux the kernel
    sends it SIGKILL then (``prctl(PR_SET_PDEATHSIG)``: at once, even inside a compiled kernel that
    holds the GIL); everywhere, a daemon thread ends it within :data:`WATCH_SECONDS` of being
    re-parented (``os.getppid()`` no longer ``parent``).  A worker has nothing of its own to keep:
    its results go to the parent, which is gone."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):  # no libc prctl: the watchdog alone
            pass
    if os.getppid() != parent:  # the parent died before the signal was asked for
        os._exit(128 + signal.SIGKILL)
    threading.Thread(target=_watch_parent, args=(parent,), name="gamelearn-parent-watch", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(128 + signal.SIGKILL)


def _start_worker(parent: int) -> None:
    _ignore_interrupts()
    end_with_parent(parent)


def started_manager() -> Any:
    """A started ``multiprocessing`` manager (its queues reach the workers) whose server process
    ends with this one (:func:`end_with_parent`); a context manager that shuts it down."""
    manager = SyncManager()
    manager.start(_start_worker, (os.getpid(),))
    return manager


def _ignore_interrupts() -> None:
    """In a worker process: ^C reaches the whole process group, and only the parent should act;
    SIGTERM (the parent ending its workers) ends it at once, as by default: a forked worker would
    otherwise inherit the parent's handler, which turns SIGTERM into a KeyboardInterrupt and its
    traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the worker processes now, not when their tasks finish."""
    # the pool's own processes: concurrent.futures has no public way to end running tasks
    running = getattr(pool, "_processes", None)
    processes = list(running.values()) if isinstance(running, dict) else []
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(timeout=5)


@contextmanager
def executor(workers: int, dask: str | None = None, on_client: Callable[[Any], None] | None = None) -> Iterator[Any]:
    """Something with ``submit(fn, *args)`` giving a future: inline, a process pool, or a Dask client
    (handed to ``on_client`` before any task is submitted)."""
    check_workers(workers, dask)
    if dask is not None:
        from dask.distributed import Client, LocalCluster  # the dask extra (--dask)

        cluster = None
        if dask == "local":
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.CRITICAL,
            )
            client = Client(cluster)
        else:
            try:
                client = Client(dask, timeout=10)
            except (OSError, TimeoutError, ValueError) as error:
                raise ValueError(f"cannot reach the Dask scheduler at {dask!r}: {error}") from None
            try:  # a scheduler with no worker takes the tasks and runs none: say so, not hang
                client.wait_for_workers(1, timeout=DASK_WORKER_WAIT)
            except TimeoutError:
                client.close()
                raise ValueError(
                    f"the Dask scheduler at {dask!r} has no worker (waited {DASK_WORKER_WAIT:g} s); "
                    f"start one with `dask worker {dask}`"
                ) from None
        try:
            if on_client is not None:
                on_client(client)
            yield DaskExecutor(client)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
        return
    if workers == 1:
        yield InlineExecutor()
        return
    # JAX (the az player) runs threads that a forked child would inherit in an unknown state (a
    # deadlock, as seen): once JAX is loaded, the workers are started afresh instead of forked.
    context = multiprocessing.get_context("spawn") if "jax" in sys.modules else None
    pool = ProcessPoolExecutor(
        max_workers=workers, initializer=_start_worker, initargs=(os.getpid(),), mp_context=context
    )
    try:
        yield pool
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def completing(futures: Sequence[Any]) -> Iterator[Any]:
    """The futures (a process pool's or Dask's) as each completes."""
    if futures and not isinstance(futures[0], Future):  # Dask futures
        from dask.distributed import as_completed as dask_completed  # the dask extra (--dask)

        return iter(dask_completed(list(futures)))
    return as_completed(futures)


def result_while_others_finish(
    first: Any, others: Sequence[Any], on_done: Callable[[Any], None] | None = None
) -> tuple[Any, set[int]]:
    """``first``'s result, waited for while ``on_done`` hears each of ``others`` that finishes
    before it; with the positions, in ``others``, of those it heard."""
    position = {id(future): index for index, future in enumerate(others)}
    heard: set[int] = set()
    for future in completing([first, *others]):
        if future is first:
            return future.result(), heard
        result = future.result()
        heard.add(position[id(future)])
        if on_done is not None:
            on_done(result)
    return first.result(), heard  # not reached: ``first`` is among the completed


def wait_all(futures: Sequence[Any], on_done: Callable[[Any], None] | None = None) -> list[Any]:
    """The futures' results in submission order; ``on_done`` hears each result as it completes."""
    completed = completing(futures)
    try:
        for future in completed:
            result = future.result()
            if on_done is not None:
                on_done(result)
    except KeyboardInterrupt:
        raise Interrupted(finished_results(futures)) from None
    return [future.result() for future in futures]


def finished_results(futures: Sequence[Any]) -> list[Any]:
    """Each future's result if it finished well, else None (what an interrupted run keeps)."""
    return [_finished(future) for future in futures]


def _finished(future: Any) -> Any:
    """The result of a future that finished well, else None."""
    try:
        if future.done() and not future.cancelled():
            return future.result()
    except Exception:
        return None
    return None


def run_all(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    workers: int,
    dask: str | None = None,
    on_done: Callable[[R], None] | None = None,
    on_client: Callable[[Any], None] | None = None,
) -> list[R]:
    """``fn`` applied to every task (a picklable, seeded task), results in the order of ``tasks``;
    ``on_client`` is handed the Dask client, on Dask, before the tasks are submitted."""
    if not tasks:
        return []
    with executor(workers if dask else min(workers, len(tasks)), dask, on_client) as running:
        if isinstance(running, InlineExecutor):
            return run_inline(fn, tasks, on_done)
        return wait_all([running.submit(fn, task) for task in tasks], on_done)


def run_inline(fn: Callable[[T], R], tasks: Sequence[T], on_done: Callable[[R], None] | None = None) -> list[R]:
    """In this process, one task after another; ``on_done`` hears each result as it comes, and an
    interrupt keeps the tasks that had finished (:class:`Interrupted`), as the pools do."""
    results: list[R] = []
    try:
        for task in tasks:
            results.append(fn(task))
            if on_done is not None:
                on_done(results[-1])
    except KeyboardInterrupt:
        raise Interrupted([*results, *[None] * (len(tasks) - len(results))]) from None
    return results
