"""What a learner knows and looked at, as the page shows it: HER's, HIM's and MENACE's boxes with
their beads (every box of hexapawn, as in Gardner's picture, or the boxes opened in a game, the
emptied ones or all), what it looked at for a move (its box and bead, the thesis memory's recall, a
network's figures), MENACE's first box over the games (as mscroggs' MENACE page charts it), the
thesis memory's records, searchable by position, and each move's worth on the analysis board.

The learner says what it holds and what it looked at as typed values of its contract
(:mod:`gamelearn.players.knowledge`: ``describe()``, ``explain()``, a matchbox learner's ``box()``
and ``box_boards()``, the thesis memory's ``records()``); the page's words and shapes are made
here, never read off its knowledge's format.  Nothing here knows a rule beyond replaying a record's
moves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import Any, Protocol, runtime_checkable

from ..games import Game
from ..games.specs import spec_name
from ..keeper import Keeper
from ..match import End, GameRecord
from ..players.base import Player
from ..players.knowledge import Box, BoxDraw, Explanation, Learner, MoveScore, MoveScores, Recall
from ..store.store import Store
from .models import BoxesPage, BoxOut, Decision, FirstBox, MemoryPage, MemoryRecord, RecallRow

#: At most this many boxes or records answer one request (MENACE has 304 boxes).
PAGE = 60
SHOWS = ("all", "opened", "emptied")
#: A board with X and O swapped (a memory record stands for a position and its swap).
X_O_SWAP = str.maketrans("XO", "OX")
#: The recall table shows at most this many positions.
RECALL_ROWS = 40
#: The game whose every box a learner's panel shows: hexapawn's 19 at most fit a page, as in
#: Gardner 1962's picture; MENACE's 304 do not, so its panel shows the boxes opened in the game.
EVERY_BOX_SHOWN = "hexapawn"


@runtime_checkable
class BoxLearner(Protocol):
    """A learner that keeps matchboxes (HER, HIM, MENACE)."""

    def box_boards(self, side: int | None = None) -> list[str]: ...

    def box(self, board: str) -> Box: ...


@runtime_checkable
class MemoryLearner(Protocol):
    """A learner that keeps a position memory (the thesis program)."""

    def records(self) -> list[tuple[str, int, int]]: ...


def box_out(box: Box) -> BoxOut:
    """A box as the page draws it: its beads as (bead, count) pairs, 0 the empty ring of a lost bead."""
    return BoxOut(board=box.board, beads=list(box.beads), count=box.count)


def learner_knowledge(learner: Learner[Any, Any], focus: list[str]) -> dict[str, object]:
    """What a learner's panel at a table shows of what it knows: its counts (``describe()``); for a
    matchbox learner its boxes and beads in all, and the boxes shown (every box it holds for
    hexapawn; of another game, those of ``focus``, the boxes opened in the game); for the thesis
    memory its positions."""
    counts = learner.describe()
    if isinstance(learner, BoxLearner):
        held = learner.box_boards()
        kept = set(held)
        shown = held if learner.game.name == EVERY_BOX_SHOWN else [b for b in dict.fromkeys(focus) if b in kept]
        boxes = [box_out(learner.box(board)).model_dump() for board in shown]
        return {
            "kind": learner.kind,
            "boxes_total": counts["boxes"],
            "beads_total": counts["beads"],
            "games": counts["games"],
            "boxes": boxes,
        }
    if isinstance(learner, MemoryLearner):
        return {"kind": learner.kind, "memory_entries": counts["records"], **counts}
    return {"kind": learner.kind, **counts}


def decision(player: Player[Any], state: Hashable, move: str | None) -> Decision | None:
    """What a learner looked at for ``move`` (its box and bead, its recall, a network's figures),
    for the page; None for a player that keeps no knowledge, or a learner with nothing to say."""
    if not isinstance(player, Learner):
        return None
    said: Explanation | None = player.explain(state, move)
    shown: dict[str, object]
    if isinstance(said, BoxDraw):
        shown = {"learner": player.kind, "box": said.box}
        if said.box is None:  # MENACE with one legal move opens no box
            shown |= {"bead": None, "resigned": False, "note": "one legal move: no box"}
        else:
            shown |= {"mirrored": said.mirrored, "bead": said.bead, "resigned": said.resigned}
    elif isinstance(said, Recall):
        rows = [RecallRow(**vars(row)) for row in said.rows]
        shown = {"learner": player.kind, "box": None, "move": said.move, "adviser": said.adviser}
        shown |= {"recall": rows[:RECALL_ROWS], "recall_total": len(rows)}
    elif isinstance(said, MoveScores):
        shown = {} if said.value is None else {"value": said.value}
        shown["moves"] = [_figures(score) for score in said.moves]
    else:
        return None
    # the keys given, and only those, are sent (``exclude_unset``): each learner's own
    return Decision.model_validate(shown)


def _figures(score: MoveScore) -> dict[str, object]:
    """A first choice's figures that the learner gives, in the order value, search, prior."""
    figures = {"value": score.value, "search": score.search, "prior": score.prior}
    return {"move": score.move} | {key: value for key, value in figures.items() if value is not None}


def matchbox_boxes(learner: Learner[Any, Any], show: str, opened: list[str], offset: int, limit: int) -> BoxesPage:
    """A matchbox learner's boxes (as it holds them now): ``show`` all, those ``opened`` (in a
    game), or the emptied."""
    if show not in SHOWS:
        raise ValueError(f"show is one of {', '.join(SHOWS)}, not {show[:20]!r}")
    if not isinstance(learner, BoxLearner):
        raise ValueError(f"{learner.kind} keeps no matchboxes")
    held = learner.box_boards()
    boxes = [learner.box(board) for board in held]
    if show == "opened":
        by_board = {box.board: box for box in boxes}
        boxes = [by_board[b] for b in dict.fromkeys(opened) if b in by_board]
    elif show == "emptied":
        boxes = [box for box in boxes if box.count == 0]
    counts = learner.describe()
    return BoxesPage(
        kind=learner.kind,
        show=show,
        total=len(boxes),
        boxes_total=counts["boxes"],
        beads_total=counts["beads"],
        offset=offset,
        boxes=[box_out(box) for box in boxes[offset : offset + max(1, min(limit, PAGE))]],
    )


def first_box_history(
    store: Store, owner: str, game: Game, learner: Learner[Any, Any], records: list[dict[str, Any]]
) -> FirstBox:
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
            opened = learner.explain(states[first_move], record.moves[first_move])
            if isinstance(opened, BoxDraw) and opened.box:
                firsts.append(opened.box)
    empty = game.board(game.initial())
    tally = Counter(firsts)
    first = firsts[0] if firsts else empty  # chosen once: later games never move the chart to another box

    def counts() -> dict[str, int] | None:
        if not isinstance(learner, BoxLearner):
            return None
        box = learner.box(first)
        return dict(box.beads) if box.opened else None

    series = [counts()]
    for record, side in games:
        learner.learn(record, side)
        series.append(counts())
    moves = sorted({move for point in series if point is not None for move in point})
    return FirstBox(
        kind=learner.kind,
        box=first,
        empty_board=first == empty,
        opened_first=tally[first],
        moves=moves,
        games=len(series) - 1,
        # after how many games the box first exists (None: not yet): where the chart begins
        from_game=next((index for index, point in enumerate(series) if point is not None), None),
        series=series,
    )


def memory_records(
    store: Store, owner: str, learner: Learner[Any, Any], position: str, offset: int, limit: int
) -> MemoryPage:
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
        MemoryRecord(record=index, board=board, x_wins=x, o_wins=o)
        for index, (board, x, o) in enumerate(entries)
        if matches(board)
    ]
    return MemoryPage(
        kind=learner.kind,
        entries=len(entries),
        total=len(found),
        offset=offset,
        records=found[offset : offset + max(1, min(limit, PAGE))],
    )


