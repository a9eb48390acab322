"""`gamelearn teeko batch` loses nothing (docs/store.md, "Promises" 1 and 2).

* Stopped by SIGINT or SIGTERM, or killed by SIGKILL, at a random (seeded) moment, a real batch process has
  kept a consistent prefix of its games: the stored result says k games, the score counts the
  first k games' results, and the memory holds exactly the first k games' lessons (checked by
  playing those k games again in this process, an independent run of the same seeded program).
* Four batches writing one memory at once leave a memory that exports and equals, record for
  record, what some serial order of all their games' lessons makes (each batch's lessons are read
  from its trace, then replayed).
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from gamelearn.store.store import Store
from gamelearn.thesis.batch import BatchConfig, run_batch
from gamelearn.thesis.board import digits_key, swap_key
from gamelearn.thesis.memories import load_memory, load_stat
from gamelearn.thesis.memory import Memory
from reliability_support import gamelearn, memory_file, one_error_line, start_gamelearn

pytestmark = [
    pytest.mark.slow,  # real processes and signals
    pytest.mark.skipif(os.name != "posix", reason="signals to a child process: POSIX"),
]


def kept_state(home: Path) -> tuple[int, tuple[int, ...], list[tuple[str, int, int]] | None]:
    """What the store kept: games of the batch's result (0 if none), the score, the memory 'probe'."""
    with Store(home / "gamelearn.sqlite3", readonly=True) as store:
        results = store.results("teeko-batch")
        games = results[-1]["games"] if results else 0
        if results:
            record = results[-1]
            assert len(record["per_game"]) == games == record["x_wins"] + record["draws"] + record["o_wins"]
        return games, load_stat(store), load_memory(store, "probe")


def replay(games: int, seed: int) -> tuple[tuple[int, ...], list[tuple[str, int, int]]]:
    """The score and player II's memory after the first ``games`` games, played in this process."""
    if games == 0:
        return (0,) * 9, []
    result = run_batch(BatchConfig(games=games, seed=seed, second_memory=Memory()))
    x, d, o = result.counts()
    return (x, d, o, 0, 0, 0, 0, 0, 0), list(result.second_memory.entries())


#: Seconds between the batches' periodic saves here (the batch's test hook; 2 s by default): the
#: same saves, sooner, and fewer games to replay.
SAVE_EVERY = 0.5
#: The tests below signal a batch once a save has kept at least this many games, enough for wins
#: and lessons (the first save may hold one game: the first game waits for the engine to load).
KEPT_AT_LEAST = 100


def until_kept(home: Path, process: subprocess.Popen, poll: float) -> int:
    """Waits until the batch's store keeps at least KEPT_AT_LEAST games; returns how many it keeps."""
    deadline = time.monotonic() + 60  # a guard, not a measurement
    while time.monotonic() < deadline and process.poll() is None:
        if (home / "gamelearn.sqlite3").exists():
            kept = kept_state(home)[0]
            if kept >= KEPT_AT_LEAST:
                return kept
        time.sleep(poll)
    raise AssertionError(f"no save of {KEPT_AT_LEAST} games within 60 s (exit status {process.poll()})")


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=["SIGINT", "SIGTERM", "SIGKILL"])
def test_a_stopped_or_killed_batch_keeps_a_consistent_prefix(how: signal.Signals, tmp_path: Path):
    rng = random.Random(f"batch-{how.name}")
    seed = rng.randrange(1, 1000)
    home = tmp_path / "home"
    process = start_gamelearn(
        home, "teeko", "batch", "--games", "200000", "--seed", str(seed), "--second-memory", "probe", "--new",
        env={"GAMELEARN_TEST_SAVE_EVERY": str(SAVE_EVERY)},
    )  # fmt: skip
    assert process.stdout is not None
    assert "games, fixed mode" in process.stdout.readline()  # the header: play begins
    until_kept(home, process, poll=0.1)  # until a save has kept games
    time.sleep(rng.uniform(0.0, 1.1 * SAVE_EVERY))  # then a random moment, before or after its next save
    assert process.poll() is None, "the batch ended before the signal: give it more games"
    process.send_signal(how)
    out, err = process.communicate(timeout=60)
    games, score, memory = kept_state(home)
    if how in (signal.SIGINT, signal.SIGTERM):
        assert process.returncode == 128 + how, err  # 130 for SIGINT, 143 for SIGTERM
        said = re.search(r"Interrupted after (\d+) of 200000 games; all (\d+) are kept", err)
        assert said is not None and int(said[1]) == int(said[2]) == games > 0, err
    else:
        assert process.returncode == -signal.SIGKILL
    expected_score, expected_memory = replay(games, seed)
    assert score == expected_score
    assert (memory or []) == expected_memory
    if memory:
        exported = gamelearn(home, "teeko", "memory", "export", "probe", str(tmp_path / "probe.m"))
        assert exported.returncode == 0, exported.stderr


