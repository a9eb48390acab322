"""The controls and the player picker: take back, resign, a new game with
the same players, flip, the rules on the page; players chosen by kind and options from the
server's list, the spec shown, and a spec typed by hand."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import click_move, current_view, is_start, marks, new_game, rendered, screenshot

from gamelearn import get_game

pytestmark = pytest.mark.browser


def test_take_back_resign_new_game_flip_and_the_rules(page: Any, size: str) -> None:
    view = new_game(page, "tictactoe", "human", "menace", seed=5)
    assert page.is_disabled("#takeback")
    status, view = click_move(page, view, "4")
    status, view = click_move(page, view, view["legal_moves"][0])
    with page.expect_response(lambda r: r.url.endswith("/takeback")) as info:
        page.click("#takeback")
    back = info.value.json()
    rendered(page, back)
    assert back["moves"] == view["moves"][:2] and page.text_content("#status") == "Your move (X)"
    assert marks(page) == get_game("tictactoe").board(
        get_game("tictactoe").play(get_game("tictactoe").play(get_game("tictactoe").initial(), "4"), back["moves"][1])
    )
    # Flip: the board drawn the other way round, square 8 first; the marks stay on their squares.
    page.click("#flip")
    page.wait_for_selector('#board[data-flipped="yes"]')
    first = page.eval_on_selector_all("#board .square", "els => els.map(e => e.dataset.name)")
    assert first == [str(i) for i in range(8, -1, -1)] and marks(page) == back["board"]
    # The rules, as the server states them.
    page.click("#rules > summary")
    rules = [g for g in page.evaluate("fetch('/api/games').then(r => r.json())") if g["name"] == "tictactoe"][0][
        "rules"
    ]
    assert page.text_content("#rules-text") == rules and page.is_visible("#rules-text")
    screenshot(page, "controls-flipped-rules", size)
    # Resign: two clicks, and the computer wins.
    page.click("#resign")
    assert "Really" in (page.text_content("#resign") or "")
    with page.expect_response(lambda r: r.url.endswith("/resign")) as info:
        page.click("#resign")
    over = info.value.json()
    rendered(page, over)
    assert over["winner"] == 1 and page.text_content("#status") == "You resigned"
    # A new game with the same players.
    with page.expect_response(is_start) as info:
        page.click("#rematch")
    again = info.value.json()
    rendered(page, again)
    assert again["players"] == ["human", "menace"] and again["id"] != view["id"] and again["id"] in page.url


def test_the_picker_builds_the_spec_from_the_servers_options(page: Any, size: str) -> None:
    if not page.evaluate("document.querySelector('#setup').open"):
        page.click("#setup > summary")
    page.wait_for_selector('#setup[data-ready="yes"]', state="attached")  # its controls have loaded
    with page.expect_response(is_start) as info:
        page.select_option("#game-select", "hexapawn")
    rendered(page, info.value.json())
    games = {g["name"]: g for g in page.evaluate("fetch('/api/games').then(r => r.json())")}
    kinds = page.eval_on_selector_all("#second-kind option", "els => els.map(e => e.value)")
    assert kinds == [p["name"] for p in games["hexapawn"]["players"]]
    page.select_option("#second-kind", "alphabeta")
    depth = next(
        o
        for o in next(p for p in games["hexapawn"]["players"] if p["name"] == "alphabeta")["options"]
        if o["name"] == "depth"
    )
    field = page.locator("#second-opt-depth")
    assert field.get_attribute("max") == str(depth["max"]) and field.get_attribute("placeholder") == str(
        depth["default"]
    )
    assert page.input_value("#second-player") == "alphabeta"
    field.fill("3")
    assert page.input_value("#second-player") == "alphabeta:depth=3"
    page.fill("#second-opt-eval", "material")  # a free-text option, its default as placeholder
    assert page.input_value("#second-player") == "alphabeta:depth=3,eval=material"
    built = page.input_value("#second-player")
    screenshot(page, "picker", size)
    with page.expect_response(is_start) as info:
        page.click("#new-game")
    view = info.value.json()
    rendered(page, view)
    assert view["players"] == ["human", built]
    # A spec typed by hand sets the controls it can show.
    page.fill("#second-player", "minimax:depth=2")
    assert page.input_value("#second-kind") == "minimax" and page.input_value("#second-opt-depth") == "2"
    # A bad spec is refused in the server's one line, cut short.
    page.fill("#second-player", "her:" + "x" * 300)
    with page.expect_response(is_start):
        page.click("#new-game")
    page.wait_for_selector('#message:has-text("characters)")')
    assert len(page.text_content("#message") or "") <= 300
    assert current_view(page)["id"] == view["id"]


def test_the_picker_shows_each_games_own_defaults_and_no_empty_ones_as_null(page: Any, size: str) -> None:
    """ntuple's step, TCL and search depend on the game: the picker shows the game's (TCL on for
    Teeko, off for tic-tac-toe), an option with no default (Teeko's node cap) an empty field, and
    the spec stays the bare kind until something is changed."""
    if not page.evaluate("document.querySelector('#setup').open"):
        page.click("#setup > summary")
    page.wait_for_selector('#setup[data-ready="yes"]', state="attached")
    for game, tcl in (("teeko", "on"), ("tictactoe", "off")):
        with page.expect_response(is_start) as info:
            page.select_option("#game-select", game)
        rendered(page, info.value.json())
        page.select_option("#second-kind", "ntuple")
        assert page.input_value("#second-player") == "ntuple"
        assert page.eval_on_selector("#second-opt-tcl", "e => e.selectedOptions[0].text") == f"{tcl} (default)"
        placeholders = page.eval_on_selector_all("#second-options input", "els => els.map(e => e.placeholder)")
        assert not {"null", "None", "undefined"} & set(placeholders)
        assert page.get_attribute("#second-opt-search", "placeholder") == ("8" if game == "teeko" else "1")
        assert (page.locator("#second-opt-nodes").count() == 1) == (game == "teeko")
        if game == "teeko":
            assert page.get_attribute("#second-opt-nodes", "placeholder") == ""
            screenshot(page, "picker-ntuple-defaults", size)
        assert page.input_value("#second-player") == "ntuple"
