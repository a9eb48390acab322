"""The review: a finished game stepped through move by move, each move graded
against perfect play and the best move drawn, each position's exact value on the bar; Teeko's
review says how to get its table and offers to build it with a progress bar.  The oracle is a
plain negamax over the public rules API."""

from __future__ import annotations

import threading
from functools import cache
from typing import Any

import pytest
from browser_support import api_move, new_game, rendered, screenshot

from gamelearn import get_game

pytestmark = pytest.mark.browser

TTT = get_game("tictactoe")
#: A game in which X, winning after 0 1 2 3 5 4, plays 6 and lets O win on 7 (the oracle checks it).
WITH_A_BLUNDER = ["0", "1", "2", "3", "5", "4", "6", "7"]


@cache
def negamax(state) -> int:  # type: ignore[no-untyped-def]
    if TTT.is_over(state):
        return 0 if TTT.winner(state) is None else -1
    return max(-negamax(TTT.play(state, m)) for m in TTT.legal_moves(state))


def oracle_grade(state, move: str) -> str:  # type: ignore[no-untyped-def]
    drop = negamax(state) - (-negamax(TTT.play(state, move)))
    return {2: "blunder", 1: "mistake"}.get(drop, "best|keeps")


def test_a_review_grades_each_move_and_draws_the_best_one(page: Any, size: str) -> None:
    view = new_game(page, "tictactoe", "human", "human")
    for move in WITH_A_BLUNDER:
        view = api_move(page, view["id"], move)
    assert view["over"] and view["winner"] == 1
    page.reload()
    rendered(page, view)
    page.click("#review-open")
    page.wait_for_selector('#review[data-state="ready"]')
    grades = page.eval_on_selector_all("#review-moves li[data-ply]", "els => els.map(e => e.dataset.grade)")
    states = [TTT.initial()]
    for move in WITH_A_BLUNDER:
        states.append(TTT.play(states[-1], move))
    assert len(grades) == len(WITH_A_BLUNDER)
    for state, move, grade in zip(states, WITH_A_BLUNDER, grades, strict=False):
        assert grade in oracle_grade(state, move).split("|")
    assert grades[6] == "blunder"
    page.click('#review-moves li[data-ply="7"] button')
    page.wait_for_selector('#review-caption[data-grade="blunder"]')
    caption = page.text_content("#review-caption") or ""
    assert caption.startswith("Move 7: X 6, blunder")
    best = page.get_attribute("#board svg.overlay", "data-best")
    assert best and -negamax(TTT.play(states[6], best)) == 1  # the arrow's move keeps X's win
    assert page.get_attribute("#board", "data-plies") == "7"
    shown = "".join(
        m
        for _, m in sorted(
            page.eval_on_selector_all(
                "#board .square", "els => els.map(e => [Number(e.dataset.square), e.dataset.mark])"
            )
        )
    )
    assert shown == TTT.board(states[7])
    value = negamax(states[7])  # for O, to move there
    assert page.get_attribute("#eval", "data-value") == str(-value)
    screenshot(page, "review-blunder", size)
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#board[data-plies="6"]')
    assert page.get_attribute("#eval", "data-value") == str(negamax(states[6]))  # X to move: X's side
    # The last position lights the line O won on, as the game's end does.
    page.click("#review-last")
    page.wait_for_selector('#board[data-plies="8"] .square.winning')
    lit = page.eval_on_selector_all("#board .square.winning", "els => els.map(e => Number(e.dataset.square))")
    assert sorted(lit) == sorted(TTT.winning_squares(states[8])) == [1, 4, 7]
    screenshot(page, "review-last-lit", size)
    page.click("#review-close")
    page.wait_for_selector("#review[hidden]", state="attached")
    rendered(page, view)


