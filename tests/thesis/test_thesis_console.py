"""The console game's logic (thesis/console.py), driven by scripted input.

The program's moves come from a scripted brain here (a test double: it plays a given list of moves,
then the first legal move), so that each test sets up exactly the position it needs; the CLI test
in test_teeko_cli.py plays through the real thesis engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from gamelearn.store.store import Store
from gamelearn.thesis.console import (
    ConsoleSession,
    Decision,
    Mode,
    Switches,
    render_board,
    repeating_cycle,
)
from gamelearn.thesis.memories import Entry, load_memory, load_stat, save_memory


class ScriptedBrain:
    """Plays ``moves`` in order, then the first legal move; records what it was asked."""

    def __init__(self, moves: Sequence[str] = ()) -> None:
        self.moves = list(moves)
        self.session: ConsoleSession | None = None
        self.asked: list[tuple[str, int, int]] = []

    def decide(self, board: str, side: int, ply: int, switches: Switches, memory: Sequence[Entry]) -> Decision:
        self.asked.append((board, side, ply))
        if self.moves:
            return Decision(self.moves.pop(0), ("thinking: scripted",))
        assert self.session is not None and self.session.current is not None
        state = self.session.current.state
        return Decision(self.session.game.legal_moves(state)[0], ("thinking: first legal move",))


def make_session(tmp_path: Path, moves: Sequence[str] = (), **options) -> tuple[ConsoleSession, ScriptedBrain, Store]:
    store = Store(tmp_path / "db.sqlite3")
    brain = ScriptedBrain(moves)
    session = ConsoleSession(store, brain, **options)
    brain.session = session
    return session, brain, store


def play(session: ConsoleSession, lines: Sequence[str]) -> list[str]:
    """Send each line; every screen's lines and prompts, in order."""
    out: list[str] = []
    for line in lines:
        screen = session.send(line)
        out.extend(screen.lines)
        out.append("PROMPT " + screen.prompt)
    return out


# --- draw detection ---------------------------------------------------------------------------


def test_repeating_cycle_checks_each_period_twice():
    a, b, c, d = "a", "b", "c", "d"
    two = [a, b, c, d] * 2  # the last 4 plies (2 moves a side) played twice: section h's cycle 2
    assert repeating_cycle(two, (2, 3, 4, 5)) == 2
    assert repeating_cycle(two[1:], (2, 3, 4, 5)) is None  # 7 boards cannot show two periods
    three = list("abcdef") * 2
    assert repeating_cycle(three, (2, 3, 4, 5)) == 3
    assert repeating_cycle(three, (2,)) is None
    four = list("abcdefgh") * 2  # section h's cycle 4: slots 0-7 equal 8-15
    assert repeating_cycle(["z"] + four, (2, 3, 4)) == 4
    five = list("abcdefghij") * 2
    assert repeating_cycle(five, (2, 3, 4)) is None
    assert repeating_cycle(five, (2, 3, 4, 5)) == 5
    six = list("abcdefghijkl") * 2  # a 6-move cycle is not one the program looks for
    assert repeating_cycle(six, (2, 3, 4, 5)) is None
    assert repeating_cycle(list("abcdefghijklmnop"), (2, 3, 4, 5)) is None  # nothing repeats
    # the seed's bug: a "cycle of 5" compared a position with itself; a proper check never does
    assert repeating_cycle(["x"] * 3, (5,)) is None


def test_render_board_has_the_original_layout():
    assert render_board("X...." + "....." + "..O.." + "....." + "....X").splitlines() == [
        "  0 1 2 3 4",
        "0 X . . . .",
        "1 . . . . .",
        "2 . . O . .",
        "3 . . . . .",
        "4 . . . . X",
    ]


# --- the menu ---------------------------------------------------------------------------------


