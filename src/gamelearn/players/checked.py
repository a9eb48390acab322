"""Knowledge checked once per content: a learner's ``load`` checks every box or record of what it
is given, and a web game loads its learner's knowledge twice (at its start, and again inside the
lesson's transaction), so the same document was checked again and again, a cost that grows with
the knowledge.  :class:`CheckedOnce` remembers, for a few recent values, what the check made of
them, keyed by the value's exact content, and gives a fresh copy of it for the same content.

The check is a function of the value alone (and of the learner's class and game, which are part
of the key), so there is nothing to invalidate: knowledge that changed in any way (another
process's lesson, a damaged document) has another key and is checked whole.  Only checks that
passed are remembered; a value the check refuses raises every time.  The key is ``marshal``'s
bytes (format 2), which tell a list from a tuple, ``True`` from ``1`` and ``1`` from ``1.0``, and refuse
subclasses (an int or str subclass, an enum): such a value is checked every time.  The keeper's
contract is untouched: it still reads the latest stored knowledge each time; only the check of
a content already checked is skipped.
"""

from __future__ import annotations

import marshal
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")

#: The keys' bytes kept at most (the checked values are a few times that): enough for every
#: learner of a busy web server's recent games, bounded however large one knowledge grows.
KEPT_BYTES = 8 << 20


def content_key(value: Any) -> bytes | None:
    """``value``'s exact content as bytes, or None for a value marshal cannot write exactly."""
    try:
        # version 2: no back-references, whose use follows the objects' reference counts (a
        # value whose strings another value shares would give other bytes for the same content)
        return marshal.dumps(value, 2)
    except ValueError:  # an object of another type, a subclass of a built-in type
        return None


class CheckedOnce(Generic[T]):
    """What a check made of recent values, by (scope, content); thread-safe, least recent out."""

    def __init__(self, copy: Callable[[T], T], kept_bytes: int = KEPT_BYTES) -> None:
        self._copy = copy
        self._kept_bytes = kept_bytes
        self._bytes = 0
        self._items: OrderedDict[tuple[Hashable, bytes], T] = OrderedDict()
        self._lock = threading.Lock()
        self.checks = 0  # checks run (for the tests: a value met again is not checked again)

    def __call__(self, scope: Hashable, value: Any, check: Callable[[], T]) -> T:
        """``check()``'s result for ``value``, or a copy of it when the same content was checked
        in the same ``scope`` lately.  The result is the caller's own: later changes to it touch
        nothing kept here."""
        key = content_key(value)
        if key is None or len(key) > self._kept_bytes:
            with self._lock:
                self.checks += 1
            return check()
        with self._lock:
            kept = self._items.get((scope, key))
            if kept is not None:
                self._items.move_to_end((scope, key))
                return self._copy(kept)
        result = check()  # raises for a value it refuses: nothing is kept
        with self._lock:
            self.checks += 1
            if (scope, key) not in self._items:
                self._items[(scope, key)] = self._copy(result)
                self._bytes += len(key)
                while self._bytes > self._kept_bytes:
                    (_, old), _ = self._items.popitem(last=False)
                    self._bytes -= len(old)
        return result

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0
