"""The page in a real headless Chromium: a full tic-tac-toe game, a hexapawn game in which HER
loses a bead and her box shows it, a Teeko placement and a step, illegal clicks refused.  Each
test saves a screenshot to ./test-artifacts/.  The oracle is the rules API: the moves the page
shows are replayed with the game object and must give the board the page shows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gamelearn import get_game, make_player

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def screenshot(tab: Any, name: str) -> Path:
    """Saved as a test artifact (./test-artifacts/, ignored by git)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    tab.screenshot(path=str(path), full_page=True)
    return path


def rendered(tab: Any, view: dict) -> None:
    over = "yes" if view["over"] else "no"
    tab.wait_for_selector(f'#board[data-id="{view["id"]}"][data-plies="{len(view["moves"])}"][data-over="{over}"]')


def new_game(tab: Any, game: str, first: str, second: str, seed: int | None = None) -> dict:
    tab.select_option("#game-select", game)
    tab.fill("#first-player", first)
    tab.fill("#second-player", second)
    tab.fill("#seed", "" if seed is None else str(seed))
    with tab.expect_response(lambda r: r.url.endswith("/api/games") and r.request.method == "POST") as info:
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
    with tab.expect_response(lambda r: "/move" in r.url) as info:
        square(tab, names[-1]).click()
    response = info.value
    answer = response.json()
    if response.ok:
        rendered(tab, answer)
    return response.status, answer


def marks(tab: Any) -> str:
    return "".join(tab.eval_on_selector_all("#board .square", "els => els.map(e => e.dataset.mark)"))


def replay(game_name: str, moves: list[str]) -> Any:
    game = get_game(game_name)
    state = game.initial()
    for move in moves:
        state = game.play(state, move)
    return state


def test_a_full_tictactoe_game(page: Any) -> None:
    view = new_game(page, "tictactoe", "human", "random", seed=7)
    while not view["over"]:
        status, view = click_move(page, view, view["legal_moves"][-1])
        assert status == 200
    game = get_game("tictactoe")
    shown = page.eval_on_selector_all("#moves li", "els => els.map(e => e.textContent.split(' ')[1])")
    final = replay("tictactoe", shown)
    assert marks(page) == game.board(final) == view["board"]
    assert game.is_over(final) and game.winner(final) == view["winner"]
    assert page.text_content("#status") == view["result"]
    last = page.eval_on_selector_all("#board .square.last", "els => els.map(e => e.dataset.name)")
    assert last == [view["last_move"]]
    page.wait_for_selector("#gardner[data-letters]")
    assert len(page.get_attribute("#gardner", "data-letters") or "") >= 1
    screenshot(page, "tictactoe-full-game")


def test_her_loses_a_bead_and_her_box_shows_it(page: Any) -> None:
    hexapawn = get_game("hexapawn")
    white = make_player(hexapawn, "alphabeta:depth=9", seed=5)
    for seed in range(40):
        view = new_game(page, "hexapawn", "human", "her", seed=seed)
        while not view["over"]:
            state = hexapawn.from_board(marks(page), view["to_move"])
            status, view = click_move(page, view, white.choose(state))
            assert status == 200
        if view["winner"] == 0:
            break
    else:
        pytest.fail("HER never lost in 40 games")
    [lesson] = view["learning"]
    [change] = lesson["changes"]
    box, [bead] = change["box"], change["removed"]
    # The oracle: HER's last move in the record, seen in her box's orientation (seed 003's mirror).
    her_plies = [i for i in range(len(view["moves"])) if i % 2 == 1]
    before = replay("hexapawn", view["moves"][: her_plies[-1]])
    canonical, symmetry = hexapawn.canonical(before)
    assert box == hexapawn.board(canonical)
    assert bead == hexapawn.transform_move(view["moves"][her_plies[-1]], symmetry)
    shown = page.locator(f'.learner[data-kind="her"] .box.changed[data-box="{box}"]')
    shown.wait_for()
    ring = shown.locator(f'.bead.empty[data-move="{bead}"]')
    assert ring.count() == 1 and ring.is_visible()  # the empty ring where the bead was
    assert shown.locator("svg line[stroke-dasharray]").count() >= 1  # its arrow: faint and dashed
    text = page.text_content('.learner[data-kind="her"]') or ""
    assert f"bead {bead} taken out of box {box}" in text
    page.wait_for_function("document.querySelector('#gardner').dataset.letters.endsWith('L')")
    screenshot(page, "hexapawn-her-loses-a-bead")
    # Export: her boxes as JSON, without the bead; Reset: she forgets, in this browser.
    with page.expect_download() as download:
        page.click('.learner[data-kind="her"] a:has-text("Export JSON")')
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["kind"] == "her" and bead not in exported["boxes"][box]
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('.learner[data-kind="her"] button.reset')
    page.wait_for_function("document.querySelector('#message').textContent.includes('starts again from nothing')")
    assert page.evaluate("fetch('/api/learners').then(r => r.json())") == []


