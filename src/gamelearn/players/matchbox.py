"""The matchbox learners: Gardner's HER and HIM for hexapawn (seed 003; Gardner, "A Matchbox
Game-Learning Machine", 1962) and Michie's MENACE for tic-tac-toe (1961).

A learner keeps a box per position it has to move in, named by the position's canonical image
under the game's symmetries (seed 003: ``if mirror(board) < board: board = mirror(board)``), so a
position and its mirror image share a box.  A box holds beads, one per move; the learner shakes the
box (a seeded random draw) and plays the bead's move, seen back in the real orientation.  An empty
box resigns (``choose`` returns None and play_game records End.RESIGN).

Learning reads the finished game from its record, so a learner needs no memory of its own between
``choose`` and ``learn``: each of its moves is mapped back to (box, bead).

* HER: after a loss the bead of its last move comes out.  If it resigned, that is the bead of the
  move before the empty box (seed 003: "when HER opens an empty box it gives up, and the bead of
  the move before is taken out").
* HIM: HER, plus Gardner's reward: after a win a second copy of every bead it drew goes back in its
  box (seed 003's closing exercise).
* MENACE: a box per position where it is to move and has more than one choice; the bead colours are
  the moves, symmetric moves of the box's own position being one colour; each colour starts with
  beads by stage (default 4, 3, 2, 1 for its 1st to 4th move); after a game every bead drawn is
  reinforced (default +3 win, +1 draw, -1 loss, never below zero).

With ``name=...`` a learner loads its boxes from the store at construction and saves them after
every ``learn``; the payload is the same JSON that ``export_boxes`` writes, checked box by box.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..games import Game
from ..games.hexapawn import pawn_moves
from ..store.files import atomic_write_bytes
from .base import Player
from .matchbox_tables import colour_of, position_table, stabilizer
from .registry import Option, PlayerKind, register

if TYPE_CHECKING:
    from ..match import GameRecord
    from ..store.db import Store

FORMAT = "gamelearn-matchboxes"
FORMAT_VERSION = 1

#: MENACE's defaults (Michie 1961): beads per colour at its 1st, 2nd, 3rd and 4th move, and rewards.
MENACE_BEADS = (4, 3, 2, 1)
MENACE_REWARDS = (3, 1, -1)


class MatchboxPlayer(Player):
    """What HER, HIM and MENACE share: boxes named by canonical boards, persistence, export."""

    kind = "matchbox"
    game_name = ""

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        name: str = "",
        store: Store | None = None,
        owner: str = "local",
        **options: Any,
    ) -> None:
        if game.name != self.game_name:
            raise ValueError(f"{self.kind} plays {self.game_name}, not {game.name}")
        shown = {"name": name, **options} if name else options
        super().__init__(game, seed, **shown)
        self.name = name
        self.owner = owner
        self._store = store
        self.games_played = 0
        self._last_record: GameRecord | None = None
        self._learned_sides: tuple[int, ...] = ()
        self.table = position_table(game.name)
        if name:
            where = f"{self.kind} {name!r} in the store"
            try:
                payload = self.store().load_learner(self.kind, name, owner=owner)
            except ValueError as error:  # a payload that is not JSON (json.JSONDecodeError)
                raise ValueError(f"{where}: {error}") from None
            if payload is not None:
                self.load_payload(payload, where=where)

    # persistence -------------------------------------------------------------------------------

    def store(self) -> Store:
        if self._store is None:
            from ..store.db import Store

            self._store = Store()
        return self._store

    def save(self) -> None:
        if self.name:
            self.store().save_learner(self.kind, self.name, self.payload(), owner=self.owner)

    def payload(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "kind": self.kind,
            "game": self.game.name,
            "games": self.games_played,
            "settings": self.settings(),
            "boxes": self.boxes_json(),
        }

    def load_payload(self, payload: Any, where: str) -> None:
        """Replace the boxes with ``payload``'s after checking all of it; a bad payload raises
        ValueError naming ``where``, the box and what is wrong, and changes nothing."""
        if not isinstance(payload, dict):
            raise ValueError(f"{where}: not a matchbox file (a JSON object is expected)")
        if payload.get("format") != FORMAT:
            raise ValueError(f"{where}: not a matchbox file (format {payload.get('format')!r}, expected {FORMAT!r})")
        if payload.get("version") != FORMAT_VERSION:
            raise ValueError(f"{where}: matchbox format version {payload.get('version')!r} is not supported")
        if payload.get("game") != self.game.name:
            raise ValueError(f"{where}: boxes for {payload.get('game')!r}, not {self.game.name}")
        if payload.get("kind") not in self.compatible_kinds():
            raise ValueError(f"{where}: boxes of a {payload.get('kind')!r}, not a {self.kind}")
        games = payload.get("games", 0)
        if not isinstance(games, int) or isinstance(games, bool) or games < 0:
            raise ValueError(f"{where}: 'games' must be a whole number >= 0, not {games!r}")
        boxes = payload.get("boxes")
        if not isinstance(boxes, dict):
            raise ValueError(f"{where}: 'boxes' must be an object from board to beads")
        checked = self.check_boxes(boxes, where)
        self.apply_settings(payload.get("settings", {}), where)
        self.install_boxes(checked)
        self.games_played = games

    def compatible_kinds(self) -> tuple[str, ...]:
        return (self.kind,)

    def export_boxes(self, path: str | Path) -> None:
        """Write the boxes as JSON, atomically (a temporary file, then a rename)."""
        write_json_atomically(Path(path), self.payload())

    def import_boxes(self, path: str | Path) -> None:
        """Read boxes from a JSON file written by ``export_boxes``; a bad file changes nothing."""
        path = Path(path)
        try:
            payload = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise ValueError(f"{path}: cannot read it ({error.strerror or error})") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ValueError(f"{path}: not a JSON matchbox file ({error})") from None
        self.load_payload(payload, where=str(path))

    # the box of a position ---------------------------------------------------------------------

    def box_position(self, state: Hashable) -> tuple[int, int, int]:
        """(index of the position, index of its canonical image = the box, symmetry taking it there)."""
        position = self.table.index.get(state)
        if position is None:
            raise ValueError(
                f"{self.kind}: {self.game.board(state)!r} is not a position a game of {self.game.name} reaches from the start"
            )
        if not self.table.moves[position]:  # a finished game has no box: asking is an error, not a resignation
            self.moves_to_choose_from(state)
        return position, self.table.canonical[position], self.table.symmetry[position]

    def learn(self, record: GameRecord, side: int | None = None) -> None:
        """Update the boxes from a finished game; ``side`` None means it played both sides."""
        sides: tuple[int, ...] = (0, 1) if side is None else (side,)
        if self._last_record is record:
            # the same game again (a caller that seats one learner twice may call learn once per
            # seat and once for both): each side of a game is learned once, whatever the calls
            sides = tuple(s for s in sides if s not in self._learned_sides)
        else:
            self._last_record, self._learned_sides = record, ()
            self.games_played += 1
        self._learned_sides += sides
        for mover in sides:
            drawn = [
                (state, move)
                for state, move in zip(record.states, record.moves, strict=False)
                if self.game.to_move(state) == mover
            ]
            outcome = 0 if record.winner is None else (1 if record.winner == mover else -1)
            self.reinforce(drawn, outcome)
        self.save()

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

    def reinforce(self, drawn: list[tuple[Hashable, str]], outcome: int) -> None:
        raise NotImplementedError


def write_json_atomically(path: Path, payload: Any) -> None:
    """Write JSON whole or not at all, through the one writer of exported files (store.files: a
    temporary file renamed over ``path``, a new file's mode as open() gives it, a missing folder
    refused with a ValueError)."""
    text = json.dumps(payload, indent=1, sort_keys=True) + "\n"
    atomic_write_bytes(path, text.encode("utf-8"))


# HER and HIM ------------------------------------------------------------------------------------


class HerPlayer(MatchboxPlayer):
    """Gardner's HER (seed 003): punishment only.  It plays either side; ``boxes`` maps the canonical
    board of each position it has met to its beads, moves in the game's notation (``"03"``), in
    seed 003's order (square by square: straight, left, right)."""

    kind = "her"
    game_name = "hexapawn"
    #: HIM's reward: a second copy of every bead drawn goes back after a win.
    rewards_wins = False

    def __init__(self, game: Game, seed: int | None = None, name: str = "", **kwargs: Any) -> None:
        self.boxes: dict[str, list[str]] = {}
        super().__init__(game, seed, name=name, **kwargs)

    def new_box(self, position: int) -> list[str]:
        """A bead for every legal move, in seed 003's ``moves`` order."""
        board = self.table.boards[position]
        side = self.game.symbols[self.table.to_move[position]]
        return [f"{a}{b}" for a, b in pawn_moves(board, side)]

    def choose(self, state: Hashable) -> str | None:
        _, box, k = self.box_position(state)
        board = self.table.boards[box]
        if board not in self.boxes:
            self.boxes[board] = self.new_box(box)
        beads = self.boxes[board]
        if not beads:
            return None  # an empty box: HER gives up
        bead = self.rng.choice(beads)
        return self.game.transform_move(bead, self.table.inverse_symmetry[k])

    def bead_in_box(self, state: Hashable, move: str) -> tuple[list[str], str]:
        """The box (created if new) that ``move`` in ``state`` was drawn from, and the bead."""
        _, box, k = self.box_position(state)
        board = self.table.boards[box]
        if board not in self.boxes:
            self.boxes[board] = self.new_box(box)
        return self.boxes[board], self.game.transform_move(move, k)

    def reinforce(self, drawn: list[tuple[Hashable, str]], outcome: int) -> None:
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
        checked: dict[str, list[str]] = {}
        for board, beads in boxes.items():
            position = box_of_board(self.table, board, where, min_choices=1)
            legal = set(self.new_box(position))
            if not isinstance(beads, list):
                raise ValueError(f"{where}: box {board!r}: beads must be a list of moves, not {beads!r}")
            for bead in beads:
                if not isinstance(bead, str) or bead not in legal:
                    raise ValueError(
                        f"{where}: box {board!r}: bead {bead!r} is not a legal move there (legal: {', '.join(sorted(legal))})"
                    )
            if not self.rewards_wins:
                for bead in set(beads):
                    if beads.count(bead) > 1:
                        raise ValueError(
                            f"{where}: box {board!r}: bead {bead!r} is there {beads.count(bead)} times; HER has one of each (HIM may have copies)"
                        )
            checked[board] = list(beads)
        return checked

    def install_boxes(self, checked: dict[str, list[str]]) -> None:
        self.boxes = checked


