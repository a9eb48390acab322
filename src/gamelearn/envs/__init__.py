"""Environments for the tools game-AI people use: PettingZoo AEC environments for the three games
and a Gymnasium single-agent environment against any gamelearn player.  An interface layer: the
rules come from gamelearn.games, the opponents from gamelearn.players.

>>> from gamelearn.envs import env
>>> e = env("tictactoe")
>>> e.reset()
>>> e.agent_selection
'player_0'
"""

from __future__ import annotations

from .actions import TEEKO_DIRECTIONS, ActionCodec, codec
from .aec import AGENTS, env, raw_env
from .single import SingleAgentEnv, register_environments

register_environments()

__all__ = [
    "AGENTS",
    "TEEKO_DIRECTIONS",
    "ActionCodec",
    "SingleAgentEnv",
    "codec",
    "env",
    "raw_env",
    "register_environments",
]
