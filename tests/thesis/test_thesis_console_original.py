"""The console of the 1999 program as it was (``ConsoleSession(original=True)``, ``gamelearn teeko
console --original``): one test per quirk of the original's console, each against the thesis facts
(the seed's list of bugs, and the port's fixes 3, 4, 5 and 12 switched off), and the whole console
against the real original program's own output (its reference runs).

The program's moves come from a scripted brain where a test needs an exact position (the same
test double as tests/thesis/test_thesis_console.py), and from the thesis engine in original mode
(``EngineBrain(seed, original=True)``, the engine of ``batch --original``) where the original's
own moves matter.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_thesis_console import make_session, play
from typer.testing import CliRunner

from gamelearn.cli.main import app
from gamelearn.store.store import Store
from gamelearn.thesis.console import ConsoleSession, EngineBrain, Mode, Switches
from gamelearn.thesis.files import format_memory, format_stat
from gamelearn.thesis.memories import load_memory, load_stat, save_stat
from gamelearn.thesis.screens import percentage

#: The person (X) puts pawns on 00 04 30 40, the program (O) on 44 12 21 24: the moving phase at ply 9.
PERSON_PLACES = ["1", "00", "04", "30", "40"]
PROGRAM_PLACES = ["44", "12", "21", "24"]


def pawns(session: ConsoleSession, symbol: str) -> set[str]:
    """The fields of ``symbol``'s pawns on the board the console shows now."""
    assert session.current is not None
    board = session.game.board(session.current.state)
    return {f"{sq // 5}{sq % 5}" for sq, ch in enumerate(board) if ch == symbol}


def board_rows(session: ConsoleSession) -> list[str]:
    """The board the console shows now, row by row (what a person reads off the screen)."""
    assert session.current is not None
    board = session.game.board(session.current.state)
    return [board[r * 5 : r * 5 + 5] for r in range(5)]


# --- getmove(): the person's moves (fix 5 off) ---------------------------------------------------


def test_original_step_checks_three_digits_own_pawn_and_empty_target_never_adjacency(tmp_path: Path) -> None:
    """THESIS-FACTS (g): the original checks the first three digits, own pawn and empty target, and
    never adjacency: 0002 jumps over 01.  What it refuses, it refuses with the rules' words."""
    session, _, _ = make_session(tmp_path, moves=PROGRAM_PLACES, original=True)
    session.start()
    play(session, PERSON_PLACES)
    out = play(session, ["1344", "0012", "5001", "0050", "000/", "00"])
    assert "illegal move '1344': no X pawn on 13. Try again." in out
    assert "illegal move '0012': square 12 is occupied. Try again." in out
    assert any(line.startswith("illegal move '5001': off the board") for line in out)  # first digit
    assert any(line.startswith("illegal move '0050': off the board") for line in out)  # third digit
    assert any(line.startswith("illegal move '000/': not a Teeko move") for line in out)  # below '0'
    assert any(line.startswith("illegal move '00': wrong phase") for line in out)
    assert session.current is not None and session.current.ply == 9  # every one asked again
    play(session, ["0002"])  # two fields away: the fixed console says "too far"
    assert pawns(session, "X") == {"02", "04", "30", "40"}  # 00 left for 02
    assert session.current.moves[8] == "0002"


def test_fixed_refuses_the_jump_the_original_lets_through(tmp_path: Path) -> None:
    session, _, _ = make_session(tmp_path, moves=PROGRAM_PLACES)
    session.start()
    play(session, PERSON_PLACES)
    assert "illegal move '0002': too far: 02 is not next to 00. Try again." in play(session, ["0002"])


def test_original_fourth_digit_over_4_runs_on_into_the_next_row(tmp_path: Path) -> None:
    """Only the fourth digit's lower bound is tested: 0009 is field 9 of X[5][5], that is 14; its
    emptiness is tested there (0007 would land on 12, the program's)."""
    session, _, _ = make_session(tmp_path, moves=PROGRAM_PLACES, original=True)
    session.start()
    play(session, PERSON_PLACES)
    assert "illegal move '0007': square 12 is occupied. Try again." in play(session, ["0007"])
    play(session, ["0009"])
    assert pawns(session, "X") == {"14", "04", "30", "40"}  # 00 went to 14


