"""The matchbox learners: Gardner's HER and HIM for hexapawn (Gardner, "A Matchbox
Game-Learning Machine", 1962) and Michie's MENACE for tic-tac-toe (1961), each also for any game of
another author that always ends and fits their tables (:mod:`.tables`: at most the exhaustive
solver's 5,000,000 reachable positions).

A learner keeps a box per position it has to move in, named by the position's canonical image
under the game's symmetries (Gardner: one box serves a position and its mirror image), so a
position and its mirror image share a box.  A box holds beads, one per move; the learner shakes the
box (a seeded random draw) and plays the bead's move, seen back in the real orientation.  An empty
box resigns (``choose`` returns None and play_game records End.RESIGN).

Learning reads the finished game from its record, so a learner needs no memory of its own between
``choose`` and ``learn``: each of its moves is mapped back to (box, bead).

* HER: after a loss the bead of its last move comes out.  If it resigned, that is the bead of the
  move before the empty box (Gardner 1962: an empty box resigns, and the bead of
  the move before is taken out").
* HIM: HER, plus Gardner's reward: after a win a second copy of every bead it drew goes back in its
  box (Gardner 1962's suggested variant).
* MENACE: a box per position where it is to move and has more than one choice; the bead colours are
  the moves, symmetric moves of the box's own position being one colour; each colour starts with
  beads by stage (default 4, 3, 2, 1 for its 1st to 4th move); after a game every bead drawn is
  reinforced (default +3 win, +1 draw, -1 loss, never below zero).  With ``restock=on`` a box
  that has emptied is filled again with its first beads when MENACE next meets it, instead of
  resigning (a remedy for the early boxes that a strong opponent empties).

A learner's knowledge (:mod:`gamelearn.players.knowledge`) is one JSON document (:mod:`.checks`):
its kind, game, settings, the games it learned from and every box with its beads, checked box by
box when loaded.  With ``name=NAME`` the play layer's keeper keeps it in the store; ``train=off``
freezes it.  A learner of a game other than its own built-in one is kept under ``GAME/NAME``, so
that one name serves a learner of each game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...games import GAME_NAMES, Game
from ...games.hexapawn import pawn_moves
from ...games.record import GameRecord
from ..base import OptionValue, S
from ..knowledge import Advice, Box, BoxDraw, BoxesKnowledge, KnowledgeFormat, Learner, Lesson
from ..registry import Option, PlayerKind, parse_name, parse_switch, register
from .advice import her_advice, menace_advice
from .beads import (
    MENACE_BEADS,
    MENACE_REWARDS,
    bead_counts,
    bead_total,
    box_lesson,
    draw_colour,
    parse_beads,
    parse_reward,
)
from .checks import (
    FORMAT,
    FORMAT_VERSION,
    box_of_board,
    check_bead_lists,
    check_colour_counts,
    check_header,
    check_menace_settings,
)
from .tables import position_colours, position_table

__all__ = ["HerPlayer", "HimPlayer", "MatchboxPlayer", "MenacePlayer", "plays_plugged_in_game"]


# What HER, HIM and MENACE share ------------------------------------------------------------------


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
        """Beads taken out of and put into each box (:func:`.beads.box_lesson`)."""
        return box_lesson(self.kind, before, after, self.fresh_box)

    def advice(self) -> Advice | None:
        """Its empty boxes: a position where every move lost, as Gardner's rules mean (:mod:`.advice`)."""
        return her_advice(self.kind, self.boxes)

    def box(self, board: str) -> Box:
        """The box for ``board``, opened or not: its beads with their counts in the box's own order,
        every bead it ever held included (a count of 0 is the empty ring a lost bead leaves, as in
        Gardner's picture); a box not opened yet with the beads it will open with."""
        beads = self.boxes.get(board)  # read, never changed: no copy of every box
        fresh = bead_counts(self.fresh_box(board))
        counts = bead_counts(beads) if beads is not None else fresh
        order = list(fresh)
        order += [bead for bead in counts if bead not in order]
        return Box(board, tuple((bead, counts.get(bead, 0)) for bead in order), opened=beads is not None)

    def explain(self, state: S, move: str | None) -> BoxDraw:
        """The box the learner opened for ``state`` and the bead its ``move`` came from (no box
        where MENACE has one legal move)."""
        position, box, symmetry = self.box_position(state)
        if len(self.table.moves[position]) < self.min_choices:
            return BoxDraw(None)
        bead = self.game.transform_move(move, symmetry) if move is not None else None
        return BoxDraw(
            self.table.boards[box],
            bead=self.bead_of(box, bead) if bead is not None else None,
            mirrored=symmetry != 0,
            resigned=move is None,
        )

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
        1962).  Sorted; :meth:`box` gives each box with its beads."""
        if side is None:
            return sorted(self.boxes)  # read, never copied: asked on every answer with a panel
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


# HER and HIM ------------------------------------------------------------------------------------


class HerPlayer(MatchboxPlayer[S]):
    """Gardner's HER (1962): punishment only.  It plays either side; ``boxes`` maps the canonical
    board of each position it has met to its beads, moves in the game's notation (``"03"``): in
    hexapawn in the classroom module's order (square by square: straight, left, right), in another
    game in its ``legal_moves`` order."""

    kind = "her"
    game_name = "hexapawn"
    usual_side = 1  # Gardner 1962: HER plays Black, the second player
    #: HIM's reward: a second copy of every bead drawn goes back after a win.
    rewards_wins = False

    def __init__(
        self, game: Game[S], seed: int | None = None, name: str = "", train: bool = True, **kwargs: OptionValue
    ) -> None:
        self.boxes: dict[str, list[str]] = {}
        super().__init__(game, seed, name=name, train=train, **kwargs)

    def new_box(self, position: int) -> list[str]:
        """A bead for every legal move, in hexapawn in the classroom module's ``moves`` order."""
        if self.game.name != "hexapawn":
            return list(self.table.moves[position])
        board = self.table.boards[position]
        side = self.game.symbols[self.table.to_move[position]]
        return [f"{a}{b}" for a, b in pawn_moves(board, side)]

    def choose(self, state: S) -> str | None:
        _, box, k = self.box_position(state)
        board = self.table.boards[box]
        beads = self.box_to_draw_from(board, box)
        if not beads:
            return None  # an empty box: HER gives up
        bead = self.rng.choice(beads)
        return self.game.transform_move(bead, self.table.inverse_symmetry[k])

    def bead_in_box(self, state: S, move: str) -> tuple[list[str], str]:
        """The box (created if new) that ``move`` in ``state`` was drawn from, and the bead."""
        _, box, k = self.box_position(state)
        board = self.table.boards[box]
        if board not in self.boxes:
            self.boxes[board] = self.new_box(box)
        return self.boxes[board], self.game.transform_move(move, k)

    def reinforce(self, drawn: list[tuple[S, str]], outcome: int) -> None:
        if outcome < 0 and drawn:
            beads, bead = self.bead_in_box(*drawn[-1])
            if bead in beads:
                beads.remove(bead)  # out goes its last move's bead (one copy, for HIM)
        elif outcome > 0 and self.rewards_wins:
            for state, move in drawn:
                beads, bead = self.bead_in_box(state, move)
                beads.append(bead)  # HIM: a second copy goes back in

    # persistence -------------------------------------------------------------------------------

    def compatible_kinds(self) -> tuple[str, ...]:
        return ("her", "him")

    def boxes_json(self) -> dict[str, Any]:
        return {board: list(beads) for board, beads in sorted(self.boxes.items())}

    def check_boxes(self, boxes: dict[str, Any], where: str) -> dict[str, list[str]]:
        return check_bead_lists(self.table, boxes, where, self.new_box, copies=self.rewards_wins)

    def install_boxes(self, checked: dict[str, list[str]]) -> None:
        self.boxes = checked


