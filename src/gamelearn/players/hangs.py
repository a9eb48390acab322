"""What a player raises where the program it reproduces would loop for ever: the 1999 thesis
program of Mihailo Despotovic, played as it was (``thesis:original=on``), in a position its code
never foresaw.  A module of its own, with no numba behind it, so that a tournament can catch them
without loading the thesis player (tests/package/test_startup.py)."""

from __future__ import annotations


class OpeningHang(RuntimeError):
    """The original's opening would loop for ever: all four cells of a random pick are taken."""


class NoMoveError(RuntimeError):
    """The side to move has no move: the original's playrandom would loop for ever."""
