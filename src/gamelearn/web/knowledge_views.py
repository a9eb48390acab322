"""Every matchbox and every memory record of a browser's learners, for the page:
HER's, HIM's and MENACE's boxes with their beads, filtered to the boxes opened in a game, the
emptied ones or all; MENACE's first box over the games (as mscroggs' MENACE page charts it); the
thesis memory's records, searchable by position.

Everything is asked of the learner (``view()``, ``explain()``, ``learn()``; a matchbox learner's
``box_boards()`` and ``box_beads()``, the thesis memory's ``records()``), never read off its
knowledge's format.  Nothing here knows a rule beyond replaying a record's moves.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol, cast, runtime_checkable

from ..games import Game
from ..games.specs import spec_name
from ..keeper import Keeper
from ..match import End, GameRecord
from ..players.knowledge import Learner
from ..players.matchbox.learners import BoxesView
from ..store.store import Store

#: At most this many boxes or records answer one request (MENACE has 304 boxes).
PAGE = 60
SHOWS = ("all", "opened", "emptied")
#: A board with X and O swapped (a memory record stands for a position and its swap).
X_O_SWAP = str.maketrans("XO", "OX")


@runtime_checkable
class BoxLearner(Protocol):
    """A learner that keeps matchboxes (HER, HIM, MENACE)."""

    def box_boards(self, side: int | None = None) -> list[str]: ...

    def box_beads(self, board: str) -> list[tuple[str, int]]: ...

    def view(self, focus: list[str] | None = None) -> BoxesView: ...


@runtime_checkable
class MemoryLearner(Protocol):
    """A learner that keeps a position memory (the thesis program)."""

    def records(self) -> list[tuple[str, int, int]]: ...


def matchbox_boxes(learner: Learner, show: str, opened: list[str], offset: int, limit: int) -> dict[str, Any]:
    """A matchbox learner's boxes (as it holds them now): ``show`` all, those ``opened`` (in a
    game), or the emptied."""
    if show not in SHOWS:
        raise ValueError(f"show is one of {', '.join(SHOWS)}, not {show[:20]!r}")
    if not isinstance(learner, BoxLearner):
        raise ValueError(f"{learner.kind} keeps no matchboxes")
    boards = learner.box_boards()
    view = learner.view(focus=boards)
    boxes = view["boxes"]
    if show == "opened":
        wanted = list(dict.fromkeys(opened))
        by_board = {box["board"]: box for box in boxes}
        boxes = [by_board[b] for b in wanted if b in by_board]
    elif show == "emptied":
        boxes = [box for box in boxes if box["count"] == 0]
    return {
        "kind": learner.kind,
        "show": show,
        "total": len(boxes),
        "boxes_total": view["boxes_total"],
        "beads_total": view["beads_total"],
        "offset": offset,
        "boxes": boxes[offset : offset + max(1, min(limit, PAGE))],
    }


def first_box_history(
    store: Store, owner: str, game: Game, learner: Learner, records: list[dict[str, Any]]
) -> dict[str, Any]:
    """The bead counts of the learner's first box after each of its games: its kept games
    (``records``, oldest first, since its last reset) replayed into a fresh learner of the same
    kind, which learns exactly as it did.

    The first box is chosen once: the one it opened for its first move in the first of those
    games.  That is the empty board's when it moves first, as on Michie's own chart; when it plays
    second it never meets the empty board, and its first box is the one after its first game's
    opening (the learner names it: a turned or mirrored opening is the same box), followed from
    then on whatever later openings are.  A point is None while the box does not exist yet (it
    is made the first time it is opened), so the chart starts where the box does, never at 0."""
    games: list[tuple[GameRecord, int | None]] = []
    firsts: list[str] = []
    for row in records:
        kinds = [spec_name(spec) for spec in row["players"]]
        if learner.kind not in kinds or row["end"] == End.ABANDONED.value:
            continue
        side = None if kinds.count(learner.kind) == 2 else kinds.index(learner.kind)
        record = GameRecord.from_dict(game, {**row, "game": game.name})
        states = record.states
        games.append((record, side))
        mover = 0 if side is None else side
        first_move = next((ply for ply, state in enumerate(states[:-1]) if game.to_move(state) == mover), None)
        if first_move is not None:
            opened = learner.explain(states[first_move], record.moves[first_move]) or {}
            box = opened.get("box")
            if isinstance(box, str) and box:
                firsts.append(box)
    empty = game.board(game.initial())
    tally = Counter(firsts)
    first = firsts[0] if firsts else empty  # chosen once: later games never move the chart to another box

    def counts() -> dict[str, int] | None:
        if not isinstance(learner, BoxLearner):
            return None
        view = learner.view(focus=[first])
        box = next((b for b in view["boxes"] if b["board"] == first), None)
        return {str(move): int(count) for move, count in box["beads"]} if box else None

    series = [counts()]
    for record, side in games:
        learner.learn(record, side)
        series.append(counts())
    moves = sorted({move for point in series if point is not None for move in point})
    return {
        "kind": learner.kind,
        "box": first,
        "empty_board": first == empty,
        "opened_first": tally[first],
        "moves": moves,
        "games": len(series) - 1,
        # after how many games the box first exists (None: not yet): where the chart begins
        "from_game": next((index for index, point in enumerate(series) if point is not None), None),
        "series": series,
    }


def memory_records(
    store: Store, owner: str, learner: Learner, position: str, offset: int, limit: int
) -> dict[str, Any]:
    """The thesis memory's records in file order, those matching ``position`` (25 squares of
    '.', 'X', 'O' or '?' for any; shorter matches the first squares), a record and its X/O swap
    being one."""
    if not isinstance(learner, MemoryLearner):
        raise ValueError(f"{learner.kind} keeps no position memory")
    Keeper(store, owner).attach(learner)
    entries = learner.records()
    pattern = position.strip().upper().replace("0", ".")
    if len(pattern) > 25 or set(pattern) - set(".XO?"):
        raise ValueError(f"a position is up to 25 squares of '.', 'X', 'O' or '?', not {position[:30]!r}")

    def matches(board: str) -> bool:
        swapped = board.translate(X_O_SWAP)
        return any(all(p in ("?", s) for p, s in zip(pattern, b, strict=False)) for b in (board, swapped))

    found = [
        {"record": index, "board": board, "x_wins": x, "o_wins": o}
        for index, (board, x, o) in enumerate(entries)
        if matches(board)
    ]
    return {
        "kind": learner.kind,
        "entries": len(entries),
        "total": len(found),
        "offset": offset,
        "records": found[offset : offset + max(1, min(limit, PAGE))],
    }


@runtime_checkable
class ValuingLearner(Protocol):
    """A learner that values each legal move itself (ntuple's afterstates, TD's table)."""

    def move_values(self, state: Any) -> dict[str, float]: ...


def move_views(learner: Learner, game: Game, state: Any) -> dict[str, Any]:
    """What the learner itself makes of each legal move in ``state``, in its own terms: a matchbox
    learner's beads for it in the box it opens, the thesis memory's record of the position it
    reaches, a learner's own value of it (ntuple, TD), az's network prior and search share.
    ``note`` says the position as a whole (the box, the network's value); a move the learner has
    nothing to say of is left out of ``moves``."""
    legal = game.legal_moves(state)
    if isinstance(learner, BoxLearner):
        return _box_views(learner, state, legal)
    if isinstance(learner, MemoryLearner):
        return _recall_views(learner, state, legal)
    if isinstance(learner, ValuingLearner):
        values = learner.move_values(state)
        moves = {move: {"text": f"value {value:.3f}", "score": round(value, 3)} for move, value in values.items()}
        return {"note": "its own value of each move (1 a win for the side to move, 0 a loss)", "moves": moves}
    return _explained_views(learner, state)


def _recall_views(learner: Learner, state: Any, legal: list[str]) -> dict[str, Any]:
    """The thesis memory's record of each position a move reaches (its recall for the position)."""
    recall = (learner.explain(state, None) or {}).get("recall")
    rows: list[dict[str, Any]] = recall if isinstance(recall, list) else []
    moves = {
        row["move"]: {"text": f"X won {row['x_wins']}, O won {row['o_wins']} from there", "score": row["score"]}
        for row in rows
    }
    return {"note": f"its memory holds {len(moves)} of the {len(legal)} positions these moves reach", "moves": moves}


def _explained_views(learner: Learner, state: Any) -> dict[str, Any]:
    """What the learner's ``explain`` lists of its first choices (az: its network's prior and its
    search's share of each), and the value it gives the position."""
    said = learner.explain(state, None) or {}
    listed = said.get("moves")
    rows: list[dict[str, Any]] = listed if isinstance(listed, list) else []
    moves = {}
    for row in rows:
        parts = [f"{key} {value}" for key, value in row.items() if key != "move"]
        moves[str(row["move"])] = {"text": ", ".join(parts), "score": row.get("search", row.get("value"))}
    value = said.get("value")
    note = f"its network's value of the position: {value}" if value is not None else "its view of its first choices"
    return {"note": note, "moves": moves}


def _box_views(learner: Learner, state: Any, legal: list[str]) -> dict[str, Any]:
    """The box a matchbox learner opens in ``state`` and the beads each move is drawn from."""
    first = learner.explain(state, legal[0]) or {}
    box = first.get("box")
    if not isinstance(box, str):
        return {"note": str(first.get("note") or "no box here"), "moves": {}}
    counts = dict(cast(BoxLearner, learner).box_beads(box))
    total = sum(counts.values())
    turned = " (the board turned or mirrored)" if first.get("mirrored") else ""
    moves = {}
    for move in legal:
        bead = (learner.explain(state, move) or {}).get("bead")
        count = counts.get(str(bead), 0)
        moves[move] = {"text": f"bead {bead}: {count} of {total}", "score": count, "bead": bead}
    beads = "bead" if total == 1 else "beads"
    return {"note": f"box {box}{turned}: {total} {beads}", "box": box, "moves": moves}
