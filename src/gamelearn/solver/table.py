"""Building, writing and opening a solved Teeko table.

The file: a 4096-byte header (magic, then JSON: the variant's signature, the layers with their
offsets, the census, and the SHA-256 of the payload), then the payload: one byte per stored
position (see codes.py for the code), layer after layer, only the rows of representative mover
sets (the symmetries of the square divide the size by about 8).  It is written to a temporary file
and renamed into place by the project's one atomic writer (:class:`gamelearn.files.AtomicFile`),
so a crash never leaves a half-written table under the real name, and the temporary file a killed
build left is removed by the next one.  Before a build, :func:`check_room` makes sure the folder
can take the table (its size, :func:`table_size`, is known before anything is solved).  On
opening, the size and the checksum are verified and the payload is memory-mapped (numpy.memmap).
"""

from __future__ import annotations

import errno
import hashlib
import json
import math
import os
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..files import AtomicFile, process_runs, remove_stale_temporaries
from .codes import DRAW, INVALID
from .variant import Indexing, Variant

MAGIC = b"GAMELEARN-SOLVED\n"
FORMAT = 1
HEADER_SIZE = 4096

#: progress(stage, done, total): a stage name, and how far it has got out of a total known from the
#: stage's first report (the retrograde analysis counts arrangements, not its unknown levels).
Progress = Callable[[str, int, int], None]


class TableError(ValueError):
    """A table that is missing, partial, corrupt or for another game: never used."""


@dataclass
class Census:
    """Moving-phase arrangements by value for the side to move (the finished ones apart)."""

    won: int
    drawn: int
    lost: int
    finished: int
    impossible: int
    longest_win: int
    longest_loss: int

    def to_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


def census_of_codes(histogram: np.ndarray) -> Census:
    """The census from a histogram of codes (index: code, value: how many arrangements)."""
    codes = np.arange(len(histogram))
    decided = (codes >= 1) & (codes < INVALID)
    distance = codes - 1
    wins = decided & (distance % 2 == 1)
    losses = decided & (distance % 2 == 0) & (distance > 0)
    return Census(
        won=int(histogram[wins].sum()),
        drawn=int(histogram[DRAW]),
        lost=int(histogram[losses].sum()),
        finished=int(histogram[1]),
        impossible=int(histogram[INVALID]),
        longest_win=int(distance[wins & (histogram > 0)].max(initial=0)),
        longest_loss=int(distance[losses & (histogram > 0)].max(initial=0)),
    )


def _nothing(stage: str, done: int, total: int) -> None:
    return None


#: Placing layers already built, by what they depend on: the moving signature, the layer, the drop
#: letters from its round on, and the forbidden squares of its placements (forms share them).
PlacingCache = dict[tuple[str, tuple[int, int], str, int], np.ndarray]


def build_moving(variant: Variant, progress: Progress = _nothing) -> tuple[np.ndarray, dict[str, Any]]:
    """The moving phase of ``variant`` by retrograde analysis: the stored rows (representative mover
    sets only) and facts about the build (census, positions resolved a level, time)."""
    from . import kernels  # numba (0.2 CPU s) loads for a build, not for reading a table

    started = time.perf_counter()
    index = Indexing(variant)
    n, k = index.n, index.k
    full = (1 << n) - 1
    movers = index.subsets(n, k)
    others = index.subsets(n - k, k)
    free = index.free_squares(movers)
    size = len(movers) * len(others)
    code = np.empty(size, dtype=np.uint8)
    count = np.empty(size, dtype=np.uint8)
    progress("counting moves", 0, 1)
    stuck = kernels.init_moving(code, count, movers, others, free, index.neighbours, index.win_masks, index.binom, full)
    progress("counting moves", 1, 1)
    # The retrograde analysis counts arrangements settled out of all of them: how many levels it
    # takes is known only when one resolves nothing, but the number of arrangements is known now.
    # Level 0 has settled the finished and impossible ones; each level settles those it resolves,
    # and the ones still open when a level resolves nothing are the draws, settled at the end.
    settled = size - int(kernels.histogram(code)[DRAW])
    progress("retrograde analysis", settled, size)
    levels = []
    distance = 0
    while True:
        resolved = kernels.retrograde_level(
            code, count, distance, movers, others, free, index.neighbours, index.binom, full
        )
        if resolved == 0:
            break
        levels.append(resolved)
        distance += 1
        settled += resolved
        progress("retrograde analysis", settled, size)
    progress("retrograde analysis", size, size)
    del count
    census = census_of_codes(kernels.histogram(code))
    moving_classes = index.classes[k]
    rep_ranks = np.searchsorted(movers, moving_classes.reps)
    rows = kernels.gather_rows(code, len(others), rep_ranks)
    facts = {
        "census": census.to_dict(),
        "levels": levels,
        "positions_without_moves": int(stuck),
        "moving_seconds": round(time.perf_counter() - started, 2),
    }
    return rows, facts


