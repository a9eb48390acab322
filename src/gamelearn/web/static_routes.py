"""Static files served from the root: the page installable and usable offline (as teeko.cc's is): its web app manifest and its
service worker, served from the root so that the worker's scope is the whole page
(static/sw.js says what it keeps; the JSON API is never cached)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse


def add_offline_routes(app: FastAPI, static: Path) -> None:
    @app.get("/sw.js", include_in_schema=False)
    def service_worker() -> FileResponse:
        # no-cache: a new server's worker replaces the old one at the next visit
        return FileResponse(static / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    @app.get("/manifest.webmanifest", include_in_schema=False)
    def manifest() -> FileResponse:
        return FileResponse(static / "manifest.webmanifest", media_type="application/manifest+json")