class HimPlayer(HerPlayer):
    """HER with Gardner's reward: a win puts a second copy of every bead it drew back in its box."""

    kind = "him"
    rewards_wins = True


def box_of_board(table: Any, board: Any, where: str, min_choices: int) -> int:
    """The position a box's name stands for; ValueError unless it is a canonical, unfinished
    position with at least ``min_choices`` moves."""
    if not isinstance(board, str):
        raise ValueError(f"{where}: box name {board!r} is not a board string")
    position = _unfinished_positions(table.game_name).get(board)
    if position is None:
        raise ValueError(f"{where}: box {board!r}: not a position any game reaches with a move to make")
    if table.canonical[position] != position:
        raise ValueError(
            f"{where}: box {board!r}: not the canonical board (its box is {table.boards[table.canonical[position]]!r})"
        )
    if len(table.moves[position]) < min_choices:
        raise ValueError(f"{where}: box {board!r}: only one move there, so no box")
    return position


@cache
def _unfinished_positions(game_name: str) -> dict[str, int]:
    """Board -> position for every position with a move to make (in hexapawn and tic-tac-toe the
    board alone tells whose move it is there)."""
    table = position_table(game_name)
    return {board: i for i, board in enumerate(table.boards) if not table.over[i]}


# MENACE -----------------------------------------------------------------------------------------


