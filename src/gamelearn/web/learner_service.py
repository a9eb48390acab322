"""A browser's learners apart from its games: reset, export, their boxes and records, and
Gardner's chart of their results (Gardner 1962: a letter a game, W, L or D).

Each learner is the browser's own (web/learners.py), kept by the play layer's keeper under the
browser's owner id.  A reset forgets the learner and starts its chart again after the latest
record: the records themselves are kept, and the store keeps where the chart starts.
"""

from __future__ import annotations

from ..games import Game
from ..games.specs import spec_name
from ..keeper import Keeper
from ..match import End
from ..players.knowledge import Learner
from .knowledge_views import first_box_history, matchbox_boxes, memory_records
from .learners import Export, browser_learner, learner_games
from .learners import export as export_knowledge
from .models import BoxesPage, Chart, FirstBox, MemoryPage
from .service import CHART_GAMES, RECORD_CONTEXT, NotFound, WebService


class LearnerService:
    """The learner and chart endpoints' work, over the games' service (its store and locks)."""

    def __init__(self, service: WebService) -> None:
        self.service = service

    def browser_learner(self, kind: str, game_name: str) -> tuple[Learner, Game]:
        """The browser's learner of ``kind`` for the game, checked for every learner endpoint
        alike: an unknown learner is a NotFound, a game the learner does not learn a ValueError."""
        games = learner_games()
        if kind not in games:
            raise NotFound(f"no learner {kind!r}; learners: {', '.join(sorted(games))}")
        game = self.service.load_game(game_name)
        if game.name not in games[kind]:
            raise ValueError(f"{kind} learns {', '.join(games[kind])}, not {game.name}")
        learner = browser_learner(game, kind)
        assert learner is not None  # learner_games lists only the kinds that learn
        return learner, game

    def reset(self, owner: str, kind: str, game_name: str) -> bool:
        learner, game = self.browser_learner(kind, game_name)
        store = self.service.store
        with self.service.owner_lock(owner), store.transaction():
            # The chart starts again with the learner: it reads only the games after the latest
            # one (the records themselves are kept).
            latest = store.records(game=game.spec, owner=owner, context=RECORD_CONTEXT, limit=1)
            store.set_chart_start(owner, kind, game.name, latest[-1]["id"] if latest else 0)
            return Keeper(store, owner).forget(learner)

    def export(self, owner: str, kind: str, game_name: str) -> Export:
        learner, _ = self.browser_learner(kind, game_name)
        return export_knowledge(Keeper(self.service.store, owner), learner)

    def boxes(
        self, owner: str, kind: str, game_name: str, show: str, game_id: str | None, offset: int, limit: int
    ) -> BoxesPage:
        """The learner's boxes; with ``game_id``, as the learner playing that game holds them now
        (a box it made in this game is in it before the game ends and is kept)."""
        learner, _ = self.browser_learner(kind, game_name)
        if game_id:
            web_game = self.service.get(owner, game_id)
            extras = web_game.extras
            seated = [side for side, _ in extras.learners if spec_name(web_game.seats[side].spec) == kind]
            if seated:
                live = next(player for side, player in extras.learners if side == seated[-1])
                opened = [box for side in seated for box in extras.opened.get(side, [])]
                with web_game.lock:
                    return BoxesPage.model_validate(matchbox_boxes(live, show, opened, offset, limit))
        Keeper(self.service.store, owner).attach(learner)
        return BoxesPage.model_validate(matchbox_boxes(learner, show, [], offset, limit))

    def first_box(self, owner: str, kind: str, game_name: str) -> FirstBox:
        learner, game = self.browser_learner(kind, game_name)
        reader = self.service.reader
        after = reader.chart_start(owner, kind, game.name)
        records = reader.records(game=game.spec, owner=owner, context=RECORD_CONTEXT, limit=CHART_GAMES)
        history = first_box_history(reader, owner, game, learner, [r for r in records if r["id"] > after])
        return FirstBox.model_validate(history)

    def memory(self, owner: str, game_name: str, position: str, offset: int, limit: int) -> MemoryPage:
        learner, _ = self.browser_learner("thesis", game_name)
        return MemoryPage.model_validate(memory_records(self.service.reader, owner, learner, position, offset, limit))

    def chart(self, owner: str, game_name: str, learner: str | None) -> Chart:
        """Wins and losses over this owner's games, from one player's side: the learner's when one
        is named (the games it took part in), else the first computer's.  ``human`` names the
        person's side; any other learner must learn ``game_name`` (as for reset and export)."""
        if learner is not None and learner != "human":
            self.browser_learner(learner, game_name)
        game = self.service.load_game(game_name)
        reader = self.service.reader
        records = reader.records(game=game.spec, owner=owner, context=RECORD_CONTEXT, limit=CHART_GAMES)
        after = reader.chart_start(owner, learner, game.name) if learner else 0
        letters = []
        for record in records:
            if record["id"] <= after:
                continue  # a game of the learner before its last reset
            kinds = [spec_name(spec) for spec in record["players"]]
            if learner:
                if learner not in kinds:
                    continue
                side = kinds.index(learner)
            else:
                side = next((i for i, k in enumerate(kinds) if k != "human"), 0)
            if record["end"] == End.ABANDONED.value:
                continue
            winner = record["winner"]
            letters.append("D" if winner is None else "W" if winner == side else "L")
        text = "".join(letters)
        return Chart(
            game=game.name,
            learner=learner,
            letters=text,
            games=len(text),
            wins=text.count("W"),
            losses=text.count("L"),
            draws=text.count("D"),
        )
