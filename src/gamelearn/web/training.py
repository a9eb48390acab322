"""Training a browser's learner from the page, as mscroggs' MENACE page trains its MENACE: "train
against random / perfect / itself for N games", run on the server in the background, bounded,
with its progress and the learner's grade read by the page while it runs.

Every game is a play-layer :class:`~gamelearn.match.Match` with the browser's keeper, exactly as a
game played on the page: after each game the keeper applies its lesson to the latest stored
knowledge in one transaction with the game's record (context ``web``), so a game played in another
tab meanwhile loses nothing, and the page's boxes, Gardner's chart and the first box's chart all
see the training games.  The grade is the yardstick's (:mod:`gamelearn.experiments.grading`): a
frozen, greedy copy of the learner chooses a move in every position of the game's suite where its
side moves (every position when it plays itself), graded against the exact solution (Sutton &
Barto's learning curve, measured as ``gamelearn train`` measures it).

Bounded like a computer move: at most ``MAX_GAMES`` games a run, one run per browser, at most
``RUNS_AT_ONCE`` runs on the server (a newcomer past it is told to come back: 503 with
Retry-After), for the small games only (a Teeko learner trains with ``gamelearn train``).
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..experiments.api import grade_learner
from ..games import Game
from ..games.specs import spec_name, split_spec
from ..keeper import Keeper
from ..match import End, Match
from ..players.knowledge import Learner
from ..players.registry import make_player
from .guards import public_message
from .knowledge_views import BoxLearner
from .learners import browser_learner
from .models import AdviceOut, EveryBox, EveryBoxOut, TrainingPoint, TrainingRunOut, TrainingStatus
from .pool import PoolFull
from .service import RECORD_CONTEXT, WebService
from .views import game_info

#: The most games one run may ask for, per game (a tic-tac-toe game and its lesson take a few ms).
MAX_GAMES = {"hexapawn": 1000, "tictactoe": 1000}
MAX_RUN = max(MAX_GAMES.values())
#: The learners that train from the page (the matchboxes and TD; az and ntuple train with
#: ``gamelearn train``, where their compiled kernels are worth their start-up).
TRAINABLE = ("her", "him", "menace", "td")
#: Who the learner plays: a random mover, the perfect player, the perfect player with a random
#: move half the time (a teacher that makes mistakes), or itself (on both sides).
OPPONENTS = {"random": "random", "perfect": "perfect", "mixed": "perfect:random=0.5", "self": None}
#: Options of the learner a run may not set: the page's learner is the browser's, and it trains.
FIXED_OPTIONS = ("name", "train")
#: Runs on the server at once; more wait (503).
RUNS_AT_ONCE = 2
#: How many times a run grades the learner (besides before its first game).
CHECKPOINTS = 10
#: The runs remembered (the latest per browser and learner), oldest out first.
REMEMBERED = 500
RETRY_AFTER_SECONDS = 5
#: Boxes in one answer of every_box.
BOXES_PAGE = 400


@dataclass
class TrainingRun:
    """One run's state, as the page polls it."""

    kind: str
    game: str
    opponent: str
    side: int | None
    games: int
    seed: int
    played: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    running: bool = True
    stopping: bool = False
    error: str | None = None
    #: The yardstick's grade before the first game and at each checkpoint: (games trained in this
    #: browser's runs, keeps, best, blunders) -- shares of the suite's positions.
    points: list[TrainingPoint] = field(default_factory=list)
    suite: str = ""
    #: The learner's options in this run (``restock=on``), as its spec gives them.
    options: str = ""
    #: This browser's earlier runs of the learner (opponent, options, results), oldest first.
    history: list[TrainingRunOut] = field(default_factory=list)

    def status(self) -> TrainingStatus:
        return TrainingStatus(
            kind=self.kind,
            game=self.game,
            opponent=self.opponent,
            side=self.side,
            games=self.games,
            seed=self.seed,
            played=self.played,
            fraction=self.played / self.games if self.games else 1.0,
            wins=self.wins,
            losses=self.losses,
            draws=self.draws,
            running=self.running,
            error=self.error,
            suite=self.suite,
            points=list(self.points),
            options=self.options,
            runs=[*self.history, self.result()],
        )

    def result(self) -> TrainingRunOut:
        """This run's line of the chart of runs."""
        return TrainingRunOut(
            opponent=self.opponent,
            options=self.options,
            played=self.played,
            wins=self.wins,
            losses=self.losses,
            draws=self.draws,
        )


def check_options(kind: str, options: str) -> None:
    """ValueError if a run's learner ``options`` set one of :data:`FIXED_OPTIONS`."""
    keys = {option.key for option in split_spec(f"{kind}:{options}").options}
    for fixed in FIXED_OPTIONS:
        if fixed in keys:
            raise ValueError(f"option {fixed!r} is the page's own: a run trains the browser's {kind}")


