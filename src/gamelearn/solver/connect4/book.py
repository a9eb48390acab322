"""Connect Four's opening book: the exact score of every position of the first plies, computed by
the project's own search (:mod:`.search`), one position and its mirror image once.

The deepest ply's positions are searched; each earlier one is the best of its children, read from
the book itself (or a four at hand).  A book is a file: a header line, then the keys (sorted, each
written as its difference from the one before) and the scores (int8), each zlib-compressed; read,
the keys are a sorted array, so that a look-up is a binary search.  The keys of one ply lie close
together, so their differences compress about tenfold.  The standard board's book to ply 7
ships with the package (``books/connect4-7x6.book`` beside this module); ``gamelearn solve connect4
--plies N --force`` builds one, with its progress shown, in the data directory
(``solved/connect4-7x6.book``), where it is read in preference to the shipped one if it covers as
many plies or more.

Beside it, ``connect4-7x6.solved`` (:class:`SolvedFile`) keeps every position a solution has
searched, at any ply, in the same format: each process reads what earlier ones solved, so the
book grows with use.
"""

from __future__ import annotations

import io
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ...files import FileInUseError, FileLock, atomic_write_bytes
from ..paths import table_path

if TYPE_CHECKING:
    from .searcher import Connect4Searcher

#: What a build reports as it goes: (what it is doing, done, total).
Report = Callable[[str, int, int], None]
MAGIC = b"gamelearn connect4 book 2\n"
#: The first format (keys and scores as they are, 9 bytes a position), still read: books, solved
#: positions and half-built books written before.
MAGIC_UNCOMPRESSED = b"gamelearn connect4 book 1\n"


#: The folder, beside this module, of the books shipped with the package.
SHIPPED = "books"


def book_path(columns: int, rows: int) -> Path:
    """The default file of a board's book, in the data directory."""
    return table_path(f"connect4-{columns}x{rows}").with_suffix(".book")


class Book:
    """The scores of every position up to ``plies`` discs, by key (the lesser of a position's and
    its mirror image's: :meth:`Connect4Searcher.key`)."""

    def __init__(
        self, plies: int, keys: np.ndarray, scores: np.ndarray, cpu_seconds: float = 0.0, source: str = ""
    ) -> None:
        keys = np.asarray(keys, np.int64)
        scores = np.asarray(scores, np.int8)
        if keys.size > 1 and not bool(np.all(keys[1:] > keys[:-1])):  # read from a file: sorted already
            order = np.argsort(keys)
            keys, scores = keys[order], scores[order]
        self.plies = plies
        self.keys = np.ascontiguousarray(keys, np.int64)
        self.scores = np.ascontiguousarray(scores, np.int8)
        #: The CPU seconds the build took (as the file records it).
        self.cpu_seconds = cpu_seconds
        #: Where the book was read from ("" for one built in this process).
        self.source = source
        #: Whether it is the book shipped with the package.
        self.shipped = False

    def __len__(self) -> int:
        return int(self.keys.size)

    def get(self, key: int, discs: int) -> int | None:
        """The score of the position with that key and ``discs`` down, or None beyond the book."""
        if discs > self.plies:
            return None
        index = int(np.searchsorted(self.keys, key))
        if index < self.keys.size and int(self.keys[index]) == key:
            return int(self.scores[index])
        return None

    def to_bytes(self) -> bytes:
        steps = np.diff(self.keys, prepend=np.int64(0)).astype("<i8")  # sorted: each step positive
        keys = zlib.compress(steps.tobytes())
        scores = zlib.compress(self.scores.astype("i1").tobytes())
        header = (
            f"plies={self.plies} positions={len(self)} cpu_seconds={self.cpu_seconds:.1f} key_bytes={len(keys)}\n"
        ).encode()
        return MAGIC + header + keys + scores

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "") -> Book:
        """The book a file holds; ValueError in one line for a file that is not one."""
        compressed = data.startswith(MAGIC)
        if not compressed and not data.startswith(MAGIC_UNCOMPRESSED):
            raise ValueError("not a gamelearn Connect Four book")
        stream = io.BytesIO(data[len(MAGIC) :])  # both magics are as long
        try:
            fields = dict(part.split("=") for part in stream.readline().decode().split())
            plies, count, cpu = int(fields["plies"]), int(fields["positions"]), float(fields["cpu_seconds"])
            key_bytes = int(fields["key_bytes"]) if compressed else 8 * count
        except (ValueError, KeyError, UnicodeDecodeError):
            raise ValueError("a Connect Four book with a damaged header") from None
        body = stream.read()
        try:
            keys_data, scores_data = body[:key_bytes], body[key_bytes:]
            if compressed:
                keys_data, scores_data = zlib.decompress(keys_data), zlib.decompress(scores_data)
        except zlib.error:
            raise ValueError("a Connect Four book cut short or damaged (its data does not decompress)") from None
        if len(keys_data) != 8 * count or len(scores_data) != count:
            raise ValueError(f"a Connect Four book cut short: {len(body)} bytes for {count} positions")
        keys = np.frombuffer(keys_data, "<i8").astype(np.int64)
        if compressed:
            keys = np.cumsum(keys)
        scores = np.frombuffer(scores_data, "i1").astype(np.int8)
        return cls(plies, keys, scores, cpu, source)


