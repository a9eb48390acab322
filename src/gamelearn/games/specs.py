"""The one grammar of specs, for games and players alike: ``NAME[:KEY=VALUE,KEY=VALUE,...]``.

A spec is a name, then optionally a colon and options separated by commas.  An option is
``KEY=VALUE``; the value runs to the next comma that starts another ``KEY=`` piece, so a value may
hold a comma (a memory file's name) or an ``=`` (``a=b=c`` is the option ``a`` with the value
``b=c``).  A piece with no ``=`` before any option is an option without a value, which the reader
of the spec refuses in its own words.  Spaces around names, keys and values are not part of them.

This module only splits the text; which names, options and values are valid is the say of the game
(:func:`gamelearn.games.parse_game_spec`) or of the player's kind (the player registry).  The page
reads game specs with the same grammar (``web/static/js/spec.js``): one table of cases,
``tests/data/spec_grammar.json``, is checked against both.
"""

from __future__ import annotations

from typing import NamedTuple


class SpecOption(NamedTuple):
    """One option of a spec: its key, and its value (None where the piece has no ``=``)."""

    key: str
    value: str | None


class Spec(NamedTuple):
    """A spec split into its name and its options, in the order written.

    >>> split_spec("ntuple:name=t,memory=a,b.m")
    Spec(name='ntuple', options=(SpecOption(key='name', value='t'), SpecOption(key='memory', value='a,b.m')))
    """

    name: str
    options: tuple[SpecOption, ...]

    def text(self) -> str:
        """The spec written back: ``name`` or ``name:key=value,...``."""
        pieces = [key if value is None else f"{key}={value}" for key, value in self.options]
        return self.name + (":" + ",".join(pieces) if pieces else "")


def split_options(text: str) -> tuple[SpecOption, ...]:
    """The options of the text after a spec's colon, in the grammar above."""
    options: list[tuple[str, str | None]] = []
    if not text.strip():
        return ()
    for piece in text.split(","):
        key, eq, value = piece.partition("=")
        if not eq and options and options[-1][1] is not None:
            last_key, last_value = options[-1]  # a comma inside the value before: it goes on
            options[-1] = (last_key, f"{last_value},{piece}")
            continue
        options.append((key.strip(), value if eq else None))
    return tuple(SpecOption(key, None if value is None else value.strip()) for key, value in options)


def split_spec(spec: str) -> Spec:
    """``spec`` split into its name and options; nothing is checked but the grammar itself."""
    name, _, rest = spec.strip().partition(":")
    return Spec(name.strip(), split_options(rest))


def spec_name(spec: str) -> str:
    """The name a spec starts with: ``"ntuple:name=t"`` -> ``"ntuple"``."""
    return spec.strip().partition(":")[0].strip()


__all__ = ["Spec", "SpecOption", "spec_name", "split_options", "split_spec"]
