"""The learners as the web app shows and keeps them, one set per browser.

A learner (HER, HIM, MENACE, the thesis memory) is made by ``make_player`` like any player; this
module only moves its memory between the player and the store under the browser's ``owner`` id,
and describes it for the page the way the seeds show it: HER's and MENACE's boxes with their beads
(seed 003: "the bead it drew is taken out ... an empty ring is left where the bead was"), the Teeko
memory's recall (seed 000: "it looks for the positions its next move can reach, and takes the one
with the most wins over losses").  It decides nothing and knows no rule: legal moves, symmetries
and boards come from the game object, choices from the player.

Each learner module is written by another part of the project and may be absent; an adapter then
says the learner is not available instead of failing.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from ..games import Game
from ..players.base import Player
from ..store.db import Store

#: The store name of a browser's learner (one per kind and game); the owner id tells browsers apart.
WEB_LEARNER_NAME = "web"


def spec_kind(spec: str) -> str:
    return spec.strip().partition(":")[0]


def bead_text(bead: Any) -> str:
    """A bead as a move in the game's notation ('63'); seed 003's tuples (6, 3) read the same."""
    if isinstance(bead, (tuple, list)):
        return "".join(str(part) for part in bead)
    return str(bead)


@dataclass(frozen=True)
class Export:
    filename: str
    media_type: str
    content: bytes


class LearnerAdapter:
    """How the web app keeps and shows one kind of learner.  Subclasses override what they know."""

    kinds: frozenset[str] = frozenset()
    store_kind: str = ""
    #: The games this learner plays (its memory is kept per game).
    games: frozenset[str] = frozenset()

    def available(self) -> tuple[bool, str]:
        return True, ""

    def load(self, store: Store, owner: str, game: Game, player: Player) -> None:
        """Put the owner's saved memory into a freshly made player (nothing saved: leave it new)."""

    def save(self, store: Store, owner: str, game: Game, player: Player) -> None:
        """Keep the player's memory for the owner (one transaction)."""

    def snapshot(self, player: Player) -> Any:
        """A copy of what learning may change, to tell the page what a game taught."""
        return None

    def changes(self, game: Game, before: Any, player: Player) -> list[dict[str, Any]]:
        return []

    def probe(self, game: Game, player: Player, state: Hashable, move: str | None) -> dict[str, Any] | None:
        """What the learner looked at to choose ``move`` in ``state`` (its box, its recall)."""
        return None

    def view(self, game: Game, player: Player, focus: list[str] | None = None) -> dict[str, Any]:
        return {}

    def reset(self, store: Store, owner: str, game: Game) -> bool:
        return store.delete_learner(self.store_kind or game.name, self.store_name(game), owner=owner)

    def export(self, store: Store, owner: str, game: Game) -> Export | None:
        return None

    def store_name(self, game: Game) -> str:
        return f"{WEB_LEARNER_NAME}-{game.name}"


# Matchboxes: HER, HIM (hexapawn), MENACE (tic-tac-toe) ----------------------------------------------


