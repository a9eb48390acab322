"""``thesis``: the 1999 thesis program as a player of the public API (Despotović, "Machine Learning in Strategic Games", Belgrade, 1999).

``make_player(game, "thesis:heuristics=on,search=on,learn=on,memory=NAME,original=off", seed=1)``
plays Teeko with the three advisers and their combination of :mod:`.engine`.

* Sides: X (player 0) is side +1 and '1' in memory.m, O is side -1 and '2', whichever side the
  player takes: the convention of batch and autoplay memories, so the thesis's saved experiment
  memories load as they are.  (The console of 1999 wrote '1' for the program instead; the console
  tool maps boards before and after, not this player.)
* The ply number the placement rules need comes from the pawn count; in the moving phase no rule
  depends on it.  ``choose_with_ply(state, n)`` takes the thesis's own counter for callers that
  keep one (the batch loop does).
* ``memory``: absent, an in-RAM memory that starts empty and lives as long as the player; a NAME,
  a memory the play layer's keeper keeps in the store under that name (loaded before a game, each
  won game's lesson applied to the latest stored records in one transaction); a PATH (a value
  holding '/', ending in ``.m`` or ``.txt``, or naming an existing file), a thesis memory.m the
  keeper reads once and never writes.  Blanks in a path are fine; a ',' cannot pass the spec
  parser, which splits options on it: import such a file first (``gamelearn teeko memory import
  PATH --name NAME``) and give ``memory=NAME``.  ``train=off`` recalls without learning.
* ``learn(record, side)`` with learning on, after a won game that reached the moving phase: every
  board after each ply from the thesis ply 9 through the last, as the thesis's memory does.  The winner is
  the side that made the last move (fix 3); with ``original=on``, the ply parity (an odd last
  ply: X), which is the same for a game from the initial position.  Unlike batch mode, a player
  learns whether or not its opponent learns (batch's "the winner's flag gates learning" is a
  property of the shared loop, kept in :mod:`gamelearn.thesis.batch`).
* Randomness: fixed mode draws from the player's seeded ``rng`` (``random.Random``); original mode
  from Microsoft's rand() seeded with ``seed`` (1 when none is given).  ``reseed`` restarts either.
* When the side to move has no move at all the fixed player resigns (``None``); the original
  would loop for ever, so ``original=on`` raises the engine's NoMoveError instead, and
  :class:`~.opening.OpeningHang` where its opening pick finds its four cells taken (a person can
  bring that about, as the thesis's own notes show); the fixed player then takes a random free cell.
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..games.teeko import Teeko
from ..paths import looks_like_path
from ..players.base import OptionValue
from ..players.knowledge import Change, Learner, Lesson, Recall, RecallRow
from ..players.registry import Option, PlayerKind, parse_switch, register
from .board import digits_key, key, swap_key
from .engine import Decision, EngineState, Settings, decide
from .fixes import Fixes
from .heuristics import NoMoveError, has_move
from .knowledge import THESIS_MEMORY, ThesisMemoryKnowledge
from .memory import MAX_COUNT, Memory
from .rng import MicrosoftRand, SeededDraws
from .rules import learned_winner

if TYPE_CHECKING:
    from ..games.record import GameRecord
    from ..games.teeko import TeekoState


def is_memory_path(value: str) -> bool:
    """A memory.m file rather than a store name: the same rule as the CLI's (it holds a folder,
    ends in .m or .txt, as the thesis's saved memories do, or names an existing file)."""
    return looks_like_path(value)


