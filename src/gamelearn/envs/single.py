"""A Gymnasium single-agent environment: the agent plays one side of a gamelearn game against any
gamelearn player (a ``make_player`` spec such as ``random``, ``minimax:depth=2`` or ``perfect``).

Observation, action numbers and action mask as in the AEC environments (gamelearn.envs.aec): the
board from the agent's side, and ``{"observation", "action_mask"}``.  The opponent answers inside
``step``; the reward is +1 when the agent wins, -1 when it loses, 0 otherwise.  An illegal action
ends the episode with -1 (``info["illegal_move"]`` names it).  Games that can go on for ever end as
a Match ends them (gamelearn.match.end_by_policy): truncated when a position comes up a third
time or after ``max_plies`` plies (``info["end"]`` names the end).  ``reset(seed=s)`` reseeds the opponent with ``s``, so the same
seed and the same actions give the same episode.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..games import get_game
from ..keeper import keeper_for
from ..match import DEFAULT_MAX_PLIES, End, GameRecord, end_by_policy
from ..play import make_player
from .actions import codec_for
from .aec import legal_mask, observation_space, planes, text_view
from .render import RENDER_MODES, check_render_mode, rgb_image


class SingleAgentEnv(gymnasium.Env):
    """One side of ``game`` against ``opponent``; the agent is player ``agent_side`` (0 moves first)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(
        self,
        game: str = "tictactoe",
        opponent: str = "random",
        agent_side: int = 0,
        render_mode: str | None = None,
        max_plies: int = DEFAULT_MAX_PLIES,
        opponent_learns: bool = False,
    ) -> None:
        super().__init__()
        if agent_side not in (0, 1):
            raise ValueError(f"agent_side is 0 (moves first) or 1, not {agent_side!r}")
        check_render_mode(render_mode)
        if max_plies < 1:
            raise ValueError(f"max_plies must be at least 1, not {max_plies}")
        self.game = get_game(game)
        self.codec = codec_for(self.game)
        # A stored learner comes loaded and keeps its lessons through the play layer's keeper.
        self.opponent = make_player(self.game, opponent)
        self.keeper = keeper_for([self.opponent])
        if self.opponent.is_human:
            raise ValueError("the opponent of a Gymnasium environment cannot be a person")
        self.agent_side = agent_side
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.opponent_learns = opponent_learns
        self.observation_space = observation_space(self.game)
        self.action_space = spaces.Discrete(self.codec.size)
        self.state = self.game.initial()
        self.states: list[Any] = [self.state]
        self.moves: list[str] = []
        self.seen = {self.state: 1}  # how often each position has come up (the repetition draw)
        self.done = True  # until reset()

    def _observation(self) -> dict[str, np.ndarray]:
        over = self.game.is_over(self.state)
        mask = np.zeros(self.codec.size, dtype=np.int8) if over else legal_mask(self.game, self.state)
        return {"observation": planes(self.game, self.state, self.agent_side), "action_mask": mask}

    def action_masks(self) -> np.ndarray:
        """The agent's legal actions now, as booleans (all False once the episode is over): the
        method sb3-contrib's ``MaskablePPO`` calls, the same as ``observation["action_mask"]``."""
        if self.done or self.game.is_over(self.state):
            return np.zeros(self.codec.size, dtype=bool)
        return legal_mask(self.game, self.state).astype(bool)

    def _play(self, move: str) -> None:
        self.state = self.game.play(self.state, move)
        self.moves.append(move)
        self.states.append(self.state)
        self.seen[self.state] = self.seen.get(self.state, 0) + 1

    def _end(self) -> End | None:
        """How the game has ended by the play layer's policy, or None while it goes on."""
        return end_by_policy(self.game, self.state, self.seen[self.state], len(self.moves), self.max_plies)

    def _opponent_moves(self) -> bool:
        """Let the opponent move while it is its turn; False if it resigned."""
        while self._end() is None and self.game.to_move(self.state) != self.agent_side:
            move = self.opponent.choose(self.state)
            if move is None:
                return False
            self._play(move)
        return True

    def _finish(self, winner: int | None, end: End) -> None:
        self.done = True
        if not self.opponent_learns:
            return
        players = ("agent", self.opponent.spec) if self.agent_side == 0 else (self.opponent.spec, "agent")
        row = {"game": self.game.name, "players": players, "moves": self.moves, "winner": winner, "end": end}
        record = GameRecord.from_dict(self.game, row, start=self.states[0])
        if self.keeper is not None:
            self.keeper.keep(record, [(self.opponent, 1 - self.agent_side)])
        else:
            self.opponent.learn(record, 1 - self.agent_side)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.opponent.reseed(seed)
        self.state = self.game.initial()
        self.states = [self.state]
        self.moves = []
        self.seen = {self.state: 1}
        self.done = False
        self._opponent_moves()
        if self.render_mode == "human":
            self.render()
        return self._observation(), {}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.done:
            raise RuntimeError("the episode is over: call reset()")
        legal = self.game.legal_moves(self.state)
        number = int(action)
        move = self.codec.moves[number] if 0 <= number < self.codec.size else None
        if move is None or move not in legal:
            self.done = True
            return self._observation(), -1.0, True, False, {"illegal_move": number}
        self._play(move)
        resigned = not self._opponent_moves()
        info: dict[str, Any] = {"moves": list(self.moves)}
        if resigned:
            self._finish(self.agent_side, End.RESIGN)
            return self._observation(), 1.0, True, False, info
        end = self._end()
        if end is not None:
            info["end"] = end.value
        if end in (End.WIN, End.DRAW):
            winner = self.game.winner(self.state)
            self._finish(winner, end)
            reward = 0.0 if winner is None else (1.0 if winner == self.agent_side else -1.0)
            if self.render_mode == "human":
                self.render()
            return self._observation(), reward, True, False, info
        truncated = end is not None  # a repetition or the cap: the game is cut, not decided
        if end is not None:
            self._finish(None, end)
        if self.render_mode == "human":
            self.render()
        return self._observation(), 0.0, False, truncated, info

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "rgb_array":
            return rgb_image(self.game, self.state)
        if self.render_mode is None:
            return None
        text = text_view(self.game, self.state, len(self.moves))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None