class HimPlayer(HerPlayer[S]):
    """HER with Gardner's reward: a win puts a second copy of every bead it drew back in its box."""

    kind = "him"
    rewards_wins = True


# MENACE -----------------------------------------------------------------------------------------


class MenacePlayer(MatchboxPlayer[S]):
    """Michie's MENACE.  ``boxes`` maps each canonical board to its colours: the least move of each
    class of moves that the position's own symmetries map onto each other, and the bead count."""

    kind = "menace"
    game_name = "tictactoe"
    usual_side = 0  # Michie 1961: MENACE moves first, as X
    min_choices = 2

    def __init__(
        self,
        game: Game[S],
        seed: int | None = None,
        name: str = "",
        beads: tuple[int, ...] | str = MENACE_BEADS,
        win: int = MENACE_REWARDS[0],
        draw: int = MENACE_REWARDS[1],
        loss: int = MENACE_REWARDS[2],
        restock: bool = False,
        train: bool = True,
        **kwargs: OptionValue,
    ) -> None:
        self.beads_by_stage = parse_beads(beads) if isinstance(beads, str) else tuple(beads)
        self.rewards = (win, draw, loss)
        self.restock = restock
        self.boxes: dict[str, dict[str, int]] = {}
        options: dict[str, OptionValue] = {}
        if self.beads_by_stage != MENACE_BEADS:
            options["beads"] = "-".join(map(str, self.beads_by_stage))
        for key, value, default in zip(("win", "draw", "loss"), self.rewards, MENACE_REWARDS, strict=True):
            if value != default:
                options[key] = value
        if restock:
            options["restock"] = "on"
        #: The settings this player was made with other than the defaults: they win over a stored
        #: learner's own (``menace:name=m,restock=on`` turns restocking on for a kept MENACE).
        self.given = dict(options)
        super().__init__(game, seed, name=name, train=train, **options, **kwargs)

    def colours(self, box: int) -> tuple[tuple[str, ...], Mapping[str, str]]:
        """The colours of a box (sorted) and each legal move's colour (the game's, cached once)."""
        return position_colours(self.game, box)

    def bead_of(self, box: int, move: str) -> str:
        return self.colours(box)[1][move]

    def stage_beads(self, box: int) -> int:
        """Beads per colour for a new box: by its own move number there, the fewest plies from the
        start // 2 (in tic-tac-toe the pieces on the board // 2, as Michie staged his boxes)."""
        stage = self.table.depth[box] // 2
        return self.beads_by_stage[min(stage, len(self.beads_by_stage) - 1)]

    def new_box(self, box: int) -> dict[str, int]:
        count = self.stage_beads(box)
        return {colour: count for colour in self.colours(box)[0]}

    def choose(self, state: S) -> str | None:
        position, box, k = self.box_position(state)
        moves = self.table.moves[position]
        if len(moves) == 1:
            return moves[0]  # one choice: no box
        board = self.table.boards[box]
        counts = self.box_to_draw_from(board, box)
        if self.restock and not any(counts.values()):
            counts = self.new_box(box)  # drawn as restocked; learn() restocks the kept box
        colour = draw_colour(self.rng, counts)
        if colour is None:
            return None  # an empty box resigns
        return self.game.transform_move(colour, self.table.inverse_symmetry[k])

    def reinforce(self, drawn: list[tuple[S, str]], outcome: int) -> None:
        delta = self.rewards[0] if outcome > 0 else self.rewards[1] if outcome == 0 else self.rewards[2]
        for state, move in drawn:
            position, box, k = self.box_position(state)
            if len(self.table.moves[position]) == 1:
                continue
            board = self.table.boards[box]
            counts = self.boxes.setdefault(board, self.new_box(box))
            if self.restock and not any(counts.values()):
                counts.update(self.new_box(box))  # the box it drew from as restocked
            colour = self.colours(box)[1][self.game.transform_move(move, k)]
            counts[colour] = max(0, counts[colour] + delta)

    def advice(self) -> Advice | None:
        return menace_advice(self.boxes, self.rewards, self.restock)

    def settings(self) -> dict[str, Any]:
        return {
            "beads": list(self.beads_by_stage),
            "win": self.rewards[0],
            "draw": self.rewards[1],
            "loss": self.rewards[2],
            "restock": self.restock,
        }

    def apply_settings(self, settings: Any, where: str) -> None:
        # the boxes carry their own counts; the settings say how new boxes and rewards work, and a
        # learner saved with other settings keeps them, but for those this player was given
        self.beads_by_stage, self.rewards, self.restock = check_menace_settings(
            settings, where, self.beads_by_stage, self.rewards, self.restock, keep=set(self.given)
        )

    def boxes_json(self) -> dict[str, Any]:
        return {board: dict(counts) for board, counts in sorted(self.boxes.items())}

    def check_boxes(self, boxes: dict[str, Any], where: str) -> dict[str, dict[str, int]]:
        return check_colour_counts(self.table, boxes, where, lambda box: self.colours(box)[0])

    def install_boxes(self, checked: dict[str, dict[str, int]]) -> None:
        self.boxes = checked


