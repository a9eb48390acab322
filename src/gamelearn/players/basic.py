"""The random player, and the human player whose moves an interface supplies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Player, S
from .registry import PlayerKind, register

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..games import Game


class RandomPlayer(Player[S]):
    """Any legal move, each as likely as the others."""

    kind = "random"

    def choose(self, state: S) -> str | None:
        return self.rng.choice(self.moves_to_choose_from(state))


class HumanPlayer(Player[S]):
    """A person.  Players know nothing of terminals or browsers: the interface that seats a person
    either asks them itself (``is_human``) or hands in ``ask``, a function from state to move text."""

    kind = "human"
    is_human = True

    def __init__(self, game: Game[S], seed: int | None = None, ask: Callable[[S], str | None] | None = None) -> None:
        super().__init__(game, seed)
        self.ask = ask

    def choose(self, state: S) -> str | None:
        if self.ask is None:
            raise RuntimeError("a human player needs an interface to ask for moves (the CLI or the web app)")
        return self.ask(state)


register(PlayerKind("random", RandomPlayer, "plays any legal move at random"))
register(PlayerKind("human", HumanPlayer, "a person, asked for each move by the interface"))
