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

from .registration import register_environments

register_environments()

#: Where each public name lives: imported the first time it is used (PEP 562), so that a program
#: using the AEC environments never loads the single-agent one's players, keeper and store.
_HOMES = {
    "AGENTS": "aec",
    "env": "aec",
    "raw_env": "aec",
    "KNIGHT_DIRECTIONS": "actions",
    "TEEKO_DIRECTIONS": "actions",
    "ActionCodec": "actions",
    "codec": "actions",
    "codec_for": "actions",
    "SingleAgentEnv": "single",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])


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
