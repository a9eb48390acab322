"""The lesson the page shows after a game is what the game changed in the learner's stored
knowledge, bead by bead, game after game in the same browser (issue: the second game's lesson
reported the beads left in a box as "added" instead of the bead taken out)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from web_support import move, start

import gamelearn
from gamelearn.store.store import Store

HEXAPAWN = gamelearn.get_game("hexapawn")
TICTACTOE = gamelearn.get_game("tictactoe")


def stored_boxes(client: Any, kind: str, game: str) -> dict[str, Counter[str]]:
    """The browser's learner as the store keeps it (nothing before the browser's first request)."""
    owners = list(client.cookies.values())
    payload = (owners and Store().load_learner(kind, f"web-{game}", owner=owners[0])) or {"boxes": {}}
    boxes = {}
    for board, beads in payload["boxes"].items():
        boxes[board] = Counter(beads) if isinstance(beads, list) else Counter({c: n for c, n in beads.items()})
    return boxes


def play_out(client: Any, view: dict[str, Any], human_move: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Play the person's moves until the game ends; the last view and every computer decision."""
    decisions = [e["decision"] for e in view["events"] if e.get("decision")]
    while not view["over"]:
        view = move(client, view["id"], human_move(view))
        decisions += [e["decision"] for e in view["events"] if e.get("decision")]
    return view, decisions


def perfect_move(game: Any) -> Any:
    solution = gamelearn.solve(game)

    def choose(view: dict[str, Any]) -> str:
        state = game.from_board(view["board"], to_move=view["to_move"])
        return sorted(solution.best_moves(state))[0]

    return choose


def test_the_second_games_lesson_is_the_bead_taken_out_not_the_beads_left(client: Any) -> None:
    # The steps: a first game (seed 3, moves 74 and 63) saves HER once; in the second (seed
    # 0, moves 63 and 31) HER loses, and bead 03 comes out of box BBB..WWW. (she saw it mirrored).
    first = start(client, "hexapawn", ["human", "her"], seed=3)
    for text in ("74", "63"):
        first = move(client, first["id"], text)
    assert first["over"]
    second = start(client, "hexapawn", ["human", "her"], seed=0)
    for text in ("63", "31"):
        second = move(client, second["id"], text)
    assert second["over"] and second["winner"] == 0
    (lesson,) = second["learning"]
    assert lesson["lost"] is True
    assert lesson["changes"] == [{"box": "BBB..WWW.", "removed": ["03"], "added": []}]
    assert "03" not in stored_boxes(client, "her", "hexapawn")["BBB..WWW."]
    # The panel still shows every box HER opened, the one of this game included.
    (panel,) = second["learners"]
    assert "BBB..WWW." in [box["board"] for box in panel["boxes"]]


@pytest.mark.parametrize("kind", ["her", "him"])
def test_a_matchbox_learner_beaten_game_after_game_loses_exactly_its_last_bead(client: Any, kind: str) -> None:
    # The person plays Black perfectly (Black wins hexapawn with best play), so the learner, as
    # White, loses every game; Gardner's rule takes out the bead of its last move, and nothing else.
    for seed in range(4):
        before = stored_boxes(client, kind, "hexapawn")
        view = start(client, "hexapawn", [kind, "human"], seed=seed)
        view, decisions = play_out(client, view, perfect_move(HEXAPAWN))
        assert view["winner"] == 1
        after = stored_boxes(client, kind, "hexapawn")
        (lesson,) = view["learning"]
        assert lesson["side"] == 0 and lesson["lost"] is True
        last = next(d for d in reversed(decisions) if not d["resigned"])
        if before.get(last["box"], Counter({last["bead"]: 1}))[last["bead"]] > 0:
            assert lesson["changes"] == [{"box": last["box"], "removed": [last["bead"]], "added": []}]
        # What the page says is what the store lost, bead for bead.
        for change in lesson["changes"]:
            old = before.get(change["box"]) or after[change["box"]] + Counter(change["removed"])
            assert old - after[change["box"]] == Counter(change["removed"])
            assert after[change["box"]] - old == Counter(change["added"])


def test_menaces_lesson_is_every_bead_it_drew_reinforced(client: Any) -> None:
    # MENACE (O) against perfect play loses or draws; Michie's rule: -1 bead of every colour it drew
    # after a loss (never below zero), +1 after a draw.
    for seed in range(3):
        before = stored_boxes(client, "menace", "tictactoe")
        view = start(client, "tictactoe", ["human", "menace"], seed=seed)
        view, decisions = play_out(client, view, perfect_move(TICTACTOE))
        (lesson,) = view["learning"]
        drawn = [(d["box"], d["bead"]) for d in decisions if d.get("box")]
        expected: dict[str, dict[str, list[str]]] = {}
        for box, bead in drawn:
            entry = expected.setdefault(box, {"removed": [], "added": []})
            if view["winner"] == 0:  # a drawn bead was there to draw, so one comes out
                entry["removed"].append(bead)
            elif view["winner"] is None:
                entry["added"].append(bead)
        shown = {c["box"]: {"removed": c["removed"], "added": c["added"]} for c in lesson["changes"]}
        assert shown == {box: e for box, e in expected.items() if e["removed"] or e["added"]}
        assert lesson["lost"] is (view["winner"] == 0)
        after = stored_boxes(client, "menace", "tictactoe")
        for box, entry in shown.items():  # the page's lesson is what the store changed
            if box in before:
                assert before[box] - after[box] == Counter(entry["removed"])
                assert after[box] - before[box] == Counter(entry["added"])
