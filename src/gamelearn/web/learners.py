"""The learners as the web app shows and keeps them, one set per browser.

A learner (HER, HIM, MENACE, TD, the thesis memory) is made by ``make_player`` like any player and
kept by the play layer's keeper under the browser's owner id and the name ``web-GAME``.  This
module only asks the learner, through its knowledge interface (:mod:`gamelearn.players.knowledge`),
what it knows (``describe``), what it looked at for a move (``explain``) and what a game taught
it (``lesson``), and :mod:`.knowledge_views` makes the page's answers of them; it knows no rule
and no learner's insides.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from ..games import Game, broken_games, game_names, get_game
from ..keeper import Keeper, Kept
from ..knowledge_formats import FORMATS
from ..players.base import Player
from ..players.knowledge import Learner
from ..players.registry import kinds_for, make_player
from .knowledge_views import decision
from .models import BeadChangeOut, Decision, LessonOut

#: The store name of a browser's learner (one per kind and game); the owner id tells browsers apart.
WEB_LEARNER_NAME = "web"
#: What the page says at a table with no learner.
NO_LEARNER = (
    "No learner at this table: seat her or him (hexapawn), menace (tic-tac-toe) or thesis (Teeko) to watch one learn."
)


@dataclass(frozen=True)
class PlayerWords:
    """How the page speaks of a kind of player: its name in a sentence (Gardner's HER and HIM,
    Michie's MENACE), the pronoun of its box, when it learns (said after a game that taught it
    nothing), and what the page says while its first move is slow to come."""

    name: str
    pronoun: str = "its"
    learns_when: str = ""
    first_move_wait: str = ""


PLAYER_WORDS = {
    "her": PlayerWords("HER", "her", "HER learns only from a loss"),
    "him": PlayerWords("HIM", "his"),
    "menace": PlayerWords("MENACE"),
    "thesis": PlayerWords("thesis", learns_when="the memory learns only from a won game that reached the moving phase"),
    # its first move after the server starts loads its network: said, so the wait is not a mystery
    "az": PlayerWords("az", first_move_wait="az is loading its network (first move only)…"),
}


def words_for(kind: str) -> PlayerWords:
    """The words for a player kind (a kind without words of its own is named by its kind)."""
    return PLAYER_WORDS.get(kind) or PlayerWords(kind)


def export_label(learner: Learner) -> str:
    """The label of the link that downloads the learner (see :func:`export`)."""
    return f"Export {FORMATS[learner.knowledge_format].file_label}"


def web_name(game: Game) -> str:
    return f"{WEB_LEARNER_NAME}-{game.name}"


@dataclass(frozen=True)
class Export:
    filename: str
    media_type: str
    content: bytes


def learner_kinds(game: Game) -> list[str]:
    """The kinds of player for ``game`` that learn, as their kinds declare (``PlayerKind.learns``):
    read off the registry, never asked of a fresh player of each (making an ``az`` builds its
    network, 10 s and more)."""
    return [kind.name for kind in kinds_for(game) if kind.learns]


def learner_games() -> dict[str, list[str]]:
    """Each kind that learns, with the games it learns (in game_names order, plugins that cannot be loaded left out)."""
    games: dict[str, list[str]] = {}
    broken = broken_games()
    for name in [name for name in game_names() if name not in broken]:
        for kind in learner_kinds(get_game(name)):
            games.setdefault(kind, []).append(name)
    return games


def browser_learner(game: Game, kind: str, options: str = "") -> Learner | None:
    """A fresh learner of ``kind`` named as the browser's (None when ``kind`` does not learn),
    made with ``options`` (``restock=on``: they win over the stored learner's settings)."""
    player = make_player(game, f"{kind}:{options}" if options else kind)
    if not isinstance(player, Learner):
        return None
    player.keep_as(web_name(game))
    return player


def explain(player: Player[Any], state: Hashable, move: str | None) -> Decision | None:
    """What the learner looked at for ``move`` (its box and bead, its recall), for the page
    (:func:`.knowledge_views.decision`)."""
    return decision(player, state, move)


def lesson_for_page(kept: Kept, side: int, kind: str, lost: bool) -> LessonOut:
    """A learner's lesson as the page shows it: the line, and the boxes whose beads changed."""
    lesson = kept.lesson
    changes = [
        BeadChangeOut(box=change.where, removed=list(change.removed), added=list(change.added))
        for change in lesson.changes
        if change.removed or change.added
    ]
    if lesson and not changes:  # a memory's records, a table's values: the line says it
        changes = [BeadChangeOut(box=None, removed=[], added=[], text=lesson.text)]
    text = lesson.text if lesson else "nothing changed"
    return LessonOut(side=side, kind=kind, text=text, lost=lost, changes=changes)


def export(keeper: Keeper, learner: Learner) -> Export:
    """The browser's learner as a file: a thesis memory as memory.m, the others as JSON."""
    file = keeper.export(learner)
    return Export(file.name, file.media_type, file.content)
