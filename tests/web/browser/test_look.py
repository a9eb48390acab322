"""Issue 24, points 2, 3, 4 and 8: every view passes axe-core (no serious or critical violation) at
both sizes, the texts the issue measured meet WCAG AA by the WCAG formula computed here (the Start
button on hover, bead labels, square names), Teeko says which colour is yours, MENACE's first box
is charted from the game it exists, and the smaller things (which loss a review's move made,
"one of" several best moves, a paused game without the thinking pulse, no last move after a
resignation, plurals, the learners' names).

axe-core comes from the axe-playwright-python package (its bundled axe.min.js, a test
dependency): read from disk and evaluated in the page, never fetched."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
from browser_support import api_move, click_move, new_game, rendered, screenshot

pytestmark = pytest.mark.browser


@cache
def axe_source() -> str:
    import axe_playwright_python  # a declared test dependency: missing, it fails the test

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


def axe_problems(tab: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now."""
    if not tab.evaluate("typeof window.axe !== 'undefined'"):
        tab.evaluate(axe_source())
    found = tab.evaluate("axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)")
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:3]]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


#: WCAG 2's contrast ratio of an element's text against its own background (the nearest
#: ancestor's that is not transparent), computed in the page from the colours it resolved.
CONTRAST = """el => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  let node = el, back = null;
  while (node && !back) { const c = getComputedStyle(node).backgroundColor; if (rgb(c).length < 4 || rgb(c)[3] > 0) back = c; node = node.parentElement; }
  const [a, b] = [lum(rgb(getComputedStyle(el).color)), lum(rgb(back || "rgb(255,255,255)"))].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def test_every_view_passes_axe_and_the_measured_texts_meet_aa(page: Any, size: str) -> None:
    assert axe_problems(page) == []  # the first view: tic-tac-toe against MENACE
    # The Start button on hover kept its label (it was 1.17:1).
    if not page.evaluate("document.querySelector('#setup').open"):
        page.click("#setup > summary")
    page.hover("#new-game")
    assert page.eval_on_selector("#new-game", CONTRAST) >= 4.5
    # Square names, and a finished game against MENACE: its boxes, beads, lesson and charts.
    view = new_game(page, "tictactoe", "human", "menace", seed=1)
    while not view["over"]:
        status, view = click_move(page, view, view["legal_moves"][0])
    page.wait_for_selector('.learner[data-kind="menace"] .bead')
    page.wait_for_selector(".first-box svg")
    for name in page.eval_on_selector_all("#board .square .name", "els => els.map(e => e.textContent)"):
        assert page.eval_on_selector(f'#board .square[data-name="{name}"] .name', CONTRAST) >= 4.5
    ratios = page.eval_on_selector_all(".bead:not(.empty)", f"els => els.map({CONTRAST})")
    assert ratios and min(ratios) >= 4.5
    assert axe_problems(page) == []
    page.click("#review-open")
    page.wait_for_selector('#review[data-state="ready"]')
    assert axe_problems(page) == []
    screenshot(page, "look-menace-review", size)
    # Teeko with the perfect values asked for (no table here: the panel says so) and the rules open.
    page.click("#review-close")
    view = new_game(page, "teeko", "human", "random", seed=2)
    page.check("#analysis-toggle")
    page.wait_for_selector("#analysis .mv, #analysis .unavailable")
    page.click("#rules > summary")
    assert axe_problems(page) == []
    screenshot(page, "look-teeko", size)


def test_teeko_says_which_colour_is_yours(page: Any, size: str) -> None:
    view = new_game(page, "teeko", "human", "random", seed=5)
    status, view = click_move(page, view, "22")
    disc = "el => getComputedStyle(el).backgroundColor"
    yours = page.eval_on_selector('#players-line .seat-name[data-side="0"] .disc', disc)
    theirs = page.eval_on_selector('#players-line .seat-name[data-side="1"] .disc', disc)
    # The legend's discs are the board's pawns: X's on 22 (yours), O's where random answered.
    assert yours == page.eval_on_selector('#board .square[data-name="22"] .pawn', disc)
    answer = view["moves"][1]
    assert theirs == page.eval_on_selector(f'#board .square[data-name="{answer}"] .pawn', disc)
    assert yours != theirs
    assert (page.text_content('#players-line .seat-name[data-side="0"]') or "").strip() == "You (X)"
    # The status line carries the mover's disc too: it is your move, so yours.
    assert page.eval_on_selector("#status .disc", disc) == yours
    screenshot(page, "teeko-legend", size)


def test_the_smaller_things(page: Any, size: str) -> None:
    # Review: O's edge answer to the centre is "a draw thrown to a loss", with every best move named.
    view = new_game(page, "tictactoe", "human", "human")
    for move in ["4", "1"]:
        view = api_move(page, view["id"], move)
    page.reload()
    rendered(page, view)
    page.click("#review-open")
    page.wait_for_selector('#review[data-state="ready"]')
    page.click('#review-moves li[data-ply="2"] button')
    page.wait_for_selector('#review-caption[data-grade="mistake"]')
    caption = page.text_content("#review-caption") or ""
    assert "mistake: a draw thrown to a loss" in caption
    assert "Best was one of 0, 2, 6 or 8" in caption  # the corners: each keeps the draw
    screenshot(page, "review-which-loss", size)
    page.click("#review-close")
    # A computer-against-computer game waiting for "Play it out" has no thinking pulse.
    view = new_game(page, "tictactoe", "random", "random", seed=1)
    page.wait_for_selector('#status[data-state="paused"]')
    assert page.eval_on_selector("#status", "el => getComputedStyle(el, '::after').content") == "none"
    # After resigning, the line under the board no longer shows the computer's last move.
    view = new_game(page, "tictactoe", "human", "menace", seed=4)
    status, view = click_move(page, view, "4")
    assert "played" in (page.text_content("#message") or "")
    page.click("#resign")
    with page.expect_response(lambda r: r.url.endswith("/resign")) as info:
        page.click("#resign")
    rendered(page, info.value.json())
    assert page.text_content("#status") == "You resigned" and (page.text_content("#message") or "") == ""
    # Learners named as people say them, and "1 game", never "1 games".
    page.wait_for_selector(".first-box h4")
    assert page.text_content('.learner[data-kind="menace"] h3') == "MENACE (O)"
    page.wait_for_selector('#chart-caption:has-text("won")')
    chart = page.text_content("#chart-caption") or ""
    games = len(page.get_attribute("#gardner", "data-letters") or "")
    assert ("1 game:" in chart) == (games == 1) and "1 games" not in chart
    assert "1 boxes" not in (page.text_content("#learners") or "")
    screenshot(page, "resigned-no-last-move", size)


def test_menaces_first_box_chart_starts_where_the_box_does(page: Any, size: str) -> None:
    view = None
    for seed in range(2):
        view = new_game(page, "tictactoe", "human", "menace", seed=10 + seed)
        while not view["over"]:
            view = api_move(page, view["id"], view["legal_moves"][-1])
    page.reload()
    assert view is not None
    rendered(page, view)
    # (attached: a line that does not move is flat, which Playwright does not count as visible)
    chart = page.wait_for_selector('.learner[data-kind="menace"] .first-box[data-from] svg polyline', state="attached")
    assert chart is not None
    data = page.evaluate("fetch('/api/learners/menace/first-box?game=tictactoe').then(r => r.json())")
    first = data["from_game"]
    assert data["series"][first - 1] is None and data["series"][first] is not None
    assert page.get_attribute('.learner[data-kind="menace"] .first-box', "data-from") == str(first)
    # Each line has a point per game from the one after which the box exists: none at a made-up 0.
    points = page.eval_on_selector_all(
        '.learner[data-kind="menace"] .first-box svg polyline',
        "els => els.map(e => e.getAttribute('points').split(' ').length)",
    )
    assert points and set(points) == {data["games"] - first + 1}
    heading = page.text_content('.learner[data-kind="menace"] .first-box h4') or ""
    assert data["box"] in heading and "MENACE" in heading
    screenshot(page, "menace-first-box", size)


def test_after_one_game_the_first_box_chart_names_that_game_once_and_a_lesson_counts_its_beads(
    page: Any, size: str
) -> None:
    view = new_game(page, "tictactoe", "human", "menace", seed=4)
    while not view["over"]:
        view = api_move(page, view["id"], view["legal_moves"][0])
    page.reload()
    rendered(page, view)
    page.wait_for_selector('.learner[data-kind="menace"] .first-box[data-from] svg', state="attached")
    ends = page.eval_on_selector_all(".first-box svg text[data-end]", "els => els.map(e => e.textContent)")
    data = page.evaluate("fetch('/api/learners/menace/first-box?game=tictactoe').then(r => r.json())")
    assert ends == [f"game {data['from_game']}"]  # one game: one end, not "game 1" at both
    # A lesson's bead with copies is counted, never repeated ("bead 5, 5, 5").
    for line in page.eval_on_selector_all(".learner .learned", "els => els.map(e => e.textContent)"):
        for part in line.removeprefix("After this game: ").rstrip(".").split("; "):
            beads = part.split(" taken out of box ")[0].split(" added to box ")[0]
            listed = beads.split(" ", 1)[1].split(", ") if beads.startswith("bead") else []
            assert len(listed) == len(set(listed)), line
    screenshot(page, "menace-first-box-one-game", size)


def test_a_bad_seed_and_a_typed_tag_are_refused_in_plain_words(page: Any, size: str) -> None:
    if not page.evaluate("document.querySelector('#setup').open"):
        page.click("#setup > summary")
    before = page.url
    page.fill("#seed", "1e400")  # Number("1e400") is Infinity, which JSON sends as null: a random game
    page.click("#new-game")
    page.wait_for_selector('#message:has-text("is not a whole number")')
    assert page.url == before  # no game was started
    page.fill("#seed", "")
    page.fill("#second-player", "<b>x</b>")
    with page.expect_response(lambda r: r.url.endswith("/api/games") and r.request.method == "POST"):
        page.click("#new-game")
    page.wait_for_selector('#message:has-text("unknown player")')
    message = page.text_content("#message") or ""
    assert "'<b>x</b>'" in message and "server path" not in message
    screenshot(page, "refused-in-plain-words", size)


#: WCAG 1.4.11's non-text contrast of a side's mark (a letter or a disc; axe skips them, they are
#: aria-hidden) against what it sits on: its own chip (a background or a ring of box-shadow), else
#: the nearest ancestor's background.  A disc counts its fill or its border, whichever stands out.
MARK_CONTRAST = """el => {
  const rgb = (c) => (c.match(/rgba?\\([^)]*\\)/) || ["rgb(255,255,255)"])[0].match(/[\\d.]+/g).map(Number);
  const opaque = (c) => c && c !== "none" && !/rgba\\([^)]*,\\s*0\\)/.test(c) && c !== "transparent";
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (x, y) => { const [a, b] = [lum(rgb(x)), lum(rgb(y))].sort((p, q) => q - p); return (a + 0.05) / (b + 0.05); };
  const style = getComputedStyle(el);
  const disc = el.classList.contains("disc");
  let around = disc && opaque(style.boxShadow) ? style.boxShadow : !disc && opaque(style.backgroundColor) ? style.backgroundColor : null;
  for (let node = el.parentElement; !around && node; node = node.parentElement) {
    const c = getComputedStyle(node).backgroundColor;
    if (opaque(c)) around = c;
  }
  around = around || "rgb(255,255,255)";
  if (!disc) return ratio(style.color, around);
  const border = parseFloat(style.borderTopWidth) > 0 ? ratio(style.borderTopColor, around) : 0;
  return Math.max(ratio(style.backgroundColor, around), border);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_sides_mark_stands_out_three_to_one_in_both_themes(page: Any, size: str, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    for game, first in (("tictactoe", "human"), ("teeko", "human"), ("hexapawn", "human")):
        new_game(page, game, first, "random", seed=3)
        ratios = page.eval_on_selector_all("#players-line .mark, #status .mark", f"els => els.map({MARK_CONTRAST})")
        assert len(ratios) == 3 and min(ratios) >= 3, (game, scheme, ratios)
        if game == "tictactoe":
            screenshot(page, f"look-marks-{scheme}", size)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_api_page_passes_axe_with_its_headings_in_order(page: Any, server_url: str, size: str, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    page.goto(server_url + "/docs")
    page.wait_for_selector("#api section h2")
    assert axe_problems(page) == []
    levels = page.eval_on_selector_all("h1, h2, h3, h4, h5, h6", "els => els.map(e => Number(e.tagName[1]))")
    assert levels[0] == 1 and all(b - a <= 1 for a, b in zip(levels, levels[1:], strict=False))
    for link in page.eval_on_selector_all("header a", "els => els.map(e => e.getAttribute('href'))"):
        assert page.eval_on_selector(f'header a[href="{link}"]', CONTRAST) >= 4.5, link
    screenshot(page, f"look-api-docs-{scheme}", size)


def test_gardners_chart_after_a_thousand_games_stays_a_box_and_says_results_not_sides(page: Any, size: str) -> None:
    """A thousand games are a hundred lines of letters: the chart is a box of eight lines that
    scrolls, the latest in view; HER plays B in hexapawn, whose marks are W and B, so the legend
    says its W is a game she won, not a side."""
    view = new_game(page, "hexapawn", "human", "her", seed=1)
    started = page.request.post(
        f"{page.url.split('?')[0]}api/learners/her/training?game=hexapawn",
        data={"opponent": "random", "games": 1000, "side": 1, "seed": 3},
    )
    assert started.ok, started.text()
    status_url = f"{page.url.split('?')[0]}api/learners/her/training?game=hexapawn"
    while not ((status := page.request.get(status_url).json())["played"] == 1000 and not status["running"]):
        page.wait_for_timeout(500)  # the run's own state, asked again: no budget on it
    page.reload()
    rendered(page, view)
    page.wait_for_selector("#gardner[tabindex='0']")  # a hundred lines: the box scrolls
    assert len(page.get_attribute("#gardner", "data-letters") or "") >= 1000
    box = page.eval_on_selector("#gardner", "e => [e.clientHeight, e.scrollHeight, e.scrollTop + e.clientHeight]")
    line = page.eval_on_selector("#gardner", "e => parseFloat(getComputedStyle(e).lineHeight)")
    assert box[0] <= 8 * line + 2 and box[1] >= 100 * line - 2, box  # eight lines shown of a hundred
    assert box[2] >= box[1] - 2  # scrolled to the latest games
    caption = page.text_content("#chart-caption") or ""
    assert "W a game HER won" in caption and "results, not sides, who plays B here" in caption, caption
    assert "1,000 games" in caption or "1000 games" in caption
    assert axe_problems(page) == []
    screenshot(page, "look-gardner-1000", size)


def test_a_teeko_page_asks_nothing_it_is_refused(page: Any, size: str) -> None:
    """Every request the page makes is answered: a Teeko learner's training (it trains with
    gamelearn train) is not asked, and the connection probe's HEAD / is answered."""
    refused: list[str] = []
    page.on("response", lambda r: refused.append(f"{r.request.method} {r.url} {r.status}") if r.status >= 400 else None)
    new_game(page, "hexapawn", "human", "her", seed=1)
    page.wait_for_selector('#training[data-kind="her"]:not([hidden])')  # HER's is asked, and answered
    new_game(page, "teeko", "human", "thesis", seed=1)
    page.wait_for_selector(".learner[data-kind='thesis']")
    page.wait_for_selector("#training[hidden]", state="attached")
    assert page.evaluate("fetch('/', {method: 'HEAD'}).then(r => r.status)") == 200
    assert refused == []