class MatchboxAdapter(LearnerAdapter):
    """players/matchbox.py's learners: ``player.boxes`` maps a box's canonical board to its beads
    (HER and HIM: a list of moves, copies allowed for HIM; MENACE: colour -> count).  The payload
    is the player's own (``payload()`` / ``load_payload``), the JSON its ``export_boxes`` writes."""

    kinds = frozenset({"her", "him", "menace"})

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.store_kind = kind
        self.games = frozenset({"tictactoe" if kind == "menace" else "hexapawn"})

    def load(self, store: Store, owner: str, game: Game, player: Player) -> None:
        payload = store.load_learner(self.kind, self.store_name(game), owner=owner)
        if payload is not None:
            player.load_payload(payload, where=f"this browser's {self.kind}")  # type: ignore[attr-defined]

    def save(self, store: Store, owner: str, game: Game, player: Player) -> None:
        store.save_learner(self.kind, self.store_name(game), player.payload(), owner=owner)  # type: ignore[attr-defined]

    @staticmethod
    def counts(beads: Any) -> Counter[str]:
        if isinstance(beads, dict):  # MENACE: colour -> count
            return Counter({str(colour): int(count) for colour, count in beads.items()})
        return Counter(bead_text(b) for b in beads)

    def snapshot(self, player: Player) -> Any:
        return {str(k): self.counts(v) for k, v in getattr(player, "boxes", {}).items()}

    def changes(self, game: Game, before: Any, player: Player) -> list[dict[str, Any]]:
        after = self.snapshot(player)
        found = []
        for box in sorted(set(before) | set(after)):
            old, new = before.get(box, Counter()), after.get(box, Counter())
            removed, added = old - new, new - old
            if removed or added:
                found.append({"box": box, "removed": sorted(removed.elements()), "added": sorted(added.elements())})
        return found

    def probe(self, game: Game, player: Player, state: Hashable, move: str | None) -> dict[str, Any] | None:
        """The box the learner opened for ``state`` and the bead its ``move`` came from."""
        position, box, symmetry = player.box_position(state)  # type: ignore[attr-defined]
        table = player.table  # type: ignore[attr-defined]
        if self.kind == "menace" and len(table.moves[position]) == 1:
            return {
                "learner": self.kind,
                "box": None,
                "bead": None,
                "resigned": False,
                "note": "one legal move: no box",
            }
        board = table.boards[box]
        bead = game.transform_move(move, symmetry) if move is not None else None
        if bead is not None and self.kind == "menace":
            bead = player.colours(box)[1][bead]  # type: ignore[attr-defined]
        return {
            "learner": self.kind,
            "box": board,
            "mirrored": symmetry != 0,
            "bead": bead,
            "resigned": move is None,
        }

    def describe_box(self, player: Player, board: str, beads: Any) -> dict[str, Any]:
        """A box with every bead colour it ever had: count 0 is the empty ring a lost bead leaves."""
        counts = self.counts(beads)
        if isinstance(beads, dict):
            colours = list(beads)  # MENACE keeps a zero count for a colour it has run out of
        else:
            colours = []
            try:  # HER's and HIM's new box: a bead for every legal move (seed 003's order)
                from ..players.matchbox import box_of_board

                position = box_of_board(player.table, board, "box", min_choices=1)  # type: ignore[attr-defined]
                colours = list(player.new_box(position))  # type: ignore[attr-defined]
            except (ImportError, ValueError, AttributeError):
                pass  # without the full set, show the beads there are (no empty rings)
            colours += [bead for bead in counts if bead not in colours]
        # A list of [move, count] pairs, not an object: the page keeps the box's own bead order
        # (JavaScript would put "24" before "03" in an object's keys).
        return {
            "board": board,
            "beads": [[colour, counts.get(colour, 0)] for colour in colours],
            "count": sum(counts.values()),
        }

    def view(self, game: Game, player: Player, focus: list[str] | None = None) -> dict[str, Any]:
        boxes = getattr(player, "boxes", {})
        if game.name == "hexapawn":
            shown = sorted(boxes)  # all of HER's boxes (19 at most) fit on the page, as in Gardner's picture
        else:  # MENACE has up to 304: the boxes it opened in this game
            shown = [box for box in dict.fromkeys(focus or []) if box in boxes]
        return {
            "kind": self.kind,
            "boxes_total": len(boxes),
            "beads_total": sum(self.counts(v).total() for v in boxes.values()),
            "boxes": [self.describe_box(player, str(b), boxes[b]) for b in shown],
        }

    def export(self, store: Store, owner: str, game: Game) -> Export | None:
        payload = store.load_learner(self.kind, self.store_name(game), owner=owner)
        if payload is None:
            from ..players.registry import make_player

            payload = make_player(game, self.kind).payload()  # type: ignore[attr-defined]
        content = json.dumps(payload, indent=1, sort_keys=True).encode()
        return Export(f"{self.kind}-boxes.json", "application/json", content)


# The Teeko thesis memory (players/thesis/, seed 000) ---------------------------------------------


