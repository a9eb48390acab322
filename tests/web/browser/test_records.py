"""A finished game leaves the page as a person would take it: its text record downloaded (read
back by the record parser, its moves the game's own), a shared link opened in another browser
(no cookie of the first: the review of the same game, the players by kind alone), and a record
file opened in the review, of another game than the one in play, its board drawn and its final
position the one the rules reach.  axe-core finds nothing; screenshots go to /tmp/shots-34rec."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from browser_support import api_move, current_view, marks, new_game, rendered, replay, screenshot
from test_look import axe_problems

from gamelearn import get_game
from gamelearn.games.record_text import parse

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path("/tmp/shots-34rec")


def shot(tab: Any, name: str, size: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    shutil.copy(screenshot(tab, name, size), SHOTS / f"{name}-{size}.png")


def finished_review(page: Any) -> dict:
    """A tic-tac-toe game against this browser's MENACE played to its end, then its review opened."""
    view = new_game(page, "tictactoe", "human", "menace", seed=3)
    while not view["over"]:
        view = api_move(page, view["id"], view["legal_moves"][-1])
    page.reload()
    rendered(page, view)
    page.click("#review-open")
    page.wait_for_selector('#review[data-state="ready"]')
    return view


def test_a_finished_game_downloads_as_its_record_and_its_link_opens_elsewhere(
    page: Any, browser: Any, server_url: str, size: str, tmp_path: Path
) -> None:
    view = finished_review(page)
    with page.expect_download() as info:
        page.click("#record-download")
    saved = tmp_path / "game.txt"
    info.value.save_as(saved)
    record = parse(saved.read_text(encoding="utf-8")).record
    assert list(record.moves) == view["moves"]
    assert record.game == "tictactoe"

    page.click("#record-share")
    page.wait_for_selector("#record-link:not([hidden])")
    link = page.input_value("#record-link-url")
    assert "?shared=" in link
    shot(page, "record-shared-from", size)

    other = browser.new_context(viewport=page.viewport_size)  # another browser: no cookie of ours
    try:
        tab = other.new_page()
        tab.goto(link)
        tab.wait_for_selector('#review[data-state="ready"][data-source="shared"]')
        tab.click("#review-last")
        tab.wait_for_selector(f'#board[data-plies="{len(view["moves"])}"]')
        assert marks(tab) == get_game("tictactoe").board(replay("tictactoe", view["moves"]))
        assert (tab.text_content("#status") or "").startswith("A shared tictactoe game")
        owner = next(c["value"] for c in page.context.cookies() if c["value"])
        assert owner not in tab.content()  # nothing of the browser that shared it
        assert tab.get_attribute("#record-download", "href", timeout=5_000).endswith("/record")
        assert axe_problems(tab) == []
        shot(tab, "record-shared-view", size)
        # Leaving the shared review starts a game of the person's own, only when asked.
        with tab.expect_response(lambda r: r.url.endswith("/api/games") and r.request.method == "POST") as started:
            tab.click("#review-close")
        assert started.value.ok, started.value.text()
        rendered(tab, started.value.json())
    finally:
        other.close()


def test_a_record_file_of_another_game_opens_in_the_review(page: Any, size: str) -> None:
    hexapawn = get_game("hexapawn")
    moves = ["63", "13", "73", "25"]  # B takes, W takes back, B reaches W's row
    text = '[Game "hexapawn"]\n[First "human"]\n[Second "her"]\n[Result "0-1"]\n[End "win"]\n\n1. 63 13 2. 73 25 0-1\n'
    final = replay("hexapawn", moves)
    assert hexapawn.winner(final) == 1  # the oracle: the rules say B won
    game = finished_review(page)  # a tic-tac-toe game in play, its review open
    page.set_input_files(
        "#record-file", files=[{"name": "mine.txt", "mimeType": "text/plain", "buffer": text.encode()}]
    )
    page.wait_for_selector('#review[data-state="ready"][data-source="text"]')
    assert page.locator("#review-moves li[data-ply]").count() == len(moves)
    page.click("#review-last")
    page.wait_for_selector(f'#board[data-plies="{len(moves)}"]')
    assert page.locator("#board .square").count() == 9
    assert marks(page) == hexapawn.board(final)
    assert page.is_hidden("#record-share")  # a text read here has nothing to share from
    assert axe_problems(page) == []
    shot(page, "record-opened", size)
    page.click("#review-close")  # back to the tic-tac-toe game in play
    page.wait_for_selector(f'body[data-reviewing="no"] #board[data-id="{game["id"]}"]')
    assert marks(page) == get_game("tictactoe").board(replay("tictactoe", game["moves"]))


