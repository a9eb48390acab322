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
from browser_support import api_move, click_move, marks, new_game, rendered, replay, screenshot
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


TICTACTOE = get_game("tictactoe")


@cache
def outcome(state) -> tuple[int, int | None]:  # type: ignore[no-untyped-def]
    """(value, distance) for the side to move, by a plain negamax: the winner hurries, the loser
    holds out; a draw has no distance.  The oracle of the page's "X wins in N"."""
    if TICTACTOE.is_over(state):
        return (0, None) if TICTACTOE.winner(state) is None else (-1, 0)
    results = [move_outcome(state, m) for m in TICTACTOE.legal_moves(state)]
    return max(results, key=lambda r: (2, -(r[1] or 0)) if r[0] > 0 else (1, 0) if r[0] == 0 else (0, r[1] or 0))


def move_outcome(state, move: str) -> tuple[int, int | None]:  # type: ignore[no-untyped-def]
    value, distance = outcome(TICTACTOE.play(state, move))
    return -value, None if distance is None else distance + 1


def value_words(state, move: str) -> str:  # type: ignore[no-untyped-def]
    value, distance = move_outcome(state, move)
    mover = TICTACTOE.to_move(state)
    if value == 0:
        return "= draw"
    winner = TICTACTOE.symbols[mover if value > 0 else 1 - mover]
    return f"{'+' if value > 0 else '−'} {winner} wins in {distance}"


#: WCAG 2's contrast of the evaluation bar's shares (the first side's fill, the other's ground)
#: against the page and against each other.
BAR_CONTRAST = """() => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (x, y) => { const [a, b] = [lum(rgb(x)), lum(rgb(y))].sort((p, q) => q - p); return (a + 0.05) / (b + 0.05); };
  const back = (id) => getComputedStyle(document.getElementById(id)).backgroundColor;
  const page = getComputedStyle(document.body).backgroundColor;
  return [ratio(back("eval-fill"), page), ratio(back("eval"), page), ratio(back("eval-fill"), back("eval"))];
}"""


