"""What the matchbox learners share (players/matchbox.py): a box per position, named by the board
of the position's canonical image under the game's symmetries, the boxes as one JSON document, and
learning from a finished game's record.

A learner plays the built-in game it was written for (Gardner's HER and HIM: hexapawn; Michie's
MENACE: tic-tac-toe) and any game of another author that always ends and whose positions fit its
tables (:mod:`.matchbox_tables`: at most the exhaustive solver's 5,000,000 reachable positions).
A learner of such a game is kept under ``GAME/NAME``, so that one name serves a learner of each game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..games import GAME_NAMES, Game
from .base import OptionValue, S
from .knowledge import Advice, BoxesKnowledge, KnowledgeFormat, Learner, Lesson
from .matchbox_advice import her_advice
from .matchbox_beads import bead_total
from .matchbox_checks import FORMAT, FORMAT_VERSION, box_of_board, check_header
from .matchbox_tables import position_table
from .matchbox_views import BoxesView, box_beads, box_lesson, boxes_view

if TYPE_CHECKING:
    from ..games.record import GameRecord


def plays_plugged_in_game(game: Game[Any]) -> bool:
    """Whether the matchbox learners are offered for ``game`` beside their own built-in one: a game
    of another author that always ends (its size is checked when a learner is made, by walking it)."""
    return game.name not in GAME_NAMES and not game.facts.can_cycle


class MatchboxPlayer(Learner[S, BoxesKnowledge]):
    """What HER, HIM and MENACE share: boxes named by canonical boards, their knowledge as a value."""

    knowledge_format = KnowledgeFormat.BOXES

    kind = "matchbox"
    #: The built-in game the learner was written for.
    game_name = ""

    def __init__(
        self,
        game: Game[S],
        seed: int | None = None,
        name: str = "",
        train: bool = True,
        **options: OptionValue,
    ) -> None:
        if game.name != self.game_name and not plays_plugged_in_game(game):
            raise ValueError(
                f"{self.kind} plays {self.game_name} and the games of other authors that always end, not {game.name}"
            )
        shown = {"name": name, **options} if name else dict(options)
        if not train:
            shown["train"] = "off"
        super().__init__(game, seed, **shown)
        self.name = name or None
        self.trains = train
        self.games_played = 0
        self.table = position_table(game)  # ValueError for a game too large, in one line

    # knowledge ---------------------------------------------------------------------------------

    def keep_kind(self) -> str:
        return self.kind

    def keep_name(self) -> str | None:
        """The name alone for the built-in game it was written for; ``GAME/NAME`` for another game."""
        if not self.name or self.game.name == self.game_name:
            return self.name
        return f"{self.game.name}/{self.name}"

    def knowledge(self) -> BoxesKnowledge:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "kind": self.kind,
            "game": self.game.name,
            "games": self.games_played,
            "settings": self.settings(),
            "boxes": self.boxes_json(),
        }

    def load(self, knowledge: object) -> None:
        self.load_payload(knowledge, where="")

    def load_payload(self, payload: Any, where: str) -> None:
        """Replace the boxes with ``payload``'s after checking all of it; a bad payload raises
        ValueError (prefixed with ``where``) naming the box and what is wrong, and changes nothing."""
        games, boxes = check_header(payload, where, self.game.name, self.compatible_kinds(), self.kind)
        checked = self.check_boxes(boxes, where)
        self.apply_settings(payload.get("settings", {}), where)
        self.install_boxes(checked)
        self.games_played = games

    def compatible_kinds(self) -> tuple[str, ...]:
        return (self.kind,)

    def describe(self) -> dict[str, int]:  # read on every web answer: no copy of the boxes
        return {"boxes": len(self.boxes), "beads": bead_total(self.boxes), "games": self.games_played}

    def lesson(self, before: BoxesKnowledge, after: BoxesKnowledge) -> Lesson:
        """Beads taken out of and put into each box (:func:`.matchbox_views.box_lesson`)."""
        return box_lesson(self, before, after)

    def advice(self) -> Advice | None:
        """Its empty boxes, why they emptied, and the remedies (:mod:`.matchbox_advice`)."""
        return her_advice(self)

    def box_beads(self, board: str) -> list[tuple[str, int]]:
        """The box for ``board`` as (bead, count) pairs (:func:`.matchbox_views.box_beads`)."""
        return box_beads(self, board)

    def view(self, focus: list[str] | None = None) -> BoxesView:
        """Its boxes with their beads, as an interface shows them (:func:`.matchbox_views.boxes_view`)."""
        return boxes_view(self, focus)

    def explain(self, state: S, move: str | None) -> dict[str, object] | None:
        """The box the learner opened for ``state`` and the bead its ``move`` came from."""
        position, box, symmetry = self.box_position(state)
        if len(self.table.moves[position]) == 1 and self.kind == "menace":
            return {
                "learner": self.kind,
                "box": None,
                "bead": None,
                "resigned": False,
                "note": "one legal move: no box",
            }
        bead = self.game.transform_move(move, symmetry) if move is not None else None
        return {
            "learner": self.kind,
            "box": self.table.boards[box],
            "mirrored": symmetry != 0,
            "bead": self.bead_of(box, bead) if bead is not None else None,
            "resigned": move is None,
        }

    def bead_of(self, box: int, move: str) -> str:
        """The bead a move (in the box's orientation) is drawn as."""
        return move

    # the box of a position ---------------------------------------------------------------------

    def box_position(self, state: S) -> tuple[int, int, int]:
        """(index of the position, index of its canonical image = the box, symmetry taking it there)."""
        position = self.table.index.get(state)
        if position is None:
            raise ValueError(
                f"{self.kind}: {self.game.board(state)!r} is not a position a game of {self.game.name} reaches from the start"
            )
        if not self.table.moves[position]:  # a finished game has no box: asking is an error, not a resignation
            self.moves_to_choose_from(state)
        return position, self.table.canonical[position], self.table.symmetry[position]

    def learn(self, record: GameRecord[S], side: int | None = None) -> None:
        """Update the boxes from a finished game, in memory; ``side`` None means it played both
        sides.  Every box the game opened is kept (as Gardner's HER has a box for every position it
        meets), so the knowledge after a game is the same whether or not it was
        reloaded from the store in between."""
        if not self.trains:
            return
        sides, first_time = self.sides_to_learn(record, side)
        if first_time:
            self.games_played += 1
        for mover in sides:
            drawn = [
                (state, move)
                for state, move in zip(record.states, record.moves, strict=False)
                if self.game.to_move(state) == mover
            ]
            outcome = 0 if record.winner is None else (1 if record.winner == mover else -1)
            self.open_boxes(drawn)
            self.reinforce(drawn, outcome)

    #: A position has a box when it has at least this many moves (MENACE: no box for one move).
    min_choices = 1
    boxes: dict[str, Any]

    def open_boxes(self, drawn: list[tuple[S, str]]) -> None:
        """Make sure a box stands for every position of ``drawn`` that has one."""
        for state, _ in drawn:
            position, box, _ = self.box_position(state)
            if len(self.table.moves[position]) >= self.min_choices:
                board = self.table.boards[box]
                if board not in self.boxes:
                    self.boxes[board] = self.new_box(box)

    def new_box(self, box: int) -> Any:
        raise NotImplementedError

    def box_to_draw_from(self, board: str, box: int) -> Any:
        """The box for ``board``, opened (a new one kept) when the learner trains; a frozen
        learner draws from a new box without keeping it, so its knowledge never changes."""
        beads = self.boxes.get(board)
        if beads is None:
            beads = self.new_box(box)
            if self.trains:
                self.boxes[board] = beads
        return beads

    def fresh_box(self, board: str) -> Any:
        return self.new_box(box_of_board(self.table, board, "", min_choices=self.min_choices))

    def side_played(self) -> int | None:
        """The side of every box it holds, if they are all one side's (HER trained as Black, a
        MENACE trained as X); None once it holds boxes of both (it learned both sides: self-play,
        or seats that alternate); before its first box, its kind's usual side."""
        table = self.table
        sides = {table.to_move[box_of_board(table, board, "", min_choices=1)] for board in self.boxes}
        if not sides:
            return self.usual_side
        return sides.pop() if len(sides) == 1 else None

    def box_boards(self, side: int | None = None) -> list[str]:
        """The boards of the boxes it holds (``side`` None), or of every box it can have when it
        plays ``side``, opened or not: MENACE's 304 as X (Michie 1961), HER's 19 as Black (Gardner
        1962).  Sorted; :meth:`box_beads` gives each box's beads."""
        if side is None:
            return sorted(self.boxes_json())
        table = self.table
        return sorted(
            {
                table.boards[table.canonical[position]]
                for position in set(table.index.values())
                if not table.over[position]
                and len(table.moves[position]) >= self.min_choices
                and table.to_move[position] == side
            }
        )

    # what each learner defines ----------------------------------------------------------------

    def settings(self) -> dict[str, Any]:
        return {}

    def apply_settings(self, settings: Any, where: str) -> None:
        return None

    def boxes_json(self) -> dict[str, Any]:
        raise NotImplementedError

    def check_boxes(self, boxes: dict[str, Any], where: str) -> Any:
        raise NotImplementedError

    def install_boxes(self, checked: Any) -> None:
        raise NotImplementedError

    def reinforce(self, drawn: list[tuple[S, str]], outcome: int) -> None:
        raise NotImplementedError