#: Seconds each COMMIT of the batch below is followed by a pause (the store's test hook): the window
#: where a signal landing in COMMIT's fsync is raised, widened from microseconds.
PAUSE_AFTER_COMMIT = 1.0


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_just_after_a_save_commits_counts_no_game_twice(how: signal.Signals, tmp_path: Path):
    """The signal lands while a periodic save has committed and not yet returned: the final
    save must not apply the same games again (the score was once twice the games kept)."""
    home = tmp_path / "home"
    env = {"GAMELEARN_TEST_PAUSE_AFTER_COMMIT": str(PAUSE_AFTER_COMMIT), "GAMELEARN_TEST_SAVE_EVERY": str(SAVE_EVERY)}
    process = start_gamelearn(
        home, "teeko", "batch", "--games", "200000", "--seed", "7", "--second-memory", "probe", "--new", env=env
    )
    assert process.stdout is not None
    assert "games, fixed mode" in process.stdout.readline()
    first = until_kept(home, process, poll=0.02)  # a save is visible: it has committed, and now pauses
    assert process.poll() is None
    process.send_signal(how)  # well inside the 1 s pause: it follows the COMMIT by at most ~0.1 s
    out, err = process.communicate(timeout=60)
    assert process.returncode == 128 + how, err  # 130 for SIGINT, 143 for SIGTERM
    said = re.search(r"Interrupted after (\d+) of 200000 games; all (\d+) are kept", err)
    games, score, memory = kept_state(home)
    # the signal waited for the save in progress, then stopped the run: no game was played after it
    assert said is not None and int(said[1]) == int(said[2]) == games == first, err
    expected_score, expected_memory = replay(games, 7)
    assert score == expected_score  # each kept game counted once
    assert (memory or []) == expected_memory


# --- four batches, one memory ----------------------------------------------------------------


def lessons_from_trace(trace: str) -> list[tuple[tuple[int, ...], int]]:
    """Each won game's lesson (boards after plies 9.., the side it is learned as won by), in order.

    Original mode learns a won game as won by side +1 when its last ply is odd (the thesis's
    parity rule); every side learns (+h+s+l), so every game that reached the moving phase teaches."""
    boards: dict[int, list[int]] = {}
    lessons = []
    for line in trace.splitlines():
        if line.startswith("TRACE PLY "):
            fields = dict(part.split("=", 1) for part in line.split()[2:] if "=" in part)
            if int(fields["n"]) >= 9:
                boards.setdefault(int(fields["g"]), []).append(digits_key(fields["b"]))
        elif line.startswith("TRACE END "):
            fields = dict(part.split("=", 1) for part in line.split()[2:] if "=" in part)
            game, plies = int(fields["g"]), int(fields["plies"])
            if fields["result"] != "D" and plies + 1 >= 9:
                lessons.append((tuple(boards.get(game, [])), 1 if plies % 2 else -1))
    return lessons