def test_menu_toggles_help_rules_statistics_and_quit(tmp_path: Path):
    session, _, store = make_session(tmp_path)
    first = session.start()
    assert "1  you begin" in "\n".join(first.lines) and "thinking ON" in "\n".join(first.lines)
    out = play(session, ["h", "s", "l", "t", "p", "h"])
    assert out.count("Heuristics is now OFF.") == 1 and "Heuristics is now ON." in out
    assert "Search is now OFF." in out and "Learning is now OFF." in out and "Thinking is now OFF." in out
    assert session.switches == Switches(pause=False, heuristics=True, search=False, learning=False, thinking=False)
    assert any("rcRC" in line for line in play(session, ["/"]))
    assert any("Teeko" in line or "four" in line for line in play(session, ["r"]))
    assert any("There is no choice 'x'" in line for line in play(session, ["x"]))
    stats = play(session, ["?"])
    assert "Games the program began:    0 in all" in stats and session.mode is Mode.STATISTICS
    play(session, [""])
    assert session.mode is Mode.MENU
    final = session.send("q")
    assert final.finished and load_memory(store, "console") == []  # created empty at start-up


# --- games against a person -------------------------------------------------------------------


def test_bad_moves_are_refused_with_a_clear_line_and_asked_again(tmp_path: Path):
    session, _, store = make_session(tmp_path, moves=["44", "12", "21", "24"])
    session.start()
    out = play(session, ["1", "5", "05", "00", "00", "04", "30", "40"])
    assert any("illegal move '5': not a Teeko move" in line for line in out)
    assert any("illegal move '05': off the board" in line for line in out)  # column 5 is not a field
    assert any("square 00 is occupied" in line for line in out)
    # the moving phase: X on 00 04 30 40, O on 44 12 21 24
    out = play(session, ["1344", "0002", "4449", "0001"])
    assert any("no X pawn on 13" in line for line in out)
    assert any("illegal move '0002': too far: 02 is not next to 00" in line for line in out)
    assert any("illegal move '4449': off the board" in line for line in out)
    assert session.current is not None and session.current.moves[8] == "0001"
    # a leading q abandons: not counted, not learned
    out = play(session, ["quit"])
    assert any("abandoned" in line for line in out) and session.mode is Mode.MENU
    assert load_stat(store) == (0,) * 9
    assert load_memory(store, "console") == []
    assert [r["end"] for r in store.records(game="teeko", context="teeko-console")] == ["abandoned"]


def test_the_person_wins_and_it_is_learned_as_the_persons_win(tmp_path: Path):
    session, brain, store = make_session(tmp_path, moves=["40", "41", "42", "30"])
    session.start()
    out = play(session, ["1", "00", "01", "02", "14", "1403"])
    assert "You have won. Congratulations!" in out
    # the program (O) is side 1 of the memory, the person (X) side 2: the ply-9 board, won by side 2
    assert load_memory(store, "console") == [("2222000000000001000011100", 0, 1)]
    assert load_stat(store) == (0, 0, 0, 0, 0, 0, 0, 0, 1)  # program second, lost
    assert [side for _, side, _ in brain.asked] == [1, 1, 1, 1]  # the program is +1 whoever begins


def test_a_win_whose_count_would_pass_9999_is_not_learned_and_the_game_still_counts(tmp_path: Path):
    """The thesis format holds a count in 4 characters: the original stopped with "Learned number
    is too big."; the console says so in one line, keeps the memory as it was, and counts the game."""
    session, _, store = make_session(tmp_path, moves=["40", "41", "42", "30"])
    save_memory(store, "console", [("2222000000000001000011100", 0, 9999)])
    session.start()
    out = play(session, ["1", "00", "01", "02", "14", "1403"])
    assert "You have won. Congratulations!" in out
    assert any(line.startswith("Not learned: record 1: a count would pass 9999") for line in out)
    assert load_memory(store, "console") == [("2222000000000001000011100", 0, 9999)]
    assert load_stat(store) == (0, 0, 0, 0, 0, 0, 0, 0, 1)
    assert session.mode is Mode.MENU


