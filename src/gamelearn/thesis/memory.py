"""The thesis program's memory (memory.m, Despotović 1999) in RAM, with an index.

The original keeps the memory as a file of 33-byte records and scans it from the start for every
recall and every update.  Here the records stay in file order in three parallel lists (the key of
the board, the wins of side '1', the wins of side '2') and ``index`` maps each board key to its
record number, so recall and update look positions up instead of scanning, with the same result:

* **update** (after a won game): for each board, the first record equal to the board or to its
  side swap matches; a direct match adds 1 to the winner's field ('1' first, '2' second), a
  swapped match to the other field; with no match the board is appended as played with a 1 in the
  winner's field.
* **recall** (for the side ``s`` to move, over the successors of the current board in level1.s
  order): every record equal to a successor (direct) or whose swap equals one (swapped) is a
  candidate, scored first field minus second (direct) or second minus first (swapped): wins minus
  losses for side +1.  Fixed mode negates the score when ``s`` is -1; the original does not (seed
  000: "Player O reads the memory backwards").  No candidate: nothing found.  Otherwise the top
  score, then the best evaluation from ``s``'s side, then the earliest record in the file.

Keys are :func:`~.board.key` ints (side +1 = '1').  ``changed`` collects the record numbers
written since the last :meth:`take_changes`, for stores that save only what changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from .board import digits_key, key_digits, split_key, swap_key
from .evaluation import evaluate

MAX_COUNT = 9999  # above this the original stops with "Learned number is too big."


class MemoryFull(ValueError):
    """A count would pass 9999, which the 4-character format cannot hold (fatal in the original)."""


class Memory:
    def __init__(self, entries: Iterable[tuple[str, int, int]] | Mapping[str, tuple[int, int]] = ()) -> None:
        self.keys: list[int] = []
        self.first: list[int] = []  # wins of side '1' (+1, X in batch)
        self.second: list[int] = []  # wins of side '2'
        self.index: dict[int, int] = {}
        self.changed: set[int] = set()
        items: Iterable[tuple[str, int, int]]
        if isinstance(entries, Mapping):
            items = ((board, counts[0], counts[1]) for board, counts in entries.items())
        else:
            items = entries
        for board, first, second in items:
            self._append(digits_key(board), int(first), int(second))
        self.changed.clear()

    # --- contents -----------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.keys)

    def _append(self, k: int, first: int, second: int) -> int:
        position = len(self.keys)
        self.keys.append(k)
        self.first.append(first)
        self.second.append(second)
        self.index.setdefault(k, position)
        self.changed.add(position)
        return position

    def entries(self) -> Iterator[tuple[str, int, int]]:
        """(25-digit board, wins of '1', wins of '2') in file order."""
        for k, first, second in zip(self.keys, self.first, self.second, strict=True):
            yield key_digits(k), first, second

    def entry(self, position: int) -> tuple[str, int, int]:
        return key_digits(self.keys[position]), self.first[position], self.second[position]

    def as_mapping(self) -> dict[str, tuple[int, int]]:
        return {board: (first, second) for board, first, second in self.entries()}

    def take_changes(self) -> dict[int, tuple[str, int, int]]:
        """The records written since the last call, by record number (appended ones included)."""
        changes = {position: self.entry(position) for position in sorted(self.changed)}
        self.changed.clear()
        return changes

    def copy(self) -> Memory:
        clone = Memory()
        clone.keys, clone.first, clone.second = list(self.keys), list(self.first), list(self.second)
        clone.index = dict(self.index)
        return clone

    # --- learning ------------------------------------------------------------------------

    def find(self, k: int) -> tuple[int, bool] | None:
        """The first record equal to position ``k`` or to its swap: (record number, swapped)."""
        direct = self.index.get(k)
        swapped = self.index.get(swap_key(k))
        if direct is None and swapped is None:
            return None
        if swapped is None or (direct is not None and direct < swapped):
            return direct, False  # type: ignore[return-value]
        return swapped, True

    def remember(self, k: int, winner: int) -> str:
        """Count one won game for side ``winner`` (+1 or -1) from position ``k``: 'add' or 'adjust'."""
        found = self.find(k)
        if found is None:
            if winner > 0:
                self._append(k, 1, 0)
            else:
                self._append(k, 0, 1)
            return "add"
        position, swapped = found
        first_field = (winner > 0) != swapped
        if first_field:
            if self.first[position] >= MAX_COUNT:
                raise MemoryFull(f"record {position + 1}: a count would pass {MAX_COUNT}")
            self.first[position] += 1
        else:
            if self.second[position] >= MAX_COUNT:
                raise MemoryFull(f"record {position + 1}: a count would pass {MAX_COUNT}")
            self.second[position] += 1
        self.changed.add(position)
        return "adjust"

    def learn(self, boards: Iterable[int], winner: int) -> list[str]:
        """Update with every board of a won game, in order (a repeated board counts twice)."""
        return [self.remember(k, winner) for k in boards]

    # --- recall --------------------------------------------------------------------------

    def candidates(self, successor_keys: Iterable[int]) -> list[tuple[int, int, int]]:
        """(record number, score for side +1, successor key) of every matching record, file order."""
        found = []
        for k in successor_keys:
            direct = self.index.get(k)
            if direct is not None:
                found.append((direct, self.first[direct] - self.second[direct], k))
            swapped = self.index.get(swap_key(k))
            if swapped is not None:
                found.append((swapped, self.second[swapped] - self.first[swapped], k))
        found.sort()
        return found

    def recall(self, successor_keys: Iterable[int], side: int, negate_for_minus: bool) -> tuple[int | None, int]:
        """The recalled successor key (None: not found) and the number of candidates (``lc``)."""
        found = self.candidates(successor_keys)
        if not found:
            return None, 0
        if len(found) == 1:
            return found[0][2], 1
        sign = -1 if (negate_for_minus and side < 0) else 1
        best_score = max(sign * score for _pos, score, _k in found)
        best_key = None
        best_eval = 0
        for _pos, score, k in found:
            if sign * score != best_score:
                continue
            plus, minus = split_key(k)
            value = evaluate(plus, minus) if side > 0 else evaluate(minus, plus)
            if best_key is None or value > best_eval:
                best_key, best_eval = k, value
        return best_key, len(found)