def build_placing(
    variant: Variant,
    moving: np.ndarray,
    progress: Progress = _nothing,
    cache: PlacingCache | None = None,
    index: Indexing | None = None,
) -> dict[tuple[int, int], np.ndarray]:
    """The placing phase of ``variant`` layer by layer back from its moving phase ``moving``.  A
    layer depends only on the drop rounds from its own on (and the first on the centre rule), so
    forms that agree there share it through ``cache``."""
    from . import kernels  # numba, as build_moving

    index = index or Indexing(variant)
    n, k = index.n, index.k
    full = (1 << n) - 1
    layers: dict[tuple[int, int], np.ndarray] = {(k, k): moving}
    child: tuple[int, int] = (k, k)
    placing = variant.layers()[:-1]
    pattern = variant.drop_pattern
    signature = variant.moving_signature()
    for step, placed in enumerate(reversed(range(len(placing)))):
        progress("placing phase", step, len(placing))
        m, o = placing[placed]
        forbidden = variant.first_forbidden if placed == 0 else 0
        key = (signature, (m, o), pattern[placed // 2 :], forbidden)
        if cache is not None and key in cache:
            layers[(m, o)] = cache[key]
            child = (m, o)
            continue
        classes = index.classes[m]
        rows = index.subsets(n - m, o)
        out = np.empty(len(classes.reps) * len(rows), dtype=np.uint8)
        child_classes = index.classes[child[0]]
        kernels.placing_layer(
            out,
            classes.reps,
            rows,
            index.free_squares(classes.reps),
            layers[child],
            len(index.subsets(n - child[0], child[1])),
            child_classes.class_of,
            child_classes.sym_of,
            child_classes.reps,
            index.perms,
            index.win_masks,
            index.binom,
            full,
            o == k,
            variant.owner_chooses(placed),
            forbidden,
        )
        layers[(m, o)] = out
        if cache is not None:
            cache[key] = out
        child = (m, o)
    progress("placing phase", len(placing), len(placing))
    return layers


def build_layers(
    variant: Variant, progress: Progress = _nothing, moving: tuple[np.ndarray, dict[str, Any]] | None = None
) -> tuple[dict[tuple[int, int], np.ndarray], dict[str, Any]]:
    """Solve ``variant`` completely: the stored rows of every layer, and facts about the build.
    ``moving``: the moving phase already built (rows and facts) for a form with the same goals and
    steps, so that only the placing phase is computed."""
    started = time.perf_counter()
    rows, moving_facts = moving if moving is not None else build_moving(variant, progress)
    layers = build_placing(variant, rows, progress)
    facts = {
        **moving_facts,
        "moving_phase": "reused" if moving is not None else "built",
        "build_seconds": round(time.perf_counter() - started, 2),
    }
    return layers, facts


def check_moving(variant: Variant, layers: dict[tuple[int, int], np.ndarray]) -> int:
    """How many stored moving-phase positions are not the best of their moves (0 for a sound table);
    see kernels.check_moving_layer."""
    from . import kernels  # numba, as build_moving

    index = Indexing(variant)
    k = index.k
    classes = index.classes[k]
    return int(
        kernels.check_moving_layer(
            np.asarray(layers[(k, k)]),
            classes.reps,
            index.subsets(index.n - k, k),
            index.free_squares(classes.reps),
            classes.class_of,
            classes.sym_of,
            index.perms,
            index.neighbours,
            index.win_masks,
            index.binom,
            (1 << index.n) - 1,
        )
    )


def write_table(variant: Variant, layers: dict[tuple[int, int], np.ndarray], facts: dict[str, Any], path: Path) -> None:
    """Write the table whole or not at all (:class:`~gamelearn.files.AtomicFile`: a temporary
    file in the same folder, synced, then renamed); TableError in one line if it cannot be."""
    order = variant.layers()
    digest = hashlib.sha256()
    entries = []
    offset = 0
    for m, o in order:
        data = layers[(m, o)]
        digest.update(data.tobytes())
        entries.append({"mover": m, "other": o, "offset": offset, "size": int(data.size)})
        offset += int(data.size)
    header = {
        "format": FORMAT,
        "variant": variant.name,
        "signature": variant.signature(),
        "moving_signature": variant.moving_signature(),
        "layers": entries,
        "payload_size": offset,
        "sha256": digest.hexdigest(),
        **facts,
    }
    text = MAGIC + json.dumps(header).encode()
    if len(text) + 1 > HEADER_SIZE:
        raise ValueError("table header too large")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with AtomicFile(path) as file:
            file.stream.write(text + b"\n" + b"\0" * (HEADER_SIZE - len(text) - 1))
            for m, o in order:
                file.stream.write(layers[(m, o)].tobytes())
    except OSError as error:  # the disk filled meanwhile, say: nothing was written
        raise TableError(f"cannot write the table {path}: {error.strerror or error}; nothing was written") from None


def table_size(variant: Variant) -> int:
    """The bytes of ``variant``'s table, known before it is built: the header and one byte per
    stored position, layer after layer (Standard Teeko's, and every form's: 12,900,853)."""
    index = Indexing(variant)
    return HEADER_SIZE + sum(math.prod(index.layer_shape(m, o)) for m, o in variant.layers())


#: The temporary files an older gamelearn wrote a table through: ``.NAME.<decimal pid>.tmp``.
_OLD_TEMPORARY = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)\.tmp")


def clear_stale_temporaries(path: Path) -> list[Path]:
    """Remove the temporary files beside the table ``path`` that a dead process left (a build
    killed while it wrote); a running build's are left alone.  What was removed."""
    removed = remove_stale_temporaries(path)
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    for entry in entries:
        found = _OLD_TEMPORARY.fullmatch(entry.name)
        if found is None or found["name"] != path.name or not entry.is_file(follow_symlinks=False):
            continue
        pid = int(found["pid"])
        if pid != os.getpid() and not process_runs(pid):
            try:
                os.unlink(entry.path)
            except OSError:
                continue
            removed.append(Path(entry.path))
    return removed


def check_room(path: Path, size: int) -> None:
    """Before a build: the folder of ``path`` exists (or is made), a file can be written in it,
    and it has room for ``size`` bytes once the temporary files of dead builds are gone; else a
    TableError in one line, before any work."""
    folder = path.parent
    where = f"cannot write the table {path}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise TableError(f"{where}: the folder {folder} cannot be made ({error.strerror or error})") from None
    clear_stale_temporaries(path)
    probe = folder / f".{path.name}.{os.getpid():x}-{os.urandom(6).hex()}.tmp"  # ours: a crash leaves it removable
    try:
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        probe.unlink()
    except OSError as error:
        if error.errno == errno.EROFS:
            reason = f"{folder} is on a read-only file system"
        elif error.errno in (errno.EACCES, errno.EPERM):
            reason = f"permission denied on the folder {folder}"
        else:
            reason = f"{folder}: {error.strerror or error}"
        raise TableError(f"{where}: {reason}; nothing was built") from None
    free = shutil.disk_usage(folder).free
    if free < size:
        raise TableError(
            f"{where}: the table takes {size / 1e6:.1f} MB and {folder} has {free / 1e6:.1f} MB free; "
            "free some space, or give --table a folder with room; nothing was built"
        )


def read_header(path: Path) -> dict[str, Any]:
    """The header of the table at ``path``; TableError if it is missing or not a table."""
    if not path.is_file():
        raise TableError(f"no solved table at {path}")
    with open(path, "rb") as handle:
        head = handle.read(HEADER_SIZE)
    if len(head) < HEADER_SIZE or not head.startswith(MAGIC):
        raise TableError(f"{path} is not a gamelearn solved table (or its header is cut short)")
    try:
        header: dict[str, Any] = json.loads(head[len(MAGIC) :].split(b"\n", 1)[0])
    except ValueError:
        raise TableError(f"{path}: the table's header is corrupt") from None
    return header


def open_table(
    variant: Variant, path: Path, verify: bool = True, signature: str | None = None
) -> tuple[dict[tuple[int, int], np.ndarray], dict[str, Any]]:
    """The layers of the table at ``path``, memory-mapped, after checking that it is complete, intact
    and for ``variant`` (or has the given ``signature``); TableError (a ValueError) otherwise."""
    header = read_header(path)
    if header.get("format") != FORMAT or header.get("signature") != (signature or variant.signature()):
        raise TableError(
            f"{path} is a table of another game or format ({header.get('variant')!r}, format {header.get('format')})"
        )
    expected = HEADER_SIZE + int(header["payload_size"])
    actual = path.stat().st_size
    if actual != expected:
        raise TableError(f"{path} is partial or damaged: {actual} bytes where the header promises {expected}")
    payload = np.memmap(path, dtype=np.uint8, mode="r", offset=HEADER_SIZE, shape=(int(header["payload_size"]),))
    if verify:
        digest = hashlib.sha256(payload.data).hexdigest()
        if digest != header["sha256"]:
            raise TableError(f"{path} is corrupt: its checksum does not match its header")
    layers = {}
    for entry in header["layers"]:
        layers[(entry["mover"], entry["other"])] = payload[entry["offset"] : entry["offset"] + entry["size"]]
    return layers, header
