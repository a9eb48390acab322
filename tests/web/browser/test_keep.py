"""Games that survive: the game's id is in the address, a
reload and a server restart resume it, a game that is really gone says so truthfully, and a full
move pool is said on the page, which tries again by itself."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import click_move, current_view, marks, new_game, rendered, screenshot, serving, square, watched

from gamelearn.web import create_app
from gamelearn.web.settings import WebSettings

pytestmark = pytest.mark.browser


def test_a_reload_resumes_the_game_in_the_address(page: Any, size: str) -> None:
    view = new_game(page, "hexapawn", "human", "her", seed=2)
    status, view = click_move(page, view, "63")
    assert f"?id={view['id']}" in page.url
    before = marks(page)
    page.reload()
    rendered(page, view)
    assert marks(page) == before and page.text_content("#status") == "Your move (W)"
    assert page.eval_on_selector_all("#moves li", "els => els.map(e => e.dataset.move)") == view["moves"]
    screenshot(page, "reload-resumes", size)


def test_a_server_restart_resumes_the_game_and_a_gone_game_says_so(context: Any, size: str, tmp_path: Any) -> None:
    store = tmp_path / "restart.sqlite3"
    tab = context.new_page()
    with serving(create_app(store)) as url:
        failures, outside = watched(tab, "http://127.0.0.1:")  # both servers are ours
        tab.goto(url + "/")
        tab.wait_for_selector('#board[data-id]:not([data-id=""]) .square')
        view = new_game(tab, "teeko", "human", "thesis", seed=1)
        status, view = click_move(tab, view, "22")
        address = tab.url.split("/", 3)[3]
    with serving(create_app(store)) as again:  # a new server process on the same store
        tab.goto(f"{again}/{address}")
        rendered(tab, view)
        assert marks(tab) == view["board"] and tab.text_content("#status") == "Your move (X)"
        status, after = click_move(tab, view, next(m for m in view["legal_moves"]))
        assert status == 200 and after["moves"][:2] == view["moves"]
        screenshot(tab, "restart-resumes", size)
        tab.goto(f"{again}/?id=NoSuchGame123")
        tab.wait_for_selector('#status:text("This game is gone")')
        message = tab.text_content("#message") or ""
        assert "never started here, or it was abandoned" in message and "forgotten" not in message
        assert message.startswith("No game")
        screenshot(tab, "game-gone", size)
        with tab.expect_response(lambda r: r.url.endswith("/api/games") and r.request.method == "POST"):
            tab.click("#start-over")
        tab.wait_for_selector('#board[data-plies="0"][data-locked="no"]')
        assert "?id=" in tab.url and "NoSuchGame123" not in tab.url
    assert not failures and not outside


def test_a_full_move_pool_is_said_and_the_page_tries_again(context: Any, size: str, tmp_path: Any) -> None:
    app = create_app(
        tmp_path / "busy.sqlite3", settings=WebSettings(move_workers=1, move_wait_seconds=0.05, retry_after_seconds=1)
    )
    pool = app.state.service.pool
    tab = context.new_page()
    with serving(app) as url:
        failures, outside = watched(tab, url)
        tab.goto(url + "/")
        tab.wait_for_selector('#board[data-id]:not([data-id=""]) .square')
        view = current_view(tab)
        held = pool.slot("another browser")
        held.__enter__()  # every worker busy with someone else's move
        try:
            square(tab, "4").click()
            # The wait alone, in the status line: no busy dot beside it, no second line.
            tab.wait_for_selector('#status[data-state="waiting"]:has-text("trying again in 1 s")')
            assert "busy" in (tab.text_content("#status") or "") and not tab.text_content("#message")
            assert tab.get_attribute("#board", "data-locked") == "yes"
            screenshot(tab, "server-busy", size)
        finally:
            held.__exit__(None, None, None)
        tab.wait_for_selector('#board[data-plies="2"][data-locked="no"]')  # tried again, and answered
        assert current_view(tab)["moves"][0] == "4" and view["moves"] == []
    assert not failures and not outside
