"""One game between two players: the record of the game, the draws that end endless games, and
learning after it (DESIGN.md, the play layer)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .games import Game


class End(StrEnum):
    """How a game ended."""

    WIN = "win"  # a side met the game's winning condition
    DRAW = "draw"  # a draw by the rules (tic-tac-toe's full board)
    REPETITION = "repetition"  # a position (board and side to move) seen for the third time
    MAX_PLIES = "max-plies"  # the ply cap was reached
    RESIGN = "resign"  # a player gave up (an empty matchbox)
    ABANDONED = "abandoned"  # a person quit


@dataclass(frozen=True)
class GameRecord:
    """A finished game.  ``states[k]`` is the position before ``moves[k]``; the last is the final one."""

    game: str
    players: tuple[str, str]
    moves: tuple[str, ...]
    states: tuple[Hashable, ...]
    winner: int | None
    end: End
    seed: int | None = None

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def final(self) -> Hashable:
        return self.states[-1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": list(self.players),
            "moves": list(self.moves),
            "winner": self.winner,
            "end": self.end.value,
            "plies": self.plies,
            "seed": self.seed,
        }


DEFAULT_MAX_PLIES = 200


def play_game(
    game: Game,
    players: Sequence[Any],
    seed: int | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    start: Hashable | None = None,
    learn: bool = True,
    on_move: Callable[[Hashable, str, Hashable], None] | None = None,
) -> GameRecord:
    """Play one game; ``players[0]`` moves first from the initial position (or ``start``).

    With a ``seed`` each player is reseeded (``seed`` for player 0, ``seed + 1`` for player 1),
    so the same seed and the same players replay the same game.  A position seen for the third
    time, or ``max_plies`` plies, ends the game as a draw.  After it, each player's ``learn`` is
    called with the record and its side (unless ``learn`` is False).
    """
    if len(players) != 2:
        raise ValueError(f"a game takes two players, not {len(players)}")
    if max_plies < 1:
        raise ValueError(f"max_plies must be at least 1, not {max_plies}")
    if seed is not None:
        for index, player in enumerate(players):
            player.reseed(seed + index)
    state = game.initial() if start is None else start
    states: list[Hashable] = [state]
    moves: list[str] = []
    seen: Counter[Hashable] = Counter({state: 1})
    winner: int | None = None
    end: End
    while True:
        if game.is_over(state):
            winner = game.winner(state)
            end = End.WIN if winner is not None else End.DRAW
            break
        if len(moves) >= max_plies:
            end = End.MAX_PLIES
            break
        mover = game.to_move(state)
        move = players[mover].choose(state)
        if move is None:
            winner, end = 1 - mover, End.RESIGN
            break
        after = game.play(state, move)
        if on_move is not None:
            on_move(state, move, after)
        moves.append(move)
        states.append(after)
        state = after
        seen[state] += 1
        if seen[state] >= 3 and not game.is_over(state):
            end = End.REPETITION
            break
    record = GameRecord(
        game=game.name,
        players=(players[0].spec(), players[1].spec()),
        moves=tuple(moves),
        states=tuple(states),
        winner=winner,
        end=end,
        seed=seed,
    )
    if learn:
        if players[0] is players[1]:
            players[0].learn(record, None)  # one player on both sides learns once, from both sides
        else:
            for index, player in enumerate(players):
                player.learn(record, index)
    return record
