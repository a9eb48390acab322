"""``ntuple``: an n-tuple network (Lucas 2008) that learns the value of afterstates by self-play
TD(lambda) with eligibility traces (Sutton 1988; Thill, Koch & Konen, PPSN 2012; Thill, Bagheri,
Koch & Konen, CIG 2014).

The network is a set of weight tables, one per n-tuple of squares, read on every symmetric image
of a position (:mod:`.layout`); its value is the chance that the side that has just moved
into the position wins.  To move, the player scores each legal move by the value of the position
it leads to (a finished game by its result) and plays a best one, ties broken at random
(``search=0``, ``1``); ``search=2``, ``3``: plies of negamax over the same values (Connect Four
on 7x6: ``2`` .. ``18`` plies of compiled alpha-beta, :mod:`.connect4_search`, 8 by default; or
``mcts=N``, ``N`` iterations of a compiled PUCT tree search over the same values instead,
:mod:`.connect4_puct`).  It explores
with probability epsilon while it trains.  Frozen (``train=off``) on Teeko it searches by
alpha-beta (:mod:`.search`, ``search=D`` plies, ``1s``, ``nodes=N``; the default chosen on
``teeko-val-v1``, docs/ntuple.md); in training it plays one ply deep, as its TD(lambda) learns.

Training (:mod:`.kernels`): ``self_play(batches)`` plays whole games in numba, both sides
with one network, and learns online after every ply; alpha and epsilon decay from the spec's
values to a tenth of them with a half-life in games, except that with temporal coherence learning
(``tcl=on``, Teeko's default: Beal & Smith 1999; Bagheri, Thill, Koch & Konen 2016) each weight
has its own step factor and alpha stays where it starts.  ``learn(record, side)`` runs the same
TD(lambda) over a game played against anyone, for the side or sides it played.  Every random
choice is seeded: self-play batch ``k`` seeds numba's generator from (seed, k), the player's own
choices use its ``rng``, so the same seed trains the same weights.

The knowledge is the weights (float32, zlib-compressed, base64), with TCL its per-weight sums, the
layout's name and the training counters, one JSON value, which the keeper stores under ``GAME/NAME``; a training resumed from it goes on from
the same weights and the same point of the schedules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..base import S
from ..knowledge import Change, KnowledgeFormat, Learner, Lesson, MoveScore, MoveScores, NtupleKnowledge
from ..registry import Option, PlayerKind, parse_fraction, parse_int, parse_name, parse_switch, register
from . import connect4_puct, connect4_search
from .connect4_search import Table as Connect4Table
from .generic import result_for_first
from .layout import KNOWN_LAYOUTS, default_layout, fits, layout_named, pieces
from .search import Searched, TeekoSearch, budget_of, parse_search, searches
from .settings import (
    MOVE_SECONDS,
    compiled,
    default_search,
    parse_step,
    search_of,
    settings_for,
    settings_given,
    spec_options,
)
from .trainer import Trainer
from .weights import decode_weights, encode_weights

if TYPE_CHECKING:
    from ...games.base import Game
    from ...games.record import GameRecord

FORMAT = "gamelearn-ntuple"
VERSION = 1
COUNTERS = ("games", "positions", "steps", "batches")


class NtuplePlayer(Learner[S, NtupleKnowledge]):
    """See the module docstring; options ``name``, ``search``, ``train``, ``alpha``, ``epsilon``,
    ``trace``."""

    knowledge_format = KnowledgeFormat.NTUPLE_WEIGHTS

    kind = "ntuple"

    def __init__(
        self,
        game: Game[S],
        seed: int | None = None,
        name: str | None = None,
        search: str | int | None = None,
        train: bool = True,
        alpha: float | None = None,
        epsilon: float | None = None,
        trace: float | None = None,
        layout: str | None = None,
        tcl: bool | None = None,
        nodes: int | None = None,
        mcts: int | None = None,
    ) -> None:
        if game.name == "teeko" and game.spec != "teeko":
            raise ValueError(f"ntuple plays Standard Teeko only, not {game.spec}")
        spelling, default = search_of(game, search)
        if mcts:
            if not compiled(game):  # the option is Connect Four's (the registry refuses it elsewhere)
                raise ValueError(f"mcts= searches Connect Four on its 7x6 board only, not {game.spec}")
            if search is not None:
                raise ValueError("search= and mcts= are two ways to play: give one of them")
        given = {
            key: value for key, value in (("alpha", alpha), ("epsilon", epsilon), ("trace", trace)) if value is not None
        }
        settings = settings_given(game, given, tcl)
        chosen = default_layout(game) if layout is None else layout_named(game, layout)
        options = spec_options(name, None if spelling == default else spelling, nodes, train, given, tcl, layout)
        if mcts is not None:
            options["mcts"] = mcts
        plies, seconds = budget_of(spelling)
        #: whether the spec named the layout: then knowledge of another layout is refused, else
        #: the kept layout is taken (weights learnt with an older default still play)
        self.layout_fixed = layout is not None
        super().__init__(game, seed, **options)
        self.name = name or None
        self.trains = train
        #: plies of the plain search (1: the raw network); Teeko's search: (plies, seconds) or None
        self.search = max(1, plies or 1) if game.name != "teeko" else 1
        self.budget = (plies, seconds) if game.name == "teeko" and searches(spelling) else None
        self.nodes, self.search_spelling, self.default_search = nodes, spelling, default
        self.trainer = Trainer(game, 0 if seed is None else seed, settings, chosen)
        self._searcher: TeekoSearch | None = None
        #: iterations of Connect Four's PUCT search a move (0: off, the plies of ``search`` play)
        self.mcts = mcts or 0
        self._puct: tuple[connect4_puct.PuctSearch, connect4_puct.Tree] | None = None

    def quick_grade_options(self) -> dict[str, str]:
        """The options that make a graded copy quick where this learner's own play searches
        (Teeko's default 8-ply search takes about a fifth of a CPU second a move, so grading it
        on a 2,000-position suite takes minutes): the raw network, ``search=0``.  Nothing where
        its play is the raw network already."""
        if self.mcts:
            return {"mcts": "0", "search": "0"}
        return {"search": "0"} if self.budget is not None or self.search > 1 else {}

    def frozen_spec(self) -> str:
        """The spec of a frozen, greedy copy of this learner (for graded checkpoints)."""
        searched = f",search={self.search_spelling}" if self.search_spelling != self.default_search else ""
        tree = f",mcts={self.mcts}" if self.mcts else ""
        return f"{self.kind}:train=off" + searched + tree + (f",nodes={self.nodes}" if self.nodes is not None else "")

    # Values and choosing -----------------------------------------------------------------------

    def keep_name(self) -> str | None:
        return f"{self.game.name}/{self.name}" if self.name else None

    def _children(self, state: S) -> list[tuple[str, S]]:
        return list(self.game.successors(state))

    def _leaf_values(self, mover: int, children: list[tuple[str, S]]) -> list[float]:
        """The value of each child for ``mover``, who moved into it: a result, or the network's."""
        game = self.game
        values: list[float] = [0.0] * len(children)
        pending: list[int] = []
        afters: list[tuple[int, int, int]] = []
        for i, (_, child) in enumerate(children):
            if game.is_over(child):
                winner = game.winner(child)
                values[i] = 0.5 if winner is None else 1.0 if winner == mover else 0.0
            else:
                pending.append(i)
                afters.append((*pieces(game, child), mover))
        for i, value in zip(pending, self.trainer.values(afters), strict=True):
            values[i] = float(value)
        return values

    def _searched(self, mover: int, child: S, depth: int) -> float:
        """The value for ``mover`` of ``child`` it moved into, ``depth`` plies deep (1: the network)."""
        game = self.game
        if depth <= 1 or game.is_over(child):
            return self._leaf_values(mover, [("", child)])[0]
        replies = self._children(child)
        other = game.to_move(child)
        if depth == 2:
            best = max(self._leaf_values(other, replies))
        else:
            best = max(self._searched(other, after, depth - 1) for _, after in replies)
        return 1.0 - best if other != mover else best

    def connect4_search(self, state: S) -> tuple[str, dict[str, float]]:
        """Connect Four's compiled search (:func:`.connect4_search.search_root`, ``search`` plies) of an
        unfinished position: the move it plays and each move's score for the side to move (a win
        in k plies ``WIN - k``, a learnt value ``2 V - 1``; the others' an upper bound)."""
        trainer, game = self.trainer, self.game
        columns = trainer.grid.columns
        if self._c4_order is None:
            self._c4_order = connect4_search.centre_first(columns)
            self._c4_table = connect4_search.new_table()
        search = connect4_search.Connect4Search(
            weights=trainer.weights,
            features=trainer.features,
            grid=trainer.grid,
            order=self._c4_order,
            scores=np.zeros(columns),
            stats=np.zeros(1, np.int64),
            table=self._c4_table,
        )
        x, o = pieces(game, state)
        column = connect4_search.search_root(x, o, game.to_move(state), self.search, search)
        scores = search.scores
        self.visited = int(search.stats[0])
        return str(column + 1), {str(c + 1): float(scores[c]) for c in range(columns) if scores[c] > -np.inf}

    @property
    def puct(self) -> connect4_puct.PuctSearch:
        """What Connect Four's PUCT search reads (the network, the board, its constants)."""
        return self._puct_parts()[0]

    def _puct_parts(self) -> tuple[connect4_puct.PuctSearch, connect4_puct.Tree]:
        """Connect Four's PUCT search and its tree, made once, reading the weights now held."""
        if self._puct is None:
            trainer = self.trainer
            columns = trainer.grid.columns
            search = connect4_puct.PuctSearch(
                weights=trainer.weights,
                features=trainer.features,
                grid=trainer.grid,
                order=connect4_search.centre_first(columns),
                exploration=connect4_puct.EXPLORATION,
                temperature=connect4_puct.TEMPERATURE,
                indices=np.empty(trainer.features.lengths.shape[0], np.int64),
            )
            self._puct = search, connect4_puct.new_tree(self.mcts + 1, columns)
        if self._puct[0].weights is not self.trainer.weights:  # weights loaded since: read the new ones
            self._puct = self._puct[0]._replace(weights=self.trainer.weights), self._puct[1]
        return self._puct

    def connect4_puct(self, state: S) -> tuple[str, dict[str, float], dict[str, int]]:
        """Connect Four's PUCT search (:func:`.connect4_puct.puct_root`, ``mcts`` iterations) of an
        unfinished position: the move it plays, and each legal move's value for the side to move
        (the mean of what its visits backed up; its child's learnt value if it had none) and visits."""
        search, tree = self._puct_parts()
        x, o = pieces(self.game, state)
        column = connect4_puct.puct_root(x, o, self.game.to_move(state), self.mcts, search, tree)
        visits, total, first = tree.visits[0], tree.total[0], tree.first[0]
        legal = [c for c in range(first.shape[0]) if first[c] >= 0.0]
        values = {str(c + 1): float(total[c] / visits[c]) if visits[c] else float(first[c]) for c in legal}
        return str(column + 1), values, {str(c + 1): int(visits[c]) for c in legal}

    _c4_order: np.ndarray | None = None
    _c4_table: Connect4Table
    #: the positions the last compiled Connect Four search visited
    visited = 0

    def move_values(self, state: S) -> dict[str, float]:
        """Each legal move's value for the side to move, ``search`` plies deep (Teeko: one ply;
        Connect Four's compiled search: its scores as values, a win 1, a loss 0)."""
        mover = self.game.to_move(state)
        if self.trainer.connect4 and self.mcts:
            return self.connect4_puct(state)[1]
        if self.trainer.connect4 and self.search > 1:
            _, scores = self.connect4_search(state)
            return {move: min(1.0, max(0.0, (score + 1.0) / 2.0)) for move, score in scores.items()}
        children = self._children(state)
        if self.search <= 1:
            values = self._leaf_values(mover, children)
        else:
            values = [self._searched(mover, child, self.search) for _, child in children]
        return {move: value for (move, _), value in zip(children, values, strict=True)}

    def searched(self, state: S) -> Searched:
        """What Teeko's search (the spec's budget) plays in ``state``, an unfinished position."""
        if self._searcher is None:
            self._searcher = TeekoSearch(self.game, self.trainer)
        plies, seconds = self.budget or (1, None)
        return self._searcher.search(state, plies, seconds if plies is None else MOVE_SECONDS, self.nodes)

    def choose(self, state: S) -> str | None:
        moves = self.moves_to_choose_from(state)
        if self.trains and self.rng.random() < self.trainer.epsilon_now():
            return self.rng.choice(moves)
        if self.budget is not None and not self.trains:
            return self.searched(state).move
        if self.trainer.connect4 and self.mcts:
            return self.connect4_puct(state)[0]
        if self.trainer.connect4 and self.search > 1:
            return self.connect4_search(state)[0]
        scored = self.move_values(state)
        best = max(scored.values())
        return self.rng.choice([move for move in moves if scored[move] == best])

    def choose_many(self, states: list[S]) -> list[str]:
        """The moves a frozen copy chooses in each of ``states`` (greedy: one batched evaluation)."""
        if self.budget is not None:
            return [self.searched(state).move for state in states]
        if self.trainer.connect4 and self.mcts:
            return [self.connect4_puct(state)[0] for state in states]
        if self.search > 1:
            return [self._greedy(state) for state in states]
        game = self.game
        everything: list[tuple[int, list[tuple[str, S]]]] = []
        afters: list[tuple[int, int, int]] = []
        for state in states:
            mover = game.to_move(state)
            children = self._children(state)
            everything.append((mover, children))
            afters.extend((*pieces(game, child), mover) for _, child in children if not game.is_over(child))
        network = iter(self.trainer.values(afters))
        chosen = []
        for mover, children in everything:
            scored = []
            for move, child in children:
                if game.is_over(child):
                    winner = game.winner(child)
                    scored.append((0.5 if winner is None else 1.0 if winner == mover else 0.0, move))
                else:
                    scored.append((float(next(network)), move))
            best = max(value for value, _ in scored)
            chosen.append(self.rng.choice([move for value, move in scored if value == best]))
        return chosen

    def _greedy(self, state: S) -> str:
        if self.trainer.connect4:
            return self.connect4_search(state)[0]
        scored = self.move_values(state)
        best = max(scored.values())
        return self.rng.choice([move for move in sorted(scored) if scored[move] == best])

    def explain(self, state: S, move: str | None) -> MoveScores | None:
        """Its own value of its five first choices."""
        if self.game.is_over(state):
            return None
        scored = self.move_values(state)
        top = sorted(scored.items(), key=lambda item: (-item[1], item[0]))[:5]
        return MoveScores(tuple(MoveScore(m, value=round(v, 3)) for m, v in top))

    # Learning ------------------------------------------------------------------------------------

    def self_play(self, batches: int = 1) -> int:
        """Train by ``batches`` batches of self-play games (in memory); the positions played."""
        return sum(self.trainer.train_batch() for _ in range(batches))

    def learn(self, record: GameRecord[S], side: int | None = None) -> None:
        if not self.trains or record.game != self.game.spec:
            return
        sides, _ = self.sides_to_learn(record, side)
        if not sides:
            return
        game = self.game
        afters: list[tuple[int, int, int]] = []
        learning: list[bool] = []
        final = result_for_first(record.winner)
        # A side learns over its own afterstates, each toward the next it made or the game's result
        # (Sutton & Barto 2018, section 6.8): the other side's positions, which it does not learn,
        # would stand between its last move and the result that move brought about, and with no
        # trace (lambda 0) the result would never reach it.
        for parent, child in zip(record.states, record.states[1:], strict=False):
            if game.is_over(child):
                final = result_for_first(game.winner(child))
                break
            mover = game.to_move(parent)
            if mover in sides:
                afters.append((*pieces(game, child), mover))
                learning.append(True)
        if any(learning):
            self.trainer.learn_sequence(afters, learning, final)

    # Knowledge -----------------------------------------------------------------------------------

    def knowledge(self) -> NtupleKnowledge:
        trainer = self.trainer
        knowledge: NtupleKnowledge = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game.name,
            "layout": trainer.layout.name,
            "seed": trainer.seed,
            "games": int(trainer.games),
            "positions": int(trainer.positions),
            "steps": int(trainer.steps),
            "batches": int(trainer.batches),
            "weights": encode_weights(trainer.weights),
        }
        if trainer.settings.coherence > 0:
            knowledge["coherence"] = encode_weights(trainer.coherence.ravel())
        return knowledge

    def load(self, knowledge: object) -> None:
        if not isinstance(knowledge, dict):
            raise ValueError(f"ntuple knowledge is a dict, not {type(knowledge).__name__}")
        if knowledge.get("format") != FORMAT or knowledge.get("version") != VERSION:
            raise ValueError(f"ntuple knowledge: format {FORMAT!r} version {VERSION} expected")
        if knowledge.get("game") != self.game.name:
            raise ValueError(f"ntuple knowledge is for {knowledge.get('game')!r}, not {self.game.name}")
        layout = self.trainer.layout
        kept = KNOWN_LAYOUTS.get(str(knowledge.get("layout")))
        if kept is not layout and (self.layout_fixed or kept is None or not fits(kept, self.game)):
            raise ValueError(f"ntuple knowledge: layout {knowledge.get('layout')!r}, not this player's {layout.name!r}")
        layout = kept
        for counter in (*COUNTERS, "seed"):
            value = knowledge.get(counter)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"ntuple knowledge: {counter} must be a whole number >= 0, not {value!r}")
        text = knowledge.get("weights")
        if not isinstance(text, str):
            raise ValueError("ntuple knowledge: weights must be a base64 text")
        weights = decode_weights(text, layout.weight_count)  # checked whole; nothing changed yet
        coherence = None
        if self.trainer.settings.coherence > 0 and isinstance(knowledge.get("coherence"), str):
            coherence = decode_weights(knowledge["coherence"], 2 * layout.weight_count).reshape(2, -1)
        trainer = self.trainer
        if layout is not trainer.layout:
            trainer.use_layout(layout)
        trainer.weights = weights
        if coherence is not None:
            trainer.coherence = coherence
        elif trainer.settings.coherence > 0:
            trainer.coherence[:] = 0.0
        trainer.seed = knowledge["seed"]
        for counter in COUNTERS:
            setattr(trainer, counter, knowledge[counter])

    def describe(self) -> dict[str, int]:
        t = self.trainer
        return {
            "games": t.games,
            "positions": t.positions,
            "steps": t.steps,
            "weights": int(t.weights.size),
            "nonzero": int(np.count_nonzero(t.weights)),
        }

    def lesson(self, before: NtupleKnowledge, after: NtupleKnowledge) -> Lesson:
        if before == after:
            return Lesson(self.kind)
        count = KNOWN_LAYOUTS[after["layout"]].weight_count
        if before.get("layout") != after["layout"]:
            return Lesson(self.kind, (), "the weights were replaced by another layout's")
        old = decode_weights(before["weights"], count)
        new = decode_weights(after["weights"], count)
        moved = int(np.count_nonzero(old != new))
        norm = float(np.sqrt(np.sum((new.astype(np.float64) - old) ** 2)))
        games = int(after.get("games", 0)) - int(before.get("games", 0))
        counts = {key: before.get(key) for key in COUNTERS}, {key: after.get(key) for key in COUNTERS}
        change = Change("weights", before=counts[0], after=counts[1] | {"moved": moved, "norm": round(norm, 6)})
        return Lesson(self.kind, (change,), f"{games} game(s) learnt; {moved} weights moved by {norm:.4g} in all")