def test_the_program_wins_after_the_person_began_and_learns_it_the_right_way_round(tmp_path: Path):
    """The original credited this game to the person (an even last ply); fixed: to the program."""
    session, brain, store = make_session(tmp_path, moves=["11", "12", "13", "23", "2314"])
    session.start()
    out = play(session, ["1", "00", "04", "20", "24", "0001"])
    assert "I have won." in out
    after_9 = "0200201110200120000000000"
    assert brain.asked[-1] == (after_9, 1, 10)
    after_10 = "0200201111200020000000000"
    assert load_memory(store, "console") == [(after_9, 1, 0), (after_10, 1, 0)]
    assert load_stat(store) == (0, 0, 0, 0, 0, 0, 1, 0, 0)  # program second, won
    assert any(line.startswith("Add " + after_9) for line in out)


def test_the_program_begins_and_wins_counting_in_the_program_first_fields(tmp_path: Path):
    session, brain, store = make_session(tmp_path, moves=["11", "12", "13", "23", "2314"])
    session.start()
    out = play(session, ["2", "00", "02", "40"])
    assert session.mode is Mode.MOVE
    out = play(session, ["44"])  # the program (X) then steps 23 to 14: 11 12 13 14
    assert "I have won." in out
    assert load_memory(store, "console") == [("2020001111000000000020002", 1, 0)]
    assert load_stat(store) == (0, 0, 0, 1, 0, 0, 0, 0, 0)  # program began, won
    assert [ply for _, _, ply in brain.asked] == [1, 3, 5, 7, 9]


def test_no_draw_offer_unless_the_moves_repeat_and_the_cap_draws_at_ply_100(tmp_path: Path):
    """X walks a 3-move loop, O a 2-move loop: the position repeats only every 6 moves, a cycle
    the program does not look for, so there is never an offer (the original offered one on every
    turn from ply 25); the game is drawn by the 100-ply cap."""
    placing = ["44", "12", "21", "24"]
    o_loop = ["4443", "4344"] * 30
    session, _, store = make_session(tmp_path, moves=placing + o_loop)
    session.start()
    x_loop = ["0001", "0110", "1000"] * 20
    out = play(session, ["1", "00", "04", "30", "40"])
    for move in x_loop:
        out += play(session, [move])
        if session.mode is Mode.MENU:
            break
    assert not any("offer" in line for line in out)
    assert "100 moves reached! Draw!" in out and "The game has been drawn." in out
    assert load_stat(store) == (0, 0, 0, 0, 0, 0, 0, 1, 0)
    assert load_memory(store, "console") == []  # draws teach nothing


def five_cycle_session(tmp_path: Path) -> tuple[ConsoleSession, Store, list[str]]:
    placing = ["44", "12", "21", "24"]
    o_loop = ["4443", "4342", "4233", "3334", "3444"] * 6
    session, _, store = make_session(tmp_path, moves=placing + o_loop)
    session.start()
    out = play(session, ["1", "00", "04", "30", "40"])
    x_loop = ["0001", "0102", "0211", "1110", "1000"] * 6
    for move in x_loop:
        out += play(session, [move])
        if session.mode is Mode.DRAW_OFFER:
            break
    return session, store, out


def test_a_draw_is_offered_when_five_moves_repeat_and_y_accepts(tmp_path: Path):
    session, store, out = five_cycle_session(tmp_path)
    assert session.mode is Mode.DRAW_OFFER
    assert session.current is not None and session.current.ply == 30  # 20 boards: two periods of 10 plies
    assert "The moves repeat (a cycle of 5 moves)." in out
    assert sum("offer" in line for line in out) == 1
    out = play(session, ["y"])
    assert "You accepted the draw." in out and "The game has been drawn." in out
    assert load_stat(store) == (0, 0, 0, 0, 0, 0, 0, 1, 0)


