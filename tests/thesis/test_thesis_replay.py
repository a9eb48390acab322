"""Original mode end to end: all 16 reference runs of the 1999 program, ply for ply and byte for byte.

The traces (../shared/thesis-data/original-traces, README there) record every rand() draw, every
ply with the adviser that chose it and the board after it, and every game's end; the files the
runs left are compared byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gamelearn.thesis.batch import BatchConfig, trace_text
from gamelearn.thesis.engine import Settings
from gamelearn.thesis.files import format_memory, format_stat

SETTINGS = {  # setting: player I flags, player II flags, player II's memory at start, games
    "A": ("+h+s+l", "+h+s+l", None, 30),
    "B": ("+h+s-l", "+h-s-l", None, 30),
    "C": ("+h+s+l", "+h+s+l", "memory after 10000 games.txt", 20),
    "D": ("-h+s-l", "+h-s-l", None, 30),
}


@pytest.mark.parametrize("setting", "ABCD")
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_original_mode_replays_reference_run(thesis_data: Path, setting: str, seed: int) -> None:
    first, second, memory2, games = SETTINGS[setting]
    folder = thesis_data / "original-traces"
    config = BatchConfig(
        games=games,
        first=Settings.parse(first),
        second=Settings.parse(second),
        original=True,
        seed=seed,
        second_memory=thesis_data / memory2 if memory2 else None,
    )
    result, text = trace_text(config)
    reference = (folder / f"run-{setting}-{seed}.out").read_text().splitlines()
    expected = [line for line in reference if line.startswith("TRACE ")]
    produced = text.splitlines()
    for number, (want, got) in enumerate(zip(expected, produced, strict=False)):
        assert got == want, f"trace line {number + 1} differs"
    assert len(produced) == len(expected)
    assert sum(1 for line in produced if line.startswith("TRACE PLY")) > 300
    # The program's own summary lines agree with the games.
    summary = [line for line in reference if line.startswith(("Player I", "Player II", "The game"))]
    words = {"X": "Player I (X) has won.", "O": "Player II (O) has won.", "D": "The game has been drawn."}
    assert summary == [words[g.result] for g in result.games]
    last_moves = [int(line.split("[last move was ")[1].rstrip("]")) for line in reference if "[last move was" in line]
    assert last_moves == [g.last_move for g in result.games]
    # The files left behind.
    assert format_memory(result.first_memory.as_mapping()) == (folder / f"run-{setting}-{seed}.memory.m").read_bytes()
    memory2_bytes = (folder / f"run-{setting}-{seed}.memory2.m").read_bytes()
    if setting in "AC":
        assert format_memory(result.second_memory.as_mapping()) == memory2_bytes
    else:
        assert memory2_bytes == b""  # player II never opens its file in B and D
    assert format_stat(result.stat) == (folder / f"run-{setting}-{seed}.stat.m").read_bytes()