class ThesisPlayer(Learner["TeekoState", ThesisMemoryKnowledge]):
    kind = "thesis"
    knowledge_format = THESIS_MEMORY

    def __init__(
        self,
        game: Teeko,
        seed: int | None = None,
        heuristics: bool = True,
        search: bool = True,
        learn: bool = True,
        memory: str | Memory | None = None,
        original: bool = False,
        train: bool = True,
    ) -> None:
        if getattr(game, "name", None) != "teeko":
            raise ValueError("the thesis player plays Teeko only")
        if getattr(game, "spec", "teeko") != "teeko":
            raise ValueError(
                f"the thesis player plays Standard Teeko only, not {game.spec}: its heuristics and memory are "
                "written for the 44 goals, the owner's own drops, any first square and king steps"
            )
        options: dict[str, OptionValue] = {}
        for name, value in (("heuristics", heuristics), ("search", search), ("learn", learn)):
            if not value:
                options[name] = "off"
        if isinstance(memory, str):
            options["memory"] = memory
        if original:
            options["original"] = "on"
        if not train:
            options["train"] = "off"
        super().__init__(game, seed=seed, **options)
        self.settings = Settings(heuristics, search, learn)
        self.original = original
        self.fixes = Fixes.original() if original else Fixes()
        #: The goals of the form played, as the game lists them (fixed mode's placement fours).
        self.goals: tuple[int, ...] = tuple(game.win_masks)
        self.state = EngineState()
        self.last_decision: Decision | None = None
        #: A memory.m file the keeper reads once and never writes (None: a store name or none).
        self.memory_path: str | None = None
        # The memory learns only with the thesis's learning switch on and train on; a memory.m
        # file is read-only (the batch command, not a player, writes thesis files).
        self.trains = learn and train
        self._draws: MicrosoftRand | SeededDraws
        self._make_draws(seed)
        self.memory = memory if isinstance(memory, Memory) else Memory()
        if isinstance(memory, str):
            if is_memory_path(memory):
                path = Path(memory)
                if not path.exists():
                    raise ValueError(
                        f"memory file {memory} does not exist (a memory in the store is named without '/', .m or .txt: "
                        "gamelearn teeko memory list)"
                    )
                if not path.is_file():
                    raise ValueError(f"memory file {memory} is not a regular file ({file_kind(path)})")
                self.memory_path = memory
                self.trains = False
            else:
                self.name = memory

    @property
    def store_name(self) -> str | None:
        """The memory's name in the store (None for a file or an unnamed memory)."""
        return self.name

    # Knowledge --------------------------------------------------------------------------------

    def knowledge(self) -> ThesisMemoryKnowledge:
        """The memory's records in file order: [25-digit board, wins of '1' (X), wins of '2' (O)]."""
        return [[board, first, second] for board, first, second in self.memory.entries()]

    def load(self, knowledge: object) -> None:
        self.memory = Memory(check_entries(knowledge))

    def records(self) -> list[tuple[str, int, int]]:
        """The memory's records in file order, for people: (the board as 25 squares of '.', 'X'
        and 'O', from square 00; the games X won from it; the games O won)."""
        return [("".join(".XO"[int(d)] for d in board), x, o) for board, x, o in self.memory.entries()]

    def describe(self) -> dict[str, int]:
        return {
            "records": len(self.memory),
            "x_wins": sum(self.memory.first),
            "o_wins": sum(self.memory.second),
        }

    def lesson(self, before: ThesisMemoryKnowledge, after: ThesisMemoryKnowledge) -> Lesson:
        """Records added to the memory and records adjusted (the thesis's "Add" and "Adjust")."""
        old = [tuple(entry) for entry in before]
        changes = []
        added = 0
        for position, entry in enumerate(after):
            board, x_wins, o_wins = entry
            if position >= len(old):
                added += 1
                changes.append(Change(where=str(board), before=None, after=(x_wins, o_wins)))
            elif old[position] != tuple(entry):
                changes.append(
                    Change(where=str(board), before=(old[position][1], old[position][2]), after=(x_wins, o_wins))
                )
        adjusted = len(changes) - added
        if not changes:
            return Lesson(self.kind)
        text = f"{added} position{'s' if added != 1 else ''} added to its memory, {adjusted} adjusted"
        return Lesson(self.kind, tuple(changes), text)

    def explain(self, state: TeekoState, move: str | None) -> Recall:
        """Recall for the move it plays: the positions its moves can reach that the memory holds,
        with the games X and O won from each (a position and its X/O swap are one record), the
        best first; and the adviser whose move was played."""
        mover = self.game.to_move(state)
        rows: list[RecallRow] = []
        for candidate in self.game.legal_moves(state):
            after = self.game.play(state, candidate)
            k = key(after.x, after.o)  # side +1 ('1') is X
            for record, swapped in ((self.memory.index.get(k), False), (self.memory.index.get(swap_key(k)), True)):
                if record is None:
                    continue
                first, second = self.memory.first[record], self.memory.second[record]
                x_wins, o_wins = (second, first) if swapped else (first, second)
                # Fixed: each side reads the memory from its own side; the original always as X.
                score = x_wins - o_wins if (mover == 0 or self.original) else o_wins - x_wins
                board = self.game.board(after)
                rows.append(RecallRow(candidate, board, record, x_wins, o_wins, score, chosen=candidate == move))
        rows.sort(key=lambda row: (-row.score, row.record))
        decision = self.last_decision
        return Recall(move, None if decision is None else decision.source, tuple(rows))

    def _make_draws(self, seed: int | None) -> None:
        if self.original:
            self._draws = MicrosoftRand(1 if seed is None else seed)
        else:
            draws = SeededDraws()
            draws.random = self.rng  # the player's own seeded stream
            self._draws = draws

    def reseed(self, seed: int | None) -> None:
        super().reseed(seed)
        self._make_draws(seed)

    def choose(self, state: TeekoState) -> str | None:
        if self.game.winner(state) is not None:  # the thesis's own loop never asks after a four
            raise ValueError("the game is over: the thesis program has no move to choose")
        return self.choose_with_ply(state, None)

    def choose_with_ply(self, state: TeekoState, ply: int | None) -> str | None:
        """The move for ``state``; ``ply`` is the thesis's ply counter n (derived when None)."""
        side = 1 if state.to_move == 0 else -1
        own, opp = (state.x, state.o) if side > 0 else (state.o, state.x)
        pawns = (state.x | state.o).bit_count()
        if ply is None:
            ply = pawns + 1 if pawns < 8 else (9 if side > 0 else 10)
        if pawns >= 8 and not has_move(own, opp):
            if self.original:
                raise NoMoveError("the side to move has no move: the original's random move would never end")
            return None
        self.last_decision = decide(
            (state.x, state.o),
            side,
            ply,
            self.settings,
            self.memory,
            self._draws,
            self.fixes,
            self.state,
            goals=self.goals,
        )
        return self.last_decision.move

    def learn(self, record: GameRecord[TeekoState], side: int | None = None) -> None:
        """After a won game that reached the moving phase: every board from the thesis ply 9 on
        goes into the memory (in memory only; the keeper stores it)."""
        if not self.trains or record.winner is None or record.end.value != "win":
            return
        boards = self.moving_phase_boards(record)
        if not boards:
            return
        last_ply = self._first_ply(record.states[0]) + record.plies - 1
        winner = learned_winner(last_ply, 1 if record.winner == 0 else -1, self.fixes)
        self.memory.learn(boards, winner)

    @staticmethod
    def _first_ply(start: TeekoState) -> int:
        pawns = (start.x | start.o).bit_count()
        if pawns < 8:
            return pawns + 1
        return 9 if start.to_move == 0 else 10

    def moving_phase_boards(self, record: GameRecord[TeekoState]) -> list[int]:
        """The boards after every ply whose thesis number is 9 or more, as memory keys."""
        first_ply = self._first_ply(record.states[0])
        boards = []
        for index, after in enumerate(record.states[1:]):
            if first_ply + index >= 9:
                boards.append(key(after.x, after.o))
        return boards


