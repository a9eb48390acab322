"""The web app: play the games by clicking, watch the learners learn (``gamelearn serve``)."""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
