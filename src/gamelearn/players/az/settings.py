"""How the az learner trains each game (Silver et al. 2018's loop, as :mod:`.training` runs it):
the settings of self-play, the replay buffer and the gradient steps, per game, and the searches'
default simulations."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the settings are read without JAX (registering the kind, checking a budget)
    from .rules import JaxRules


@dataclass(frozen=True)
class Settings:
    """How a game's az learner trains."""

    games_per_batch: int  # self-play games played at once
    simulations: int  # search simulations per self-play move
    max_plies: int  # a self-play game reaching this many plies is a draw
    buffer: int  # positions the replay buffer keeps (the latest)
    batch_size: int  # positions per gradient step
    updates_per_batch: int  # gradient steps after each self-play batch
    learning_rate: float
    weight_decay: float = 1e-4
    #: Each self-play game opens with a uniformly random number, 0 to this, of uniformly random
    #: moves (still trained on the search's policy there): the games then cover positions that
    #: self-play alone would never reach, and the grading and real opponents do.
    random_plies: int = 0
    #: The root actions Gumbel search considers (``max_num_considered_actions``, Danihelka et al.
    #: 2022): with as many simulations as considered actions, each is visited once and the search
    #: never looks below the root's children; fewer considered actions than simulations let sequential
    #: halving spend the rest on the best few, a reply and a reply to it deep.  (16: a value kept
    #: before this setting existed.)
    considered: int = 16
    #: 0: every batch plays whole games, ``max_plies`` plies, searching the finished ones' slots
    #: too; N: a batch is N plies and a game that ends gives its slot a new one at once, a game
    #: still going at the batch's end going on in the next (``selfplay``'s module docstring).
    #: (0: the batching before this setting existed.)
    plies_per_batch: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


SETTINGS: dict[str, Settings] = {
    "tictactoe": Settings(128, 32, 9, 20_000, 256, 16, 2e-3, random_plies=4),
    "hexapawn": Settings(64, 32, 16, 8_000, 128, 8, 2e-3, random_plies=2),
    # 8 root actions for 16 simulations: the best two get four visits each, so self-play looks at a
    # reply and the answer to it (a threat two plies ahead), where 16 of 16 visited each child once.
    # Busy slots, 32 plies a batch: about the positions a batch of whole games gave (its games last
    # 27-40 plies), so the 8 gradient steps a batch see as many new positions as whole games give,
    # for about half the search.
    "teeko": Settings(32, 16, 60, 60_000, 256, 8, 1e-3, random_plies=6, considered=8, plies_per_batch=32),
    # Connect Four on 7x6 (other sizes: the same, their longest game the ply limit, settings_for):
    # Teeko's busy slots and steps; its 7 columns are all considered at the root.
    "connect4": Settings(32, 16, 42, 60_000, 256, 8, 1e-3, random_plies=4, considered=8, plies_per_batch=32),
}

#: The simulations an az player searches with when its spec does not say.
DEFAULT_SIMULATIONS = {"tictactoe": 32, "hexapawn": 32, "teeko": 32, "connect4": 32}


def settings_for(rules: JaxRules) -> Settings:
    """How the game of ``rules`` trains: a built-in game's own (:data:`SETTINGS`), else settings
    from its board and its longest game (``rules.max_plies``), after the built-in games': a board
    of up to 16 squares (an MLP) as tic-tac-toe's, a larger one (a residual net) as Teeko's.  The
    ply limit is the longest game, so no game is cut short; a game of up to 32 plies is played
    whole in a batch, a longer one in busy slots of 32 plies; each opens with up to a quarter of
    its longest game in random moves (tic-tac-toe: 4 of 9)."""
    if rules.name == "connect4":  # every size: a full board, columns x rows plies, ends the game
        return replace(SETTINGS["connect4"], max_plies=rules.max_plies)
    if rules.name in SETTINGS:
        return SETTINGS[rules.name]
    longest = rules.max_plies
    shared = {
        "max_plies": longest,
        "random_plies": max(1, longest // 4),
        "plies_per_batch": 0 if longest <= 32 else 32,
    }
    if rules.squares <= 16:
        return Settings(128, 32, buffer=20_000, batch_size=256, updates_per_batch=16, learning_rate=2e-3, **shared)
    return Settings(
        32, 16, buffer=60_000, batch_size=256, updates_per_batch=8, learning_rate=1e-3, considered=8, **shared
    )


def simulations_for(name: str) -> int:
    """The simulations an az player of the game called ``name`` searches with by default."""
    return DEFAULT_SIMULATIONS.get(name, 32)