@pytest.mark.parametrize("line", ["4049", "404a"])
def test_original_target_past_the_board_takes_the_pawn_off_it(tmp_path: Path, line: str) -> None:
    """The seed: "4449, with your pawn on 44, can put it past the end of the board ... and it is
    gone" (here 4049 from 40: field 29; 'a' is 49 past '0', field 69).  The engine reads past the
    board as empty, so the target passes; the person plays on with three pawns, the program with
    its four, in the moving phase (the ply counter, not the pawn count, tells the phases apart)."""
    session, brain, _ = make_session(tmp_path, moves=[*PROGRAM_PLACES, "4443"], original=True)
    session.start()
    play(session, PERSON_PLACES)
    play(session, [line])
    assert session.current is not None and session.current.moves[8] == line
    assert pawns(session, "X") == {"00", "04", "30"} and pawns(session, "O") == {"12", "21", "24", "43"}
    seven = "2000200100010012000000001"  # '1' the program, '2' the person: three of them
    assert brain.asked[-1] == (seven, 1, 10)  # ply 10, the program's step (4443)
    # The engine, asked for a move on such a board at ply 10, steps a pawn: it does not place one.
    engine = EngineBrain(1, original=True)
    move = engine.decide(seven, 1, 10, Switches(thinking=False), []).move
    assert len(move) == 4


def test_original_refuses_a_fourth_character_below_0_or_outside_ascii(tmp_path: Path) -> None:
    session, _, _ = make_session(tmp_path, moves=PROGRAM_PLACES, original=True)
    session.start()
    play(session, PERSON_PLACES)
    out = play(session, ["000 1", "000\u00e9", "000"])
    assert sum(line.startswith("illegal move") and "not a Teeko move" in line for line in out) == 3


# --- draws (fix 4 off) ---------------------------------------------------------------------------


def test_original_offers_a_draw_on_every_program_turn_from_ply_25(tmp_path: Path) -> None:
    """THESIS-FACTS (h): person games ask for cycles 2, 3 and 5; 5 compares a slot with itself, so
    there is an offer on every program turn from ply 25 (the seed: "on all 1,134 of its turns past
    move 24, and the position was repeating in none of them").  X walks a 3-move loop and O a
    2-move loop: nothing repeats within 8 moves, and the fixed console never offers
    (tests/thesis/test_thesis_console.py); the 100-ply cap ends the game."""
    o_loop = ["4443", "4344"] * 40
    session, _, store = make_session(tmp_path, moves=PROGRAM_PLACES + o_loop, original=True)
    session.start()
    out = play(session, PERSON_PLACES)
    x_loop = iter(["0001", "0110", "1000"] * 30)
    offered_at = []
    while session.mode is not Mode.MENU:
        if session.mode is Mode.DRAW_OFFER:
            assert session.current is not None
            offered_at.append(session.current.ply)
            out += play(session, ["n"])
        else:
            out += play(session, [next(x_loop)])
    assert offered_at == list(range(26, 101, 2))  # the program (O) plays the even plies
    assert out.count("The moves repeat (a cycle of 5 moves).") == len(offered_at)
    assert "100 moves reached! Draw!" in out and "The game has been drawn." in out
    assert load_stat(store) == (0, 0, 0, 0, 0, 0, 0, 1, 0)


