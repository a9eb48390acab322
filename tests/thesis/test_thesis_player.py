"""The ``thesis`` player through the public API, and fixed-mode batch self-play."""

from __future__ import annotations

from pathlib import Path

import pytest

import gamelearn
from gamelearn.store.store import Store
from gamelearn.thesis.batch import BatchConfig, run_batch, trace_text
from gamelearn.thesis.board import key
from gamelearn.thesis.engine import Settings
from gamelearn.thesis.memories import load_memory

TEEKO = gamelearn.get_game("teeko")


def test_spec_options_and_errors() -> None:
    player = gamelearn.make_player(TEEKO, "thesis:heuristics=off,search=on,learn=off,original=on", seed=3)
    assert player.spec == "thesis:heuristics=off,learn=off,original=on"
    with pytest.raises(ValueError, match="valid options: heuristics, search, learn, memory, original"):
        gamelearn.make_player(TEEKO, "thesis:depth=2")
    with pytest.raises(ValueError, match="not on or off"):
        gamelearn.make_player(TEEKO, "thesis:search=maybe")
    with pytest.raises(ValueError, match="unknown player 'thesis' for tictactoe"):
        gamelearn.make_player(gamelearn.get_game("tictactoe"), "thesis")


def test_placement_follows_the_opening_rules() -> None:
    player = gamelearn.make_player(TEEKO, "thesis", seed=1)
    assert player.choose(TEEKO.initial()) == "22"
    state = TEEKO.play(TEEKO.initial(), "22")
    assert player.choose(state) in ("11", "13", "31", "33")
    assert player.last_decision.source == "o:corner"


def test_same_seed_same_games_and_moves_are_legal() -> None:
    def games(seed: int) -> list[tuple[str, ...]]:
        players = [gamelearn.make_player(TEEKO, "thesis", seed=seed), gamelearn.make_player(TEEKO, "random", seed=seed)]
        return [gamelearn.play_game(TEEKO, players, seed=seed + k).moves for k in range(4)]

    assert games(5) == games(5)  # play_game checks every move's legality as it plays


def test_learns_the_won_game_from_the_winner_side() -> None:
    thesis = gamelearn.make_player(TEEKO, "thesis", seed=2)
    opponent = gamelearn.make_player(TEEKO, "random", seed=2)
    for seed in range(30):
        record = gamelearn.play_game(TEEKO, [opponent, thesis], seed=seed)
        if record.winner is not None and record.plies > 8:
            break
    else:
        pytest.fail("no won game reached the moving phase")
    entries = list(thesis.memory.entries())
    boards = [key(s.x, s.o) for s in record.states[9:]]
    assert len(entries) == len(set(boards))
    winner_field = 1 if record.winner == 0 else 2
    assert sum(e[winner_field] for e in entries) == len(boards)
    assert sum(e[3 - winner_field] for e in entries) == 0


def test_learning_off_and_draws_teach_nothing() -> None:
    thesis = gamelearn.make_player(TEEKO, "thesis:learn=off", seed=1)
    gamelearn.play_game(TEEKO, [thesis, gamelearn.make_player(TEEKO, "random", seed=1)], seed=1)
    assert len(thesis.memory) == 0


def test_memory_name_is_kept_in_the_store() -> None:
    first = gamelearn.make_player(TEEKO, "thesis:memory=trial", seed=4)
    random_player = gamelearn.make_player(TEEKO, "random", seed=4)
    for seed in range(10):  # as O: against random, X wins in the opening, which teaches nothing
        gamelearn.play_game(TEEKO, [random_player, first], seed=seed)
    assert len(first.memory) > 0
    with Store() as store:
        assert load_memory(store, "trial") == list(first.memory.entries())
    again = gamelearn.make_player(TEEKO, "thesis:memory=trial", seed=4)
    assert list(again.memory.entries()) == list(first.memory.entries())


def test_memory_path_is_read_only(thesis_data: Path, tmp_path: Path) -> None:
    copy = tmp_path / "memory.m"
    copy.write_bytes((thesis_data / "memory after 10000 games.txt").read_bytes())
    player = gamelearn.make_player(TEEKO, f"thesis:memory={copy}", seed=1)
    assert len(player.memory) == 516
    for seed in range(5):
        gamelearn.play_game(TEEKO, [player, gamelearn.make_player(TEEKO, "random", seed=seed)], seed=seed)
    assert copy.read_bytes() == (thesis_data / "memory after 10000 games.txt").read_bytes()


def test_fixed_batch_is_seeded_and_both_learning_memories_stay_identical() -> None:
    config = BatchConfig(games=40, seed=9)
    first, text_first = trace_text(config)
    second, text_second = trace_text(BatchConfig(games=40, seed=9))
    assert text_first == text_second
    assert [g.moves for g in first.games] == [g.moves for g in second.games]
    assert list(first.first_memory.entries()) == list(first.second_memory.entries())  # section f
    assert sum(first.counts()) == 40 == sum(first.stat[:3])
    assert all(g.result == "D" or g.reason == "four" for g in first.games)
    assert all(g.reason in ("four", "cycle2", "cycle3", "cycle4", "cap100") for g in first.games)
    other = run_batch(
        BatchConfig(games=40, seed=10, first=Settings(True, True, False), second=Settings(True, False, False))
    )
    assert len(other.first_memory) == 0 and len(other.second_memory) == 0  # nobody learns


def test_batch_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        run_batch(BatchConfig(games=0))
    from gamelearn.thesis.memory import Memory

    shared = Memory()
    with pytest.raises(ValueError, match="their own memory"):
        run_batch(BatchConfig(games=1, first_memory=shared, second_memory=shared))
    with pytest.raises(ValueError, match="six characters"):
        Settings.parse("+h+s")
    assert Settings.parse("+h-s+l") == Settings(True, False, True)
    assert Settings(True, False, True).flags() == "+h-s+l"
