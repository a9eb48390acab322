"""A game of another author: found by its entry point or by register_game, a broken one named in
one line without harm to the built-in games."""

from __future__ import annotations

import pytest

import gamelearn
from gamelearn import games
from gamelearn.games import GAME_NAMES, Game, GameFacts, IllegalMove, registry


class Nim(Game[tuple[int, int]]):
    """One heap of 5 counters, take 1 or 2; whoever takes the last wins (a loss for the first
    player: 5 is not a multiple of 3).  The state is (counters left, side to move)."""

    facts = GameFacts(
        name="nim5",
        players=2,
        rows=1,
        columns=5,
        symbols=("A", "B"),
        symmetry_names=("identity",),
        can_cycle=False,
        value_of_start=None,
    )
    symmetries = (tuple(range(5)),)

    def initial(self) -> tuple[int, int]:
        return (5, 0)

    def to_move(self, state: tuple[int, int]) -> int:
        return state[1]

    def legal_moves(self, state: tuple[int, int]) -> list[str]:
        return [str(n) for n in (1, 2) if n <= state[0]]

    def play(self, state: tuple[int, int], move: str) -> tuple[int, int]:
        if move not in self.legal_moves(state):
            raise IllegalMove(move, "take 1 or 2 counters, no more than are left")
        return (state[0] - int(move), 1 - state[1])

    def winner(self, state: tuple[int, int]) -> int | None:
        return 1 - state[1] if state[0] == 0 else None

    def is_over(self, state: tuple[int, int]) -> bool:
        return state[0] == 0

    def board(self, state: tuple[int, int]) -> str:
        return "A" * state[0] + "." * (5 - state[0])  # the counters left, as A's pawns

    def from_board(self, board: str, to_move: int) -> tuple[int, int]:
        return (board.count("A"), to_move)

    def transform(self, state: tuple[int, int], symmetry: int) -> tuple[int, int]:
        return state

    def transform_move(self, move: str, symmetry: int) -> str:
        return move

    def rules_text(self) -> str:
        return "Nim: take 1 or 2 of 5 counters; whoever takes the last wins."


@pytest.fixture
def clean_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_REGISTERED", {})
    monkeypatch.setattr(registry, "_BROKEN", {})
    monkeypatch.setattr(registry, "_INSTANCES", dict(registry._INSTANCES))


def test_the_public_contract_is_exported() -> None:
    assert gamelearn.Game is Game and gamelearn.GameFacts is GameFacts and gamelearn.IllegalMove is IllegalMove
    assert isinstance(gamelearn.CONTRACT_VERSION, int) and gamelearn.CONTRACT_VERSION >= 1
    assert gamelearn.game_names()[:4] == GAME_NAMES == ("teeko", "hexapawn", "tictactoe", "connect4")


def test_a_registered_game_is_played_and_solved_by_name(clean_registry: None) -> None:
    assert gamelearn.register_game(Nim) is Nim
    game = gamelearn.get_game("nim5")
    assert isinstance(game, Nim) and "nim5" in gamelearn.game_names()
    # 5 counters, take 1 or 2: the positions 5, 4, 3, 2, 1, 0 with each side to move that play reaches
    solution = gamelearn.solve(game)
    assert solution.outcome(game.initial())[0] == 1  # 5 = 3 + 2: take 2, leave a multiple of 3
    assert solution.outcome((3, 0))[0] == -1
    record = gamelearn.play_game(
        game, [gamelearn.make_player(game, "perfect"), gamelearn.make_player(game, "random", seed=1)]
    )
    assert record.winner == 0


def test_the_unknown_game_message_lists_every_game_found(clean_registry: None) -> None:
    gamelearn.register_game(Nim)
    with pytest.raises(ValueError, match="valid games: teeko, hexapawn, tictactoe.*nim5"):
        gamelearn.get_game("chess")


def test_a_class_that_breaks_the_contracts_form_is_refused_in_one_line(clean_registry: None) -> None:
    class Half(Game[int]):
        facts = Nim.facts

    with pytest.raises(ValueError, match="does not define .*initial") as caught:
        gamelearn.register_game(Half)
    assert "\n" not in str(caught.value)
    with pytest.raises(ValueError, match="built-in game's name"):
        gamelearn.register_game(type("T", (Nim,), {"facts": GameFacts(**{**_fields(Nim.facts), "name": "teeko"})}))


def _fields(facts: GameFacts) -> dict[str, object]:
    names = ("name", "players", "rows", "columns", "symbols", "symmetry_names", "can_cycle", "value_of_start")
    return {name: getattr(facts, name) for name in names}


def test_a_broken_plugin_is_named_and_the_built_in_games_still_work(
    clean_registry: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    plugins = {"ghost": "no_such_module_anywhere:Ghost", "wrong": "fractions:Fraction"}
    monkeypatch.setattr(registry, "_plugins", lambda: plugins)
    with pytest.raises(ValueError, match="game 'ghost' cannot be loaded: ModuleNotFoundError") as caught:
        gamelearn.get_game("ghost")
    assert "\n" not in str(caught.value)
    with pytest.raises(ValueError, match="'fractions:Fraction' is .*not a subclass of gamelearn.Game"):
        gamelearn.get_game("wrong")
    assert set(games.broken_games()) == {"ghost", "wrong"}
    assert gamelearn.get_game("tictactoe").name == "tictactoe"
    assert {"ghost", "wrong"} <= set(gamelearn.game_names())


class CarelessNim(Nim):
    """Nim with three mistakes a first attempt makes: moves unsorted, a move it does not list
    accepted, and a winner declared while counters are left."""

    facts = GameFacts(**{**_fields(Nim.facts), "name": "carelessnim"})

    def legal_moves(self, state: tuple[int, int]) -> list[str]:
        return [str(n) for n in (2, 1) if n <= state[0]]

    def play(self, state: tuple[int, int], move: str) -> tuple[int, int]:
        return (state[0] - int(move), 1 - state[1]) if move.isdigit() else super().play(state, move)

    def winner(self, state: tuple[int, int]) -> int | None:
        return 0 if state[0] == 1 else super().winner(state)


def test_the_contract_checks_name_what_a_game_breaks(clean_registry: None) -> None:
    from gamelearn.games.contract import problems

    found = problems(CarelessNim())
    assert any(line.startswith("states:") and "not sorted" in line for line in found)
    assert any(line.startswith("illegal moves:") and "is accepted" in line for line in found)
    assert any("a winner, but the game is not over" in line for line in found)
    assert all("\n" not in line for line in found)
    assert problems(Nim()) == []


def test_check_game_prints_each_problem_and_passes_a_good_game(clean_registry: None) -> None:
    from typer.testing import CliRunner

    from gamelearn.cli.main import app

    gamelearn.register_game(Nim)
    gamelearn.register_game(CarelessNim)
    good = CliRunner().invoke(app, ["check-game", "nim5"])
    assert good.exit_code == 0, good.output
    assert "nim5: keeps the Game contract" in good.output and "the start is worth +1" in good.output
    bad = CliRunner().invoke(app, ["check-game", "carelessnim"])
    assert bad.exit_code == 1 and "not sorted" in bad.output and "problem(s)" in bad.output
