"""Teeko, strongly solved, in every form of Scarne's book: every
position of the moving phase by retrograde analysis, the placing phase layer by layer from it, all
in one memory-mapped table a form.

``solve_teeko(game)`` opens the form's table from the data directory and refuses a missing or
damaged one with a message that says how to build it; ``build_table()`` (``gamelearn solve
teeko``, ``gamelearn solve "teeko:goals=advanced"``) builds it, taking the moving phase from a
table already built for a form with the same goals and steps when there is one.  The known result
it must reproduce: Standard Teeko is a draw with best play (Guy Steele, 1998).

In the placing phase a table byte is the value for the side whose pawn goes down next (its
owner), which in a round of Scarne's Alternate Game is not the side to move (the chooser); the
reader turns it round.  Either way a win still comes on the winner's own pawn's ply, so the parity
of the distance says who wins (codes.py).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import numpy as np

from ..games import Game
from ..games.teeko import Teeko
from .base import Outcome, Solution
from .codes import decode
from .paths import table_path
from .table import (
    Census,
    Progress,
    TableError,
    build_layers,
    census_of_codes,
    check_room,
    open_table,
    read_header,
    table_size,
    write_table,
)
from .variant import Indexing, Variant, teeko_form


def build_hint(game: Game[Any]) -> str:
    spec = game.spec if ":" not in game.spec else f'"{game.spec}"'
    return f"build it with `gamelearn solve {spec}` (well under a minute, 13 MB)"


def variant_of(game: Game[Any]) -> Variant:
    """The solver's view of a form of Teeko (ValueError for another game)."""
    if not isinstance(game, Teeko):
        raise ValueError(f"the table solver is for Teeko, not {game.name}")
    return teeko_form(game)


class TableSolution(Solution):
    """A Teeko-like game read from its solved table.  States have ``x``, ``o`` (bitboards) and
    ``to_move``, as gamelearn.games.teeko.TeekoState."""

    def __init__(
        self, game: Game[Any], variant: Variant, layers: dict[tuple[int, int], np.ndarray], header: dict[str, Any]
    ) -> None:
        super().__init__(game)
        self.variant = variant
        self.layers = layers
        self.header = header
        self.index = Indexing(variant)
        self._classes = self.index.classes  # computed now, so that lookups are quick
        self._rows = {layer: self.index.layer_shape(*layer)[1] for layer in layers}

    def code(self, mover: int, other: int) -> int:
        """The table byte of the position (mover's pawns, other's pawns)."""
        layer = (mover.bit_count(), other.bit_count())
        if layer not in self.layers:
            raise ValueError(f"no position of {self.variant.name} has {layer[0]} pawns to move against {layer[1]}")
        cls, offset = self.index.locate(mover, other)
        return int(self.layers[layer][cls * self._rows[layer] + offset])

    def outcome(self, state: Hashable) -> Outcome:
        x: int = state.x  # type: ignore[attr-defined]
        o: int = state.o  # type: ignore[attr-defined]
        to_move: int = state.to_move  # type: ignore[attr-defined]
        if self.variant.has_four(o if to_move == 0 else x):
            return (-1, 0)
        placed = (x | o).bit_count()
        # the side whose pawn goes down (or steps) next: the table holds the value for it
        owner = placed % 2 if placed < 2 * self.variant.pawns else to_move
        value, distance = decode(self.code(o, x) if owner else self.code(x, o))
        return (value, distance) if owner == to_move else (-value, distance)

    def census(self) -> Census:
        """Won, drawn and lost arrangements of the moving phase, counted from the stored table: a
        mover set's row holds the same codes as its representative's (the symmetry maps one row
        onto the other), so each stored row counts once per member of its class."""
        k = self.variant.pawns
        row = self._rows[(k, k)]
        codes = np.asarray(self.layers[(k, k)]).reshape(-1, row)
        members = self._classes[k].members
        histogram = np.zeros(256, dtype=np.int64)
        for cls in range(codes.shape[0]):
            histogram += np.bincount(codes[cls], minlength=256) * members[cls]
        return census_of_codes(histogram)

    def _size_text(self) -> str:
        stored = sum(np.asarray(layer).size for layer in self.layers.values())
        return f"a table of {stored:,} positions up to symmetry"

    def summary(self) -> dict[str, Any]:
        facts = super().summary()
        facts["census"] = self.census().to_dict()
        facts["table"] = {key: self.header.get(key) for key in ("build_seconds", "payload_size", "sha256")}
        return facts


def table_name(spec: str) -> str:
    """The file name (without folder) of a form's table: ``teeko``, ``teeko_goals=advanced``, ..."""
    return spec.replace(":", "_").replace(",", "_")


def default_path(game: Game[Any] | None = None) -> Path:
    """Where the table of ``game`` (default: Standard Teeko) lives in the data directory."""
    return table_path(table_name(game.spec if game is not None else "teeko"))


def solve_teeko(
    game: Game[Any], path: str | Path | None = None, build: bool = False, verify: bool = True
) -> TableSolution:
    """The solved table of ``game`` (a form of Teeko) at ``path`` (default: the data directory).  A
    missing, partial or corrupt table is refused with a ValueError saying how to build it, or
    rebuilt with ``build``."""
    target = Path(path) if path is not None else default_path(game)
    variant = variant_of(game)
    try:
        layers, header = open_table(variant, target, verify=verify)
    except TableError as error:
        if not build:
            raise TableError(f"{error}; {build_hint(game)}") from None
        build_table(variant, target)
        layers, header = open_table(variant, target, verify=verify)
    return TableSolution(game, variant, layers, header)


def shared_moving_phase(variant: Variant, folder: Path) -> tuple[np.ndarray, dict[str, Any]] | None:
    """The moving phase of a table in ``folder`` built for a form with the same goals and steps
    (same moving signature), checked whole (size, checksum) before use; None if there is none."""
    if not folder.is_dir():
        return None
    wanted = variant.moving_signature()
    k = variant.pawns
    for candidate in sorted(folder.glob("teeko*.table")):
        try:
            header = read_header(candidate)
        except (TableError, OSError):
            continue
        if header.get("moving_signature", header.get("signature")) != wanted:
            continue
        donor = Variant(
            header.get("variant", "?"),
            variant.rows,
            variant.columns,
            variant.pawns,
            variant.win_masks,
            variant.neighbours,
            variant.symmetries,
        )
        try:
            # the donor's full signature differs when its drops do: check size and checksum only
            layers, _ = open_table(donor, candidate, signature=header.get("signature"))
        except TableError:
            continue
        keys = ("census", "levels", "positions_without_moves", "moving_seconds")
        facts = {key: header[key] for key in keys if key in header}
        facts["moving_from"] = candidate.name
        return np.array(layers[(k, k)]), facts
    return None


def build_table(variant: Variant, path: Path, progress: Progress | None = None, share: bool = True) -> dict[str, Any]:
    """Solve ``variant`` and write its table to ``path`` (atomically); returns the build's facts.
    With ``share``, the moving phase is taken from a table of the same goals and steps in the same
    folder when one is there, so that only the placing phase is computed."""
    check_room(path, table_size(variant))  # a folder that cannot take the table: refused before the work
    started = time.perf_counter()
    moving = shared_moving_phase(variant, path.parent) if share else None
    if progress:
        layers, facts = build_layers(variant, progress, moving=moving)
    else:
        layers, facts = build_layers(variant, moving=moving)
    write_table(variant, layers, facts, path)
    facts["total_seconds"] = round(time.perf_counter() - started, 2)
    return facts
