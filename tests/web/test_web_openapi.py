"""The API's documentation declares what the page reads: every key the page's JavaScript reads
of a game (``view.KEY``) is a property of the game's answer in /openapi.json, and so are the keys
it reads of the other answers (its learners, lessons, chart, analysis, boxes, training); every
route documents its answer."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import gamelearn.web

SCRIPTS = Path(gamelearn.web.__file__).parent / "static" / "js"

#: Route and method, then the path of keys down to an answer (an item of a list is "[]"), and
#: the keys the page reads of that answer.
READ = [
    (
        "/api/games",
        "get",
        ["[]"],
        {"name", "spec", "options", "symbols", "rules", "players", "defaults", "form_defaults"},
    ),
    ("/api/games", "get", ["[]", "players", "[]"], {"name", "title", "summary", "options", "first_move_wait"}),
    ("/api/games", "get", ["[]", "players", "[]", "options", "[]"], {"name", "default", "help", "type", "min", "max"}),
    ("/api/games", "get", ["[]", "options", "[]"], {"name", "default", "values", "labels", "pattern", "help"}),
    (
        "/api/games",
        "post",
        ["learners", "[]"],
        {"side", "kind", "error", "available", "reason", "boxes", "boxes_total"},
    ),
    ("/api/games", "post", ["learners", "[]"], {"beads_total", "memory_entries", "learns_when", "export_label"}),
    ("/api/games", "post", ["learners", "[]", "boxes", "[]"], {"board", "beads", "count"}),
    ("/api/games", "post", ["learning", "[]"], {"side", "lost", "changes"}),
    ("/api/games", "post", ["learning", "[]", "changes", "[]"], {"box", "removed", "added", "text"}),
    ("/api/games", "post", ["events", "[]"], {"ply", "side", "move", "by", "human", "decision"}),
    ("/api/games", "post", ["events", "[]", "decision"], {"box", "bead", "resigned", "mirrored", "move", "adviser"}),
    ("/api/games", "post", ["events", "[]", "decision"], {"recall", "recall_total"}),
    ("/api/games", "post", ["events", "[]", "decision", "recall", "[]"], {"move", "board", "record", "chosen"}),
    ("/api/games/{game_id}/analysis", "get", [], {"available", "reason", "moves"}),
    ("/api/chart", "get", [], {"game", "learner", "letters", "games", "wins", "losses", "draws"}),
    ("/api/learners/{kind}/boxes", "get", [], {"total", "offset", "boxes"}),
    ("/api/learners/{kind}/first-box", "get", [], {"box", "empty_board", "opened_first", "moves", "games"}),
    ("/api/learners/{kind}/first-box", "get", [], {"from_game", "series"}),
    ("/api/learners/thesis/memory", "get", [], {"entries", "total", "offset", "records"}),
    ("/api/learners/thesis/memory", "get", ["records", "[]"], {"record", "board", "x_wins", "o_wins"}),
    ("/api/learners/{kind}/training", "get", [], {"kind", "running", "played", "games", "fraction", "wins"}),
    ("/api/learners/{kind}/training", "get", [], {"losses", "draws", "points", "opponent", "error", "max_games"}),
    ("/api/learners/{kind}/training", "get", [], {"suite"}),
    ("/api/learners/{kind}/every-box", "get", [], {"total", "opened", "boxes"}),
    ("/api/learners/{kind}/every-box", "get", ["boxes", "[]"], {"board", "beads", "count", "opened"}),
    ("/api/tables/{game}", "get", [], {"ready", "reason", "buildable", "building", "stage", "fraction", "elapsed"}),
    ("/api/records", "get", ["[]"], {"id", "players", "winner", "plies"}),
    ("/api/games/{game_id}/review", "get", [], {"available", "reason", "positions", "plies", "grades", "measure"}),
    ("/api/games/{game_id}/review", "get", ["positions", "[]"], {"board", "value", "distance", "over"}),
    ("/api/games/{game_id}/review", "get", ["plies", "[]"], {"move", "grade", "best", "squares"}),
    ("/api/console", "get", [], {"screen", "prompt", "finished", "files"}),
    ("/api/console", "get", ["files"], {"memory_records", "memory_bytes", "side1_wins", "side2_wins", "stat"}),
]


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    from fastapi.testclient import TestClient

    with TestClient(gamelearn.web.create_app()) as client:
        answer = client.get("/openapi.json")
    assert answer.status_code == 200
    return dict(answer.json())


def resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """The object schema a node stands for: its $ref followed, an optional (anyOf with null) unwrapped."""
    while True:
        if "$ref" in node:
            node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
        elif "anyOf" in node:
            node = next(option for option in node["anyOf"] if option.get("type") != "null")
        else:
            return node


def answer_schema(schema: dict[str, Any], route: str, method: str, path: list[str]) -> dict[str, Any]:
    node = resolve(schema, schema["paths"][route][method]["responses"]["200"]["content"]["application/json"]["schema"])
    for step in path:
        node = resolve(schema, node["items"] if step == "[]" else node["properties"][step])
    return node


@pytest.mark.parametrize(("route", "method", "path", "keys"), READ)
def test_the_keys_the_page_reads_are_declared(schema, route, method, path, keys) -> None:  # type: ignore[no-untyped-def]
    declared = set(answer_schema(schema, route, method, path).get("properties", {}))
    assert keys <= declared, f"{method} {route} {path}: not declared {sorted(keys - declared)}"


def test_every_key_the_page_reads_of_a_game_is_declared(schema) -> None:  # type: ignore[no-untyped-def]
    read = {key for script in SCRIPTS.glob("*.js") for key in re.findall(r"\bview\.([a-z_]+)", script.read_text())}
    assert len(read) > 20  # the page reads a game's board, moves, players, ... (the pattern still finds them)
    for route, method in (
        ("/api/games", "post"),
        ("/api/games/{game_id}", "get"),
        ("/api/games/{game_id}/move", "post"),
    ):
        declared = set(answer_schema(schema, route, method, []).get("properties", {}))
        assert read <= declared, f"{method} {route}: not declared {sorted(read - declared)}"


def test_every_route_documents_its_answer(schema) -> None:  # type: ignore[no-untyped-def]
    """Every route's answer has a schema in /openapi.json: a JSON answer is one of the models the
    services build (web/models.py), or a list of them; a stream or a file says its media type."""
    documented = 0
    for route, operations in schema["paths"].items():
        for method, operation in operations.items():
            code, answer = next((code, a) for code, a in operation["responses"].items() if code.startswith("2"))
            if code == "204":
                assert "content" not in answer, f"{method} {route}: a 204 has no body"
                continue
            content = answer.get("content", {})
            assert content, f"{method} {route}: its answer has no media type"
            for media_type, described in content.items():
                node = described.get("schema", {})
                assert node, f"{method} {route}: no schema for its {media_type} answer"
                if media_type == "application/json" and node.get("format") != "binary":
                    node = node.get("items", node)  # a list of answers: each one's model
                    model = node["$ref"].rsplit("/", 1)[-1]
                    assert schema["components"]["schemas"][model]["properties"], f"{method} {route}: {model} is empty"
                    documented += 1
    assert documented >= 30  # the game, review, learner, training and console answers (34 routes)


def test_a_decision_is_sent_with_the_keys_the_learner_gave_and_no_others(client) -> None:  # type: ignore[no-untyped-def]
    """A model's defaults are never sent in place of what the service left unsaid: MENACE's
    decision names its box and bead, and has no thesis recall (the page tells the two apart by
    the keys there)."""
    view = client.post("/api/games", json={"game": "tictactoe", "players": ["menace", "human"], "seed": 3}).json()
    decision = view["events"][0]["decision"]
    assert decision["learner"] == "menace" and decision["box"] == "........." and decision["bead"] in view["moves"]
    assert not {"recall", "recall_total", "adviser", "error"} & set(decision)
    assert "advice" not in view["learners"][0] and "error" not in view["learners"][0]
