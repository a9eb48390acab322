"""A test of an optional extra skips, naming the extra, where the extra is not installed: the
sdist's tests pass on the base install (``pip install gamelearn pytest``), the extras' tests
skipped by name."""

from __future__ import annotations

from typing import Any

import pytest


def need(extra: str, module: str) -> Any:
    """``module`` imported, or this test module (or test) skipped: 'the neural extra is not
    installed (no jax): pip install "gamelearn[neural]"'."""
    return pytest.importorskip(
        module, reason=f'the {extra} extra is not installed (no {module}): pip install "gamelearn[{extra}]"'
    )


def needs(extra: str, module: str) -> pytest.MarkDecorator:
    """A mark that skips a test (or a parameter) without ``module``, naming the extra."""
    from importlib.util import find_spec

    return pytest.mark.skipif(
        find_spec(module) is None,
        reason=f'the {extra} extra is not installed (no {module}): pip install "gamelearn[{extra}]"',
    )
