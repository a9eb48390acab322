"""The fast path plays the very games play_game plays with the Player objects, seed for seed, and
leaves the same boxes; and the classroom page's experiment gives the page's claims."""

from __future__ import annotations

import pytest

import gamelearn
from gamelearn.experiments.matchbox import HerOptions, MenaceOptions, bead_is_bad, run_her, run_menace
from gamelearn.match import play_game
from gamelearn.players.matchbox import HerPlayer, HimPlayer, MenacePlayer
from gamelearn.players.matchbox.fast import fast_tables, game_seed, train_her, train_menace
from gamelearn.players.matchbox.tables import position_table

HEXAPAWN = gamelearn.get_game("hexapawn")
TICTACTOE = gamelearn.get_game("tictactoe")


def letter(winner: int | None, side: int) -> str:
    return "D" if winner is None else "W" if winner == side else "L"


@pytest.mark.parametrize(
    ("opponent", "him", "side"),
    [
        ("sharp", False, 1),
        ("random", False, 1),
        ("sharp", True, 1),
        ("random", True, 1),
        ("random", False, 0),
        ("perfect", False, 1),
        ("perfect:random=0.5", False, 1),
    ],
)
def test_her_fast_path_plays_play_games_games(opponent: str, him: bool, side: int) -> None:
    seeds = [game_seed(3, 1, g) for g in range(80)]
    fast = train_her(seeds, opponent, him=him, learner_side=side)
    learner = (HimPlayer if him else HerPlayer)(HEXAPAWN)
    other = gamelearn.make_player(HEXAPAWN, opponent)
    players = [other, learner] if side == 1 else [learner, other]
    record = "".join(letter(play_game(HEXAPAWN, players, seed=s).winner, side) for s in seeds)
    assert record == fast.record
    table = fast_tables("hexapawn").table
    assert {table.boards[box]: beads for box, beads in fast.boxes.items()} == learner.boxes
    assert "L" in record and "W" in record  # the check has something to compare


@pytest.mark.parametrize(
    ("opponent", "side", "games", "restock"),
    [
        ("random", 0, 150, False),
        ("random", 1, 150, False),
        ("perfect", 0, 100, False),
        ("self", 0, 150, False),
        ("sharp", 1, 15, False),
        # the page's remedies, as `gamelearn menace --restock on` and `--against perfect:random=P` play them
        ("perfect", 1, 300, True),
        ("perfect:random=0.5", 1, 150, False),
        ("perfect:random=0.2", 0, 150, True),
    ],
)
def test_menace_fast_path_plays_play_games_games(opponent: str, side: int, games: int, restock: bool) -> None:
    seeds = [game_seed(5, 2, g) for g in range(games)]
    fast = train_menace(seeds, opponent, learner_side=side, restock=restock)
    menace = MenacePlayer(TICTACTOE, restock=restock)
    if opponent == "self":
        players = [menace, menace]
        view = 0
    else:
        other = gamelearn.make_player(TICTACTOE, opponent)
        players = [menace, other] if side == 0 else [other, menace]
        view = side
    record = "".join(letter(play_game(TICTACTOE, players, seed=s).winner, view) for s in seeds)
    assert record == fast.record
    tables = fast_tables("tictactoe")
    boxes = {
        tables.table.boards[b]: dict(zip(tables.new_box[b], counts, strict=True)) for b, counts in fast.boxes.items()
    }
    assert boxes == menace.boxes
    if restock and opponent == "perfect":  # the check has a restocked box to compare: without it one empties
        assert "D" in fast.record and any(
            not any(counts) for counts in train_menace(seeds, opponent, learner_side=side).boxes.values()
        )


def test_seed_003_claims_come_out_of_the_runs() -> None:
    result = run_her(HerOptions("her", learners=50, games=200, opponents=("random", "sharp"), seed=1))
    assert result["boxes_counted"] == {"boxes": 19, "beads": 47, "bad_beads": 17}
    assert result["boxes_opened"] == {"boxes": 19, "beads": 47, "bad_beads": 17}
    assert result["good_beads_taken_out"] == 0
    for item in result["opponents"]:
        # every loss takes out one bead (HER never resigns at its first move: each first box holds
        # a good bead, and good beads never come out), and every one was bad
        assert item["bad_beads_taken_out"] == sum(item["losses"])
        assert max(item["losses"]) <= 17  # no HER ever loses an 18th game
        assert 8 <= item["average_losses"] <= 17
    assert (
        run_her(HerOptions("her", learners=50, games=200, opponents=("random", "sharp"), seed=1)) == result
    )  # same seed


def test_her_as_white_throws_away_only_bad_beads_too() -> None:
    result = run_her(HerOptions("her", learners=10, games=100, opponents=("random", "sharp"), seed=4, side=0))
    assert result["side"] == "W"
    assert result["boxes_counted"] == {"boxes": 18, "beads": 39, "bad_beads": 19}
    assert result["good_beads_taken_out"] == 0
    # White loses with best play: against Sharp every first-move bead goes, then it resigns
    assert result["opponents"][1]["average_losses"] == 100


def test_bead_check_is_the_solvers() -> None:
    # over HER's 19 boxes, the beads after which White can force a win, as gamelearn.solve says
    table = fast_tables("hexapawn").table
    bad = sum(
        bead_is_bad(table.boards[i], b)
        for i in range(len(table.states))
        if table.canonical[i] == i and not table.over[i] and table.to_move[i] == 1
        for b in fast_tables("hexapawn").new_box[i]
    )
    assert bad == 17


def test_menace_experiment_learns_against_random() -> None:
    result = run_menace(MenaceOptions(learners=3, games=600, opponents=("random",), seed=2))
    item = result["opponents"][0]
    assert result["boxes_counted"]["boxes"] == 304
    assert item["loss_rate_last"] < item["loss_rate_first"]
    assert item["average_wins"] + item["average_draws"] + item["average_losses"] == 600


def test_menace_colours_are_worked_out_once_per_process_and_cannot_be_changed() -> None:
    # The colours of a position are the game's: two learners share them, and no learner can
    # change them for the others.  Each box's colours are its moves' classes under the
    # symmetries that fix the position (Michie), worked out here from the game's own transforms.
    game = gamelearn.get_game("tictactoe")
    first, second = MenacePlayer(game, seed=1), MenacePlayer(game, seed=2)
    table = position_table("tictactoe")
    boxes = [i for i in range(len(table.states)) if table.canonical[i] == i and len(table.moves[i]) >= 2]
    assert sum(1 for box in boxes if table.to_move[box] == 0) == 304  # Michie's boxes as X
    for box in boxes:
        colours, of_move = first.colours(box)
        assert second.colours(box)[1] is of_move
        state = table.states[box]
        fixed = [k for k in range(len(game.symmetries)) if game.transform(state, k) == state]
        classes = {move: min((game.transform_move(move, k) for k in fixed), key=int) for move in table.moves[box]}
        assert dict(of_move) == classes and colours == tuple(sorted(set(classes.values()), key=int))
    with pytest.raises(TypeError):
        of_move["0"] = "1"  # type: ignore[index]
