"""The thesis program's console on the page (web/console.py): the screens are the terminal's
`gamelearn teeko console`, byte for byte; the memory and score are the browser's, in the store;
a thesis memory.m or stat.m uploads and downloads byte for byte; a bad upload is one 4xx line."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from web_support import refused

from gamelearn import get_game
from gamelearn.store.thesis_files import parse_memory_entries, swap_sides

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

PLAYS = re.compile(r"^Move \d+, (?:Ply|Reply): The program plays (\d+)$")
DRAW_OFFER = "I offer a draw. Do you accept (y/n)? "


def console(client: TestClient) -> dict:
    client.get("/")  # the page first: the browser's cookie
    response = client.get("/api/console")
    assert response.status_code == 200, response.text
    return response.json()


def typed(client: TestClient, line: str) -> dict:
    response = client.post("/api/console/line", json={"line": line})
    assert response.status_code == 200, response.text
    return response.json()


def restart(client: TestClient, seed: int) -> dict:
    client.get("/")
    response = client.post("/api/console/restart", json={"seed": seed})
    assert response.status_code == 200, response.text
    return response.json()


def play_as_person(client: TestClient, begin: str, seed: int) -> tuple[list[str], list[str], list[dict]]:
    """A game against the program typed line by line: ``begin`` is "1" (the person is X) or "2";
    the person's moves are drawn (seeded) from the rules' legal moves, the program's read off the
    screen; a draw offer is refused.  The game's moves, the lines typed, and every answer."""
    teeko = get_game("teeko")
    state = teeko.initial()
    moves: list[str] = []
    chooser = random.Random(seed)
    seen = len(client.get("/api/console").json()["screen"])
    lines = [begin]
    views = [typed(client, begin)]
    for _ in range(400):
        view = views[-1]
        for line in view["screen"][seen:]:
            found = PLAYS.match(line)
            if found:
                state = teeko.play(state, found.group(1))
                moves.append(found.group(1))
        seen = len(view["screen"])
        if view["prompt"] == "Your choice: ":
            return moves, lines, views
        answer = "n" if view["prompt"] == DRAW_OFFER else chooser.choice(sorted(teeko.legal_moves(state)))
        if answer != "n":
            state = teeko.play(state, answer)
            moves.append(answer)
        lines.append(answer)
        views.append(typed(client, answer))
    raise AssertionError("the game did not end")


def memory_boards(moves: list[str], program: int) -> list[str]:
    """The boards after each ply from 9 on, in the memory's orientation ('1' the program), from
    the rules (not from the console)."""
    teeko = get_game("teeko")
    state = teeko.initial()
    boards = []
    for ply, move in enumerate(moves, start=1):
        state = teeko.play(state, move)
        if ply >= 9:
            board = teeko.board(state)
            mine = teeko.symbols[program]
            boards.append("".join("0" if ch == "." else "1" if ch == mine else "2" for ch in board))
    return boards


def test_the_first_screen_is_the_menu_and_the_files_start_empty(client: TestClient) -> None:
    view = console(client)
    assert view["screen"][0] == "Teeko, the 1999 thesis program (fixed).  / for help."
    assert view["screen"][1].startswith("1  you begin (you are X)")
    assert view["prompt"] == "Your choice: " and not view["finished"]
    assert view["files"] == {
        "memory_records": 0,
        "memory_bytes": 0,
        "side1_wins": 0,
        "side2_wins": 0,
        "stat": [0] * 9,
    }
    assert client.get("/api/console/memory.m").content == b""
    assert client.get("/api/console/stat.m").content == b" " * 36  # the original's empty stat.m


def test_the_session_outlives_a_reload_and_each_browser_has_its_own(app) -> None:  # type: ignore[no-untyped-def]
    with TestClient(app) as one, TestClient(app) as two:
        restart(one, 4)
        after = typed(one, "r")  # the rules
        assert console(one)["screen"] == after["screen"]  # the page loaded again: the same screen
        assert "Your choice: r" in after["screen"]
        assert "Your choice: r" not in console(two)["screen"]