def test_a_link_to_no_shared_game_says_so(page: Any, server_url: str) -> None:
    page.goto(server_url + "/?shared=nothing-here-at-all")
    page.wait_for_selector('#review[data-state="failed"]')
    assert "no shared game at this link" in (page.text_content("#review-summary") or "")
    assert page.is_visible("#review-close")  # the way to a game of one's own


HEXAPAWN_TEXT = (
    '[Game "hexapawn"]\n[First "human"]\n[Second "her"]\n[Result "0-1"]\n[End "win"]\n\n1. 63 13 2. 73 25 0-1\n'
)
PEOPLE_TEXT = '[Game "tictactoe"]\n[First "Ana"]\n[Second "Bob"]\n[Result "*"]\n[End "abandoned"]\n\n1. 4 0 2. 8 *\n'


def open_record(page: Any, name: str, data: bytes) -> None:
    page.set_input_files("#record-file", files=[{"name": name, "mimeType": "text/plain", "buffer": data}])


def test_a_record_opens_from_the_start_and_a_failed_one_clears_what_was_shown(page: Any, size: str) -> None:
    # Before the first move (the review's button is off): "Open a record…" is there all the same.
    view = current_view(page)
    assert view["moves"] == [] and page.is_disabled("#review-open") and page.is_visible(".record-open")
    open_record(page, "mine.txt", HEXAPAWN_TEXT.encode())
    page.wait_for_selector('#review[data-state="ready"][data-source="text"]')
    assert (page.text_content("#status") or "").startswith("A hexapawn record (mine.txt)")
    page.click("#review-last")
    page.wait_for_selector('#board[data-plies="4"]')
    assert marks(page) == get_game("hexapawn").board(replay("hexapawn", ["63", "13", "73", "25"]))
    # A file far over the size a record can be: said in KB, and the record shown before is gone.
    page.set_input_files(
        "#record-file-again", files=[{"name": "big.txt", "mimeType": "text/plain", "buffer": b"a" * (5 * 1024 * 1024)}]
    )
    page.wait_for_selector('#review[data-state="failed"]')
    said = page.text_content("#review-summary") or ""
    assert "big.txt is too big to be a game record (5,120 KB)" in said and "up to 16 KB" in said, said
    assert "bytes" not in said
    cleared(page, view)
    shot(page, "record-too-big", size)
    # A file that is no text at all (a picture's bytes): said so in words, nothing shown of it.
    open_record(page, "mine.txt", HEXAPAWN_TEXT.encode())
    page.wait_for_selector('#review[data-state="ready"][data-source="text"]')
    page.set_input_files(
        "#record-file-again",
        files=[
            {
                "name": "photo.png",
                "mimeType": "image/png",
                "buffer": bytes([0x89, 0x50, 0x4E, 0x47, 0, 0, 0xFF, 0xFE] * 8),
            }
        ],
    )
    page.wait_for_selector('#review[data-state="failed"]')
    assert "photo.png is not a game record: it is not a text file" in (page.text_content("#review-summary") or "")
    cleared(page, view)
    assert axe_problems(page) == []
    shot(page, "record-not-text", size)


def cleared(page: Any, view: dict) -> None:
    """Nothing of the record shown before: the board is the game in play's, no title, no moves."""
    page.wait_for_selector(f'body[data-foreign="no"] #board[data-id="{view["id"]}"][data-plies="0"]')
    assert marks(page) == get_game(view["game"]).board(replay(view["game"], view["moves"]))
    assert "record" not in (page.text_content("#status") or "")
    assert page.locator("#review-moves li").count() == 0 and page.is_hidden("#eval-graph")


def test_a_record_naming_people_opens_in_the_analysis_board(page: Any, size: str) -> None:
    open_record(page, "friends.txt", PEOPLE_TEXT.encode())
    page.wait_for_selector('#review[data-state="ready"][data-source="text"]')
    assert (page.text_content("#status") or "").startswith("A tictactoe record (friends.txt): Ana vs Bob")
    page.wait_for_selector("#analysis-moves tr[data-move]")
    said = page.text_content("#analysis-board") or ""
    assert "unknown player" not in said and "Bob (O), to move: Bob has no view of its own" in said
    state = replay("tictactoe", ["4", "0", "8"])
    assert page.eval_on_selector_all("#analysis-moves tr[data-move]", "els => els.map(e => e.dataset.move)") == (
        get_game("tictactoe").legal_moves(state)
    )
    assert axe_problems(page) == []
    shot(page, "record-people", size)
