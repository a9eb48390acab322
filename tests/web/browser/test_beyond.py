"""Issue 24's "Beyond" (what lichess, teeko.cc and mscroggs' MENACE have), in Chromium at
1280x800 and 390x844: the review's evaluation graph, moves that animate and reduced motion that
stops them, the dark theme (WCAG AA, computed here from the page's own colours), the board at
200% zoom, the layout, and the page offline.  Each saves a screenshot.  Oracles: a plain negamax
over the rules API, WCAG 2's contrast formula, the page's geometry."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from browser_support import api_move, new_game, rendered, screenshot, square

from gamelearn import get_game

pytestmark = pytest.mark.browser

TTT = get_game("tictactoe")
#: X, winning after 0 1 2 3 5 4, plays 6 (a blunder) and O wins on 7.
WITH_A_BLUNDER = ["0", "1", "2", "3", "5", "4", "6", "7"]


@cache
def negamax(state) -> int:  # type: ignore[no-untyped-def]
    if TTT.is_over(state):
        return 0 if TTT.winner(state) is None else -1
    return max(-negamax(TTT.play(state, m)) for m in TTT.legal_moves(state))


def first_players_value(state) -> int:  # type: ignore[no-untyped-def]
    value = negamax(state)
    return value if TTT.to_move(state) == 0 else -value


def test_the_evaluation_graph_draws_the_exact_value_and_goes_to_a_clicked_move(page: Any, size: str) -> None:
    view = new_game(page, "tictactoe", "human", "human")
    for move in WITH_A_BLUNDER:
        view = api_move(page, view["id"], move)
    page.reload()
    rendered(page, view)
    page.click("#review-open")
    page.wait_for_selector('#review[data-state="ready"] #eval-graph:not([hidden]) svg')
    states = [TTT.initial()]
    for move in WITH_A_BLUNDER:
        states.append(TTT.play(states[-1], move))
    points = page.eval_on_selector_all(
        "#eval-graph circle.point",
        "els => els.map(e => [Number(e.dataset.ply), Number(e.getAttribute('cy')), e.dataset.grade])",
    )
    assert [ply for ply, _, _ in points] == list(range(len(states)))
    zero = float(page.get_attribute("#eval-graph line.zero", "y1") or 0)
    for (ply, y, _), state in zip(points, states, strict=True):
        value = 0 if TTT.is_over(state) and TTT.winner(state) is None else first_players_value(state)
        if TTT.is_over(state) and TTT.winner(state) is not None:
            value = 1 if TTT.winner(state) == 0 else -1
        # Above the middle line where X wins with best play, below where O does, on it for a draw.
        assert (y < zero) if value > 0 else (y > zero) if value < 0 else (y == zero), (ply, y, zero, value)
    # The blunder (move 7, X 6) carries its mark, and a click on it goes there.
    assert points[7][2] == "blunder"
    assert page.locator("#eval-graph text.mark.grade-blunder").count() >= 1
    page.click('#eval-graph rect.hit[data-ply="7"]')
    page.wait_for_selector('#review-caption[data-grade="blunder"]')
    assert page.get_attribute("#board", "data-plies") == "7"
    assert page.get_attribute("#eval-graph", "data-at") == "7"
    screenshot(page, "beyond-eval-graph", size)
    page.focus('#eval-graph rect.hit[data-ply="2"]')  # the keyboard too
    page.keyboard.press("Enter")
    page.wait_for_selector('#board[data-plies="2"]')


def played_and_pulse(tab: Any) -> tuple[str | None, str]:
    """How the board drew a pawn's move (slid or still), and the thinking pulse's animation."""
    view = new_game(tab, "hexapawn", "human", "human")
    square(tab, "6").click()
    square(tab, "3").click()
    tab.wait_for_selector(f'#board[data-id="{view["id"]}"][data-plies="1"][data-animated="1"]')
    tab.evaluate("document.querySelector('#status').dataset.state = 'thinking'")
    pulse = tab.evaluate("getComputedStyle(document.querySelector('#status'), '::after').animationName")
    return tab.get_attribute("#board", "data-moved"), str(pulse)


def test_moves_animate_and_reduced_motion_stops_them(page: Any, size: str) -> None:
    assert page.get_attribute("#board", "data-motion") == "full"
    assert played_and_pulse(page) == ("slid", "pulse")
    screenshot(page, "beyond-motion", size)
    page.emulate_media(reduced_motion="reduce")  # as the system's setting would
    page.wait_for_selector('#board[data-motion="reduced"]')
    assert played_and_pulse(page) == ("still", "none")
    screenshot(page, "beyond-motion-reduced", size)


def luminance(rgb: tuple[float, ...]) -> float:
    """WCAG 2's relative luminance of an sRGB colour (0..255 channels)."""
    channels = [c / 255 for c in rgb[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


#: Every visible element with text of its own: its colour, the first opaque background behind
#: it, its size and weight.
TEXTS = """() => {
  const rgb = (text) => (text.match(/[\\d.]+/g) || []).map(Number);
  const out = [];
  for (const node of document.querySelectorAll('body *')) {
    if (node.closest('svg, [hidden], option')) continue;
    const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
    if (!own) continue;
    const box = node.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const style = getComputedStyle(node);
    if (style.visibility === 'hidden' || Number(style.opacity) === 0) continue;
    let back = null;
    for (let up = node; up; up = up.parentElement) {
      const b = rgb(getComputedStyle(up).backgroundColor);
      if (b.length >= 3 && (b.length === 3 || b[3] > 0.5)) { back = b; break; }
    }
    out.push({ text: node.textContent.trim().slice(0, 30), tag: node.tagName, id: node.id, cls: String(node.className),
      color: rgb(style.color), back: back || [255, 255, 255], size: parseFloat(style.fontSize),
      bold: Number(style.fontWeight) >= 700, disabled: node.closest(':disabled') !== null });
  }
  return out;
}"""


def test_the_dark_theme_follows_the_system_and_every_text_meets_aa(page: Any, size: str) -> None:
    page.emulate_media(color_scheme="dark")  # as the system's setting would
    tab = page
    new_game(tab, "hexapawn", "human", "her", seed=3)
    tab.click("#training:not([hidden]) > summary")  # folded until opened: its module and styles load then
    tab.wait_for_selector("#train-boxes .box")
    if tab.evaluate("document.querySelector('#setup').open"):
        tab.click("#setup > summary")
    paper = tab.evaluate("getComputedStyle(document.body).backgroundColor")
    assert luminance(tuple(float(c) for c in paper[4:-1].split(","))) < 0.05  # dark, as the system asks
    poor = []
    for item in tab.evaluate(TEXTS):
        if item["disabled"] or "bead" in item["cls"].split():
            continue  # WCAG 1.4.3 exempts a control that is not available; a bead's label is on its own colour
        large = item["size"] >= 24 or (item["bold"] and item["size"] >= 18.66)
        ratio = contrast(tuple(item["color"]), tuple(item["back"]))
        if ratio < (3.0 if large else 4.5):
            poor.append((round(ratio, 2), item["text"], item["tag"], item["id"], item["cls"]))
    assert not poor, sorted({(p[4], p[2], p[0]) for p in poor})
    screenshot(tab, "beyond-dark", size)


def test_the_board_fits_the_window_at_200_percent_zoom(page: Any, server_url: str, size: str) -> None:
    viewport = page.viewport_size
    # 200% zoom: the same window is half as many CSS pixels across and down.
    page.set_viewport_size({"width": viewport["width"] // 2, "height": viewport["height"] // 2})
    tab = page
    tab.goto(server_url + "/?game=teeko", timeout=60_000)
    tab.wait_for_selector('#board[data-game="teeko"] .square')
    board = tab.evaluate("document.querySelector('#board').getBoundingClientRect().toJSON()")
    window = tab.evaluate("[innerWidth, innerHeight, document.documentElement.scrollWidth]")
    assert board["width"] <= window[0] and board["height"] <= window[1], (board, window)
    assert window[2] <= window[0]  # nothing sideways to scroll to
    # The status and the whole board on screen together: scrolled to the status, the board's
    # bottom row is still in the window.
    tab.evaluate("document.querySelector('#players-line').scrollIntoView({block: 'start'})")
    status = tab.evaluate("document.querySelector('#status').getBoundingClientRect().toJSON()")
    board = tab.evaluate("document.querySelector('#board').getBoundingClientRect().toJSON()")
    assert status["top"] >= 0 and board["bottom"] <= window[1], (status, board, window)
    assert_every_square_inside_the_board(tab)
    screenshot(tab, "beyond-zoom-200", size)


#: Every square of the board inside the board's own box (half a pixel for rounding).
SQUARES_INSIDE = """() => {
  const board = document.querySelector('#board').getBoundingClientRect();
  const squares = [...document.querySelectorAll('#board .square')].map(e => e.getBoundingClientRect());
  return squares.length > 0 && squares.every(sq => sq.bottom <= board.bottom + 0.5 && sq.right <= board.right + 0.5);
}"""


def assert_every_square_inside_the_board(tab: Any) -> None:
    """Once the board has settled (a panel opening beside it reflows the layout over a frame or
    two), no square is cut."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout  # the browser tests' own dependency

    try:
        tab.wait_for_function(SQUARES_INSIDE, timeout=10_000)
    except PlaywrightTimeout:  # report the boxes that stayed outside
        board = tab.evaluate("document.querySelector('#board').getBoundingClientRect().toJSON()")
        squares = tab.eval_on_selector_all("#board .square", "els => els.map(e => e.getBoundingClientRect().toJSON())")
        raise AssertionError(f"squares outside the board {board}: {squares}") from None


def test_on_a_phone_no_row_of_the_board_is_cut(page: Any, size: str) -> None:
    for game in ("teeko", "hexapawn", "tictactoe"):
        view = new_game(page, game, "human", "random", seed=1)
        assert_every_square_inside_the_board(page)
        if game == "teeko":  # the review's bar beside the board takes its width too
            view = api_move(page, view["id"], "22")
            page.reload()
            rendered(page, view)
            page.click("#review-open")
            page.wait_for_selector('#review[data-state]:not([data-state="loading"])')
            assert_every_square_inside_the_board(page)
            page.click("#review-close")
    screenshot(page, "beyond-phone-rows", size)


def test_the_board_is_the_page_the_learners_beside_it_and_play_again_is_one_click(page: Any, size: str) -> None:
    assert not page.evaluate("document.querySelector('#setup').open")  # the form waits, folded
    view = new_game(page, "tictactoe", "human", "menace", seed=5)
    page.evaluate("document.querySelector('#setup').open = false")
    page.wait_for_selector('#learners .learner[data-kind="menace"]')
    page.wait_for_function("document.querySelector('#board').getBoundingClientRect().width > 150")
    board = page.evaluate("document.querySelector('#board').getBoundingClientRect().toJSON()")
    learners = page.evaluate("document.querySelector('#learners').getBoundingClientRect().toJSON()")
    setup = page.evaluate("document.querySelector('#setup').getBoundingClientRect().toJSON()")
    if size == "desktop":
        assert learners["left"] >= board["right"] and learners["top"] < board["bottom"]  # beside it
        assert setup["left"] >= learners["right"]  # the form after them
    else:
        assert board["bottom"] <= learners["top"] <= setup["top"]  # under it, and the form under them
    with page.expect_response(lambda r: r.url.endswith("/api/games") and r.request.method == "POST") as info:
        page.click("#rematch")
    again = info.value.json()
    rendered(page, again)
    assert again["id"] != view["id"] and again["players"] == view["players"]
    assert "Play again" in (page.text_content("#rematch") or "")
    screenshot(page, "beyond-layout", size)


def test_the_page_is_installable_and_opens_offline(page: Any, context: Any, server_url: str, size: str) -> None:
    manifest = page.evaluate(
        """() => fetch(document.querySelector('link[rel=manifest]').href)
             .then(async r => [r.headers.get('content-type'), await r.json()])"""
    )
    assert manifest[0].startswith("application/manifest+json")
    assert manifest[1]["start_url"] == "/" and manifest[1]["display"] == "standalone"
    assert {icon["sizes"] for icon in manifest[1]["icons"]} >= {"192x192", "512x512"}
    page.wait_for_function(
        "navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready.then(() => true)"
    )
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_selector('#board[data-id]:not([data-id=""]) .square')
    context.set_offline(True)
    try:
        page.reload()
        page.wait_for_selector("header h1")  # the page itself, from the worker's cache
        # the page from the cache, the server away: its one banner says so (a selector, not a
        # script: the cached page keeps its policy, which forbids a string eval)
        page.wait_for_selector("#offline:not([hidden])")
        assert "can't reach the gamelearn server" in (page.text_content("#offline") or "").lower()
        assert page.title() and page.is_visible("#board")
        screenshot(page, "beyond-offline", size)
    finally:
        context.set_offline(False)