def test_analysis_shows_the_perfect_value_of_each_move(page: Any) -> None:
    view = new_game(page, "tictactoe", "human", "human")
    for name in ["0", "4", "8"]:
        status, view = click_move(page, view, name)
    page.check("#analysis-toggle")
    page.wait_for_selector("#analysis .mv, #analysis .unavailable")
    # Tic-tac-toe is solved on the spot: the analysis is always there.
    assert page.locator("#analysis .unavailable").count() == 0, page.text_content("#analysis")
    state = replay("tictactoe", view["moves"])
    game = get_game("tictactoe")

    def value(position: Any) -> int:  # a plain negamax, the oracle
        if game.is_over(position):
            return 0 if game.winner(position) is None else -1
        return max(-value(game.play(position, m)) for m in game.legal_moves(position))

    expected = {m: {1: "+", 0: "=", -1: "−"}[-value(game.play(state, m))] for m in game.legal_moves(state)}
    shown = {name: square(page, name).locator(".value").text_content() for name in expected}
    assert shown == expected and set(expected.values()) == {"=", "−"}
    screenshot(page, "tictactoe-analysis")


def test_teeko_placement_and_a_step(page: Any) -> None:
    view = new_game(page, "teeko", "human", "human")
    for name in ["00", "44", "01", "43", "10", "34", "13", "40"]:
        status, view = click_move(page, view, name)
        assert status == 200 and square(page, name).get_attribute("data-mark") in ("X", "O")
    assert all(len(m) == 4 for m in view["legal_moves"])  # all eight down: now pawns step
    status, view = click_move(page, view, "0011")
    assert status == 200
    assert square(page, "00").get_attribute("data-mark") == "."
    assert square(page, "11").get_attribute("data-mark") == "X"
    teeko = get_game("teeko")
    assert marks(page) == teeko.board(replay("teeko", view["moves"]))
    last = sorted(page.eval_on_selector_all("#board .square.last", "els => els.map(e => e.dataset.name)"))
    assert last == ["00", "11"]
    screenshot(page, "teeko-placement-and-step")


def test_illegal_clicks_are_refused_and_change_nothing(page: Any) -> None:
    view = new_game(page, "teeko", "human", "human")
    status, view = click_move(page, view, "22")
    before = marks(page)
    status, answer = click_move(page, view, "22")  # O clicks X's pawn: the server says no
    assert status == 400 and "occupied" in answer["detail"]
    page.wait_for_function("document.querySelector('#message').textContent.includes('occupied')")
    assert marks(page) == before and page.get_attribute("#board", "data-plies") == "1"
    for name in ["00", "01", "44", "02", "40", "04", "43"]:
        status, view = click_move(page, view, name)
    before = marks(page)
    # X to move in the moving phase: its pawn on 01 and a free square two rows down.
    assert view["to_move"] == 0 and before[1] == "X" and before[11] == "."
    status, answer = click_move(page, view, "0121")
    assert status == 400 and "too far" in answer["detail"]
    page.wait_for_function("document.querySelector('#message').textContent.includes('too far')")
    assert marks(page) == before
    # An empty square with no pawn picked: refused on the page from the server's legal moves.
    square(page, "33").click()
    page.wait_for_function("document.querySelector('#message').textContent.includes('Pick one of your pawns')")
    assert marks(page) == before and page.get_attribute("#board", "data-plies") == "8"
    screenshot(page, "illegal-click-refused")
