"""The web app's edges: the browser's owner id (a cookie) and the bound on request bodies.

The owner id is the store's ``owner``: random (``secrets``), HttpOnly so page scripts cannot read
it, SameSite=Lax so other sites cannot use it in a form post.  A cookie that is not one of ours
(wrong shape) is replaced, never trusted.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

OWNER_COOKIE = "gamelearn_id"
OWNER_PATTERN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
#: A year: learners are meant to go on learning across visits.
OWNER_MAX_AGE = 365 * 24 * 3600

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def new_owner_id() -> str:
    return secrets.token_urlsafe(24)


def valid_owner(value: str | None) -> bool:
    return bool(value) and OWNER_PATTERN.match(value or "") is not None


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is answered 413 before any handler runs,
    whether it declares its length (Content-Length) or streams it in chunks."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await self._refuse(send, 400, "Content-Length is not a number")
                    return
                if declared > self.limit:
                    await self._refuse(send, 413, f"request body over {self.limit} bytes")
                    return
        # Read the whole body first (it is small by definition) so a streamed body over the limit
        # is refused before any handler sees a byte of it, then replay it to the app.
        chunks: list[bytes] = []
        received = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > self.limit:
                await self._refuse(send, 413, f"request body over {self.limit} bytes")
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _refuse(send: Send, status: int, message: str) -> None:
        import json

        body = json.dumps({"detail": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})
