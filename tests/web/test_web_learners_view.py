"""Every box and record of a browser's learners through the API: HER's and
MENACE's boxes filtered to all, opened in a game, or emptied; MENACE's first box over the games
(replayed from the kept records, checked against the stored learner); the thesis memory's
records searched by position (checked against the exported memory.m)."""

from __future__ import annotations

from web_support import TestClient, move, refused, start

from gamelearn import get_game, make_player

EMPTY = "........."


def boxes(client: TestClient, kind: str, game: str, **params: object) -> dict:
    answer = client.get(f"/api/learners/{kind}/boxes", params={"game": game, **params})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_her_boxes_all_emptied_and_opened_in_a_game(client: TestClient) -> None:
    hexapawn = get_game("hexapawn")
    white = make_player(hexapawn, "alphabeta:depth=9", seed=5)
    opened: list[str] = []
    for seed in range(12):
        view = start(client, "hexapawn", ["human", "her"], seed=seed)
        opened = []
        while not view["over"]:
            view = move(client, view["id"], white.choose(hexapawn.from_board(view["board"], view["to_move"])))
            opened += [e["decision"]["box"] for e in view["events"] if e["decision"] and e["decision"].get("box")]
    every = boxes(client, "her", "hexapawn")
    assert every["total"] == every["boxes_total"] and len(every["boxes"]) == every["total"]
    assert any(count == 0 for b in every["boxes"] for _, count in b["beads"])  # she lost beads
    emptied = boxes(client, "her", "hexapawn", show="emptied")
    expected = [b for b in every["boxes"] if all(count == 0 for _, count in b["beads"])]
    assert emptied["boxes"] == expected
    in_game = boxes(client, "her", "hexapawn", show="opened", game_id=view["id"])
    assert [b["board"] for b in in_game["boxes"]] == list(dict.fromkeys(opened)) and opened
    assert "show is one of" in refused(
        client.get("/api/learners/her/boxes", params={"game": "hexapawn", "show": "x"}), 400
    )


def test_menaces_first_box_over_the_games_ends_where_the_stored_learner_is(client: TestClient) -> None:
    for seed in range(6):
        view = start(client, "tictactoe", ["menace", "human"], seed=seed)  # MENACE opens each game
        while not view["over"]:
            view = move(client, view["id"], view["legal_moves"][0])
    history = client.get("/api/learners/menace/first-box", params={"game": "tictactoe"}).json()
    assert history["box"] == EMPTY and history["games"] == 6 and len(history["series"]) == 7
    [stored] = [b for b in boxes(client, "menace", "tictactoe")["boxes"] if b["board"] == EMPTY]
    assert history["series"][-1] == {m: c for m, c in stored["beads"]}
    assert history["series"][0] != history["series"][-1]  # it learned something in six games
    client.post("/api/learners/menace/reset", params={"game": "tictactoe"})
    assert client.get("/api/learners/menace/first-box", params={"game": "tictactoe"}).json()["games"] == 0


def test_the_thesis_memory_is_searchable_by_position(client: TestClient) -> None:
    for seed in range(8):
        view = start(client, "teeko", ["thesis", "thesis"], seed=seed)
        while not view["over"]:
            view = client.post(f"/api/games/{view['id']}/advance").json()
        if view["winner"] is not None:
            break
    every = client.get("/api/learners/thesis/memory").json()
    assert every["entries"] == every["total"] > 0
    exported = client.get("/api/learners/thesis/export", params={"game": "teeko"}).content
    assert every["entries"] * 33 == len(exported)
    first = every["records"][0]
    found = client.get("/api/learners/thesis/memory", params={"position": first["board"]}).json()
    assert first in found["records"]
    swapped = first["board"].translate(str.maketrans("XO", "OX"))
    assert first in client.get("/api/learners/thesis/memory", params={"position": swapped}).json()["records"]
    prefix = client.get("/api/learners/thesis/memory", params={"position": first["board"][:5]}).json()
    assert prefix["total"] >= found["total"] and all(
        r["board"][:5] in (first["board"][:5], swapped[:5]) for r in prefix["records"]
    )
    # Each recalled position names its record: the one the search finds for that position.
    again = start(client, "teeko", ["thesis", "thesis"], seed=seed)
    rows = []
    while not again["over"] and not rows:
        again = client.post(f"/api/games/{again['id']}/advance").json()
        rows = [r for e in again["events"] if e["decision"] for r in e["decision"]["recall"]]
    assert rows, "the memory was never recalled"
    for row in rows[:5]:
        hits = client.get("/api/learners/thesis/memory", params={"position": row["board"]}).json()["records"]
        assert row["record"] in [hit["record"] for hit in hits]
    assert "a position is" in refused(client.get("/api/learners/thesis/memory", params={"position": "ZZ"}), 400)


def test_boxes_menace_made_in_a_game_in_progress_are_shown_before_it_ends(client: TestClient) -> None:
    """Regression: the boxes were read from the store only, where a box MENACE made in this game
    is kept only when the game ends, so "opened in this game" showed none."""
    view = start(client, "tictactoe", ["human", "menace"], seed=5)
    view = move(client, view["id"], "4")
    [decision] = [e["decision"] for e in view["events"] if e["decision"]]
    opened = boxes(client, "menace", "tictactoe", show="opened", game_id=view["id"])
    assert [b["board"] for b in opened["boxes"]] == [decision["box"]]
    assert boxes(client, "menace", "tictactoe", game_id=view["id"])["total"] >= 1
    assert boxes(client, "menace", "tictactoe")["total"] == 0  # nothing kept yet: the game goes on


def test_regression_menaces_first_box_chart_was_empty_when_it_played_second(client: TestClient) -> None:
    """The page's default table is you (X) against MENACE (O), and the chart of MENACE's first box
    followed the empty board, which MENACE as O never opens: it said "over 14 games" above empty
    axes.  It now follows the box MENACE opened first in most games, here the centre opening's."""
    centre = "....X...."
    for seed, opening in enumerate(["4", "4", "0", "4"]):
        view = start(client, "tictactoe", ["human", "menace"], seed=seed)
        view = move(client, view["id"], opening)
        while not view["over"]:
            view = move(client, view["id"], view["legal_moves"][0])
    history = client.get("/api/learners/menace/first-box", params={"game": "tictactoe"}).json()
    assert history["box"] == centre and not history["empty_board"]
    assert history["opened_first"] == 3 and history["games"] == 4
    assert history["moves"] == ["0", "1"]  # O answers the centre in a corner or on an edge
    assert history["series"][0] is None and history["series"][1]  # made when first opened
    assert history["from_game"] == 1
    [stored] = [b for b in boxes(client, "menace", "tictactoe", show="all")["boxes"] if b["board"] == centre]
    assert history["series"][-1] == {m: c for m, c in stored["beads"]}
