"""What a browser may ask a computer player to do: the options it may not give, and the bounds
on the work of one move (the server's settings, web/settings.py)."""

from __future__ import annotations

from ..games import Game
from ..games.specs import spec_name, split_spec
from ..players.base import Player
from .sessions import Seat
from .settings import DEFAULT_WORK_BOUNDS, HEAVY_KINDS

#: Options a browser may not give: the web app keeps each browser's learners itself (the store's
#: owner is the browser), and a name or a path would reach the command line's learners or files.
REFUSED_OPTIONS = ("name", "memory", "store", "owner")
#: The default bounds on the work of one computer move (WebSettings.work_bounds changes them).
WORK_BOUNDS = DEFAULT_WORK_BOUNDS


#: The attributes that hold an option's value on a player made from a spec, besides the parsed
#: options themselves (Player.options): Sharp keeps the depth it really searches as ``horizon``.
WORK_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "playouts": ("playouts",),
    "depth": ("depth", "horizon"),
    "simulations": ("simulations",),
}


def check_web_spec(game: Game, spec: str) -> None:
    """Refuse, before the player is made, the options a spec may give on a command line but not
    from a browser (a memory or a store name is read as soon as the player is made)."""
    for key, _ in split_spec(spec).options:
        if key in REFUSED_OPTIONS:
            raise ValueError(f"option {key!r} is not offered by the web app: it keeps this browser's learners itself")


def check_web_work(game: Game, player: Player, bounds: dict[str, dict[str, int]] | None = None) -> None:
    """Refuse a player whose moves would cost the server more than WORK_BOUNDS allows.

    The bound is read on the player made from the spec, the values it will really use, not on
    the spec's text: "+9", " 9", "1_000_000" or whatever spelling the option parser accepts
    cannot slip past it."""
    for option, per_game in (WORK_BOUNDS if bounds is None else bounds).items():
        bound = per_game.get(game.name)
        largest = work_value(player, option)
        if bound is not None and largest is not None and largest > bound:
            raise ValueError(f"option {option}={largest} is too large (at most {bound} for {game.name} on this server)")


def work_value(player: Player, option: str) -> int | None:
    """The value of a work option (``playouts``, ``depth``, ``simulations``) the player will use."""
    options = getattr(player, "options", None) or {}
    values = [options.get(option)] + [getattr(player, name, None) for name in WORK_ATTRIBUTES.get(option, (option,))]
    return max((v for v in values if isinstance(v, int) and not isinstance(v, bool)), default=None)


def heavy_work(game: Game, seats: tuple[Seat, Seat], ordinary: dict[str, dict[str, int]]) -> bool:
    """True when a computer of the game may make a heavy move: a kind of HEAVY_KINDS, or a work
    option above what ``ordinary`` (WebSettings.ordinary_work) allows for the game."""
    for seat in seats:
        if seat.human:
            continue
        if spec_name(seat.spec) in HEAVY_KINDS:
            return True
        for option, per_game in ordinary.items():
            bound, value = per_game.get(game.name), work_value(seat.player, option)
            if bound is not None and value is not None and value > bound:
                return True
    return False
