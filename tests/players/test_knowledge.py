"""The knowledge contract, one test for every learner (players/knowledge.py), and the keeper
that stores it (keeper.py): lessons applied to the latest stored knowledge, frozen learners never
written, files never written, the lesson equal to the difference that was stored."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import gamelearn
from extras import needs
from gamelearn.keeper import Keeper
from gamelearn.players.knowledge import Learner
from gamelearn.store.store import Store
from gamelearn.thesis.memories import list_memories

#: (game, learner spec, opponent): every kind of learner on every game it learns.
LEARNERS = [
    ("hexapawn", "her", "random"),
    ("hexapawn", "him", "random"),
    ("tictactoe", "menace", "random"),
    ("tictactoe", "td", "random"),
    ("hexapawn", "td", "random"),
    ("teeko", "td:epsilon=0.3", "random"),
    ("teeko", "thesis", "random"),
    pytest.param("tictactoe", "az:simulations=4", "random", marks=[pytest.mark.slow, needs("neural", "jax")]),
    ("tictactoe", "ntuple", "random"),
    pytest.param("teeko", "ntuple:search=2", "random", marks=pytest.mark.slow),  # a 2-ply search a move
]


def trained(game_name: str, spec: str, opponent: str, games: int = 6, **options: Any) -> tuple[Any, Any]:
    game = gamelearn.get_game(game_name)
    learner = gamelearn.make_player(game, spec, seed=1)
    other = gamelearn.make_player(game, opponent, seed=2)
    for seed in range(games):
        seats = [learner, other] if seed % 2 else [other, learner]
        gamelearn.play_game(game, seats, seed=seed, max_plies=80, **options)
    return game, learner


@pytest.mark.parametrize(("game_name", "spec", "opponent"), LEARNERS)
def test_every_learner_keeps_the_knowledge_contract(game_name: str, spec: str, opponent: str) -> None:
    game, learner = trained(game_name, spec, opponent)
    assert isinstance(learner, Learner)
    knowledge = learner.knowledge()
    # a value JSON writes, and a copy: later learning leaves it as it was
    assert json.loads(json.dumps(knowledge)) == knowledge
    kept = copy.deepcopy(knowledge)
    other = gamelearn.make_player(game, "random", seed=9)
    for seed in range(20, 26):
        gamelearn.play_game(game, [learner, other] if seed % 2 else [other, learner], seed=seed, max_plies=80)
    assert knowledge == kept
    # load gives back exactly what knowledge gave
    twin = gamelearn.make_player(game, spec, seed=1)
    assert isinstance(twin, Learner)
    twin.load(json.loads(json.dumps(kept)))
    assert twin.knowledge() == kept
    # a bad value is refused with a ValueError and changes nothing
    for bad in (None, 7, "boxes", {"format": "nothing"}):
        with pytest.raises(ValueError):
            twin.load(bad)
        assert twin.knowledge() == kept
    # describe: counts for people
    counts = twin.describe()
    assert counts and all(isinstance(v, int) and v >= 0 for v in counts.values())
    # lesson: empty for equal values, not empty for values that differ
    assert not learner.lesson(kept, kept)
    after = learner.knowledge()
    assert (after == kept) == (not learner.lesson(kept, after))


@pytest.mark.parametrize(("game_name", "spec", "opponent"), LEARNERS)
def test_a_frozen_learner_learns_nothing(game_name: str, spec: str, opponent: str) -> None:
    frozen_spec = spec + ("," if ":" in spec else ":") + "train=off"
    game, learner = trained(game_name, frozen_spec, opponent, games=4)
    before = learner.knowledge()
    record = gamelearn.play_game(game, [learner, gamelearn.make_player(game, opponent, seed=3)], seed=5)
    learner.learn(record, 0)
    assert learner.knowledge() == before and learner.trains is False


def test_two_stale_copies_of_one_named_learner_lose_no_lesson() -> None:
    # Two players loaded from one name before either plays (as two processes would be): each game's
    # lesson is applied to the latest stored boxes, so the store ends with both games' lessons.
    game = gamelearn.get_game("tictactoe")
    keeper = Keeper(Store())
    first = gamelearn.make_player(game, "menace:name=shared", seed=1, keeper=keeper)
    second = gamelearn.make_player(game, "menace:name=shared", seed=2, keeper=keeper)
    opponent = gamelearn.make_player(game, "random", seed=3)
    records = []
    for player, seed in ((first, 10), (second, 11), (first, 12)):
        records.append(gamelearn.play_game(game, [player, opponent], seed=seed, keeper=keeper))
    stored = gamelearn.make_player(game, "menace:name=shared", keeper=keeper)
    assert stored.games_played == 3
    # the oracle: one fresh MENACE taught the same three records in the same order
    serial = gamelearn.make_player(game, "menace", seed=1)
    for record in records:
        serial.learn(record, 0)
    assert stored.boxes == serial.boxes
    # and the player that played last holds what was stored
    assert first.boxes == serial.boxes


def test_the_lesson_is_the_difference_that_was_stored() -> None:
    game = gamelearn.get_game("hexapawn")
    keeper = Keeper(Store())
    her = gamelearn.make_player(game, "her:name=h", seed=1, keeper=keeper)
    sharp = gamelearn.make_player(game, "sharp", seed=2)
    for seed in range(6):
        before = Store().load_learner("her", "h") or {"boxes": {}}
        match = gamelearn.Match(game, [sharp, her], seed=seed, keeper=keeper)
        while match.end is None:
            match.advance()
        (kept,) = [k for k in match.lessons if k.learner is her]
        after = Store().load_learner("her", "h")
        assert after is not None
        for change in kept.lesson.changes:
            old = before["boxes"].get(change.where)
            if old is not None:
                taken = [bead for bead in old if old.count(bead) > after["boxes"][change.where].count(bead)]
                assert sorted(taken) == sorted(change.removed)
        removed = [bead for change in kept.lesson.changes for bead in change.removed]
        if record_lost(match.record, 1):  # Gardner's rule: one bead out per loss, and only then
            assert len(removed) == 1 and "taken out" in kept.lesson.text
        else:
            assert removed == []


def record_lost(record: Any, side: int) -> bool:
    return record is not None and record.winner is not None and record.winner != side


def test_frozen_and_file_learners_are_never_written(thesis_data: Any, tmp_path: Any) -> None:
    game = gamelearn.get_game("teeko")
    source = thesis_data / "memory after 10000 games.txt"
    copy_path = tmp_path / "memory.m"
    copy_path.write_bytes(source.read_bytes())
    store = Store()
    keeper = Keeper(store)
    reader = gamelearn.make_player(game, f"thesis:memory={copy_path}", seed=1, keeper=keeper)
    assert reader.describe()["records"] == 516 and reader.trains is False
    frozen_menace = gamelearn.make_player(
        gamelearn.get_game("tictactoe"), "menace:name=ice,train=off", seed=1, keeper=keeper
    )
    for seed in range(4):
        gamelearn.play_game(game, [reader, gamelearn.make_player(game, "random", seed=seed)], seed=seed, keeper=keeper)
        ttt = gamelearn.get_game("tictactoe")
        gamelearn.play_game(ttt, [frozen_menace, gamelearn.make_player(ttt, "random")], seed=seed, keeper=keeper)
    assert copy_path.read_bytes() == source.read_bytes()
    assert list_memories(store) == [] and store.list_learners() == []


def test_an_import_under_a_taken_name_is_refused_inside_the_write() -> None:
    game = gamelearn.get_game("hexapawn")
    keeper = Keeper(Store())
    first = gamelearn.make_player(game, "her:name=same", seed=1)
    keeper.save(first, replace=False)
    with pytest.raises(ValueError, match="already in the store"):
        keeper.save(gamelearn.make_player(game, "her:name=same"), replace=False)
    keeper.save(gamelearn.make_player(game, "her:name=same"), replace=True)
