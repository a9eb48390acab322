"""Take the web app's screenshots for the docs with the browser tests' setup: the app in a thread,
Debian's Chromium through Playwright, a fresh store.

    python tests/web/browser/screenshot_for_docs.py [docs/]

- screenshot.png (README, docs/web.md): hexapawn against HER after she has lost two games (moves
  chosen by a full-depth alpha-beta), her boxes with the empty rings, the chart.
- web-review.png: the review of a tic-tac-toe game with X's blunder on move 7 marked, the best
  move drawn as the arrow, the exact value on the bar.
- web-menace.png: MENACE's boxes after a dozen games and its first box's beads over the games.
- web-phone.png: Teeko against the thesis program at 390x844, a pawn picked and its targets dotted.
- web-forms.png: a form of Teeko picked (Advanced goals, Alternate drops) against alpha-beta, in a
  drop round where you place the computer's pawn.

    python tests/web/browser/screenshot_for_docs.py docs forms    # only web-forms.png
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def post(page: Any, path: str, body: dict | None = None) -> dict:
    script = """([path, body]) => fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                  body: body === null ? undefined : JSON.stringify(body)}).then(r => r.json())"""
    return dict(page.evaluate(script, [path, body]))


def open_game(page: Any, url: str, view: dict) -> None:
    page.goto(f"{url}/?id={view['id']}")
    page.wait_for_selector(f'#board[data-id="{view["id"]}"][data-plies="{len(view["moves"])}"][data-locked="no"]')


def forms_shot(browser: Any, url: str, folder: Path) -> None:
    """The form picker: Advanced goals and Alternate drops chosen, started, one drop placed."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(url + "/?game=teeko")
    page.wait_for_selector('#board[data-game="teeko"] .square')
    page.select_option("#form-opt-goals", "advanced")
    page.select_option("#form-opt-drops", "aaaa")
    page.fill("#second-player", "alphabeta:depth=2")
    page.fill("#seed", "3")
    with page.expect_response(lambda r: r.url.endswith("/api/games") and r.request.method == "POST") as info:
        page.click("#new-game")
    view = info.value.json()
    with page.expect_response(lambda r: r.url.endswith("/move")) as info:
        page.click('#board .square[data-name="22"]')
    view = info.value.json()
    page.wait_for_selector(f'#board[data-plies="{len(view["moves"])}"][data-locked="no"]')
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    page.screenshot(path=str(folder / "web-forms.png"))
    page.close()


def main(folder: Path, only: str = "") -> None:
    os.environ["GAMELEARN_HOME"] = tempfile.mkdtemp(prefix="gamelearn-shot-")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from browser_support import serving
    from playwright.sync_api import sync_playwright

    from gamelearn import get_game, make_player
    from gamelearn.web import create_app

    hexapawn = get_game("hexapawn")
    white = make_player(hexapawn, "alphabeta:depth=9", seed=5)
    with serving(create_app()) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
        forms_shot(browser, url, folder)
        if only == "forms":
            browser.close()
            print(f"wrote {folder}/web-forms.png")
            return
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url + "/")
        page.wait_for_selector("#board .square")
        page.evaluate("document.querySelector('#setup').open = false")
        # HER loses twice.
        losses = 0
        for seed in range(60):
            view = post(page, "/api/games", {"game": "hexapawn", "players": ["human", "her"], "seed": seed})
            while not view["over"]:
                move = white.choose(hexapawn.from_board(view["board"], view["to_move"]))
                last = hexapawn.is_over(hexapawn.play(hexapawn.from_board(view["board"], view["to_move"]), move))
                if last and losses == 1:  # the second loss is clicked, so the page shows the lesson
                    open_game(page, url, view)
                    page.evaluate("localStorage.clear()")
                    page.click(f'#board .square[data-name="{move[0]}"]')
                    with page.expect_response(lambda r: r.url.endswith("/move")) as info:
                        page.click(f'#board .square[data-name="{move[1]}"]')
                    view = info.value.json()
                    page.wait_for_selector(f'#board[data-plies="{len(view["moves"])}"][data-locked="no"]')
                else:
                    view = post(page, f"/api/games/{view['id']}/move", {"move": move})
            losses += view["winner"] == 0
            if losses == 2:
                break
        page.wait_for_timeout(600)
        page.screenshot(path=str(folder / "screenshot.png"))
        # A review with a blunder.
        view = post(page, "/api/games", {"game": "tictactoe", "players": ["human", "human"]})
        for move in ["0", "1", "2", "3", "5", "4", "6", "7"]:
            view = post(page, f"/api/games/{view['id']}/move", {"move": move})
        open_game(page, url, view)
        page.evaluate("document.querySelector('#setup').open = false")
        page.click("#review-open")
        page.wait_for_selector('#review[data-state="ready"]')
        page.click('#review-moves li[data-ply="7"] button')
        page.wait_for_selector('#review-caption[data-grade="blunder"]')
        page.wait_for_timeout(300)
        page.screenshot(path=str(folder / "web-review.png"))
        # MENACE's boxes.
        for seed in range(12):
            view = post(page, "/api/games", {"game": "tictactoe", "players": ["menace", "human"], "seed": seed})
            while not view["over"]:
                view = post(page, f"/api/games/{view['id']}/move", {"move": view["legal_moves"][-1]})
        view = post(page, "/api/games", {"game": "tictactoe", "players": ["menace", "human"], "seed": 99})
        view = post(page, f"/api/games/{view['id']}/move", {"move": view["legal_moves"][0]})
        open_game(page, url, view)
        page.evaluate("document.querySelector('#setup').open = false")
        page.click('.learner[data-kind="menace"] .filters button[data-show="all"]')
        page.wait_for_selector('.learner[data-kind="menace"] .boxes[data-show="all"] .box')
        page.wait_for_selector(".first-box svg")
        page.wait_for_timeout(300)
        page.screenshot(path=str(folder / "web-menace.png"), full_page=True)
        # Teeko on a phone.
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(url + "/")
        phone.wait_for_selector("#board .square")
        view = post(phone, "/api/games", {"game": "teeko", "players": ["human", "thesis"], "seed": 4})
        while len(view["moves"]) < 8:
            view = post(phone, f"/api/games/{view['id']}/move", {"move": view["legal_moves"][len(view["moves"]) * 3]})
        open_game(phone, url, view)
        pawn = next(m[:2] for m in view["legal_moves"])
        phone.click(f'#board .square[data-name="{pawn}"]')
        phone.wait_for_selector("#board .square.target")
        phone.screenshot(path=str(folder / "web-phone.png"))
        browser.close()
    print(f"wrote {folder}/screenshot.png, web-review.png, web-menace.png, web-phone.png, web-forms.png")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"), sys.argv[2] if len(sys.argv) > 2 else "")
