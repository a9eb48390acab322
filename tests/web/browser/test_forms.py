"""Teeko's forms on the page, in Chromium at 1280x800 and 390x844: the form picked with
the picker's controls starts that form (the spec it builds is shown and sent), the header and the
rules say the form, an Alternate drop round says whose pawn the click places, a knight form dots
knight targets, and an Advanced goal is lit at the end.  The oracle is the rules API."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import api_move, click_move, is_start, marks, rendered, replay, screenshot, square

from gamelearn import get_game

pytestmark = pytest.mark.browser


def open_setup(page: Any) -> None:
    if not page.evaluate("document.querySelector('#setup').open"):
        page.click("#setup > summary")  # folded on a phone, so the board comes first
    # its controls load when it first opens: the page says when they are ready
    page.wait_for_selector('#setup[data-ready="yes"]', state="attached")


def choose_teeko(page: Any) -> None:
    """Teeko chosen in the Game select (which starts its standard form at once)."""
    open_setup(page)
    with page.expect_response(is_start) as info:
        page.select_option("#game-select", "teeko")
    rendered(page, info.value.json())


def start_pressed(page: Any) -> dict:
    with page.expect_response(is_start) as info:
        page.click("#new-game")
    view = info.value.json()
    rendered(page, view)
    return view


def test_a_form_picked_is_played_and_an_alternate_drop_places_the_other_pawn(page: Any, size: str) -> None:
    choose_teeko(page)
    assert page.is_visible("#form-picker") and page.input_value("#game-spec") == "teeko"
    assert page.input_value("#second-player") == "thesis"
    page.select_option("#form-opt-goals", "advanced")
    page.select_option("#form-opt-drops", "aaaa")
    page.select_option("#form-opt-steps", "knight")
    spec = "teeko:goals=advanced,drops=aaaa,steps=knight"
    assert page.input_value("#game-spec") == spec
    assert page.input_value("#second-player") == "alphabeta"  # the thesis plays the standard form only
    assert "a the opponent does" in page.text_content("#form-help")
    page.fill("#second-player", "alphabeta:depth=1")
    page.fill("#seed", "7")
    view = start_pressed(page)
    assert view["spec"] == spec and view["players"] == ["human", "alphabeta:depth=1"]
    # The computer (O) chose X's first square; now the person places O's pawn.
    assert len(view["moves"]) == 1 and view["pawn_side"] == 1
    assert page.text_content("#status") == "Place O's pawn (you choose for O)"
    assert page.text_content("#players-line").endswith("teeko · advanced goals, alternate drops, knight steps")
    assert page.title().startswith("teeko · advanced goals")
    if not page.evaluate("document.querySelector('#rules').open"):
        page.click("#rules > summary")
    assert "drops=aaaa" in page.text_content("#rules-form") and "OPPONENT chooses" in page.text_content("#rules-text")
    free = next(name for name in ("22", "12", "32") if name in view["legal_moves"])
    status, view = click_move(page, view, free)
    assert status == 200 and view["moves"][1] == free and len(view["moves"]) == 3  # then the computer placed X's
    state = replay(spec, view["moves"])
    game = get_game(spec)
    assert marks(page) == game.board(state) and marks(page)[int(free[0]) * 5 + int(free[1])] == "O"
    assert page.text_content("#status") == "Place O's pawn (you choose for O)"
    assert page.text_content("#message") == f"alphabeta put your pawn on {view['moves'][2]}."
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    screenshot(page, "forms-alternate", size)


def test_a_knight_form_dots_knight_jumps_and_an_advanced_goal_is_lit(page: Any, size: str) -> None:
    choose_teeko(page)
    page.fill("#game-spec", "teeko:goals=advanced,steps=knight")
    assert page.input_value("#form-opt-goals") == "advanced" and page.input_value("#form-opt-steps") == "knight"
    page.fill("#first-player", "human")
    page.fill("#second-player", "human")
    view = start_pressed(page)
    assert view["spec"] == "teeko:goals=advanced,steps=knight"
    for name in ["00", "11", "02", "13", "20", "31", "41", "34"]:
        view = api_move(page, view["id"], name)
    page.reload()
    rendered(page, view)
    square(page, "00").click()
    page.wait_for_selector('#board .square.selected[data-name="00"]')
    dotted = set(page.eval_on_selector_all("#board .square.target", "els => els.map(e => e.dataset.name)"))
    assert dotted == {move[2:] for move in view["legal_moves"] if move.startswith("00")} == {"12", "21"}
    screenshot(page, "forms-knight", size)
    square(page, "00").click()  # put down again; click_move picks it up
    status, view = click_move(page, view, "0012")
    assert status == 200 and marks(page)[7] == "X"
    # An Advanced goal: X on the corners of the 3x3 square 00-22 (not a goal of the standard form).
    open_setup(page)
    page.fill("#game-spec", "teeko:goals=advanced")
    view = start_pressed(page)
    for name in ["00", "44", "02", "43", "20", "34"]:
        view = api_move(page, view["id"], name)
    page.reload()
    rendered(page, view)
    status, view = click_move(page, view, "22")
    assert status == 200 and view["over"]
    lit = set(page.eval_on_selector_all("#board .square.winning", "els => els.map(e => e.dataset.name)"))
    assert lit == {"00", "02", "20", "22"}
    assert page.text_content("#status") == "X wins: four on the corners of a 3x3 square"
    assert page.text_content("#players-line").endswith("teeko · advanced goals")
    screenshot(page, "forms-advanced-win", size)


def test_an_address_naming_a_form_opens_on_it_with_players_that_play_it(page: Any, server_url: str) -> None:
    with page.expect_response(is_start) as info:
        page.goto(server_url + "/?game=teeko:centre=off")
    view = info.value.json()
    rendered(page, view)
    assert view["spec"] == "teeko:centre=off" and view["players"] == ["human", "alphabeta"]
    assert "22" not in view["legal_moves"] and page.text_content("#players-line").endswith("teeko · centre off")
    status, answer = click_move(page, view, "22")  # the rules' own refusal, said in one line
    assert status == 400 and "centre" in page.text_content("#message")
