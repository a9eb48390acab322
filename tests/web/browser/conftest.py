"""End-to-end fixtures: the web app served by uvicorn in a thread on a free loopback port, and
Debian's Chromium (/usr/bin/chromium) driven by Playwright, a fresh browser context (cookies,
storage) for each test, at the two sizes every flow is tried at: 1280x800 and 390x844.

Nothing is downloaded: Playwright is pointed at the system browser.  Where /usr/bin/chromium is
missing the tests skip and say why (CI installs it); Playwright is a test dependency, so a broken
install fails them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import LIVE_BEAT_SECONDS, free_port, served_page, serving

CHROMIUM = Path(os.environ.get("GAMELEARN_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
#: The most any wait on the page may take. Every wait is on the page's own state, so a quick machine
#: never comes near it; a loaded one (CI on 2 cores, or a machine shared with builds) gets there late
#: rather than failing on a budget it was never meant to meet.
PAGE_WAIT_MS = 60_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test is also ``slow``: it drives Chromium, so `pytest -m "not slow"` (the
    everyday tier, docs/testing.md) leaves them out and the full run keeps them."""
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def web_port() -> int:
    return free_port()


@pytest.fixture(scope="session")
def web_app(tmp_path_factory: pytest.TempPathFactory, web_port: int) -> Any:
    from gamelearn.web import create_app
    from gamelearn.web.guards import own_hosts
    from gamelearn.web.settings import WebSettings

    # Every test opens a fresh browser context, a new browser to the server, all from 127.0.0.1:
    # more than the 50 newcomers an address may bring in 10 minutes, a limit tested on its own.
    # It answers to its own names only, as `gamelearn serve` does.
    # Its live streams beat every LIVE_BEAT_SECONDS, the beat test_live.py's pages count in.
    settings = WebSettings(
        new_owners_per_address=100_000,
        allowed_hosts=own_hosts("127.0.0.1", web_port),
        heartbeat_seconds=LIVE_BEAT_SECONDS,
    )
    return create_app(tmp_path_factory.mktemp("web-store") / "gamelearn.sqlite3", settings)


@pytest.fixture(scope="session")
def server_url(web_app: Any, web_port: int) -> Iterator[str]:
    with serving(web_app, web_port) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the browser tests"
        )
    from playwright import sync_api  # a declared test dependency: missing, it fails the tests

    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(params=sorted(SIZES), ids=sorted(SIZES))
def size(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def open_context(browser: Any, size: str) -> Any:
    """A fresh browser context (cookies, storage) with the viewport of ``size``."""
    width, height = SIZES[size]
    fresh = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
    fresh.set_default_timeout(PAGE_WAIT_MS)
    fresh.set_default_navigation_timeout(PAGE_WAIT_MS)
    return fresh


@pytest.fixture
def context(browser: Any, size: str) -> Iterator[Any]:
    fresh = open_context(browser, size)
    try:
        yield fresh
    finally:
        fresh.close()


@pytest.fixture
def contexts(browser: Any) -> Iterator[dict[str, Any]]:
    """A fresh context at each size at once, for a test that drives both sizes side by side
    (browser_support.side_by_side): one whose flow waits on the page's own clocks."""
    made: dict[str, Any] = {}
    try:
        for size in sorted(SIZES):
            made[size] = open_context(browser, size)
        yield made
    finally:
        for fresh in made.values():
            fresh.close()


@pytest.fixture
def page(context: Any, server_url: str) -> Iterator[Any]:
    with served_page(context, server_url) as tab:
        yield tab
