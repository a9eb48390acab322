"""The forms of Teeko as rules: game specs, the 58 goals against a list written out by
hand, knight steps, the centre rule, Scarne's Alternate drops, and the thesis player's refusal."""

from __future__ import annotations

import random

import pytest

import gamelearn
from gamelearn import IllegalMove, get_game, make_player
from gamelearn.games.teeko import TeekoState


def mask(*squares: str) -> int:
    return sum(1 << (int(name[0]) * 5 + int(name[1])) for name in squares)


#: The 14 goals Advanced Teeko adds, written out: the corners of every 3x3, 4x4 and 5x5 square.
LARGER_SQUARES = [
    # 3x3 squares (corners two apart): top-left corner at rows 0-2, columns 0-2
    ("00", "02", "20", "22"), ("01", "03", "21", "23"), ("02", "04", "22", "24"),
    ("10", "12", "30", "32"), ("11", "13", "31", "33"), ("12", "14", "32", "34"),
    ("20", "22", "40", "42"), ("21", "23", "41", "43"), ("22", "24", "42", "44"),
    # 4x4 squares (three apart)
    ("00", "03", "30", "33"), ("01", "04", "31", "34"), ("10", "13", "40", "43"), ("11", "14", "41", "44"),
    # the 5x5 square: the board's corners
    ("00", "04", "40", "44"),
]  # fmt: skip

#: Standard Teeko's 44 goals, written out: 10 across, 10 down, 8 diagonal, 16 blocks.
ROWS = [tuple(f"{r}{c + k}" for k in range(4)) for r in "01234" for c in (0, 1)]
COLUMNS = [tuple(f"{r + k}{c}" for k in range(4)) for c in "01234" for r in (0, 1)]
DIAGONALS = [
    ("00", "11", "22", "33"), ("01", "12", "23", "34"), ("10", "21", "32", "43"), ("11", "22", "33", "44"),
    ("03", "12", "21", "30"), ("04", "13", "22", "31"), ("13", "22", "31", "40"), ("14", "23", "32", "41"),
]  # fmt: skip
BLOCKS = [(f"{r}{c}", f"{r}{c + 1}", f"{r + 1}{c}", f"{r + 1}{c + 1}") for r in range(4) for c in range(4)]


def test_the_44_and_the_58_goals_are_the_hand_written_lists() -> None:
    standard = {mask(*cells) for cells in ROWS + [tuple(str(x) for x in c) for c in COLUMNS] + DIAGONALS + BLOCKS}
    assert len(standard) == 44
    assert set(get_game("teeko").win_masks) == standard
    advanced = get_game("teeko:goals=advanced")
    assert len(advanced.win_masks) == len(set(advanced.win_masks)) == 58
    assert set(advanced.win_masks) == standard | {mask(*cells) for cells in LARGER_SQUARES}


def test_a_larger_square_wins_only_in_advanced_teeko() -> None:
    board = "X.X.." + "....." + "X.X.." + "O.O.." + ".O.O."  # X on the corners of a 3x3 square
    standard, advanced = get_game("teeko"), get_game("teeko:goals=advanced")
    assert standard.winner(standard.from_board(board, 1)) is None
    assert advanced.winner(advanced.from_board(board, 1)) == 0
    with pytest.raises(ValueError, match="just made four"):
        advanced.from_board(board, 0)


def test_specs_name_one_instance_a_form_and_say_what_is_wrong_in_one_line() -> None:
    game = get_game(" Teeko: drops=SAAA , center=off ")
    assert game is get_game("teeko:centre=off,drops=saaa") and game.spec == "teeko:drops=saaa,centre=off"
    assert game.name == "teeko" and get_game("teeko:goals=standard,steps=king") is get_game("teeko")
    assert dict(game.facts.options) == {"goals": "standard", "drops": "saaa", "centre": "off", "steps": "king"}
    for spec, message in [
        ("teeko:goals=huge", "option 'goals' of game 'teeko': 'huge' is not one of standard, advanced"),
        ("teeko:drops=sas", "option 'drops' of game 'teeko': 'sas' is not a pattern"),
        ("teeko:drops=ssxs", "not a pattern"),
        ("teeko:steps=queen", "'queen' is not one of king, knight"),
        ("teeko:centre=maybe", "'maybe' is not one of on, off"),
        ("teeko:colour=red", "unknown option 'colour' for game 'teeko'; valid options: goals, drops, centre, steps"),
        ("teeko:goals", "option 'goals' of game 'teeko' needs a value"),
        ("teeko:goals=advanced,goals=standard", "given twice"),
        ("tictactoe:goals=advanced", "unknown option 'goals' for game 'tictactoe'; valid options: none"),
        ("chess:goals=advanced", "unknown game 'chess'"),
    ]:
        with pytest.raises(ValueError) as caught:
            get_game(spec)
        assert message in str(caught.value) and "\n" not in str(caught.value)


