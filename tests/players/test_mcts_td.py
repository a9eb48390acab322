"""The mcts and td players: registration and options, seeding, tactics checked against the rules,
TD(0) updates checked by hand, learning against random play, persistence through the store."""

from __future__ import annotations

import pytest

import gamelearn
from gamelearn.match import End, GameRecord
from gamelearn.players.td import TDPlayer
from gamelearn.store.store import Store

TICTACTOE = gamelearn.get_game("tictactoe")
HEXAPAWN = gamelearn.get_game("hexapawn")
TEEKO = gamelearn.get_game("teeko")


# mcts ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["tictactoe", "hexapawn", "teeko"])
def test_mcts_is_registered_for_every_game_and_plays_legal_moves(name: str) -> None:
    game = gamelearn.get_game(name)
    player = gamelearn.make_player(game, "mcts:playouts=20", seed=1)
    assert player.spec.startswith("mcts:playouts=20")
    state = game.initial()
    for _ in range(6):
        if game.is_over(state):
            break
        move = player.choose(state)
        assert move in game.legal_moves(state)
        state = game.play(state, move)


def test_mcts_options_are_checked() -> None:
    with pytest.raises(ValueError, match="valid options: playouts, c"):
        gamelearn.make_player(TICTACTOE, "mcts:depth=3")
    with pytest.raises(ValueError, match=r"too small \(at least 1\)"):
        gamelearn.make_player(TICTACTOE, "mcts:playouts=0")
    with pytest.raises(ValueError, match="not a number"):
        gamelearn.make_player(TICTACTOE, "mcts:c=wide")


def test_mcts_same_seed_same_moves() -> None:
    def game(seed: int) -> tuple[str, ...]:
        players = [gamelearn.make_player(TICTACTOE, "mcts:playouts=60"), gamelearn.make_player(TICTACTOE, "random")]
        return gamelearn.play_game(TICTACTOE, players, seed=seed).moves

    assert game(4) == game(4)
    assert len({game(seed) for seed in range(5)}) > 1


def winning_moves(game: gamelearn.Game, state: object) -> set[str]:
    me = game.to_move(state)
    return {m for m in game.legal_moves(state) if game.winner(game.play(state, m)) == me}


def test_mcts_takes_a_win_and_blocks_a_loss() -> None:
    player = gamelearn.make_player(TICTACTOE, "mcts:playouts=400", seed=3)
    win = TICTACTOE.from_board("XX.OO....", 0)  # X to move wins on 2 (O threatens 5)
    assert player.choose(win) in winning_moves(TICTACTOE, win) == {"2"}
    block = TICTACTOE.from_board("XX..O....", 1)  # O must take 2
    assert player.choose(block) == "2"
    # Hexapawn: White to move with a pawn one step from the far row, in a position games reach
    # (found by search over them): blocked straight ahead, it wins by taking on 1; 73 and 74 don't.
    state = HEXAPAWN.from_board(".BBB.WWW.", 0)
    assert HEXAPAWN.legal_moves(state) == ["51", "73", "74"]
    assert player_for(HEXAPAWN).choose(state) in winning_moves(HEXAPAWN, state) == {"51"}


def player_for(game: gamelearn.Game) -> gamelearn.Player:
    return gamelearn.make_player(game, "mcts:playouts=300", seed=8)


def test_mcts_does_not_lose_to_random_at_tictactoe() -> None:
    mcts = gamelearn.make_player(TICTACTOE, "mcts:playouts=300")
    rnd = gamelearn.make_player(TICTACTOE, "random")
    as_x = [gamelearn.play_game(TICTACTOE, [mcts, rnd], seed=s).winner for s in range(6)]
    as_o = [gamelearn.play_game(TICTACTOE, [rnd, mcts], seed=s).winner for s in range(6)]
    assert 1 not in as_x and 0 not in as_o
    assert as_x.count(0) >= 5


def test_mcts_statistics_count_every_playout() -> None:
    player = gamelearn.make_player(TICTACTOE, "mcts:playouts=250", seed=2)
    root = player.search(TICTACTOE.initial())  # type: ignore[attr-defined]
    assert root.visits == 250
    assert sum(child.visits for child in root.children) == 250  # the root's own walk ends in a child
    assert {child.move for child in root.children} == set(TICTACTOE.legal_moves(TICTACTOE.initial()))


# td ------------------------------------------------------------------------------------------


def record_of(game: gamelearn.Game, moves: list[str]) -> GameRecord:
    states = [game.initial()]
    for move in moves:
        states.append(game.play(states[-1], move))
    winner = game.winner(states[-1])
    return GameRecord(
        game.name, ("td", "td"), tuple(moves), tuple(states), winner, End.WIN if winner is not None else End.DRAW
    )


