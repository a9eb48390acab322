"""az on a game of another author: its rules tabulated over every reachable position
(players/az/tabulated.py) agree with the game's own Python rules, and with the hand-written JAX
rules of tic-tac-toe on a copy of it written against the public contract; a short seeded training
plays measurably better on the game's suite than the untrained network, the same seed gives the
same network, and a named learner is kept through the keeper.  Connect Three (examples/connect3)
is checked too where it is installed; the copy of tic-tac-toe, registered here, runs everywhere."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Iterator

import numpy as np
import pytest

from extras import need

jax = need("neural", "jax")
need("neural", "mctx")

import gamelearn
from gamelearn import Game, GameFacts, IllegalMove
from gamelearn.games import game_names, registry
from gamelearn.players.az.game_rules import rules_for
from gamelearn.players.az.player import AzPlayer
from gamelearn.players.az.rules import Position
from gamelearn.players.az.symmetry import symmetries
from gamelearn.players.az.tabulated import TabulatedRules, tabulate
from gamelearn.players.registry import make_player

pytestmark = pytest.mark.slow  # az: JAX's import, compilation and training

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def _square_symmetries() -> tuple[tuple[int, ...], ...]:
    """The 8 symmetries of the 3x3 square as permutations (square i goes to perm[i]), the
    identity first: the quarter turns, then each mirrored."""
    turn = tuple(3 * c + (2 - r) for r in range(3) for c in range(3))  # (r, c) -> (c, 2 - r)
    mirror = tuple(3 * r + (2 - c) for r in range(3) for c in range(3))
    perms = [tuple(range(9))]
    for _ in range(3):
        perms.append(tuple(turn[i] for i in perms[-1]))
    return (*perms, *(tuple(mirror[p[i]] for i in range(9)) for p in perms))


class Noughts(Game[tuple[int, ...]]):
    """Tic-tac-toe again, written against the public contract alone (a tuple of 9 cells, 0 empty, 1
    X, 2 O), under another name: a game az has no hand-written rules for."""

    facts = GameFacts(
        name="noughts",
        players=2,
        rows=3,
        columns=3,
        symbols=("X", "O"),
        symmetry_names=("identity", "turn", "half", "three-quarters", "m0", "m1", "m2", "m3"),
        can_cycle=False,
        value_of_start=0,
    )
    symmetries = _square_symmetries()

    def initial(self) -> tuple[int, ...]:
        return (0,) * 9

    def to_move(self, state: tuple[int, ...]) -> int:
        return 0 if state.count(1) == state.count(2) else 1

    def winner(self, state: tuple[int, ...]) -> int | None:
        for a, b, c in LINES:
            if state[a] and state[a] == state[b] == state[c]:
                return state[a] - 1
        return None

    def is_over(self, state: tuple[int, ...]) -> bool:
        return self.winner(state) is not None or 0 not in state

    def legal_moves(self, state: tuple[int, ...]) -> list[str]:
        return [] if self.is_over(state) else [str(sq) for sq in range(9) if state[sq] == 0]

    def play(self, state: tuple[int, ...], move: str) -> tuple[int, ...]:
        if move not in self.legal_moves(state):
            raise IllegalMove(move, "an empty square, while the game goes on")
        cells = list(state)
        cells[int(move)] = 1 + self.to_move(state)
        return tuple(cells)

    def board(self, state: tuple[int, ...]) -> str:
        return "".join(".XO"[cell] for cell in state)

    def from_board(self, board: str, to_move: int) -> tuple[int, ...]:
        state = tuple(".XO".index(ch) for ch in board)
        if to_move != self.to_move(state):
            raise ValueError("not that side's move on this board")
        return state

    def transform(self, state: tuple[int, ...], symmetry: int) -> tuple[int, ...]:
        cells = [0] * 9
        for square, image in enumerate(self.symmetries[symmetry]):
            cells[image] = state[square]
        return tuple(cells)

    def transform_move(self, move: str, symmetry: int) -> str:
        return str(self.symmetries[symmetry][int(move)])

    def rules_text(self) -> str:
        return "Tic-tac-toe under another name: three in a row wins."


class Circles(Noughts):
    """A game that says it can repeat positions: az does not tabulate it."""

    facts = dataclasses.replace(Noughts.facts, name="circles", can_cycle=True)


@pytest.fixture(scope="module")
def noughts() -> Iterator[Game]:
    """The game, registered for this module's tests only (the registry as it was after them)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))
        patch.setattr(registry, "_INSTANCES", dict(registry._INSTANCES))
        gamelearn.register_game(Noughts)
        yield gamelearn.get_game("noughts")