register(
    PlayerKind(
        "ntuple",
        NtuplePlayer,
        "n-tuple network learning afterstate values by self-play TD(lambda) (Thill et al.)",
        None,  # every game: a layout of its own, or its board's rows and columns (layout.board_layout)
        (
            Option("name", parse_name, None, "keep the weights in the store under this name"),
            Option(
                "search",
                parse_search,
                None,
                "plies searched (0, 1: the raw network); Teeko: or a time, 1s",
                game_default=default_search,
            ),
            Option(
                "nodes",
                parse_int(1, 100_000_000),
                None,
                "the most positions the search visits a move (none: no cap)",
                games=("teeko",),
            ),
            Option("mcts", parse_int(0, 300_000), None, "PUCT iterations a move, not search=", games=("connect4",)),
            Option("train", parse_switch, True, "learn from the games it plays (off: frozen and greedy)"),
            Option(
                "alpha",
                parse_step,
                None,
                "step size at the start (default: the game's)",
                game_default=lambda game: settings_for(game).alpha,
            ),
            Option(
                "epsilon",
                parse_fraction,
                None,
                "exploring moves' chance at the start (default: the game's)",
                game_default=lambda game: settings_for(game).epsilon,
            ),
            Option(
                "trace",
                parse_fraction,
                None,
                "lambda of the eligibility traces (default: the game's)",
                game_default=lambda game: settings_for(game).trace,
            ),
            Option(
                "layout",
                parse_name,
                None,
                "the n-tuples, by name (default: the game's; a kept one's own)",
                game_default=lambda game: default_layout(game).name,
            ),
            Option(
                "tcl",
                parse_switch,
                None,
                "temporal coherence learning: a step per weight (default: the game's)",
                game_default=lambda game: settings_for(game).coherence > 0,
            ),
        ),
        greedy=(("epsilon", "0"),),  # frozen, it never explores anyway: said for the graded spec's reader
        learns=True,
    )
)
