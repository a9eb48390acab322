"""The players' and games' contract, run against every game: what any player, store or interface may rely on."""

from __future__ import annotations

import copy
import pickle
import random
from functools import cache

import pytest

import gamelearn
from gamelearn import IllegalMove, get_game, make_player, play_game
from gamelearn.games import GAME_NAMES
from gamelearn.games.teeko_forms import SCARNE_DROPS

#: Every form of Teeko (2 goal sets x 8 drop patterns x 2 centre rules x 2 ways to step), by its spec.
TEEKO_FORMS = [
    get_game(f"teeko:goals={goals},drops={drops},centre={centre},steps={steps}").spec
    for goals in ("standard", "advanced")
    for drops in SCARNE_DROPS
    for centre in ("on", "off")
    for steps in ("king", "knight")
]
#: Connect Four's smallest and largest boards beside the standard one.
CONNECT4_SIZES = ["connect4:columns=4,rows=4", "connect4:columns=9,rows=8", "connect4:columns=5,rows=7"]
NAMES = list(GAME_NAMES) + [spec for spec in TEEKO_FORMS if spec != "teeko"] + CONNECT4_SIZES


def whose(game, state) -> int:  # type: ignore[no-untyped-def]
    """The side whose pawn the next ply moves: the side to move, but in a drop round of Scarne's
    Alternate Game, where the side to move places the other's pawn."""
    return int(game.pawn_side(state))


