"""The analysis board's route (POST /api/analysis): any line from the start, answered with the
position the rules reach, its legal moves and each move's perfect value, checked against the
rules API and ``gamelearn.solve`` directly; the learner seated on the side to move shows its own
view (MENACE's beads, which a lost game takes out); a move the rules refuse is a 400 in one line."""

from __future__ import annotations

import random

import pytest
from web_support import TestClient, move, refused, start

from gamelearn import get_game, make_player, solve


def analysis(client: TestClient, game: str, moves: list[str], players: list[str] | None = None) -> dict:
    answer = client.post("/api/analysis", json={"game": game, "moves": moves, "players": players or []})
    assert answer.status_code == 200, answer.text
    return answer.json()


def perfect_value(game, state, move: str) -> int:  # type: ignore[no-untyped-def]
    """The value of ``move`` for its player, read off the solver (a finished game off its winner)."""
    after = game.play(state, move)
    if game.is_over(after):
        winner = game.winner(after)
        return 0 if winner is None else 1 if winner == game.to_move(state) else -1
    return -solve(game).value(after)


@pytest.mark.parametrize("name", ["tictactoe", "hexapawn"])
def test_every_legal_moves_value_is_the_solvers_along_random_lines(client: TestClient, name: str) -> None:
    game = get_game(name)
    draw = random.Random(34)
    for _ in range(4):
        state, line = game.initial(), []
        while True:
            answer = analysis(client, name, line)
            assert answer["board"] == game.board(state) and answer["over"] == game.is_over(state)
            assert answer["legal_moves"] == ([] if game.is_over(state) else game.legal_moves(state))
            if game.is_over(state):
                assert answer["winner"] == game.winner(state) and answer["perfect"]["moves"] == {}
                break
            perfect = answer["perfect"]
            assert perfect["available"] and sorted(perfect["moves"]) == sorted(game.legal_moves(state))
            for played, entry in perfect["moves"].items():
                assert entry["value"] == perfect_value(game, state, played), (line, played)
                assert (entry["value"], entry["distance"]) == solve(game).result_of(state, played)
            assert list(perfect["moves"]) == game.legal_moves(state)  # the game's order
            # The best line: each step one of the solver's best moves, by the side to move there.
            at = state
            for step in perfect["best_line"]:
                assert step["move"] in solve(game).best_moves(at) and step["side"] == game.to_move(at)
                at = game.play(at, step["move"])
            assert perfect["best_line_over"] == game.is_over(at)
            assert game.is_over(at) or len(perfect["best_line"]) == 12
            if perfect["value"]:  # a win or a loss: the line is as long as the distance says
                assert len(perfect["best_line"]) == min(12, perfect["distance"])
            mover = game.to_move(state)
            own = solve(game).value(state)
            assert perfect["value"] == own and answer["value"] == (own if mover == 0 else -own)
            chosen = draw.choice(game.legal_moves(state))
            state, line = game.play(state, chosen), [*line, chosen]


def test_a_move_the_rules_refuse_is_a_400_naming_it(client: TestClient) -> None:
    said = refused(client.post("/api/analysis", json={"game": "tictactoe", "moves": ["4", "4"]}), 400)
    assert "move 2" in said and "'4'" in said
    said = refused(client.post("/api/analysis", json={"game": "hexapawn", "moves": ["63", "99"]}), 400)
    assert "move 2" in said and "99" in said
    over = ["0", "3", "1", "4", "2"]  # X's top row
    said = refused(client.post("/api/analysis", json={"game": "tictactoe", "moves": [*over, "5"]}), 400)
    assert "move 6" in said and "over" in said
    assert "chess" in refused(client.post("/api/analysis", json={"game": "chess", "moves": []}), 400)
    said = refused(client.post("/api/analysis", json={"game": "tictactoe", "players": ["human", "bogus"]}), 400)
    assert "bogus" in said
    assert client.post("/api/analysis", json={"game": "tictactoe", "moves": ["0"] * 1001}).status_code == 422


def test_the_side_to_moves_learner_shows_its_beads_and_a_person_has_no_view(client: TestClient) -> None:
    tictactoe = get_game("tictactoe")
    [seat] = analysis(client, "tictactoe", [], ["menace", "human"])["learners"]
    assert seat["kind"] == "menace" and seat["side"] == 0 and seat["view"]["box"] == "........."
    assert sorted(seat["view"]["moves"]) == tictactoe.legal_moves(tictactoe.initial())
    # MENACE loses a game to perfect play (a person here): the bead it drew first comes out.
    perfect = make_player(tictactoe, "perfect", seed=1)
    for seed in range(40):
        before = analysis(client, "tictactoe", [], ["menace", "human"])["learners"][0]["view"]["moves"]
        view = start(client, "tictactoe", ["menace", "human"], seed=seed)
        first = view["moves"][0]
        while not view["over"]:
            view = move(client, view["id"], perfect.choose(tictactoe.from_board(view["board"], view["to_move"])))
        if view["winner"] == 1:
            break
    assert view["winner"] == 1, "MENACE never lost to perfect play in 40 games"
    after = analysis(client, "tictactoe", [], ["menace", "human"])["learners"][0]["view"]["moves"]
    assert after[first]["score"] < before[first]["score"]
    assert all(after[m]["score"] == before[m]["score"] for m in before if after[m]["bead"] != after[first]["bead"])
    # The person to move: no view of their own, said so.
    [person] = analysis(client, "tictactoe", [first], ["menace", "human"])["learners"]
    assert person["side"] == 1 and person["view"] is None and person["none"]


def test_teeko_without_its_table_says_so_and_still_plays_the_line(client: TestClient) -> None:
    from gamelearn.web.tables import table_ready

    teeko = get_game("teeko")
    ready, _ = table_ready("teeko")
    answer = analysis(client, "teeko", ["22", "11"])
    assert answer["legal_moves"] == teeko.legal_moves(teeko.play(teeko.play(teeko.initial(), "22"), "11"))
    assert answer["perfect"]["available"] == ready
    if not ready:
        assert answer["perfect"]["reason"] and answer["perfect"]["moves"] == {}


def test_a_record_naming_people_is_seated_as_human_on_the_analysis_board(client: TestClient) -> None:
    text = (
        '[Game "tictactoe"]\n[First "Ana"]\n[Second "menace:name=mine"]\n[Result "*"]\n[End "abandoned"]\n\n1. 4 0 *\n'
    )
    answer = client.post("/api/records/review", content=text, headers={"Content-Type": "text/plain"})
    assert answer.status_code == 200, answer.text
    review = answer.json()
    assert review["players"] == ["Ana", "menace:name=mine"] and review["seats"] == ["human", "menace:name=mine"]
    board = analysis(client, "tictactoe", ["4", "0"], review["seats"])
    [seat] = board["learners"]
    assert seat["side"] == 0 and seat["view"] is None and seat["none"]
    # The people's names themselves are no players the analysis board seats.
    assert client.post("/api/analysis", json={"game": "tictactoe", "players": review["players"]}).status_code == 400
