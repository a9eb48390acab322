"""What a learner knows, as a value of its own.

Every learning player (HER, HIM, MENACE, TD, the thesis program, the AlphaZero-style ``az``)
derives from :class:`Learner`.  Its knowledge is a plain value: boxes and beads, a table of
values, a thesis memory's records, a network's weights.  The player learns **in memory only**:
``learn(record, side)`` changes the value it holds and touches no file and no database.  Keeping
knowledge is the play layer's job (:class:`gamelearn.keeper.Keeper`): it loads a named learner from
the store and applies each game's lesson to the latest stored knowledge inside one write
transaction, so many processes may teach one learner at once and no lesson is lost.

The contract, which every learner keeps and ``tests/players/test_knowledge.py`` checks for each:

* ``knowledge()`` returns a value that JSON can write (dicts, lists, strings, numbers), a copy: later
  learning never changes a value already returned;
* ``load(knowledge)`` checks all of a value first and then replaces what the player knows with it;
  a bad value raises ValueError naming what is wrong and changes nothing;
* ``learn(record, side)`` after a finished game; a learner made with ``train=off`` (``frozen``)
  learns nothing, so stored learners may be measured in tournaments and experiments;
* ``describe()`` counts for people (boxes, beads, records, entries, games);
* ``lesson(before, after)`` the difference between two knowledge values of this learner: beads taken
  out or put in per box, memory records added or changed, table entries moved.  The web page and
  the command line show it after a game;
* ``explain(state, move)`` what it looked at to choose a move, and ``advice()`` what stops it now,
  as typed values (:class:`BoxDraw`, :class:`Recall`, :class:`MoveScores`; :class:`Advice`).  A
  learner says what it holds and looked at; the page and the command line present it.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar, Generic, NotRequired, Protocol, TypedDict, TypeVar, cast

from .base import Player, S

if TYPE_CHECKING:
    from ..games.record import GameRecord


# The shape of each format's knowledge: what ``knowledge()`` returns, and ``load`` takes once
# checked.  Every one is a value JSON writes and reads back equal.


class BoxesKnowledge(TypedDict):
    """Matchboxes and their beads (Michie 1961; Gardner 1962's HER and HIM), under a header."""

    format: str  # "gamelearn-matchboxes"
    version: int
    kind: str  # "her", "him", "menace"
    game: str
    games: int  # the games learnt from
    #: How new boxes are filled and beads paid out (MENACE's beads by stage and its rewards; HER
    #: and HIM have none).
    settings: dict[str, int | list[int]]
    #: Each box by its canonical board: HER's and HIM's beads as a list of moves, MENACE's as a
    #: count per move.
    boxes: dict[str, list[str]] | dict[str, dict[str, int]]


class TDTableKnowledge(TypedDict):
    """A TD(0) learner's table of position values in 0..1 (Sutton & Barto)."""

    format: str  # "gamelearn-td"
    game: str
    symmetry: bool  # one entry for a position and its symmetric images
    games_learnt: int
    values: dict[str, float]


#: A learner's knowledge as records in order, each a position and its counts (a list, so that
#: JSON reads it back equal): a memory of positions met and games won from them.
RecordsKnowledge = list[list[str | int]]


class NtupleKnowledge(TypedDict):
    """An n-tuple network's look-up tables (Thill et al.), as base64 text, and its counters."""

    format: str  # "gamelearn-ntuple"
    version: int
    game: str
    layout: str  # the n-tuples, by name
    seed: int
    games: int
    positions: int
    steps: int
    batches: int
    weights: str
    coherence: NotRequired[str]  # temporal coherence learning's two tables, when it is on


class NetworkKnowledge(TypedDict):
    """The az learner's policy-value network: its shape, its training settings, its counters
    and its weights as base64 text."""

    format: str  # "gamelearn-az"
    version: int
    game: str
    seed: int
    network: dict[str, str | int]
    settings: dict[str, int | float]
    steps: int
    batches: int
    games: int
    positions: int
    arrays: str


#: A learner's knowledge, in one of the formats.
Knowledge = BoxesKnowledge | TDTableKnowledge | RecordsKnowledge | NtupleKnowledge | NetworkKnowledge
#: The knowledge of one learner class.
K = TypeVar("K", bound=Knowledge)


class KnowledgeFormat(StrEnum):
    """The shapes of the built-in learners' knowledge, which say how it is kept: each learner class
    names one (a package of its own may name another, and register its storage), and the play
    layer maps each to the storage that keeps it (``gamelearn.knowledge_formats``)."""

    BOXES = "boxes"  # matchboxes and their beads (Michie 1961; Gardner 1962's HER and HIM)
    TD_TABLE = "td-table"  # a table of position values (Sutton & Barto's TD(0))
    NETWORK_WEIGHTS = "network-weights"  # a policy-value network's weights (the az learner)
    NTUPLE_WEIGHTS = "ntuple-weights"  # n-tuple look-up tables' weights (Thill et al.)


@dataclass(frozen=True)
class Change:
    """One place where knowledge changed: a box, a memory record, a table entry.

    ``removed`` and ``added`` name beads (moves) taken out of or put into a box; ``before`` and
    ``after`` hold a value that moved (a record's counts, a table entry), None where there was none.
    """

    where: str
    removed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    before: object = None
    after: object = None

    def to_dict(self) -> dict[str, object]:
        return {
            "where": self.where,
            "removed": list(self.removed),
            "added": list(self.added),
            "before": self.before,
            "after": self.after,
        }


@dataclass(frozen=True)
class Lesson:
    """What one game (or several) taught a learner: the changes, and one line saying them."""

    kind: str
    changes: tuple[Change, ...] = field(default_factory=tuple)
    text: str = "nothing changed"

    def __bool__(self) -> bool:
        return bool(self.changes)

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "text": self.text, "changes": [change.to_dict() for change in self.changes]}