def test_teekos_review_offers_to_build_its_table_with_a_progress_bar(
    page: Any, size: str, web_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's side of a build: the real Teeko build takes about 20 s and 300 MB, so here a
    builder reports the real build's stages level by level, as the test lets it, and then fails;
    the page must show each state as the server reports it, one estimate, and a bar that moves."""
    step = threading.Semaphore(0)

    def builder(progress) -> None:  # type: ignore[no-untyped-def]
        progress("counting moves", 1, 1)
        for level in (10, 20, 30):
            step.acquire(timeout=20)
            progress("retrograde analysis", level, level + 1)
        step.acquire(timeout=20)
        raise RuntimeError("stopped by the test")

    monkeypatch.setitem(web_app.state.service.tables.builders, "teeko", builder)
    monkeypatch.setattr(web_app.state.service.tables, "_jobs", {})  # the other size's failed build forgotten
    view = new_game(page, "teeko", "human", "human")
    view = api_move(page, view["id"], "22")
    page.reload()
    rendered(page, view)
    page.click("#review-open")
    page.wait_for_selector('#review[data-state="unavailable"]')
    page.wait_for_selector("#table-build:not([hidden])")  # offered once the table status is in
    said = (page.text_content("#review-summary") or "") + (page.text_content("#table-status") or "")
    assert "about 20 s" in said and "300 MB" in said
    assert "gamelearn solve" not in said and "well under a minute" not in said  # one estimate, no shell
    page.click("#table-build")
    values = []
    for _ in range(3):
        step.release()
        page.wait_for_function(
            "v => Number(document.querySelector('#table-progress').value) > v", arg=values[-1] if values else 0.05
        )
        values.append(float(page.get_attribute("#table-progress", "value") or 0))
    assert page.is_visible("#table-progress") and values == sorted(values) and 0 < values[0] < values[-1] < 1
    status = page.text_content("#table-status") or ""
    assert "retrograde analysis" in status and "s so far" in status and "s left" in status
    screenshot(page, "teeko-table-build", size)
    step.release()
    page.wait_for_selector('#table-status:has-text("the build failed: stopped by the test")')
    assert not page.is_visible("#table-progress")


def test_teeko_against_perfect_without_its_table_offers_the_build_where_the_player_is_chosen(
    page: Any, size: str, web_app: Any, built_teeko_table: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No game runs that the person did not ask for: the game shown before goes, the form offers
    the build beside the player, and the game asked for starts once the table is there.  The
    build here puts the run's table (built once, tests/conftest.py) where the server reads it."""
    from gamelearn.solver.teeko import default_path

    def builder(progress) -> None:  # type: ignore[no-untyped-def]
        progress("counting moves", 1, 1)
        target = default_path()
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(built_teeko_table)
        progress("placing phase", 1, 1)

    monkeypatch.setitem(web_app.state.service.tables.builders, "teeko", builder)
    monkeypatch.setattr(web_app.state.service.tables, "_jobs", {})
    new_game(page, "teeko", "human", "thesis", seed=1)  # a game against the thesis program first
    page.fill("#second-player", "perfect")
    with page.expect_response(lambda r: r.url.endswith("/api/games") and r.request.method == "POST") as info:
        page.click("#new-game")
    assert info.value.status == 400 and info.value.json()["table"] == "teeko"
    page.wait_for_selector("#setup-table-build:not([hidden])")
    status = page.text_content("#status") or ""
    assert status.startswith("No game yet") and "perfect" in status
    assert page.locator("#board .square").count() == 0  # the thesis game is not left on the board
    assert page.is_hidden("#takeback") or page.is_disabled("#takeback")
    offered = page.text_content("#setup-table") or ""
    assert "about 20 s" in offered and "300 MB" in offered
    assert "gamelearn solve" not in offered + status and "data directory" not in offered + status
    screenshot(page, "teeko-perfect-needs-table", size)
    with page.expect_response(lambda r: r.url.endswith("/api/games") and r.request.method == "POST") as info:
        page.click("#setup-table-build")
    view = info.value.json()
    assert info.value.status == 200 and view["players"] == ["human", "perfect"]
    rendered(page, view)
    assert page.is_hidden("#setup-table")
    screenshot(page, "teeko-perfect-started", size)
