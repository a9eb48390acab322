"""gamelearn's games as OpenSpiel games (Lanctot et al., "OpenSpiel: A Framework for Reinforcement
Learning in Games", 2019), so that OpenSpiel's algorithms (MCTS, CFR, value iteration, AlphaZero,
``evaluate_bots``) run on Teeko and hexapawn, which OpenSpiel lacks.

Importing this module registers ``gamelearn_teeko``, ``gamelearn_hexapawn``,
``gamelearn_tictactoe`` and ``gamelearn_NAME`` for every other game found (docs/own-game.md) with
``pyspiel.register_game``.  Teeko's forms are its parameters, named as
in a gamelearn spec (``pyspiel.load_game("gamelearn_teeko(goals=advanced,drops=saaa)")``), and a
game that can go on for ever takes ``max_plies`` (default 200, as ``gamelearn play``), after which it
ends drawn, as the environments truncate it.  :func:`load_game` takes a gamelearn spec.

Actions are numbered as in the environments (gamelearn.games.actions); an action's string is the
move in the game's own notation.  The observation tensor is three planes of the board seen by the
observing player: its pawns, the other side's, and a plane of ones when it is the side to move.  The
information state (perfect recall) adds the history: one row a ply, one-hot over the actions.

An interface module: the rules come from gamelearn.games and nothing in gamelearn imports this.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import pyspiel

from .games import Game, broken_games, game_names, game_options, get_game, parse_game_spec
from .games.actions import ActionCodec, codec_for
from .match import DEFAULT_MAX_PLIES

#: The OpenSpiel name of each of gamelearn's games (the built-in ones, and the others found:
#: :func:`register_games`).
SHORT_NAMES: dict[str, str] = {}


class _Shared:
    """What every state of one bridged game shares.  OpenSpiel clones a Python state with
    ``copy.deepcopy``; this comes back as itself, so a clone copies only the position and the ply."""

    def __init__(self, rules: Game[Any], codec: ActionCodec, max_plies: int | None) -> None:
        self.rules = rules
        self.codec = codec
        self.max_plies = max_plies
        self.length = max_plies if max_plies is not None else longest_game(rules.spec)

    def __deepcopy__(self, memo: object) -> _Shared:
        return self


@cache
def longest_game(spec: str) -> int:
    """The most plies a game that cannot cycle lasts (9 for tic-tac-toe), by search of every position."""
    rules = get_game(spec)
    longest: dict[Any, int] = {}

    def plies_left(state: Any) -> int:
        if state not in longest:
            longest[state] = max((1 + plies_left(after) for _, after in rules.successors(state)), default=0)
        return longest[state]

    return plies_left(rules.initial())


def parameter_defaults(name: str) -> dict[str, Any]:
    """The OpenSpiel parameters of game ``name``: its spec's options, and ``max_plies`` where play can cycle."""
    defaults: dict[str, Any] = {option.name: option.default for option in game_options(name)}
    if get_game(name).facts.can_cycle:
        defaults["max_plies"] = DEFAULT_MAX_PLIES
    return defaults


def _game_type(name: str) -> pyspiel.GameType:
    kind = pyspiel.GameType
    return kind(
        short_name=SHORT_NAMES[name],
        long_name=f"gamelearn {name}",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.DETERMINISTIC,
        information=kind.Information.PERFECT_INFORMATION,
        utility=kind.Utility.ZERO_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_defaults(name),
    )


class BridgedGame(pyspiel.Game):
    """One of gamelearn's games (one form of it) as a pyspiel game; subclassed once a game."""

    name: str  # the gamelearn game, set on each subclass

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**parameter_defaults(self.name), **(params or {})}
        max_plies = values.pop("max_plies", None)
        if max_plies is not None and (not isinstance(max_plies, int) or max_plies < 1):
            raise ValueError(f"max_plies must be a whole number of plies, at least 1, not {max_plies!r}")
        options = ",".join(f"{option}={value}" for option, value in values.items())
        rules = get_game(f"{self.name}:{options}" if options else self.name)
        self.shared = _Shared(rules, codec_for(rules), max_plies)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.shared.codec.size,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.shared.length,
        )
        given = {**values, **({} if max_plies is None else {"max_plies": max_plies})}
        super().__init__(_game_type(self.name), info, given)

    @property
    def rules(self) -> Game[Any]:
        """The gamelearn game this plays (``rules.spec`` names the form)."""
        return self.shared.rules

    def new_initial_state(self) -> BridgedState:
        return BridgedState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> BoardObserver:
        if params:
            raise ValueError(f"{SHORT_NAMES[self.name]} takes no observation parameters; got {params}")
        history = iig_obs_type is not None and iig_obs_type.perfect_recall
        return BoardObserver(self.shared, history=history)


