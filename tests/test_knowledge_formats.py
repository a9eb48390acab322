"""Each knowledge format's storage on a real store: load, apply, exists, forget and save, the
thesis memory's records kept in order, and a memory.m file read and never written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import gamelearn
from gamelearn.keeper import Keeper
from gamelearn.knowledge_formats import (
    FORMATS,
    Boxes,
    KeptKnowledge,
    NetworkWeights,
    NtupleWeights,
    TDTable,
    kept_knowledge,
)
from gamelearn.players.knowledge import KnowledgeFormat
from gamelearn.store.store import Store
from gamelearn.thesis.files import format_memory, write_memory
from gamelearn.thesis.kept import ThesisMemory, ThesisMemoryFile
from gamelearn.thesis.knowledge import THESIS_MEMORY

#: Three boards of four pawns a side (the thesis memory's records), none the side swap of another.
BOARD_A, BOARD_B, BOARD_C = "11112222" + "0" * 17, "111102222" + "0" * 16, "011112222" + "0" * 16


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "store.sqlite3")


def kinds_of(store: Store) -> list[KeptKnowledge]:
    """One storage of every format, each under a name of its own, all for one owner."""
    return [
        Boxes(store, "ann", "menace", "tictactoe/one"),
        TDTable(store, "ann", "td", "tictactoe/one"),
        NetworkWeights(store, "ann", "az", "tictactoe/one"),
        NtupleWeights(store, "ann", "ntuple", "tictactoe/one"),
        ThesisMemory(store, "ann", "one"),
    ]


def values_for(kept: KeptKnowledge) -> tuple[Any, Any]:
    """A first value and a later one (a lesson's before and after) in the format's shape."""
    if isinstance(kept, ThesisMemory):
        return [[BOARD_A, 1, 0]], [[BOARD_A, 2, 0], [BOARD_B, 0, 1]]
    return {"boxes": {"....": [1, 2]}}, {"boxes": {"....": [1]}, "games": 1}


def test_every_format_has_one_storage_class() -> None:
    # the built-in learners' formats, and the one the thesis package registers (imported above)
    assert set(FORMATS) == set(KnowledgeFormat) | {THESIS_MEMORY}
    assert len(set(FORMATS.values())) == len(FORMATS)


@pytest.mark.parametrize("index", range(5))
def test_a_format_loads_what_it_applied_and_forgets_it(store: Store, index: int) -> None:
    kept = kinds_of(store)[index]
    first, later = values_for(kept)
    assert kept.load() is None and not kept.exists() and not kept.forget()
    kept.apply(None, first)  # the first lesson of a learner nobody kept yet
    assert kept.exists() and kept.load() == first
    kept.apply(first, later)
    assert kept.load() == later
    others = [other for other in kinds_of(store) if other is not kept and type(other) is not type(kept)]
    assert all(not other.exists() for other in others)  # one format's rows are not another's
    assert [k.exists() for k in kinds_of(Store(store.path))] == [i == index for i in range(5)]
    assert kept.forget() and not kept.exists() and kept.load() is None


def test_an_owner_sees_only_its_own(store: Store) -> None:
    for kept in kinds_of(store):
        kept.save(values_for(kept)[0])
    for kept in kinds_of(store):
        kept.owner = "bob"
        assert not kept.exists() and kept.load() is None


def test_a_thesis_lesson_writes_only_the_records_it_changed(store: Store) -> None:
    kept = ThesisMemory(store, "local", "mine")
    kept.save([[BOARD_A, 1, 0], [BOARD_B, 0, 1]])
    with store.transaction() as db:  # a record nobody else changes, altered behind the lesson's back
        db.execute("UPDATE memory_entries SET x_wins=7 WHERE name='mine' AND position=1")
    kept.apply([[BOARD_A, 1, 0], [BOARD_B, 0, 1]], [[BOARD_A, 2, 0], [BOARD_B, 0, 1], [BOARD_C, 1, 0]])
    assert kept.load() == [[BOARD_A, 2, 0], [BOARD_B, 7, 1], [BOARD_C, 1, 0]]  # record 1 was not rewritten


def test_the_learners_choose_their_storage(store: Store, tmp_path: Path) -> None:
    ttt, hexapawn, teeko = (gamelearn.get_game(name) for name in ("tictactoe", "hexapawn", "teeko"))
    named = {
        "menace:name=m": (ttt, Boxes),
        "her:name=h": (hexapawn, Boxes),
        "td:name=t": (ttt, TDTable),
        "thesis:memory=brain": (teeko, ThesisMemory),
    }
    for spec, (game, storage) in named.items():
        assert type(kept_knowledge(store, "local", gamelearn.make_player(game, spec))) is storage
    assert kept_knowledge(store, "local", gamelearn.make_player(ttt, "menace")) is None  # nobody keeps it
    path = tmp_path / "memory.m"
    write_memory([(BOARD_A, 3, 1)], path)
    from_file = kept_knowledge(store, "local", gamelearn.make_player(teeko, f"thesis:memory={path}"))
    assert isinstance(from_file, ThesisMemoryFile) and not from_file.writable


def test_a_memory_file_is_read_and_never_written(tmp_path: Path) -> None:
    path = tmp_path / "memory.m"
    write_memory([(BOARD_A, 3, 1)], path)
    image = path.read_bytes()
    kept = ThesisMemoryFile(path)
    assert kept.exists() and kept.load() == [[BOARD_A, 3, 1]] and not kept.forget()
    with pytest.raises(ValueError, match="never written"):
        kept.apply([[BOARD_A, 3, 1]], [[BOARD_A, 4, 1]])
    assert path.read_bytes() == image
    assert list(tmp_path.iterdir()) == [path]  # no store was opened beside it


def test_the_keeper_exports_each_format_in_its_own_shape(store: Store) -> None:
    keeper = Keeper(store)
    teeko = gamelearn.get_game("teeko")
    ThesisMemory(store, "local", "brain").save([[BOARD_A, 3, 1], [BOARD_B, 0, 2]])
    exported = keeper.export(gamelearn.make_player(teeko, "thesis:memory=brain"))
    assert (exported.name, exported.content) == ("memory.m", format_memory([(BOARD_A, 3, 1), (BOARD_B, 0, 2)]))
    menace = gamelearn.make_player(gamelearn.get_game("tictactoe"), "menace:name=m")
    assert keeper.export(menace).name == "menace-tictactoe.json"
