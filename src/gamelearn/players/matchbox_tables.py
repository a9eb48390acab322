"""Every position of hexapawn and tic-tac-toe as an integer index, with move tables: the
precomputation behind the matchbox learners' fast path and Gardner's box counts.

Both games are small (hexapawn: 135 reachable positions, tic-tac-toe: 5,478), so the whole tree
is enumerated once per process: each position's legal moves (sorted, as ``game.legal_moves``
gives them), the position each move leads to, the exact game value for the side to move (a plain
negamax over the tree, the "bad bead" oracle of the classroom page's ``can_win``), and the canonical image
under the game's symmetries, which names the matchbox a learner opens there.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any

from ..games import Game, get_game
from ..games.base import invert


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

    def winning_moves(self, position: int) -> tuple[int, ...]:
        """Positions in ``moves`` order after which the mover wins however the other answers
        (the classroom page's Sharp: ``can_win`` looked ahead to the end of the game)."""
        return tuple(k for k, child in enumerate(self.children[position]) if self.value[child] == -1)

    def best_moves(self, position: int) -> tuple[int, ...]:
        """The move numbers (in ``moves`` order) that keep the exact value: a perfect player's choices."""
        best = max(-self.value[child] for child in self.children[position])
        return tuple(k for k, child in enumerate(self.children[position]) if -self.value[child] == best)


def _enumerate(game: Game[Any]) -> PositionTable:
    start = game.initial()
    states: list[Hashable] = [start]
    index: dict[Hashable, int] = {start: 0}
    frontier = 0
    moves: list[tuple[str, ...]] = []
    children: list[tuple[int, ...]] = []
    # breadth first: positions are numbered in the order play reaches them
    while frontier < len(states):
        state = states[frontier]
        legal = tuple(game.legal_moves(state))
        kids = []
        for move in legal:
            after = game.play(state, move)
            if after not in index:
                index[after] = len(states)
                states.append(after)
            kids.append(index[after])
        moves.append(legal)
        children.append(tuple(kids))
        frontier += 1
    count = len(states)
    to_move = tuple(game.to_move(s) for s in states)
    winner = tuple(game.winner(s) for s in states)
    over = tuple(game.is_over(s) for s in states)
    # negamax from the leaves: every move increases the number of pieces moved or placed, so the
    # breadth-first numbering puts each child after its parent (checked below) and one backward
    # sweep settles every value
    value = [0] * count
    for i in range(count - 1, -1, -1):
        if over[i]:
            value[i] = 0 if winner[i] is None else (1 if winner[i] == to_move[i] else -1)
            continue
        for child in children[i]:
            if child <= i:
                raise RuntimeError(f"{game.name}: the position graph is not layered; the tables need a new sweep")
        value[i] = max(-value[child] for child in children[i])
    canonical = []
    symmetry = []
    for state in states:
        image, k = game.canonical(state)
        canonical.append(index[image] if image in index else _add_unreachable(image))
        symmetry.append(k)
    inverse = []
    for perm in game.symmetries:
        inverse.append(game.symmetries.index(invert(perm)))
    return PositionTable(
        game_name=game.name,
        states=tuple(states),
        index=index,
        boards=tuple(game.board(s) for s in states),
        to_move=to_move,
        over=over,
        winner=winner,
        moves=tuple(moves),
        children=tuple(children),
        value=tuple(value),
        canonical=tuple(canonical),
        symmetry=tuple(symmetry),
        inverse_symmetry=tuple(inverse),
        initial=0,
    )


def _add_unreachable(image: Any) -> int:
    # the symmetries of hexapawn and tic-tac-toe preserve the rules, so an image of a reachable
    # position is reachable; if a game ever broke that, the tables would be wrong, not slow
    raise RuntimeError(f"the symmetric image {image!r} of a reachable position is not reachable")


@cache
def position_table(game_name: str) -> PositionTable:
    """The table of ``game_name`` ("hexapawn" or "tictactoe"), built once per process."""
    if game_name not in ("hexapawn", "tictactoe"):
        raise ValueError(f"the matchbox tables cover hexapawn and tictactoe, not {game_name!r}")
    return _enumerate(get_game(game_name))


def stabilizer(game: Game[Any], state: Hashable) -> tuple[int, ...]:
    """The symmetries that map ``state`` onto itself (identity first)."""
    return tuple(k for k in range(len(game.symmetries)) if game.transform(state, k) == state)


def colour_of(game: Game[Any], state: Hashable, move: str, symmetric: tuple[int, ...]) -> str:
    """MENACE's bead colour for ``move`` in ``state``: the least of the move's images under the
    symmetries that fix ``state`` (Michie: symmetric moves are one colour)."""
    return min(game.transform_move(move, k) for k in symmetric)


@cache
def position_colours(game_name: str, position: int) -> tuple[tuple[str, ...], Mapping[str, str]]:
    """MENACE's colours of a position (sorted) and each legal move's colour: a property of the
    game's rules, worked out once per process (a learner loads and checks its boxes at every
    game's start and end, and each box asks for its colours)."""
    table = position_table(game_name)
    game = get_game(game_name)
    state = table.states[position]
    fixed = stabilizer(game, state)
    colour = {move: colour_of(game, state, move, fixed) for move in table.moves[position]}
    return tuple(sorted(set(colour.values()), key=int)), MappingProxyType(colour)


@dataclass(frozen=True)
class BoxCount:
    boxes: int
    beads: int
    bad_beads: int


def count_boxes(
    game_name: str, side: int, use_symmetry: bool = True, min_choices: int = 1, merge_colours: bool = False
) -> BoxCount:
    """The classroom page's ``count_boxes``, without playing: every position ``side`` can face on its turn in a
    game not yet over, reached by any sequence of legal moves, with at least ``min_choices`` legal
    moves; with ``use_symmetry`` a position and its symmetric images count once.  Beads are the
    legal moves in all boxes (or, with ``merge_colours``, MENACE's colours: moves that a symmetry
    of the position maps onto each other count once).  A bead is bad when after it the other side
    can force a win."""
    table = position_table(game_name)
    game = get_game(game_name)
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
