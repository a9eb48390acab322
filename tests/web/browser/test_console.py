"""Issue 51: the 1999 thesis program's console on the page (/console).  A game typed at the prompt
as a person would, key by key and Enter; after a reload the program's memory (downloaded through
the page's own link) holds that game's positions, worked out here from the rules; a thesis
memory.m loaded from the disk downloads byte for byte, and a bad file gets one line on the page.
axe-core finds nothing serious; screenshots at both sizes."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from browser_support import screenshot, watched
from test_look import axe_problems

from gamelearn import get_game
from gamelearn.thesis.files import parse_memory_entries, swap_sides

pytestmark = pytest.mark.browser

PLAYS = re.compile(r"^Move \d+, (?:Ply|Reply): The program plays (\d+)$")


def open_console(tab: Any) -> None:
    """The console reached as a person reaches it: the link in the games page's header."""
    tab.click("header nav >> text=The 1999 console")
    ready(tab)


def ready(tab: Any) -> None:
    tab.wait_for_selector("body[data-state='ready'] #console-line:not([disabled])")


def screen(tab: Any) -> list[str]:
    return str(tab.text_content("#console-screen")).split("\n")


def enter(tab: Any, line: str) -> list[str]:
    """``line`` typed key by key in the prompt's field, then Enter; the screen once answered."""
    lines = tab.get_attribute("#console-screen", "data-lines")
    tab.locator("#console-line").press_sequentially(line)
    tab.press("#console-line", "Enter")
    tab.wait_for_selector(f"#console-screen:not([data-lines='{lines}'])")
    ready(tab)
    return screen(tab)


def download(tab: Any, link: str) -> bytes:
    with tab.expect_download() as info:
        tab.click(link)
    return Path(info.value.path()).read_bytes()


def test_a_game_typed_at_the_console_is_in_its_memory_after_a_reload(page: Any, size: str) -> None:
    open_console(page)
    assert page.url.endswith("/console")
    assert page.text_content("#console-prompt") == "Your choice: "
    assert page.get_attribute("#memory-summary", "data-records") == "0"
    # The program's seed, so that the game is the same each run (the page draws one otherwise).
    page.evaluate("""fetch("/api/console/restart", {method: "POST", headers: {"Content-Type": "application/json"},
                     body: JSON.stringify({seed: 2})})""")
    page.reload()
    ready(page)
    enter(page, "t")  # thinking off
    teeko = get_game("teeko")
    state, moves = teeko.initial(), []
    seen = len(enter(page, "1"))  # you begin: X
    assert "You are X and begin; the program is O." in screen(page)
    person = random.Random(1)  # a person who plays anything legal (seeded: the same game each run)
    while page.text_content("#console-prompt") != "Your choice: ":
        shown = screen(page)
        for line in shown[seen:]:
            found = PLAYS.match(line)
            if found:
                state = teeko.play(state, found.group(1))
                moves.append(found.group(1))
        seen = len(shown)
        if page.text_content("#console-prompt") == "I offer a draw. Do you accept (y/n)? ":
            enter(page, "n")
            continue
        move = person.choice(sorted(teeko.legal_moves(state)))
        state = teeko.play(state, move)
        moves.append(move)
        enter(page, move)
    text = "\n".join(screen(page))
    assert "I have won." in text and len(moves) >= 9, text[-400:]
    assert "Your choice: 1\nYou are X and begin" in text and f": {moves[0]}\n" in text  # what was typed is shown
    screenshot(page, "console-game", size)

    page.reload()
    ready(page)
    assert "I have won." in "\n".join(screen(page))  # the session's screen, as it was
    boards = []  # the game's positions from ply 9 on, from the rules: '1' the program (O), '2' you
    replay = teeko.initial()
    for ply, move in enumerate(moves, start=1):
        replay = teeko.play(replay, move)
        if ply >= 9:
            boards.append("".join({".": "0", "O": "1", "X": "2"}[ch] for ch in teeko.board(replay)))
    memory = parse_memory_entries(download(page, "#memory-download"))
    held = {board for board, _, _ in memory}
    assert boards and all(board in held or swap_sides(board) in held for board in boards)
    assert page.get_attribute("#memory-summary", "data-records") == str(len(memory))
    assert "the program won 1" in str(page.text_content("#stat-summary"))
    assert axe_problems(page) == []
    screenshot(page, "console-after-reload", size)


