"""States, records and solutions as people and notebooks see them: a plain ``repr`` that names the
board and the side to move (and reads back through ``from_board``), and pictures for Jupyter
(``_repr_svg_``, ``_repr_html_``) that draw every piece, the coordinates and the last move."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ElementTree
from typing import Any

import pytest

import gamelearn
from gamelearn.games.svg import LAST_MOVE

SVG = "{http://www.w3.org/2000/svg}"
REPR = re.compile(r"(TicTacToe|Hexapawn|Teeko)State\('([.XOWB]+)', to_move=([XOWB])\)")


def random_positions(spec: str, games: int, seed: int) -> list[Any]:
    """Every position of a few seeded random games (each capped at 60 plies)."""
    game = gamelearn.get_game(spec)
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = game.initial()
        found.append(state)
        for _ in range(60):
            if game.is_over(state):
                break
            state = game.play(state, rng.choice(game.legal_moves(state)))
            found.append(state)
    return found


def test_repr_names_the_board_and_the_side_to_move() -> None:
    tictactoe = gamelearn.get_game("tictactoe")
    assert repr(tictactoe.play(tictactoe.initial(), "4")) == "TicTacToeState('....X....', to_move=O)"
    assert repr(gamelearn.get_game("hexapawn").initial()) == "HexapawnState('BBB...WWW', to_move=W)"
    teeko = gamelearn.get_game("teeko")
    assert repr(teeko.play(teeko.initial(), "22")) == f"TeekoState('{'.' * 12}X{'.' * 12}', to_move=O)"


@pytest.mark.parametrize("spec", ["tictactoe", "hexapawn", "teeko", "teeko:drops=aaaa"])
def test_repr_reads_back_through_from_board(spec: str) -> None:
    game = gamelearn.get_game(spec)
    for state in random_positions(spec, games=4, seed=5):
        match = REPR.fullmatch(repr(state))
        assert match is not None, repr(state)
        assert game.from_board(match[2], game.symbols.index(match[3])) == state


def svg_elements(picture: str) -> list[ElementTree.Element]:
    return list(ElementTree.fromstring(picture).iter())


def pieces_drawn(picture: str) -> int:
    """Circles and crosses in a picture: one a pawn or mark (a nought is a circle too)."""
    return sum(1 for e in svg_elements(picture) if e.tag in (f"{SVG}circle", f"{SVG}path"))


def texts(picture: str) -> list[str]:
    return [e.text or "" for e in svg_elements(picture) if e.tag == f"{SVG}text"]


@pytest.mark.parametrize("spec", ["tictactoe", "hexapawn", "teeko"])
def test_a_state_draws_every_piece_and_its_coordinates(spec: str) -> None:
    game = gamelearn.get_game(spec)
    for state in random_positions(spec, games=2, seed=1):
        picture = state._repr_svg_()
        assert pieces_drawn(picture) == sum(cell != "." for cell in game.board(state))
        labels = texts(picture)
        if spec == "teeko":  # row and column numbers: squares are named rc
            assert sorted(labels[:-1]) == sorted([str(k) for k in range(5)] * 2)
        else:  # each square's number
            assert labels[:-1] == [str(square) for square in range(9)]
        status = game.end_reason(state) if game.is_over(state) else f"{game.symbols[game.to_move(state)]} to move"
        assert labels[-1] == status


def shaded_squares(picture: str, columns: int) -> set[int]:
    """The squares drawn in the last move's colour, placed by their cells (the first is square 0)."""
    cells = [e for e in svg_elements(picture) if e.tag == f"{SVG}rect" and e.get("stroke") == "#8b7d5b"]
    left, top, size = (int(cells[0].get(key, "0")) for key in ("x", "y", "width"))
    return {
        (int(cell.get("y", "0")) - top) // size * columns + (int(cell.get("x", "0")) - left) // size
        for cell in cells
        if cell.get("fill") == LAST_MOVE
    }


@pytest.mark.parametrize("spec", ["tictactoe", "hexapawn", "teeko"])
def test_a_record_shows_its_moves_and_its_final_board_with_the_last_move(spec: str) -> None:
    game = gamelearn.get_game(spec)
    players = [gamelearn.make_player(game, "random", seed=side) for side in (0, 1)]
    record = gamelearn.play_game(game, players, seed=2, max_plies=40)
    page = record._repr_html_()
    root = ElementTree.fromstring(page)  # well-formed: a notebook shows it as it is
    picture = ElementTree.tostring(next(root.iter(f"{SVG}svg")), encoding="unicode")
    assert pieces_drawn(picture) == sum(cell != "." for cell in game.board(record.final))
    before, after = game.board(record.states[-2]), game.board(record.final)
    assert shaded_squares(picture, game.facts.columns) == {k for k in range(len(after)) if before[k] != after[k]}
    listed = "".join(root.itertext())
    for ply, move in enumerate(record.moves, start=1):
        assert f"{ply}. {game.symbols[game.to_move(record.states[ply - 1])]} {move}" in listed
    assert f"({record.end.value}, {record.plies} plies)" in listed


def test_a_solution_shows_its_game_its_value_and_its_size() -> None:
    tictactoe, hexapawn = gamelearn.solve("tictactoe"), gamelearn.solve("hexapawn")
    # The known values (a draw; Black wins, Gardner 1962) and sizes (5,478 and 135 positions).
    assert repr(tictactoe) == (
        "<ExhaustiveSolution of tictactoe: a draw with best play; 5,478 positions reachable from the start>"
    )
    page = "".join(ElementTree.fromstring(hexapawn._repr_html_()).itertext())
    assert "hexapawn" in page and "B wins with best play in 6 plies" in page and "135 positions" in page