@runtime_checkable
class ValuingLearner(Protocol):
    """A learner that values each legal move itself (ntuple's afterstates, TD's table)."""

    def move_values(self, state: Any) -> dict[str, float]: ...


def move_views(learner: Learner[Any, Any], game: Game, state: Any) -> dict[str, Any]:
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


def _recall_views(learner: Learner[Any, Any], state: Any, legal: list[str]) -> dict[str, Any]:
    """The thesis memory's record of each position a move reaches (its recall for the position)."""
    recall = learner.explain(state, None)
    rows = recall.rows if isinstance(recall, Recall) else ()
    moves = {
        row.move: {"text": f"X won {row.x_wins}, O won {row.o_wins} from there", "score": row.score} for row in rows
    }
    return {"note": f"its memory holds {len(moves)} of the {len(legal)} positions these moves reach", "moves": moves}


def _explained_views(learner: Learner[Any, Any], state: Any) -> dict[str, Any]:
    """What the learner's ``explain`` lists of its first choices (az: its network's prior and its
    search's share of each), and the value it gives the position."""
    said = learner.explain(state, None)
    scores = said if isinstance(said, MoveScores) else MoveScores(())
    moves = {}
    for score in scores.moves:
        figures = _figures(score)
        parts = [f"{key} {value}" for key, value in figures.items() if key != "move"]
        moves[score.move] = {"text": ", ".join(parts), "score": figures.get("search", figures.get("value"))}
    value = scores.value
    note = f"its network's value of the position: {value}" if value is not None else "its view of its first choices"
    return {"note": note, "moves": moves}


def _box_views(learner: Learner[Any, Any], state: Any, legal: list[str]) -> dict[str, Any]:
    """The box a matchbox learner opens in ``state`` and the beads each move is drawn from."""
    first = learner.explain(state, legal[0])
    if not isinstance(first, BoxDraw) or first.box is None:
        return {"note": "one legal move: no box" if isinstance(first, BoxDraw) else "no box here", "moves": {}}
    assert isinstance(learner, BoxLearner)  # only a box learner's views come here
    counts = dict(learner.box(first.box).beads)
    total = sum(counts.values())
    turned = " (the board turned or mirrored)" if first.mirrored else ""
    moves = {}
    for move in legal:
        drawn = learner.explain(state, move)
        bead = drawn.bead if isinstance(drawn, BoxDraw) else None
        count = counts.get(str(bead), 0)
        moves[move] = {"text": f"bead {bead}: {count} of {total}", "score": count, "bead": bead}
    beads = "bead" if total == 1 else "beads"
    return {"note": f"box {first.box}{turned}: {total} {beads}", "box": first.box, "moves": moves}