def columns(page: Any) -> dict[str, set[int]]:
    """The x of each main-line move's cell in the move list, by the side that played it."""
    cells = page.eval_on_selector_all(
        "#review-moves li[data-ply]",
        "els => els.map(e => [e.dataset.side, Math.round(e.getBoundingClientRect().left)])",
    )
    found: dict[str, set[int]] = {"0": set(), "1": set()}
    for side, left in cells:
        found[side].add(left)
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_move_list_keeps_its_columns_and_each_value_says_how_far_the_end_is(
    page: Any, size: str, scheme: str
) -> None:
    page.emulate_media(color_scheme=scheme)
    main = ["4", "0", "8", "2", "1"]  # X's, then O's, alternately
    view = new_game(page, "tictactoe", "human", "human")
    for played in main:
        view = api_move(page, view["id"], played)
    page.reload()
    rendered(page, view)
    page.check("#analysis-toggle")
    page.click("#review-open")
    page.wait_for_selector('#review[data-state="ready"]')
    # A variation where X moved (move 3): the main line's next move, O's, stays in O's column.
    page.click('#review-moves li[data-ply="2"] button')
    page.wait_for_selector('#board[data-plies="2"]')
    page.wait_for_selector("#analysis-moves tr[data-move]")
    state = replay("tictactoe", main[:2])
    tried = "6"
    page.click(f'#board .square[data-name="{tried}"]')
    page.wait_for_selector('#review[data-line="variation"] #review-moves .node.current')
    after = TICTACTOE.play(state, tried)
    texts = page.eval_on_selector_all("#review-moves li[data-ply] .mv", "els => els.map(e => e.textContent)")
    assert texts == [f"{TICTACTOE.symbols[i % 2]} {m}" for i, m in enumerate(main)]
    where = columns(page)
    assert len(where["0"]) == 1 and len(where["1"]) == 1 and min(where["0"]) < min(where["1"]), where
    # Every value with its distance, as a plain negamax has it; the best line starts with a best move.
    page.wait_for_selector(f'#analysis-moves tr[data-move="{TICTACTOE.legal_moves(after)[0]}"]')
    shown = dict(
        page.eval_on_selector_all(
            "#analysis-moves tr[data-move]",
            "els => els.map(e => [e.dataset.move, e.querySelector('.value').textContent])",
        )
    )
    assert shown == {m: value_words(after, m) for m in TICTACTOE.legal_moves(after)}
    assert any(" wins in " in text for text in shown.values())
    best = max(move_outcome(after, m)[0] for m in TICTACTOE.legal_moves(after))
    line = page.text_content("#analysis-moves .best-line .line") or ""
    first = line.split()[2]  # "4. O 3 …": ply, side, move
    assert line.startswith(f"4. {TICTACTOE.symbols[1]} ") and move_outcome(after, first)[0] == best
    # The status line and the values under the board speak of the position shown, not the game's.
    assert (page.text_content("#status") or "").startswith(f"Variation, move 3: {TICTACTOE.symbols[1]} to move")
    # (the line under the board is asked for before the review; a phone sets it aside meanwhile)
    page.wait_for_selector(f'#analysis .mv[data-move="{TICTACTOE.legal_moves(after)[0]}"]', state="attached")
    assert f"for {TICTACTOE.symbols[1]} to move" in (page.text_content("#analysis") or "")
    assert page.eval_on_selector_all("#analysis .mv", "els => els.map(e => e.dataset.move)") == TICTACTOE.legal_moves(
        after
    )
    # The variation's caption is as precise as the main line's: which loss, and the best moves.
    caption = page.text_content("#review-caption") or ""
    if move_outcome(state, tried)[0] < max(move_outcome(state, m)[0] for m in TICTACTOE.legal_moves(state)):
        assert "thrown to a" in caption and "Best was" in caption, caption
    # The dark page's evaluation bar: its two shares 3:1 or more against the page and each other.
    if scheme == "dark":
        bar = page.evaluate(BAR_CONTRAST)
        assert min(bar) >= 3, bar
    assert axe_problems(page) == []
    shot(page, "analysis-columns", size, scheme)
    # lichess's keys, the focus anywhere but on a control: Home, End, ↑, ↓, ←, →.
    page.focus("#review")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#board[data-plies="2"]')
    page.keyboard.press("End")  # the end of the line: from where the variation left, the main line's
    page.wait_for_selector(f'#board[data-plies="{len(main)}"]')
    page.keyboard.press("Home")
    page.wait_for_selector('#board[data-plies="0"]')
    page.keyboard.press("ArrowUp")
    page.wait_for_selector('#board[data-plies="0"]')
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#board[data-plies="1"]')
    page.keyboard.press("ArrowDown")
    page.wait_for_selector(f'#board[data-plies="{len(main)}"]')
    assert marks(page) == TICTACTOE.board(replay("tictactoe", main))
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f'#board[data-plies="{len(main) - 1}"]')


def test_a_game_in_play_can_be_stepped_back_through_without_leaving_it(page: Any, size: str) -> None:
    view = new_game(page, "tictactoe", "human", "human")
    for played in ["4", "0", "8"]:
        view = api_move(page, view["id"], played)
    page.reload()
    rendered(page, view)
    page.focus("#moves")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector('#board[data-plies="2"]')
    assert marks(page) == TICTACTOE.board(replay("tictactoe", view["moves"][:2]))
    assert (page.text_content("#status") or "").startswith("Move 2 of 3: X to move (looking back")
    assert page.get_attribute('#moves li[data-ply="2"]', "aria-current") == "true"
    page.keyboard.press("Home")
    page.wait_for_selector('#board[data-plies="0"]')
    assert marks(page) == TICTACTOE.board(TICTACTOE.initial())
    page.click("#moves-next")
    page.wait_for_selector('#board[data-plies="1"]')
    assert page.is_hidden("#review")  # still the game in play, not its review
    screenshot(page, "play-looking-back", size)
    page.click("#moves-now")  # the game as it is, to play on
    page.wait_for_selector('#board[data-plies="3"][data-locked="no"]')
    assert marks(page) == TICTACTOE.board(replay("tictactoe", view["moves"]))
    status, view = click_move(page, view, "2")
    assert status == 200 and view["moves"][-1] == "2"
