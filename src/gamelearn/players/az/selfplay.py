"""Self-play for the az trainer: a batch of game slots played at once on the device (``jax.vmap``
over the JAX rules and the search, ``jax.lax.scan`` over the plies), and the games it finishes.

A batch can be batched in two ways (the training's ``plies_per_batch`` setting):

* **Whole games** (0): every batch starts its games afresh and plays ``max_plies`` plies.  A game
  that ends early sits out the rest of the batch, but its slot is still searched every ply, so a
  Teeko batch of 60 plies whose games last 27-40 spends about half its search on games already over.
* **Busy slots** (N > 0): a game that ends gives its slot a new game at the next ply, so every
  search is of an unfinished game.  A batch plays N plies; a game still going at its end goes on in
  the next batch (the network has taken its gradient steps in between, as an AlphaZero actor's
  games go on while the learner trains, Silver et al. 2018).  The games come out as they finish.

Either way the same seed plays the same games: batch ``b``'s key is fixed by the trainer, and the
slots carried from one batch to the next are themselves the product of seeded batches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from .rules import JaxRules, Position
from .search import network_evaluator, search

if TYPE_CHECKING:
    from .settings import Settings


class Slots(NamedTuple):
    """The games in a batch's slots: their positions, and how many uniformly random plies each
    game opens with."""

    positions: Position
    opening: Any  # int32[games]


class Plies(NamedTuple):
    """What a batch recorded, one row a ply and one column a slot."""

    planes: Any  # float32[plies, games, 3, rows, columns]: the position before the move
    legal: Any  # bool[plies, games, actions]
    policy: Any  # float32[plies, games, actions]: the search's improved policy
    mover: Any  # int32[plies, games]
    action: Any  # int32[plies, games]: the action played
    alive: Any  # bool[plies, games]: the slot held an unfinished game (else nothing was played)
    ended: Any  # bool[plies, games]: the move ended the game (won, drawn or at the ply limit)
    winner: Any  # int32[plies, games]: after the move, -1 for none


@dataclass(frozen=True)
class Trajectory:
    """One finished self-play game, one row a ply: the planes, legal actions and search policy of
    the position, the side to move, the action played; and the winner (-1: drawn, or cut off at
    the ply limit)."""

    planes: np.ndarray
    legal: np.ndarray
    policy: np.ndarray
    movers: np.ndarray
    actions: np.ndarray
    winner: int

    def __len__(self) -> int:
        return len(self.actions)

    def values(self) -> np.ndarray:
        """The game's result for the side to move at each ply: 1 won, -1 lost, 0 drawn."""
        if self.winner < 0:
            return np.zeros(len(self), np.float32)
        return np.where(self.movers == self.winner, 1.0, -1.0).astype(np.float32)


def _fresh(rules: JaxRules, games: int) -> Position:
    return jax.vmap(lambda _: rules.initial())(jnp.arange(games))


@eqx.filter_jit
def new_slots(rules: JaxRules, settings: Settings, key: jax.Array) -> tuple[Slots, jax.Array]:
    """Slots holding new games, each opening with 0 to ``random_plies`` random plies; and the key
    left for the batch."""
    key, opening_key = jax.random.split(key)
    opening = jax.random.randint(opening_key, (settings.games_per_batch,), 0, settings.random_plies + 1)
    return Slots(_fresh(rules, settings.games_per_batch), opening), key


