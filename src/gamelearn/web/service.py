"""The web app's games, apart from HTTP: seating players, moving, keeping, learning after a game
(a browser's learners and the chart: learner_service.py; the perfect player's values: analysis.py).

Every error a person can cause is a ValueError (or its IllegalMove / NotYourTurn) with a one-line
message; errors.py turns those into 4xx answers.  A browser's learners are kept by the play layer's
keeper under the browser's owner id: loaded when a game starts, and after it ends the game's lesson
is applied to the latest stored knowledge in one transaction with the game's record, so two open
games (or two servers) never overwrite each other's lessons.  The lesson the page shows is the
difference between the knowledge before and after that transaction.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import zlib
from collections.abc import Hashable, Iterator
from typing import Any

from ..games import GAME_NAMES, Game, get_game
from ..games.specs import spec_name
from ..keeper import Keeper, LearnerInTraining
from ..match import DEFAULT_MAX_PLIES, End
from ..players.base import Player, seat_seed
from ..players.knowledge import Learner
from ..players.registry import make_player
from ..solver.table import TableError
from ..store.failures import StoreError, StoreLocked
from ..store.store import Store
from .guards import public_message
from .knowledge_views import learner_knowledge
from .learners import NO_LEARNER, explain, export_label, lesson_for_page, web_name, words_for
from .live import GameFeed, news
from .models import AdviceOut, Decision, GameView, LearnerPanel
from .pool import MoveInFlight, MovePool, PoolFull
from .sessions import GameExtras, GameTable, NotYourTurn, PlyEvent, Seat, WebGame
from .settings import HEAVY_KINDS, WebSettings
from .tables import TableBuilds
from .views import check_web_ranges, game_view
from .work import check_web_spec, check_web_work, heavy_work

#: The records the web app adds to the store are marked with this context.
RECORD_CONTEXT = "web"
#: At most this many computer moves answer one request (a ply-capped game is far shorter).
MAX_AUTOPLAY = 1000
#: How many locks serialise the learning of all browsers (see WebService.owner_lock).
OWNER_LOCK_STRIPES = 64
#: The chart, and a finished game asked for by its id, read at most this many of the latest games.
CHART_GAMES = 1000


class NotFound(LookupError):
    """An id or a name this owner does not have."""


class NeedsTable(ValueError):
    """A player that plays from a solved table this server has not built (``table``: the game's
    spec, the table's name for ``/api/tables/{table}``)."""

    def __init__(self, message: str, table: str) -> None:
        super().__init__(message)
        self.table = table


class StaleMove(NotYourTurn):
    """A move made on a ply the game has left (another tab moved first); ``game`` is the game
    as it is now, for the page to redraw."""

    def __init__(self, message: str, game: GameView) -> None:
        super().__init__(message)
        self.game = game


class WebService:
    def __init__(self, store: Store, settings: WebSettings | None = None) -> None:
        self.store = store
        self.settings = settings = settings or WebSettings()
        # The pages' reads (records, charts, boxes) on a connection of their own: a write waiting
        # for another program's lock holds the writer's connection, never a browser's read.
        self.reader = Store(store.path, readonly=True, lock_wait=settings.store_wait_seconds)
        self.table = GameTable(settings.games_per_owner, settings.total_games, settings.idle_seconds)
        self.pool = MovePool(
            settings.move_workers,
            settings.move_wait_seconds,
            settings.retry_after_seconds,
            settings.heavy_workers,
            settings.heavy_queue,
            settings.heavy_wait_seconds,
        )
        self.tables = TableBuilds()
        # the open pages that follow a game live (live.py)
        self.feed = GameFeed(beat_seconds=settings.heartbeat_seconds)
        # Striped locks: a fixed number however many browsers come (one lock per owner would grow
        # without bound); two owners sharing a stripe only wait for each other.
        self._owner_locks = tuple(threading.Lock() for _ in range(OWNER_LOCK_STRIPES))

    def owner_lock(self, owner: str) -> threading.Lock:
        return self._owner_locks[zlib.crc32(owner.encode()) % OWNER_LOCK_STRIPES]

    # Games --------------------------------------------------------------------------------------

    @staticmethod
    def load_game(name: str) -> Game:
        return get_game(name)  # ValueError listing the valid names

    def new_game(
        self, owner: str, game_name: str, specs: list[str], seed: int | None, max_plies: int, game_id: str | None = None
    ) -> WebGame:
        game = self.load_game(game_name)
        if len(specs) != 2:
            raise ValueError(f"a game takes two players, not {len(specs)}")
        seed = secrets.randbelow(2**31) if seed is None else seed
        players: list[Player] = []
        extras = GameExtras()
        keeper = Keeper(self.store, owner)
        for index, spec in enumerate(specs):
            if index == 1 and specs[1].strip() == specs[0].strip() and isinstance(players[0], Learner):
                players.append(players[0])  # one learner on both sides, as play_game allows
                extras.learners.append((1, players[0]))
                continue
            try:
                check_web_spec(game, spec)
                check_web_ranges(game, spec, self.settings.work_bounds)
                player = make_player(game, spec, seed=seat_seed(seed, index))
                check_web_work(game, player, self.settings.work_bounds)
                if isinstance(player, Learner):
                    player.keep_as(web_name(game))  # the browser's own, kept under its owner id
                    keeper.attach_once(player)  # the Match made below sees it loaded
            except LearnerInTraining:
                raise  # a 409 in its own words: not the moment, the learner is being trained
            except TableError:  # the page offers the build, where the player is chosen
                raise NeedsTable(
                    f"player {index + 1} ({game.symbols[index]}), {spec_name(spec)}, plays from the solved "
                    f"table of {game.spec}, which this server has not built yet",
                    game.spec,
                ) from None
            except (ValueError, OSError) as error:  # OSError: a file a player needs (a table)
                raise ValueError(public_message(f"player {index + 1} ({game.symbols[index]}): {error}")) from None
            if isinstance(player, Learner):
                extras.learners.append((index, player))
            players.append(player)
        web_game = WebGame(
            id=game_id or self.table.new_id(),
            owner=owner,
            game=game,
            seats=(Seat(specs[0].strip(), players[0]), Seat(specs[1].strip(), players[1])),
            seed=seed,
            max_plies=max_plies,
            keeper=keeper,
        )
        self.table.add(web_game)
        web_game.extras = extras  # kept with the game, so it goes when the table lets the game go
        return web_game

    def get(self, owner: str, game_id: str) -> WebGame:
        web_game = self.table.get(owner, game_id)
        if web_game is None:
            web_game = self._restore(owner, game_id)
        if web_game is None:
            raise NotFound(f"no game {game_id[:40]!r} for this browser: it was never started here, or it was abandoned")
        return web_game

    def is_new_owner(self, owner: str) -> bool:
        """True for a browser with no game here, in memory or in the store."""
        return not self.table.known(owner) and not self.reader.web_games(owner)

    def record(self, owner: str, record_id: int) -> dict[str, Any]:
        """One of the owner's finished games from the store."""
        rows = [row for row in self.reader.records(owner=owner, limit=CHART_GAMES) if row["id"] == record_id]
        if not rows:
            raise NotFound(f"no finished game {record_id} for this browser")
        return rows[0]

    # Keeping games in the store, so a reload or a restart resumes them -------------------------

    def save(self, web_game: WebGame) -> None:
        """Keep the game in the store (after every change); the owner's oldest go past the limit."""
        payload = {
            "game": web_game.game.spec,  # a form of Teeko resumes as that form
            "players": [seat.spec for seat in web_game.seats],
            "seed": web_game.seed,
            "max_plies": web_game.max_plies,
            "moves": list(web_game.moves),
            "end": web_game.end.value if web_game.end is not None else None,
            "winner": web_game.winner,
            "failure": web_game.failure,
        }
        owner = web_game.owner
        self.store.save_web_game(owner, web_game.id, web_game.game.spec, payload, finished=web_game.over)
        if web_game.in_store:
            return  # its row replaced: the owner keeps as many games as before, nothing to read again
        kept = self.store.web_games(owner)
        extra = len(kept) - self.settings.stored_games_per_owner
        if extra > 0:
            oldest = sorted(kept, key=lambda row: (not row[2], row[3]))  # finished, then the oldest
            for game_id, _, _, _ in oldest[:extra]:
                self.store.delete_web_game(owner, game_id)
                gone = self.table.peek(owner, game_id)
                if gone is not None:
                    gone.in_store = False  # its next save adds its row again, and counts it

    def _restore(self, owner: str, game_id: str) -> WebGame | None:
        """The game as the store kept it: the same players and seed, its moves played again."""
        payload = self.store.load_web_game(owner, game_id)
        if payload is None:
            return None
        try:
            web_game = self.new_game(
                owner, payload["game"], payload["players"], payload["seed"], payload["max_plies"], game_id=game_id
            )
            web_game.rewind(payload["moves"])
            end = payload.get("end")
            if end == End.RESIGN.value and not web_game.over:
                web_game.match.resign(1 - int(payload["winner"]))
            elif end == End.ABANDONED.value:
                web_game.failure = payload.get("failure")
                web_game.abandon()
            web_game.learned = web_game.over  # its lessons were learned when it ended
            web_game.in_store = True
        except (ValueError, KeyError, TypeError) as error:  # a player that cannot be made here any more
            raise NotFound(public_message(f"game {game_id!r} was kept but cannot be resumed: {error}")) from None
        return web_game

    def view(self, web_game: WebGame, events: list[PlyEvent] | None = None) -> GameView:
        extras = web_game.extras
        view = game_view(web_game)
        view.events = [event.answer() for event in (events or [])]
        view.learning = list(extras.learning)
        view.learners = [self.learner_panel(web_game, side, player) for side, player in extras.learners]
        view.no_learner = "" if extras.learners else NO_LEARNER
        return view

    def learner_panel(self, web_game: WebGame, side: int, player: Learner[Any, Any]) -> LearnerPanel:
        """A learner at the table: the server's words about it, then what its ``view`` gives (its
        own keys, its counts), and its advice where it is stuck."""
        extras = web_game.extras
        kind = spec_name(web_game.seats[side].spec)
        words = words_for(kind)
        said: dict[str, object] = {
            "side": side,
            "kind": kind,
            "name": words.name,
            "learns_when": words.learns_when,
            "export_label": export_label(player),
        }
        panel = LearnerPanel.model_validate(said)
        try:
            panel = LearnerPanel.model_validate(said | learner_knowledge(player, extras.opened.get(side, [])))
            advice = player.advice()
            if advice is not None:
                panel.advice = AdviceOut.model_validate(advice, from_attributes=True)
        except Exception as error:  # a learner module's view must never break the game page
            panel.error = public_message(f"the learner's view failed: {error}")
        return panel

    def human_move(self, owner: str, game_id: str, move: str, ply: int | None = None) -> GameView:
        """``ply``: the number of moves the page showed when the move was made; a move made on a
        ply the game has left (another tab of it moved) is a StaleMove, and changes nothing."""
        web_game = self.get(owner, game_id)
        # The worker is taken before the person's move is played: a full pool changes nothing.
        with self._worker(web_game), web_game.lock, self._undone_unless_kept(web_game):
            if ply is not None and ply != len(web_game.moves):
                raise StaleMove(
                    f"another tab moved first: your move {move[:16]!r} was made at ply {ply}, "
                    f"the game is at ply {len(web_game.moves)} now",
                    self.view(web_game),
                )
            events = [web_game.play_human(move)]
            # With a person at the table, the computer answers at once, until it is the person's
            # turn again or the game is over.
            while web_game.computer_to_move() and len(events) < MAX_AUTOPLAY:
                event = self._computer_move(web_game)
                if event is not None:
                    events.append(event)
            self._keep(web_game)
            return self.view(web_game, events)

    def computer_move(self, owner: str, game_id: str, ply: int | None = None) -> GameView:
        """One computer move (the page steps computer-against-computer games with this); ``ply``
        as for ``human_move``: asked on a ply the game has left, a StaleMove, and no move."""
        web_game = self.get(owner, game_id)
        with self._worker(web_game), web_game.lock, self._undone_unless_kept(web_game):
            if ply is not None and ply != len(web_game.moves):
                raise StaleMove(
                    f"another tab moved first: asked at ply {ply}, the game is at ply {len(web_game.moves)} now",
                    self.view(web_game),
                )
            if not web_game.computer_to_move():
                if web_game.over:
                    raise NotYourTurn("the game is over: start a new one")
                raise NotYourTurn("it is a person's turn: click a move")
            event = self._computer_move(web_game)
            self._keep(web_game)
            return self.view(web_game, [event] if event is not None else [])

    def start(self, owner: str, game_name: str, specs: list[str], seed: int | None, max_plies: int) -> GameView:
        # Making an az player loads JAX and its network: that too is heavy work, done in the lane.
        heavy_kind = any(spec_name(spec) in HEAVY_KINDS for spec in specs)
        with self.pool.slot(owner, heavy=True) if heavy_kind else contextlib.nullcontext():
            web_game = self.new_game(owner, game_name, specs, seed, max_plies)
            events: list[PlyEvent] = []
            try:
                with contextlib.nullcontext() if heavy_kind else self._worker(web_game), web_game.lock:
                    # The computer moving first against a person plays its first move at once.
                    while web_game.computer_to_move() and web_game.has_human() and len(events) < MAX_AUTOPLAY:
                        event = self._computer_move(web_game)
                        if event is not None:
                            events.append(event)
                    self._keep(web_game)
                    return self.view(web_game, events)
            except (PoolFull, MoveInFlight, StoreError):  # nothing was kept: not started after all
                self.table.remove(owner, web_game.id)
                raise

    def abandon(self, owner: str, game_id: str) -> None:
        web_game = self.get(owner, game_id)
        with web_game.lock:
            self.store.delete_web_game(owner, game_id)  # first: a store that refuses changes nothing
            web_game.abandon()
        self.table.remove(owner, game_id)
        self.feed.publish(owner, game_id, {"gone": True})

    def resign(self, owner: str, game_id: str) -> GameView:
        """The person gives up: the computer wins, and learns from it as from any game."""
        web_game = self.get(owner, game_id)
        with web_game.lock, self._undone_unless_kept(web_game):
            web_game.resign()
            self._keep(web_game)
            return self.view(web_game, web_game.events[-1:])

    def take_back(self, owner: str, game_id: str) -> GameView:
        """The person's last move goes back, with the computer's answer to it."""
        web_game = self.get(owner, game_id)
        with web_game.lock, self._undone_unless_kept(web_game):
            if web_game.over:
                raise NotYourTurn("the game is over: a finished game cannot be taken back")
            ply = web_game.last_human_ply()
            if ply is None:
                raise NotYourTurn("there is no move of yours to take back")
            web_game.rewind(web_game.moves[:ply])
            self._keep(web_game)
            return self.view(web_game)

    def _worker(self, web_game: WebGame) -> Any:
        """A worker of the pool for requests in which a computer may move (in the heavy lane when
        one of the computers does heavy work); none for two people."""
        if all(seat.human for seat in web_game.seats):
            return contextlib.nullcontext()
        heavy = heavy_work(web_game.game, web_game.seats, self.settings.ordinary_work)
        return self.pool.slot(web_game.owner, heavy=heavy)

    @contextlib.contextmanager
    def _undone_unless_kept(self, web_game: WebGame) -> Iterator[None]:
        """Nothing is kept in memory only: when the store cannot keep what the request changed (a
        write lock another process holds, a full disk), the game goes back to where the store has
        it, the moves of this request undone, and the error goes on (a locked store: a 503)."""
        moves, events, failure = list(web_game.moves), list(web_game.events), web_game.failure
        extras = web_game.extras
        opened = {side: list(boxes) for side, boxes in extras.opened.items()}
        learning = list(extras.learning)
        try:
            yield
        except StoreError as error:
            web_game.rewind(moves)
            web_game.events, web_game.failure, web_game.learned = events, failure, web_game.over
            extras.opened, extras.learning = opened, learning
            if not isinstance(error, StoreLocked):
                # Refused at BEGIN, a locked store taught nothing.  Any other failure may come
                # after a learner learned in memory, which a retry would teach it again: the
                # next request rebuilds the game and its players from the store instead.
                self.table.remove(web_game.owner, web_game.id)
            raise

    def _computer_move(self, web_game: WebGame) -> PlyEvent | None:
        side = web_game.to_move
        extras = web_game.extras
        learner = next((p for s, p in extras.learners if s == side), None)

        def probe(player: Player[Any], state: Hashable, move: str | None) -> Decision | None:
            if learner is None:
                return None
            try:
                decision = explain(player, state, move)
            except Exception as error:  # the view of a learner never stops its play
                return Decision(error=public_message(f"the learner's view failed: {error}"))
            if decision is not None and decision.box:
                extras.opened.setdefault(side, []).append(decision.box)
            return decision

        event = web_game.play_computer(probe)
        if event is None and web_game.failure is None:  # resigned: the event is in web_game.events
            return web_game.events[-1]
        return event

    def _keep(self, web_game: WebGame) -> None:
        """Keep the game's state in the store and, when it has just ended, every learner's lesson
        and the game's record: all in one transaction, or (see _undone_unless_kept) none of it."""
        extras = web_game.extras
        record = web_game.record
        ending = web_game.over and not web_game.learned and record is not None and record.end is not End.ABANDONED
        with self.owner_lock(web_game.owner), self.store.transaction():
            # The keeper reloads each learner's stored knowledge inside the transaction, teaches it
            # this game and writes it with the game's record: another tab's lessons are kept too,
            # and the lesson is what this game changed in the stored knowledge.
            learned = ending and web_game.match.learn_from_game(record_context=RECORD_CONTEXT)
            self.save(web_game)
        web_game.in_store = True  # committed
        # Other tabs hear of the change once it is kept, never of a move the store then refused.
        self.feed.publish(web_game.owner, web_game.id, news(web_game.moves, web_game.over))
        web_game.learned = web_game.over  # its lessons were learned when it ended, or it had none
        if not learned or record is None:
            return
        for item in web_game.match.lessons:
            side = 0 if item.side is None else item.side
            lost = record.winner is not None and (item.side is None or record.winner != item.side)
            kind = spec_name(web_game.seats[side].spec)
            extras.learning.append(lesson_for_page(item, side, kind, lost=lost if item.side is not None else False))


__all__ = ["GAME_NAMES", "DEFAULT_MAX_PLIES", "NotFound", "NotYourTurn", "StaleMove", "WebService"]
