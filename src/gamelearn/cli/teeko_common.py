"""What the ``gamelearn teeko`` commands share (:mod:`.teeko_files`, :mod:`.teeko_runs`): the
store, checked, and the original's percentages."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..store.store import Store


def open_store(readonly: bool = False, check: bool = True) -> Store:
    """The store (cli.common.open_store, checked whole unless ``check=False``): ``readonly`` for
    commands that only read; one line naming the cause where it cannot be used."""
    from .common import open_store as open_checked

    store: Store = open_checked(readonly=readonly, check=check)
    return store


def percent(part: int, whole: int) -> str:
    """A percentage with 2 decimals, as the original's statistics screen showed it."""
    return f"{100.0 * part / whole:.2f}%" if whole else "-"