def parse_beads(text: str) -> tuple[int, ...]:
    """Beads per colour by stage, written ``4-3-2-1`` (a spec's options are comma separated)."""
    try:
        values = tuple(int(part) for part in text.replace("/", "-").split("-"))
    except ValueError:
        raise ValueError(f"{text!r} is not beads by stage such as 4-3-2-1") from None
    if not values or any(v < 1 or v > 1000 for v in values):
        raise ValueError(f"{text!r}: each stage needs 1 to 1000 beads per colour")
    return values


def parse_reward(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number") from None
    if not -1000 <= value <= 1000:
        raise ValueError(f"{value} is outside -1000..1000")
    return value


class MenacePlayer(MatchboxPlayer):
    """Michie's MENACE.  ``boxes`` maps each canonical board to its colours: the least move of each
    class of moves that the position's own symmetries map onto each other, and the bead count."""

    kind = "menace"
    game_name = "tictactoe"

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        name: str = "",
        beads: tuple[int, ...] | str = MENACE_BEADS,
        win: int = MENACE_REWARDS[0],
        draw: int = MENACE_REWARDS[1],
        loss: int = MENACE_REWARDS[2],
        **kwargs: Any,
    ) -> None:
        self.beads_by_stage = parse_beads(beads) if isinstance(beads, str) else tuple(beads)
        self.rewards = (win, draw, loss)
        self.boxes: dict[str, dict[str, int]] = {}
        self._colours: dict[int, tuple[tuple[str, ...], dict[str, str]]] = {}
        options: dict[str, Any] = {}
        if self.beads_by_stage != MENACE_BEADS:
            options["beads"] = "-".join(map(str, self.beads_by_stage))
        for key, value, default in zip(("win", "draw", "loss"), self.rewards, MENACE_REWARDS, strict=True):
            if value != default:
                options[key] = value
        super().__init__(game, seed, name=name, **options, **kwargs)

    def colours(self, box: int) -> tuple[tuple[str, ...], dict[str, str]]:
        """The colours of a box (sorted) and each legal move's colour."""
        if box not in self._colours:
            state = self.table.states[box]
            fixed = stabilizer(self.game, state)
            colour = {move: colour_of(self.game, state, move, fixed) for move in self.table.moves[box]}
            self._colours[box] = (tuple(sorted(set(colour.values()), key=int)), colour)
        return self._colours[box]

    def stage_beads(self, box: int) -> int:
        """Beads per colour for a new box: by its own move number (pieces on the board // 2)."""
        stage = (9 - len(self.table.moves[box])) // 2
        return self.beads_by_stage[min(stage, len(self.beads_by_stage) - 1)]

    def new_box(self, box: int) -> dict[str, int]:
        count = self.stage_beads(box)
        return {colour: count for colour in self.colours(box)[0]}

    def choose(self, state: Hashable) -> str | None:
        position, box, k = self.box_position(state)
        moves = self.table.moves[position]
        if len(moves) == 1:
            return moves[0]  # one choice: no box
        board = self.table.boards[box]
        if board not in self.boxes:
            self.boxes[board] = self.new_box(box)
        colour = draw_colour(self.rng, self.boxes[board])
        if colour is None:
            return None  # an empty box resigns
        return self.game.transform_move(colour, self.table.inverse_symmetry[k])

    def reinforce(self, drawn: list[tuple[Hashable, str]], outcome: int) -> None:
        delta = self.rewards[0] if outcome > 0 else self.rewards[1] if outcome == 0 else self.rewards[2]
        for state, move in drawn:
            position, box, k = self.box_position(state)
            if len(self.table.moves[position]) == 1:
                continue
            board = self.table.boards[box]
            counts = self.boxes.setdefault(board, self.new_box(box))
            colour = self.colours(box)[1][self.game.transform_move(move, k)]
            counts[colour] = max(0, counts[colour] + delta)

    def settings(self) -> dict[str, Any]:
        return {
            "beads": list(self.beads_by_stage),
            "win": self.rewards[0],
            "draw": self.rewards[1],
            "loss": self.rewards[2],
        }

    def apply_settings(self, settings: Any, where: str) -> None:
        # the boxes carry their own counts; the settings say how new boxes and rewards work, and a
        # learner saved with other settings keeps them
        if not isinstance(settings, dict):
            raise ValueError(f"{where}: 'settings' must be an object")
        beads = settings.get("beads", list(self.beads_by_stage))
        if not isinstance(beads, list) or not beads or any(not isinstance(b, int) or b < 1 for b in beads):
            raise ValueError(f"{where}: settings 'beads' must be a list of whole numbers >= 1, not {beads!r}")
        rewards = []
        for key, default in zip(("win", "draw", "loss"), self.rewards, strict=True):
            value = settings.get(key, default)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{where}: settings {key!r} must be a whole number, not {value!r}")
            rewards.append(value)
        self.beads_by_stage = tuple(beads)
        self.rewards = (rewards[0], rewards[1], rewards[2])

    def boxes_json(self) -> dict[str, Any]:
        return {board: dict(counts) for board, counts in sorted(self.boxes.items())}

    def check_boxes(self, boxes: dict[str, Any], where: str) -> dict[str, dict[str, int]]:
        checked: dict[str, dict[str, int]] = {}
        for board, counts in boxes.items():
            box = box_of_board(self.table, board, where, min_choices=2)
            colours = self.colours(box)[0]
            if not isinstance(counts, dict):
                raise ValueError(f"{where}: box {board!r}: beads must be an object from colour to count")
            if set(counts) != set(colours):
                raise ValueError(
                    f"{where}: box {board!r}: colours {sorted(counts)} but the position has {list(colours)}"
                )
            for colour, count in counts.items():
                if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                    raise ValueError(
                        f"{where}: box {board!r}: colour {colour!r} has {count!r} beads, not a whole number >= 0"
                    )
            checked[board] = {colour: counts[colour] for colour in colours}
        return checked

    def install_boxes(self, checked: dict[str, dict[str, int]]) -> None:
        self.boxes = checked