class BridgedState(pyspiel.State):
    """A position of a bridged game and the plies played to reach it."""

    def __init__(self, game: BridgedGame) -> None:
        super().__init__(game)
        self.shared = game.shared
        self.position: Any = game.shared.rules.initial()
        self.plies = 0

    def is_terminal(self) -> bool:
        cap = self.shared.max_plies
        return self.shared.rules.is_over(self.position) or (cap is not None and self.plies >= cap)

    def current_player(self) -> int:
        return pyspiel.PlayerId.TERMINAL if self.is_terminal() else self.shared.rules.to_move(self.position)

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal():
            return []
        numbers = self.shared.codec.numbers
        return sorted(numbers[move] for move in self.shared.rules.legal_moves(self.position))

    def _apply_action(self, action: int) -> None:
        self.position = self.shared.rules.play(self.position, self.shared.codec.to_move(action))
        self.plies += 1

    def _action_to_string(self, player: int, action: int) -> str:
        return self.shared.codec.to_move(action)

    def returns(self) -> list[float]:
        winner = self.shared.rules.winner(self.position)
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def __str__(self) -> str:
        """The board and whose move it is, or how it ended; with the ply where play can cycle, since
        a board at the ply limit is over and the same board before it is not."""
        rules = self.shared.rules
        if rules.is_over(self.position):
            status = rules.end_reason(self.position) or "a draw"
        elif self.is_terminal():
            status = f"a draw at the limit of {self.shared.max_plies} plies"
        else:
            status = f"{rules.symbols[rules.to_move(self.position)]} to move"
        ply = f"ply {self.plies}: " if self.shared.max_plies is not None else ""
        return f"{rules.render(self.position)}\n{ply}{status}"


class BoardObserver:
    """OpenSpiel's PyObserver: the board from one player's side (three planes: its pawns, the other
    side's, ones where it is to move) and, for the information state, the history of actions."""

    def __init__(self, shared: _Shared, history: bool) -> None:
        self.shared = shared
        self.history = history
        facts = shared.rules.facts
        board_shape = (3, facts.rows, facts.columns)
        history_shape = (shared.length, shared.codec.size) if history else (0, shared.codec.size)
        board_size = int(np.prod(board_shape))
        self.tensor = np.zeros(board_size + int(np.prod(history_shape)), np.float32)
        self.dict = {"board": self.tensor[:board_size].reshape(board_shape)}
        if history:
            self.dict["history"] = self.tensor[board_size:].reshape(history_shape)

    def set_from(self, state: BridgedState, player: int) -> None:
        rules = self.shared.rules
        self.tensor.fill(0.0)
        board = self.dict["board"]
        cells = np.frombuffer(rules.board(state.position).encode("ascii"), np.uint8).reshape(board.shape[1:])
        board[0] = cells == ord(rules.symbols[player])
        board[1] = cells == ord(rules.symbols[1 - player])
        if state.current_player() == player:
            board[2] = 1.0
        if self.history:
            rows = self.dict["history"]
            for ply, action in enumerate(state.history()):
                rows[ply, action] = 1.0

    def string_from(self, state: BridgedState, player: int) -> str:
        if self.history:
            return " ".join(self.shared.codec.to_move(action) for action in state.history())
        return str(state)


def _register(name: str) -> None:
    game_class = type(f"Bridged{name.capitalize()}", (BridgedGame,), {"name": name, "__doc__": BridgedGame.__doc__})
    pyspiel.register_game(_game_type(name), game_class)


def register_games() -> None:
    """Register ``gamelearn_NAME`` with OpenSpiel for every game found that loads (the built-in
    ones, those installed, those given to ``gamelearn.register_game`` so far); run on import."""
    broken = broken_games()
    for name in game_names():
        if name in broken:
            continue
        SHORT_NAMES.setdefault(name, f"gamelearn_{name}")
        if SHORT_NAMES[name] not in pyspiel.registered_names():
            _register(name)


def load_game(spec: str, **params: Any) -> pyspiel.Game:
    """The bridged game of a gamelearn spec: ``load_game("teeko:goals=advanced", max_plies=100)``."""
    name, options = parse_game_spec(spec)
    if name not in SHORT_NAMES:
        register_games()
    return pyspiel.load_game(SHORT_NAMES[name], {**options, **params})


register_games()

__all__ = ["SHORT_NAMES", "BridgedGame", "BridgedState", "BoardObserver", "load_game", "longest_game", "register_games"]
