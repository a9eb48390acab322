"""The web app's API tests: the app, with its store in the test's own $GAMELEARN_HOME, and a
TestClient (a browser with its own cookie)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from gamelearn.web import create_app


@pytest.fixture
def app():  # type: ignore[no-untyped-def]
    return create_app()  # the store in the test's own $GAMELEARN_HOME (tests/conftest.py)


@pytest.fixture
def client(app) -> Iterator[TestClient]:  # type: ignore[no-untyped-def]
    with TestClient(app) as browser:
        yield browser
