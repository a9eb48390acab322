"""The page installable and offline: the manifest and the service worker are
served from the root, and the worker keeps only the page's own files, every one of which is there."""

from __future__ import annotations

import json
import re
import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def test_the_worker_and_the_manifest_are_served_from_the_root(client: TestClient) -> None:
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
    assert worker.headers["cache-control"] == "no-cache"  # a new server's worker replaces the old
    assert "http://" not in worker.text and "https://" not in worker.text
    manifest = client.get("/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    data = json.loads(manifest.text)
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200
    kept = re.findall(r'"(/[^"]*)"', worker.text.split("];")[0])
    assert "/" in kept and "/static/js/main.js" in kept
    for path in kept:
        assert client.get(path).status_code == 200, path
    assert 'rel="manifest"' in client.get("/").text