class NamedGame(Protocol):
    """What kept knowledge needs of a learner's game: its name (an exported file's, say)."""

    @property
    def name(self) -> str: ...


class AnyLearner(Protocol):
    """A learner of any game and any knowledge format, as the play layer holds learners side by
    side (the keeper, each format's storage, a match's lessons): what it asks of every one.  Each
    :class:`Learner` is one, its knowledge read as :data:`Knowledge`, the union of the formats."""

    @property
    def kind(self) -> str: ...

    @property
    def game(self) -> NamedGame: ...

    @property
    def trains(self) -> bool: ...

    @property
    def knowledge_format(self) -> str: ...

    def keep_kind(self) -> str: ...

    def keep_name(self) -> str | None: ...

    def knowledge(self) -> Knowledge: ...

    def load(self, knowledge: object) -> None: ...


#: The state type of the games a pupil learns from (it takes records of them, and gives none back).
S_contra = TypeVar("S_contra", bound=Hashable, contravariant=True)


class Pupil(AnyLearner, Protocol[S_contra]):
    """A learner of a game whose states are ``S``, in any knowledge format: what the keeper asks
    of each learner seated at a game it keeps (:meth:`Learner.study`)."""

    def study(
        self, records: Sequence[GameRecord[S_contra]], side: int | None, start: object | None = None
    ) -> tuple[Knowledge, Knowledge, Lesson]: ...


@dataclass(frozen=True)
class Kept:
    """What one learner learned from one game (or a batch of games), as the keeper applied it."""

    side: int | None
    learner: AnyLearner
    lesson: Lesson


# What a learner shows of itself, as values: the web page and the command line present them (the
# presentation is theirs; a learner only says what it holds and what it looked at).


@dataclass(frozen=True)
class Box:
    """A matchbox as its learner holds it: its board, its beads as (bead, count) pairs in the box's
    own order, every bead it ever held included (a count of 0 is the empty ring a lost bead leaves,
    as in Gardner 1962's picture of HER's boxes), and whether the learner has opened it (a box not
    opened yet shows the beads it will open with)."""

    board: str
    beads: tuple[tuple[str, int], ...]
    opened: bool = True

    @property
    def count(self) -> int:
        """The beads in the box."""
        return sum(count for _, count in self.beads)


@dataclass(frozen=True)
class BoxDraw:
    """What a matchbox learner looked at to choose a move: the box it opened (its board; None where
    the position had one legal move and so no box), whether that box stands for the board turned
    or mirrored, the bead the move is drawn as, and whether it resigned (an empty box)."""

    box: str | None
    bead: str | None = None
    mirrored: bool = False
    resigned: bool = False


@dataclass(frozen=True)
class RecallRow:
    """A position the thesis memory holds that one of the legal moves reaches: the move, the board
    it reaches, the record's index in the memory, the games X and O won from there, the score for
    the side to move, and whether it is the move played."""

    move: str
    board: str
    record: int
    x_wins: int
    o_wins: int
    score: int
    chosen: bool


@dataclass(frozen=True)
class Recall:
    """What the thesis memory recalled for a move: the rows (the best first) and the adviser whose
    move was played (None where it did not say)."""

    move: str | None
    adviser: str | None
    rows: tuple[RecallRow, ...]


@dataclass(frozen=True)
class MoveScore:
    """A learner's own figures for one of its first choices: a table's or a network's value, or a
    search's share of its visits and the network's prior (None: not one it gives)."""

    move: str
    value: float | None = None
    search: float | None = None
    prior: float | None = None


@dataclass(frozen=True)
class MoveScores:
    """A learner's figures for its first choices, the best first, and its value of the position
    (None where it gives none)."""

    moves: tuple[MoveScore, ...]
    value: float | None = None


