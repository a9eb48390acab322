"""``td``: a tabular temporal-difference learner of afterstate values (Sutton & Barto, chapter 1's
tic-tac-toe player; chapter 6's TD(0)).

The player keeps one number per position, ``V(a)``: the chance, as it has learnt it, that the side
that has just moved into ``a`` goes on to win (a draw counts one half).  Unknown positions start at
one half.  To move it scores every legal move by the value of the position it leads to (a finished
game by its result: 1, 1/2 or 0) and plays a best one, ties broken at random; with probability
``epsilon`` it explores with a uniformly random move instead.

Learning happens in ``learn(record, side)``, once a game is over: for each side it played, it walks
back over the positions that side moved into, the last one moving towards the result and each
earlier one towards the (just updated) value of the next, ``V(a) += alpha * (target - V(a))``: TD(0)
replayed backwards, so one game carries the result all the way to the opening.  Positions are keyed
by their least symmetric image (``symmetry=on``), as MENACE's boxes are.

The table is the learner's knowledge (:mod:`.knowledge`): with ``name=NAME`` the play layer's
keeper keeps it in the store (under ``GAME/NAME``) and applies each game's lesson to the latest
stored table in one transaction; ``train=off`` freezes it.

Every random choice goes through the player's seeded ``rng`` in a fixed order (one ``random()`` per
move, then one ``choice`` among the explored or the tied moves), so a seed replays the same games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..games import Game
from .base import OptionValue, S
from .knowledge import Change, KnowledgeFormat, Learner, Lesson, TDTableKnowledge
from .registry import Option, PlayerKind, parse_fraction, parse_name, parse_switch, register

if TYPE_CHECKING:
    from ..games.record import GameRecord

#: The value of a position never seen: as likely to win as to lose.
UNKNOWN_VALUE = 0.5
#: The most positions whose keys a player remembers (tic-tac-toe has 5,478, hexapawn fewer).
KEY_CACHE_LIMIT = 200_000


def result_for(winner: int | None, side: int) -> float:
    """A finished game's result for ``side``: 1 won, 0 lost, 1/2 drawn."""
    if winner is None:
        return 0.5
    return 1.0 if winner == side else 0.0