def test_a_declined_draw_plays_on_and_is_offered_again_while_it_repeats(tmp_path: Path):
    session, _, _ = five_cycle_session(tmp_path)
    out = play(session, ["n"])
    assert "Then we play on." in out and session.mode is Mode.MOVE
    assert session.current is not None and session.current.ply == 31
    out = play(session, ["0102"])
    assert session.mode is Mode.DRAW_OFFER and session.current.ply == 32


# --- autoplay, the score across sessions ------------------------------------------------------


def test_autoplay_without_pause_plays_a_whole_game_and_counts_it_as_self_play(tmp_path: Path):
    session, brain, store = make_session(tmp_path)
    session.start()
    play(session, ["p", "t"])
    out = play(session, ["3"])
    assert session.mode is Mode.MENU
    assert not any(line.startswith("thinking:") for line in out)  # thinking output is off
    counts = load_stat(store)
    assert sum(counts[:3]) == 1 and sum(counts[3:]) == 0
    sides = [side for _, side, _ in brain.asked]
    assert sides[:4] == [1, -1, 1, -1]  # player I is +1, player II -1


def test_autoplay_with_pause_plays_one_ply_per_enter_and_q_aborts(tmp_path: Path):
    session, brain, store = make_session(tmp_path)
    session.start()
    screen = session.send("3")
    assert session.mode is Mode.PAUSED and "Enter" in screen.prompt and brain.asked == []
    session.send("")
    session.send("")
    assert len(brain.asked) == 2 and session.mode is Mode.PAUSED
    assert any(line.startswith("thinking:") for line in session.send("").lines)
    session.send("q")
    assert session.mode is Mode.MENU and load_stat(store) == (0,) * 9


def test_the_score_is_kept_across_sessions(tmp_path: Path):
    session, _, _ = make_session(tmp_path, moves=["40", "41", "42", "30"])
    session.start()
    play(session, ["1", "00", "01", "02", "14", "1403"])
    again, _, _ = make_session(tmp_path)
    again.start()
    stats = play(again, ["?"])
    assert "Games the program played second:    1 in all" in stats
    assert any("lost" in line and "1  100.00%" in line for line in stats)
    play(again, ["r"])
    assert load_stat(Store(tmp_path / "db.sqlite3")) == (0,) * 9


@pytest.mark.parametrize("answer", ["q", "qx", "Q"])
def test_any_line_beginning_with_q_abandons(tmp_path: Path, answer: str):
    session, _, _ = make_session(tmp_path)
    session.start()
    play(session, ["2"])
    assert session.mode is Mode.MOVE
    play(session, [answer])
    assert session.mode is Mode.MENU


@pytest.mark.parametrize("command", ["1", "2"])
def test_a_whole_game_against_the_thesis_engine(tmp_path: Path, command: str):
    """A person who always plays the first legal move and accepts any draw, against the real engine."""
    from gamelearn.thesis.console import EngineBrain

    store = Store(tmp_path / "db.sqlite3")
    session = ConsoleSession(store, EngineBrain(seed=2))
    session.start()
    out = play(session, [command])
    while session.mode is not Mode.MENU:
        if session.mode is Mode.DRAW_OFFER:
            assert any("The moves repeat" in line for line in out[-6:])
            out += play(session, ["y"])
        else:
            assert session.current is not None
            out += play(session, [session.game.legal_moves(session.current.state)[0]])
    counts = load_stat(store)
    group = counts[3:6] if command == "2" else counts[6:9]
    assert sum(group) == 1 and sum(counts) == 1
    memory = load_memory(store, "console") or []
    (record,) = store.records(game="teeko", context="teeko-console")
    if record["plies"] < 9 or not (group[0] or group[2]):
        assert memory == []  # won while placing, or drawn: nothing to learn
    elif group[0]:  # the program won: everything learned is a win of side 1, the program
        assert memory and all(o == 0 for _, _, o in memory)
    else:
        assert memory and all(x == 0 for _, x, _ in memory)
    assert sum(x + o for _, x, o in memory) == (record["plies"] - 8 if memory else 0)