@pytest.mark.slow
def test_a_won_game_is_learned_into_this_browsers_memory_and_score(app) -> None:  # type: ignore[no-untyped-def]
    with TestClient(app) as person, TestClient(app) as other:
        restart(person, 2)
        typed(person, "t")  # thinking off: the screen then holds the moves and the result
        moves, _, views = play_as_person(person, "1", seed=1)
        final = views[-1]
        text = "\n".join(final["screen"])
        assert "I have won." in text, text[-600:]
        boards = memory_boards(moves, program=1)
        assert f"Learned {len(boards)} positions" in text
        memory = parse_memory_entries(person.get("/api/console/memory.m").content)
        held = {board for board, _, _ in memory}
        assert all(board in held or swap_sides(board) in held for board in boards)
        assert final["files"]["memory_records"] == len(memory) == len(set(boards))
        assert final["files"]["stat"] == [0, 0, 0, 0, 0, 0, 1, 0, 0]  # it played second and won
        assert final["files"]["side1_wins"] == len(boards)  # one count per ply: the program is side 1
        restart(other, 2)
        assert console(other)["files"]["memory_records"] == 0  # another browser's is its own


def test_a_thesis_memory_and_stat_upload_and_download_byte_for_byte(client: TestClient, thesis_data: Path) -> None:
    console(client)
    memory = (thesis_data / "memory.m").read_bytes()
    loaded = client.put("/api/console/memory.m?name=memory.m", content=memory)
    assert loaded.status_code == 200, loaded.text
    # The thesis data's own README: 516 records, 57670 and 17974 wins.
    assert loaded.json()["memory_records"] == 516 and loaded.json()["memory_bytes"] == len(memory) == 17028
    assert (loaded.json()["side1_wins"], loaded.json()["side2_wins"]) == (57670, 17974)
    downloaded = client.get("/api/console/memory.m")
    assert downloaded.content == memory
    assert downloaded.headers["content-disposition"] == 'attachment; filename="memory.m"'
    stat = (thesis_data / "stat.m").read_bytes()
    answer = client.put("/api/console/stat.m", content=stat)
    assert answer.status_code == 200 and answer.json()["stat"] == [3214, 2681, 1106, 0, 0, 0, 0, 0, 0]
    assert client.get("/api/console/stat.m").content == stat
    # The largest of the thesis's memories (74,052 bytes) is over the API's 16 KiB body limit, not the upload's.
    largest = (thesis_data / "memory all vs nothing 100.txt").read_bytes()
    assert client.put("/api/console/memory.m", content=largest).json()["memory_records"] == 2244
    assert client.get("/api/console/memory.m").content == largest


def test_the_program_recalls_from_the_uploaded_memory(client: TestClient, thesis_data: Path) -> None:
    restart(client, 1)
    client.put("/api/console/memory.m", content=(thesis_data / "memory.m").read_bytes())
    typed(client, "p")  # pause off: autoplay plays the game through
    view = typed(client, "3")
    recalls = [int(m.group(1)) for line in view["screen"] if (m := re.search(r"memory \((\d+) matching", line))]
    assert recalls and max(recalls) > 0  # the 10,000-game memory knows positions of this game


def test_bad_uploads_are_one_line_and_change_nothing(client: TestClient, thesis_data: Path) -> None:
    console(client)
    good = (thesis_data / "memory.m").read_bytes()
    client.put("/api/console/memory.m", content=good)
    stat = (thesis_data / "stat.m").read_bytes()
    detail = refused(client.put("/api/console/memory.m?name=stat.m", content=stat), 400)
    assert detail.startswith("stat.m: record 1 (byte offset 0)") and "is this a thesis memory file?" in detail, detail
    broken = good[:33] + b"3" + good[34:]  # record 2's first digit
    detail = refused(client.put("/api/console/memory.m?name=cd.m", content=broken), 400)
    assert "record 2 (byte offset 33)" in detail and "'3'" in detail, detail
    detail = refused(client.put("/api/console/stat.m?name=memory.m", content=good), 400)
    assert detail.startswith("memory.m: 17028 bytes"), detail
    refused(client.put("/api/console/memory.m", content=b"0" * (2 * 1024 * 1024 + 1)), 413)
    assert client.get("/api/console/memory.m").content == good  # unchanged by every refusal