def file_kind(path: Path) -> str:
    """What a path that is not a regular file is, in words."""
    mode = path.stat().st_mode
    for test, words in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return words
    return "not a regular file"


def check_entries(knowledge: Any) -> list[tuple[str, int, int]]:
    """A thesis memory's records, checked: each [25 digits of 0/1/2 with four of each side,
    wins of '1', wins of '2'] with counts 0..9999, and no board (or its side swap) twice."""
    if not isinstance(knowledge, (list, tuple)):
        raise ValueError("a thesis memory is a list of records [board, x_wins, o_wins]")
    entries = []
    seen: dict[int, int] = {}
    for number, entry in enumerate(knowledge, start=1):
        try:
            board, first, second = entry
        except (TypeError, ValueError):
            raise ValueError(f"record {number}: not [board, x_wins, o_wins]") from None
        if not isinstance(board, str) or len(board) != 25 or set(board) - set("012"):
            raise ValueError(f"record {number}: the board is 25 digits 0, 1 and 2, not {str(board)[:40]!r}")
        if board.count("1") != 4 or board.count("2") != 4:
            raise ValueError(f"record {number}: board {board} does not hold four pawns of each side")
        for count in (first, second):
            if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_COUNT:
                raise ValueError(f"record {number}: a count is a whole number 0..{MAX_COUNT}, not {count!r}")
        k = digits_key(board)
        for twin in (k, swap_key(k)):
            if twin in seen:
                raise ValueError(f"record {number}: board {board} repeats record {seen[twin]}")
        seen[k] = number
        entries.append((board, first, second))
    return entries


def _parse_memory(text: str) -> str:
    if not text or any(ord(ch) < 32 for ch in text):
        raise ValueError(f"{text!r} is not a memory name or a path to a memory.m file")
    return text


def _make(game: Teeko, seed: int | None = None, **options: Any) -> ThesisPlayer:
    return ThesisPlayer(game, seed=seed, **options)


register(
    PlayerKind(
        name="thesis",
        factory=_make,
        summary="the 1999 thesis program: heuristics, 2-ply search and a position memory (fixed or original)",
        games=frozenset({"teeko"}),
        options=(
            Option("heuristics", parse_switch, True, "use the heuristics (on|off)"),
            Option("search", parse_switch, True, "use the two-ply search (on|off)"),
            Option("learn", parse_switch, True, "recall from and learn into the memory (on|off)"),
            Option(
                "memory",
                _parse_memory,
                None,
                "a memory NAME in the store, or a memory.m PATH (holds '/', ends in .m or .txt, or names an existing file) read-only",
            ),
            Option("original", parse_switch, False, "play the 1999 C with its bugs and Microsoft rand() (on|off)"),
            Option("train", parse_switch, True, "learn into the memory (off: frozen, recall only) (on|off)"),
        ),
        learns=True,
    )
)
