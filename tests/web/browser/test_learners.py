"""The learners on the page: HER loses a bead and her box shows it (Gardner's hexapawn), a lesson in
red only when the learner lost, Reset empties the panel at once, and the perfect values of each
move on the board.  Oracles: the rules API replaying the game, a plain negamax."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_support import api_move, click_move, new_game, rendered, replay, screenshot, square

from gamelearn import get_game, make_player

pytestmark = pytest.mark.browser


def test_her_loses_a_bead_her_box_shows_it_and_reset_empties_the_panel(page: Any, size: str) -> None:
    hexapawn = get_game("hexapawn")
    white = make_player(hexapawn, "alphabeta:depth=9", seed=5)
    for seed in range(40):
        view = new_game(page, "hexapawn", "human", "her", seed=seed)
        while not view["over"]:  # White's moves sent by the page's fetch; the last one clicked
            move = white.choose(hexapawn.from_board(view["board"], view["to_move"]))
            if hexapawn.is_over(hexapawn.play(hexapawn.from_board(view["board"], view["to_move"]), move)):
                page.reload()
                rendered(page, view)
                status, view = click_move(page, view, move)
                assert status == 200
            else:
                view = api_move(page, view["id"], move)
        if view["winner"] == 0:
            break
    else:
        pytest.fail("HER never lost in 40 games")
    [lesson] = view["learning"]
    [change] = lesson["changes"]
    box, [bead] = change["box"], change["removed"]
    # The oracle: HER's last move in the record, seen in her box's orientation.
    her_plies = [i for i in range(len(view["moves"])) if i % 2 == 1]
    before = replay("hexapawn", view["moves"][: her_plies[-1]])
    canonical, symmetry = hexapawn.canonical(before)
    assert box == hexapawn.board(canonical)
    assert bead == hexapawn.transform_move(view["moves"][her_plies[-1]], symmetry)
    shown = page.locator(f'.learner[data-kind="her"] .box.changed[data-box="{box}"]')
    shown.wait_for()
    ring = shown.locator(f'.bead.empty[data-move="{bead}"]')
    assert ring.count() == 1 and ring.is_visible()
    assert shown.locator("svg line[stroke-dasharray]").count() >= 1
    lesson_line = page.locator('.learner[data-kind="her"] .learned', has_text=f"bead {bead} taken out of box {box}")
    assert "lost" in (lesson_line.get_attribute("class") or "")  # red: she lost this game
    assert page.text_content("#status") in (
        "You win: a pawn reached the far row",
        "You win: every pawn taken",
        "You win: B cannot move",
    )
    page.wait_for_selector('#gardner[data-letters$="L"]')
    screenshot(page, "hexapawn-her-loses-a-bead", size)
    with page.expect_download() as download:
        page.click('.learner[data-kind="her"] a:has-text("Export JSON")')
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["kind"] == "her" and bead not in exported["boxes"][box]
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('.learner[data-kind="her"] button.reset')
    page.wait_for_selector('.learner[data-kind="her"] .reset-note')  # at once, before any new game
    assert page.locator('.learner[data-kind="her"] .box').count() == 0
    assert page.evaluate("fetch('/api/learners').then(r => r.json())") == []


def test_a_lesson_is_red_only_when_the_learner_lost(page: Any, size: str) -> None:
    ttt = get_game("tictactoe")
    classes = None
    for seed in range(30):
        view = new_game(page, "tictactoe", "human", "menace", seed=seed)
        while not view["over"]:
            view = api_move(page, view["id"], view["legal_moves"][-1])  # a careless X
        if view["winner"] == 1:
            page.reload()
            rendered(page, view)
            classes = page.eval_on_selector_all(
                '.learner[data-kind="menace"] .learned', "els => els.map(e => e.className)"
            )
            break
    else:
        pytest.fail("MENACE never won against the last legal move in 30 games")
    assert classes and all("lost" not in c for c in classes)  # it won: its lesson is not red
    assert page.text_content("#status") == "MENACE wins: three in a row"
    assert ttt.winner(replay("tictactoe", view["moves"])) == 1
    # MENACE played O in every game: its first-box chart follows a box after X's opening, not the
    # empty board it never met, and draws a line per move in it.
    # (attached: a line that does not move is flat, which Playwright does not count as visible)
    chart = page.wait_for_selector('.learner[data-kind="menace"] .first-box[data-box] svg polyline', state="attached")
    assert chart is not None
    box = page.get_attribute('.learner[data-kind="menace"] .first-box', "data-box")
    assert box and box != "........." and box.count("X") == 1 and "O" not in box
    assert "plays second here" in (page.text_content('.learner[data-kind="menace"] .first-box .caption') or "")
    page.wait_for_selector("#curve svg polyline", state="attached")
    screenshot(page, "menace-wins-lesson", size)


def test_analysis_shows_the_perfect_value_of_each_move(page: Any, size: str) -> None:
    view = new_game(page, "tictactoe", "human", "human")
    for name in ["0", "4", "8"]:
        status, view = click_move(page, view, name)
    page.check("#analysis-toggle")
    page.wait_for_selector("#analysis .mv")
    state = replay("tictactoe", view["moves"])
    game = get_game("tictactoe")

    def value(position: Any) -> int:  # a plain negamax, the oracle
        if game.is_over(position):
            return 0 if game.winner(position) is None else -1
        return max(-value(game.play(position, m)) for m in game.legal_moves(position))

    expected = {m: {1: "+", 0: "=", -1: "−"}[-value(game.play(state, m))] for m in game.legal_moves(state)}
    page.wait_for_selector("#board .square .value")
    shown = {name: square(page, name).locator(".value").text_content() for name in expected}
    assert shown == expected and set(expected.values()) == {"=", "−"}
    screenshot(page, "tictactoe-analysis", size)


def test_every_box_of_menace_is_on_view_with_its_first_box_over_the_games(page: Any, size: str) -> None:
    for seed in range(4):
        view = new_game(page, "tictactoe", "menace", "human", seed=seed)  # MENACE opens
        while not view["over"]:
            view = api_move(page, view["id"], view["legal_moves"][0])
    view = new_game(page, "tictactoe", "menace", "human", seed=9)
    view = api_move(page, view["id"], view["legal_moves"][0])
    page.reload()
    rendered(page, view)
    panel = page.locator('.learner[data-kind="menace"]')
    api = lambda show: page.evaluate(  # noqa: E731
        "([show, id]) => fetch(`/api/learners/menace/boxes?game=tictactoe&show=${show}&game_id=${id}`).then(r => r.json())",
        [show, view["id"]],
    )
    # Opened in this game (the default for MENACE's 304 boxes): the boxes of its two moves so far.
    opened = api("opened")
    page.wait_for_selector(f'.learner[data-kind="menace"] .boxes[data-show="opened"][data-total="{opened["total"]}"]')
    assert panel.locator(".boxes .box").count() == opened["total"] == 2
    panel.locator('.filters button[data-show="all"]').click()
    every = api("all")
    page.wait_for_selector(f'.learner[data-kind="menace"] .boxes[data-show="all"][data-total="{every["total"]}"]')
    shown = panel.locator(".boxes .box").count()
    assert shown == min(60, every["total"]) and every["total"] > 2
    first = panel.locator('.boxes .box[data-box="........."]')
    beads = {b["board"]: b for b in every["boxes"]}["........."]["beads"]
    for move, count in beads:  # the beads drawn as the store holds them
        bead = first.locator(f'.bead[data-move="{move}"]')
        assert bead.get_attribute("data-count") == (str(count) if count else None)
    chart = panel.locator(".first-box")
    page.wait_for_selector('.learner[data-kind="menace"] .first-box[data-games="4"]')
    assert chart.locator("polyline").count() == len(beads)
    screenshot(page, "menace-boxes", size)
    panel.locator('.filters button[data-show="emptied"]').click()
    emptied = api("emptied")
    page.wait_for_selector(f'.learner[data-kind="menace"] .boxes[data-show="emptied"][data-total="{emptied["total"]}"]')
    assert panel.locator(".boxes .box").count() == min(60, emptied["total"])


def test_the_thesis_memory_is_searched_by_position_on_the_page(page: Any, size: str) -> None:
    for seed in range(8):  # thesis against itself until a game is won and remembered
        view = new_game(page, "teeko", "thesis", "thesis", seed=seed)
        while not view["over"]:
            view = page.evaluate(
                "id => fetch(`/api/games/${id}/advance`, {method: 'POST'}).then(r => r.json())", view["id"]
            )
        if view["winner"] is not None:
            break
    view = new_game(page, "teeko", "human", "thesis", seed=1)
    view = api_move(page, view["id"], "22")
    page.reload()
    rendered(page, view)
    memory = page.locator('.learner[data-kind="thesis"] details.memory')
    memory.locator("summary").click()
    everything = page.evaluate("fetch('/api/learners/thesis/memory?game=teeko').then(r => r.json())")
    assert everything["entries"] > 0
    page.wait_for_selector(f'.memory-results[data-total="{everything["entries"]}"]')
    wanted = everything["records"][0]
    memory.locator("input").fill(wanted["board"][:10])
    memory.locator("input").press("Enter")
    page.wait_for_selector(f'.memory-results tr[data-record="{wanted["record"]}"]')
    total = int(page.get_attribute(".memory-results", "data-total") or 0)
    assert 1 <= total <= everything["entries"]
    screenshot(page, "thesis-memory-search", size)
