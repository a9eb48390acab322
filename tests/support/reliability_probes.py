"""Interrupting the long commands as SQLite's tests do: real processes, real signals, at seeded
moments and in the window just after a COMMIT, and then four checks on what is left (docs/store.md,
promise 8):

* the store passes ``PRAGMA integrity_check``;
* the learner it keeps still loads;
* what is kept equals a replay, in this process, of exactly the work the command says it kept
  (``train``: the same seed trained for the games kept; ``curves``: the same learners trained
  again; ``tournament``: the same games played again);
* no temporary file is left behind (nor, after SIGINT or SIGTERM, a lock file).

``probe(command, how, moment, folder)`` runs one; tests/reliability/test_reliability_kill.py runs a few (CI's
small version) and benchmarks/reliability_kill.py runs twenty moments of each and prints a table.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reliability_support import start_gamelearn

#: Seconds each COMMIT is followed by a pause (the store's test hook) in the window probes.
PAUSE = 1.0
#: A guard against a hang, never a measurement.
GUARD = 120.0


@dataclass
class Outcome:
    """What one probe saw: the command's exit status, the work it said (or, killed, was found)
    kept, and whether it finished before the signal."""

    command: str
    how: str
    status: int
    kept: int
    finished_first: bool = False
    before_work: bool = False


def _store(home: Path) -> Path:
    return home / "gamelearn.sqlite3"


def integrity(home: Path) -> None:
    if not _store(home).exists():
        return  # nothing was written yet: nothing to damage
    with sqlite3.connect(f"file:{_store(home)}?mode=ro", uri=True) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def results(home: Path, kind: str) -> list[dict[str, Any]]:
    if not _store(home).exists():
        return []
    from gamelearn.store.store import Store

    with Store(_store(home), readonly=True) as store:
        return store.results(kind)


def leftovers(folders: list[Path], locks: bool) -> list[Path]:
    """Temporary files (the one writer's ``.NAME.<pid>-<random>.tmp``) and, with ``locks``, lock
    files under ``folders``."""
    found = []
    for folder in folders:
        if folder.exists():
            found += [p for p in folder.rglob("*") if p.name.endswith(".tmp") or (locks and p.name.endswith(".lock"))]
    return found


def wait_until(ready: Callable[[], bool], process: subprocess.Popen, step: float = 0.02) -> bool:
    """Poll ``ready`` until it holds (True) or the process ends (False); a guard against a hang."""
    deadline = time.monotonic() + GUARD
    while time.monotonic() < deadline:
        if ready():
            return True
        if process.poll() is not None:
            return False
        time.sleep(step)
    raise AssertionError("the command showed no progress within the guard")


class Lines:
    """A child's stdout and stderr, read by threads of their own as it prints (so that waiting
    for a line never blocks the child, and nothing is read twice)."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.out: list[str] = []
        self.err: list[str] = []
        self.threads = [
            threading.Thread(target=self._read, args=(stream, into), daemon=True)
            for stream, into in ((process.stdout, self.out), (process.stderr, self.err))
        ]
        for thread in self.threads:
            thread.start()

    @staticmethod
    def _read(stream: Any, into: list[str]) -> None:
        for line in stream:
            into.append(line)

    def seen(self, text: str) -> bool:
        return any(text in line for line in list(self.out))

    def finish(self) -> tuple[str, str]:
        for thread in self.threads:
            thread.join(timeout=GUARD)
        return "".join(self.out), "".join(self.err)


