"""A game installed by its own package (examples/connect3, docs/own-game.md) on the page's API: in
the picker with its board's rows, columns and symbols, played by clicks (square names) against a
computer.  Skipped only where the example is not installed."""

from __future__ import annotations

import pytest

import gamelearn

pytestmark = pytest.mark.skipif(
    "connect3" not in gamelearn.game_names(),
    reason="examples/connect3 is not installed (pip install -e examples/connect3)",
)


def test_the_installed_game_is_in_the_picker_and_played_by_its_square_names(client) -> None:  # type: ignore[no-untyped-def]
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert {"teeko", "hexapawn", "tictactoe", "connect3"} <= set(games)
    info = games["connect3"]
    assert (info["rows"], info["columns"], info["symbols"]) == (4, 4, ["X", "O"])
    assert info["square_names"] == [f"{sq:02d}" for sq in range(16)]
    kinds = {kind["name"] for kind in info["players"]}
    assert {"human", "random", "alphabeta", "mcts", "perfect", "ntuple"} <= kinds
    view = client.post("/api/games", json={"game": "connect3", "players": ["human", "perfect"], "seed": 1}).json()
    view = client.post(f"/api/games/{view['id']}/move", json={"move": "13"}).json()
    board = view["board"]
    assert board[13] == "X" and board.count("O") == 1  # the perfect player has answered
    refused = client.post(f"/api/games/{view['id']}/move", json={"move": "00"})
    assert refused.status_code == 400 and "'00'" in refused.json()["detail"]


def test_the_end_of_a_game_of_another_author_says_its_line(client) -> None:  # type: ignore[no-untyped-def]
    view = client.post("/api/games", json={"game": "connect3", "players": ["human", "human"]}).json()
    for move in ["12", "13", "08", "09", "04"]:  # X drops three discs in column 0: a line down
        view = client.post(f"/api/games/{view['id']}/move", json={"move": move}).json()
    assert view["over"] and view["winner"] == 0 and view["winning_squares"] == [4, 8, 12]
    assert view["why"] == "three in a row" and "far row" not in view["result"]