class ThesisAdapter(LearnerAdapter):
    """The thesis player's memory.m, kept as the store's ordered memory entries under the browser's
    owner (file order matters: recall breaks ties by the earliest record, THESIS-FACTS.md a)."""

    kinds = frozenset({"thesis"})
    store_kind = "thesis-memory"
    games = frozenset({"teeko"})
    #: The recall table shows at most this many positions.
    RECALL_ROWS = 40

    def available(self) -> tuple[bool, str]:
        try:
            from ..players.thesis.memory import Memory  # noqa: F401
        except ImportError as error:
            return False, f"the thesis player is not installed here ({error})"
        return True, ""

    def load(self, store: Store, owner: str, game: Game, player: Player) -> None:
        from ..players.thesis.memory import Memory

        entries = store.load_memory(self.store_name(game), owner=owner)
        player.memory = Memory(entries or ())  # type: ignore[attr-defined]

    def save(self, store: Store, owner: str, game: Game, player: Player) -> None:
        changes = player.memory.take_changes()  # type: ignore[attr-defined]
        if changes:
            store.update_memory(self.store_name(game), changes, owner=owner)

    def snapshot(self, player: Player) -> Any:
        return len(player.memory)  # type: ignore[attr-defined]

    def changes(self, game: Game, before: Any, player: Player) -> list[dict[str, Any]]:
        memory = player.memory  # type: ignore[attr-defined]
        changed: set[int] = getattr(memory, "changed", set())
        added = sum(1 for position in changed if position >= before)
        adjusted = len(changed) - added
        if not changed:
            return []
        text = f"{added} positions added to its memory, {adjusted} adjusted (seed 000: Add/Adjust)"
        return [{"box": None, "removed": [], "added": [], "text": text}]

    def probe(self, game: Game, player: Player, state: Hashable, move: str | None) -> dict[str, Any] | None:
        """Recall for the move it plays: the positions its moves can reach that the memory holds,
        with the games X and O won from each (a position and its X/O swap are one record)."""
        from ..players.thesis.board import key, swap_key

        memory = player.memory  # type: ignore[attr-defined]
        mover = game.to_move(state)
        original = bool(getattr(player, "original", False))
        rows: list[dict[str, Any]] = []
        for candidate in game.legal_moves(state):
            after = game.play(state, candidate)
            k = key(after.x, after.o)  # side +1 ('1') is X
            for record, swapped in ((memory.index.get(k), False), (memory.index.get(swap_key(k)), True)):
                if record is None:
                    continue
                first, second = memory.first[record], memory.second[record]
                x_wins, o_wins = (second, first) if swapped else (first, second)
                # Fixed: each side reads the memory from its own side; the original always as X.
                score = x_wins - o_wins if (mover == 0 or original) else o_wins - x_wins
                rows.append(
                    {
                        "move": candidate,
                        "board": game.board(after),
                        "record": record,
                        "x_wins": x_wins,
                        "o_wins": o_wins,
                        "score": score,
                        "chosen": candidate == move,
                    }
                )
        rows.sort(key=lambda row: (-row["score"], row["record"]))
        decision = getattr(player, "last_decision", None)
        return {
            "learner": "thesis",
            "box": None,
            "move": move,
            "adviser": getattr(decision, "source", None),
            "recall": rows[: self.RECALL_ROWS],
            "recall_total": len(rows),
        }

    def view(self, game: Game, player: Player, focus: list[str] | None = None) -> dict[str, Any]:
        return {"kind": "thesis", "memory_entries": len(player.memory)}  # type: ignore[attr-defined]

    def reset(self, store: Store, owner: str, game: Game) -> bool:
        return store.delete_memory(self.store_name(game), owner=owner)

    def export(self, store: Store, owner: str, game: Game) -> Export | None:
        from ..store.thesis_memories import format_memory

        entries = store.load_memory(self.store_name(game), owner=owner) or []
        return Export("memory.m", "application/octet-stream", format_memory(entries))


ADAPTERS: dict[str, LearnerAdapter] = {kind: MatchboxAdapter(kind) for kind in ("her", "him", "menace")}
ADAPTERS["thesis"] = ThesisAdapter()


def adapter_for(spec: str) -> LearnerAdapter | None:
    return ADAPTERS.get(spec_kind(spec))
