"""Issue 24, point 1: open tabs of one game follow it live (server-sent events), a click made on a
board another tab has changed gets the fresh board instead of a lie, the connection indicator
says "reconnecting…" and retries, and a stopped server gets one banner, not "Failed to fetch" in
every panel.  The oracle is the server's own view of the game (GET /api/games/{id}).

The tests that wait on the page's own clocks (2.5 beats of silence before "reconnecting", a beat
from the server, a probe of the server every beat) drive the two sizes side by side: each size's
flow is the whole test, run in turn up to its next wait, so that the two sizes wait at the same
time.  Their servers beat every LIVE_BEAT_SECONDS instead of 2 s (WebSettings.heartbeat_seconds),
and the page each serves says that beat (``data-beat-ms``), which the page's clocks count in: the
same clocks in the same proportions, shorter."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import (
    LIVE_BEAT_SECONDS,
    click_move,
    current_view,
    free_port,
    new_game,
    rendered,
    screenshot,
    served_page,
    serving,
    side_by_side,
    watched,
)

from gamelearn.web import create_app
from gamelearn.web.settings import WebSettings

pytestmark = pytest.mark.browser


def live_app(store: Any) -> Any:
    """The app of a test's own server, beating as the session's does."""
    return create_app(store, WebSettings(heartbeat_seconds=LIVE_BEAT_SECONDS))


def open_tab(context: Any, url: str) -> Any:
    tab = context.new_page()
    tab.goto(url)
    tab.wait_for_selector('#board[data-id]:not([data-id=""]) .square')
    return tab


def test_two_tabs_of_one_game_stay_in_step_and_a_stale_click_gets_the_fresh_board(
    contexts: dict[str, Any], server_url: str
) -> None:
    side_by_side(two_tabs_in_step(context, server_url, size) for size, context in contexts.items())


def two_tabs_in_step(context: Any, server_url: str, size: str) -> Iterator[None]:
    with served_page(context, server_url) as page:
        yield from two_tabs_of_one_page(page, context, size)


def two_tabs_of_one_page(page: Any, context: Any, size: str) -> Iterator[None]:
    view = new_game(page, "teeko", "human", "random", seed=4)
    page.wait_for_selector('#connection[data-state="live"]')
    # A second tab of the same game, whose live stream is cut off for now: it will go stale.
    stale = context.new_page()
    stale.route("**/api/games/*/events", lambda route: route.abort())
    stale.goto(page.url)
    rendered(stale, view)
    # A move in the first tab: the computer answers, and the stale tab does not know.
    status, view = click_move(page, view, "22")
    assert status == 200 and len(view["moves"]) == 2
    yield  # the stale tab's 2.5 beats of silence
    stale.wait_for_selector('#connection[data-state="reconnecting"]')
    assert stale.get_attribute("#board", "data-plies") == "0"
    # The stale tab's click is refused with the game as it is, and that is what it now shows.
    target = next(name for name in ("00", "01", "02", "03") if name not in view["moves"])
    with stale.expect_response(lambda r: r.url.endswith("/move")) as info:
        stale.click(f'#board .square[data-name="{target}"]')
    assert info.value.status == 409 and info.value.json()["game"]["moves"] == view["moves"]
    rendered(stale, view)
    assert "another tab" in (stale.text_content("#message") or "")
    assert "wrong phase" not in (stale.text_content("#message") or "")
    assert current_view(stale)["moves"] == view["moves"]  # the stale click changed nothing
    screenshot(stale, "live-stale-click", size)
    # Its stream comes back: the indicator says live again, and the two tabs are in step from now on.
    stale.unroute("**/api/games/*/events")
    yield  # its next probe of the server opens the stream again
    stale.wait_for_selector('#connection[data-state="live"]')
    status, after = click_move(stale, view, target)
    assert status == 200
    # A move in one tab appears in the other within a second.
    page.wait_for_selector(f'#board[data-plies="{len(after["moves"])}"]', timeout=1000)
    rendered(page, after)
    assert page.text_content("#status") == stale.text_content("#status")
    screenshot(page, "live-other-tab", size)
    stale.close()


def test_a_stale_tabs_computer_move_gets_the_fresh_board_not_a_second_move(page: Any, context: Any, size: str) -> None:
    view = new_game(page, "hexapawn", "random", "random", seed=6)
    stale = context.new_page()
    stale.set_default_timeout(15_000)
    stale.route("**/api/games/*/events", lambda route: route.abort())  # it will not hear of the move
    stale.goto(page.url)
    rendered(stale, view)
    with page.expect_response(lambda r: r.url.endswith("/advance")) as info:
        page.click("#step")
    moved = info.value.json()
    rendered(page, moved)
    assert len(moved["moves"]) == 1
    # The stale tab, still at the start, asks for a computer move: it gets the game as it is.
    with stale.expect_response(lambda r: r.url.endswith("/advance")) as info:
        stale.click("#step")
    assert info.value.status == 409 and info.value.request.post_data_json == {"ply": 0}
    rendered(stale, moved)
    assert current_view(stale)["moves"] == moved["moves"]  # no second move was played
    screenshot(stale, "live-stale-advance", size)
    stale.close()


def test_a_stopped_server_gets_one_banner_and_the_page_comes_back_by_itself(
    contexts: dict[str, Any], tmp_path: Any
) -> None:
    side_by_side(stopped_server(context, size, tmp_path) for size, context in contexts.items())


def stopped_server(context: Any, size: str, tmp_path: Any) -> Iterator[None]:
    store, port = tmp_path / f"away-{size}.sqlite3", free_port()
    with serving(live_app(store), port=port) as url:
        tab = open_tab(context, url + "/")
        failures, outside = watched(tab, url)
        new_game(tab, "tictactoe", "human", "menace", seed=2)
        tab.wait_for_selector('#connection[data-state="live"]')
    # The server is gone: a click finds it away, and gets one banner, the indicator retrying, and
    # no raw browser error anywhere.  (A server process that exits closes its streams too, and the
    # page notices by itself; one stopped inside this test process may leave its sockets open.)
    tab.click('#board .square[data-name="4"]')
    tab.wait_for_selector("#offline:not([hidden])")
    assert "can't reach the gamelearn server; retrying" in (tab.text_content("#offline") or "").lower()
    tab.wait_for_selector('#connection[data-state="reconnecting"]')
    tab.wait_for_selector('#board[data-locked="no"][data-plies="0"]')  # the click changed nothing
    # ... and the click is said to be unsent, with the way to send it again.
    tab.wait_for_selector("#message #send-again")
    # MENACE's box list, asked again as the board was drawn again, could not be had.
    tab.wait_for_selector('.learner[data-kind="menace"] .boxes .unavailable', state="attached")
    assert "Your move 4 was not sent: the server is away" in (tab.text_content("#message") or "")
    body = tab.text_content("body") or ""
    assert "Failed to fetch" not in body and body.lower().count("can't reach") == 1
    screenshot(tab, "live-server-away", size)
    with serving(live_app(store), port=port):  # back on the same address, the same store
        yield  # the page's next probe finds it
        tab.wait_for_selector("#offline[hidden]", state="attached")
        tab.wait_for_selector('#connection[data-state="live"]')
        # The server back: the box list asks again by itself, before any click.
        tab.wait_for_selector('.learner[data-kind="menace"] .boxes .caption', state="attached")
        assert tab.locator('.learner[data-kind="menace"] .boxes .unavailable').count() == 0
        with tab.expect_response(lambda r: r.url.endswith("/move")) as info:
            tab.click("#send-again")
        assert info.value.status == 200 and info.value.json()["moves"][0] == "4"
        rendered(tab, info.value.json())
        assert "not sent" not in (tab.text_content("#message") or "")
        screenshot(tab, "live-server-back", size)
    tab.close()
    assert not failures and not outside


# "live" means heard from: an event or a beat within the last few seconds.  The page's record of
# every state its indicator took, from its first script on (a MutationObserver set up before any).
RECORD_STATES = """
window.__states = [];
new MutationObserver(() => {
  const node = document.getElementById("connection");
  const state = node && node.dataset.state;
  if (state && window.__states[window.__states.length - 1] !== state) window.__states.push(state);
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-state"] });
"""


def heard(tab: Any) -> int:
    return int(tab.get_attribute("#connection", "data-heard") or 0)


def test_a_quiet_page_stays_live_on_its_beats_and_a_server_gone_is_said_without_a_click(
    contexts: dict[str, Any], tmp_path: Any
) -> None:
    side_by_side(quiet_page(context, size, tmp_path) for size, context in contexts.items())


def quiet_page(context: Any, size: str, tmp_path: Any) -> Iterator[None]:
    store, port = tmp_path / f"quiet-{size}.sqlite3", free_port()
    context.add_init_script(RECORD_STATES)
    with serving(live_app(store), port=port) as url:
        tab = open_tab(context, url + "/")
        new_game(tab, "tictactoe", "human", "menace", seed=2)
        tab.wait_for_selector('#connection[data-state="live"]')
        # Nothing happens in the game: the stream's beats keep it live, beat after beat.
        count = heard(tab)
        yield  # four beats
        tab.wait_for_function("n => Number(document.getElementById('connection').dataset.heard) >= n", arg=count + 4)
        states = tab.evaluate("window.__states")
        assert states[-1] == "live" and "reconnecting" not in states[states.index("live") :]
    # The server is gone and nobody clicks: the indicator and the banner say so by themselves,
    # within the page's 2.5 beats of silence and 1.5 of asking (15 s allowed: slack for a loaded
    # machine's timers).
    yield
    tab.wait_for_selector('#connection[data-state="reconnecting"]', timeout=15_000)
    tab.wait_for_selector("#offline:not([hidden])", timeout=15_000)
    screenshot(tab, "live-server-gone-unclicked", size)
    with serving(live_app(store), port=port):
        yield  # the page's next probe finds it
        tab.wait_for_selector("#offline[hidden]", state="attached")
        tab.wait_for_selector('#connection[data-state="live"]')
    tab.close()


def test_a_tab_whose_stream_is_stalled_never_says_live(contexts: dict[str, Any], server_url: str) -> None:
    side_by_side(stalled_stream(context, server_url, size) for size, context in contexts.items())


def stalled_stream(context: Any, server_url: str, size: str) -> Iterator[None]:
    with served_page(context, server_url) as page:
        yield from stalled_stream_beside(page, context, size)


def stalled_stream_beside(page: Any, context: Any, size: str) -> Iterator[None]:
    view = new_game(page, "tictactoe", "human", "random", seed=3)
    context.add_init_script(RECORD_STATES)
    stalled = context.new_page()
    held: list[Any] = []
    stalled.route("**/api/games/*/events", lambda route: held.append(route))  # answered never: the socket just hangs
    stalled.goto(page.url)
    rendered(stalled, view)
    yield  # its 2.5 beats of silence
    stalled.wait_for_selector('#connection[data-state="reconnecting"]')
    status, after = click_move(page, view, "4")  # two plies: the person's and the computer's
    assert status == 200 and len(after["moves"]) == 2
    assert "live" not in stalled.evaluate("window.__states")
    assert stalled.get_attribute("#connection", "data-state") == "reconnecting"
    assert stalled.is_hidden("#offline")  # the server answers: a stream problem, not a server away
    screenshot(stalled, "live-stalled-stream", size)
    stalled.close()


def test_a_page_opened_while_the_server_is_down_fetches_its_game_when_it_is_back(
    contexts: dict[str, Any], tmp_path: Any
) -> None:
    side_by_side(opened_offline(context, size, tmp_path) for size, context in contexts.items())


def opened_offline(context: Any, size: str, tmp_path: Any) -> Iterator[None]:
    store, port = tmp_path / f"later-{size}.sqlite3", free_port()
    with serving(live_app(store), port=port) as url:
        tab = open_tab(context, url + "/")
        view = new_game(tab, "hexapawn", "human", "her", seed=5)
        tab.evaluate("navigator.serviceWorker.ready")
        tab.reload()
        tab.wait_for_function("navigator.serviceWorker.controller !== null")
        rendered(tab, view)
    # Opened with the server stopped: the page comes from the service worker's cache and says so.
    tab.reload()
    tab.wait_for_selector("#offline:not([hidden])")
    tab.wait_for_selector('#status[data-state="waiting"]')
    assert "Waiting for the gamelearn server" in (tab.text_content("#status") or "")
    assert tab.get_attribute("#connection", "data-state") == "reconnecting"
    screenshot(tab, "live-opened-offline", size)
    with serving(live_app(store), port=port):
        yield  # the page's next probe finds it
        rendered(tab, view)  # the game in the address, fetched by itself once the server answers
        tab.wait_for_selector("#offline[hidden]", state="attached")
        tab.wait_for_selector('#connection[data-state="live"]')
        assert tab.get_attribute("#status", "data-state") == "your-move"
        screenshot(tab, "live-opened-offline-back", size)
    tab.close()
