"""The thesis program's console on the page (thesis/web.py): the screens are the terminal's
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
from gamelearn.thesis.files import parse_memory_entries, swap_sides

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


def restart(client: TestClient, seed: int | None, original: bool | None = None) -> dict:
    client.get("/")
    body = {"seed": seed} | ({} if original is None else {"original": original})
    response = client.post("/api/console/restart", json=body)
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
    assert terminal(["--seed", "7"], lines, tmp_path) == transcript(views, lines)


def transcript(views: list[dict], lines: list[str]) -> str:
    """What a terminal whose typed lines are not echoed (a pipe) shows of the page's screens: each
    screen's new lines, after the prompt answered (the page shows the prompt with what was typed)."""
    expected = "\n".join(views[0]["screen"]) + "\n"
    for before, line, after in zip(views[:-1], lines, views[1:], strict=True):
        shown = len(before["screen"]) + 1  # the prompt's line, with what was typed
        assert after["screen"][shown - 1] == before["prompt"] + line
        expected += before["prompt"] + "".join(row + "\n" for row in after["screen"][shown:])
    return expected


def terminal(options: list[str], lines: list[str], home: Path) -> str:
    """What a real `gamelearn teeko console OPTIONS` process prints when ``lines`` are typed."""
    env = {**os.environ, "GAMELEARN_HOME": str(home), "COLUMNS": "400", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "gamelearn", "teeko", "console", *options],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def board_on_screen(screen: list[str]) -> str:
    """The last board on the screen, as 25 characters ('.', 'X', 'O'), read as a person reads it."""
    top = max(i for i, line in enumerate(screen) if line == "  0 1 2 3 4")
    return "".join(row[2::2] for row in screen[top + 1 : top + 6])


def field(square: int) -> str:
    return f"{square // 5}{square % 5}"


def play_original_person(client: TestClient, begin: str, seed: int) -> tuple[list[str], list[dict]]:
    """A game at the original console typed by a person who reads the board off the screen and
    takes what the original allows: a pawn to any free field (a jump), some typed with the fourth
    digit run on into the next row (a row up, 5 columns on: 1028 is 10 to 33), some refused (a
    third digit over 4, a pawn not theirs); a field where the program would make four is taken
    (the rules' test of a four); every draw offer is refused.  The lines typed and the answers."""
    teeko = get_game("teeko")
    chooser = random.Random(seed)
    mine = "X" if begin == "1" else "O"
    lines, views = [begin], [typed(client, begin)]
    for _ in range(300):
        view = views[-1]
        if view["prompt"] == "Your choice: ":
            return lines, views
        if view["prompt"] == DRAW_OFFER:
            lines.append("n")
            views.append(typed(client, "n"))
            continue
        board = board_on_screen(view["screen"])
        free = [sq for sq, ch in enumerate(board) if ch == "."]
        theirs = sum(1 << sq for sq, ch in enumerate(board) if ch not in (mine, "."))
        threats = [sq for sq in free if teeko.has_four(theirs | 1 << sq)]
        dst = chooser.choice(threats or free)
        if "put down" in view["prompt"]:
            answer = field(dst)
        elif "0050" not in lines:  # refused: a third digit over 4
            answer = "0050"
        elif chooser.random() < 0.1:  # refused: a third digit over 4, or a pawn not the person's
            other = chooser.choice([sq for sq in range(25) if theirs >> sq & 1])
            answer = chooser.choice(["0050", field(other) + field(dst)])
        else:
            src = chooser.choice([sq for sq, ch in enumerate(board) if ch == mine])
            row, column = divmod(dst, 5)
            if row and chooser.random() < 0.3:
                row, column = row - 1, column + 5  # the fourth digit run on: the same field
            answer = f"{field(src)}{row}{column}"
        lines.append(answer)
        views.append(typed(client, answer))
    raise AssertionError("the game did not end")


def test_the_original_console_is_chosen_for_the_browser_and_kept(app) -> None:  # type: ignore[no-untyped-def]
    """The switch of the page: a restart with original on starts the 1999 console, and the browser
    keeps it across reloads, restarts that do not name a mode, and a session put out of memory;
    another browser's is its own; original off is the fixed program again."""
    app.state.console.total = 1
    with TestClient(app) as one, TestClient(app) as two:
        assert not console(one)["original"]
        view = restart(one, 5, original=True)
        assert view["original"] and view["screen"][0] == "Teeko, the 1999 thesis program (original).  / for help."
        typed(one, "r")
        assert console(one)["original"] and "Your choice: r" in console(one)["screen"]  # a reload
        assert restart(one, 6)["original"]  # a restart that names no mode keeps the browser's
        assert not console(two)["original"]  # puts one's session out of memory
        again = console(one)
        assert again["original"] and "(original)" in again["screen"][0] and "Your choice: r" not in again["screen"]
        fixed = restart(one, 6, original=False)
        assert not fixed["original"] and fixed["screen"][0].endswith("(fixed).  / for help.")
        assert not restart(one, 7)["original"]
        refused(one.post("/api/console/restart", json={"original": "sometimes"}), 422)


@pytest.mark.slow
def test_the_original_consoles_screens_are_the_terminals_byte_for_byte(client: TestClient, tmp_path: Path) -> None:
    """In original mode too: the same seed (the original's srand value) and the same typed lines
    give the page's screens and what `gamelearn teeko console --original` prints, a game the person
    began with moves the original let through (jumps, run-on digits) and one the program began."""
    first = restart(client, 11, original=True)
    lines = ["t"]
    views = [first, typed(client, "t")]
    for begin, seed in (("1", 11), ("2", 5)):
        person, played = play_original_person(client, begin, seed)
        lines.extend(person)
        views.extend(played)
    text = "\n".join(views[-1]["screen"])
    run_on = [line for line in lines if len(line) == 4 and line[3] > "4"]
    assert run_on and all(f"illegal move '{line}'" not in text for line in run_on)  # let through
    assert "illegal move '0050': off the board" in text and DRAW_OFFER + "n" in text
    assert "side 2 won" in text  # the person began and lost: learned by the ply parity
    lines.extend(["?", "", "q"])
    views.extend(typed(client, line) for line in ["?", "", "q"])
    assert terminal(["--original", "--seed", "11"], lines, tmp_path) == transcript(views, lines)


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
