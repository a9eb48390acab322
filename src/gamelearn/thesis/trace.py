"""The reference traces' lines of a thesis batch (Despotović 1999; the format is
:mod:`.batch`'s): ``TRACE RAND`` per draw, ``TRACE PLY`` per ply, ``TRACE OOB`` per
layout-sensitive off-board read, written to a text stream as the compiled original wrote them."""

from __future__ import annotations

from typing import IO

from .engine import Decision
from .rng import Draws


class Tracer:
    """Writes TRACE lines; a ply's RAND lines wait until its OOB lines are known (they come first:
    the heuristics read the off-board cell before the random move draws)."""

    def __init__(self, stream: IO[str] | None) -> None:
        self.stream = stream
        self.game = 0
        self.ply = 0
        self.pending: list[str] = []

    def write(self, line: str) -> None:
        if self.stream is not None:
            self.stream.write("TRACE " + line + "\n")

    def flush(self) -> None:
        for line in self.pending:
            self.write(line)
        self.pending.clear()

    def listen(self, draws: Draws) -> None:
        if self.stream is None:
            return

        def heard(site: str, value: int) -> None:
            self.pending.append(f"RAND g={self.game} n={self.ply} k={draws.calls} site={site} v={value}")

        draws.listener = heard

    def off_board(self, side: int, points: int) -> None:
        """One OOB line per layout-sensitive read: the cell read empty (gcc's padding) where a
        back-to-back layout would have read the opponent's pawn (cell 04 of the last search)."""
        asked = -side
        for _ in range(points):
            self.write(
                f"OOB g={self.game} n={self.ply} cell=54 asked_for={asked:+d} read=0 contiguous={asked} "
                "neighbour=0 canplay=0 canplay_if_contiguous=1"
            )


def ply_line(g: int, n: int, side: int, d: Decision, rand_calls: int, board: str) -> str:
    parts = [f"PLY g={g} n={n} side={'+1' if side > 0 else '-1'} mv={d.move} src={d.source}"]
    if d.heuristic is not None:
        parts.append(f"h={d.heuristic}")
    if d.eh is not None:
        parts.append(f"eh={d.eh} es={d.es} el={d.el}")
    if d.sk is not None:
        parts.append(f"sk={d.sk} smax={d.smax} si={d.si}")
    if d.lc is not None:
        parts.append(f"lc={d.lc}")
    parts.append(f"r={rand_calls} b={board}")
    return " ".join(parts)