class TDPlayer(Learner[S, TDTableKnowledge]):
    """Tabular TD(0) over afterstates; see the module docstring."""

    knowledge_format = KnowledgeFormat.TD_TABLE

    kind = "td"

    def __init__(
        self,
        game: Game[S],
        seed: int | None = None,
        alpha: float = 0.2,
        epsilon: float = 0.1,
        train: bool = True,
        symmetry: bool = True,
        name: str | None = None,
    ) -> None:
        options: dict[str, OptionValue] = {"alpha": alpha, "epsilon": epsilon}
        if not train:
            options["train"] = "off"
        if not symmetry:
            options["symmetry"] = "off"
        if name:
            options["name"] = name
        super().__init__(game, seed, **options)
        self.alpha = alpha
        self.epsilon = epsilon
        self.train = train
        self.trains = train
        self.symmetry = symmetry
        self.name = name or None
        #: key(position) -> learnt value for the side that moved into it.
        self.values: dict[str, float] = {}
        self.games_learnt = 0
        #: position -> key: the symmetry search is the costly part of a move, and positions recur.
        self._keys: dict[S, str] = {}

    # The table ----------------------------------------------------------------------------

    def key(self, state: S) -> str:
        """The table key of a position: side to move, then the board (of its least symmetric image)."""
        known = self._keys.get(state)
        if known is not None:
            return known
        image = self.game.canonical(state)[0] if self.symmetry else state
        key = f"{self.game.to_move(image)}{self.game.board(image)}"
        if len(self._keys) >= KEY_CACHE_LIMIT:  # Teeko has millions of positions: keep memory bounded
            self._keys.clear()
        self._keys[state] = key
        return key

    def value(self, state: S, side: int) -> float:
        """The value of ``state`` for ``side``, who has just moved into it."""
        if self.game.is_over(state):
            return result_for(self.game.winner(state), side)
        return self.values.get(self.key(state), UNKNOWN_VALUE)

    def move_values(self, state: S) -> dict[str, float]:
        side = self.game.to_move(state)
        return {move: self.value(self.game.play(state, move), side) for move in self.game.legal_moves(state)}

    # Playing and learning -----------------------------------------------------------------

    def choose(self, state: S) -> str | None:
        moves = self.moves_to_choose_from(state)
        if self.rng.random() < self.epsilon:
            return self.rng.choice(moves)
        scored = self.move_values(state)
        best = max(scored.values())
        return self.rng.choice([move for move in moves if scored[move] == best])

    def learn(self, record: GameRecord[S], side: int | None = None) -> None:
        if not self.train or record.game != self.game.spec:
            return
        sides, first_time = self.sides_to_learn(record, side)
        if first_time:
            self.games_learnt += 1
        if not sides:
            return
        states = record.states
        for learner in sides:
            target = result_for(record.winner, learner)
            afterstates = [states[k + 1] for k in range(record.plies) if self.game.to_move(states[k]) == learner]
            for after in reversed(afterstates):
                if self.game.is_over(after):
                    continue  # a finished game's value is its result, never learnt
                key = self.key(after)
                old = self.values.get(key, UNKNOWN_VALUE)
                new = old + self.alpha * (target - old)
                self.values[key] = new
                target = new

    # Knowledge ----------------------------------------------------------------------------

    #: A lesson lists at most this many moved entries (the largest moves first).
    LESSON_ENTRIES = 20

    def keep_name(self) -> str | None:
        return f"{self.game.name}/{self.name}" if self.name else None

    def knowledge(self) -> TDTableKnowledge:
        return {
            "format": "gamelearn-td",
            "game": self.game.name,
            "symmetry": self.symmetry,
            "games_learnt": self.games_learnt,
            "values": dict(self.values),
        }

    def load(self, knowledge: object) -> None:
        """Take over a table; ValueError if it is not one, or belongs to another game or keying."""
        if not isinstance(knowledge, dict) or not isinstance(table := knowledge.get("values", {}), dict):
            raise ValueError("not a td table (an object with 'values' is expected)")
        if knowledge.get("game") != self.game.name:
            raise ValueError(f"a td table for {knowledge.get('game')!r}, not {self.game.name!r}")
        if bool(knowledge.get("symmetry", True)) != self.symmetry:
            raise ValueError(f"the table was learnt with symmetry={'on' if knowledge.get('symmetry') else 'off'}")
        try:
            values = {str(k): float(v) for k, v in table.items()}
            games = int(knowledge.get("games_learnt", 0))
        except (TypeError, ValueError):
            raise ValueError("a td table's values are numbers and its games a whole number") from None
        if any(not 0.0 <= v <= 1.0 for v in values.values()) or games < 0:
            raise ValueError("a td table's values lie in 0..1 and its games count is >= 0")
        self.values, self.games_learnt = values, games

    def describe(self) -> dict[str, int]:
        return {"entries": len(self.values), "games": self.games_learnt}

    def lesson(self, before: TDTableKnowledge, after: TDTableKnowledge) -> Lesson:
        """The entries that moved, the largest moves first; a new entry moved from 1/2."""
        old, new = before.get("values", {}), after.get("values", {})  # a checked table may have none
        moved = []
        for key in set(old) | set(new):
            a, b = old.get(key), new.get(key, UNKNOWN_VALUE)
            if a != b:
                moved.append((abs(b - (UNKNOWN_VALUE if a is None else a)), key, a, b))
        moved.sort(key=lambda item: (-item[0], item[1]))
        changes = tuple(Change(where=key, before=a, after=b) for _, key, a, b in moved[: self.LESSON_ENTRIES])
        added = sum(1 for _, _, a, _ in moved if a is None)
        text = f"{len(moved)} values moved ({added} new)" if moved else "nothing changed"
        return Lesson(self.kind, changes, text)


register(
    PlayerKind(
        "td",
        TDPlayer,
        "tabular TD(0) learner of position values (Sutton & Barto), learning after each game",
        options=(
            Option("alpha", parse_fraction, 0.2, "step size of each update"),
            Option("epsilon", parse_fraction, 0.1, "chance of an exploring random move"),
            Option(
                "train",
                parse_switch,
                True,
                "learn from each game (off: learn nothing; add epsilon=0 to play only what it knows)",
            ),
            Option("symmetry", parse_switch, True, "one entry for a position and its symmetric images"),
            Option(
                "name", parse_name, None, "keep the table in the store under this name (the keeper loads and saves it)"
            ),
        ),
        greedy=(("epsilon", "0"),),
        learns=True,
    )
)
