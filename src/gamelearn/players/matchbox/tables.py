"""Every position of a small game as an integer index, with move tables: the precomputation
behind the matchbox learners, their fast path and Gardner's box counts.

A game the matchbox learners play is small (hexapawn: 135 reachable positions, tic-tac-toe:
5,478, ``examples/connect3``: 41,750), so the whole tree is enumerated once per process: each
position's legal moves (sorted, as ``game.legal_moves`` gives them), the position each move leads
to, its depth (the fewest plies from the start), the exact game value for the side to move (a plain
negamax over the tree, the "bad bead" oracle of the classroom page's ``can_win``), and the
canonical image under the game's symmetries, which names the matchbox a learner opens there.

A game fits where it cannot repeat a position and has at most :data:`POSITION_LIMIT` positions
reachable from the start, the exhaustive solver's bound; a larger one is refused in one line
while it is walked.  A box is named by its board, so the board of a position with a move to make
must tell the position (whose move it is included); a game where it does not is refused too.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ...games import Game, get_game
from ...games.base import invert
from ...solver.exhaustive import POSITION_LIMIT


@dataclass(frozen=True)
class PositionTable:
    """Index ``i`` is one reachable position; every list below is indexed by it.

    ``value[i]`` is +1 if the side to move at ``i`` wins with best play, -1 if it loses, 0 for a
    draw (terminal positions included: a won game is -1 for the side to move, which has lost).
    ``canonical[i]`` is the index of the least image of ``i`` under the symmetries (by board
    string, as ``Game.canonical`` chooses it) and ``symmetry[i]`` the symmetry that maps ``i``
    there; ``inverse_symmetry[k]`` undoes symmetry ``k``.
    """

    game_name: str
    states: tuple[Hashable, ...]
    index: dict[Hashable, int]
    boards: tuple[str, ...]
    to_move: tuple[int, ...]
    over: tuple[bool, ...]
    winner: tuple[int | None, ...]
    moves: tuple[tuple[str, ...], ...]
    children: tuple[tuple[int, ...], ...]
    value: tuple[int, ...]
    canonical: tuple[int, ...]
    symmetry: tuple[int, ...]
    inverse_symmetry: tuple[int, ...]
    initial: int
    #: the fewest plies from the start to each position (Michie's stage: MENACE's move number)
    depth: tuple[int, ...]
    #: board -> position, for every position with a move to make (a box's name is its board)
    unfinished: Mapping[str, int]
    #: MENACE's colours of each position asked for so far (:func:`position_colours`)
    colours: dict[int, tuple[tuple[str, ...], Mapping[str, str]]] = field(default_factory=dict, compare=False)

    def winning_moves(self, position: int) -> tuple[int, ...]:
        """Positions in ``moves`` order after which the mover wins however the other answers
        (the classroom page's Sharp: ``can_win`` looked ahead to the end of the game)."""
        return tuple(k for k, child in enumerate(self.children[position]) if self.value[child] == -1)

    def best_moves(self, position: int) -> tuple[int, ...]:
        """The move numbers (in ``moves`` order) that keep the exact value: a perfect player's choices."""
        best = max(-self.value[child] for child in self.children[position])
        return tuple(k for k, child in enumerate(self.children[position]) if -self.value[child] == best)


def _walk(
    game: Game[Any], limit: int
) -> tuple[list[Hashable], dict[Hashable, int], list[tuple[str, ...]], list[tuple[int, ...]], list[int]]:
    """Every position reachable from the start, breadth first (numbered in the order play reaches
    them): the states, their index, each one's legal moves, the positions they lead to and its depth.
    ValueError once more than ``limit`` are found."""
    start = game.initial()
    states: list[Hashable] = [start]
    index: dict[Hashable, int] = {start: 0}
    depth = [0]
    moves: list[tuple[str, ...]] = []
    children: list[tuple[int, ...]] = []
    frontier = 0
    while frontier < len(states):
        state = states[frontier]
        legal = tuple(game.legal_moves(state))
        kids = []
        for move in legal:
            after = game.play(state, move)
            if after not in index:
                if len(states) >= limit:
                    raise ValueError(
                        f"{game.name} has more than {limit:,} positions reachable from the start: too many for the "
                        "matchbox learners, which keep a table of every one"
                    )
                index[after] = len(states)
                states.append(after)
                depth.append(depth[frontier] + 1)
            kids.append(index[after])
        moves.append(legal)
        children.append(tuple(kids))
        frontier += 1
    return states, index, moves, children, depth


def _values(
    game: Game[Any], over: tuple[bool, ...], result: list[int], children: list[tuple[int, ...]]
) -> tuple[int, ...]:
    """Negamax from the leaves: ``result`` holds each finished position's value for its mover.
    Where every move leads to a position numbered later (tic-tac-toe, hexapawn, connect3: each
    move adds a piece or moves one forward) one backward sweep settles every value; otherwise the
    positions are settled in the order a depth-first walk finishes them."""
    count = len(over)
    layered = all(child > i for i in range(count) for child in children[i])
    order = range(count - 1, -1, -1) if layered else _finishing_order(game, children)
    value = list(result)
    for i in order:
        if not over[i]:
            value[i] = max(-value[child] for child in children[i])
    return tuple(value)


def _finishing_order(game: Game[Any], children: list[tuple[int, ...]]) -> list[int]:
    """The positions, each after every position it leads to; ValueError where a position leads back
    to itself (a game whose facts say it cannot cycle, but does)."""
    state = [0] * len(children)  # 0: not met, 1: on the walk's path, 2: finished
    order: list[int] = []
    for root in range(len(children)):
        if state[root]:
            continue
        stack = [(root, 0)]
        state[root] = 1
        while stack:
            node, next_child = stack[-1]
            if next_child < len(children[node]):
                stack[-1] = (node, next_child + 1)
                child = children[node][next_child]
                if state[child] == 1:
                    raise ValueError(f"{game.name} repeats a position, though its facts say it cannot cycle")
                if not state[child]:
                    state[child] = 1
                    stack.append((child, 0))
                continue
            state[node] = 2
            order.append(node)
            stack.pop()
    return order


def _enumerate(game: Game[Any], limit: int) -> PositionTable:
    if game.facts.can_cycle:
        raise ValueError(f"{game.name} can repeat positions: the matchbox learners need a game that always ends")
    states, index, moves, children, depth = _walk(game, limit)
    to_move = tuple(game.to_move(s) for s in states)
    winner = tuple(game.winner(s) for s in states)
    over = tuple(game.is_over(s) for s in states)
    # a won game is -1 for the side to move, which has lost
    result = [
        0 if w is None or not done else (1 if w == mover else -1)
        for w, done, mover in zip(winner, over, to_move, strict=True)
    ]
    value = _values(game, over, result, children)
    boards = tuple(game.board(s) for s in states)
    canonical = []
    symmetry = []
    for state in states:
        image, k = game.canonical(state)
        if image not in index:
            raise ValueError(
                f"{game.name}: the symmetric image {game.board(image)!r} of a reachable position is not reachable "
                "from the start, so its symmetries do not keep the rules"
            )
        canonical.append(index[image])
        symmetry.append(k)
    inverse = [game.symmetries.index(invert(perm)) for perm in game.symmetries]
    return PositionTable(
        game_name=game.name,
        states=tuple(states),
        index=index,
        boards=boards,
        to_move=to_move,
        over=over,
        winner=winner,
        moves=tuple(moves),
        children=tuple(children),
        value=value,
        canonical=tuple(canonical),
        symmetry=tuple(symmetry),
        inverse_symmetry=tuple(inverse),
        initial=0,
        depth=tuple(depth),
        unfinished=MappingProxyType(_unfinished_boards(game, boards, over)),
    )


def _unfinished_boards(game: Game[Any], boards: tuple[str, ...], over: tuple[bool, ...]) -> dict[str, int]:
    """Board -> position for every position with a move to make; ValueError where two of them
    share a board (a box is named by its board alone)."""
    found: dict[str, int] = {}
    for i, board in enumerate(boards):
        if over[i]:
            continue
        if board in found:
            raise ValueError(
                f"{game.name}: the board {board!r} stands for two positions with a move to make (whose move it is, or "
                "more than the board, tells them apart); a matchbox learner names each box by its board alone"
            )
        found[board] = i
    return found


#: The tables built in this process, by the game's spec, with the game they were built for (its
#: class tells a game registered again apart).
TABLES: dict[str, tuple[Game[Any], PositionTable]] = {}


def position_table(game: Game[Any] | str) -> PositionTable:
    """The table of ``game`` (a game or its name), built once per process (again for a class
    registered again under its name).  ValueError in one line for a game that does not fit (see the
    module's docstring)."""
    found = get_game(game) if isinstance(game, str) else game
    kept = TABLES.get(found.spec)
    if kept is None or type(kept[0]) is not type(found):
        kept = TABLES[found.spec] = (found, _enumerate(found, POSITION_LIMIT))
    return kept[1]


def stabilizer(game: Game[Any], state: Hashable) -> tuple[int, ...]:
    """The symmetries that map ``state`` onto itself (identity first)."""
    return tuple(k for k in range(len(game.symmetries)) if game.transform(state, k) == state)


def colour_of(game: Game[Any], state: Hashable, move: str, symmetric: tuple[int, ...]) -> str:
    """MENACE's bead colour for ``move`` in ``state``: the least of the move's images under the
    symmetries that fix ``state`` (Michie: symmetric moves are one colour)."""
    return min(game.transform_move(move, k) for k in symmetric)


def position_colours(game: Game[Any] | str, position: int) -> tuple[tuple[str, ...], Mapping[str, str]]:
    """MENACE's colours of a position (in move order) and each legal move's colour: a property of
    the game's rules, worked out once per process (a learner loads and checks its boxes at every
    game's start and end, and each box asks for its colours)."""
    table = position_table(game)
    known = table.colours.get(position)
    if known is None:
        rules = get_game(game) if isinstance(game, str) else game
        state = table.states[position]
        fixed = stabilizer(rules, state)
        colour = {move: colour_of(rules, state, move, fixed) for move in table.moves[position]}
        known = table.colours[position] = (tuple(sorted(set(colour.values()))), MappingProxyType(colour))
    return known


@dataclass(frozen=True)
class BoxCount:
    boxes: int
    beads: int
    bad_beads: int


def count_boxes(
    game_name: Game[Any] | str, side: int, use_symmetry: bool = True, min_choices: int = 1, merge_colours: bool = False
) -> BoxCount:
    """The classroom page's ``count_boxes``, without playing: every position ``side`` can face on its turn in a
    game not yet over, reached by any sequence of legal moves, with at least ``min_choices`` legal
    moves; with ``use_symmetry`` a position and its symmetric images count once.  Beads are the
    legal moves in all boxes (or, with ``merge_colours``, MENACE's colours: moves that a symmetry
    of the position maps onto each other count once).  A bead is bad when after it the other side
    can force a win."""
    table = position_table(game_name)
    game = get_game(game_name) if isinstance(game_name, str) else game_name
    boxes = beads = bad = 0
    for i in range(len(table.states)):
        if table.over[i] or table.to_move[i] != side or len(table.moves[i]) < min_choices:
            continue
        if use_symmetry and table.canonical[i] != i:
            continue
        boxes += 1
        if merge_colours:
            fixed = stabilizer(game, table.states[i]) if use_symmetry else (0,)
            colours: dict[str, int] = {}
            for move, child in zip(table.moves[i], table.children[i], strict=True):
                colours.setdefault(colour_of(game, table.states[i], move, fixed), child)
            chosen = list(colours.values())
        else:
            chosen = list(table.children[i])
        beads += len(chosen)
        bad += sum(1 for child in chosen if table.value[child] == 1)
    return BoxCount(boxes, beads, bad)
