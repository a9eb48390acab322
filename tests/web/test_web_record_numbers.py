"""A posted record's numbers are bounded by the parser (docs/store.md, "Text from files"): a move
number of thousands of digits is a 400 naming its line, not Python's int() message."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_support import refused


def test_a_move_number_of_thousands_of_digits_is_a_400_naming_the_line(client: TestClient) -> None:
    text = '[Game "tictactoe"]\n[First "a"]\n[Second "b"]\n[Result "*"]\n[End "abandoned"]\n\n' + "9" * 5000 + ". 4 *\n"
    detail = refused(client.post("/api/records/review", content=text.encode()), 400)
    assert detail == "line 7: a move number of 5,000 digits (999999999999...), where 1. comes"
