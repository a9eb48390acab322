"""PettingZoo AEC environments for gamelearn's games (the split of PettingZoo's classic games: the
rules live in gamelearn.games, this is the thin environment around them).

Agents are ``player_0`` (moves first: X, or White in hexapawn) and ``player_1``.  An agent observes
``{"observation": planes, "action_mask": mask}``: ``planes`` is an int8 array (rows, columns, 2),
plane 0 the observing agent's own pawns, plane 1 the opponent's, so a policy sees the board from its
own side, as PettingZoo's tic-tac-toe and connect four do; ``mask`` has a 1 for each legal action of
the agent to move (all zeros for the other agent).  Action numbers: gamelearn.games.actions.

The winner gets +1 and the loser -1 when the game ends; a draw gives 0 to both.  A game that can go
on for ever (Teeko) ends as a Match ends it (gamelearn.match.end_by_policy): truncated for both
agents when a position (board and side to move) comes up a third time, or after ``max_plies``
plies, or after PettingZoo's ``max_cycles`` cycles (a cycle is one step of each agent: two plies);
each agent's info then names the end (``info["end"]``: "win", "draw", "repetition", "max-plies").  An illegal action raises
ValueError in ``raw_env``; ``env()`` wraps it the PettingZoo way, so an illegal action ends the game
with -1 for the agent that made it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from ..games import get_game
from ..games.base import InternedGame
from ..match import DEFAULT_MAX_PLIES, End, end_by_policy
from .actions import codec_for
from .render import RENDER_MODES, check_render_mode, rgb_image

AGENTS = ("player_0", "player_1")
#: Each agent's side (0 moves first).
SIDES = {agent: side for side, agent in enumerate(AGENTS)}


#: Positions whose planes and masks are kept a game (a few MB at most): every tic-tac-toe and
#: hexapawn position; a Teeko game's are dropped all at once when there are more, and found again.
CACHED_POSITIONS = 1 << 16

#: game -> position -> (the first mover's planes, the second mover's, the legal mask): one
#: dictionary look-up a step finds all three.  Plain tuples of arrays (no key tuples, no links of
#: an LRU list), which the garbage collector stops tracking, so that a short program does not pay
#: to scan or free thousands of small objects at its end.
_VIEWS: dict[Any, dict[Any, tuple[np.ndarray, np.ndarray, np.ndarray]]] = {}


def planes(game: Any, state: Any, side: int) -> np.ndarray:
    """The board as two int8 planes: ``side``'s pawns, then the other side's (a new array each call,
    copied from the ones worked out the first time the position was seen)."""
    return _views(game, state)[side].copy()


def legal_mask(game: Any, state: Any) -> np.ndarray:
    """1 for each legal action of ``state`` (a new array each call, as :func:`planes`)."""
    return _views(game, state)[2].copy()


def _views(game: Any, state: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    try:
        return _VIEWS[game][state]
    except KeyError:
        pass
    positions = _VIEWS.get(game)
    if positions is None:
        positions = _VIEWS[game] = {}
        if isinstance(game, InternedGame):
            # A small game's every position at once, in a few array operations: in a short program
            # this costs less than working out the positions one by one as play first meets them.
            _views_of_every_position(game, positions)
            found = positions.get(state)
            if found is not None:
                return found
    if len(positions) >= CACHED_POSITIONS:
        positions.clear()
    # One position, as play first meets it (Teeko's, most of them new): both sides' planes at once,
    # from one look-up a square from its character to its plane bits.  The same arrays as
    # _views_of_every_position makes, without its batching, which costs more for one position.
    cells = np.frombuffer(game.board(state).encode("ascii"), dtype=np.uint8)
    bits = _plane_bits(game.symbols[0], game.symbols[1])[cells]
    sides = bits.reshape(game.facts.rows, game.facts.columns, 2, 2).transpose(2, 0, 1, 3)
    numbering = codec_for(game)
    mask = np.zeros(numbering.size, dtype=np.int8)
    for move in game.legal_moves(state):
        mask[numbering.to_action(move)] = 1
    # each its own contiguous block, so that each step's copy is one block
    views = positions[state] = (np.ascontiguousarray(sides[0]), np.ascontiguousarray(sides[1]), mask)
    return views


def _views_of_every_position(game: Any, positions: dict[Any, tuple[np.ndarray, np.ndarray, np.ndarray]]) -> None:
    """Fill ``positions`` with the views of every position reachable from the start of ``game``
    (an interned game: 5,478 positions of tic-tac-toe, 135 of hexapawn): the boards' text read as
    one array, both sides' planes by one look-up, the masks by one assignment."""
    states = [game.initial()]
    seen = set(states)
    play, moves_of = game.play, game.legal_move_tuple
    for state in states:  # grows as it goes: every reachable position once
        for move in moves_of(state):
            after = play(state, move)
            if after not in seen:
                seen.add(after)
                states.append(after)
    rows, columns = game.facts.rows, game.facts.columns
    text = "".join(map(game.board, states)).encode("ascii")
    cells = np.frombuffer(text, dtype=np.uint8).reshape(len(states), rows, columns)
    bits = _plane_bits(game.symbols[0], game.symbols[1])[cells]  # (positions, rows, columns, 2, 2)
    first, second = np.ascontiguousarray(bits[..., 0, :]), np.ascontiguousarray(bits[..., 1, :])
    numbering = codec_for(game)
    which: list[int] = []
    legal: list[int] = []
    for index, state in enumerate(states):
        moves = game.legal_move_tuple(state)
        which.extend([index] * len(moves))
        legal.extend(map(numbering.to_action, moves))
    masks = np.zeros((len(states), numbering.size), dtype=np.int8)
    masks[which, legal] = 1
    positions.update(zip(states, zip(first, second, masks, strict=True), strict=True))


