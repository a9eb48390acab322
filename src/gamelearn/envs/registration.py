"""The Gymnasium ids of the single-agent environments, registered when gamelearn.envs is imported.
Registering names the entry point (``"gamelearn.envs.single:SingleAgentEnv"``), which
``gymnasium.make`` resolves."""

from __future__ import annotations

import gymnasium

from ..games import game_names


def register_environments() -> None:
    """Register ``gamelearn/<game>-v0`` with Gymnasium (``gymnasium.make("gamelearn/tictactoe-v0")``)
    for every game found: the built-in ones and those installed or registered so far (a game
    registered later is registered by calling this again)."""
    for name in game_names():
        env_id = f"gamelearn/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="gamelearn.envs.single:SingleAgentEnv", kwargs={"game": name})