_NAME = Option("name", parse_name, "", "keep the boxes in the store under this name (the keeper loads and saves them)")
_TRAIN = Option("train", parse_switch, True, "learn from each game (off: frozen, a stored learner is only read)")
register(
    PlayerKind(
        "her",
        HerPlayer,
        "Gardner's matchbox learner (1962): a bead per move, a loss takes out the last bead",
        games=frozenset({"hexapawn"}),
        also_plays=plays_plugged_in_game,
        options=(_NAME, _TRAIN),
        learns=True,
    )
)
register(
    PlayerKind(
        "him",
        HimPlayer,
        "HER with Gardner's reward: a win puts back a second copy of every bead drawn",
        games=frozenset({"hexapawn"}),
        also_plays=plays_plugged_in_game,
        options=(_NAME, _TRAIN),
        learns=True,
    )
)
register(
    PlayerKind(
        "menace",
        MenacePlayer,
        "Michie's MENACE: beads by stage, +3 win / +1 draw / -1 loss",
        games=frozenset({"tictactoe"}),
        also_plays=plays_plugged_in_game,
        options=(
            _NAME,
            _TRAIN,
            Option("beads", parse_beads, MENACE_BEADS, "beads per colour at its 1st, 2nd, ... move, e.g. 4-3-2-1"),
            Option("win", parse_reward, MENACE_REWARDS[0], "beads added per drawn bead after a win"),
            Option("draw", parse_reward, MENACE_REWARDS[1], "beads added after a draw"),
            Option("loss", parse_reward, MENACE_REWARDS[2], "beads added after a loss (negative takes out)"),
            Option(
                "restock",
                parse_switch,
                False,
                "fill an emptied box again with its first beads when it is next met, instead of resigning",
            ),
        ),
        learns=True,
    )
)