@lru_cache(maxsize=16)
def _plane_bits(first: str, second: str) -> np.ndarray:
    """Row ``c``: for a square holding the character ``c``, its bits in the first mover's planes
    (own, other) and in the second mover's."""
    bits = np.zeros((256, 2, 2), dtype=np.int8)
    bits[ord(first)] = ((1, 0), (0, 1))
    bits[ord(second)] = ((0, 1), (1, 0))
    return bits


def observation_space(game: Any) -> spaces.Dict:
    rows, columns = game.facts.rows, game.facts.columns
    return spaces.Dict(
        {
            "observation": spaces.Box(low=0, high=1, shape=(rows, columns, 2), dtype=np.int8),
            "action_mask": spaces.Box(low=0, high=1, shape=(codec_for(game).size,), dtype=np.int8),
        }
    )


def text_view(game: Any, state: Any, plies: int) -> str:
    """The board for ``ansi`` and ``human`` rendering, with whose move it is or how it ended."""
    lines = [game.render(state)]
    if game.is_over(state):
        winner = game.winner(state)
        lines.append("draw" if winner is None else f"{game.symbols[winner]} ({AGENTS[winner]}) has won")
    else:
        side = game.to_move(state)
        lines.append(f"ply {plies}: {game.symbols[side]} ({AGENTS[side]}) to move")
    return "\n".join(lines) + "\n"


class raw_env(AECEnv, EzPickle):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """One of gamelearn's games as a PettingZoo AEC environment; see the module docstring."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "gamelearn_v0", "is_parallelizable": False, "render_fps": 1}

    def __init__(
        self,
        game: str = "tictactoe",
        render_mode: str | None = None,
        max_plies: int | None = None,
        max_cycles: int | None = None,
    ):
        EzPickle.__init__(self, game, render_mode, max_plies, max_cycles)
        super().__init__()
        check_render_mode(render_mode)
        max_plies = ply_cap(max_plies, max_cycles)
        self.game = get_game(game)
        self.metadata = dict(self.metadata, name=f"gamelearn_{self.game.name}_v0")
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.codec = codec_for(self.game)
        self.possible_agents = list(AGENTS)
        self.agents = self.possible_agents[:]
        self.observation_spaces = {agent: observation_space(self.game) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.codec.size) for agent in self.possible_agents}
        self._selector = AgentSelector(self.agents)
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        views = _views(self.game, self.state)  # as planes() and legal_mask(), one look-up for both
        mask = (
            views[2].copy()
            if agent == self.agent_selection and not self.game.is_over(self.state)
            else np.zeros(self.codec.size, dtype=np.int8)
        )
        return {"observation": views[SIDES[agent]].copy(), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        # The games hold no chance: ``seed`` has nothing to seed here (PettingZoo passes it on).
        self.state = self.game.initial()
        self.plies = 0
        self.moves: list[str] = []
        self.seen = {self.state: 1}  # how often each position has come up (the repetition draw)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._selector.reinit(self.agents)
        self._selector.reset()
        # the side to move first: player_0 but where the opponent chooses X's first square (drops=a...)
        self.agent_selection = AGENTS[self.game.to_move(self.state)]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self.codec.to_move(action)
        self.state = state = self.game.play(self.state, move)  # IllegalMove (a ValueError) names the move
        self.moves.append(move)
        self.plies += 1
        seen = self.seen[state] = self.seen.get(state, 0) + 1
        rewards = self.rewards
        for each in rewards:  # AECEnv._clear_rewards, without the call a step
            rewards[each] = 0.0
        self._cumulative_rewards[agent] = 0.0
        end = end_by_policy(self.game, state, seen, self.plies, self.max_plies)
        if end is not None:  # before the end every reward is 0, and accumulating it changes nothing
            if end is End.WIN or end is End.DRAW:
                winner = self.game.winner(state)
                if winner is not None:
                    rewards[AGENTS[winner]] = 1.0
                    rewards[AGENTS[1 - winner]] = -1.0
                self.terminations = dict.fromkeys(self.agents, True)
            else:  # a repetition or the cap: the game is cut, not decided
                self.truncations = dict.fromkeys(self.agents, True)
            for info in self.infos.values():
                info["end"] = end.value
            self._accumulate_rewards()
        self.agent_selection = AGENTS[self.game.to_move(state)]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "rgb_array":
            return rgb_image(self.game, self.state)
        if self.render_mode is None:
            return None
        text = text_view(self.game, self.state, self.plies)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def ply_cap(max_plies: int | None, max_cycles: int | None) -> int:
    """The plies after which a game is truncated: ``max_plies``, or two per PettingZoo cycle."""
    if max_plies is not None and max_cycles is not None:
        raise ValueError(f"give max_plies or max_cycles, not both (max_plies={max_plies}, max_cycles={max_cycles})")
    if max_cycles is not None:
        if max_cycles < 1:
            raise ValueError(f"max_cycles must be at least 1, not {max_cycles}")
        return 2 * max_cycles
    if max_plies is None:
        return DEFAULT_MAX_PLIES
    if max_plies < 1:
        raise ValueError(f"max_plies must be at least 1, not {max_plies}")
    return max_plies


def env(
    game: str = "tictactoe",
    render_mode: str | None = None,
    max_plies: int | None = None,
    max_cycles: int | None = None,
) -> AECEnv:
    """The environment with PettingZoo's usual wrappers: an illegal action ends the game with -1 for
    the agent that made it, out-of-range actions are asserted, and the call order is enforced."""
    wrapped: AECEnv = raw_env(game, render_mode=render_mode, max_plies=max_plies, max_cycles=max_cycles)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped
