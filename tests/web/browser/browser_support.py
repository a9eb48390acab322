"""What the browser tests share: screenshots into ./test-artifacts/, starting a game through the
page's own controls, clicking moves, and the oracle (the rules API replaying what the page shows)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from gamelearn import get_game

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


def screenshot(tab: Any, name: str, size: str) -> Path:
    """Saved as a test artifact (./test-artifacts/NAME-SIZE.png, ignored by git)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}-{size}.png"
    tab.screenshot(path=str(path), full_page=True)
    return path


def rendered(tab: Any, view: dict) -> None:
    over = "yes" if view["over"] else "no"
    tab.wait_for_selector(
        f'#board[data-id="{view["id"]}"][data-plies="{len(view["moves"])}"][data-over="{over}"][data-locked="no"]'
    )


def is_start(response: Any) -> bool:
    return response.url.endswith("/api/games") and response.request.method == "POST"


def new_game(tab: Any, game: str, first: str, second: str, seed: int | None = None) -> dict:
    """A game started as a person would: the game chosen (which starts one at once with the
    players kept for it), then the players' specs typed and Start pressed."""
    if not tab.evaluate("document.querySelector('#setup').open"):
        tab.click("#setup > summary")  # folded on a phone, so the board comes first
    # the form's controls load when it first opens: the page says when they are ready
    tab.wait_for_selector('#setup[data-ready="yes"]', state="attached")
    if tab.input_value("#game-select") != game:
        with tab.expect_response(is_start) as info:
            tab.select_option("#game-select", game)
        rendered(tab, info.value.json())
    tab.fill("#first-player", first)
    tab.fill("#second-player", second)
    tab.fill("#seed", "" if seed is None else str(seed))
    with tab.expect_response(is_start) as info:
        tab.click("#new-game")
    view = info.value.json()
    rendered(tab, view)
    return view


def square(tab: Any, name: str) -> Any:
    return tab.locator(f'#board .square[data-name="{name}"]')


def split(view: dict, move: str) -> list[str]:
    width = len(view["square_names"][0])
    return [move[i : i + width] for i in range(0, len(move), width)]


def click_move(tab: Any, view: dict, move: str) -> tuple[int, dict]:
    """Click the squares of ``move`` (a pawn, then where it goes); the server's answer."""
    names = split(view, move)
    for name in names[:-1]:
        square(tab, name).click()
        tab.wait_for_selector(f'#board .square.selected[data-name="{name}"]')
    with tab.expect_response(lambda r: r.url.endswith("/move")) as info:
        square(tab, names[-1]).click()
    response = info.value
    answer = response.json()
    if response.ok:
        rendered(tab, answer)
    else:
        tab.wait_for_selector('#board[data-locked="no"]')
    return response.status, answer


def api_move(tab: Any, game_id: str, move: str) -> dict:
    """A move sent by the page's own fetch (same cookie), for setting up a position quickly."""
    return dict(
        tab.evaluate(
            """([id, move]) => fetch(`/api/games/${id}/move`, {method: "POST",
                 headers: {"Content-Type": "application/json"}, body: JSON.stringify({move})}).then(r => r.json())""",
            [game_id, move],
        )
    )


def marks(tab: Any) -> str:
    """The board's marks in square order (whatever way round it is drawn)."""
    found = tab.eval_on_selector_all(
        "#board .square", "els => els.map(e => [Number(e.dataset.square), e.dataset.mark])"
    )
    return "".join(mark for _, mark in sorted(found))


def replay(game_name: str, moves: list[str]) -> Any:
    game = get_game(game_name)
    state = game.initial()
    for move in moves:
        state = game.play(state, move)
    return state


def current_view(tab: Any) -> dict:
    game_id = tab.get_attribute("#board", "data-id")
    return dict(tab.evaluate("id => fetch(`/api/games/${id}`).then(r => r.json())", game_id))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


#: The live stream's beat on the test servers (WebSettings.heartbeat_seconds; 2 s by default): the
#: pages of test_live.py count their clocks in it too (5 s of silence is 2.5 beats), so that their
#: waits are as many beats, and shorter.
LIVE_BEAT_SECONDS = 1.0

#: How long a test's server, told to stop, waits for its requests still open before it ends them.
#: An open page's live stream never ends by itself (it lasts 25 s), so a server stopped under an
#: open page always waits this long: a tenth of a second, as a stopped process ends them at once.
STOP_GRACE_SECONDS = 0.1


@contextmanager
def serving(app: Any, port: int | None = None) -> Iterator[str]:
    """The app served on a loopback port (a free one unless given) while the block runs; its
    address.  At the end the server waits at most STOP_GRACE_SECONDS for open pages' live streams."""
    import uvicorn

    port = port or free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=STOP_GRACE_SECONDS
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the web app did not start within 20 s")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def watched(tab: Any, server_url: str) -> tuple[list[str], list[str]]:
    """Errors in the page, and requests that left our own server."""
    failures: list[str] = []
    outside: list[str] = []
    tab.on("pageerror", lambda error: failures.append(str(error)))
    tab.on(
        "request",
        lambda request: (
            None
            if request.url.startswith(server_url) or request.url.startswith("data:")
            else outside.append(request.url)
        ),
    )
    return failures, outside


def side_by_side(flows: Iterable[Iterator[None]]) -> None:
    """Runs each flow (a generator: one size's whole test) up to its next ``yield``, in turn, until
    every one has ended.  A flow yields where it is about to wait on the page's own clocks (its 5 s
    of silence, its 2 s beats, its server probes): the pages of the other flows keep their clocks
    running meanwhile, so the sizes' waits overlap instead of adding up, and each size still goes
    through every step and every assert of its own flow.  An error ends the others (closed)."""
    running = list(flows)
    try:
        while running:
            for flow in list(running):
                try:
                    next(flow)
                except StopIteration:
                    running.remove(flow)
    finally:
        for flow in running:
            flow.close()


@contextmanager
def served_page(context: Any, server_url: str) -> Iterator[Any]:
    """A tab of the session's server, the ``page`` fixture's: no error in the page and
    nothing fetched from outside the app by the end."""
    tab = context.new_page()
    failures, outside = watched(tab, server_url)
    tab.goto(server_url + "/")
    # the first page of a session waits for the server's first imports (a loaded machine: many seconds)
    tab.wait_for_selector('#board[data-id]:not([data-id=""]) .square', timeout=60_000)
    yield tab
    tab.close()
    assert not failures, f"errors in the page: {failures}"
    assert not outside, f"the page fetched from outside the app: {outside}"
