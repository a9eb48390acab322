"""Knowledge checked once per content (players/checked.py): a value met again is not checked
again, yet every load still reads the latest stored knowledge, a lesson another keeper (another
process) kept is seen at the next load, and a damaged document is refused every time.  Oracles:
the store's own rows, read back with the store's reads, and the checks' counters."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import gamelearn
from gamelearn.keeper import Keeper
from gamelearn.players.matchbox_checks import CHECKED_BOXES
from gamelearn.players.thesis.player import CHECKED_MEMORIES
from gamelearn.store.store import Store


def make(game: Any, spec: str, seed: int) -> Any:
    """A player, typed loosely: the tests ask learners for what only learners have."""
    return gamelearn.make_player(game, spec, seed=seed)


def loaded_by(keeper: Keeper, game: Any, spec: str) -> Any:
    return keeper.load_player(game, spec)


def play(keeper: Keeper, game_name: str, spec: str, seed: int) -> Any:
    """One game of the kept learner ``spec`` against a random mover, its lesson kept by ``keeper``."""
    game = gamelearn.get_game(game_name)
    learner = keeper.load_player(game, spec, seed=seed)
    other = gamelearn.make_player(game, "random", seed=seed + 100)
    gamelearn.play_game(game, [learner, other], seed=seed, max_plies=80, keeper=keeper)
    return learner


def test_a_knowledge_value_met_again_is_not_checked_again_and_each_load_owns_its_boxes() -> None:
    game = gamelearn.get_game("tictactoe")
    teacher = make(game, "menace", 1)
    for seed in range(8):
        gamelearn.play_game(game, [teacher, make(game, "random", seed)], seed=seed)
    knowledge = json.loads(json.dumps(teacher.knowledge()))
    CHECKED_BOXES.clear()
    checks = CHECKED_BOXES.checks
    first, second = make(game, "menace", 2), make(game, "menace", 3)
    first.load(knowledge)
    second.load(json.loads(json.dumps(knowledge)))  # the same content, another value
    assert CHECKED_BOXES.checks == checks + 1
    assert first.knowledge()["boxes"] == second.knowledge()["boxes"] == knowledge["boxes"]
    # each player owns its boxes: what one learns changes neither the other's nor the next load's
    for seed in range(20, 26):
        for player in (first, second):
            gamelearn.play_game(game, [player, make(game, "random", seed)], seed=seed)
    assert first.knowledge()["boxes"] != knowledge["boxes"] != second.knowledge()["boxes"]
    third = make(game, "menace", 4)
    third.load(knowledge)
    assert third.knowledge()["boxes"] == knowledge["boxes"]


def test_the_same_content_of_other_types_is_checked_again_and_refused() -> None:
    game = gamelearn.get_game("hexapawn")
    her = make(game, "her", 1)
    for seed in range(6):
        gamelearn.play_game(game, [make(game, "random", seed), her], seed=seed)
    knowledge = her.knowledge()
    make(game, "her", 2).load(knowledge)  # checked, and remembered
    board = next(iter(knowledge["boxes"]))
    as_tuple = {**knowledge, "boxes": {**knowledge["boxes"], board: tuple(knowledge["boxes"][board])}}
    with pytest.raises(ValueError, match="beads must be a list"):
        make(game, "her", 3).load(as_tuple)
    menace_game = gamelearn.get_game("tictactoe")
    menace = make(menace_game, "menace", 1)
    gamelearn.play_game(menace_game, [menace, make(menace_game, "random", 1)], seed=1)
    boxes = menace.knowledge()
    box, counts = next(iter(boxes["boxes"].items()))
    colour = next(iter(counts))
    one = {**boxes, "boxes": {**boxes["boxes"], box: {**counts, colour: 1}}}
    make(menace_game, "menace", 2).load(one)  # 1 bead: checked, and remembered
    as_bool = {**boxes, "boxes": {**boxes["boxes"], box: {**counts, colour: True}}}  # True == 1
    with pytest.raises(ValueError, match="not a whole number"):
        make(menace_game, "menace", 3).load(as_bool)


def test_a_lesson_another_keeper_kept_is_seen_and_a_damaged_document_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    mine, theirs = Keeper(Store(path)), Keeper(Store(path))  # two connections: two processes
    play(mine, "tictactoe", "menace:name=m", seed=1)
    loaded = loaded_by(mine, gamelearn.get_game("tictactoe"), "menace:name=m")
    loaded_by(mine, gamelearn.get_game("tictactoe"), "menace:name=m")  # the same content again
    play(theirs, "tictactoe", "menace:name=m", seed=2)  # another process's lesson
    stored = Store(path).load_learner("menace", "m")
    assert stored is not None and stored["games"] == 2
    seen = loaded_by(mine, gamelearn.get_game("tictactoe"), "menace:name=m")
    assert seen.knowledge()["boxes"] == stored["boxes"] != loaded.knowledge()["boxes"]
    assert seen.games_played == 2
    # a document damaged in the store after it was checked: refused, at every load
    box = next(iter(stored["boxes"]))
    colour = next(iter(stored["boxes"][box]))
    damaged = {**stored, "boxes": {**stored["boxes"], box: {**stored["boxes"][box], colour: -1}}}
    Store(path).save_learner("menace", "m", damaged)
    for _ in range(2):
        with pytest.raises(ValueError, match=f"box '{box}'.*not a whole number >= 0"):
            loaded_by(mine, gamelearn.get_game("tictactoe"), "menace:name=m")
    Store(path).save_learner("menace", "m", stored)  # mended: the checked content is loaded again
    assert loaded_by(mine, gamelearn.get_game("tictactoe"), "menace:name=m").knowledge()["boxes"] == stored["boxes"]


def test_a_thesis_memory_another_keeper_taught_is_seen_and_a_damaged_one_refused(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    mine, theirs = Keeper(Store(path)), Keeper(Store(path))
    teeko = gamelearn.get_game("teeko")
    seed = 0
    while Store(path).load_memory("t") is None:  # until a won game has taught the memory
        play(mine, "teeko", "thesis:memory=t", seed=seed)
        seed += 1
    CHECKED_MEMORIES.clear()
    checks = CHECKED_MEMORIES.checks
    before = loaded_by(mine, teeko, "thesis:memory=t").knowledge()
    loaded_by(mine, teeko, "thesis:memory=t")
    assert CHECKED_MEMORIES.checks == checks + 1  # the same memory twice: checked once
    grown = len(before)
    while len(Store(path).load_memory("t") or []) == grown:  # another process teaches it more
        play(theirs, "teeko", "thesis:memory=t", seed=seed)
        seed += 1
    stored: list[list[Any]] = [list(entry) for entry in Store(path).load_memory("t") or []]
    seen = loaded_by(mine, teeko, "thesis:memory=t")
    assert seen.knowledge() == stored and len(stored) > grown
    # a record damaged in the store (three pawns of one side): refused, at every load
    board, x_wins, o_wins = stored[0]
    three = board.replace("1", "0", 1)
    Store(path).update_memory("t", {0: (three, x_wins, o_wins)})
    for _ in range(2):
        with pytest.raises(ValueError, match="record 1: board .* does not hold four pawns"):
            loaded_by(mine, teeko, "thesis:memory=t")
