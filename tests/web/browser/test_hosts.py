"""The page on each of the server's own names (docs/web.md, "Its own names only"): served with the
Host check on, as `gamelearn serve` is, the page opened at http://localhost:PORT/ plays a game to
its end as it does at 127.0.0.1; the oracle is the rules API, replaying what the page shows."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import current_view, replay, watched

from gamelearn import get_game

pytestmark = pytest.mark.browser

TTT = get_game("tictactoe")


def test_the_page_plays_at_localhost(context: Any, server_url: str) -> None:
    url = server_url.replace("127.0.0.1", "localhost")
    tab = context.new_page()
    failures, outside = watched(tab, url)
    tab.goto(url + "/")
    tab.wait_for_selector('#board[data-id]:not([data-id=""]) .square', timeout=60_000)
    view = current_view(tab)
    assert view["human_to_move"] and view["game"] == "tictactoe"
    while not view.get("over"):  # every move the page's own fetch, with the page's Origin and Host
        move = TTT.legal_moves(replay("tictactoe", view["moves"]))[0]
        view = dict(
            tab.evaluate(
                """([id, move]) => fetch(`/api/games/${id}/move`, {method: "POST",
                    headers: {"content-type": "application/json"}, body: JSON.stringify({move})})
                    .then(r => r.json())""",
                [view["id"], move],
            )
        )
        assert "detail" not in view, view
    assert TTT.is_over(replay("tictactoe", view["moves"]))
    tab.close()
    assert not failures and not outside, (failures, outside)