def test_td_update_by_hand() -> None:
    player = TDPlayer(TICTACTOE, seed=0, alpha=0.5, symmetry=False)
    # X: 0, 1, 2 (top row, wins at ply 5); O: 3, 4.
    player.learn(record_of(TICTACTOE, ["0", "3", "1", "4", "2"]), None)
    # Keys: side to move, then the board.  X's afterstates, backwards from the win (the final,
    # won position is never learnt): "XX.O....." 0.5 + 0.5 * (1 - 0.5) = 0.75, then "X........"
    # 0.5 + 0.5 * (0.75 - 0.5) = 0.625.  O's, backwards from the loss: "XX.OO...." 0.5 + 0.5 *
    # (0 - 0.5) = 0.25, then "X..O....." 0.5 + 0.5 * (0.25 - 0.5) = 0.375.
    assert player.values == {"1XX.O.....": 0.75, "1X........": 0.625, "0XX.OO....": 0.25, "0X..O.....": 0.375}
    one_side = TDPlayer(TICTACTOE, seed=0, alpha=0.5, symmetry=False)
    one_side.learn(record_of(TICTACTOE, ["0", "3", "1", "4", "2"]), 1)
    assert one_side.values == {"0XX.OO....": 0.25, "0X..O.....": 0.375}


def test_td_keys_fold_symmetric_positions() -> None:
    player = TDPlayer(TICTACTOE, seed=0)
    corner_states = [TICTACTOE.play(TICTACTOE.initial(), move) for move in "0268"]
    assert len({player.key(state) for state in corner_states}) == 1
    plain = TDPlayer(TICTACTOE, seed=0, symmetry=False)
    assert len({plain.key(state) for state in corner_states}) == 4


def test_td_plays_the_best_valued_move_and_explores_at_epsilon() -> None:
    greedy = TDPlayer(TICTACTOE, seed=1, epsilon=0.0)
    win = TICTACTOE.from_board("XX.OO....", 0)
    assert all(greedy.choose(win) == "2" for _ in range(20))  # a won game is worth 1, more than any 1/2
    explorer = TDPlayer(TICTACTOE, seed=1, epsilon=1.0)
    assert {explorer.choose(win) for _ in range(100)} == set(TICTACTOE.legal_moves(win))


def test_td_options_and_errors() -> None:
    player = gamelearn.make_player(TICTACTOE, "td:alpha=0.3,epsilon=0,train=off", seed=2)
    assert isinstance(player, TDPlayer) and (player.alpha, player.epsilon, player.train) == (0.3, 0.0, False)
    player.learn(record_of(TICTACTOE, ["0", "3", "1", "4", "2"]), 0)
    assert player.values == {}  # train=off learns nothing
    with pytest.raises(ValueError, match="outside 0..1"):
        gamelearn.make_player(TICTACTOE, "td:alpha=2")
    with pytest.raises(ValueError, match="valid options"):
        gamelearn.make_player(TICTACTOE, "td:gamma=0.9")


def train(game: gamelearn.Game, player: TDPlayer, games: int, seed: int) -> None:
    for index in range(games):
        player.learn(gamelearn.play_game(game, [player, player], seed=seed + 2 * index, learn=False), None)


def test_td_learns_hexapawn_as_black_against_random() -> None:
    learner = TDPlayer(HEXAPAWN, seed=4, alpha=0.3, epsilon=0.2)
    rnd = gamelearn.make_player(HEXAPAWN, "random")
    before = [gamelearn.play_game(HEXAPAWN, [rnd, learner], seed=s, learn=False).winner for s in range(100)]
    train(HEXAPAWN, learner, 400, seed=10)
    learner.epsilon = 0.0
    after = [gamelearn.play_game(HEXAPAWN, [rnd, learner], seed=s, learn=False).winner for s in range(100)]
    assert after.count(1) > before.count(1)
    assert after.count(1) >= 95  # Black wins hexapawn with best play (Gardner 1962)


def test_td_learns_tictactoe_from_self_play() -> None:
    learner = TDPlayer(TICTACTOE, seed=6)
    train(TICTACTOE, learner, 1500, seed=0)
    learner.epsilon, learner.train = 0.0, False
    rnd = gamelearn.make_player(TICTACTOE, "random")
    as_x = [gamelearn.play_game(TICTACTOE, [learner, rnd], seed=s).winner for s in range(100)]
    assert as_x.count(0) >= 85 and as_x.count(1) <= 3


def test_td_teeko_is_cheap_enough_to_play_and_learn() -> None:
    learner = TDPlayer(TEEKO, seed=1)
    record = gamelearn.play_game(TEEKO, [learner, learner], seed=1, max_plies=40, learn=False)
    learner.learn(record, None)
    assert learner.values and all(0.0 <= v <= 1.0 for v in learner.values.values())


def test_td_table_persists_in_the_store() -> None:
    first = gamelearn.make_player(TICTACTOE, "td:name=tutor", seed=1)
    gamelearn.play_game(TICTACTOE, [first, gamelearn.make_player(TICTACTOE, "random")], seed=3)
    assert first.values  # type: ignore[attr-defined]
    again = gamelearn.make_player(TICTACTOE, "td:name=tutor", seed=1)
    assert again.values == first.values and again.games_learnt == 1  # type: ignore[attr-defined]
    assert ("td", "tictactoe/tutor") in Store().list_learners("td")
    with pytest.raises(ValueError, match="a td table for 'tictactoe'"):
        TDPlayer(HEXAPAWN, name="x").load(Store().load_learner("td", "tictactoe/tutor") or {})
    with pytest.raises(ValueError, match="not a name"):
        gamelearn.make_player(TICTACTOE, "td:name=../etc")