def draw_colour(rng: Any, counts: dict[str, int]) -> str | None:
    """Shake the box: a bead drawn uniformly, so a colour with twice the beads is twice as likely.
    The walk is in the box's colour order, which the fast path repeats draw for draw."""
    total = sum(counts.values())
    if total <= 0:
        return None
    pick = rng.randrange(total)
    for colour, count in counts.items():
        if pick < count:
            return colour
        pick -= count
    raise AssertionError("unreachable: pick < total")


def _parse_name(text: str) -> str:
    """A learner's name in the store: as a memory's name, no control character."""
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise ValueError(f"learner name {text!r} holds a control character")
    return text


_NAME = Option(
    "name", _parse_name, "", "keep the boxes in the store under this name (loaded now, saved after each game)"
)
register(
    PlayerKind(
        "her",
        HerPlayer,
        "Gardner's matchbox learner (seed 003): a bead per move, a loss takes out the last bead",
        games=frozenset({"hexapawn"}),
        options=(_NAME,),
    )
)
register(
    PlayerKind(
        "him",
        HimPlayer,
        "HER with Gardner's reward: a win puts back a second copy of every bead drawn",
        games=frozenset({"hexapawn"}),
        options=(_NAME,),
    )
)
register(
    PlayerKind(
        "menace",
        MenacePlayer,
        "Michie's MENACE: beads by stage, +3 win / +1 draw / -1 loss",
        games=frozenset({"tictactoe"}),
        options=(
            _NAME,
            Option("beads", parse_beads, MENACE_BEADS, "beads per colour at its 1st, 2nd, ... move, e.g. 4-3-2-1"),
            Option("win", parse_reward, MENACE_REWARDS[0], "beads added per drawn bead after a win"),
            Option("draw", parse_reward, MENACE_REWARDS[1], "beads added after a draw"),
            Option("loss", parse_reward, MENACE_REWARDS[2], "beads added after a loss (negative takes out)"),
        ),
    )
)
