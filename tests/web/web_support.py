"""Small request helpers the web app's API tests share (the fixtures are in conftest.py)."""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def start(client: TestClient, game: str, players: list[str], **extra: object) -> dict:
    response = client.post("/api/games", json={"game": game, "players": players, **extra})
    assert response.status_code == 200, response.text
    return response.json()


def move(client: TestClient, game_id: str, text: str) -> dict:
    response = client.post(f"/api/games/{game_id}/move", json={"move": text})
    assert response.status_code == 200, response.text
    return response.json()


def refused(response, status: int) -> str:  # type: ignore[no-untyped-def]
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail and "\n" not in detail
    return detail
