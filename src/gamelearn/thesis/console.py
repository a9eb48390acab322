"""The thesis program's console game (Despotović 1999), without the console.

A ``ConsoleSession`` is a small state machine: ``start()`` gives the first screen, ``send(line)``
takes one line a person typed and gives the next screen (text lines, the board, the prompt).  The
command line renders the screens in a terminal (``gamelearn teeko console``) and the web app the
same screens on its console page (thesis/web.py): both drive this one session, which holds no
terminal or web code, and ``screen_text`` is the text both show.  The memory and the score are the
store's, under the session's ``owner`` (the command line's, or a browser's).  The program's moves
come from a ``Brain`` (the thesis engine), so this module holds only the console's own rules:

- the menu: 1 you begin, 2 the program begins, 3 autoplay; p/h/s/l/t toggle pause, heuristics,
  search, learning and thinking output (all on at start); ? statistics (then r resets them);
  r rules; / help; q quit;
- moves typed as rc (placement) or rcRC (step), checked in full as the fixed program does (a free
  field next to the pawn); a line beginning with q abandons the game;
- draws: against a person, a draw is offered on the program's turn only, and only when the moves
  really repeat.  The thesis says the original looked for "cycles of 2, 3 and 5" and
  offered a draw on every turn past move 24 because its check for 5 compared a position with
  itself; here cycles of 2, 3, 4 and 5 moves are all checked properly, over the last 4, 6, 8 and
  10 plies twice.  Autoplay draws by itself, on cycles of 2, 3 and 4 as self-play does, and every
  game is drawn after ply 100;
- the score: stat.m's fields 4-6 (the program began: won, drawn, lost) and 7-9 (it played
  second), kept in the store across sessions; autoplay counts in fields 1-3;
- learning: after a won game that reached the moving phase, with learning on, every board from
  ply 9 to the winning ply goes into the memory in the store (by the keeper, with the thesis
  player's own rule), counted for the side that made the last move: the right way round whoever began (the original used the ply parity, wrong when the
  person began; Despotović 1999, "When you move first...").  In person games side 1 of the memory is the
  program, as in the original; in autoplay it is player I (X).

``original=True`` is the console of the 1999 C as it was: :mod:`.console_original`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from ..games import get_game
from ..games.base import IllegalMove
from ..games.teeko import Teeko, TeekoState
from ..keeper import LOCAL_OWNER
from ..match import End, GameRecord
from ..players.hangs import NoMoveError, OpeningHang
from . import console_original as original_rules
from .board import digits_key
from .brain import Brain, Decision, EngineBrain, Switches
from .fixes import Fixes
from .kept import ThesisMemory
from .memories import DEFAULT_STAT_NAME, Entry, add_to_stat, has_memory, load_memory, load_stat, save_memory, save_stat
from .memory import Memory, MemoryFull
from .rules import learned_winner
from .screens import HELP_TEXT, MENU_TEXT, Screen, render_board, screen_text, statistics_lines

__all__ = [
    "Brain",
    "ConsoleSession",
    "Decision",
    "EngineBrain",
    "Mode",
    "Screen",
    "Switches",
    "render_board",
    "screen_text",
]

if TYPE_CHECKING:
    from ..store.store import Store

MOVING_FROM_PLY = 9  # plies 1-8 put the pawns down
DRAW_CHECKS_AFTER_PLY = 24  # checks run before each ply once n > 24
PLY_CAP = 100  # any check says draw once n > 100
PERSON_CYCLES = (2, 3, 4, 5)  # checked properly (see the module's docstring)
SELF_PLAY_CYCLES = (2, 3, 4)  # self-play
CONTEXT = "teeko-console"  # the context of the game records this session stores

STAT_SELF_PLAY, STAT_PROGRAM_FIRST, STAT_PROGRAM_SECOND = 0, 3, 6  # first field of each group


TOGGLES = {"p": "pause", "h": "heuristics", "s": "search", "l": "learning", "t": "thinking"}


def repeating_cycle(history: Sequence[str], cycles: Sequence[int]) -> int | None:
    """The first k in ``cycles`` such that the last 2k moves (4k plies) are k moves played twice.

    ``history`` holds the boards after each moving-phase ply, oldest first.  A cycle of k moves
    (k plies a side) has period 2k plies: the last 2k boards equal the 2k before them, pairwise
    (cycle 2 compares slots 8-11 with 12-15, cycle 4 slots 0-7 with 8-15).
    """
    for k in cycles:
        period = 2 * k
        if len(history) >= 2 * period and all(history[-i] == history[-i - period] for i in range(1, period + 1)):
            return k
    return None


class Mode(StrEnum):
    MENU = "menu"
    STATISTICS = "statistics"  # after ?: r resets, anything else returns
    MOVE = "move"  # the person types a move
    DRAW_OFFER = "draw-offer"  # y accepts
    PAUSED = "paused"  # autoplay with pause on: Enter plays a ply, q aborts
    QUIT = "quit"


@dataclass
class GameInProgress:
    kind: str  # "person-first", "program-first" or "autoplay"
    state: TeekoState
    moves: list[str] = field(default_factory=list)
    states: list[TeekoState] = field(default_factory=list)
    history: list[str] = field(default_factory=list)  # memory-orientation boards after plies >= 9

    @property
    def ply(self) -> int:
        """The ply about to be played, from 1 (the original's n)."""
        return len(self.moves) + 1


class ConsoleSession:
    """One console session: menus, games against a person or itself, the score and the memory."""

    def __init__(
        self,
        store: Store,
        brain: Brain,
        memory_name: str = "console",
        stat_name: str = DEFAULT_STAT_NAME,  # the one score of `gamelearn teeko stat show`
        switches: Switches | None = None,
        owner: str = LOCAL_OWNER,  # whose memory and score: the command line's, or a browser's
        original: bool = False,  # the 1999 console as it was (the module's docstring)
    ) -> None:
        self.store = store
        self.original = original
        self.fixes = Fixes.original() if original else Fixes.fixed()
        self.owner = owner
        self.brain = brain
        self.memory_name = memory_name
        self.stat_name = stat_name
        self.switches = switches or Switches()
        self.game: Teeko = get_game("teeko")  # type: ignore[assignment]
        self.mode = Mode.MENU
        self.current: GameInProgress | None = None
        if not has_memory(store, memory_name, owner=owner):  # created empty at start-up if missing
            save_memory(store, memory_name, [], owner=owner)

    # --- screens ------------------------------------------------------------------------------

    def start(self) -> Screen:
        mode = "original" if self.original else "fixed"
        screen = Screen([f"Teeko, the 1999 thesis program ({mode}).  / for help."])
        return self._menu(screen)

    def _menu(self, screen: Screen) -> Screen:
        self.mode = Mode.MENU
        self.current = None
        states = {name: "ON" if getattr(self.switches, name) else "OFF" for name in TOGGLES.values()}
        screen.lines.append(MENU_TEXT.format(**states))
        screen.prompt = "Your choice: "
        return screen

    def _board_text(self) -> str | None:
        if self.current is None:
            return None
        return render_board(self.game.board(self.current.state))

    def send(self, text: str) -> Screen:
        """One line typed by the person; the screen that follows."""
        line = text.strip()
        if self.mode is Mode.MENU:
            return self._menu_choice(line)
        if self.mode is Mode.STATISTICS:
            screen = Screen()
            if line.lower() == "r":
                save_stat(self.store, (0,) * 9, self.stat_name, owner=self.owner)
                screen.lines.append("The statistics have been reset.")
            return self._menu(screen)
        if self.mode is Mode.MOVE:
            return self._person_move(line)
        if self.mode is Mode.DRAW_OFFER:
            return self._draw_answer(line)
        if self.mode is Mode.PAUSED:
            if line.lower().startswith("q"):
                return self._abandon(Screen())
            return self._continue(Screen(), one_ply=True)
        return Screen(["The session has ended."], finished=True)

    def _menu_choice(self, line: str) -> Screen:
        choice = line.lower()
        screen = Screen()
        if choice in ("1", "2", "3"):
            kind = {"1": "person-first", "2": "program-first", "3": "autoplay"}[choice]
            state = self.game.initial()
            self.current = GameInProgress(kind, state, states=[state])
            labels = {
                "person-first": "You are X and begin; the program is O.",
                "program-first": "The program is X and begins; you are O.",
                "autoplay": f"The program plays itself ({self.switches.flags()} on both sides).",
            }
            screen.lines.append(labels[kind])
            return self._continue(screen)
        if choice in TOGGLES:
            name = TOGGLES[choice]
            value = not getattr(self.switches, name)
            self.switches = replace(self.switches, **{name: value})
            screen.lines.append(f"{name.capitalize()} is now {'ON' if value else 'OFF'}.")
            return self._menu(screen)
        if choice == "?":
            counts = load_stat(self.store, self.stat_name, owner=self.owner)
            screen.lines.extend(statistics_lines(counts, self.fixes.statistics_second_total, half_up=self.original))
            screen.prompt = "r resets the statistics, Enter returns: "
            self.mode = Mode.STATISTICS
            return screen
        if choice == "r":
            screen.lines.append(self.game.rules_text())
            return self._menu(screen)
        if choice == "/":
            screen.lines.append(HELP_TEXT)
            return self._menu(screen)
        if choice == "q":
            self.mode = Mode.QUIT
            return Screen(["Goodbye."], finished=True)
        screen.lines.append(f"There is no choice {line!r} here; / gives help.")
        return self._menu(screen)

    # --- the game -----------------------------------------------------------------------------

    def _program_symbol(self) -> int | None:
        """The player index (0 = X) the program plays against a person; None in autoplay."""
        assert self.current is not None
        return {"person-first": 1, "program-first": 0}.get(self.current.kind)

    def memory_board(self, state: TeekoState) -> str:
        """The board in the memory's orientation: '1' the program (autoplay: X), '2' the other."""
        assert self.current is not None
        program = self._program_symbol()
        ones = self.game.symbols[0 if program is None else program]
        return "".join("0" if ch == "." else "1" if ch == ones else "2" for ch in self.game.board(state))

    def _prompt_for_person(self) -> str:
        assert self.current is not None
        n = self.current.ply
        what = "put down a pawn (rc)" if n < MOVING_FROM_PLY else "move a pawn (rcRC)"
        return f"Move {(n + 1) // 2}, {'Ply' if n % 2 else 'Reply'}: {what}, q abandons: "

    def _continue(self, screen: Screen, one_ply: bool = False) -> Screen:
        """Play the program's plies until the person has to type something, or the game ends.

        In autoplay with pause on, the person presses Enter before each ply: ``one_ply`` is that
        Enter, allowing one ply before the next pause.
        """
        while True:
            current = self.current
            assert current is not None
            winner = self._winner(current.state)
            if winner is not None:
                return self._finish(screen, winner, End.WIN)
            mover = self.game.to_move(current.state)
            program = self._program_symbol()
            if program is not None and mover != program:
                screen.board = self._board_text()
                screen.prompt = self._prompt_for_person()
                self.mode = Mode.MOVE
                return screen
            n = current.ply
            if n > DRAW_CHECKS_AFTER_PLY:  # checks before each ply from ply 25
                if n > PLY_CAP:
                    screen.lines.append(f"{PLY_CAP} moves reached! Draw!")
                    return self._finish(screen, None, End.MAX_PLIES)
                cycle = self._cycle(current.history, program is None)
                if cycle is not None and program is None:
                    screen.lines.append(f"The moves repeat (a cycle of {cycle} moves): the game is drawn.")
                    return self._finish(screen, None, End.REPETITION)
                if cycle is not None and self.mode is not Mode.DRAW_OFFER:
                    screen.board = self._board_text()
                    screen.lines.append(f"The moves repeat (a cycle of {cycle} moves).")
                    screen.prompt = "I offer a draw. Do you accept (y/n)? "
                    self.mode = Mode.DRAW_OFFER
                    return screen
            if program is None and self.switches.pause:
                if not one_ply:
                    screen.board = self._board_text()
                    screen.prompt = "Enter plays the next ply, q aborts: "
                    self.mode = Mode.PAUSED
                    return screen
                one_ply = False
            try:
                self._program_ply(screen)
            except (OpeningHang, NoMoveError) as hang:  # the original loops for ever here
                screen.board = self._board_text()
                screen.lines.append(f"The program would never stop here: {hang}.")
                return self._abandon(screen)
            if program is not None:
                self.mode = Mode.MOVE  # no longer answering an offer

    def _program_ply(self, screen: Screen) -> None:
        current = self.current
        assert current is not None
        n = current.ply
        mover = self.game.to_move(current.state)
        program = self._program_symbol()
        side = 1 if (program is None and mover == 0) or mover == program else -1
        memory = load_memory(self.store, self.memory_name, owner=self.owner) or []
        decision = self.brain.decide(self.memory_board(current.state), side, n, self.switches, memory)
        # OpeningHang and NoMoveError (where the original loops for ever) go to _continue's caller
        if self.switches.thinking:
            screen.lines.extend(decision.thinking)
        who = (
            "The program"
            if program is not None
            else f"Player {'I' if mover == 0 else 'II'} ({self.game.symbols[mover]})"
        )
        screen.lines.append(f"Move {(n + 1) // 2}, {'Ply' if n % 2 else 'Reply'}: {who} plays {decision.move}")
        self._apply(decision.move)

    def _winner(self, state: TeekoState) -> int | None:
        return original_rules.winner(state) if self.original else self.game.winner(state)

    def _cycle(self, history: Sequence[str], autoplay: bool) -> int | None:
        """The cycle of moves that makes a draw (autoplay) or a draw offer before a program ply."""
        if self.original:  # the engine's checks: fix 4 off, a person game's 5 always says yes
            return original_rules.cycle(history, autoplay, self.fixes)
        return repeating_cycle(history, SELF_PLAY_CYCLES if autoplay else PERSON_CYCLES)

    def _apply(self, move: str) -> None:
        current = self.current
        assert current is not None
        if self.original:  # the engine's board, on which the person's moves may have jumped
            after = original_rules.program_plays(current.state, move)
        else:
            after = self.game.play(current.state, move)  # IllegalMove from a broken brain is a bug: let it raise
        self._played(move, after)

    def _played(self, move: str, after: TeekoState) -> None:
        current = self.current
        assert current is not None
        n = current.ply
        current.moves.append(move)
        current.states.append(after)
        current.state = after
        if n >= MOVING_FROM_PLY:
            current.history.append(self.memory_board(after))

    def _person_move(self, line: str) -> Screen:
        current = self.current
        assert current is not None
        if line.lower().startswith("q"):
            return self._abandon(Screen())
        screen = Screen()
        try:
            if self.fixes.check_person_moves:
                after = self.game.play(current.state, line)
            else:  # the original's getmove: lax (fix 5 off)
                after = original_rules.person_plays(current.state, line, current.ply, self.game.symbols)
        except ValueError as error:
            screen.lines.append(f"{error}. Try again.")
            screen.board = self._board_text()
            screen.prompt = self._prompt_for_person()
            return screen
        self._played(line, after)
        return self._continue(screen)

    def _draw_answer(self, line: str) -> Screen:
        screen = Screen()
        if line.lower().startswith("y"):
            screen.lines.append("You accepted the draw.")
            return self._finish(screen, None, End.DRAW)
        screen.lines.append("Then we play on.")
        return self._continue(screen)  # mode is still DRAW_OFFER: no second offer before this ply

    def _abandon(self, screen: Screen) -> Screen:
        current = self.current
        assert current is not None
        screen.lines.append("The game has been abandoned; it is neither counted nor learned.")
        self._store_record(End.ABANDONED, None)
        return self._menu(screen)

    def _finish(self, screen: Screen, winner: int | None, end: End) -> Screen:
        current = self.current
        assert current is not None
        screen.lines.append(render_board(self.game.board(current.state)))  # the final position
        program = self._program_symbol()
        if winner is None:
            screen.lines.append("The game has been drawn.")
        elif program is None:
            screen.lines.append(f"Player {'I (X)' if winner == 0 else 'II (O)'} has won.")
        else:
            screen.lines.append("I have won." if winner == program else "You have won. Congratulations!")
        if program is None:
            field_index = STAT_SELF_PLAY + (1 if winner is None else 0 if winner == 0 else 2)
        else:
            base = STAT_PROGRAM_FIRST if program == 0 else STAT_PROGRAM_SECOND
            field_index = base + (1 if winner is None else 0 if winner == program else 2)
        with self.store.transaction():
            add_to_stat(self.store, field_index, self.stat_name, owner=self.owner)
            if winner is not None and self.switches.learning and len(current.moves) >= MOVING_FROM_PLY:
                screen.lines.extend(self._learn(winner))
            self._store_record(end, winner)
        return self._menu(screen)

    def _learn(self, winner: int) -> list[str]:
        """Put the game's moving-phase boards into the memory, for the side that made the last move.

        The keeper applies the lesson (the thesis player's own rule, ``Memory.learn``) to the latest
        stored memory; the caller's transaction holds the write lock, so what is read here before
        the lesson is the latest, and it is handed to the keeper with its version so that the
        memory is read once; the two then differ by this game alone."""
        current = self.current
        assert current is not None
        program = self._program_symbol()
        last_mover = 1 if winner == (0 if program is None else program) else -1  # the side that made four
        # fix 3: the last mover; the original: the ply parity, an odd last ply for side 1
        winner_digit = 1 if learned_winner(len(current.moves), last_mover, self.fixes) > 0 else 2
        if not original_rules.learnable(current.history):
            return ["Not learned: a pawn went off the board, and a memory holds four pawns a side."]
        kept = ThesisMemory(self.store, self.owner, self.memory_name)
        version = kept.version()
        before = load_memory(self.store, self.memory_name, owner=self.owner) or []
        keys = [digits_key(board) for board in current.history]
        lesson = [(keys, 1 if winner_digit == 1 else -1)]
        try:
            memory = kept.learn(lesson, cached=(version, Memory(before)))
        except MemoryFull as full:  # raised before anything is written: the memory is as it was
            return [f"Not learned: {full}; a thesis memory holds counts up to 9999 (memory {self.memory_name!r})."]
        changes = [(position, memory.entry(position)) for position in changed_records(before, memory)]
        added = sum(1 for position, _ in changes if position >= len(before))
        lines = []
        if self.switches.thinking:
            for position, (board, x_wins, o_wins) in changes:
                verb = "Add" if position >= len(before) else "Adjust"
                lines.append(f"{verb} {board} {x_wins:>4} {o_wins:>4}")
        lines.append(
            f"Learned {len(current.history)} positions: {added} added, {len(changes) - added} adjusted "
            f"(memory {self.memory_name!r}, side {winner_digit} won)."
        )
        return lines

    def _store_record(self, end: End, winner: int | None) -> None:
        current = self.current
        assert current is not None
        program = self._program_symbol()
        names = ("thesis:" + self.switches.flags() + (",original" if self.original else ""),) * 2
        if program is not None:
            names = tuple("human" if index != program else names[0] for index in (0, 1))  # type: ignore[assignment]
        row = {"game": "teeko", "players": names, "moves": current.moves, "winner": winner, "end": end}
        try:
            record = GameRecord.from_dict(self.game, row, start=current.states[0])
        except IllegalMove:
            if not self.original:
                raise
            return  # a step the original let through that the rules refuse: no Teeko record replays it
        self.store.add_record(record, owner=self.owner, context=CONTEXT)


def changed_records(before: Sequence[Entry], after: Memory) -> list[int]:
    """The record numbers whose board or counts differ between ``before`` and ``after`` (appended
    records included), in file order."""
    return [
        position
        for position in range(len(after))
        if position >= len(before) or tuple(before[position]) != after.entry(position)
    ]
