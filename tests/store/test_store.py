"""The SQLite store: round trips, owners kept apart, transactions that lose nothing."""

from __future__ import annotations

import time

import pytest

import gamelearn
from gamelearn.store.store import Store, default_store_path
from gamelearn.thesis.memories import list_memories, load_memory, save_memory, update_memory

BOARD_A = "0000000000001111222200000"
BOARD_B = "1111000000002222000000000"


def test_default_path_is_under_gamelearn_home(isolated_home):
    assert default_store_path().parent == isolated_home
    Store().close()
    assert default_store_path().is_file()


def test_learner_round_trip_and_owners_are_separate(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    store.save_learner("her", "main", {"boxes": {"BBB...WWW": [[6, 3]]}}, owner="alice")
    assert store.load_learner("her", "main", owner="alice") == {"boxes": {"BBB...WWW": [[6, 3]]}}
    assert store.load_learner("her", "main", owner="bob") is None
    assert store.list_learners(owner="bob") == []
    assert not store.delete_learner("her", "main", owner="bob")
    assert store.delete_learner("her", "main", owner="alice")
    assert store.load_learner("her", "main", owner="alice") is None


def test_data_survives_reopening(tmp_path):
    path = tmp_path / "db.sqlite3"
    with Store(path) as store:
        save_memory(store, "thesis", [(BOARD_A, 3, 1)])
    with Store(path) as store:
        assert load_memory(store, "thesis") == [(BOARD_A, 3, 1)]


def test_memory_keeps_file_order_and_updates_in_place(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    save_memory(store, "m", [(BOARD_B, 1, 0), (BOARD_A, 0, 2)])
    update_memory(store, "m", {1: (BOARD_A, 0, 3), 2: ("2" * 4 + "0" * 17 + "1" * 4, 1, 0)})
    assert load_memory(store, "m") == [(BOARD_B, 1, 0), (BOARD_A, 0, 3), ("2222" + "0" * 17 + "1111", 1, 0)]
    assert list_memories(store) == ["m"]
    assert load_memory(store, "missing") is None


def test_a_failed_transaction_changes_nothing(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    save_memory(store, "m", [(BOARD_A, 1, 0)])
    with pytest.raises(RuntimeError):
        with store.transaction():
            save_memory(store, "m", [(BOARD_B, 5, 5)])
            store.save_learner("menace", "x", {})
            raise RuntimeError("crash in the middle")
    assert load_memory(store, "m") == [(BOARD_A, 1, 0)]
    assert store.list_learners() == []


@pytest.mark.parametrize(
    "entry",
    [("123", 1, 0), (BOARD_A.replace("0", "3", 1), 1, 0), (BOARD_A, -1, 0), (BOARD_A, 1), (BOARD_A, 1.5, 0)],
)
def test_bad_memory_entries_are_refused_and_nothing_is_written(tmp_path, entry):
    store = Store(tmp_path / "db.sqlite3")
    save_memory(store, "m", [(BOARD_A, 1, 0)])
    with pytest.raises(ValueError):
        save_memory(store, "m", [(BOARD_B, 1, 0), entry])
    assert load_memory(store, "m") == [(BOARD_A, 1, 0)]


def test_records_and_results(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    game = gamelearn.get_game("tictactoe")
    players = [gamelearn.make_player(game, "random"), gamelearn.make_player(game, "random")]
    records = [gamelearn.play_game(game, players, seed=seed) for seed in range(3)]
    for record in records:
        store.add_record(record, context="test")
    stored = store.records(game="tictactoe", context="test")
    assert [r["moves"] for r in stored] == [list(r.moves) for r in records]
    assert [r["winner"] for r in stored] == [r.winner for r in records]
    assert [r["moves"] for r in store.records(limit=2)] == [list(r.moves) for r in records[1:]]
    store.save_result("exp", {"losses": [1, 2]})
    assert store.results("exp") == [{"losses": [1, 2]}]


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(ValueError, match="not a gamelearn database"):
        Store(path)
    assert path.read_bytes() == b"this is not sqlite" * 100


def test_web_games_are_kept_per_owner_and_forgotten_when_old(tmp_path):
    store = Store(tmp_path / "s.sqlite3")
    store.save_web_game("a", "g1", "hexapawn", {"moves": ["63"]}, finished=False)
    store.save_web_game("b", "g1", "tictactoe", {"moves": []}, finished=True)
    assert store.load_web_game("a", "g1") == {"moves": ["63"]}
    assert store.load_web_game("a", "g2") is None
    assert [(i, g, f) for i, g, f, _ in store.web_games("b")] == [("g1", "tictactoe", True)]
    store.save_web_game("a", "g1", "hexapawn", {"moves": ["63", "14"]}, finished=False)
    store.close()
    again = Store(tmp_path / "s.sqlite3")  # a restart keeps them
    assert again.load_web_game("a", "g1") == {"moves": ["63", "14"]}
    assert again.delete_web_game("a", "g1") and again.load_web_game("a", "g1") is None
    assert again.forget_web_games(older_than=time.time() + 1) == 1 and again.web_games("b") == []


def test_the_store_is_opened_in_wal_mode_with_synchronous_full(tmp_path):
    """docs/store.md's first promise rests on these two settings: a COMMIT is on disk when it
    returns (FULL is 2; WAL's default, NORMAL, may lose the last transactions on power loss)."""
    with Store(tmp_path / "s.sqlite3") as store:
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2