def test_original_draw_offer_accepted_draws_the_game(tmp_path: Path) -> None:
    o_loop = ["4443", "4344"] * 10
    session, _, store = make_session(tmp_path, moves=PROGRAM_PLACES + o_loop, original=True)
    session.start()
    play(session, PERSON_PLACES)
    for move in ["0001", "0110", "1000"] * 3:
        play(session, [move])
        if session.mode is Mode.DRAW_OFFER:
            break
    assert session.mode is Mode.DRAW_OFFER and session.current is not None and session.current.ply == 26
    assert "You accepted the draw." in play(session, ["y"])
    assert load_stat(store) == (0, 0, 0, 0, 0, 0, 0, 1, 0) and session.mode is Mode.MENU


# --- learning by ply parity (fix 3 off) ------------------------------------------------------------


def test_original_learns_a_game_the_person_began_the_wrong_way_round(tmp_path: Path) -> None:
    """THESIS-FACTS (a): the original credits a won game by the ply parity (odd: side '1', the
    program).  The person began; the program won on ply 10, so every position went down as the
    person's win (the seed: "every position is counted as a win for the loser")."""
    session, _, store = make_session(tmp_path, moves=["11", "12", "13", "23", "2314"], original=True)
    session.start()
    out = play(session, ["1", "00", "04", "20", "24", "0001"])
    assert "I have won." in out
    after_9, after_10 = "0200201110200120000000000", "0200201111200020000000000"
    assert load_memory(store, "console") == [(after_9, 0, 1), (after_10, 0, 1)]  # fixed: (1, 0) each
    assert any("side 2 won" in line for line in out)
    assert load_stat(store) == (0, 0, 0, 0, 0, 0, 1, 0, 0)  # the score is right: program second, won


def test_original_learns_the_persons_win_as_the_programs(tmp_path: Path) -> None:
    session, _, store = make_session(tmp_path, moves=["40", "41", "42", "30"], original=True)
    session.start()
    out = play(session, ["1", "00", "01", "02", "14", "1403"])  # X (the person) wins on ply 9
    assert "You have won. Congratulations!" in out
    assert load_memory(store, "console") == [("2222000000000001000011100", 1, 0)]  # fixed: (0, 1)


def test_original_learns_a_game_the_program_began_the_right_way_round(tmp_path: Path) -> None:
    """When the program began, the parity is right: the same memory as the fixed console's."""
    session, _, store = make_session(tmp_path, moves=["11", "12", "13", "23", "2314"], original=True)
    session.start()
    out = play(session, ["2", "00", "02", "40", "44"])
    assert "I have won." in out
    assert load_memory(store, "console") == [("2020001111000000000020002", 1, 0)]


def test_original_does_not_learn_a_board_with_a_pawn_off_the_board(tmp_path: Path) -> None:
    """The original wrote such boards into memory.m; the thesis format holds four pawns a side, so
    here the game counts and nothing is learned, said in one line."""
    moves = [*PROGRAM_PLACES, "1222", "4434", "3423"]  # O: 21 22 23 24 on ply 14
    session, _, store = make_session(tmp_path, moves=moves, original=True)
    session.start()
    play(session, PERSON_PLACES)
    out = play(session, ["4049", "3031", "0001"])  # 40 off the board, then two steps
    assert "I have won." in out
    assert "Not learned: a pawn went off the board, and a memory holds four pawns a side." in out
    assert load_memory(store, "console") == []
    assert load_stat(store) == (0, 0, 0, 0, 0, 0, 1, 0, 0)


# --- the statistics screen (fix 12 off) ----------------------------------------------------------


def test_original_statistics_show_the_program_first_total_as_the_program_second_one(tmp_path: Path) -> None:
    """THESIS-FACTS (b): "Orig shows the program-first total as the program-second one"."""
    store = Store(tmp_path / "db.sqlite3")
    save_stat(store, (5, 1, 2, 2, 1, 0, 1, 0, 3))
    screens = {}
    for original in (False, True):
        session = ConsoleSession(store, EngineBrain(1, original=original), original=original)
        session.start()
        screens[original] = session.send("?").lines
    assert "Games the program began:    3 in all" in screens[True]
    assert "Games the program played second:    3 in all" in screens[True]  # 4 were played second
    assert "Games the program played second:    4 in all" in screens[False]
    # the counts and their shares are the group's own in both (the facts name the total only)
    assert (
        "    lost                  3   75.00%" in screens[True]
        and "    lost                  3   75.00%" in screens[False]
    )


