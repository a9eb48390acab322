"""play_game and its record: moves, winner, plies, how the game ended; Teeko's repetition and
ply-cap draws; seeds; learning after the game."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import pytest

from gamelearn import End, IllegalMove, get_game, make_player, play_game
from gamelearn.match import GameOver, Match
from gamelearn.players.base import Player

TEEKO = get_game("teeko")
TTT = get_game("tictactoe")


class Scripted(Player):
    """Plays the moves it is given, in order (None resigns), and remembers what it learned."""

    kind = "scripted"

    def __init__(self, game, moves: Sequence[str | None]) -> None:
        super().__init__(game, seed=None)
        self.script = list(moves)
        self.learned: list[tuple[object, int | None]] = []

    def choose(self, state: Hashable) -> str | None:
        return self.script.pop(0)

    def learn(self, record, side: int | None = None) -> None:
        self.learned.append((record, side))


def replay(game, moves: Sequence[str]) -> list:
    states = [game.initial()]
    for move in moves:
        states.append(game.play(states[-1], move))
    return states


def test_the_record_replays_to_the_same_positions_and_result() -> None:
    players = [make_player(TTT, "random", seed=0), make_player(TTT, "random", seed=0)]
    for seed in range(20):
        record = play_game(TTT, players, seed=seed)
        assert list(record.states) == replay(TTT, record.moves)
        assert record.plies == len(record.moves) and record.final == record.states[-1]
        assert record.winner == TTT.winner(record.final)
        assert record.end is (End.WIN if record.winner is not None else End.DRAW)
        assert record.to_dict()["moves"] == list(record.moves) and record.to_dict()["end"] == record.end.value


def test_a_win_and_a_full_board_draw() -> None:
    win = play_game(TTT, [Scripted(TTT, "012"), Scripted(TTT, "34")])
    assert (win.winner, win.end, win.plies, win.moves) == (0, End.WIN, 5, ("0", "3", "1", "4", "2"))
    draw = play_game(TTT, [Scripted(TTT, "02378"), Scripted(TTT, "1456")])  # XOX / XOO / OXX
    assert (draw.winner, draw.end, draw.plies) == (None, End.DRAW, 9)


def test_the_same_seed_replays_the_same_game_and_another_seed_another() -> None:
    players = [make_player(TEEKO, "random"), make_player(TEEKO, "random")]
    first = play_game(TEEKO, players, seed=3, max_plies=80)
    again = play_game(TEEKO, players, seed=3, max_plies=80)
    other = play_game(TEEKO, players, seed=4, max_plies=80)
    assert first.moves == again.moves and first.end == again.end
    assert other.moves != first.moves


PLACING = ["00", "44", "01", "43", "02", "42", "20", "24"]  # no four among them


def test_teeko_third_repetition_is_a_draw_and_the_record_says_so() -> None:
    # After the placement, X shuffles 20-30-20 and O 24-34-24: the position after ply 8 comes back
    # at plies 12 and 16, its third time.
    x_moves = PLACING[0::2] + ["2030", "3020"] * 2 + ["2030"]
    o_moves = PLACING[1::2] + ["2434", "3424"] * 2 + ["2434"]
    record = play_game(TEEKO, [Scripted(TEEKO, x_moves), Scripted(TEEKO, o_moves)])
    assert record.end is End.REPETITION and record.winner is None
    assert record.plies == 16
    assert record.states.count(record.final) == 3
    assert all(record.states[:-1].count(s) < 3 for s in record.states[:-1])


def test_repetition_is_of_board_and_side_to_move() -> None:
    # X walks a triangle (20-30-31-20) while O shuffles (24-34-24): after 5 plies the board is
    # back with the *other* side to move.  The position after ply 8 (X to move) comes back at plies
    # 20 and 32; its board alone comes back at ply 13 already, with O to move, which does not count
    # (counting boards alone would end the game at ply 20).
    x_moves = PLACING[0::2] + ["2030", "3031", "3120"] * 5
    o_moves = PLACING[1::2] + ["2434", "3424"] * 8
    record = play_game(TEEKO, [Scripted(TEEKO, x_moves), Scripted(TEEKO, o_moves)])
    assert record.end is End.REPETITION and record.plies == 32
    assert record.final == record.states[8] == record.states[20]
    assert TEEKO.board(record.states[13]) == TEEKO.board(record.final) and TEEKO.to_move(record.states[13]) == 1


def test_the_ply_cap_is_a_draw_and_the_record_says_so() -> None:
    record = play_game(TEEKO, [Scripted(TEEKO, PLACING[0::2] + ["2030"]), Scripted(TEEKO, PLACING[1::2])], max_plies=9)
    assert (record.end, record.winner, record.plies) == (End.MAX_PLIES, None, 9)
    random_game = play_game(TEEKO, [make_player(TEEKO, "random"), make_player(TEEKO, "random")], seed=1, max_plies=12)
    assert random_game.plies <= 12
    assert random_game.end in (End.MAX_PLIES, End.WIN, End.REPETITION)
    if random_game.end is End.MAX_PLIES:
        assert random_game.plies == 12 and random_game.winner is None


def test_a_player_that_gives_up_loses() -> None:
    record = play_game(TTT, [Scripted(TTT, ["4", None]), Scripted(TTT, ["0"])])
    assert (record.winner, record.end, record.plies) == (1, End.RESIGN, 2)


def test_each_player_learns_once_with_its_side() -> None:
    x, o = Scripted(TTT, "012"), Scripted(TTT, "34")
    record = play_game(TTT, [x, o])
    assert x.learned == [(record, 0)] and o.learned == [(record, 1)]
    quiet = [Scripted(TTT, "012"), Scripted(TTT, "34")]
    play_game(TTT, quiet, learn=False)
    assert quiet[0].learned == [] == quiet[1].learned


def test_one_player_on_both_sides_learns_once_from_the_whole_game() -> None:
    both = Scripted(TTT, "031425")
    record = play_game(TTT, [both, both])
    assert both.learned == [(record, None)]


def test_on_move_sees_every_move() -> None:
    seen: list[tuple[Hashable, str, Hashable]] = []
    record = play_game(TTT, [Scripted(TTT, "012"), Scripted(TTT, "34")], on_move=lambda b, m, a: seen.append((b, m, a)))
    assert [m for _, m, _ in seen] == list(record.moves)
    assert [a for _, _, a in seen] == list(record.states[1:])


def test_bad_arguments_are_value_errors() -> None:
    with pytest.raises(ValueError, match="two players"):
        play_game(TTT, [make_player(TTT, "random")])
    with pytest.raises(ValueError, match="max_plies"):
        play_game(TTT, [make_player(TTT, "random")] * 2, max_plies=0)


# --- Match: the same game a ply at a time (the web app's person moves in a later request) ------


def test_a_match_stepped_by_hand_ends_and_records_like_the_rules_say() -> None:
    x, o = Scripted(TTT, []), Scripted(TTT, "34")
    match = Match(TTT, [x, o])
    assert (match.state, match.to_move, match.is_finished, match.record) == (TTT.initial(), 0, False, None)
    assert match.legal_moves() == TTT.legal_moves(TTT.initial())
    match.play("0")  # a person's move for X
    assert match.advance() == "3" and match.to_move == 0
    match.play("1")
    assert match.advance() == "4"
    assert match.play("2") == TTT.play(TTT.play(TTT.play(TTT.play(TTT.play(TTT.initial(), "0"), "3"), "1"), "4"), "2")
    assert match.is_finished and match.legal_moves() == []
    record = match.record
    assert record is not None
    assert (record.winner, record.end, record.moves) == (0, End.WIN, ("0", "3", "1", "4", "2"))
    assert list(record.states) == replay(TTT, record.moves) and match.states == record.states
    assert x.learned == [(record, 0)] and o.learned == [(record, 1)]  # at the end, at once, once
    assert match.learn_from_game() is False and x.learned == [(record, 0)]


def test_an_illegal_move_from_outside_changes_nothing() -> None:
    match = Match(TTT, [Scripted(TTT, []), Scripted(TTT, [])])
    match.play("4")
    for bad in ("4", "9", "x", ""):
        with pytest.raises(IllegalMove):
            match.play(bad)
    assert match.moves == ("4",) and match.states == (TTT.initial(), TTT.play(TTT.initial(), "4"))
    assert not match.is_finished and match.to_move == 1


def test_a_finished_match_refuses_moves_and_keeps_its_end() -> None:
    match = Match(TTT, [Scripted(TTT, ["4", None]), Scripted(TTT, ["0"])])
    assert match.advance() == "4" and match.advance() == "0"
    assert match.advance() is None  # X resigns
    assert (match.winner, match.end, match.plies) == (1, End.RESIGN, 2)
    with pytest.raises(IllegalMove, match="over"):
        match.play("8")
    with pytest.raises(GameOver):
        match.advance()
    assert match.abandon().end is End.RESIGN  # abandoning after the end changes nothing


def test_an_abandoned_match_has_a_record_and_teaches_nobody() -> None:
    x, o = Scripted(TTT, "0"), Scripted(TTT, [])
    match = Match(TTT, [x, o])
    match.advance()
    record = match.abandon()
    assert (record.end, record.winner, record.moves) == (End.ABANDONED, None, ("0",))
    assert match.is_finished and match.record is record
    assert match.learn_from_game() is False and x.learned == [] == o.learned


def test_a_match_that_does_not_learn_by_itself_learns_once_when_asked() -> None:
    both = Scripted(TTT, "031425")
    match = Match(TTT, [both, both], learn=False)
    assert match.learn_from_game() is False  # not finished yet
    while not match.is_finished:
        match.advance()
    assert both.learned == [] and not match.learned
    assert match.learn_from_game() is True and match.learned
    assert match.learn_from_game() is False
    assert both.learned == [(match.record, None)]


def test_a_match_draws_on_the_third_repetition_and_the_ply_cap() -> None:
    x_moves = PLACING[0::2] + ["2030", "3020"] * 2 + ["2030"]
    o_moves = PLACING[1::2] + ["2434", "3424"] * 2 + ["2434"]
    match = Match(TEEKO, [Scripted(TEEKO, []), Scripted(TEEKO, o_moves)])
    for move in x_moves:  # X's moves from outside, O's from its player
        if match.is_finished:
            break
        match.play(move)
        match.advance()
    assert (match.end, match.winner, match.plies) == (End.REPETITION, None, 16)
    capped = Match(TEEKO, [Scripted(TEEKO, PLACING[0::2]), Scripted(TEEKO, PLACING[1::2])], max_plies=3)
    while not capped.is_finished:
        capped.advance()
    assert (capped.end, capped.plies) == (End.MAX_PLIES, 3)


def test_a_seeded_match_plays_the_seeded_game_of_play_game() -> None:
    players = [make_player(TEEKO, "random"), make_player(TEEKO, "random")]
    expected = play_game(TEEKO, players, seed=7, max_plies=60)
    players[0].reseed(123)  # the match reseeds, whatever the players' streams were
    match = Match(TEEKO, players, seed=7, max_plies=60)
    while not match.is_finished:
        match.advance()
    assert match.record == expected


def test_a_match_takes_two_players_and_a_positive_ply_cap() -> None:
    with pytest.raises(ValueError, match="two players"):
        Match(TTT, [make_player(TTT, "random")] * 3)
    with pytest.raises(ValueError, match="max_plies"):
        Match(TTT, [make_player(TTT, "random")] * 2, max_plies=0)


def test_the_web_apps_game_is_the_play_layers_game() -> None:
    # web/sessions.py keeps a Match between requests: the same seed plays play_game's game, and a
    # computer that resigns or plays an illegal move ends it as the play layer says.
    from gamelearn.web.sessions import Seat, WebGame

    specs = ("random", "mcts:playouts=8")
    expected = play_game(TEEKO, [make_player(TEEKO, spec) for spec in specs], seed=11, max_plies=40)
    seats = (Seat(specs[0], make_player(TEEKO, specs[0])), Seat(specs[1], make_player(TEEKO, specs[1])))
    web = WebGame(id="g", owner="o", game=TEEKO, seats=seats, seed=11, max_plies=40)
    while web.computer_to_move():
        web.play_computer()
    assert expected.plies > 8  # a real game, not one that ends at once
    assert web.record == expected and [e.move for e in web.events] == list(expected.moves)
    resigning = WebGame("g", "o", TTT, (Seat("x", Scripted(TTT, ["4", None])), Seat("o", Scripted(TTT, ["0"]))), seed=1)
    while resigning.computer_to_move():
        resigning.play_computer()
    assert (resigning.end, resigning.winner, resigning.moves) == (End.RESIGN, 1, ("4", "0"))
    assert [e.move for e in resigning.events] == ["4", "0", ""]
    cheating = WebGame("g", "o", TTT, (Seat("x", Scripted(TTT, ["4"])), Seat("o", Scripted(TTT, ["4"]))), seed=1)
    while cheating.computer_to_move():
        cheating.play_computer()
    assert (cheating.end, cheating.moves) == (End.ABANDONED, ("4",))
    assert cheating.failure is not None and "illegal move '4'" in cheating.failure


def test_a_side_that_resigns_loses_and_both_learn_once() -> None:
    first, second = Scripted(TTT, ["4"]), Scripted(TTT, [])
    match = Match(TTT, (first, second), seed=1)
    match.advance()
    record = match.resign(1)
    assert (record.winner, record.end, record.moves) == (0, End.RESIGN, ("4",))
    assert [side for _, side in first.learned] == [0] and [side for _, side in second.learned] == [1]
    with pytest.raises(GameOver):
        match.resign(0)


@pytest.mark.parametrize("name", ["tictactoe", "hexapawn"])
def test_play_games_loop_ends_acyclic_games_as_a_match_stepped_by_hand(name: str) -> None:
    """play_game's loop counts no repetitions in a game whose positions never repeat: its records
    are those of a Match advanced a move at a time (which counts them), under every ply cap."""
    game = get_game(name)
    players = [make_player(game, "random"), make_player(game, "random")]
    ends = set()
    for cap in range(1, 10):
        for seed in range(4):
            record = play_game(game, players, seed=seed, max_plies=cap)
            match = Match(game, players, seed=seed, max_plies=cap)
            while not match.is_finished:
                match.advance()
            assert record == match.record
            ends.add(record.end)
    assert {End.WIN, End.MAX_PLIES} <= ends
