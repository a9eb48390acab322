"""The 1999 program's batch screen output, byte for byte (Despotović 1999).

In batch mode the original printed a settings table, then per game "Playing game k..." with the
last move and the result line (and "100 moves reached! Draw!" when the ply cap drew it).  The
reference traces of the compiled original are that output with the TRACE lines of
the instrumented build interleaved (its README): ``TRACE SEED`` first, the settings table, then
per game its own lines followed by that game's TRACE lines.  :class:`Transcript` rebuilds exactly
that stream from :func:`~.batch.run_batch`'s trace lines and game summaries, so a run in
``original`` mode can be compared with the reference byte for byte.  The batch's runner
(:mod:`.batch_run`) writes it to the file ``--trace`` names.
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from .batch import GameSummary

#: The original's result line per game result (X won, O won, drawn).
RESULT_LINES = {"X": "Player I (X) has won.", "O": "Player II (O) has won.", "D": "The game has been drawn."}


def settings_table(games: int, first_flags: str, second_flags: str) -> str:
    """The batch header the original printed (its spacing kept, for byte-exact transcripts).

    ``first_flags`` / ``second_flags`` are six characters such as ``+h+s-l``: a '+' in place 0, 2,
    4 turns heuristics, search, learning ON.
    """

    def row(label: str, flags: str) -> str:
        on = ["ON" if flags[k] == "+" else "OFF" for k in (0, 2, 4)]
        return f"{label}{on[0]:>8}{on[1]:>9}{on[2]:>11}\n"

    rule = "-" * 39 + "\n"
    return (
        f"\nPlaying {games} games in batch mode.\n{rule}          Heuristics Searching Learning\n"
        + row("Player 1", first_flags)
        + row("Player 2", second_flags)
        + rule
    )


class Transcript:
    """A text sink for run_batch's trace that writes the original's standard output with the trace
    lines in the reference traces' order: ``TRACE SEED``, the settings table, then per game its own
    lines followed by that game's TRACE lines (held back until :meth:`game_done`)."""

    def __init__(self, stream: IO[str], header: str) -> None:
        self.stream = stream
        self.header = header
        self.header_written = False
        self.pending: list[str] = []

    def _header(self) -> None:
        if not self.header_written:
            self.stream.write(self.header)
            self.header_written = True

    def write(self, text: str) -> int:
        for line in text.splitlines(keepends=True):
            if line.startswith("TRACE SEED"):
                self.stream.write(line)
                self._header()
            else:
                self.pending.append(line)
        return len(text)

    def game_done(self, summary: GameSummary) -> None:
        """The game's own lines, then the TRACE lines it produced."""
        self._header()
        if summary.reason == "cap100":
            self.stream.write(f"Playing game {summary.number}...100 moves reached! Draw!\n")
            self.stream.write(f" [last move was {summary.last_move}]\n")
        else:
            self.stream.write(f"Playing game {summary.number}... [last move was {summary.last_move}]\n")
        self.stream.write(RESULT_LINES[summary.result] + "\n")
        self.stream.writelines(self.pending)
        self.pending.clear()

    def flush(self) -> None:
        self.stream.flush()
