"""`gamelearn play` in a terminal: one game between two seats, a person asked at the prompt.

The game is a :class:`gamelearn.match.Match` played a ply at a time, so the person's prompt can
offer more than a move: ``?`` lists the legal moves, ``hint`` shows the perfect player's move and
the position's value (where the game is solved), ``undo`` takes back the person's last move and the
reply to it, ``q`` (or Ctrl-C, Ctrl-D) abandons the game.  The end says why, from the person's side
("You lose: B has no move left"), and offers another game.  At a terminal the prompt has readline's
line editing and history; a control sequence or a pasted paragraph is "not a move", cut short.  Rules and decisions stay with the game and the players.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Hashable, Sequence
from typing import Any

import typer

from ..games import Game, IllegalMove
from ..match import End, GameRecord, Match
from ..solver import solve
from .common import EXIT_INTERRUPTED, SaidWhy, console
from .solve import describe

QUIT_WORDS = ("q", "quit", "exit")
#: Games whose moves are columns (a disc falls where the rules put it): ? and hint say "column".
COLUMN_GAMES = ("connect4",)
HELP_LINE = "Type a move, or ? (legal moves), hint (perfect play), undo, q (quit)."
#: The longest input shown back in a message: a pasted paragraph is cut, not echoed whole.
SHOWN_INPUT = 20


def shown_input(text: str) -> str:
    """What a person typed, as a message quotes it: cut to SHOWN_INPUT characters."""
    return repr(text if len(text) <= SHOWN_INPUT else text[:SHOWN_INPUT] + "…")


def not_a_move(text: str) -> str | None:
    """Why ``text`` cannot be a move whatever the position, or None: a control sequence (an arrow
    key or another key a terminal sends as escape codes, where line editing is missing), or far
    too long for any game's notation."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        return "not a move: that holds control characters (an arrow key?); type ? for the legal moves"
    if len(text) > SHOWN_INPUT:
        return f"not a move: {shown_input(text)} is far longer than a move; type ? for the legal moves"
    return None


def read_line(prompt: str) -> str:
    """A line typed at ``prompt``.  At a terminal with readline the line can be edited (arrows,
    Home, End, ^W) and earlier lines come back with the up arrow; elsewhere (a pipe, a test) the
    console reads it plainly."""
    if sys.stdin.isatty() and console.is_terminal:
        try:
            import readline  # noqa: F401 - importing it gives input() line editing and history
        except ImportError:  # a Python built without it (Windows): no editing, the same prompt
            pass
        else:
            return input(prompt)
    return console.input(prompt, markup=False)


def play_again() -> bool:
    """After a finished game: another?  Yes only for y or yes; the end of input is a no."""
    try:
        answer = read_line("Play again? [y/N] ")
    except (EOFError, KeyboardInterrupt):
        console.print()
        return False
    return answer.strip().lower() in ("y", "yes")


#: The context of the games `gamelearn play` keeps in the store.
PLAY_CONTEXT = "play"


class Quit(Exception):
    """The person typed q, or ended the input (Ctrl-D), or pressed Ctrl-C."""


def hint(game: Game, state: Hashable) -> str:
    """The perfect player's move and the position's value, or why there is none (Teeko's table not
    built: how to build it)."""
    try:
        solution = solve(game)
    except ValueError as error:  # Teeko's table missing or damaged: the message says how to build it
        return f"No hint: {error}."
    if console.is_terminal:  # an early Connect Four position is a search of seconds or more
        with console.status("Working out perfect play…", spinner="dots"):
            best = solution.best_moves(state)
            value, distance = solution.outcome(state)
    else:
        best = solution.best_moves(state)
        value, distance = solution.outcome(state)
    mover = game.to_move(state)
    if len(best) > 6:  # the start of a drawn game: most moves are as good, a list would say little
        others = f" (or any of {len(best) - 1} others as good)"
    else:
        others = f" (as good: {', '.join(best[1:])})" if len(best) > 1 else ""
    column = "column " if game.name in COLUMN_GAMES else ""
    return f"Perfect play: {column}{best[0]}{others}; {describe(game, mover, value, distance)}."


def end_text(game: Game, record: GameRecord, names: Sequence[str], you: int | None) -> str:
    """How the game ended and why, from the side of ``you`` (the one person at the terminal, if any)."""
    plies = f"after {record.plies} {'ply' if record.plies == 1 else 'plies'}"
    if record.winner is None:
        why = {
            End.REPETITION: "the same position came up a third time",
            End.MAX_PLIES: "the ply limit was reached",
        }.get(record.end) or game.end_reason(record.final)
        return f"A draw {plies}: {why}."
    loser = 1 - record.winner
    if record.end is End.RESIGN:
        why = f"{names[loser]} resigns" if you != loser else "you resigned"
    else:
        why = game.end_reason(record.final)
    if you is None:
        return f"{game.symbols[record.winner]} ({names[record.winner]}) wins {plies}: {why}."
    return f"{'You win' if record.winner == you else 'You lose'} {plies}: {why}."