def test_lines_the_console_cannot_take_are_refused(app) -> None:  # type: ignore[no-untyped-def]
    with TestClient(app) as browser:
        refused(browser.get("/api/console"), 403)  # no cookie: the page was never loaded
        console(browser)
        refused(browser.post("/api/console/line", json={"line": "1\x1b[2J"}), 400)
        refused(browser.post("/api/console/line", json={"line": "1" * 201}), 422)
        refused(browser.post("/api/console/restart", json={"seed": -1}), 422)
        bye = typed(browser, "q")
        assert bye["finished"] and bye["screen"][-2:] == ["Your choice: q", "Goodbye."] and bye["prompt"] == ""
        assert "start it again" in refused(browser.post("/api/console/line", json={"line": "1"}), 400)
        again = restart(browser, 9)
        assert not again["finished"] and again["screen"][0].startswith("Teeko, the 1999 thesis program")


@pytest.mark.slow
def test_the_screens_are_the_terminals_byte_for_byte(client: TestClient, tmp_path: Path) -> None:
    """The same seed and the same typed lines: what `gamelearn teeko console` prints in a pipe
    (where a typed line is not echoed) is the page's screen less what was typed after each prompt."""
    first = restart(client, 7)
    lines = ["/", "?", "", "p", "3"]  # help, statistics, pause off, an autoplay game
    views = [first] + [typed(client, line) for line in lines]
    _, person, played = play_as_person(client, "2", seed=3)  # the program begins; its game to the end
    lines.extend(person)
    views.extend(played)
    lines.append("q")
    views.append(typed(client, "q"))
    expected = "\n".join(views[0]["screen"]) + "\n"
    for before, line, after in zip(views[:-1], lines, views[1:], strict=True):
        shown = len(before["screen"]) + 1  # the prompt's line, with what was typed
        assert after["screen"][shown - 1] == before["prompt"] + line
        expected += before["prompt"] + "".join(row + "\n" for row in after["screen"][shown:])
    env = {**os.environ, "GAMELEARN_HOME": str(tmp_path), "COLUMNS": "400", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "gamelearn", "teeko", "console", "--seed", "7"],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == expected


def test_a_session_put_out_of_memory_starts_again_on_the_same_memory(app, thesis_data: Path) -> None:  # type: ignore[no-untyped-def]
    app.state.console.total = 1  # room for one session: the next browser's puts this one out
    with TestClient(app) as first, TestClient(app) as second:
        console(first)
        memory = (thesis_data / "memory.m").read_bytes()
        first.put("/api/console/memory.m", content=memory)
        assert "Your choice: r" in typed(first, "r")["screen"]
        console(second)
        again = console(first)
        assert "Your choice: r" not in again["screen"] and again["prompt"] == "Your choice: "
        assert again["files"]["memory_records"] == 516  # the program starts again on its memory
        assert first.get("/api/console/memory.m").content == memory


def test_a_browser_new_to_the_server_counts_against_its_address(tmp_path: Path) -> None:
    from gamelearn.web import create_app
    from gamelearn.web.settings import WebSettings

    app = create_app(tmp_path / "s.sqlite3", WebSettings(new_owners_per_address=1))
    with TestClient(app) as first, TestClient(app) as second:
        console(first)
        typed(first, "/")  # the same browser again: not new
        second.get("/")
        assert refused(second.get("/api/console"), 429).startswith("too many new browsers from your address")
