"""The screens of the thesis program's console (Despotović 1999): what a step shows, the board as
the console drew it, the menu, the help and the statistics screen, as text for the terminal and
the web page alike (:mod:`.console` is the console's logic)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

__all__ = ["HELP_TEXT", "MENU_TEXT", "Screen", "percentage", "render_board", "screen_text", "statistics_lines"]

#: stat.m's first field of the games the program played second (fields 7-9)
STAT_PROGRAM_SECOND = 6


@dataclass
class Screen:
    """What to show after a step: text lines, the board (if one is in play) and the prompt."""

    lines: list[str] = field(default_factory=list)
    board: str | None = None  # the board as rendered text, when a game is on
    prompt: str = ""
    finished: bool = False  # the session has ended (q at the menu)


def render_board(board: str) -> str:
    """The board as the console showed it: a column-digit header, rows prefixed by their digit."""
    rows = ["  " + " ".join(str(c) for c in range(5))]
    for r in range(5):
        rows.append(f"{r} " + " ".join(board[r * 5 : r * 5 + 5]))
    return "\n".join(rows)


def screen_text(screen: Screen) -> list[str]:
    """The lines a screen shows before its prompt, as the terminal prints them and the web page
    shows them: its text lines (one may hold several), then the board."""
    shown = [row for line in screen.lines for row in line.split("\n")]
    if screen.board:
        shown.extend(screen.board.split("\n"))
    return shown


MENU_TEXT = (
    "1  you begin (you are X)      2  the program begins      3  autoplay\n"
    "p  pause {pause}   h  heuristics {heuristics}   s  search {search}   l  learning {learning}   t  thinking {thinking}\n"
    "?  statistics   r  rules   /  help   q  quit"
)

HELP_TEXT = (
    "At the menu type one character and Enter.  1: a game you begin (you are X).  2: a game the program\n"
    "begins (it is X).  3: the program plays itself (with pause on, Enter before each ply, q aborts).\n"
    "p, h, s, l, t switch pause, heuristics, search, learning and thinking output on or off.\n"
    "?: the statistics (then r resets them).  r: the rules.  q: quit.\n"
    "In a game, type rc to put a pawn on row r, column c (00 is the top left, 22 the middle), and rcRC\n"
    "to move the pawn on rc to the free field RC next to it.  A line beginning with q abandons the game.\n"
    "The program offers a draw when the moves repeat; y accepts."
)


def percentage(count: int, total: int, half_up: bool = False) -> str:
    """``100 * count / total`` with 2 decimals in 7 characters and a '%'.  ``half_up``: a value
    that ends in exactly a half rounds up, 3.125 to 3.13, as Visual C++ 6's printf did; Python's
    rounds it to even (3.12)."""
    share = 100.0 * count / total
    if half_up:  # Decimal(share) is the double's exact value: only an exact half is a tie
        return f"{Decimal(share).quantize(Decimal('0.01'), rounding=ROUND_HALF_UP):6}%"
    return f"{share:6.2f}%"


def statistics_lines(counts: Sequence[int], second_total: bool = True, half_up: bool = False) -> list[str]:
    """The statistics screen: totals, counts and percentages with 2 decimals.  The original
    (``second_total`` off, fix 12) shows the total of the games the program began as that of the
    games it played second; ``half_up`` is its rounding (:func:`percentage`)."""
    lines = []
    groups = (
        ("Self-play", ("Player I (X) won", "drawn", "Player II (O) won"), 0),
        ("Games the program began", ("won", "drawn", "lost"), 3),
        ("Games the program played second", ("won", "drawn", "lost"), 6),
    )
    for title, labels, start in groups:
        part = list(counts[start : start + 3])
        total = sum(part)
        shown = total if second_total or start != STAT_PROGRAM_SECOND else sum(counts[3:6])
        lines.append(f"{title}: {shown:4d} in all")
        for label, count in zip(labels, part, strict=True):
            share = percentage(count, total, half_up) if total else "     -"
            lines.append(f"    {label:<18} {count:4d}  {share}")
    return lines