def children(pid: int) -> int:
    """How many processes ``pid`` has started (worker processes, a manager's server)."""
    count = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    count += 1
            except (OSError, IndexError, ValueError):
                continue
    return count


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used (user and system), from /proc."""
    try:
        fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _expected_status(how: signal.Signals) -> int:
    return -signal.SIGKILL if how == signal.SIGKILL else 128 + how


# --- train ------------------------------------------------------------------------------------

TRAIN_SEED, TRAIN_BATCH = 3, 10


def train_args(seed: int) -> tuple[str, ...]:
    return ("train", "tictactoe", "ntuple", "--name", "probe", "--games", "200000", "--parallel",
            str(TRAIN_BATCH), "--checkpoints", "1000", "--no-grade", "--seed", str(seed))  # fmt: skip


def train_replay(games: int, seed: int) -> dict[str, Any]:
    """The knowledge of a new ntuple trained by the same seed for ``games`` games, as stored."""
    from gamelearn.games import get_game
    from gamelearn.players.registry import make_player

    player: Any = make_player(get_game("tictactoe"), "ntuple:name=probe", seed=seed)
    player.trainer.play_in_batches_of(TRAIN_BATCH)
    player.self_play(games // TRAIN_BATCH)
    return json.loads(json.dumps(player.knowledge()))


def check_train(home: Path, said: int | None, seed: int) -> int:
    from gamelearn.games import get_game
    from gamelearn.keeper import Keeper
    from gamelearn.play import make_player
    from gamelearn.store.store import Store

    runs = results(home, "train")
    with Store(_store(home), readonly=True) as store:
        player: Any = make_player(get_game("tictactoe"), "ntuple:name=probe", keeper=Keeper(store))
    games = int(player.trainer.games)
    assert [run["games"] for run in runs[-1:]] == ([games] if games else []), "learner and result disagree"
    if said is not None:
        assert said == games, f"said {said} games kept, the store holds {games}"
    assert games % TRAIN_BATCH == 0, "a batch was kept in part"
    assert json.loads(json.dumps(player.knowledge())) == train_replay(games, seed), "not the replay of its games"
    return games


# --- curves -----------------------------------------------------------------------------------

CURVES = dict(spec="menace", against="random", games=40, every=20, seeds=24, eval_games=4)


def curves_args(seed: int, out: Path) -> tuple[str, ...]:
    c = CURVES
    return ("curves", "tictactoe", str(c["spec"]), "--against", str(c["against"]), "--games", str(c["games"]),
            "--every", str(c["every"]), "--seeds", str(c["seeds"]), "--eval-games", str(c["eval_games"]),
            "--workers", "1", "--seed", str(seed), "--out", str(out))  # fmt: skip


def _curve_points(seed: int, learner: int) -> list[tuple]:
    from gamelearn.experiments.curves import CurveTask, run_curve, seat_of_spec
    from gamelearn.experiments.curves_output import MEASURES
    from gamelearn.games import get_game
    from gamelearn.match import DEFAULT_MAX_PLIES

    c = CURVES
    seat = seat_of_spec(get_game("tictactoe"), str(c["spec"]), "usual")  # the command's default side
    task = CurveTask("tictactoe", str(c["spec"]), 0, learner, str(c["against"]), int(c["games"]), None,
                     int(c["every"]), 10, int(c["eval_games"]), seed, DEFAULT_MAX_PLIES, seat)  # fmt: skip
    return [(p.learner, p.point, p.games, *(round(getattr(p, m), 5) for m in MEASURES)) for p in run_curve(task)]


def check_curves(home: Path, said: int | None, seed: int, stopped: bool) -> int:
    runs = results(home, "curves")
    if not runs:
        assert not said, "said learners were kept, and the store has none"
        return 0
    (run,) = runs
    assert run["stopped"] is stopped
    learners = sorted({point["seed"] for point in run["points"]})
    if said is not None:
        assert len(learners) == said
    for learner in learners:  # each kept learner is the whole learner, as the same seed trains it
        kept = [
            (p["seed"], p["point"], p["games"], p["keeps"], p["best"], p["blunders"], p["score"])
            for p in run["points"]
            if p["seed"] == learner
        ]
        assert kept == _curve_points(seed, learner), f"learner {learner} is not its replay"
    return len(learners)


# --- tournament -------------------------------------------------------------------------------

# Teeko, so that it is still playing when the signal comes: the small games' searches are compiled
# now, and a whole tic-tac-toe tournament is over in two seconds.
TOURNAMENT_GAME = "teeko"
TOURNAMENT = ("random", "sharp", "alphabeta:depth=3,eval=thesis")
TOURNAMENT_GAMES = 100


def tournament_args(seed: int, workers: int) -> tuple[str, ...]:
    return ("tournament", TOURNAMENT_GAME, *TOURNAMENT, "--games", str(TOURNAMENT_GAMES), "--seed", str(seed),
            "--workers", str(workers))  # fmt: skip


def tournament_replay(seed: int, pair: int, games: int) -> list[dict[str, Any]]:
    """The first ``games`` games of pair ``pair``, played again here as the tournament plays them."""
    from gamelearn.experiments.openings import choose_book
    from gamelearn.experiments.tournament import PairTask, pairings, play_pair
    from gamelearn.games import get_game
    from gamelearn.match import DEFAULT_MAX_PLIES

    game = get_game(TOURNAMENT_GAME)
    book = choose_book(game, "auto", None, TOURNAMENT_GAMES, seed)
    i, j = pairings(len(TOURNAMENT))[pair]
    task = PairTask(game.spec, pair, i, j, (TOURNAMENT[i], TOURNAMENT[j]), games, seed, DEFAULT_MAX_PLIES, False,
                    book.used)  # fmt: skip
    return [json.loads(json.dumps(g.to_dict())) for g in play_pair(task)]


def check_tournament(home: Path, said: int | None, seed: int, stopped: bool) -> int:
    runs = results(home, "tournament")
    if not runs:
        assert not said
        return 0
    (run,) = runs
    assert ("stopped" in run) is stopped
    games = run["games"]
    if said is not None:
        assert len(games) == said
    by_pair: dict[int, list[dict[str, Any]]] = {}
    for game in games:
        by_pair.setdefault(game["pair"], []).append(game)
    for pair, kept in by_pair.items():  # each pair kept from its first game, none missing, as played again
        kept.sort(key=lambda g: g["index"])
        assert [g["index"] for g in kept] == list(range(len(kept)))
        assert kept == tournament_replay(seed, pair, len(kept)), f"pair {pair}'s games are not the tournament's"
    if not stopped:
        assert len(games) == len(TOURNAMENT) * (len(TOURNAMENT) - 1) // 2 * TOURNAMENT_GAMES
    return len(games)


# --- one probe --------------------------------------------------------------------------------

MESSAGES = {
    "train": r"Interrupted after [\d,]+ games of training .*\(([\d,]+) games in all; train #\d+",
    "curves": r"Interrupted: (\d+) of \d+ learners had finished",
    "tournament": r"Interrupted: (\d+) of \d+ games had finished",
}
COMMANDS = ("train", "curves", "tournament", "tournament-workers")


def probe(command: str, how: signal.Signals, moment: float, folder: Path, window: bool = False) -> Outcome:
    """Run ``command`` (one of :data:`COMMANDS`), send ``how`` ``moment`` seconds after its first
    progress (``window``: as soon as its first COMMIT is visible, with every COMMIT followed by a
    pause of :data:`PAUSE` s, so that the signal lands just after COMMIT), and check what is left."""
    home, out = folder / "home", folder / "out"
    out.mkdir(parents=True, exist_ok=True)
    seed = 1 + int(moment * 1000) % 97
    kind = command.split("-")[0]
    args = {
        "train": lambda: train_args(seed),
        "curves": lambda: curves_args(seed, out),
        "tournament": lambda: tournament_args(seed, 1),
        "tournament-workers": lambda: tournament_args(seed, 2),
    }[command]()
    env = {"GAMELEARN_TEST_PAUSE_AFTER_COMMIT": str(PAUSE)} if window else None
    process = start_gamelearn(home, *args, env=env)
    lines = Lines(process)
    first = None
    if kind == "train":  # its first keep (a train result) is its first progress
        started = wait_until(lambda: bool(results(home, "train")), process)
        first = results(home, "train")[-1]["games"] if started else None
    elif command == "curves":  # it keeps only when it ends or stops: its first learner is its progress
        started = wait_until(lambda: lines.seen("seed 0 finished"), process)
    elif command == "tournament-workers":  # its queue's manager and its two workers run
        started = wait_until(lambda: children(process.pid) >= 3, process)
    else:  # a tournament in one process shows no progress: the CPU it has used, past its start's
        started = wait_until(lambda: cpu_seconds(process.pid) >= 1.8, process)
    if started and not window:
        time.sleep(moment)
    if window and kind != "train":  # stop it, then signal again just after its last COMMIT
        process.send_signal(signal.SIGINT)
        wait_until(lambda: bool(results(home, kind)), process)
    process.send_signal(how)
    process.wait(timeout=GUARD)
    stdout, stderr = lines.finish()
    # finished first: a signal during the interpreter's own exit (its handlers restored) kills it
    finished_first = (
        process.returncode == 0
        or "saved to the store as result" in stdout
        or "Kept as" in stdout
        or "kept in the store as result" in stdout
    )
    expected = signal.SIGINT if window and kind != "train" else how
    if not finished_first:
        statuses = {_expected_status(expected)} | ({-signal.SIGTERM} if expected == signal.SIGTERM else set())
        assert process.returncode in statuses, (process.returncode, stderr)
        assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    said: int | None = None
    early = False
    if expected != signal.SIGKILL and not finished_first:
        message = re.search(MESSAGES[kind], stderr)
        # stopped while it started, before any work: one line ("interrupted") or SIGTERM's default
        early = message is None and not results(home, kind)
        assert message is not None or early, stderr
        said = int(message[1].replace(",", "")) if message else 0
    integrity(home)
    stopped = not finished_first and expected != signal.SIGKILL
    if kind == "train":
        kept = check_train(home, said, seed)
        if window and not finished_first:  # the signal waited for that keep, and stopped the run there
            assert kept == first, (kept, first)
    elif kind == "curves":
        kept = check_curves(home, said, seed, stopped)
    else:
        kept = check_tournament(home, said, seed, stopped)
    left = leftovers([home, out], locks=expected != signal.SIGKILL)
    assert not left, f"left behind: {left}"
    shown = how.name + (" after COMMIT" if window else "")
    return Outcome(command, shown, process.returncode, kept, finished_first, early)


def moments(command: str, count: int, span: float) -> list[float]:
    """``count`` seeded moments in [0, span) s, the same every run."""
    rng = random.Random(f"kill-{command}")
    return [rng.uniform(0.0, span) for _ in range(count)]
