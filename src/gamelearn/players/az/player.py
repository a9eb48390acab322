"""The az player: a network and Gumbel tree search choose its moves; self-play (``self_play``) and
the games it plays (``learn``) train it.  Its knowledge is the network's weights, the optimiser's
state and the training counters, as one JSON value (the arrays as a base64 ``.npz``)."""

from __future__ import annotations

import base64
import dataclasses
import io
import zipfile
from typing import TYPE_CHECKING

import jax
import numpy as np

from ...games import Game
from ..base import OptionValue, S
from ..knowledge import Change, KnowledgeFormat, Learner, Lesson, MoveScore, MoveScores, NetworkKnowledge
from .game_rules import rules_for
from .network import NetworkShape
from .rules import Position
from .search import choose
from .settings import Settings, settings_for, simulations_for
from .training import Trainer

if TYPE_CHECKING:
    from ...games.record import GameRecord

FORMAT = "gamelearn-az"
VERSION = 1
#: The knowledge value's counters.
COUNTERS = ("steps", "batches", "games", "positions")
#: Gradient steps after each game learnt with learn() (self-play takes its own, per batch).
UPDATES_PER_GAME = 4


def encode_arrays(params: list[np.ndarray], state: list[np.ndarray]) -> str:
    named = {f"p{i}": a for i, a in enumerate(params)} | {f"s{i}": a for i, a in enumerate(state)}
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **named)  # type: ignore[arg-type]
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def decode_arrays(text: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
        with np.load(io.BytesIO(raw), allow_pickle=False) as archive:
            named = {name: archive[name] for name in archive.files}
    except (ValueError, OSError, zipfile.BadZipFile, UnicodeEncodeError, EOFError) as error:
        raise ValueError(f"az knowledge: the arrays are not a base64 .npz archive ({error})") from None
    params = [named.pop(f"p{i}") for i in range(sum(name.startswith("p") for name in named))]
    state = [named.pop(f"s{i}") for i in range(sum(name.startswith("s") for name in named))]
    if named or any(a is None for a in params + state):
        raise ValueError(f"az knowledge: unexpected arrays {', '.join(sorted(named))}")
    return params, state


def _checked_settings(settings: object) -> dict[str, int | float]:
    """The kept settings, each a known setting (every required one present) with a number in its
    range; ValueError naming the first that is not."""
    fields = Settings.__dataclass_fields__
    required = {name for name, f in fields.items() if f.default is dataclasses.MISSING}
    if not isinstance(settings, dict) or not required <= set(settings) <= set(fields):
        raise ValueError(
            f"az knowledge: settings must have {', '.join(required)} (and may have {', '.join(set(fields) - required)})"
        )
    for key, value in settings.items():
        least_ok = 0 if key in ("weight_decay", "random_plies", "plies_per_batch") else 1e-12
        if isinstance(value, bool) or not isinstance(value, int | float) or value < least_ok:
            raise ValueError(f"az knowledge: setting {key} must be a number above 0, not {value!r}")
    return settings


def _check_counters(knowledge: dict[str, object]) -> None:
    """ValueError unless the counters and the seed are whole numbers >= 0."""
    for counter in (*COUNTERS, "seed"):
        value = knowledge.get(counter)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"az knowledge: {counter} must be a whole number >= 0, not {value!r}")


