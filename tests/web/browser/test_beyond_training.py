"""Training from the page: "train against random / perfect / itself for N
games" runs on the server with a progress bar, every box is on view from the start and its beads
change as it trains, and the learning chart is the yardstick's grade.  The oracles: Gardner's 19
boxes for HER as Black (1962), the store's records (every training game kept by the keeper), and
the grade recomputed here with gamelearn.experiments on the learner as the store keeps it."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import new_game, screenshot

from gamelearn import get_game
from gamelearn.experiments.training import grade_learner
from gamelearn.keeper import Keeper
from gamelearn.web.learners import browser_learner

pytestmark = pytest.mark.browser

HEXAPAWN = get_game("hexapawn")
#: Gardner's HER plays Black and has a box for each of the 19 positions Black meets (1962).
HER_BOXES = 19


def owner_of(context: Any) -> str:
    from gamelearn.web.guards import OWNER_COOKIE

    return next(c["value"] for c in context.cookies() if c["name"] == OWNER_COOKIE)


def test_training_her_moves_a_bar_changes_her_beads_and_charts_her_grade(
    page: Any, context: Any, web_app: Any, size: str
) -> None:
    new_game(page, "hexapawn", "human", "her", seed=1)
    page.wait_for_selector('#training[data-kind="her"]:not([hidden])')
    page.click("#training > summary")  # folded until opened: its module loads then
    # Every box is on view before she has played a game: as she would open each one.
    page.wait_for_selector(f'#train-boxes[data-total="{HER_BOXES}"]')
    assert page.locator("#train-boxes .box").count() == HER_BOXES
    assert page.locator("#train-boxes .box.unopened").count() == HER_BOXES
    beads_before = page.eval_on_selector_all("#train-boxes .bead.empty", "els => els.length")
    page.select_option("#train-opponent", "random")
    page.fill("#train-games", "30")
    page.click("#train-start")
    # The bar moves while it runs, and the run ends: the page's state, not a sleep.
    page.wait_for_selector('#training[data-state="running"], #training[data-state="done"]', timeout=60_000)
    page.wait_for_selector('#training[data-state="done"][data-played="30"]', timeout=60_000)
    assert page.evaluate("document.querySelector('#train-progress').value") == 1
    status = page.text_content("#train-status") or ""
    assert "30 of 30 games" in status
    # No seed typed: the server drew one, and the status line names it.
    owner = owner_of(context)
    assert f"seed {web_app.state.trainer.status(owner, 'her', 'hexapawn').seed}." in status
    # Every game went through the keeper as a page game: its record is kept, and HER's boxes in
    # the store are what the page draws.
    store = web_app.state.store
    records = [r for r in store.records(game="hexapawn", owner=owner, context="web") if "random" in r["players"]]
    assert len(records) == 30
    her = browser_learner(HEXAPAWN, "her")
    assert her is not None
    Keeper(store, owner).attach(her)
    kept = her.knowledge()["boxes"]
    page.wait_for_selector(f'#train-boxes[data-opened="{len(kept)}"]')
    assert page.locator("#train-boxes .box.unopened").count() == HER_BOXES - len(kept)
    # HER learns only from a loss: a bead out per loss, so empty rings where there were none.
    losses = sum(1 for r in records if r["winner"] == 0)
    assert losses > 0
    assert page.eval_on_selector_all("#train-boxes .bead.empty", "els => els.length") > beads_before
    # The chart: the yardstick's grade before the first game and after the last, as
    # experiments.training grades the learner the store keeps.
    # Attached, not visible: a grade that did not move draws a flat line, whose box has no height.
    page.wait_for_selector('#train-chart svg polyline[data-series="keeps"]', state="attached")
    assert page.is_visible("#train-chart svg")
    points = int(page.get_attribute("#train-chart", "data-points") or 0)
    assert points >= 2
    report = grade_learner(HEXAPAWN, "her", her, seed=0, side=1)  # HER plays Black: graded on Black's own positions
    caption = page.text_content("#train-chart-caption") or ""
    assert f"{round(report.keeps * 1000) / 10:g}%" in caption and "Black's 15 of 27 positions" in caption
    screenshot(page, "beyond-training", size)


def test_menace_stuck_against_perfect_is_explained_and_restocking_from_the_page_unsticks_it(
    page: Any, size: str
) -> None:
    new_game(page, "tictactoe", "human", "menace", seed=1)  # MENACE plays O, as on a first visit
    page.wait_for_selector('#training[data-kind="menace"]:not([hidden])')
    page.click("#training > summary")
    page.wait_for_selector("#train-boxes[data-total]")
    page.select_option("#train-opponent", "perfect")
    page.fill("#train-games", "400")
    page.click("#train-start")
    page.wait_for_selector('#training[data-state="done"][data-played="400"]', timeout=300_000)
    # Where it happens: why its boxes emptied, which, and the remedies its own options offer.
    page.wait_for_selector("#train-advice:not([hidden])")
    advice = page.text_content("#train-advice") or ""
    assert "Why MENACE is stuck" in advice and "resigns" in advice and "Empty: box " in advice
    labels = page.eval_on_selector_all("#train-advice button.remedy", "els => els.map(e => e.dataset.options)")
    assert "restock=on" in labels
    screenshot(page, "training-menace-stuck", size)
    # Michie's restocking, one click: a second run with the learner's option, and the chart of runs.
    page.click('#train-advice button.remedy[data-options="restock=on"]')
    page.wait_for_selector(
        '#training[data-state="done"][data-played="400"] #train-runs[data-runs="2"]', timeout=300_000
    )
    drawn = page.eval_on_selector_all("#train-runs rect.run-bar.drawn", "els => els.map(e => Number(e.dataset.count))")
    assert len(drawn) == 1 or drawn[-1] > drawn[0]  # the first run drew nothing, or fewer than the second
    assert "restock=on" in (page.text_content("#train-runs") or "")
    assert page.locator("#train-chart line.run-start").count() == 1
    screenshot(page, "training-menace-restocked", size)


def test_a_seed_typed_on_the_page_replays_the_same_training_games(
    page: Any, context: Any, web_app: Any, size: str
) -> None:
    new_game(page, "hexapawn", "human", "her", seed=1)
    page.wait_for_selector('#training[data-kind="her"]:not([hidden])')
    page.click("#training > summary")
    page.wait_for_selector(f'#train-boxes[data-total="{HER_BOXES}"]')
    store, owner = web_app.state.store, owner_of(context)

    def train_twenty() -> list[tuple[list[str], Any]]:
        before = {r["id"] for r in store.records(game="hexapawn", owner=owner, context="web")}
        page.click("#train-start")
        page.wait_for_selector('#training[data-state="running"]')
        page.wait_for_selector('#training[data-state="done"][data-played="20"]', timeout=60_000)
        games = sorted(
            (r for r in store.records(game="hexapawn", owner=owner, context="web") if r["id"] not in before),
            key=lambda r: r["id"],
        )
        return [(r["moves"], r["winner"]) for r in games]

    page.select_option("#train-opponent", "random")
    page.fill("#train-games", "20")
    page.fill("#train-seed", "7")
    first = train_twenty()
    assert len(first) == 20
    assert "seed 7." in (page.text_content("#train-status") or "")
    screenshot(page, "training-seeded", size)
    # Forget what HER learned (her panel's Reset), then the same run again: the same games.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click('.learner[data-kind="her"] button.reset')
    page.wait_for_selector(".learner .reset-note")
    assert train_twenty() == first
    assert "seed 7." in (page.text_content("#train-status") or "")
    # A seed the server cannot take is refused in one line, and nothing runs.
    kept = len(store.records(game="hexapawn", owner=owner, context="web"))
    page.fill("#train-seed", "2147483648")
    page.click("#train-start")
    page.wait_for_selector('#train-status[data-state="refused"]')
    assert "seed" in (page.text_content("#train-status") or "")
    assert "\n" not in (page.text_content("#train-status") or "").strip()
    assert len(store.records(game="hexapawn", owner=owner, context="web")) == kept