def test_knight_steps() -> None:
    game = get_game("teeko:steps=knight")
    state = game.from_board("X...X" + ".OO.." + ".O..." + "...O." + "X...X", 0)
    # 00 jumps to 12 or 21, both taken; 04 to 12 or 23; 40 to 21 or 32; 44 to 23 or 32
    assert game.legal_moves(state) == ["0423", "4032", "4423", "4432"]
    with pytest.raises(IllegalMove, match="not a knight's move from 00"):
        game.play(state, "0001")
    with pytest.raises(IllegalMove, match="too far"):  # a king's rules refuse a knight's jump
        get_game("teeko").play(state, "0423")


def test_a_hemmed_in_knight_ends_the_game_drawn() -> None:
    """X on the four corners, O on their four knight targets: X has no move, the game is a draw
    (the solver counts such positions as draws: they are never resolved)."""
    game = get_game("teeko:steps=knight")
    state = game.from_board("X...X" + "..O.." + ".O.O." + "..O.." + "X...X", 0)
    assert game.legal_moves(state) == [] and game.is_over(state) and game.winner(state) is None
    assert not game.is_over(game.from_board(game.board(state), 1))  # O can move


def test_knight_steps_against_a_plain_definition() -> None:
    game = get_game("teeko:steps=knight")
    rng = random.Random(4)
    for _ in range(30):
        squares = rng.sample(range(25), 8)
        board = ["."] * 25
        for sq in squares[:4]:
            board[sq] = "X"
        for sq in squares[4:]:
            board[sq] = "O"
        text = "".join(board)
        try:
            state = game.from_board(text, 0)
        except ValueError:
            continue
        if game.is_over(state):
            continue
        expected = sorted(
            f"{s // 5}{s % 5}{t // 5}{t % 5}"
            for s in squares[:4]
            for t in range(25)
            if board[t] == "." and sorted((abs(s // 5 - t // 5), abs(s % 5 - t % 5))) == [1, 2]
        )
        assert game.legal_moves(state) == expected


def test_the_centre_rule_forbids_only_the_first_pawn() -> None:
    game = get_game("teeko:centre=off")
    start = game.initial()
    assert "22" not in game.legal_moves(start) and len(game.legal_moves(start)) == 24
    with pytest.raises(IllegalMove, match="first pawn may not go on the centre"):
        game.play(start, "22")
    after = game.play(start, "00")
    assert "22" in game.legal_moves(after)
    with pytest.raises(ValueError, match="centre"):
        game.from_board("." * 12 + "X" + "." * 12, 1)
    assert get_game("teeko").play(get_game("teeko").initial(), "22").x == 1 << 12


@pytest.mark.parametrize("drops", ["aaaa", "asss", "saaa", "ssaa"])
def test_in_an_alternate_round_the_opponent_chooses_the_square(drops: str) -> None:
    game = get_game(f"teeko:drops={drops}")
    state = game.initial()
    moves = ["00", "44", "01", "43", "02", "42", "30"]
    for placed, move in enumerate(moves):
        owner = placed % 2
        assert game.pawn_side(state) == owner
        assert game.to_move(state) == (owner if drops[placed // 2] == "s" else 1 - owner)
        state = game.play(state, move)
    assert state == TeekoState(mask("00", "01", "02", "30"), mask("44", "43", "42"), game.to_move(state))
    state = game.play(state, "41")  # O's fourth pawn completes its row: O wins, X is to move
    assert game.winner(state) == 1 and game.to_move(state) == 0 and game.legal_moves(state) == []
    assert game.from_board(game.board(state), 0) == state


def test_a_finished_alternate_drop_leaves_the_loser_to_move() -> None:
    game = get_game("teeko:drops=aaaa")
    state = game.initial()
    for move in ["00", "44", "01", "43", "02", "40"]:
        state = game.play(state, move)
    assert game.to_move(state) == 1 and game.pawn_side(state) == 0  # O places X's fourth pawn
    won = game.play(state, "03")  # ... on X's row: X wins
    assert game.winner(won) == 0 and game.to_move(won) == 1


def test_the_thesis_player_refuses_every_form_but_standard_teeko() -> None:
    make_player(get_game("teeko"), "thesis:learn=off", seed=1)
    for spec in ("teeko:goals=advanced", "teeko:drops=aaaa", "teeko:centre=off", "teeko:steps=knight"):
        with pytest.raises(ValueError, match=f"Standard Teeko only, not {spec}: its heuristics") as caught:
            make_player(get_game(spec), "thesis", seed=1)
        assert "44 goals" in str(caught.value)


def test_search_players_follow_who_chooses_next() -> None:
    """In asss, X chooses O's first square and then its own second: a 2-ply search sees that it
    plays twice in a row, and the values agree with a plain minimax that asks the game who moves."""
    game = get_game("teeko:drops=asss")
    state = game.play(game.initial(), "00")
    player = make_player(game, "minimax:depth=2,eval=lines", seed=1)
    evaluate = player.evaluate  # type: ignore[attr-defined]

    def plain(position: TeekoState, depth: int, side: int) -> float:
        if game.is_over(position) or depth == 0:
            if game.winner(position) is not None:
                return 1000 - (2 - depth) if game.winner(position) == side else -(1000 - (2 - depth))
            score = evaluate(position)
            return score if side == 0 else -score
        mover = game.to_move(position)
        values = [plain(game.play(position, m), depth - 1, side) for m in game.legal_moves(position)]
        return max(values) if mover == side else min(values)

    scores = player.scores(state)  # type: ignore[attr-defined]
    for move in list(scores)[:6]:
        assert scores[move] == plain(game.play(state, move), 1, 0)


def test_a_game_plays_through_on_every_way_to_step() -> None:
    for spec in ("teeko:steps=knight,drops=aaaa", "teeko:goals=advanced,centre=off"):
        game = get_game(spec)
        players = [make_player(game, "random", seed=1), make_player(game, "mcts:playouts=20", seed=2)]
        record = gamelearn.play_game(game, players, seed=3, max_plies=80)
        assert record.plies == len(record.moves) <= 80


def test_regression_the_lines_evaluation_was_blind_to_advanced_goals() -> None:
    """Teeko's ``lines`` evaluation counted the 44 standard goals in every form, so a search in
    Advanced Teeko did not see a larger square being built.  Now it counts the form's own goals,
    checked against the goals written out here: every line of four, and the corners of every
    square of span 1 to 4 (Scarne's Advanced Teeko; the standard game has only span 1)."""

    def cell(r: int, c: int) -> int:
        return 1 << (5 * r + c)

    def goals(spans: range) -> list[int]:
        lines = []
        for r in range(5):
            for c in range(5):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + k * dr, c + k * dc) for k in range(4)]
                    if all(0 <= a < 5 and 0 <= b < 5 for a, b in cells):
                        lines.append(sum(cell(a, b) for a, b in cells))
        squares = [
            cell(r, c) | cell(r + s, c) | cell(r, c + s) | cell(r + s, c + s)
            for s in spans
            for r in range(5 - s)
            for c in range(5 - s)
        ]
        return lines + squares

    def open_sets(x: int, o: int, masks: list[int]) -> int:
        own = sum(4 ** (x & m).bit_count() for m in masks if not o & m)
        return own - sum(4 ** (o & m).bit_count() for m in masks if not x & m)

    rng = random.Random(7)
    for spec, spans, default in (("teeko", range(1, 2), "thesis"), ("teeko:goals=advanced", range(1, 5), "lines")):
        game = get_game(spec)
        player = make_player(game, "alphabeta:depth=1,eval=lines", seed=1)
        assert make_player(game, "alphabeta", seed=1).spec.endswith(f"eval={default}")
        masks = goals(spans)
        assert len(masks) == (44 if spans == range(1, 2) else 58)
        for _ in range(200):
            squares = rng.sample(range(25), 6)
            state = TeekoState(sum(1 << s for s in squares[:3]), sum(1 << s for s in squares[3:]), 0)
            assert player.evaluate(state) == open_sets(state.x, state.o, masks)  # type: ignore[attr-defined]