def reachable(game: Game) -> list:
    """Every position reachable from the start, by a walk of the Python rules written here."""
    start = game.initial()
    seen, frontier = {start}, [start]
    while frontier:
        state = frontier.pop()
        for move in game.legal_moves(state):
            after = game.play(state, move)
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    return sorted(seen, key=lambda s: (game.board(s), game.to_move(s)))


def games_to_check() -> list:
    cases = [pytest.param("noughts", 5_478, id="noughts")]
    installed = "connect3" in game_names()
    cases.append(
        pytest.param(
            "connect3",
            41_750,  # examples/connect3's own count, by a walk of its rules (docs/own-game.md)
            id="connect3",
            marks=pytest.mark.skipif(not installed, reason="examples/connect3 is not installed"),
        )
    )
    return cases


def batch_of(rules: TabulatedRules, game: Game, states: list) -> Position:
    encoded = [rules.encode(game, state) for state in states]
    return Position(*(np.stack(column) for column in zip(*encoded, strict=True)))


@pytest.mark.parametrize(("name", "count"), games_to_check())
def test_the_tables_agree_with_the_python_rules_on_every_reachable_position(noughts, name, count):
    """Planes, legal actions, and every move's next position, side to move, winner, end and reward,
    read through the JAX functions, against the Python rules, on every reachable position."""
    game = gamelearn.get_game(name)
    rules = rules_for(game)
    states = reachable(game)
    assert isinstance(rules, TabulatedRules) and len(states) == rules.positions == count
    batch = batch_of(rules, game, states)
    planes = np.asarray(jax.jit(jax.vmap(rules.planes))(batch))
    legal = np.asarray(jax.jit(jax.vmap(rules.legal))(batch))
    boards = np.array([list(game.board(s)) for s in states])
    assert np.array_equal(planes[:, 0].reshape(len(states), -1), boards == game.symbols[0])
    assert np.array_equal(planes[:, 1].reshape(len(states), -1), boards == game.symbols[1])
    assert np.array_equal(planes[:, 2, 0, 0], [game.to_move(s) for s in states])
    pairs = []
    for index, state in enumerate(states):
        assert sorted(rules.moves[a] for a in np.flatnonzero(legal[index])) == sorted(game.legal_moves(state))
        pairs.extend((index, rules.action_of(move), game.play(state, move)) for move in game.legal_moves(state))
    sources = jax.tree_util.tree_map(lambda x: x[np.array([p[0] for p in pairs])], batch)
    after, reward = jax.jit(jax.vmap(rules.step))(sources, np.array([p[1] for p in pairs]))
    after = jax.tree_util.tree_map(np.asarray, after)
    expected = batch_of(rules, game, [p[2] for p in pairs])
    for field in ("board", "to_move", "over", "winner"):
        assert np.array_equal(getattr(after, field), getattr(expected, field)), field
    movers = np.asarray(sources.to_move)
    assert np.array_equal(np.asarray(reward), (expected.winner == movers).astype(np.float32))
    # the ply limit is the longest game: 9 plies of tic-tac-toe, 16 discs of Connect Three
    assert rules.max_plies == game.squares


def test_a_copy_of_tictactoe_is_tabulated_as_the_hand_written_jax_rules_play_it(noughts):
    """An independent oracle: tic-tac-toe's JAX rules, written by hand, give the same planes and
    legal actions on every position, and the same symmetries of board and actions."""
    tabulated, written = rules_for(noughts), rules_for("tictactoe")
    assert tabulated.moves == written.moves
    states = reachable(noughts)
    builtin = gamelearn.get_game("tictactoe")
    mine = batch_of(tabulated, noughts, states)
    theirs = batch_of(written, builtin, [builtin.from_board(noughts.board(s), noughts.to_move(s)) for s in states])
    for function in ("planes", "legal"):
        ours = np.asarray(jax.jit(jax.vmap(getattr(tabulated, function)))(mine))  # compiled once, not op by op
        assert np.array_equal(ours, np.asarray(jax.jit(jax.vmap(getattr(written, function)))(theirs))), function

    def tables(rules):
        return {(tuple(s.squares), tuple(s.actions)) for s in symmetries(rules)}

    assert len(symmetries(tabulated)) == 8 and tables(tabulated) == tables(written)
    assert tuple(symmetries(tabulated)[0].squares) == tuple(range(9))  # the identity first