def check_opponent_and_games(game: Game, opponent: str, games: int) -> None:
    """ValueError unless ``opponent`` is one of :data:`OPPONENTS` and ``games`` is 1..the game's bound."""
    if opponent not in OPPONENTS:
        raise ValueError(f"train against one of {', '.join(OPPONENTS)}, not {opponent[:20]!r}")
    bound = MAX_GAMES[game.name]
    if games < 1 or games > bound:
        raise ValueError(
            f"games={games} is {'too small (at least 1)' if games < 1 else f'too large (at most {bound})'}"
        )


class Trainer:
    """The runs of every browser (in server memory; the learners themselves are in the store)."""

    def __init__(self, service: WebService) -> None:
        self.service = service
        self._lock = threading.Lock()
        self._runs: OrderedDict[tuple[str, str, str], TrainingRun] = OrderedDict()
        self._slots = threading.BoundedSemaphore(RUNS_AT_ONCE)

    def status(self, owner: str, kind: str, game_name: str) -> TrainingStatus:
        """The latest run of this browser's learner (``running`` False and no points: none yet)."""
        learner, game = self._learner(kind, game_name)
        with self._lock:
            run = self._runs.get((owner, kind, game.name))
            if run is None:
                found = TrainingStatus(kind=kind, game=game.name, running=False, played=0, games=0, points=[])
            else:
                found = run.status()
        if not found.running:  # the learner as kept: why it is stuck, if it is
            Keeper(self.service.store, owner).attach(learner)
            advice = learner.advice()
            found.advice = AdviceOut.model_validate(advice, from_attributes=True) if advice is not None else None
        found.max_games = MAX_GAMES[game.name]
        found.opponents = list(OPPONENTS)
        found.opponent_specs = {name: spec or kind for name, spec in OPPONENTS.items()}
        return found

    def start(
        self,
        owner: str,
        kind: str,
        game_name: str,
        opponent: str,
        games: int,
        side: int | None,
        seed: int | None,
        options: str = "",
    ) -> TrainingStatus:
        """Start a run in the background, the learner made with ``options`` (its spec's, such as
        ``restock=on``); ValueError for a bad request, PoolFull when the server runs as many as
        it may."""
        options = options.strip()
        check_options(kind, options)
        learner, game = self._learner(kind, game_name, options)
        check_opponent_and_games(game, opponent, games)
        side = self._side_of(game, kind, opponent, side)
        Keeper(self.service.store, owner).check_not_in_training(learner)  # a 409, before the run begins
        run = TrainingRun(kind, game.name, opponent, side, games, secrets.randbelow(2**31) if seed is None else seed)
        run.options = options
        self._register(owner, run)
        thread = threading.Thread(target=self._run, args=(owner, learner, game, run), daemon=True)
        thread.start()
        return run.status()

    def _side_of(self, game: Game, kind: str, opponent: str, side: int | None) -> int | None:
        """The learner's side in a run: None against itself, else ``side`` (0 or 1) or its usual one."""
        if opponent == "self":
            return None
        if side is None:
            return self._usual_side(game, kind)
        if side not in (0, 1):
            raise ValueError(f"side is 0 (moves first) or 1, not {side}")
        return side

    def _usual_side(self, game: Game, kind: str) -> int:
        """The side ``kind`` plays on the game's page by default (0 when it plays neither)."""
        defaults = [spec_name(spec) for spec in self.service_defaults(game)]
        return defaults.index(kind) if kind in defaults else 0

    def _register(self, owner: str, run: TrainingRun) -> None:
        """Make ``run`` the browser's latest run of its learner, taking one of the server's slots:
        ValueError while the learner's previous run goes on, PoolFull when no slot is free."""
        key = (owner, run.kind, run.game)
        with self._lock:
            before = self._runs.get(key)
            if before is not None and before.running:
                raise ValueError(
                    f"{run.kind} is already training ({before.played} of {before.games} games): wait for it or stop it"
                )
            if not self._slots.acquire(blocking=False):
                raise PoolFull(RETRY_AFTER_SECONDS)
            if before is not None:
                run.points = list(before.points)  # the chart goes on from the last run
                run.history = [*before.history, before.result()]
            self._runs[key] = run
            self._runs.move_to_end(key)
            while len(self._runs) > REMEMBERED:
                oldest = next(iter(self._runs))
                if self._runs[oldest].running:
                    break
                del self._runs[oldest]

    def stop(self, owner: str, kind: str, game_name: str) -> TrainingStatus:
        """Ask a run to stop after its current game (what it learned so far is kept)."""
        _, game = self._learner(kind, game_name)
        with self._lock:
            run = self._runs.get((owner, kind, game.name))
            if run is not None and run.running:
                run.stopping = True
        return self.status(owner, kind, game.name)

    def every_box(self, owner: str, kind: str, game_name: str, side: int | None, offset: int, limit: int) -> EveryBox:
        """Every box a matchbox learner can have for ``side`` (its usual side when None), with its
        beads as the store keeps them, a box it has not opened yet as it would open it: MENACE's
        304 as X (Michie 1961), HER's 19 as Black (Gardner 1962), on view before the first game."""
        learner, game = self._learner(kind, game_name)
        if not isinstance(learner, BoxLearner):
            raise ValueError(f"{kind} keeps no matchboxes")
        if side is None:
            side = self._usual_side(game, kind)
        Keeper(self.service.store, owner).attach(learner)
        boards = learner.box_boards(side)
        opened = set(learner.box_boards())
        shown = []
        for board in boards[offset : offset + max(1, min(limit, BOXES_PAGE))]:
            box = learner.box(board)
            shown.append(EveryBoxOut(board=board, beads=list(box.beads), count=box.count, opened=box.opened))
        return EveryBox(kind=kind, side=side, total=len(boards), opened=len(opened), offset=offset, boxes=shown)

    @staticmethod
    def service_defaults(game: Game) -> list[str]:
        return list(game_info(game).defaults)

    def _learner(self, kind: str, game_name: str, options: str = "") -> tuple[Learner, Game]:
        # Checked before any player is made: asking every kind whether it learns (the service's
        # browser_learner) would make az's network, seconds of work for a status line.
        game = self.service.load_game(game_name)
        if game.name not in MAX_GAMES or game.spec != game.name:
            games = " and ".join(MAX_GAMES)
            raise ValueError(f"training from the page is for {games}; Teeko's learners train with gamelearn train")
        if kind not in TRAINABLE:
            raise ValueError(f"{kind[:20]!r} does not train from the page; these do: {', '.join(TRAINABLE)}")
        learner = browser_learner(game, kind, options)  # ValueError: not a player of this game, a bad option
        if learner is None:
            raise ValueError(f"{kind} does not learn {game.name}")
        return learner, game

    # The run itself (a background thread) --------------------------------------------------------

    def _run(self, owner: str, learner: Learner, game: Game, run: TrainingRun) -> None:
        try:
            self._train(owner, learner, game, run)
        except Exception as error:  # a run must end, saying why, whatever a learner raises
            run.error = public_message(f"training stopped: {error}")
        finally:
            run.running = False
            self._slots.release()

    def _train(self, owner: str, learner: Learner, game: Game, run: TrainingRun) -> None:
        keeper = Keeper(self.service.store, owner)
        keeper.attach(learner)
        start = run.points[-1].games if run.points else 0
        if not run.points:
            self._grade(learner, game, run, start)
        every = max(1, run.games // CHECKPOINTS)
        for index in range(run.games):
            if run.stopping:
                break
            # Distinct for every game of every run (even: the match gives player 1 seed + 1).
            seed = run.seed * 2 * MAX_RUN + 2 * index
            opponent = OPPONENTS[run.opponent]
            if opponent is None:
                players: list[Any] = [learner, learner]
            else:
                other = make_player(game, opponent, seed=seed)
                players = [learner, other] if run.side == 0 else [other, learner]
            match = Match(game, players, seed=seed, learn=False, keeper=keeper)
            while match.end is None:
                match.advance()
            # The page's own path: the keeper reloads the stored learner, teaches it this game
            # and stores it with the game's record, in one transaction.
            with self.service.owner_lock(owner):
                match.learn_from_game(record_context=RECORD_CONTEXT)
            self._count(run, match)
            if (index + 1) % every == 0 and index + 1 < run.games:
                self._grade(learner, game, run, start + run.played)
        self._grade(learner, game, run, start + run.played)

    @staticmethod
    def _count(run: TrainingRun, match: Match) -> None:
        run.played += 1
        if match.end is End.ABANDONED or match.winner is None:
            run.draws += 1
        elif run.side is None or match.winner == run.side:
            run.wins += 1  # in self-play a decided game is a win for the learner (and a loss)
        else:
            run.losses += 1

    @staticmethod
    def _grade(learner: Learner, game: Game, run: TrainingRun, games: int) -> None:
        # One grading seed for every run, so that the points of one chart are the same measure.
        # A learner seated on one side is graded where that side moves (HER as Black: 19 of
        # hexapawn's 27 positions), as ``gamelearn grade`` grades it; against itself, everywhere.
        report = grade_learner(game, learner.kind, learner, seed=0, side=run.side)
        run.suite = report.yardstick()
        point = TrainingPoint(
            games=games,
            keeps=report.keeps,
            best=report.best,
            blunders=report.blunders,
            run=len(run.history),
            side=report.side,
            positions=report.size,
        )
        if run.points and run.points[-1].games == games:
            run.points[-1] = point
        else:
            run.points.append(point)
