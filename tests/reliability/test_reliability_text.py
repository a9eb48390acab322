"""Text from files is shown as text (docs/store.md, "Text from files").

A record's names and tags may hold anything its file held: escape sequences that retitle, clear
or colour a terminal (``ESC ] 0 ; … BEL``, ``ESC [ 2J``), Rich markup, numbers of thousands of
digits.  Wherever they are printed they are shown as text, their control characters escaped
(``\\x1b``); a number too long for a record is refused by the parser by its length, with the line
it is on, before Python's int() could refuse it with a message of its own.  Real ``gamelearn``
processes; the oracle is the bytes they write.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gamelearn.games.record_text import MAX_NUMBER_DIGITS, parse
from reliability_support import gamelearn, one_error_line

#: What a hostile record's First tag holds: retitle the terminal, clear it, turn it red.
HOSTILE = "\x1b]0;owned\x07\x1b[2J\x1b[31mX"


def record(first: str, second: str = "b", movetext: str = "1. 4 *") -> str:
    return (
        f'[Game "tictactoe"]\n[First "{first}"]\n[Second "{second}"]\n[Result "*"]\n[End "abandoned"]\n\n{movetext}\n'
    )


def assert_shown_as_text(output: str) -> None:
    assert not any(ord(ch) < 32 and ch not in "\n" or 0x7F <= ord(ch) <= 0x9F for ch in output), repr(output)
    assert "\\x1b]0;owned\\x07\\x1b[2J\\x1b[31mX" in output.replace("\n", ""), output


@pytest.mark.slow  # real processes
def test_escape_codes_in_a_record_never_reach_the_terminal(tmp_path: Path):
    path = tmp_path / "hostile.txt"
    path.write_text(record(HOSTILE, second="[/bold] markup"), encoding="utf-8")
    home = tmp_path / "home"
    imported = gamelearn(home, "records", "import", str(path))
    assert imported.returncode == 0, imported.stderr
    listed = gamelearn(home, "records", "list")
    assert listed.returncode == 0, listed.stderr  # the markup is text too: no MarkupError
    assert_shown_as_text(listed.stdout + listed.stderr)
    assert "[/bold]" in listed.stdout
    reviewed = gamelearn(home, "review", str(path))
    assert reviewed.returncode == 0, reviewed.stderr
    assert_shown_as_text(reviewed.stdout + reviewed.stderr)
    assert "[/bold] markup:" in reviewed.stdout


def test_a_move_number_of_thousands_of_digits_is_refused_by_its_length_with_its_line():
    for digits in (MAX_NUMBER_DIGITS + 1, 4301, 100_000):
        shown = "9" * digits if digits <= 12 else "9" * 12 + "..."
        with pytest.raises(ValueError) as refused:
            parse(record("a", movetext="9" * digits + ". 4 *"))
        assert str(refused.value) == f"line 7: a move number of {digits:,} digits ({shown}), where 1. comes"
    assert parse(record("a", movetext="1. 4 *")).record.moves == ("4",)  # a number of few digits is read


@pytest.mark.slow  # real processes
def test_a_huge_move_number_is_one_line_naming_the_line_on_the_command_line(tmp_path: Path):
    path = tmp_path / "long.txt"
    path.write_text(record("a", movetext="9" * 5000 + ". 4 *"), encoding="utf-8")
    for command in (("review", str(path)), ("records", "import", str(path))):
        line = one_error_line(gamelearn(tmp_path / "home", *command))
        assert (
            line == f"gamelearn: error: {path}: line 7: a move number of 5,000 digits (999999999999...), where 1. comes"
        )