#: What a learner looked at to choose a move (:meth:`Learner.explain`).
Explanation = BoxDraw | Recall | MoveScores


class Learner(Player[S], Generic[S, K]):
    """A player of a game whose states are ``S``, whose knowledge is a value ``K`` (see the module
    docstring for the contract)."""

    #: The shape of the knowledge, chosen once by each learner class; the play layer keeps each
    #: format its own way (the thesis memory's records in order, the others as one JSON value).
    knowledge_format: ClassVar[str]  # a KnowledgeFormat, or a format a package registers

    #: The name the keeper keeps this learner under (None: it lives as long as the player).
    name: str | None = None
    #: False for a learner made with train=off: it learns nothing and the keeper writes nothing.
    trains: bool = True
    #: The record last learnt and the sides of it learnt so far (:meth:`sides_to_learn`).
    _sides_learnt: tuple[object, tuple[int, ...]] = (None, ())

    def sides_to_learn(self, record: GameRecord[S], side: int | None) -> tuple[tuple[int, ...], bool]:
        """The sides of ``record`` still to learn (``side``, or both for None), and whether the
        record is one this learner has not seen before.  Each side of a game is learnt once,
        whatever the calls: a learner seated on both sides is told ``learn(record, 0)`` and then
        ``learn(record, None)`` by play_game."""
        sides: tuple[int, ...] = (0, 1) if side is None else (side,)
        last, learnt = self._sides_learnt
        new = last is not record
        if not new:
            sides = tuple(s for s in sides if s not in learnt)
        self._sides_learnt = (record, (() if new else learnt) + sides)
        return sides, new

    def keep_kind(self) -> str:
        """The kind the knowledge is kept under (learners that share boxes may share a kind)."""
        return self.kind

    def keep_name(self) -> str | None:
        """The name the knowledge is kept under, or None for a learner nobody keeps."""
        return self.name

    def keep_as(self, name: str | None) -> None:
        """Give the learner the name it is kept under (the web app names each browser's own)."""
        self.name = name or None

    @abstractmethod
    def knowledge(self) -> K:
        """What the learner knows, as a fresh value JSON can write."""

    @abstractmethod
    def load(self, knowledge: object) -> None:
        """Replace what the learner knows with ``knowledge`` (a value read from the store or a
        file), checked whole first: ValueError naming what is wrong, and nothing changed."""

    def load_checked(self, knowledge: object) -> K:
        """:meth:`load` ``knowledge``, and give it back as this learner's knowledge: a value
        ``load`` took is one (it refuses any other with a ValueError)."""
        self.load(knowledge)
        return cast(K, knowledge)

    def study(
        self, records: Sequence[GameRecord[S]], side: int | None, start: object | None = None
    ) -> tuple[K, K, Lesson]:
        """Learn the finished games ``records`` in order, as ``side`` (None: both), starting from
        the knowledge ``start`` (loaded as :meth:`load_checked` loads it) or, without one, from
        what the learner knows: (the knowledge before, after, and the lesson between them)."""
        before = self.knowledge() if start is None else self.load_checked(start)
        for record in records:
            self.learn(record, side)
        after = self.knowledge()
        return before, after, self.lesson(before, after)

    @abstractmethod
    def learn(self, record: GameRecord[S], side: int | None = None) -> None:
        """Learn from a finished game, in memory only; nothing when frozen."""

    @abstractmethod
    def describe(self) -> dict[str, int]:
        """Counts for people: boxes, beads, records, entries, games."""

    @abstractmethod
    def lesson(self, before: K, after: K) -> Lesson:
        """The difference between two knowledge values of this learner."""

    def explain(self, state: S, move: str | None) -> Explanation | None:
        """What the learner looked at to choose ``move`` in ``state`` (None: it resigned, or no
        move is named): a matchbox learner's box and bead, the thesis memory's recall, a network's
        or a table's values of its first choices; None where it has nothing to say."""
        return None

    def advice(self) -> Advice | None:
        """What stops this learner playing or learning now, in its own terms, with the remedies
        its options offer; None where nothing does."""
        return None


@dataclass(frozen=True)
class Remedy:
    """A way out a learner offers: the options to make it with (``restock=on``) and/or the
    opponent to train it against (a player spec), with a label and a line saying what it does."""

    label: str
    text: str
    options: str = ""
    opponent: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"label": self.label, "text": self.text, "options": self.options, "opponent": self.opponent}


@dataclass(frozen=True)
class Advice:
    """Why a learner is stuck (``text``), where (``places``: its empty boxes, say), and the remedies."""

    text: str
    places: tuple[str, ...] = ()
    remedies: tuple[Remedy, ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "text": self.text,
            "places": list(self.places),
            "remedies": [remedy.to_dict() for remedy in self.remedies],
        }


def is_learner(player: object) -> bool:
    return isinstance(player, Learner)
