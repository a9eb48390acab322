"""Take docs/screenshot.png with the browser tests' setup: the web app in a thread, Debian's Chromium
through Playwright, a fresh store; a person (clicks chosen by a full-depth alpha-beta) plays White
against HER until she has lost two beads, so the page shows her boxes, an empty ring and the chart.

    python tests/browser/screenshot_for_docs.py [docs/screenshot.png]
"""

from __future__ import annotations

import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def main(target: Path) -> None:
    os.environ["GAMELEARN_HOME"] = tempfile.mkdtemp(prefix="gamelearn-shot-")
    import uvicorn
    from playwright.sync_api import sync_playwright

    from gamelearn import get_game, make_player
    from gamelearn.web import create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    hexapawn = get_game("hexapawn")
    white = make_player(hexapawn, "alphabeta:depth=9", seed=5)
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            tempfile.mkdtemp(prefix="chromium-"),
            executable_path="/usr/bin/chromium",
            headless=True,
            args=ARGS,
            viewport={"width": 1280, "height": 760},
        )
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/?game=hexapawn")
        page.wait_for_selector("#game-select option", state="attached")
        losses = 0
        for seed in range(60):
            page.fill("#seed", str(seed))
            with page.expect_response(lambda r: r.url.endswith("/api/games")) as info:
                page.click("#new-game")
            view = info.value.json()
            while not view["over"]:
                board = "".join(page.eval_on_selector_all("#board .square", "els => els.map(e => e.dataset.mark)"))
                move = white.choose(hexapawn.from_board(board, view["to_move"]))
                page.click(f'#board .square[data-name="{move[0]}"]')
                with page.expect_response(lambda r: "/move" in r.url) as info:
                    page.click(f'#board .square[data-name="{move[1]}"]')
                view = info.value.json()
                page.wait_for_selector(f'#board[data-plies="{len(view["moves"])}"]')
            losses += view["winner"] == 0
            if losses == 2:
                break
        page.wait_for_timeout(300)
        page.screenshot(path=str(target))
        context.close()
    server.should_exit = True
    print(f"wrote {target}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshot.png"))
