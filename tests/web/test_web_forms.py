"""The web app on Teeko's forms: the view names whose pawn an Alternate drop places, lights the
goal of the form that was made (an Advanced goal the standard rules do not count), lists a knight
form's jumps, and carries the form's own rules.  The oracles are coordinates worked out here."""

from __future__ import annotations

import warnings

from web_support import move, refused, start

import gamelearn
from gamelearn.players.registry import make_player
from gamelearn.web.sessions import Seat, WebGame
from gamelearn.web.views import game_view

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def squares_of(*names: str) -> list[int]:
    return sorted(int(name[0]) * 5 + int(name[1]) for name in names)


def test_games_list_teekos_options_and_the_players_offered_for_a_form(client: TestClient) -> None:
    teeko = next(info for info in client.get("/api/games").json() if info["name"] == "teeko")
    options = {option["name"]: option for option in teeko["options"]}
    assert set(options) == {"goals", "drops", "centre", "steps"}
    assert options["drops"]["labels"]["aaaa"] == "alternate" and options["drops"]["pattern"] == "[sa]{4}"
    assert teeko["defaults"] == ["human", "thesis"]
    assert "thesis" not in teeko["form_defaults"]  # the thesis player refuses every form but the standard one
    start(client, "teeko:goals=advanced", teeko["form_defaults"])
    detail = refused(
        client.post("/api/games", json={"game": "teeko:goals=advanced", "players": teeko["defaults"]}), 400
    )
    assert "Standard Teeko only" in detail
    assert "drops" in refused(
        client.post("/api/games", json={"game": "teeko:drops=xyz", "players": ["human"] * 2}), 400
    )


def test_an_advanced_goal_is_lit_where_the_standard_rules_play_on(client: TestClient) -> None:
    drops = ["00", "44", "02", "43", "20", "34", "22"]  # X: the corners of the 3x3 square 00-22
    view = start(client, "teeko:goals=advanced", ["human", "human"])
    assert view["spec"] == "teeko:goals=advanced" and "corners of any larger square" in view["rules"]
    for square in drops:
        view = move(client, view["id"], square)
    assert view["over"] and view["winner"] == 0
    assert view["winning_squares"] == squares_of("00", "02", "20", "22")
    assert view["result"] == "X wins: four on the corners of a 3x3 square"
    standard = start(client, "teeko", ["human", "human"])
    for square in drops:
        standard = move(client, standard["id"], square)
    assert not standard["over"] and standard["winning_squares"] == [] and "larger" not in standard["rules"]


def test_an_alternate_round_says_whose_pawn_and_who_chooses(client: TestClient) -> None:
    # Two people: in drops=aaaa O chooses where X's first pawn goes.
    view = start(client, "teeko:drops=aaaa", ["human", "human"])
    assert (view["to_move"], view["pawn_side"], view["result"]) == (1, 0, "O places X's pawn")
    view = move(client, view["id"], "22")
    assert view["board"][12] == "X" and (view["to_move"], view["pawn_side"]) == (0, 1)
    # A person as X against a computer: the computer chose X's first square at once; now X places O's.
    view = start(client, "teeko:drops=aaaa,steps=knight", ["human", "random"], seed=5)
    assert len(view["moves"]) == 1 and view["board"].count("X") == 1 and view["board"].count("O") == 0
    assert (view["to_move"], view["pawn_side"], view["human_to_move"]) == (0, 1, True)
    assert view["result"] == "Place O's pawn (you choose for O)"
    free = view["legal_moves"][0]
    view = move(client, view["id"], free)
    assert view["board"][squares_of(free)[0]] == "O"  # the person's click put down O's pawn
    # One-move standard: the first round is each side's own, the rest alternate.
    view = start(client, "teeko:drops=saaa", ["human", "human"])
    assert (view["to_move"], view["pawn_side"], view["result"]) == (0, 0, "X to move")
    view = move(client, move(client, view["id"], "00")["id"], "44")
    assert (view["to_move"], view["pawn_side"]) == (1, 0)


def test_the_computer_placing_your_pawn_is_said_from_your_side() -> None:
    game = gamelearn.get_game("teeko:drops=aaaa")
    seats = (Seat("human", make_player(game, "human")), Seat("alphabeta", make_player(game, "alphabeta")))
    view = game_view(WebGame("g", "o", game, seats, seed=1))  # O, the computer, chooses X's first square
    assert (view.to_move, view.pawn_side) == (1, 0) and view.result == "alphabeta places your pawn (X)…"


def test_a_knight_form_lists_knight_jumps_only(client: TestClient) -> None:
    view = start(client, "teeko:steps=knight", ["human", "human"])
    for square in ["00", "11", "04", "13", "40", "31", "44", "33"]:  # X on the corners, O hems none in
        view = move(client, view["id"], square)
    x_squares = [sq for sq, mark in enumerate(view["board"]) if mark == "X"]
    expected = sorted(
        f"{r}{c}{r + dr}{c + dc}"
        for r, c in (divmod(sq, 5) for sq in x_squares)
        for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
        if 0 <= r + dr < 5 and 0 <= c + dc < 5 and view["board"][(r + dr) * 5 + c + dc] == "."
    )
    assert view["pawn_side"] == view["to_move"] == 0 and sorted(view["legal_moves"]) == expected
    assert "0012" in expected and "0011" not in view["legal_moves"]  # a knight's jump, not a king's step


def test_a_forms_review_asks_for_the_forms_own_table_not_standard_teekos(client: TestClient) -> None:
    view = move(client, start(client, "teeko:goals=advanced", ["human", "human"])["id"], "22")
    review = client.get(f"/api/games/{view['id']}/review").json()
    assert not review["available"] and review["spec"] == "teeko:goals=advanced"
    assert 'gamelearn solve "teeko:goals=advanced"' in review["reason"] and "teeko.table" not in review["reason"]
    spec = "teeko:goals=advanced,drops=aaaa,centre=off,steps=knight"  # 55 characters, all kept
    status = client.get(f"/api/tables/{spec}").json()
    assert status["game"] == spec and status["buildable"] and not status["ready"] and not status["building"]


def test_a_finished_form_game_is_recorded_and_reviewed_as_that_form(client: TestClient) -> None:
    # Regression: records kept game.name, so a finished Advanced game was listed and reviewed as
    # Standard Teeko.  The record now names the form's spec.
    spec = "teeko:goals=advanced"
    view = start(client, spec, ["human", "human"], seed=1)
    for text in ("00", "11", "02", "12", "20", "13", "22"):  # X: the corners of a 3x3 square
        view = move(client, view["id"], text)
    assert view["over"] and view["winner"] == 0
    (row,) = client.get("/api/records", params={"game": spec}).json()
    assert row["game"] == spec
    assert client.get("/api/records", params={"game": "teeko"}).json() == []
    review = client.get(f"/api/records/{row['id']}/review")
    assert review.status_code == 200, review.text
