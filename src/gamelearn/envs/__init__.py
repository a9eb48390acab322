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

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ModuleNotFoundError as missing:
    if missing.name not in ("gymnasium", "pettingzoo"):
        raise
    # one line naming the extra, instead of a bare "No module named 'gymnasium'"
    raise ModuleNotFoundError(
        f"gamelearn.envs needs {missing.name}, which is not installed: pip install 'gamelearn[envs]'",
        name=missing.name,
    ) from None

from .actions import KNIGHT_DIRECTIONS, TEEKO_DIRECTIONS, ActionCodec, codec, codec_for
from .aec import AGENTS, env, raw_env
from .registration import register_environments
from .single import SingleAgentEnv

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