def positions_by_ply(searcher: Connect4Searcher, plies: int) -> list[dict[int, tuple[int, int]]]:
    """Every unfinished position of each ply up to ``plies``, one a mirror pair: key -> (own, both).
    A position where the side that just moved made four is finished and left out."""
    height, board, bottom = searcher.height, searcher.board, searcher.bottom
    levels: list[dict[int, tuple[int, int]]] = [{0: (0, 0)}]
    for _ in range(plies):
        following: dict[int, tuple[int, int]] = {}
        for own, both in levels[-1].values():
            playable = (both + bottom) & board
            while playable:
                disc = playable & -playable
                playable ^= disc
                if _has_four(own | disc, height):
                    continue
                child_own, child_both = own ^ both, both | disc  # the other side to move
                key = searcher.key(child_own, child_both)
                following.setdefault(key, (child_own, child_both))
        levels.append(following)
    return levels


def _has_four(bits: int, height: int) -> bool:
    for step in (1, height, height - 1, height + 1):
        pairs = bits & (bits >> step)
        if pairs & (pairs >> 2 * step):
            return True
    return False


@dataclass(frozen=True)
class BookChunk:
    """Some of the deepest ply's positions of a book, searched together as one task (picklable, so
    a worker process or a Dask worker can take it): ``(key, own, both)`` each."""

    columns: int
    rows: int
    plies: int
    positions: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True)
class ChunkScores:
    """A chunk's exact scores by key, and the CPU seconds its process spent on them."""

    scores: tuple[tuple[int, int], ...]
    cpu_seconds: float


#: Runs ``search(chunk)`` for every chunk, anywhere (this process, worker processes, a Dask
#: cluster), handing each result to ``on_done`` as it comes in this process; an interrupt stops it.
ChunkRunner = Callable[[Callable[[BookChunk], ChunkScores], list[BookChunk], Callable[[ChunkScores], None]], object]

#: A worker's searcher for each board, kept from one chunk to the next: positions searched one
#: after another share much of their trees.
_searchers: dict[tuple[int, int], Connect4Searcher] = {}


def search_chunk(chunk: BookChunk) -> ChunkScores:
    """The exact score of each of the chunk's positions, by this process's searcher of that board."""
    from .searcher import Connect4Searcher  # the compiled search: only where a chunk is searched

    started = time.process_time()
    board = (chunk.columns, chunk.rows)
    searcher = _searchers.get(board)
    if searcher is None:
        searcher = _searchers[board] = Connect4Searcher(chunk.columns, chunk.rows)
    scores = tuple((key, searcher.score(own, both, chunk.plies)) for key, own, both in chunk.positions)
    return ChunkScores(scores, time.process_time() - started)