class AzPlayer(Learner[S, NetworkKnowledge]):
    """See the package docstring; options: ``name``, ``simulations``, ``train``."""

    knowledge_format = KnowledgeFormat.NETWORK_WEIGHTS

    kind = "az"

    def __init__(
        self,
        game: Game[S],
        seed: int | None = None,
        name: str | None = None,
        simulations: int | None = None,
        train: bool = True,
        shape: NetworkShape | None = None,
        settings: Settings | None = None,
    ) -> None:
        rules = rules_for(game)  # a game of another author's tabulated here: ValueError where it does not fit
        options: dict[str, OptionValue] = {}
        if name:
            options["name"] = name
        if simulations is not None and simulations != simulations_for(game.name):
            options["simulations"] = simulations
        if not train:
            options["train"] = "off"
        super().__init__(game, seed, **options)
        self.name = name or None
        self.trains = train
        self.simulations = simulations_for(game.name) if simulations is None else simulations
        self.rules = rules
        self.trainer = Trainer(game, 0 if seed is None else seed, shape, settings)
        #: position -> the search's policy when it chose there, the learning target of learn().
        self._searched: dict[S, np.ndarray] = {}

    # Choosing ---------------------------------------------------------------------------------

    @property
    def considered(self) -> int:
        """The root actions its search considers: in training as many as its self-play considers
        (Gumbel sampling without replacement, Danihelka et al. 2022); frozen (``train=off``) every
        legal move, so that a lone good move the network ranks low can still be found."""
        return self.trainer.settings.considered if self.trains else self.rules.actions

    def _key(self) -> jax.Array:
        return jax.random.PRNGKey(self.rng.getrandbits(31))

    def evaluate(self, states: list[S], explore: bool = False) -> tuple[list[str], np.ndarray, np.ndarray]:
        """For unfinished ``states`` at once: the moves chosen, the search policies and the network's
        values (for the side to move)."""
        encoded = [self.rules.encode(self.game, state) for state in states]
        batch = Position(*(np.stack(column) for column in zip(*encoded, strict=True)))
        actions, policies, _, values = choose(
            self.rules, self.trainer.model, self._key(), batch, self.simulations, explore, self.considered
        )
        moves = [self.rules.moves[int(a)] or "" for a in np.asarray(actions)]
        return moves, np.asarray(policies), np.asarray(values)

    def choose(self, state: S) -> str | None:
        legal = self.moves_to_choose_from(state)
        moves, policies, _ = self.evaluate([state], explore=self.trains)
        if moves[0] not in legal:  # cannot happen: the search is over legal actions only
            raise ValueError(f"az chose {moves[0]!r}, not a legal move")
        if self.trains:
            if len(self._searched) > 10_000:
                self._searched.clear()
            self._searched[state] = policies[0]
        return moves[0]

    def choose_many(self, states: list[S]) -> list[str]:
        """The moves a frozen copy would choose in each of ``states`` (one batched search)."""
        chosen: list[str] = []
        for start in range(0, len(states), 512):
            chosen += self.evaluate(states[start : start + 512])[0]
        return chosen

    def explain(self, state: S, move: str | None) -> MoveScores | None:
        """Its search's share of each of its first choices, its network's prior of each, and its
        network's value of the position."""
        if self.game.is_over(state):
            return None
        encoded = self.rules.encode(self.game, state)
        batch = Position(*(np.stack([column]) for column in encoded))
        _, policies, priors, values = choose(
            self.rules, self.trainer.model, self._key(), batch, self.simulations, False, self.considered
        )
        policy, prior = np.asarray(policies)[0], np.asarray(priors)[0]
        top = np.argsort(-policy, kind="stable")[:5]
        moves = tuple(
            MoveScore(self.rules.moves[a], search=round(float(policy[a]), 3), prior=round(float(prior[a]), 3))
            for a in top
            if policy[a] > 0
        )
        return MoveScores(moves, value=round(float(np.asarray(values)[0]), 3))

    # Learning -----------------------------------------------------------------------------------

    def self_play(self, batches: int = 1) -> int:
        """Train by ``batches`` batches of self-play games (in memory); the positions played."""
        return sum(self.trainer.train_batch() for _ in range(batches))

    def learn(self, record: GameRecord[S], side: int | None = None) -> None:
        if not self.trains or record.game != self.game.name:
            return
        sides, _ = self.sides_to_learn(record, side)
        if not sides:
            return
        planes, legal, policy, value = [], [], [], []
        for state, move in zip(record.states, record.moves, strict=False):
            mover = self.game.to_move(state)
            if mover not in sides:
                continue
            encoded = self.rules.encode(self.game, state)
            planes.append(np.asarray(self.rules.planes(encoded)))
            legal.append(np.asarray(self.rules.legal(encoded)))
            target = self._searched.get(state)
            if target is None:  # a move it did not search: the move played is the target
                target = np.zeros(self.rules.actions, np.float32)
                target[self.rules.action_of(move)] = 1.0
            policy.append(target)
            value.append(0.0 if record.winner is None else 1.0 if record.winner == mover else -1.0)
        if not value:
            return
        self.trainer.add_positions(np.stack(planes), np.stack(legal), np.stack(policy), np.array(value, np.float32))
        self.trainer.games += 1
        self.trainer.update(UPDATES_PER_GAME)
        self._searched.clear()

    # Knowledge ----------------------------------------------------------------------------------

    def knowledge(self) -> NetworkKnowledge:
        params, state = self.trainer.arrays()
        trainer = self.trainer
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game.name,
            "seed": trainer.seed,
            "network": trainer.shape.to_dict(),
            "settings": trainer.settings.to_dict(),
            "steps": int(trainer.steps),
            "batches": int(trainer.batches),
            "games": int(trainer.games),
            "positions": int(trainer.positions),
            "arrays": encode_arrays(params, state),
        }

    def load(self, knowledge: object) -> None:
        if not isinstance(knowledge, dict):
            raise ValueError(f"az knowledge is a dict, not {type(knowledge).__name__}")
        if knowledge.get("format") != FORMAT or knowledge.get("version") != VERSION:
            raise ValueError(f"az knowledge: format {FORMAT!r} version {VERSION} expected")
        if knowledge.get("game") != self.game.name:
            raise ValueError(f"az knowledge is for {knowledge.get('game')!r}, not {self.game.name}")
        if knowledge.get("network") != self.trainer.shape.to_dict():
            raise ValueError(
                f"az knowledge: network {knowledge.get('network')} is not this player's {self.trainer.shape}"
            )
        settings = _checked_settings(knowledge.get("settings"))
        _check_counters(knowledge)
        arrays = knowledge.get("arrays")
        if not isinstance(arrays, str):
            raise ValueError("az knowledge: arrays must be a base64 text")
        params, state = decode_arrays(arrays)
        # A value kept before a setting existed has that setting's default.
        defaults = settings_for(self.rules)
        loaded = Settings(**{key: type(getattr(defaults, key))(value) for key, value in settings.items()})
        if loaded != self.trainer.settings:
            self.trainer = Trainer(self.game, knowledge["seed"], self.trainer.shape, loaded)
        self.trainer.set_arrays(params, state)  # checks every array first; nothing changes on a ValueError
        self.trainer.seed = knowledge["seed"]
        for counter in COUNTERS:
            setattr(self.trainer, counter, knowledge[counter])
        self._searched.clear()

    def describe(self) -> dict[str, int]:
        params, _ = self.trainer.arrays()
        return {
            "games": self.trainer.games,
            "positions": self.trainer.positions,
            "steps": self.trainer.steps,
            "weights": int(sum(a.size for a in params)),
        }

    def lesson(self, before: NetworkKnowledge, after: NetworkKnowledge) -> Lesson:
        steps = int(after.get("steps", 0)) - int(before.get("steps", 0))
        games = int(after.get("games", 0)) - int(before.get("games", 0))
        if steps == 0 and games == 0:
            return Lesson(self.kind)
        old, _ = decode_arrays(before["arrays"])
        new, _ = decode_arrays(after["arrays"])
        moved = float(np.sqrt(sum(float(np.sum((a - b) ** 2)) for a, b in zip(old, new, strict=True))))
        counts = {key: before.get(key) for key in COUNTERS}, {key: after.get(key) for key in COUNTERS}
        change = Change("network", before=counts[0] | {"weights": None}, after=counts[1] | {"weights": round(moved, 6)})
        text = f"{games} game(s) learnt, {steps} gradient step(s); the weights moved by {moved:.4g} (Euclidean norm)"
        return Lesson(self.kind, (change,), text)