def sample_states(name: str, games: int = 12, seed: int = 0) -> list:
    """Every position of a few seeded random games (Teeko capped at 120 plies; 4 games a form)."""
    game = get_game(name)
    games = games if ":" not in name else max(2, games // 3)
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        state = game.initial()
        states.append(state)
        for _ in range(120):
            if game.is_over(state):
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
            states.append(state)
    return states


def test_the_four_games_and_their_names() -> None:
    assert GAME_NAMES == ("teeko", "hexapawn", "tictactoe", "connect4")
    assert len(set(TEEKO_FORMS)) == 64 and TEEKO_FORMS[0] == "teeko"
    with pytest.raises(ValueError, match="teeko, hexapawn, tictactoe, connect4"):
        get_game("chess")
    assert get_game("Tic-Tac-Toe") is get_game("tictactoe")
    assert get_game("Connect-Four:rows=6,columns=7") is get_game("connect4")


@pytest.mark.parametrize("name", NAMES)
def test_facts_are_declared_and_consistent(name: str) -> None:
    game = get_game(name)
    facts = game.facts
    assert facts.name == game.name == name.partition(":")[0] and facts.players == 2
    assert game.spec == name and get_game(game.spec) is game  # one instance a form, named canonically
    assert pickle.loads(pickle.dumps(game)).spec == game.spec
    assert [key for key, _ in facts.options] == [option.name for option in game.game_options]
    for option, (_, value) in zip(game.game_options, facts.options, strict=True):
        assert (f"{option.name}={value}" in game.spec) == (value != option.default)
    symbols = {"teeko": ("X", "O"), "tictactoe": ("X", "O"), "hexapawn": ("W", "B"), "connect4": ("X", "O")}
    assert game.symbols == facts.symbols == symbols[game.name]
    assert len(game.board(game.initial())) == facts.rows * facts.columns == game.squares
    assert len(facts.symmetry_names) == len(game.symmetries) and facts.symmetry_names[0] == "identity"
    assert game.symmetries[0] == tuple(range(game.squares))
    for perm in game.symmetries:
        assert sorted(perm) == list(range(game.squares))
    assert len(set(game.symmetries)) == len(game.symmetries)
    # the symmetries form a group: composing two gives one of them
    group = set(game.symmetries)
    for a in game.symmetries:
        for b in game.symmetries:
            assert tuple(b[a[sq]] for sq in range(game.squares)) in group
    assert facts.can_cycle == (game.name == "teeko")
    assert whose(game, game.initial()) == 0  # player 0's pawn moves first (its opponent may choose where)


@pytest.mark.parametrize("name", ["tictactoe", "hexapawn"])
def test_declared_value_of_start_is_the_solved_value(name: str) -> None:
    game = get_game(name)

    @cache
    def value(state) -> int:  # for the side to move: +1 win, 0 draw, -1 loss
        if game.is_over(state):
            winner = game.winner(state)
            return 0 if winner is None else (1 if winner == game.to_move(state) else -1)
        return max(-value(game.play(state, m)) for m in game.legal_moves(state))

    assert value(game.initial()) == game.facts.value_of_start


@pytest.mark.parametrize("name", NAMES)
def test_states_keep_the_contract(name: str) -> None:
    game = get_game(name)
    for state in sample_states(name):
        moves = game.legal_moves(state)
        assert moves == sorted(moves) and len(set(moves)) == len(moves)
        assert (moves == []) == game.is_over(state)
        assert game.legal_move_tuple(state) == tuple(moves)
        assert game.legal_move_tuple(tuple(state)) == tuple(moves)  # a plain tuple of the position
        if game.winner(state) is not None:
            assert game.is_over(state)
        assert game.to_move(state) in (0, 1)
        board = game.board(state)
        assert set(board) <= {".", *game.symbols}
        assert game.from_board(board, game.to_move(state)) == state
        # hashable, equal copies hash equal, pickling round-trips
        clone = pickle.loads(pickle.dumps(state))
        assert clone == state and hash(clone) == hash(state)
        rebuilt = game.from_board(board, game.to_move(state))
        assert hash(rebuilt) == hash(state)
        frozen = copy.deepcopy(state)
        for move in moves[:6]:
            after = game.play(state, move)
            assert state == frozen and game.board(state) == board  # play never mutates
            assert after != state
            assert whose(game, after) == 1 - whose(game, state)
            if whose(game, state) == game.to_move(state) and whose(game, after) == game.to_move(after):
                assert game.to_move(after) == 1 - game.to_move(state)


@pytest.mark.parametrize("name", NAMES)
def test_symmetries_map_legal_moves_to_legal_moves(name: str) -> None:
    game = get_game(name)
    for state in sample_states(name, games=4, seed=1):
        moves = game.legal_moves(state)
        for index in range(len(game.symmetries)):
            image = game.transform(state, index)
            assert game.to_move(image) == game.to_move(state)
            assert game.winner(image) == game.winner(state)
            assert game.legal_moves(image) == sorted(game.transform_move(m, index) for m in moves)
            for move in moves[:3]:
                assert game.transform(game.play(state, move), index) == game.play(
                    image, game.transform_move(move, index)
                )
        canonical, used = game.canonical(state)
        assert canonical == game.transform(state, used)
        assert game.board(canonical) == min(game.board(game.transform(state, k)) for k in range(len(game.symmetries)))


@pytest.mark.parametrize("name", NAMES)
def test_play_refuses_every_move_outside_legal_moves_and_changes_nothing(name: str) -> None:
    game = get_game(name)
    digits = "0123456789"
    width = {"teeko": (2, 4), "hexapawn": (2,), "tictactoe": (1,), "connect4": (1, 2)}[game.name]
    for state in sample_states(name, games=2, seed=2)[::5]:
        legal = set(game.legal_moves(state))
        frozen = copy.deepcopy(state)
        rng = random.Random(3)
        candidates = {"".join(rng.choice(digits) for _ in range(w)) for w in width for _ in range(60)}
        for move in candidates | legal:
            if move in legal:
                game.play(state, move)
            else:
                with pytest.raises(IllegalMove) as caught:
                    game.play(state, move)
                assert repr(move) in str(caught.value) and caught.value.reason
            assert state == frozen


def test_illegal_move_is_a_value_error() -> None:
    assert issubclass(IllegalMove, ValueError)
    assert gamelearn.IllegalMove is IllegalMove


@cache
def finished_position(name: str) -> object:
    """The end of the first game random players win, over seeds 0..49."""
    game = get_game(name)
    for seed in range(50):
        record = play_game(game, [make_player(game, "random", seed=seed)] * 2, seed=seed, max_plies=2000)
        if record.winner is not None:
            return record.final
    return None


def finished_game_cases() -> list[object]:
    """(game, kind) for every kind a game lists but a person (asked by the interface), Teeko's
    perfect player (it needs its table) and Connect Four's on a board too large for its solver; az
    is slow (JAX)."""
    from gamelearn.players.registry import kinds_for

    cases = []
    for name in NAMES:
        for kind in kinds_for(get_game(name)):
            too_large = name == "connect4:columns=9,rows=8"  # the solver's bitboard takes columns x (rows + 1) <= 63
            if kind.name == "human" or (kind.name == "perfect" and (name.startswith("teeko") or too_large)):
                continue
            marks = [pytest.mark.slow] if kind.name == "az" else []
            cases.append(pytest.param(name, kind.name, marks=marks, id=f"{name}-{kind.name}"))
    return cases


@pytest.mark.parametrize(("name", "kind"), finished_game_cases())
def test_no_player_is_asked_to_move_in_a_finished_game_without_a_value_error(name: str, kind: str) -> None:
    """choose() on a finished position is a ValueError naming the reason, not an IndexError from
    an empty choice, not a made-up move, and not a resignation."""
    game = get_game(name)
    finished = finished_position(name)
    assert finished is not None and game.is_over(finished)
    if kind in ("thesis", "ntuple") and game.name == "teeko" and game.spec != "teeko":
        with pytest.raises(ValueError, match="Standard Teeko only, not " + game.spec):
            make_player(game, kind, seed=1)
        return
    spec = "mcts:playouts=5" if kind == "mcts" else kind
    player = make_player(game, spec, seed=1)
    with pytest.raises(ValueError, match="over"):
        player.choose(finished)


def teeko_goal_shape(squares: tuple[int, ...]) -> str:
    """What four squares of the 5x5 board make, from their coordinates: "line", "block" (2x2),
    "corners" (of a larger square), or ""."""
    cells = sorted(divmod(sq, 5) for sq in squares)
    r0, r3 = cells[0][0], cells[-1][0]
    steps = {(b[0] - a[0], b[1] - a[1]) for a, b in zip(cells, cells[1:], strict=False)}
    if len(steps) == 1 and steps <= {(0, 1), (1, 0), (1, 1), (1, -1)}:
        return "line"
    rows, columns = {r for r, _ in cells}, {c for _, c in cells}
    if len(rows) == len(columns) == 2 and r3 - r0 == max(columns) - min(columns):
        return "block" if r3 - r0 == 1 else "corners"
    return ""


@pytest.mark.parametrize("name", NAMES)
def test_the_winning_squares_are_the_winners_own_goal(name: str) -> None:
    game = get_game(name)
    for state in sample_states(name):
        squares, winner = game.winning_squares(state), game.winner(state)
        if winner is None:
            assert squares == ()
            continue
        board = game.board(state)
        assert list(squares) == sorted(set(squares)) and {board[sq] for sq in squares} <= {game.symbols[winner]}
        if game.name == "tictactoe":
            assert len(squares) == 3
        elif game.name == "connect4":  # one four or more, each a line of the winner's
            assert len(squares) >= 4
        elif game.name == "teeko":
            shapes = {"line", "block", "corners"} if "goals=advanced" in game.spec else {"line", "block"}
            assert len(squares) == 4 and teeko_goal_shape(squares) in shapes


@pytest.mark.parametrize("name", [*gamelearn.game_names(), "teeko:goals=advanced,steps=knight"])
def test_every_game_found_keeps_the_contract_as_check_game_checks_it(name: str) -> None:
    """The checks ``gamelearn check-game`` runs (gamelearn.games.contract), over every game found:
    the built-in ones and every game installed with an entry point."""
    from gamelearn.games.contract import problems

    assert problems(get_game(name)) == []
