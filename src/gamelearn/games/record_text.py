"""A finished game as text, in the manner of chess's PGN: a header of tag pairs, then the moves in
the game's own notation (the strings ``Game.legal_moves`` gives), numbered by full moves and
closed by the result.

    [Game "tictactoe"]
    [First "menace:name=play"]
    [Second "human"]
    [Seed "7"]
    [Result "1-0"]
    [End "win"]
    [Date "2026.12.03"]
    [Plies "5"]

    1. 4 0 2. 2 6 3. 3 1-0

``format`` writes a :class:`~gamelearn.games.record.GameRecord`; ``parse`` reads one back, every
move replayed through the game's rules, so ``parse(format(record)).record == record``.  A text
``parse`` refuses is a ValueError naming the line and what is wrong there (an illegal move by its
move number and side).  Tags beyond the ones read here are kept in :attr:`RecordText.tags`.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from datetime import date as Date
from typing import Any

from . import get_game
from .base import Game, IllegalMove
from .record import End, GameRecord

#: The tags ``format`` writes, in this order (``Opening`` only for a game played from one).
TAG_ORDER = ("Game", "First", "Second", "Seed", "Result", "End", "Date", "Plies", "Opening")
#: The tags ``parse`` needs.
REQUIRED_TAGS = ("Game", "First", "Second", "Result", "End")
#: The result of a game won by the first side, by the second, drawn, and not finished (abandoned).
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: The date of a game whose date is not known, as PGN writes it.
UNKNOWN_DATE = "????.??.??"
#: Movetext lines are cut before this width.
LINE_WIDTH = 79

_TAG_LINE = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_TAG_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_MOVE_NUMBER = re.compile(r"^(\d+)\.(\.\.)?$")
#: The most digits a move number may have: no game of ours lasts a million moves, and a longer
#: number is refused by its length, never handed to int() (which refuses over 4,300 digits with a
#: message of its own, and is slow on long ones).
MAX_NUMBER_DIGITS = 6
_DATE = re.compile(r"^(\d{4}|\?{4})\.(\d{2}|\?{2})\.(\d{2}|\?{2})$")
#: The ends that need each kind of result.
_DRAWN_ENDS = (End.DRAW, End.REPETITION, End.MAX_PLIES)
_WON_ENDS = (End.WIN, End.RESIGN)


@dataclass(frozen=True)
class RecordText:
    """A parsed game record: the game replayed, its date (``"YYYY.MM.DD"``; None when unknown)
    and every tag of the header as written (unescaped)."""

    record: GameRecord[Any]
    date: str | None = None
    tags: Mapping[str, str] = field(default_factory=dict)


def result_of(record: GameRecord[Any]) -> str:
    """``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` for an abandoned game."""
    if record.winner is not None:
        return RESULTS[record.winner]
    return "*" if record.end is End.ABANDONED else "1/2-1/2"


def _quoted(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unquoted(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def format(record: GameRecord[Any], date: Date | str | None = None, tags: Mapping[str, str] | None = None) -> str:
    """The text of ``record``: the header (``date`` a date or ``"YYYY.MM.DD"``; ``tags`` added
    after the standard ones), a blank line, the numbered moves and the result, ending in a newline.
    ValueError for a move with white space in it or a tag name that is not a word."""
    shown_date = (
        f"{date.year:04d}.{date.month:02d}.{date.day:02d}" if isinstance(date, Date) else (date or UNKNOWN_DATE)
    )
    header = {
        "Game": record.game,
        "First": record.players[0],
        "Second": record.players[1],
        "Seed": "-" if record.seed is None else str(record.seed),
        "Result": result_of(record),
        "End": record.end.value,
        "Date": shown_date,
        "Plies": str(record.plies),
    }
    if record.opening:
        header["Opening"] = " ".join(record.opening)
    for name, value in (tags or {}).items():
        if not _TAG_NAME.match(name) or name in TAG_ORDER:
            raise ValueError(f"tag name {name!r} is not a word of letters, digits and '_', or is a standard tag")
        header[name] = value
    lines = [f'[{name} "{_quoted(value)}"]' for name, value in header.items()]
    lines.append("")
    lines.extend(_movetext(record.moves, len(record.opening), result_of(record)))
    return "\n".join(lines) + "\n"


def _movetext(moves: tuple[str, ...], first_ply: int, result: str) -> list[str]:
    """The moves numbered by full moves (``3...`` where the second side moves first), in lines
    shorter than LINE_WIDTH, the result last."""
    tokens: list[str] = []  # a move number and its move stay on one line
    for index, move in enumerate(moves):
        if not move or any(ch.isspace() for ch in move):
            raise ValueError(f"move {index + 1} {move!r} cannot be written: a move is one word")
        ply = first_ply + index
        if ply % 2 == 0:
            tokens.append(f"{ply // 2 + 1}. {move}")
        else:
            tokens.append(f"{ply // 2 + 1}... {move}" if index == 0 else move)
    tokens.append(result)
    lines = [""]
    for token in tokens:
        if lines[-1] and len(lines[-1]) + 1 + len(token) >= LINE_WIDTH:
            lines.append("")
        lines[-1] = f"{lines[-1]} {token}" if lines[-1] else token
    return lines


@dataclass
class _Header:
    tags: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)  # tag -> its line number
    end_line: int = 0  # the last line of the header


def _read_header(lines: list[str]) -> _Header:
    header = _Header()
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            if header.tags:
                header.end_line = number
                return header
            continue
        if not line.startswith("["):
            header.end_line = number - 1
            return header
        match = _TAG_LINE.match(line)
        if match is None:
            raise ValueError(f'line {number}: not a tag pair [Name "value"]: {line[:40]!r}')
        name, value = match.group(1), _unquoted(match.group(2))
        if name in header.tags:
            raise ValueError(f"line {number}: tag {name} given twice (first on line {header.lines[name]})")
        header.tags[name] = value
        header.lines[name] = number
    header.end_line = len(lines)
    return header


def _tag(header: _Header, name: str) -> str:
    if name not in header.tags:
        where = f"line {header.end_line + 1}" if header.tags else "line 1"
        raise ValueError(f'{where}: the header has no {name} tag ([{name} "..."])')
    return header.tags[name]


def _line_of(header: _Header, name: str) -> str:
    return f"line {header.lines.get(name, max(header.end_line, 1))}"


def parse(text: str) -> RecordText:
    """The game ``text`` records, replayed by its game's rules.  ValueError naming the line and
    what is wrong: a line that is no tag pair, a missing or bad tag, an unknown game, a misplaced
    move number, an illegal move (by its number and side), a move after the game's end, or a
    result that the moves or the End tag contradict."""
    lines = text.splitlines()
    header = _read_header(lines)
    spec = _tag(header, "Game")
    try:
        game: Game[Any] = get_game(spec)
    except ValueError as error:
        raise ValueError(f"{_line_of(header, 'Game')}: {error}") from None
    players = (_tag(header, "First"), _tag(header, "Second"))
    result = _tag(header, "Result")
    if result not in RESULTS:
        raise ValueError(f"{_line_of(header, 'Result')}: Result {result[:20]!r} is not one of {', '.join(RESULTS)}")
    try:
        end = End(_tag(header, "End"))
    except ValueError:
        ends = ", ".join(item.value for item in End)
        raise ValueError(f"{_line_of(header, 'End')}: End {header.tags['End'][:20]!r} is not one of {ends}") from None
    seed = _seed(header)
    date = _date(header)
    opening = tuple(header.tags.get("Opening", "").split())
    state = game.initial()
    for index, move in enumerate(opening):
        try:
            state = game.play(state, move)
        except IllegalMove as error:
            raise ValueError(
                f"{_line_of(header, 'Opening')}: opening move {index + 1} {move[:20]!r}: {error.reason}"
            ) from None
    moves, states = _replay(game, state, lines, header.end_line, len(opening), result)
    record = GameRecord(
        game=game.spec,
        players=players,
        moves=tuple(moves),
        states=tuple(states),
        winner=None if result in ("1/2-1/2", "*") else RESULTS.index(result),
        end=end,
        seed=seed,
        opening=opening,
    )
    _check_result(game, record, header)
    if "Plies" in header.tags and header.tags["Plies"] != str(record.plies):
        raise ValueError(
            f"{_line_of(header, 'Plies')}: Plies says {header.tags['Plies'][:20]!r}, the moves are {record.plies}"
        )
    return RecordText(record=record, date=date, tags=dict(header.tags))


def _seed(header: _Header) -> int | None:
    value = header.tags.get("Seed", "-")
    if value in ("-", "?", ""):
        return None
    if not re.match(r"^-?\d{1,19}$", value):
        raise ValueError(f"{_line_of(header, 'Seed')}: Seed {value[:20]!r} is not a whole number or '-'")
    return int(value)


def _date(header: _Header) -> str | None:
    value = header.tags.get("Date", UNKNOWN_DATE)
    if not _DATE.match(value):
        raise ValueError(f"{_line_of(header, 'Date')}: Date {value[:20]!r} is not YYYY.MM.DD")
    return None if value == UNKNOWN_DATE else value


def _replay(
    game: Game[Any], state: Hashable, lines: list[str], start: int, first_ply: int, result: str
) -> tuple[list[str], list[Hashable]]:
    """The moves of the movetext (lines after ``start``) and the states they reach, every move
    played by the rules from ``state``; the result token, where written, must be ``result``."""
    moves: list[str] = []
    states: list[Hashable] = [state]
    finished = False
    for number in range(start + 1, len(lines) + 1):
        for token in lines[number - 1].split():
            if finished:
                raise ValueError(f"line {number}: {token[:20]!r} after the result")
            ply = first_ply + len(moves)
            if token in RESULTS:
                if token != result:
                    raise ValueError(f"line {number}: the moves end in {token}, the Result tag says {result}")
                finished = True
                continue
            numbered = _MOVE_NUMBER.match(token)
            if numbered is not None:
                _check_number(numbered, ply, number)
                continue
            side = game.symbols[game.to_move(state)]
            label = f"line {number}: move {ply // 2 + 1} ({side}) {token[:20]!r}"
            if game.is_over(state):
                raise ValueError(f"{label}: the game is over")
            try:
                state = game.play(state, token)
            except IllegalMove as error:
                raise ValueError(f"{label}: {error.reason}") from None
            moves.append(token)
            states.append(state)
    return moves, states


def _check_number(numbered: re.Match[str], ply: int, line: int) -> None:
    expected = f"{ply // 2 + 1}." + ("" if ply % 2 == 0 else "..")
    digits = numbered.group(1)
    if len(digits) > MAX_NUMBER_DIGITS:
        shown = digits if len(digits) <= 12 else f"{digits[:12]}..."
        raise ValueError(f"line {line}: a move number of {len(digits):,} digits ({shown}), where {expected} comes")
    if int(numbered.group(1)) != ply // 2 + 1 or (ply % 2 == 1 and numbered.group(2) is None):
        raise ValueError(f"line {line}: move number {numbered.group(0)} where {expected} comes")


def _check_result(game: Game[Any], record: GameRecord[Any], header: _Header) -> None:
    """The Result and End tags agree with each other and with the final position."""
    where = _line_of(header, "End")
    final = record.final
    if game.is_over(final):
        rules_winner = game.winner(final)
        if record.end not in (End.WIN, End.DRAW):
            raise ValueError(f"{where}: the game ends by the rules after these moves, not by {record.end.value}")
        if rules_winner != record.winner:
            told = result_of(record)
            actual = "1/2-1/2" if rules_winner is None else RESULTS[rules_winner]
            raise ValueError(f"{_line_of(header, 'Result')}: Result says {told}, the moves end in {actual}")
        if (record.end is End.WIN) != (rules_winner is not None):
            raise ValueError(
                f"{where}: End says {record.end.value}, the moves end in a {'win' if rules_winner is not None else 'draw'}"
            )
        return
    if record.end in (End.WIN, End.DRAW):
        raise ValueError(f"{where}: End says {record.end.value}, but the game is not over after these moves")
    result = result_of(record)
    fits = (
        (record.end in _DRAWN_ENDS and result == "1/2-1/2")
        or (record.end in _WON_ENDS and record.winner is not None)
        or (record.end is End.ABANDONED and result == "*")
    )
    if not fits:
        raise ValueError(f"{where}: End {record.end.value} does not go with Result {header.tags['Result']}")


__all__ = ["RESULTS", "RecordText", "format", "parse", "result_of"]
