"""A link from another site costs nobody their games (docs/web.md, "Your learners, in your
browser"): a person plays at http://127.0.0.1:PORT/, a page of another site (a second server, a
process of its own on http://localhost:OTHER/, as a course page or a chat would be) links to that
game, the person clicks it, and the page opens on the same game with the same owner cookie, the
same learners and the same kept games; a reload keeps them too.  The oracle is what the person's
own browser held before the click (its cookie, and the server's answers to it)."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browser_support import api_move, free_port, new_game, rendered, screenshot, watched

from gamelearn.web.guards import OWNER_COOKIE

pytestmark = pytest.mark.browser


def owner_cookie(context: Any) -> dict:
    found = [cookie for cookie in context.cookies() if cookie["name"] == OWNER_COOKIE]
    assert len(found) == 1, found
    return dict(found[0])


def what_the_browser_has(tab: Any) -> dict:
    """The person's learners and kept games, asked by the page itself (its cookie)."""
    return dict(
        tab.evaluate(
            """async () => ({
                learners: await fetch("/api/learners").then(r => r.json()),
                records: await fetch("/api/records?game=tictactoe").then(r => r.json()),
            })"""
        )
    )


def another_site(folder: Path, link: str) -> tuple[subprocess.Popen[bytes], str]:
    """A page with a link to ``link``, served by a process of its own on localhost:OTHER."""
    (folder / "index.html").write_text(
        f'<!doctype html><title>A course page</title><p><a id="link" href="{link}">Our game</a></p>',
        encoding="utf-8",
    )
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://localhost:{port}/"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                assert b'id="link"' in answer.read()
            return server, url
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                pytest.fail("the other site's server did not start within 30 s")
            time.sleep(0.1)


def test_a_link_from_another_site_keeps_the_persons_games_and_learners(
    context: Any, server_url: str, size: str, tmp_path: Path
) -> None:
    tab = context.new_page()
    failures, _ = watched(tab, server_url)
    tab.goto(server_url + "/")
    tab.wait_for_selector('#board[data-id]:not([data-id=""]) .square', timeout=60_000)
    # A finished game against this browser's MENACE (it learns, and the game is kept), then one in play.
    finished = new_game(tab, "tictactoe", "human", "menace", seed=3)
    while not finished["over"]:
        finished = api_move(tab, finished["id"], finished["legal_moves"][-1])
    playing = new_game(tab, "tictactoe", "human", "menace", seed=4)
    playing = api_move(tab, playing["id"], "4")
    before = what_the_browser_has(tab)
    assert [learner["kind"] for learner in before["learners"]] == ["menace"]
    assert len(before["records"]) == 1
    cookie = owner_cookie(context)
    assert cookie["sameSite"] == "Lax" and cookie["httpOnly"]

    link = f"{server_url}/?id={playing['id']}"
    site, site_url = another_site(tmp_path, link)
    try:
        tab.goto(site_url)
        with tab.expect_navigation(url=link):
            tab.click("#link")  # a top-level navigation from another site (localhost is not 127.0.0.1)
        # the page settles on the game, or says it is gone (what a new owner id got before)
        tab.wait_for_selector('#board[data-locked="no"][data-id]:not([data-id=""]), #status:text("This game is gone")')
        assert "gone" not in (tab.text_content("#status") or "")
        rendered(tab, playing)
        assert tab.text_content("#status") == "Your move (X)"
        assert owner_cookie(context)["value"] == cookie["value"]
        assert what_the_browser_has(tab) == before
        screenshot(tab, "link-from-another-site", size)
        tab.reload()
        rendered(tab, playing)
        assert owner_cookie(context)["value"] == cookie["value"]
        assert what_the_browser_has(tab) == before
        # and the game goes on, as the person's own
        after = api_move(tab, playing["id"], playing["legal_moves"][0])
        assert after["moves"][: len(playing["moves"])] == playing["moves"] and len(after["moves"]) > len(
            playing["moves"]
        )
    finally:
        site.terminate()
        site.wait(timeout=10)
        tab.close()
    assert not failures, failures