def build_book(
    searcher: Connect4Searcher,
    plies: int,
    report: Report | None = None,
    partial: Path | None = None,
    save_every: int = 500,
    run: ChunkRunner | None = None,
    chunk_size: int = 50,
) -> Book:
    """Every position up to ``plies`` discs scored: the last ply by search, the others from their
    children.  The last ply is searched here, one position after another on ``searcher``'s table,
    or with ``run`` in chunks of ``chunk_size`` positions (in the order the plies' moves make them,
    so that a chunk's positions share their trees) wherever ``run`` runs them, each worker on a
    table of its own.  With ``partial``, the deepest ply's scores found so far are saved there
    every ``save_every`` positions (every thousandth of the ply's, where that is more: each save
    writes them all) and when the build is stopped (an interrupt, an error), and read back when the
    build starts again, so a build stopped half-way (hours on the standard board) goes on where it
    was; a half-built file of other plies is written over (``gamelearn solve`` refuses to start
    such a build).  The book's CPU seconds are this process's and the workers'."""
    started = time.process_time()
    levels = positions_by_ply(searcher, plies)
    squares, height, board, bottom = searcher.squares, searcher.height, searcher.board, searcher.bottom
    scores: dict[int, int] = {}
    earlier = 0.0
    kept = read_partial(partial) if partial is not None else None
    if kept is not None:
        if kept.plies == plies:
            scores.update(zip(kept.keys.tolist(), kept.scores.tolist(), strict=True))
            earlier = kept.cpu_seconds
    deepest = levels[plies]
    save_every = max(save_every, len(deepest) // 1000)
    stage = f"searching the {len(deepest):,} positions of ply {plies}"
    workers_cpu = 0.0
    saved = len(scores)

    def spent() -> float:
        return earlier + workers_cpu + time.process_time() - started

    def take(found: tuple[tuple[int, int], ...], cpu_seconds: float) -> None:
        nonlocal workers_cpu, saved
        scores.update(found)
        workers_cpu += cpu_seconds
        if report:
            report(stage, len(scores), len(deepest))  # so far the scores are the deepest ply's
        if partial is not None and len(scores) - saved >= save_every:
            save_book(_book_of(plies, scores, spent()), partial)
            saved = len(scores)

    pending = [(key, own, both) for key, (own, both) in deepest.items() if key not in scores]
    if report:
        report(stage, len(deepest) - len(pending), len(deepest))
    try:
        if run is None:
            for key, own, both in pending:
                take(((key, searcher.score(own, both, plies)),), 0.0)
        else:
            chunks = [
                BookChunk(searcher.columns, searcher.rows, plies, tuple(pending[start : start + chunk_size]))
                for start in range(0, len(pending), chunk_size)
            ]
            run(search_chunk, chunks, lambda result: take(result.scores, result.cpu_seconds))
    except BaseException:
        if partial is not None and len(scores) > saved:  # what was searched is not searched again
            save_book(_book_of(plies, scores, spent()), partial)
        raise
    if report:
        report(stage, len(deepest), len(deepest))
    for ply in range(plies - 1, -1, -1):
        for key, (own, both) in levels[ply].items():
            playable = (both + bottom) & board
            best = -squares
            while playable:
                disc = playable & -playable
                playable ^= disc
                if _has_four(own | disc, height):
                    best = (squares + 1 - ply) // 2  # a four at hand: the best there is
                    break
                child = scores[searcher.key(own ^ both, both | disc)]
                best = max(best, -child)
            scores[key] = best
    book = _book_of(plies, scores, spent())
    if partial is not None:
        partial.unlink(missing_ok=True)
    return book


def partial_path(book: Path) -> Path:
    """Where a build of ``book`` keeps what it has searched until it is done: ``.book.partial``."""
    return book.with_name(book.name + ".partial")


def read_partial(path: Path) -> Book | None:
    """A half-built book's deepest ply searched so far (its ``plies``), or None where there is none;
    ValueError in one line, naming the file, where it cannot be read."""
    return read_book_file(path, "the half-built book", "remove it and the build starts afresh")


def _book_of(plies: int, scores: dict[int, int], cpu_seconds: float) -> Book:
    keys = np.fromiter(scores.keys(), np.int64, len(scores))
    values = np.fromiter(scores.values(), np.int8, len(scores))
    return Book(plies, keys, values, cpu_seconds)


def load_book(columns: int, rows: int, path: Path | None = None) -> Book | None:
    """The board's book: the file at ``path`` where one is given; else the data directory's, where
    a book is built there that covers as many plies as the one shipped with the package or more;
    else the shipped one; None where there is none (the search answers alone)."""
    if path is not None:
        return _read_book(path)
    built = _read_book(book_path(columns, rows))
    shipped = shipped_book(columns, rows)
    if built is None or (shipped is not None and shipped.plies > built.plies):
        return shipped
    return built


def shipped_book(columns: int, rows: int) -> Book | None:
    """The book of that board shipped with the package, or None where none is."""
    resource = resources.files(__package__).joinpath(SHIPPED, f"connect4-{columns}x{rows}.book")
    try:
        data = resource.read_bytes()
    except FileNotFoundError:
        return None
    try:
        book = Book.from_bytes(data, str(resource))
    except ValueError as error:  # a damaged installation: say which file
        raise ValueError(f"{resource}: {error}; reinstall gamelearn") from None
    book.shipped = True
    return book


def _read_book(target: Path) -> Book | None:
    return read_book_file(target, "the Connect Four book", "rebuild it with gamelearn solve connect4 --force")


def read_book_file(path: Path, what: str, remedy: str) -> Book | None:
    """The book a file holds, or None where there is no file; ValueError in one line where it cannot
    be read, naming the file (``what`` it is) and, where it is damaged, the ``remedy``."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise ValueError(f"{what} {path} cannot be read: {error.strerror or error}") from None
    try:
        return Book.from_bytes(data, str(path))
    except ValueError as error:
        raise ValueError(f"{path}: {error}; {remedy}") from None


def save_book(book: Book, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, book.to_bytes())


def solved_path(book: Path) -> Path:
    """The file of the positions searched beside a book: ``connect4-7x6.solved``."""
    return book.with_suffix(".solved")


class SolvedFile:
    """The scores of positions searched, by key (as the book's), kept in a file beside the book so
    that a later process finds them: a book of every ply (its ``plies`` the board's squares),
    rewritten whole and atomically, under the file's lock, merged with what other processes saved
    since it was read.  A save that finds another process writing leaves its positions for the next."""

    def __init__(self, path: Path, squares: int) -> None:
        self.path = path
        self.squares = squares
        self.known = self._read()
        #: Positions searched here and not yet in the file.
        self.fresh: dict[int, int] = {}
        self.writable = True

    def _read(self) -> Book | None:
        return read_book_file(self.path, "the solved positions", "remove it (it holds only positions searched before)")

    def __len__(self) -> int:
        return (0 if self.known is None else len(self.known)) + len(self.fresh)

    def get(self, key: int) -> int | None:
        found = self.fresh.get(key)
        if found is None and self.known is not None:
            found = self.known.get(key, 0)
        return found

    def add(self, key: int, score: int) -> None:
        self.fresh[key] = score

    def save(self, patience: float = 0.0) -> bool:
        """Write the fresh positions into the file; False where another process held it for
        ``patience`` seconds (they stay fresh, for the next save) or where it cannot be written (a
        read-only data directory: the positions are searched again next time, and no later save
        is tried)."""
        if not self.fresh or not self.writable:
            return bool(self.writable or not self.fresh)
        deadline = time.monotonic() + patience
        while not self._merge():
            if not self.writable or time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
        return True

    def _merge(self) -> bool:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with FileLock(self.path):
                current = self._read()
                scores = (
                    {} if current is None else dict(zip(current.keys.tolist(), current.scores.tolist(), strict=True))
                )
                scores.update(self.fresh)
                merged = _book_of(self.squares, scores, 0.0)
                save_book(merged, self.path)
        except FileInUseError:
            return False
        except (OSError, ValueError):
            self.writable = False
            return False
        self.known = merged
        self.fresh.clear()
        return True