def test_a_thesis_memory_loads_downloads_byte_for_byte_and_a_bad_file_is_one_line(
    context: Any, server_url: str, size: str, thesis_data: Path
) -> None:
    tab = context.new_page()
    failures, outside = watched(tab, server_url)
    tab.goto(server_url + "/console")
    ready(tab)
    cd_memory = thesis_data / "memory.m"
    tab.set_input_files("#memory-upload", str(cd_memory))
    tab.wait_for_selector("#files-message[data-loaded='memory.m']")
    assert tab.get_attribute("#memory-summary", "data-records") == "516"
    assert "side 1 won 57670, side 2 won 17974" in str(tab.text_content("#memory-summary"))
    assert download(tab, "#memory-download") == cd_memory.read_bytes()
    tab.set_input_files("#stat-upload", str(thesis_data / "stat.m"))
    tab.wait_for_selector("#files-message[data-loaded='stat.m']")
    assert "X won 3214, drawn 2681, O won 1106" in str(tab.text_content("#stat-summary"))
    assert download(tab, "#stat-download") == (thesis_data / "stat.m").read_bytes()

    tab.set_input_files("#memory-upload", str(thesis_data / "stat.m"))  # the wrong file
    tab.wait_for_selector("#files-message.error")
    said = str(tab.text_content("#files-message"))
    assert said.startswith("stat.m: record 1 (byte offset 0)") and "\n" not in said
    assert tab.get_attribute("#memory-summary", "data-records") == "516"  # nothing changed
    assert download(tab, "#memory-download") == cd_memory.read_bytes()
    assert axe_problems(tab) == []
    screenshot(tab, "console-memory-loaded", size)
    tab.close()
    assert not failures and not outside


def board_shown(tab: Any) -> str:
    """The last board on the console's screen, 25 characters ('.', 'X', 'O'), as a person reads it."""
    lines = screen(tab)
    top = max(i for i, line in enumerate(lines) if line == "  0 1 2 3 4")
    return "".join(row[2::2] for row in lines[top + 1 : top + 6])


def test_the_original_console_is_switched_on_kept_after_a_reload_and_switched_off(
    context: Any, server_url: str, size: str
) -> None:
    """The switch on the console view: on, the program starts again as the 1999 console, whose
    unchecked moves let 0009 run on from 00 into the next row, to 14; the browser keeps the mode
    after a reload; off, it is the fixed program again."""
    tab = context.new_page()
    failures, outside = watched(tab, server_url)
    tab.goto(server_url + "/console")
    ready(tab)
    switch = tab.locator("#console-original")
    assert not switch.is_checked() and screen(tab)[0].endswith("(fixed).  / for help.")
    switch.check()
    tab.wait_for_selector("body[data-mode='original']")
    ready(tab)
    assert switch.is_checked() and screen(tab)[0] == "Teeko, the 1999 thesis program (original).  / for help."
    # The program's seed (its srand value), so that the game is the same each run.
    tab.evaluate("""fetch("/api/console/restart", {method: "POST", headers: {"Content-Type": "application/json"},
                    body: JSON.stringify({seed: 1})})""")
    tab.reload()
    ready(tab)
    assert switch.is_checked()  # kept for this browser: the restart named no mode
    enter(tab, "t")
    enter(tab, "1")
    for field in ("00", "04", "40", "44"):
        enter(tab, field)
    assert board_shown(tab) == "X...X.O.....O...O.O.X...X"
    assert tab.text_content("#console-prompt") == "Move 5, Ply: move a pawn (rcRC), q abandons: "
    after = enter(tab, "0009")  # the fixed console: "illegal move '0009': off the board"
    assert not any(line.startswith("illegal move") for line in after[-12:])
    assert board_shown(tab)[0] == "." and "0009" in tab.text_content("#console-screen")  # type: ignore[operator]
    screenshot(tab, "console-original", size)
    assert axe_problems(tab) == []

    tab.reload()
    ready(tab)
    assert switch.is_checked() and tab.get_attribute("body", "data-mode") == "original"
    switch.uncheck()
    tab.wait_for_selector("body[data-mode='fixed']")
    ready(tab)
    assert not switch.is_checked() and screen(tab)[0].endswith("(fixed).  / for help.")
    assert axe_problems(tab) == []
    screenshot(tab, "console-fixed-again", size)
    tab.close()
    assert not failures and not outside
