"""The review as an analysis board: from a position of a finished hexapawn game against HER,
another move clicked on the board (a pawn, then its square) is played by the server and kept as
a variation in the move list; the panel shows each move's perfect value (checked against a plain
negamax over the public rules API) and HER's own view; a move tried from the keyboard is a second
variation; arrow keys step along the line and a button leads back to the main line.  axe-core
finds nothing at either size in either theme; screenshots go to /tmp/shots-34ana as well."""

from __future__ import annotations

import shutil
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from browser_support import api_move, marks, new_game, rendered, replay, screenshot
from test_look import axe_problems

from gamelearn import get_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HEXAPAWN = get_game("hexapawn")
FIRST, SECOND = HEXAPAWN.symbols
SHOTS = Path("/tmp/shots-34ana")


@cache
def negamax(state) -> int:  # type: ignore[no-untyped-def]
    if HEXAPAWN.is_over(state):
        winner = HEXAPAWN.winner(state)
        return 0 if winner is None else 1 if winner == HEXAPAWN.to_move(state) else -1
    return max(-negamax(HEXAPAWN.play(state, m)) for m in HEXAPAWN.legal_moves(state))


def move_value(state, move: str) -> int:  # type: ignore[no-untyped-def]
    return -negamax(HEXAPAWN.play(state, move))


def shot(page: Any, name: str, size: str, scheme: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    shutil.copy(screenshot(page, f"{name}-{scheme}", size), SHOTS / f"{name}-{scheme}-{size}.png")


def panel_values(page: Any) -> dict[str, int]:
    rows = page.eval_on_selector_all(
        "#analysis-moves tr[data-move]",
        "els => els.map(e => [e.dataset.move, e.querySelector('.value')?.dataset.value ?? null])",
    )
    return {move: int(value) for move, value in rows if value is not None}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_variation_played_in_review_shows_perfect_values_and_leads_back(page: Any, size: str, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    view = new_game(page, "hexapawn", "human", "her", seed=4)
    while not view["over"]:
        view = api_move(page, view["id"], view["legal_moves"][0])
    main = view["moves"]
    page.reload()
    rendered(page, view)
    page.click("#review-open")
    page.wait_for_selector('#review[data-state="ready"]')
    branch = 2 if len(main) > 2 else 0  # the person (the first side) to move there
    page.click(f'#review-moves li[data-ply="{branch}"] button' if branch else "#review-first")
    page.wait_for_selector(f'#board[data-plies="{branch}"]')
    page.wait_for_selector("#analysis-moves tr[data-move]")
    state = replay("hexapawn", main[:branch])
    legal = HEXAPAWN.legal_moves(state)
    assert panel_values(page) == {m: move_value(state, m) for m in legal}
    tried = next(m for m in legal if m != main[branch])
    # Clicked as in a live game: the pawn, then its square.
    page.click(f'#board .square[data-name="{tried[0]}"]')
    page.wait_for_selector(f'#board .square.selected[data-name="{tried[0]}"]')
    page.click(f'#board .square[data-name="{tried[1]}"]')
    page.wait_for_selector('#review[data-line="variation"] #review-moves .node.current')
    after = HEXAPAWN.play(state, tried)
    assert marks(page) == HEXAPAWN.board(after)
    assert (page.text_content("#review-moves .node.current") or "").endswith(f"{FIRST} {tried}")
    caption = page.text_content("#review-caption") or ""
    assert caption.startswith(f"Variation, move {branch + 1}: {FIRST} {tried}")
    if not HEXAPAWN.is_over(after):
        page.wait_for_selector(f'#analysis-moves tr[data-move="{HEXAPAWN.legal_moves(after)[0]}"]')
        assert panel_values(page) == {m: move_value(after, m) for m in HEXAPAWN.legal_moves(after)}
        assert f"HER ({SECOND}), to move: box" in (page.text_content("#analysis-board .seat-view") or "")
        # A second move from the keyboard: the panel's first move, with Enter.
        reply = HEXAPAWN.legal_moves(after)[0]
        page.focus(f'#analysis-moves tr[data-move="{reply}"] button')
        page.keyboard.press("Enter")
        page.wait_for_selector(f'#board[data-plies="{branch + 2}"]')
        assert marks(page) == HEXAPAWN.board(HEXAPAWN.play(after, reply))
        page.focus("#review")
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector(f'#board[data-plies="{branch + 1}"]')
        assert marks(page) == HEXAPAWN.board(after)
    assert page.is_visible("#review-mainline")
    assert axe_problems(page) == []
    shot(page, "analysis-variation", size, scheme)
    page.click("#review-mainline")
    page.wait_for_selector('#review[data-line="main"]', state="attached")
    page.wait_for_selector(f'#board[data-plies="{branch}"]')
    assert marks(page) == HEXAPAWN.board(state)
    assert page.is_hidden("#review-mainline")
    page.keyboard.press("ArrowRight")  # along the main line again: the game's own move
    page.wait_for_selector(f'#board[data-plies="{branch + 1}"]')
    assert marks(page) == HEXAPAWN.board(HEXAPAWN.play(state, main[branch]))
    assert page.get_attribute(f'#review-moves li[data-ply="{branch + 1}"]', "aria-current") == "true"
    # the variation is still in the list, in brackets
    assert (page.text_content("#review-moves li.variations") or "").startswith("(")
    shot(page, "analysis-main", size, scheme)


def test_teekos_analysis_board_plays_without_its_table_and_says_so(page: Any, size: str) -> None:
    teeko = get_game("teeko")
    view = new_game(page, "teeko", "human", "thesis", seed=7)
    view = api_move(page, view["id"], "22")
    page.reload()
    rendered(page, view)
    page.click("#review-open")
    page.wait_for_selector('#review[data-state="ready"], #review[data-state="unavailable"]')
    built = page.get_attribute("#review", "data-state") == "ready"
    page.click('#review-moves li[data-ply="1"] button')
    page.wait_for_selector('#board[data-plies="1"]')
    page.wait_for_selector("#analysis-moves [data-move]")
    assert "thesis (O), to move: its memory holds" in (page.text_content("#analysis-board .seat-view") or "")
    state = replay("teeko", ["22"])
    tried = next(m for m in teeko.legal_moves(state) if m != view["moves"][1])
    page.click(f'#board .square[data-name="{tried}"]')  # a placement: one click
    page.wait_for_selector('#review[data-line="variation"]', state="attached")
    page.wait_for_selector('#board[data-plies="2"]')
    assert marks(page) == teeko.board(teeko.play(state, tried))
    page.wait_for_selector("#analysis-moves [data-move]")
    said = page.text_content("#analysis-board") or ""
    assert ("No perfect values here" in said) != built and "gamelearn solve" not in said
    assert "human (X), to move: human has no view of its own" in said
    assert axe_problems(page) == []
    shot(page, "analysis-teeko", size, "light")
