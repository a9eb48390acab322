"""Environments for the tools game-AI people use: PettingZoo AEC environments for the three games
(and every form of Teeko: ``env("teeko:goals=advanced,drops=aaaa")``) and a Gymnasium single-agent environment against any gamelearn player.  An interface layer: the
rules come from gamelearn.games, the opponents from gamelearn.players.

>>> from gamelearn.envs import env
>>> e = env("tictactoe")
>>> e.reset()
>>> e.agent_selection
'player_0'
"""

from __future__ import annotations

from .actions import KNIGHT_DIRECTIONS, TEEKO_DIRECTIONS, ActionCodec, codec, codec_for
from .aec import AGENTS, env, raw_env
from .single import SingleAgentEnv, register_environments

register_environments()

__all__ = [
    "AGENTS",
    "KNIGHT_DIRECTIONS",
    "TEEKO_DIRECTIONS",
    "ActionCodec",
    "SingleAgentEnv",
    "codec",
    "codec_for",
    "env",
    "raw_env",
    "register_environments",
]