class TerminalGame:
    """One game at the terminal; ``run()`` plays it and returns its record (None if abandoned)."""

    def __init__(
        self,
        game: Game,
        players: Sequence[Any],
        names: Sequence[str],
        seed: int | None,
        max_plies: int,
        learn: bool = True,
        keeper: Any = None,
    ) -> None:
        self.game = game
        self.players = list(players)
        self.names = list(names)
        self.max_plies = max_plies
        self.learn = learn
        # the keeper loads the stored learners now, and keeps each lesson after the game
        self.keeper = keeper
        self.match = Match(game, self.players, seed=seed, max_plies=max_plies, learn=False, keeper=keeper)
        humans = [index for index, player in enumerate(self.players) if player.is_human]
        self.you = humans[0] if len(humans) == 1 else None

    def run(self) -> GameRecord | None:
        if any(player.is_human for player in self.players):
            console.print(HELP_LINE)
        try:
            while self.match.end is None:
                mover = self.match.to_move
                if self.players[mover].is_human:
                    move = self.ask(mover)
                    if move is not None:
                        self.match.play(move)
                    continue
                move = self.advance(mover)
                if move is not None:
                    console.print(
                        f"{self.names[mover]} ({self.game.symbols[mover]}) plays [bold]{move}[/bold]", highlight=False
                    )
        except (Quit, KeyboardInterrupt) as stop:
            console.print("\nGame abandoned.")  # a newline first: ^C and ^D leave the cursor on the prompt
            self.match.abandon()
            if isinstance(stop, KeyboardInterrupt):  # ^C: the status a shell reports for it, as every command
                raise typer.Exit(SaidWhy(EXIT_INTERRUPTED)) from None
            return None
        if self.learn:
            # the game is kept with its lessons (gamelearn records list/export reads it back)
            self.match.learn_from_game(record_context=PLAY_CONTEXT if self.keeper is not None else None)
        record = self.match.record
        assert record is not None  # a finished match has its record
        console.print()
        console.print(self.game.render(record.final), markup=False)
        console.print(end_text(self.game, record, self.names, self.you), markup=False)
        return record

    def advance(self, mover: int) -> str | None:
        """The computer's move.  With a person at a terminal, a spinner says who is thinking while
        it thinks (a deep search on Teeko can take most of a minute); it leaves nothing behind."""
        if self.you is None or not console.is_terminal:
            return self.match.advance()
        with console.status(f"{self.names[mover]} ({self.game.symbols[mover]}) is thinking…", spinner="dots"):
            return self.match.advance()

    def ask(self, mover: int) -> str | None:
        """The person's move; None after an undo (the position changed: ask again)."""
        state = self.match.state
        console.print()
        console.print(self.game.render(state), markup=False)
        # In a drop round of Scarne's Alternate Game the side to move places the other side's pawn.
        whose = self.game.pawn_side(state)
        placing = "" if whose == mover else f", placing {self.game.symbols[whose]}'s pawn"
        prompt = f"{self.names[mover]} ({self.game.symbols[mover]}) to move{placing}: "
        while True:
            try:
                text = read_line(prompt).strip()
            except EOFError:
                raise Quit from None
            refused = not_a_move(text)
            if refused is not None:
                console.print(refused, style="red", markup=False, soft_wrap=True)
                continue
            word = text.lower()
            if word in QUIT_WORDS:
                raise Quit
            if word in ("", "help"):  # no game's move: the line of what can be typed
                console.print(HELP_LINE, markup=False, soft_wrap=True)
            elif word == "?":  # a long list (Teeko's 25 first moves) goes on under itself, not at the margin
                # a column game's moves are the columns not yet full, numbered from the left
                label = "Legal moves (columns, from the left): " if self.game.name in COLUMN_GAMES else "Legal moves: "
                moves = " ".join(self.game.legal_moves(state))
                shown = textwrap.fill(moves, console.width, initial_indent=label, subsequent_indent=" " * len(label))
                console.print(shown, markup=False, soft_wrap=True)
            elif word == "hint":
                console.print(hint(self.game, state), markup=False)
            elif word == "undo":
                taken = self.undo(mover)
                if taken:
                    console.print(f"Took back {taken} {'move' if taken == 1 else 'moves'}.")
                    return None
                console.print("Nothing to take back: you have not moved yet.")
            else:
                try:
                    self.game.play(state, text)
                except IllegalMove as error:  # the text is the user's: no markup, one line
                    console.print(str(error), style="red", markup=False, soft_wrap=True)
                    continue
                return text

    def undo(self, mover: int) -> int:
        """Take back ``mover``'s last move and every move after it (the reply); how many moves.
        The match is replayed from the start without them, so repetition counts stay right."""
        states, moves = self.match.states, self.match.moves
        last = next((i for i in range(len(moves) - 1, -1, -1) if self.game.to_move(states[i]) == mover), None)
        if last is None:
            return 0
        # No seed: the computer players go on with their own random streams.
        match = Match(self.game, self.players, max_plies=self.max_plies, learn=False, keeper=self.keeper)
        match.seed = self.match.seed  # the record still names the seed the game began with
        for move in moves[:last]:
            match.play(move)
        self.match = match
        return len(moves) - last
