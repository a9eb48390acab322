"""``thesis``: the 1999 thesis program as a player of the public API (seed 000; THESIS-FACTS.md).

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
  the store's memory of that name (:class:`gamelearn.store.db.Store`), loaded when the player is
  made (empty if new) and saved, changed records only, after each game it learns from; a PATH (a
  value holding '/', ending in ``.m`` or ``.txt``, or naming an existing file), a thesis memory.m
  read once at start and never written.  Blanks in a path are fine; a ',' cannot pass the spec
  parser, which splits options on it: import such a file first (``gamelearn teeko memory import
  PATH --name NAME``) and give ``memory=NAME``.
* ``learn(record, side)`` with learning on, after a won game that reached the moving phase: every
  board after each ply from the thesis ply 9 through the last, as section a says.  The winner is
  the side that made the last move (fix 3); with ``original=on``, the ply parity (an odd last
  ply: X), which is the same for a game from the initial position.  Unlike batch mode, a player
  learns whether or not its opponent learns (batch's "the winner's flag gates learning" is a
  property of the shared loop, kept in :mod:`gamelearn.experiments.thesis_batch`).
* Randomness: fixed mode draws from the player's seeded ``rng`` (``random.Random``); original mode
  from Microsoft's rand() seeded with ``seed`` (1 when none is given).  ``reseed`` restarts either.
* When the side to move has no move at all the fixed player resigns (``None``); the original
  would loop for ever, so ``original=on`` raises the engine's NoMoveError instead, and
  :class:`~.opening.OpeningHang` where its opening pick finds its four cells taken (a person can
  bring that about, seed 000); the fixed player then takes a random free cell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..base import Player
from .board import key
from .engine import Decision, EngineState, Settings, decide
from .fixes import Fixes
from .heuristics import NoMoveError, has_move
from .memory import Memory
from .rng import MicrosoftRand, SeededDraws
from .rules import learned_winner

if TYPE_CHECKING:
    from ...games.teeko import TeekoState
    from ...match import GameRecord


def is_memory_path(value: str) -> bool:
    """A memory.m file rather than a store name: the same rule as the CLI's (it holds a folder,
    ends in .m or .txt, as the thesis's saved memories do, or names an existing file)."""
    from ...store.thesis_memories import looks_like_path

    return looks_like_path(value)


class ThesisPlayer(Player):
    kind = "thesis"

    def __init__(
        self,
        game: Any,
        seed: int | None = None,
        heuristics: bool = True,
        search: bool = True,
        learn: bool = True,
        memory: str | Memory | None = None,
        original: bool = False,
    ) -> None:
        if getattr(game, "name", None) != "teeko":
            raise ValueError("the thesis player plays Teeko only")
        if getattr(game, "spec", "teeko") != "teeko":
            raise ValueError(
                f"the thesis player plays Standard Teeko only, not {game.spec}: its heuristics and memory are "
                "written for the 44 goals, the owner's own drops, any first square and king steps"
            )
        options: dict[str, Any] = {}
        for name, value in (("heuristics", heuristics), ("search", search), ("learn", learn)):
            if not value:
                options[name] = "off"
        if isinstance(memory, str):
            options["memory"] = memory
        if original:
            options["original"] = "on"
        super().__init__(game, seed=seed, **options)
        self.settings = Settings(heuristics, search, learn)
        self.original = original
        self.fixes = Fixes.original() if original else Fixes()
        self.state = EngineState()
        self.last_decision: Decision | None = None
        self.store_name: str | None = None
        self.read_only = False
        self._draws: MicrosoftRand | SeededDraws
        self._make_draws(seed)
        if memory is None:
            self.memory = Memory()
        elif isinstance(memory, Memory):
            self.memory = memory
        elif is_memory_path(memory):
            from pathlib import Path

            from ...store.thesis_files import read_memory

            if not Path(memory).is_file():
                raise ValueError(
                    f"memory file {memory} does not exist (a memory in the store is named without '/', .m or .txt: "
                    "gamelearn teeko memory list)"
                )
            self.memory = Memory(read_memory(memory))
            self.read_only = True
        else:
            from ...store.db import Store

            self.store_name = memory
            with Store() as store:
                entries = store.load_memory(memory)
            self.memory = Memory(entries or ())

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

    def choose(self, state: Any) -> str | None:
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
            (state.x, state.o), side, ply, self.settings, self.memory, self._draws, self.fixes, self.state
        )
        return self.last_decision.move

    def learn(self, record: GameRecord, side: int | None = None) -> None:
        if not self.settings.learn or record.winner is None or record.end.value != "win":
            return
        boards = self.moving_phase_boards(record)
        if not boards:
            return
        last_ply = self._first_ply(record.states[0]) + record.plies - 1
        winner = learned_winner(last_ply, 1 if record.winner == 0 else -1, self.fixes)
        self.memory.learn(boards, winner)
        if self.store_name is not None:
            from ...store.db import Store

            with Store() as store:
                store.update_memory(self.store_name, self.memory.take_changes())

    @staticmethod
    def _first_ply(start: Any) -> int:
        pawns = (start.x | start.o).bit_count()
        if pawns < 8:
            return pawns + 1
        return 9 if start.to_move == 0 else 10

    def moving_phase_boards(self, record: GameRecord) -> list[int]:
        """The boards after every ply whose thesis number is 9 or more, as memory keys."""
        first_ply = self._first_ply(record.states[0])
        boards = []
        for index, after in enumerate(record.states[1:]):
            if first_ply + index >= 9:
                boards.append(key(after.x, after.o))  # type: ignore[attr-defined]
        return boards
