"""Action numbers for the environments: the rules layer's numbering (gamelearn.games.actions), named
here too so that ``gamelearn.envs.actions`` keeps working."""

from __future__ import annotations

from ..games.actions import KNIGHT_DIRECTIONS, TEEKO_DIRECTIONS, ActionCodec, codec, codec_for

__all__ = ["KNIGHT_DIRECTIONS", "TEEKO_DIRECTIONS", "ActionCodec", "codec", "codec_for"]
