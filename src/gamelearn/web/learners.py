"""The learners as the web app shows and keeps them, one set per browser.

A learner (HER, HIM, MENACE, TD, the thesis memory) is made by ``make_player`` like any player and
kept by the play layer's keeper under the browser's owner id and the name ``web-GAME``.  This
module only asks the learner, through its knowledge interface (:mod:`gamelearn.players.knowledge`),
what it knows (``view``), what it looked at for a move (``explain``) and what a game taught it
(``lesson``); it knows no rule and no learner's insides.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from ..games import Game
from ..keeper import Keeper, Kept
from ..players.knowledge import Learner
from ..players.registry import kinds_for, make_player

#: The store name of a browser's learner (one per kind and game); the owner id tells browsers apart.
WEB_LEARNER_NAME = "web"
#: The recall table shows at most this many positions.
RECALL_ROWS = 40


def spec_kind(spec: str) -> str:
    return spec.strip().partition(":")[0]


def web_name(game: Game) -> str:
    return f"{WEB_LEARNER_NAME}-{game.name}"


@dataclass(frozen=True)
class Export:
    filename: str
    media_type: str
    content: bytes


def learner_kinds(game: Game) -> list[str]:
    """The kinds of player for ``game`` that learn: those that can be frozen with ``train=off``
    (the registry's mark of a learner, as ``graded_spec`` reads it).  Read off the kinds, not
    asked of a fresh player of each: making an ``az`` builds its network, 10 s and more, and every
    learner endpoint asked this of every game."""
    return [kind.name for kind in kinds_for(game) if any(option.name == "train" for option in kind.options)]


def browser_learner(game: Game, kind: str) -> Learner | None:
    """A fresh learner of ``kind`` named as the browser's (None when ``kind`` does not learn)."""
    player = make_player(game, kind)
    if not isinstance(player, Learner):
        return None
    player.keep_as(web_name(game))
    return player


def explain(player: Any, state: Hashable, move: str | None) -> dict[str, Any] | None:
    """What the learner looked at for ``move`` (its box and bead, its recall), for the page."""
    if not isinstance(player, Learner):
        return None
    decision = player.explain(state, move)
    if decision is not None and isinstance(decision.get("recall"), list):
        decision = dict(decision, recall_total=len(decision["recall"]), recall=decision["recall"][:RECALL_ROWS])
    return decision


def lesson_for_page(kept: Kept, lost: bool) -> dict[str, Any]:
    """A learner's lesson as the page shows it: the line, and the boxes whose beads changed."""
    lesson = kept.lesson
    changes: list[dict[str, Any]] = [
        {"box": change.where, "removed": list(change.removed), "added": list(change.added)}
        for change in lesson.changes
        if change.removed or change.added
    ]
    if lesson and not changes:  # a memory's records, a table's values: the line says it
        changes = [{"box": None, "removed": [], "added": [], "text": lesson.text}]
    return {"text": lesson.text if lesson else "nothing changed", "lost": lost, "changes": changes}


def export(keeper: Keeper, learner: Learner) -> Export:
    """The browser's learner as a file: a thesis memory as memory.m, the others as JSON."""
    file = keeper.export(learner)
    return Export(file.name, file.media_type, file.content)
