"""End-to-end fixtures: the web app served by uvicorn in a thread on a free loopback port, and
Debian's Chromium (/usr/bin/chromium) driven by Playwright with a fresh user-data directory.

Nothing is downloaded: Playwright is pointed at the system browser.  Where /usr/bin/chromium is
missing the tests skip and say why (CI installs it); Playwright is a test dependency, so a broken
install fails them.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("GAMELEARN_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    import uvicorn

    from gamelearn.web import create_app

    store = tmp_path_factory.mktemp("web-store") / "gamelearn.sqlite3"
    port = free_port()
    config = uvicorn.Config(create_app(store), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the web app did not start within 20 s")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser_context(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the browser tests"
        )
    from playwright import sync_api  # a declared test dependency: missing, it fails the tests

    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900},
        )
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def page(browser_context: Any, server_url: str) -> Iterator[Any]:
    tab = browser_context.new_page()
    tab.set_default_timeout(15_000)
    failures: list[str] = []
    tab.on("pageerror", lambda error: failures.append(str(error)))
    # Nothing from the internet: every request the page makes goes to our own server.
    outside: list[str] = []
    tab.on(
        "request",
        lambda request: (
            None
            if request.url.startswith(server_url) or request.url.startswith("data:")
            else outside.append(request.url)
        ),
    )
    tab.goto(server_url + "/")
    tab.wait_for_selector("#game-select option", state="attached")
    yield tab
    tab.close()
    assert not failures, f"errors in the page: {failures}"
    assert not outside, f"the page fetched from outside the app: {outside}"
