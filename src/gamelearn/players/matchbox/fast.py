"""The matchbox learners' fast path: whole trainings over the integer position tables.

A training here plays exactly the games that ``play_game`` plays with the Player objects of
``players/matchbox/learners.py`` and the same seeds: game ``g`` reseeds the first player with ``seed`` and
the second with ``seed + 1`` (as play_game does), every random choice is the same call on a
``random.Random`` over a list in the same order (Random's and Sharp's ``rng.choice`` over the
sorted legal moves, HER's ``rng.choice`` over its beads, MENACE's ``randrange`` over its bead
total), and learning changes the boxes the same way.  ``tests/players/matchbox/test_matchbox_fast.py`` checks it
game for game.  What makes it fast is only that nothing is parsed, copied or searched during play:
positions are integers, moves are precomputed successor indices, and Sharp's winning moves and the
perfect player's best moves (``gamelearn.solve``: fastest win, slowest loss) are looked up.
Plain Python: docs/performance.md says why it is not compiled.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from ...games import get_game
from ...games.hexapawn import pawn_moves
from ...solver import solve
from ..base import seat_seed
from ..registry import parse_fraction
from .beads import MENACE_BEADS, MENACE_REWARDS
from .tables import PositionTable, colour_of, position_table, stabilizer

OPPONENTS = ("random", "sharp", "perfect")
#: The mixed teacher's spelling: the perfect player with a random move with chance P.
MIXED_PREFIX = "perfect:random="


def mixed_chance(opponent: str) -> float | None:
    """P of a mixed teacher ``perfect:random=P`` (the page's "mixed", P = 0.5), None for another
    opponent; ValueError for a P that is not a number from 0 to 1."""
    if not opponent.startswith(MIXED_PREFIX):
        return None
    try:
        return parse_fraction(opponent.removeprefix(MIXED_PREFIX))
    except ValueError as error:
        raise ValueError(f"opponent {opponent!r}: {error}") from None


def check_opponent(opponent: str, valid: Sequence[str]) -> None:
    """ValueError, one line, unless ``opponent`` is one of ``valid`` or a mixed teacher."""
    if opponent not in valid and mixed_chance(opponent) is None:
        raise ValueError(f"unknown opponent {opponent!r}; valid: {', '.join(valid)}, {MIXED_PREFIX}P (P from 0 to 1)")


class Opponent:
    """The other side's move in a fast game: one of ``choices`` (by ``rng.choice``, as Random,
    Sharp and Perfect choose), or for a mixed teacher first ``rng.random() < chance`` and then a
    uniformly random legal move, as :class:`~gamelearn.players.perfect.PerfectPlayer` with
    ``random=P`` draws."""

    def __init__(self, fast: FastTables, opponent: str) -> None:
        chance = mixed_chance(opponent)
        self.chance = chance or 0.0
        named = "perfect" if chance is not None else opponent
        self.choices = {"random": fast.legal, "sharp": fast.sharp, "perfect": fast.perfect}[named]
        self.legal = fast.legal

    def move(self, position: int, rng: random.Random) -> int:
        if self.chance and rng.random() < self.chance:
            return rng.choice(self.legal[position])
        return rng.choice(self.choices[position])


@dataclass(frozen=True)
class FastTables:
    """Per position: what each opponent may play (as successor indices, in ``legal_moves`` order)
    and, where the position is a box, the beads of the box and the successor each bead leads to."""

    table: PositionTable
    legal: tuple[tuple[int, ...], ...]
    sharp: tuple[tuple[int, ...], ...]  # winning moves, else every move (the classroom page's Sharp)
    perfect: tuple[tuple[int, ...], ...]  # the perfect player's choices: gamelearn.solve's best_moves
    #: the beads of a new box, in the order the Player objects create them
    new_box: tuple[tuple[str, ...], ...]
    #: bead (as written in the canonical box) -> successor of the real position
    bead_child: tuple[dict[str, int], ...]


@cache
def fast_tables(game_name: str) -> FastTables:
    table = position_table(game_name)
    game = get_game(game_name)
    solution = solve(game)  # the perfect player's choices are the solver's best moves
    legal: list[tuple[int, ...]] = []
    sharp: list[tuple[int, ...]] = []
    perfect: list[tuple[int, ...]] = []
    new_box: list[tuple[str, ...]] = []
    bead_child: list[dict[str, int]] = []
    for i in range(len(table.states)):
        kids = table.children[i]
        legal.append(kids)
        if table.over[i]:
            sharp.append(())
            perfect.append(())
            new_box.append(())
            bead_child.append({})
            continue
        wins = tuple(kids[k] for k in table.winning_moves(i))
        sharp.append(wins or kids)
        best = set(solution.best_moves(table.states[i]))
        perfect.append(tuple(kid for move, kid in zip(table.moves[i], kids, strict=True) if move in best))
        box = table.canonical[i]
        undo = table.inverse_symmetry[table.symmetry[i]]
        if game_name == "hexapawn":
            side = game.symbols[table.to_move[box]]
            beads = tuple(f"{a}{b}" for a, b in pawn_moves(table.boards[box], side))
        else:
            fixed = stabilizer(game, table.states[box])
            beads = tuple(sorted({colour_of(game, table.states[box], m, fixed) for m in table.moves[box]}, key=int))
        new_box.append(beads)
        bead_child.append({bead: kids[table.moves[i].index(game.transform_move(bead, undo))] for bead in beads})
    return FastTables(table, tuple(legal), tuple(sharp), tuple(perfect), tuple(new_box), tuple(bead_child))


def game_seed(base_seed: int, learner: int, game: int) -> int:
    """The seed of game ``game`` of learner ``learner`` in a run seeded ``base_seed``: distinct for
    up to 100,000 learners of up to 500,000 games (even, because play_game also uses seed + 1)."""
    return (base_seed * 100_000 + learner) * 1_000_000 + 2 * game


# HER and HIM -----------------------------------------------------------------------------------


@dataclass
class HerTraining:
    """One HER's (or HIM's) training: a letter a game (W/L), and every bead taken out."""

    record: str = ""
    #: (canonical box position, bead) for every bead taken out, in order
    removed: list[tuple[int, str]] = field(default_factory=list)
    #: canonical box position -> beads
    boxes: dict[int, list[str]] = field(default_factory=dict)

    @property
    def losses(self) -> int:
        return self.record.count("L")


def train_her(
    seeds: Sequence[int],
    opponent: str = "sharp",
    him: bool = False,
    learner_side: int = 1,
    training: HerTraining | None = None,
) -> HerTraining:
    """HER (HIM with ``him``) plays one hexapawn game per seed against ``opponent`` (random, sharp,
    perfect or a mixed teacher ``perfect:random=P``) and learns."""
    check_opponent(opponent, OPPONENTS)
    fast = fast_tables("hexapawn")
    table = fast.table
    them = Opponent(fast, opponent)
    over, winner, to_move, canonical = table.over, table.winner, table.to_move, table.canonical
    new_box, bead_child = fast.new_box, fast.bead_child
    run = training if training is not None else HerTraining()
    boxes = run.boxes
    letters = []
    for seed in seeds:
        other = random.Random(seat_seed(seed, 1 - learner_side))
        mine = random.Random(seat_seed(seed, learner_side))
        position = table.initial
        drawn: list[tuple[list[str], int, str]] = []
        while not over[position]:
            if to_move[position] != learner_side:
                position = them.move(position, other)
                continue
            box = canonical[position]
            beads = boxes.get(box)
            if beads is None:
                beads = boxes[box] = list(new_box[box])
            if not beads:
                break  # an empty box: HER resigns
            bead = mine.choice(beads)
            drawn.append((beads, box, bead))
            position = bead_child[position][bead]
        won = over[position] and winner[position] == learner_side
        if won:
            letters.append("W")
            if him:
                for beads, _, bead in drawn:
                    beads.append(bead)
        else:
            letters.append("L")
            if drawn:
                beads, box, bead = drawn[-1]
                beads.remove(bead)
                run.removed.append((box, bead))
    run.record += "".join(letters)
    return run


# MENACE ----------------------------------------------------------------------------------------


@dataclass
class MenaceTraining:
    """One MENACE's training: a letter a game from its side (W/D/L; both sides' view is X's for
    self-play) and its boxes as canonical position -> bead counts in colour order."""

    record: str = ""
    boxes: dict[int, list[int]] = field(default_factory=dict)


#: A bead MENACE drew in a game: its box's counts, the bead's colour, and the side that drew it.
Drawn = tuple[list[int], int, int]


def train_menace(
    seeds: Sequence[int],
    opponent: str = "random",
    learner_side: int = 0,
    beads: Sequence[int] = MENACE_BEADS,
    rewards: Sequence[int] = MENACE_REWARDS,
    training: MenaceTraining | None = None,
    restock: bool = False,
) -> MenaceTraining:
    """MENACE plays one tic-tac-toe game per seed against ``opponent`` ("random", "perfect", "sharp",
    a mixed teacher "perfect:random=P", or "self": one MENACE on both sides, learning from both)
    and learns after each; with ``restock`` an emptied box is filled again with its first beads
    when MENACE next meets it (``menace:restock=on``) instead of resigning."""
    check_opponent(opponent, OPPONENTS + ("self",))
    fast = fast_tables("tictactoe")
    selfplay = opponent == "self"
    them = Opponent(fast, "random" if selfplay else opponent)
    run = training if training is not None else MenaceTraining()
    view = 0 if selfplay else learner_side
    letters = []
    for seed in seeds:
        # play_game reseeds player 0 with seed and player 1 with seed + 1; one MENACE on both
        # sides is one object, reseeded twice, so it keeps seed + 1
        mine = random.Random(seat_seed(seed, 1 if selfplay else learner_side))
        other = random.Random(seat_seed(seed, 1 - learner_side))
        seat = None if selfplay else learner_side
        game_winner, drawn = _menace_game(fast, run.boxes, beads, seat, them, mine, other, restock)
        letters.append("D" if game_winner is None else "W" if game_winner == view else "L")
        _reinforce(drawn, game_winner, rewards)
    run.record += "".join(letters)
    return run


def _menace_game(
    fast: FastTables,
    boxes: dict[int, list[int]],
    beads: Sequence[int],
    seat: int | None,
    them: Opponent,
    mine: random.Random,
    other: random.Random,
    restock: bool = False,
) -> tuple[int | None, list[Drawn]]:
    """One game: MENACE in ``seat`` (None: both sides) draws a bead from its box at each position
    with a choice (a new box is filled as Michie 1961 did, by stage), the other side moves as
    ``them`` with ``other``; the winner (None: a draw) and the beads drawn.  An empty box resigns,
    or with ``restock`` is filled again with its first beads and drawn from."""
    table = fast.table
    over, winner, to_move, canonical = table.over, table.winner, table.to_move, table.canonical
    new_box, bead_child, legal = fast.new_box, fast.bead_child, fast.legal
    position = table.initial
    drawn: list[Drawn] = []
    while not over[position]:
        mover = to_move[position]
        if seat is not None and mover != seat:
            position = them.move(position, other)
            continue
        kids = legal[position]
        if len(kids) == 1:
            position = kids[0]
            continue
        box = canonical[position]
        counts = boxes.get(box)
        stage = (9 - len(kids)) // 2
        if counts is None:
            counts = boxes[box] = [beads[min(stage, len(beads) - 1)]] * len(new_box[box])
        total = sum(counts)
        if total <= 0 and restock:  # as MenacePlayer: the box is filled again with its first beads
            counts[:] = [beads[min(stage, len(beads) - 1)]] * len(new_box[box])
            total = sum(counts)
        if total <= 0:
            return 1 - mover, drawn
        pick = mine.randrange(total)
        colour = 0
        while pick >= counts[colour]:
            pick -= counts[colour]
            colour += 1
        drawn.append((counts, colour, mover))
        position = bead_child[position][new_box[box][colour]]
    return winner[position], drawn


def _reinforce(drawn: list[Drawn], game_winner: int | None, rewards: Sequence[int]) -> None:
    """Each bead drawn is answered by the game's result from its drawer's side: ``rewards`` beads
    added for a win, a draw and a loss (a loss takes them away, never below none)."""
    win, draw, loss = rewards
    for counts, colour, side in drawn:
        delta = draw if game_winner is None else win if game_winner == side else loss
        value = counts[colour] + delta
        counts[colour] = value if value > 0 else 0