def serial_order(
    runs: Sequence[list[tuple[tuple[int, ...], int]]], stored: list[tuple[str, int, int]]
) -> list[tuple[tuple[int, ...], int]] | None:
    """An interleaving of ``runs`` (each kept in its order) whose lessons, learned one after another
    into an empty memory, append its records in ``stored``'s order and orientation; None if none.

    A lesson that brings no new board can go at any time (the records it counts in are fixed);
    one that brings new boards must bring exactly the next stored ones: a depth-first search."""
    order_keys = [digits_key(board) for board, _, _ in stored]
    position = {min(k, swap_key(k)): index for index, k in enumerate(order_keys)}
    failed: set[tuple[int, ...]] = set()

    def new_boards(lesson: tuple[tuple[int, ...], int], known: int) -> list[int] | None:
        fresh: list[int] = []
        seen: set[int] = set()
        for k in lesson[0]:
            cls = min(k, swap_key(k))
            if cls not in position:
                return None  # a board the stored memory never got: no order explains it
            if position[cls] < known or cls in seen:
                continue
            seen.add(cls)
            fresh.append(k)
        return fresh

    def search(pointers: tuple[int, ...], known: int, taken: list) -> list | None:
        if all(p == len(run) for p, run in zip(pointers, runs, strict=True)):
            return list(taken) if known == len(stored) else None
        if pointers in failed:
            return None
        for index, run in enumerate(runs):
            if pointers[index] == len(run):
                continue
            lesson = run[pointers[index]]
            fresh = new_boards(lesson, known)
            if fresh is None or fresh != order_keys[known : known + len(fresh)]:
                continue
            after = pointers[:index] + (pointers[index] + 1,) + pointers[index + 1 :]
            taken.append(lesson)
            found = search(after, known + len(fresh), taken)
            if found is not None:
                return found
            taken.pop()
        failed.add(pointers)
        return None

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    return search(tuple(0 for _ in runs), 0, [])


def test_four_concurrent_batches_on_one_memory_lose_no_lesson(tmp_path: Path):
    home = tmp_path / "home"
    seeds = (11, 12, 13, 14)
    processes = [
        start_gamelearn(
            home,
            "teeko",
            "batch",
            "--original",
            "--games",
            "60",
            "--seed",
            str(seed),
            "--second-memory",
            "probe",
            "--new",
            "--trace",
            str(tmp_path / f"trace-{seed}.txt"),
        )  # fmt: skip
        for seed in seeds
    ]
    for process in processes:
        out, err = process.communicate(timeout=240)
        assert process.returncode == 0, err
    runs = [lessons_from_trace((tmp_path / f"trace-{seed}.txt").read_text()) for seed in seeds]
    assert sum(map(len, runs)) > 40  # enough lessons for the writers to meet
    exported = gamelearn(home, "teeko", "memory", "export", "probe", str(tmp_path / "probe.m"))
    assert exported.returncode == 0, exported.stderr  # no board stored twice
    with Store(home / "gamelearn.sqlite3", readonly=True) as store:
        stored = load_memory(store, "probe")
        assert stored is not None
        assert load_stat(store)[:3] == tuple(
            sum(r[k] for r in store.results("teeko-batch")) for k in ("x_wins", "draws", "o_wins")
        )
    order = serial_order(runs, stored)
    assert order is not None, "no serial order of the four batches' lessons makes the stored memory"
    memory = Memory()
    for boards, winner in order:
        memory.learn(boards, winner)
    assert list(memory.entries()) == stored  # record for record: boards, order and both counts


def test_two_concurrent_imports_of_one_name_one_wins_one_is_refused(tmp_path: Path):
    home = tmp_path / "home"
    source = memory_file(tmp_path / "m.m", 10_000)
    gamelearn(home, "teeko", "stat", "reset")  # the store exists: both race on the import alone
    for _ in range(2):  # an overlap each time is likely, not certain: twice
        processes = [start_gamelearn(home, "teeko", "memory", "import", str(source), "--name", "same")
                     for _ in range(2)]  # fmt: skip
        outcomes = []
        for process in processes:
            out, err = process.communicate(timeout=120)
            outcomes.append((process.returncode, out, err))
        codes = sorted(code for code, _, _ in outcomes)
        assert codes == [0, 2], outcomes
        loser = next(o for o in outcomes if o[0] == 2)
        line = one_error_line(subprocess.CompletedProcess([], loser[0], loser[1], loser[2]))
        assert "a memory named 'same' is already in the store" in line
        assert gamelearn(home, "teeko", "memory", "delete", "same").returncode == 0
