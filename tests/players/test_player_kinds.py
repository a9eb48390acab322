"""Each registered kind declares whether its players learn (``PlayerKind.learns``), so that an
interface lists the learners without building a player of every kind: the declaration is checked
against a player built of each kind, which is a Learner exactly when the kind says it learns."""

from __future__ import annotations

import pytest

from gamelearn import get_game
from gamelearn.games import GAME_NAMES
from gamelearn.players.knowledge import Learner
from gamelearn.players.registry import PlayerKind, kinds_for, make_player


def every_kind() -> list[tuple[str, PlayerKind]]:
    """Each kind once, with a game it plays (tic-tac-toe where it plays it: the cheapest)."""
    found: dict[str, tuple[str, PlayerKind]] = {}
    for name in sorted(GAME_NAMES, key=lambda game: game != "tictactoe"):
        for kind in kinds_for(get_game(name)):
            found.setdefault(kind.name, (name, kind))
    return list(found.values())


@pytest.mark.parametrize(
    ("game", "kind"),
    [pytest.param(game, kind, id=kind.name) for game, kind in every_kind()],
)
def test_a_kind_learns_exactly_when_its_players_are_learners(game: str, kind: PlayerKind) -> None:
    if kind.name == "az":  # its factory makes an AzPlayer; building one would start a network
        from gamelearn.players.az.player import AzPlayer

        made: type = AzPlayer
    else:
        made = type(make_player(get_game(game), kind.name, seed=0))
    assert kind.learns == issubclass(made, Learner)


def test_the_learners_are_the_kinds_the_papers_describe() -> None:
    declared = {kind.name for _, kind in every_kind() if kind.learns}
    assert declared == {"td", "her", "him", "menace", "thesis", "az", "ntuple"}
