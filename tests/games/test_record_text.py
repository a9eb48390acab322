"""A game record as text: any game played by the rules (hypothesis: random legal games of every
game, a plugin's too) reads back as the same record, and a damaged text is refused in one line
naming the line and what is wrong there."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamelearn import End, GameRecord, get_game
from gamelearn.games import game_names, record_text

# Every game found (a plugin such as examples/connect3 where it is installed), and a variant.
GAMES = (*game_names(), "teeko:goals=advanced")
PROFILE = settings(max_examples=60, deadline=None)


def random_record(spec: str, seed: int, cap: int, opening_plies: int = 0, quit_early: bool = False) -> GameRecord:
    """A game of random legal moves: to its end by the rules, or cut at ``cap`` (a ply-capped draw,
    or with ``quit_early`` a resignation or an abandoned game), after ``opening_plies`` of book."""
    game = get_game(spec)
    rng = random.Random(seed)
    state = game.initial()
    opening: list[str] = []
    for _ in range(opening_plies):
        if game.is_over(state):
            break
        opening.append(rng.choice(game.legal_moves(state)))
        state = game.play(state, opening[-1])
    states, moves = [state], []
    while not game.is_over(state) and len(moves) < cap:
        moves.append(rng.choice(game.legal_moves(state)))
        state = game.play(state, moves[-1])
        states.append(state)
    if game.is_over(state):
        winner = game.winner(state)
        end = End.WIN if winner is not None else End.DRAW
    elif quit_early:
        end = rng.choice([End.RESIGN, End.ABANDONED])
        winner = 1 - game.to_move(state) if end is End.RESIGN else None
    else:
        end, winner = End.MAX_PLIES, None
    players = (f'menace:name=my "box" {seed}', "alphabeta:depth=2,eval=default")
    return GameRecord(game.spec, players, tuple(moves), tuple(states), winner, end, seed, tuple(opening))


@PROFILE
@given(
    st.sampled_from(GAMES),
    st.integers(0, 10**6),
    st.integers(0, 120),
    st.integers(0, 3),
    st.booleans(),
    st.one_of(st.none(), st.dates()),
)
def test_a_random_legal_game_reads_back_as_the_same_record(spec, seed, cap, opening, quit_early, date) -> None:
    record = random_record(spec, seed, cap, opening, quit_early)
    text = record_text.format(record, date=date)
    parsed = record_text.parse(text)
    assert parsed.record == record
    assert parsed.date == (None if date is None else f"{date.year:04d}.{date.month:02d}.{date.day:02d}")
    assert all(len(line) < record_text.LINE_WIDTH for line in text.splitlines()[parsed_header_lines(text) :])
    # the movetext holds every move, in order, in the game's own notation
    tokens = [t for t in " ".join(text.splitlines()[parsed_header_lines(text) :]).split() if not t.endswith(".")]
    assert tokens[:-1] == list(record.moves) and tokens[-1] == record_text.result_of(record)


def parsed_header_lines(text: str) -> int:
    return text.splitlines().index("") + 1


def test_the_header_names_the_players_seed_result_end_and_plies() -> None:
    record = random_record("tictactoe", 5, 99)
    tags = record_text.parse(record_text.format(record, date="2026.12.03", tags={"Site": "here"})).tags
    assert tags["Game"] == "tictactoe" and (tags["First"], tags["Second"]) == record.players
    assert tags["Seed"] == "5" and tags["End"] == record.end.value and tags["Plies"] == str(record.plies)
    assert tags["Date"] == "2026.12.03" and tags["Site"] == "here"
    assert tags["Result"] == {0: "1-0", 1: "0-1", None: "1/2-1/2"}[record.winner]


def test_the_second_side_to_move_after_an_opening_is_numbered_with_dots() -> None:
    record = random_record("tictactoe", 2, 3, opening_plies=1)
    movetext = record_text.format(record).splitlines()[-1]
    assert movetext.startswith(f"1... {record.moves[0]} 2. {record.moves[1]}")


GOOD = record_text.format(random_record("tictactoe", 11, 99))


def damaged(find: str, replace: str) -> str:
    assert find in GOOD
    return GOOD.replace(find, replace, 1)


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


@pytest.mark.parametrize(
    ("find", "replace", "needle", "words"),
    [
        ('[Game "tictactoe"]', '[Game "chess"]', "[Game", "chess"),
        ('[Game "tictactoe"]', "[Game tictactoe]", "[Game", "not a tag pair"),
        ('[End "', '[End "exploded', "[End", "End"),
        ('[Result "', '[Result "2-', "[Result", "Result"),
        ('[Seed "11"]', '[Seed "eleven"]', "[Seed", "Seed"),
        ('[Date "????.??.??"]', '[Date "yesterday"]', "[Date", "Date"),
        ('[First "', '[Second "', "[Second", "twice"),
    ],
)
def test_a_bad_header_line_is_named(find: str, replace: str, needle: str, words: str) -> None:
    text = damaged(find, replace)
    with pytest.raises(ValueError) as caught:
        record_text.parse(text)
    message = str(caught.value)
    line = max(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)
    assert message.startswith(f"line {line}:") and words in message and "\n" not in message


def test_a_missing_tag_is_named() -> None:
    text = "\n".join(line for line in GOOD.splitlines() if not line.startswith("[Second"))
    with pytest.raises(ValueError, match=r"^line \d+: the header has no Second tag"):
        record_text.parse(text)


def test_an_illegal_move_is_named_by_its_line_number_and_side() -> None:
    record = random_record("tictactoe", 11, 99)
    movetext = record_text.format(record).splitlines()[-1]
    # the third move (X's second) played on the square of the first: taken, by the rules
    repeated = movetext.replace(f"2. {record.moves[2]}", f"2. {record.moves[0]}", 1)
    text = GOOD.replace(movetext, repeated)
    game = get_game("tictactoe")
    after_two = game.play(game.play(game.initial(), record.moves[0]), record.moves[1])
    with pytest.raises(ValueError) as caught:
        record_text.parse(text)
    message = str(caught.value)
    assert message.startswith(f"line {len(text.splitlines())}: move 2 (X) '{record.moves[0]}':")
    assert record.moves[0] not in game.legal_moves(after_two)


def test_a_move_after_the_end_and_a_contradicted_result_are_refused() -> None:
    record = random_record("hexapawn", 4, 99)
    assert record.end is End.WIN
    text = record_text.format(record).replace(
        f" {record_text.result_of(record)}", " 63 " + record_text.result_of(record)
    )
    with pytest.raises(ValueError, match=r"the game is over"):
        record_text.parse(text)
    flipped = "0-1" if record.winner == 0 else "1-0"
    text = record_text.format(record).replace(record_text.result_of(record), flipped)
    with pytest.raises(ValueError, match=rf"^line {line_of(text, '[Result')}: Result says {re.escape(flipped)}"):
        record_text.parse(text)


def test_a_misplaced_move_number_is_named() -> None:
    text = damaged(" 2. ", " 7. ")
    with pytest.raises(ValueError, match=rf"^line {len(text.splitlines())}: move number 7\. where 2\. comes"):
        record_text.parse(text)


@PROFILE
@given(st.lists(st.sampled_from([*GOOD.splitlines(), '[Plies "3"]', "1. 4", "x", "", "[", "1-0", "9."]), max_size=14))
def test_any_text_is_a_record_or_a_one_line_value_error_naming_a_line(lines: list[str]) -> None:
    try:
        parsed = record_text.parse("\n".join(lines))
    except ValueError as error:
        assert re.match(r"^line \d+: ", str(error)) and "\n" not in str(error)
    else:
        assert record_text.parse(record_text.format(parsed.record)).record == parsed.record