def test_original_rounds_a_percentage_that_ends_in_exactly_a_half_up(tmp_path: Path) -> None:
    """The seed: "Visual C++ 6 rounded a percentage that ends in exactly a half up, 3.125 to 3.13";
    Python's printf-style rounding makes it 3.12 (half to even)."""
    assert percentage(1, 32, half_up=True) == "  3.13%" and percentage(1, 32) == "  3.12%"
    assert percentage(1, 3, half_up=True) == percentage(1, 3) == " 33.33%"  # no tie: the same
    assert percentage(32, 32, half_up=True) == "100.00%"
    store = Store(tmp_path / "db.sqlite3")
    save_stat(store, (1, 31, 0, 0, 0, 0, 0, 0, 0))
    session = ConsoleSession(store, EngineBrain(1, original=True), original=True)
    session.start()
    assert "    Player I (X) won      1    3.13%" in session.send("?").lines


# --- what hung the original ----------------------------------------------------------------------


def test_original_opening_hang_is_said_and_the_game_abandoned(tmp_path: Path) -> None:
    """The seed's recipe: "move first, put pawns on 40 and 04, and if its second pawn goes to 13 or
    31, put yours on 33, and then on 11": with srand(3) the program's second pawn goes to 13, its
    third to 31, and its fourth would be drawn from 11/13/31/33 for ever.  The fixed program puts
    it on a random free field instead."""
    store = Store(tmp_path / "db.sqlite3")
    session = ConsoleSession(store, EngineBrain(3, original=True), original=True)
    session.start()
    play(session, ["t", "1", "40", "04", "33"])
    assert board_rows(session) == ["....X", "...O.", "..O..", ".O.X.", "X...."]
    out = play(session, ["11"])
    assert any(
        line.startswith("The program would never stop here: the original's opening loops for ever") for line in out
    )
    assert "The game has been abandoned; it is neither counted nor learned." in out
    assert session.mode is Mode.MENU and load_stat(store) == (0,) * 9


# --- the whole console against the original program ----------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_original_autoplay_replays_the_original_programs_reference_runs(
    thesis_data: Path, tmp_path: Path, seed: int
) -> None:
    """Autoplay with both sides +h+s+l on one memory.m is the reference runs' setting A (both sides
    learning from empty memories keep identical memories: THESIS-FACTS (f)): with srand(T), 30
    games at the original console play every move of run A-T of the compiled original program, and
    leave its memory.m and stat.m byte for byte."""
    runs = thesis_data / "original-traces"
    trace = (runs / f"run-A-{seed}.out").read_text()
    store = Store(tmp_path / "db.sqlite3")
    session = ConsoleSession(store, EngineBrain(seed, original=True), original=True)
    session.start()
    play(session, ["p", "t"])  # pause and thinking off: each 3 plays one game through
    for game in range(1, 31):
        expected = re.findall(rf"^TRACE PLY g={game} n=\d+ side=\S+ mv=(\d+) ", trace, re.MULTILINE)
        played = [m.group(1) for line in session.send("3").lines if (m := re.search(r" plays (\d+)$", line))]
        assert played == expected, f"game {game}"
    assert format_memory(load_memory(store, "console") or []) == (runs / f"run-A-{seed}.memory.m").read_bytes()
    assert format_stat(load_stat(store)) == (runs / f"run-A-{seed}.stat.m").read_bytes()


def test_the_command_takes_original(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GAMELEARN_HOME", str(tmp_path))
    result = CliRunner().invoke(app, ["teeko", "console", "--original", "--seed", "3"], input="t\n2\n00\nq\nq\n")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Teeko, the 1999 thesis program (original).  / for help.\n")
    assert "Move 1, Ply: The program plays 22" in result.output
