"""How the ``ntuple`` learner (:mod:`.ntuple`) trains and plays on each game when its spec says
nothing else: the self-play settings, temporal coherence learning's exponent and the search a
frozen learner plays with."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Any

from ..base import OptionValue
from .layout import GAME_IDS, default_layout
from .search import budget_of, parse_search

#: TCL-EXP's exponent (the exponential transfer of Bagheri, Thill, Koch & Konen 2016): a weight
#: whose changes have cancelled out moves at exp(-2.7), 7%, of the step.
TCL_BETA = 2.7
#: The smallest share of the TD error an afterstate of the trace takes (``lambda ** k``): a trace
#: keeps the afterstates above it, 10 for a lambda of 0.5 (Teeko's and the small games' horizon).
TRACE_CUT = 0.001
#: The most afterstates a trace keeps (a lambda of 1).
MAX_HORIZON = 50
#: Each game's ``search=`` when the spec names none (Teeko's: chosen on ``teeko-val-v1``); any
#: other game's is :func:`default_search`'s.
DEFAULT_SEARCH = {"tictactoe": "1", "hexapawn": "1", "teeko": "8", "connect4": "8"}
#: The wall-clock time a Teeko search of a fixed depth may take a move before it plays the
#: deepest ply it has finished.
MOVE_SECONDS = 1.0
#: The deepest plain search of the other games.
PLAIN_PLIES = 3
#: The deepest search of Connect Four on 7x6 (compiled: :func:`.connect4_search.search_root`, with no
#: clock): on 30 positions of random openings 18 plies took 3.7 CPU s a move on average and 23 at
#: worst, within the minute a range's top may take; 20 would take minutes (docs/ntuple.md,
#: "Connect Four").
CONNECT4_PLIES = 18


def default_search(game: Any) -> str:
    """The ``search`` an ntuple player of ``game`` plays with when its spec names none: the game's
    own (:data:`DEFAULT_SEARCH`) where it has compiled self-play and search, otherwise 1 (greedy)
    for the games with compiled self-play and 2 for any other, whose self-play in Python plays far
    fewer games a minute (docs/own-game.md measures both)."""
    if game.name in DEFAULT_SEARCH and compiled(game):
        return DEFAULT_SEARCH[game.name]
    return "1" if game.name in GAME_IDS else "2"


@dataclass(frozen=True)
class Settings:
    """How a game's ntuple learner trains (the spec's alpha, epsilon and trace override these)."""

    games_per_batch: int
    alpha: float  # at the start; the logit's step per unit of TD error, shared by the features
    epsilon: float  # at the start
    halflife: float  # games over which alpha and epsilon halve their way to a tenth
    trace: float  # lambda
    horizon: int  # afterstates the eligibility trace keeps
    random_plies: int  # each self-play game opens with 0..this many random moves
    coherence: float = 0.0  # temporal coherence learning's beta (TCL-EXP); 0: off, alpha decays instead

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


SETTINGS: dict[str, Settings] = {
    "tictactoe": Settings(2000, 1.0, 0.2, 200_000, 0.5, 8, 5),
    "hexapawn": Settings(1000, 1.0, 0.2, 50_000, 0.5, 8, 1),
    # Teeko's step of 3 was chosen on teeko-val-v1: its raw network leads a step of 1 at every ten
    # CPU minutes of the hour, on each of three seeds (docs/ntuple.md, "The hour with α 3").
    "teeko": Settings(200, 3.0, 0.1, 400_000, 0.5, 10, 6, coherence=TCL_BETA),
    # Connect Four on 7x6 (compiled self-play, :mod:`.connect4`); other sizes: GENERIC_SETTINGS.  A
    # step of 60, GBG's 3.7 (Konen 2019) on this network's scale (a logistic W, not tanh: 16 x 3.7),
    # and no trace (lambda 0, as GBG's Connect Four agent), chosen on connect4-val-v1 and on games
    # against perfect play (from the empty board, and from openings of seed 0; the reported games
    # open with seed 1's): after 200 CPU s of self-play the raw network kept 83.9% and won 17 of
    # 20 games from the empty board, where a step of 3 with a trace of 0.5 kept 73.7% and won none
    # (docs/ntuple.md, "Connect Four")
    "connect4": Settings(1000, 60.0, 0.1, 400_000, 0.0, 1, 2, coherence=TCL_BETA),
}
#: Any other game's: self-play over its own rules (:mod:`.generic`), 200 games a batch, a
#: step of 3 (a step of 1 levels off near 97% keeps on Connect Three: docs/own-game.md).
GENERIC_SETTINGS = Settings(200, 3.0, 0.2, 20_000, 0.5, 8, 8)


def settings_for(game: Any) -> Settings:
    """``game``'s settings: its own, or :data:`GENERIC_SETTINGS` opening with up to half the board in random moves."""
    if game.name in SETTINGS and compiled(game):
        return SETTINGS[game.name]
    return replace(GENERIC_SETTINGS, random_plies=max(1, game.squares // 2))


def compiled(game: Any) -> bool:
    """Whether ``game`` has its own settings here: not Connect Four's sizes but 7x6, which read the
    board's generic layout and play by the game's own rules (:mod:`.generic`)."""
    return game.name != "connect4" or default_layout(game).states == 4


def parse_step(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number") from None
    if not 0.0 < value <= 100.0:
        raise ValueError(f"{value} is outside 0..100 (0 excluded)")
    return value


def search_of(game: Any, search: str | int | None) -> tuple[str, str]:
    """(the spec's ``search=`` checked, the game's default): ValueError for a budget the game's
    search cannot play (any game's but Teeko's searches 0..:data:`PLAIN_PLIES` plies)."""
    own = game.name in DEFAULT_SEARCH and compiled(game)
    default = default_search(game)
    spelling = default if search is None else parse_search(str(search))
    plies, _ = budget_of(spelling)
    deepest = CONNECT4_PLIES if game.name == "connect4" and own else PLAIN_PLIES
    if game.name != "teeko" and (plies is None or plies > deepest):
        raise ValueError(f"ntuple searches {game.spec} 0..{deepest} plies, not search={spelling}")
    return spelling, default


def horizon_for(trace: float) -> int:
    """The afterstates a trace of ``trace`` (lambda) keeps: those whose share is still above
    :data:`TRACE_CUT` (GBG's horizon cut, Konen 2019), 1 with no trace, at most :data:`MAX_HORIZON`."""
    if trace <= 0.0:
        return 1
    if trace >= 1.0:
        return MAX_HORIZON
    return min(MAX_HORIZON, max(1, math.ceil(math.log(TRACE_CUT) / math.log(trace))))


def settings_given(game: Any, given: dict[str, float], tcl: bool | None) -> Settings:
    """``game``'s settings with the spec's alpha, epsilon and trace (``given``; a trace given keeps
    as many afterstates as :func:`horizon_for` says) and, unless None, temporal coherence learning
    on (:data:`TCL_BETA`) or off."""
    settings = replace(settings_for(game), **given)  # type: ignore[arg-type]  # the float settings only
    if "trace" in given:
        settings = replace(settings, horizon=horizon_for(float(given["trace"])))
    if tcl is not None:
        settings = replace(settings, coherence=TCL_BETA if tcl else 0.0)
    return settings


def spec_options(
    name: str | None,
    search: str | None,
    nodes: int | None,
    train: bool,
    given: dict[str, float],
    tcl: bool | None,
    layout: str | None,
) -> dict[str, OptionValue]:
    """The options a learner's spec states, in the spec's order: those it sets (``search``: None
    when it is the game's default), the learner's defaults left out."""
    options: dict[str, OptionValue] = {}
    if name:
        options["name"] = name
    if search is not None:
        options["search"] = search
    if nodes is not None:
        options["nodes"] = nodes
    if not train:
        options["train"] = "off"
    options.update(given)
    if tcl is not None:
        options["tcl"] = "on" if tcl else "off"
    if layout is not None:
        options["layout"] = layout
    return options
