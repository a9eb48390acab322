"""Teeko, strongly solved (issue 4, point 3): every position of the moving phase by retrograde
analysis, the placing phase layer by layer from it, all in one memory-mapped table.

``solve_teeko(game)`` opens the table from the data directory and refuses a missing or damaged one
with a message that says how to build it; ``build_teeko_table()`` (``gamelearn solve teeko``)
builds it.  The known result it must reproduce: Teeko is a draw with best play (Guy Steele, 1998).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from pathlib import Path
from typing import Any

import numpy as np

from ..games import Game
from .base import Outcome, Solution
from .codes import decode
from .paths import table_path
from .table import Census, Progress, TableError, build_layers, census_of_codes, open_table, write_table
from .variant import Indexing, Variant, teeko

BUILD_HINT = "build it with `gamelearn solve teeko` (well under a minute, 13 MB)"


class TableSolution(Solution):
    """A Teeko-like game read from its solved table.  States have ``x``, ``o`` (bitboards) and
    ``to_move``, as gamelearn.games.teeko.TeekoState."""

    def __init__(
        self, game: Game, variant: Variant, layers: dict[tuple[int, int], np.ndarray], header: dict[str, Any]
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
        mover, other = (o, x) if state.to_move else (x, o)  # type: ignore[attr-defined]
        if self.variant.has_four(other):
            return (-1, 0)
        return decode(self.code(mover, other))

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

    def summary(self) -> dict[str, Any]:
        facts = super().summary()
        facts["census"] = self.census().to_dict()
        facts["table"] = {key: self.header.get(key) for key in ("build_seconds", "payload_size", "sha256")}
        return facts


def default_path() -> Path:
    return table_path("teeko")


def solve_teeko(game: Game, path: str | Path | None = None, build: bool = False, verify: bool = True) -> TableSolution:
    """The solved Teeko table at ``path`` (default: the data directory).  A missing, partial or
    corrupt table is refused with a ValueError saying how to build it, or rebuilt with ``build``."""
    target = Path(path) if path is not None else default_path()
    variant = teeko()
    try:
        layers, header = open_table(variant, target, verify=verify)
    except TableError as error:
        if not build:
            raise TableError(f"{error}; {BUILD_HINT}") from None
        build_table(variant, target)
        layers, header = open_table(variant, target, verify=verify)
    return TableSolution(game, variant, layers, header)


def build_table(variant: Variant, path: Path, progress: Progress | None = None) -> dict[str, Any]:
    """Solve ``variant`` and write its table to ``path`` (atomically); returns the build's facts."""
    started = time.perf_counter()
    layers, facts = build_layers(variant, progress) if progress else build_layers(variant)
    write_table(variant, layers, facts, path)
    facts["total_seconds"] = round(time.perf_counter() - started, 2)
    return facts