def test_a_game_that_can_cycle_or_is_too_large_is_refused_in_one_line(noughts):
    gamelearn.register_game(Circles)  # into the module's registry (the fixture's)
    with pytest.raises(ValueError, match="can repeat positions") as cycling:
        make_player(gamelearn.get_game("circles"), "az", seed=0)
    with pytest.raises(ValueError, match="at most 1,000") as large:
        tabulate(noughts, limit=1_000)
    for error in (cycling, large):
        assert "\n" not in str(error.value)


def raw_keeps(player: AzPlayer, suite) -> float:
    """The share of the suite's positions where the player's move keeps the value."""
    moves = player.choose_many([p.state for p in suite.positions])
    return float(np.mean([move in p.keeping for move, p in zip(moves, suite.positions, strict=True)]))


def test_a_short_seeded_training_plays_better_on_the_suite_and_replays_exactly(noughts):
    """12 batches of self-play (1,536 games, seconds): the network's own move (no search, so the
    network alone is measured) keeps the value in clearly more of the suite's positions than the
    untrained network's (measured: 43% before, 69% after); the same seed trains the same weights."""
    from gamelearn.experiments.suites import get_suite

    suite = get_suite(noughts)
    raw = AzPlayer(noughts, seed=3, simulations=0, train=False)
    before = raw_keeps(raw, suite)
    first, second = AzPlayer(noughts, seed=3), AzPlayer(noughts, seed=3)
    for learner in (first, second):
        learner.self_play(12)
    assert first.trainer.games == 12 * 128 and first.knowledge() == second.knowledge()
    raw.load(first.knowledge())
    after = raw_keeps(raw, suite)
    assert after >= before + 0.10, (before, after)


def test_a_named_learner_is_kept_through_the_keeper(noughts, tmp_path):
    from gamelearn.keeper import Keeper
    from gamelearn.store.store import Store

    player = make_player(noughts, "az:name=kept", seed=11)
    player.self_play(1)
    states = [s for s in reachable(noughts) if not noughts.is_over(s)][:300]
    with Store(tmp_path / "store.sqlite3") as store:
        keeper = Keeper(store)
        keeper.save(player)
        again = make_player(noughts, "az:name=kept,train=off", seed=12)
        assert keeper.attach(again)
        assert again.knowledge() == player.knowledge()
        frozen = make_player(noughts, "az:train=off", seed=12)
        frozen.load(player.knowledge())
        assert again.choose_many(states) == frozen.choose_many(states)
        assert store.load_learner("az", "kept")["game"] == "noughts"
    unreachable = noughts.from_board("XX.......", 1)  # two X, no O: the rules allow it, no game reaches it
    with pytest.raises(ValueError, match="reachable from the start") as refused:
        frozen.choose(unreachable)
    assert "\n" not in str(refused.value)


@pytest.mark.skipif("connect3" not in game_names(), reason="examples/connect3 is not installed")
def test_gamelearn_train_connect3_az_keeps_a_graded_learner(tmp_path):
    """The command on a plugged-in game: self-play, a checkpoint graded on the suite, the learner kept."""
    env = {**os.environ, "GAMELEARN_HOME": str(tmp_path)}
    command = [sys.executable, "-m", "gamelearn", "train", "connect3", "az", "--name", "c", "--games", "256"]
    done = subprocess.run(
        [*command, "--checkpoints", "1", "--json"], capture_output=True, text=True, env=env, timeout=240
    )
    assert done.returncode == 0, done.stderr
    [point] = json.loads(done.stdout)["checkpoints"]
    assert point["games"] == 256 and 0.5 <= point["keeps"] <= 1 and point["best"] <= point["keeps"]
    from gamelearn.store.store import Store

    with Store(tmp_path / "gamelearn.sqlite3") as store:
        kept = store.load_learner("az", "c")
    assert kept["game"] == "connect3" and kept["games"] == 256
