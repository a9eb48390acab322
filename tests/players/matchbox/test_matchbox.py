"""HER, HIM and MENACE as players (Gardner 1962; Michie 1961; the classroom page "Can a Machine Learn a Game by Itself?"): box counts against an
independent transcription of the classroom page's count_boxes, the learning rules on scripted games, the
hand-computed MENACE boxes, training that works, and persistence that refuses bad data."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

import gamelearn
from gamelearn import End, play_game
from gamelearn.players.base import Player
from gamelearn.players.knowledge import Box, BoxDraw
from gamelearn.players.matchbox import HerPlayer, HimPlayer, MenacePlayer
from gamelearn.players.matchbox.tables import count_boxes, position_table
from gamelearn.store.store import Store

HEXAPAWN = gamelearn.get_game("hexapawn")
TICTACTOE = gamelearn.get_game("tictactoe")


# the classroom page's own functions, transcribed from the page (the oracle for the box counts) -------------


def seed_moves(board: str, side: str) -> list[tuple[int, int]]:
    found = []
    step, enemy = (-3, "B") if side == "W" else (3, "W")
    for sq in range(9):
        if board[sq] == side and 0 <= sq + step <= 8:
            to = sq + step
            if board[to] == ".":
                found.append((sq, to))
            if sq % 3 > 0 and board[to - 1] == enemy:
                found.append((sq, to - 1))
            if sq % 3 < 2 and board[to + 1] == enemy:
                found.append((sq, to + 1))
    return found


def seed_play(board: str, move: tuple[int, int]) -> str:
    a, b = move
    squares = list(board)
    squares[b] = squares[a]
    squares[a] = "."
    return "".join(squares)


def seed_has_lost(board: str, side: str) -> bool:
    if side == "W" and "B" in board[6:9]:
        return True
    if side == "B" and "W" in board[0:3]:
        return True
    return len(seed_moves(board, side)) == 0


def seed_mirror(board: str) -> str:
    return board[2] + board[1] + board[0] + board[5] + board[4] + board[3] + board[8] + board[7] + board[6]


def seed_count_boxes(use_mirror: bool) -> tuple[int, int]:
    """Every position Black can face on its turn in a game not yet over, from every game."""
    boxes: set[str] = set()

    def white_to_move(board: str) -> None:
        if seed_has_lost(board, "W"):
            return
        for move in seed_moves(board, "W"):
            after = seed_play(board, move)
            if seed_has_lost(after, "B"):
                continue
            boxes.add(min(after, seed_mirror(after)) if use_mirror else after)
            for reply in seed_moves(after, "B"):
                white_to_move(seed_play(after, reply))

    white_to_move("BBB...WWW")
    return len(boxes), sum(len(seed_moves(b, "B")) for b in boxes)


def test_hexapawn_box_counts_match_seed_003() -> None:
    assert seed_count_boxes(True) == (19, 47)  # "HER needs 19 boxes and 47 beads"
    counted = count_boxes("hexapawn", side=1)
    assert (counted.boxes, counted.beads, counted.bad_beads) == (19, 47, 17)
    apart = count_boxes("hexapawn", side=1, use_symmetry=False)
    assert (apart.boxes, apart.beads) == seed_count_boxes(False)


def test_menace_has_304_boxes_as_first_player() -> None:
    # Michie's count: X to move, more than one choice, up to the 8 symmetries of the square.
    # The oracle: a plain enumeration over board strings, independent of the tables.
    lines = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))

    def won(b: str) -> bool:
        return any(b[i] != "." and b[i] == b[j] == b[k] for i, j, k in lines)

    def images(b: str) -> list[str]:
        rows = [b[0:3], b[3:6], b[6:9]]
        grid = [list(r) for r in rows]
        out = []
        for _ in range(4):
            grid = [list(row) for row in zip(*grid[::-1], strict=True)]  # rotate
            out.append("".join("".join(r) for r in grid))
            out.append("".join("".join(r[::-1]) for r in grid))  # and mirror
        return out

    seen: set[str] = set()
    frontier = {"........."}
    boxes: set[str] = set()
    while frontier:
        nxt = set()
        for b in frontier:
            if b in seen or won(b) or "." not in b:
                continue
            seen.add(b)
            x_to_move = b.count("X") == b.count("O")
            if x_to_move and b.count(".") > 1:
                boxes.add(min(images(b)))
            mark = "X" if x_to_move else "O"
            nxt |= {b[:i] + mark + b[i + 1 :] for i in range(9) if b[i] == "."}
        frontier = nxt
    assert len(boxes) == 304
    assert count_boxes("tictactoe", side=0, min_choices=2).boxes == 304


def test_tables_agree_with_the_exact_solver() -> None:
    for name in ("hexapawn", "tictactoe"):
        table = position_table(name)
        solution = gamelearn.solve(name)
        assert all(solution.value(s) == v for s, v in zip(table.states, table.value, strict=True))


def test_sharp_winning_moves_are_the_sharp_players() -> None:
    sharp = gamelearn.make_player(HEXAPAWN, "sharp")
    table = position_table("hexapawn")
    for i, state in enumerate(table.states):
        if not table.over[i]:
            mine = [table.moves[i][k] for k in table.winning_moves(i)]
            assert mine == sharp.winning_moves(state)  # type: ignore[attr-defined]


# scripted games ----------------------------------------------------------------------------------


class Scripted(Player):
    """Plays a fixed list of moves, in order."""

    kind = "scripted"

    def __init__(self, game: Any, moves: list[str]) -> None:
        super().__init__(game)
        self.script = list(moves)

    def choose(self, state: Any) -> str | None:
        return self.script.pop(0)


def test_her_box_is_shared_with_the_mirror_image_and_beads_are_in_seed_order() -> None:
    her = HerPlayer(HEXAPAWN, seed=3)
    state = HEXAPAWN.play(HEXAPAWN.initial(), "63")  # the classroom page, step 1: White moves its left pawn
    move = her.choose(state)
    # HER looks at it as BBB..WWW. and the box holds (0,3), (1,4), (1,5) in that order
    assert her.boxes == {"BBB..WWW.": ["03", "14", "15"]}
    assert move in {"25", "14", "13"}  # the bead seen back in the mirror
    mirrored = HEXAPAWN.play(HEXAPAWN.initial(), "85")
    her.choose(mirrored)
    assert list(her.boxes) == ["BBB..WWW."]


def test_explain_names_the_box_and_bead_drawn_and_a_box_shows_every_bead_it_held() -> None:
    # The classroom page's step 1 again: after W 63 HER opens BBB..WWW. (the board mirrored), and
    # each of its moves is a bead of that box read in the mirror (seed_mirror turns a square).
    her = HerPlayer(HEXAPAWN, seed=3)
    state = HEXAPAWN.play(HEXAPAWN.initial(), "63")
    move = her.choose(state)
    assert move is not None
    drawn = her.explain(state, move)
    mirror = {sq: seed_mirror("".join("x" if i == sq else "." for i in range(9))).index("x") for sq in range(9)}
    assert drawn == BoxDraw("BBB..WWW.", bead=f"{mirror[int(move[0])]}{mirror[int(move[1])]}", mirrored=True)
    assert her.explain(state, None) == BoxDraw("BBB..WWW.", mirrored=True, resigned=True)
    assert her.box("BBB..WWW.") == Box("BBB..WWW.", (("03", 1), ("14", 1), ("15", 1)))
    her.boxes["BBB..WWW."].remove("14")  # a lost bead leaves its empty ring
    assert her.box("BBB..WWW.") == Box("BBB..WWW.", (("03", 1), ("14", 0), ("15", 1)))
    assert her.box("BBB..WWW.").count == 2
    # W 74 leaves BBB.W.W.W, which HER has not met: its box as HER will open it, beads in the
    # classroom page's order
    unopened = "BBB.W.W.W"
    assert unopened not in her.boxes
    beads = (("03", 1), ("04", 1), ("25", 1), ("24", 1))
    assert her.box(unopened) == Box(unopened, beads, opened=False)
    # MENACE opens no box where it has one legal move (tic-tac-toe's last square)
    menace = MenacePlayer(TICTACTOE, seed=1)
    last = TICTACTOE.initial()
    for square in "01243576":
        last = TICTACTOE.play(last, square)
    assert TICTACTOE.legal_moves(last) == ["8"] and menace.explain(last, "8") == BoxDraw(None)


def test_her_loses_the_bead_of_its_last_move_and_him_doubles_its_beads_after_a_win() -> None:
    # W 74 leaves 'BBB.W.W.W' (its own mirror image): beads 03, 04, 25, 24 in the classroom page's order.
    # B 03 lets W take on 2 and reach the far row: HER loses, and bead 03 comes out of that box.
    lost = play_game(HEXAPAWN, [Scripted(HEXAPAWN, ["74", "42"]), Scripted(HEXAPAWN, ["03"])], learn=False)
    assert lost.winner == 0 and lost.moves == ("74", "03", "42")
    her = HerPlayer(HEXAPAWN)
    her.learn(lost, 1)
    assert her.boxes == {"BBB.W.W.W": ["04", "25", "24"]}
    # B 24 takes, W 63, B 47 reaches the far row: a win changes nothing for HER ...
    won = play_game(HEXAPAWN, [Scripted(HEXAPAWN, ["74", "63"]), Scripted(HEXAPAWN, ["24", "47"])], learn=False)
    assert won.winner == 1
    her.learn(won, 1)
    # ... but the box of a position it met is opened, as the classroom page's HER opens one when it first
    # meets a position: the knowledge after a game is the same whether HER chose the moves or not.
    assert her.boxes == {"BBB.W.W.W": ["04", "25", "24"], ".BB.BWW..": ["15", "47", "46"]}
    # HIM puts a second copy of every bead drawn back for HIM.  The second position,
    # 'BB.WB...W', is seen in the mirror as '.BB.BWW..' (beads 15, 47, 46); 47 is its own mirror.
    him = HimPlayer(HEXAPAWN)
    him.learn(won, 1)
    assert him.boxes == {"BBB.W.W.W": ["03", "04", "25", "24", "24"], ".BB.BWW..": ["15", "47", "46", "47"]}
    him.learn(lost, 1)
    assert him.boxes["BBB.W.W.W"] == ["04", "25", "24", "24"]  # one copy out


def test_an_empty_box_resigns_and_the_bead_before_comes_out() -> None:
    her = HerPlayer(HEXAPAWN, seed=5)
    # after W 63 HER sees 'BBBW...WW' in the mirror as 'BBB..WWW.'; its one bead 03 is 25 for real
    her.boxes = {"BBB..WWW.": ["03"], ".BBBWWW..": []}
    record = play_game(HEXAPAWN, [Scripted(HEXAPAWN, ["63", "74"]), her], seed=1)
    assert record.moves == ("63", "25", "74")
    assert record.end is End.RESIGN and record.winner == 0
    assert her.boxes == {"BBB..WWW.": [], ".BBBWWW..": []}
    assert her.choose(HEXAPAWN.play(HEXAPAWN.initial(), "63")) is None


def test_menace_boxes_after_a_scripted_game_are_the_hand_computed_ones() -> None:
    # X 0, O 4, X 8, O 2, X 6, O 3, X 7: X wins on the bottom row.
    record = play_game(
        TICTACTOE, [Scripted(TICTACTOE, ["0", "8", "6", "7"]), Scripted(TICTACTOE, ["4", "2", "3"])], learn=False
    )
    assert record.winner == 0
    x = MenacePlayer(TICTACTOE)
    x.learn(record, 0)
    # Worked by hand: each box is the least image of the position (by board string, '.' < 'O' <
    # 'X'); its colours are the empty squares up to the symmetries that fix it; beads 4, 3, 2, 1
    # per colour by stage; +3 for the colour of each move after the win.
    #   .........  colours 0 (corners) 1 (edges) 4 (centre); X 0 is a corner: 4 + 3
    #   ....O...X  X at 0, O at 4 turned 180 degrees; colours 0, 1=3, 2=6, 5=7; X 8 -> 0: 3 + 3
    #   ..X.O.X.O  X 0,8, O 4,2 turned 90 degrees; fixed by the transpose: 0, 1=3, 5=7; X 6 -> 0
    #   O.X.O.XOX  X 0,6,8, O 2,3,4 turned 270 degrees; no symmetry: 1, 3, 5; X 7 -> 5: 1 + 3
    assert x.boxes == {
        ".........": {"0": 7, "1": 4, "4": 4},
        "....O...X": {"0": 6, "1": 3, "2": 3, "5": 3},
        "..X.O.X.O": {"0": 5, "1": 2, "5": 2},
        "O.X.O.XOX": {"1": 1, "3": 1, "5": 4},
    }
    o = MenacePlayer(TICTACTOE)
    o.learn(record, 1)
    #   ........X  X in a corner: colours 0, 1=3, 2=6, 4, 5=7; O 4 is the centre: 4 - 1
    #   ..X.O.X..  X 0,8, O 4 turned 90 degrees; 4 symmetries: colours 0 (=8) and 1 (=3=5=7); O 2 -> 8
    #   O.X.O.X.X  X 0,6,8, O 2,4 turned 270 degrees; fixed by the transpose: 1=3, 5=7; O 3 -> 7
    assert o.boxes == {
        "........X": {"0": 4, "1": 4, "2": 4, "4": 3, "5": 4},
        "..X.O.X..": {"0": 2, "1": 3},
        "O.X.O.X.X": {"1": 2, "5": 1},
    }
    draw_rewarded = MenacePlayer(TICTACTOE, beads=(2, 2, 2, 2), win=0, draw=5, loss=-2)
    draw_rewarded.learn(record, 1)
    assert draw_rewarded.boxes["........X"]["4"] == 0  # never below zero


def test_her_trained_against_sharp_wins_every_game_as_black() -> None:
    her = HerPlayer(HEXAPAWN, seed=11)
    sharp = gamelearn.make_player(HEXAPAWN, "sharp", seed=12)
    for game in range(150):
        play_game(HEXAPAWN, [sharp, her], seed=1000 + 2 * game)
    # every game Sharp can choose, against every bead HER has left: Black wins them all
    table = position_table("hexapawn")

    def black_wins(state: Any) -> bool:
        if HEXAPAWN.is_over(state):
            return HEXAPAWN.winner(state) == 1
        if HEXAPAWN.to_move(state) == 0:
            moves = sharp.winning_moves(state) or HEXAPAWN.legal_moves(state)  # type: ignore[attr-defined]
            return all(black_wins(HEXAPAWN.play(state, m)) for m in moves)
        _, box, k = her.box_position(state)
        beads = her.boxes.get(table.boards[box], her.new_box(box))
        undo = table.inverse_symmetry[k]
        return bool(beads) and all(black_wins(HEXAPAWN.play(state, HEXAPAWN.transform_move(b, undo))) for b in beads)

    assert black_wins(HEXAPAWN.initial())
    for game in range(30):
        assert play_game(HEXAPAWN, [sharp, her], seed=50_000 + game, learn=False).winner == 1


def test_menace_trained_a_thousand_games_against_random_loses_less() -> None:
    random_player = gamelearn.make_player(TICTACTOE, "random")
    fresh = MenacePlayer(TICTACTOE)
    trained = MenacePlayer(TICTACTOE)
    for game in range(1000):
        play_game(TICTACTOE, [trained, random_player], seed=2 * game)

    def loss_rate(menace: MenacePlayer) -> float:
        games = [play_game(TICTACTOE, [menace, random_player], seed=900_000 + 2 * g, learn=False) for g in range(400)]
        return sum(1 for r in games if r.winner == 1) / len(games)

    before, after = loss_rate(fresh), loss_rate(trained)
    assert before > 0.15  # random play as X loses about a fifth of its games
    assert after < before / 2


# persistence ---------------------------------------------------------------------------------------


def test_named_learners_round_trip_through_the_store() -> None:
    her = gamelearn.make_player(HEXAPAWN, "her:name=ann", seed=1)
    sharp = gamelearn.make_player(HEXAPAWN, "sharp", seed=2)
    for game in range(12):
        play_game(HEXAPAWN, [sharp, her], seed=10 * game)
    again = gamelearn.make_player(HEXAPAWN, "her:name=ann")
    assert again.boxes == her.boxes and again.boxes  # type: ignore[attr-defined]
    assert again.games_played == 12  # type: ignore[attr-defined]
    menace = gamelearn.make_player(TICTACTOE, "menace:name=m,beads=3-2-1,draw=2", seed=4)
    play_game(TICTACTOE, [menace, gamelearn.make_player(TICTACTOE, "random")], seed=3)
    loaded = gamelearn.make_player(TICTACTOE, "menace:name=m")
    assert loaded.boxes == menace.boxes  # type: ignore[attr-defined]
    assert loaded.beads_by_stage == (3, 2, 1) and loaded.rewards == (3, 2, -1)
    assert Store().list_learners() == [("her", "ann"), ("menace", "m")]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda p: p["boxes"].__setitem__("BBB..WWW.", ["03", "99"]), "box 'BBB..WWW.': bead '99' is not a legal move"),
        (lambda p: p["boxes"].__setitem__("BBBW...WW", ["25"]), "box 'BBBW...WW': not the canonical board"),
        (lambda p: p["boxes"].__setitem__("WWWWWWWWW", []), "box 'WWWWWWWWW': not a position"),
        (lambda p: p["boxes"].__setitem__("BBB..WWW.", ["03", "03"]), "is there 2 times"),
        (lambda p: p.__setitem__("boxes", []), "'boxes' must be an object"),
        (lambda p: p.__setitem__("format", "x"), "not a matchbox file"),
        (lambda p: p.__setitem__("game", "tictactoe"), "boxes for 'tictactoe'"),
    ],
)
def test_a_corrupt_learner_is_refused_and_nothing_is_lost(change: Any, message: str) -> None:
    store = Store()
    keeper = gamelearn.Keeper(store)
    her = HerPlayer(HEXAPAWN, seed=1, name="bob")
    play_game(HEXAPAWN, [gamelearn.make_player(HEXAPAWN, "random"), her], seed=7, keeper=keeper)
    payload = store.load_learner("her", "bob")
    assert payload is not None
    change(payload)
    store.save_learner("her", "bob", payload)
    with pytest.raises(ValueError, match="^her 'bob' in the store: .*" + message.replace("(", r"\(")):
        keeper.attach(HerPlayer(HEXAPAWN, name="bob"))
    assert store.load_learner("her", "bob") == payload  # refused, not overwritten


def test_menace_file_validation_names_the_box(tmp_path: Any) -> None:
    menace = MenacePlayer(TICTACTOE, seed=2)
    play_game(TICTACTOE, [menace, gamelearn.make_player(TICTACTOE, "random")], seed=9)
    copy = MenacePlayer(TICTACTOE)
    copy.load(json.loads(json.dumps(menace.knowledge())))
    assert copy.boxes == menace.boxes
    payload = menace.knowledge()
    payload["boxes"]["........."] = {"0": 4, "1": -1, "4": 4}
    with pytest.raises(ValueError, match=r"box '\.\.\.\.\.\.\.\.\.': colour '1' has -1 beads"):
        copy.load(payload)
    payload["boxes"]["........."] = {"0": 4, "2": 4, "4": 4}
    with pytest.raises(ValueError, match="colours"):
        copy.load(payload)
    assert copy.boxes == menace.boxes  # nothing changed


def test_self_play_learns_each_side_of_a_game_once() -> None:
    menace = MenacePlayer(TICTACTOE, seed=1)
    record = play_game(TICTACTOE, [menace, menace], seed=5)
    once = MenacePlayer(TICTACTOE)
    once.learn(record, None)
    assert once.boxes == menace.boxes and menace.games_played == 1
    twice = MenacePlayer(TICTACTOE)
    twice.learn(record, 0)
    twice.learn(record, None)  # side 0 again is ignored, side 1 is learned
    assert twice.boxes == once.boxes and twice.games_played == 1


@pytest.mark.parametrize(("kind", "game_name"), [("her", "hexapawn"), ("him", "hexapawn"), ("menace", "tictactoe")])
def test_describe_counts_every_bead_in_every_box(kind: str, game_name: str) -> None:
    """The web reads describe() on every answer, so it counts without copying the boxes; the
    oracle is a count of each box's beads as the stored knowledge lists them."""
    game = gamelearn.get_game(game_name)
    learner = gamelearn.make_player(game, kind, seed=3)
    for number in range(40):
        opponent = gamelearn.make_player(game, "random", seed=100 + number)
        players = [learner, opponent] if number % 2 else [opponent, learner]
        gamelearn.play_game(game, players)
    boxes = learner.knowledge()["boxes"]
    beads = 0
    for box in boxes.values():  # HER's and HIM's a list of beads, MENACE's colour -> count
        beads += sum((Counter(box) if isinstance(box, list) else Counter(dict(box))).values())
    assert learner.describe() == {"boxes": len(boxes), "beads": beads, "games": 40}
    assert len(boxes) > 1 and beads > 0
