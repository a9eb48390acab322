"""The page weighs at most 127 KB on its first load, and az's first move says why it is slow.

The first load is everything the browser fetches to show a new game (the page, its styles and
scripts, the icon, and the API's answers it asks for: the games, the game, its learner's boxes
and charts), summed as the response bodies uncompressed; the transfer is what came over the
wire, compressed.  The views loaded only when opened (the new-game form's controls, the review,
training, the thesis memory) are not in it, and the test checks that they are not fetched.  The
live stream (GET .../events) is left out: it is a connection kept open, not a file.

The az test runs a server of its own whose warm-up is deferred (WebSettings.warm_up_delay_seconds),
so az is really not loaded when the game starts: the page says so, and the move arrives after it.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import rendered, screenshot, serving, watched

from gamelearn.web import create_app
from gamelearn.web.settings import WebSettings

pytestmark = pytest.mark.browser

FIRST_LOAD_LIMIT = 127_000  # bytes (docs/web.md, "The page's weight")
LAZY = (
    "picker.js",
    "forms.js",
    "review.js",
    "evalgraph.js",
    "movetree.js",
    "analysisboard.js",
    "lookback.js",
    "training.js",
    "memory.js",
    "views.css",
)


def test_the_first_load_weighs_at_most_127_kb_and_comes_compressed(context: Any, server_url: str, size: str) -> None:
    tab = context.new_page()
    tab.set_default_timeout(60_000)
    failures, outside = watched(tab, server_url)
    finished: list[Any] = []
    tab.on("requestfinished", lambda request: finished.append(request))
    tab.goto(server_url + "/")
    # A new game shown whole: the board, the learner's panel with its boxes and first-box chart,
    # the learning chart, and the folded training panel.
    tab.wait_for_selector('#board[data-id]:not([data-id=""]) .square')
    tab.wait_for_selector('.learner[data-kind="menace"] .boxes[data-total]')
    tab.wait_for_selector(".first-box[data-games]")
    tab.wait_for_selector("#gardner[data-letters], #chart-caption:not(:empty)", state="attached")
    tab.wait_for_selector('#training[data-kind="menace"]:not([hidden])')
    files = [r for r in finished if not r.url.endswith("/events") and r.response() is not None]
    plain = sum(len(r.response().body()) for r in files)
    sent = sum(max(0, r.sizes()["responseBodySize"]) for r in files)
    listing = sorted((len(r.response().body()), r.url.removeprefix(server_url)) for r in files)
    assert plain <= FIRST_LOAD_LIMIT, listing
    assert sent <= plain / 2, (sent, plain)  # gzipped: well under half
    assert not [url for _, url in listing if url.rsplit("/", 1)[-1] in LAZY]  # loaded only when opened
    # Opening the views fetches their modules, and each works (the form's controls, the training).
    tab.click("#setup > summary")
    tab.wait_for_selector('#setup[data-ready="yes"] #first-kind option', state="attached")
    tab.click("#training > summary")
    tab.wait_for_selector("#train-boxes .box")
    screenshot(tab, "weight-views-open", size)
    tab.close()
    assert not failures and not outside, (failures, outside)


def test_az_loading_its_network_is_said_until_its_first_move_arrives(browser: Any, tmp_path: Any) -> None:
    # The warm-up deferred an hour: the server has not begun to make az when the game starts.
    settings = WebSettings(warm_up=("az",), warm_up_delay_seconds=3600, new_owners_per_address=1000)
    with serving(create_app(tmp_path / "store.sqlite3", settings)) as url:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        tab = context.new_page()
        tab.set_default_timeout(60_000)
        failures, outside = watched(tab, url)
        tab.goto(url + "/?game=hexapawn")
        tab.wait_for_selector('#board[data-game="hexapawn"] .square')
        assert tab.evaluate("fetch('/api/warm-up').then(r => r.json())")["kinds"]["az"]["hexapawn"] == "waiting"
        # az moves first: the start makes it and plays its first move, and the page says why it waits.
        tab.click("#setup > summary")
        tab.fill("#first-player", "az")
        tab.fill("#second-player", "human")
        with tab.expect_response(
            lambda r: r.url.endswith("/api/games") and r.request.method == "POST", timeout=300_000
        ) as info:
            tab.click("#new-game")
            tab.wait_for_selector("#message.loading")
            assert tab.text_content("#message") == "az is loading its network (first move only)…"
            screenshot(tab, "az-loading", "desktop")
        view = info.value.json()
        rendered(tab, view)
        assert len(view["moves"]) == 1 and view["human_to_move"]  # its move arrived
        assert "loading its network" not in (tab.text_content("#message") or "")
        screenshot(tab, "az-moved", "desktop")
        context.close()
        assert not failures and not outside, (failures, outside)