@eqx.filter_jit
def play_plies(rules: JaxRules, settings: Settings, model: Any, key: jax.Array, slots: Slots) -> tuple[Plies, Slots]:
    """One batch: ``plies_per_batch`` plies with busy slots, or ``max_plies`` of whole games (see
    the module docstring); what each ply recorded, and the slots after the last."""
    busy = settings.plies_per_batch > 0
    plies = settings.plies_per_batch if busy else settings.max_plies
    games = settings.games_per_batch
    evaluate = network_evaluator(rules)
    fresh = _fresh(rules, games)

    def ply(slots: Slots, ply_key: jax.Array) -> tuple[Slots, Plies]:
        positions, opening = slots
        if busy:
            search_key, random_key, opening_key = jax.random.split(ply_key, 3)
        else:
            search_key, random_key = jax.random.split(ply_key)
        out = search(rules, evaluate, model, search_key, positions, settings.simulations, 1.0, settings.considered)
        planes = jax.vmap(rules.planes)(positions)
        legal = jax.vmap(rules.legal)(positions)
        uniform = jax.random.categorical(random_key, jnp.where(legal, 0.0, -1e9))
        action = jnp.where(positions.plies < opening, uniform, out.action)
        nxt, _ = jax.vmap(rules.step)(positions, action)
        nxt = nxt._replace(over=nxt.over | (nxt.plies >= settings.max_plies))  # the ply limit: drawn
        alive = ~positions.over
        ended = alive & nxt.over
        record = Plies(planes, legal, out.action_weights, positions.to_move, action, alive, ended, nxt.winner)
        if busy:  # a finished game's slot takes a new game
            nxt = jax.tree_util.tree_map(
                lambda new, old: jnp.where(ended.reshape(ended.shape + (1,) * (old.ndim - 1)), new, old), fresh, nxt
            )
            new_opening = jax.random.randint(opening_key, (games,), 0, settings.random_plies + 1)
            opening = jnp.where(ended, new_opening, opening)
        return Slots(nxt, opening), record

    final, records = jax.lax.scan(ply, slots, jax.random.split(key, plies))
    return records, final


class SelfPlay:
    """A trainer's self-play between batches: the slots, and the plies played so far of the games
    still going in them (busy slots only; whole games finish within their batch)."""

    def __init__(self) -> None:
        self.slots: Slots | None = None
        self.settings: Settings | None = None
        #: per slot, the rows played so far of its unfinished game (chunks, one per batch)
        self.unfinished: list[list[tuple[np.ndarray, ...]]] = []

    @property
    def unfinished_positions(self) -> int:
        return sum(len(chunk[-1]) for chunks in self.unfinished for chunk in chunks)

    def play(self, rules: JaxRules, settings: Settings, model: Any, key: jax.Array) -> list[Trajectory]:
        """One batch with ``key``; the games it finished, in the order they finished (ply, then slot).
        New slots (their unfinished games dropped) when the settings changed since the last batch."""
        slots = self.slots
        if settings.plies_per_batch == 0 or slots is None or settings != self.settings:
            slots, key = new_slots(rules, settings, key)
            self.unfinished = [[] for _ in range(settings.games_per_batch)]
        self.settings = settings
        records, final = play_plies(rules, settings, model, key, slots)
        self.slots = final if settings.plies_per_batch > 0 else None
        # slot-major, so that a slot's rows are contiguous
        columns = [np.asarray(part).swapaxes(0, 1) for part in records]
        planes, legal, policy, mover, action, alive, ended, winner = columns
        finished: list[tuple[int, int, Trajectory]] = []
        for slot in range(settings.games_per_batch):
            start = 0
            for end in map(int, np.flatnonzero(ended[slot])):
                rows = slice(start, end + 1)
                chunks = [*self.unfinished[slot], tuple(c[slot, rows] for c in (planes, legal, policy, mover, action))]
                game_planes, game_legal, game_policy, movers, actions = (
                    np.concatenate(column) for column in zip(*chunks, strict=True)
                )
                game = Trajectory(game_planes, game_legal, game_policy, movers, actions, int(winner[slot, end]))
                finished.append((end, slot, game))
                self.unfinished[slot] = []
                start = end + 1
            rest = slice(start, None)
            if alive[slot, rest].any():  # busy slots: a game going on into the next batch
                self.unfinished[slot].append(tuple(c[slot, rest] for c in (planes, legal, policy, mover, action)))
        finished.sort(key=lambda item: item[:2])
        return [game for _, _, game in finished]
