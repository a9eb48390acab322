"""The web app's edges: the browser's owner id (a cookie), the bound on request bodies, and the
scrubbing of server paths out of every message a browser is shown.

The owner id is the store's ``owner``: random (``secrets``), HttpOnly so page scripts cannot read
it, SameSite=Lax, so that a person who follows a link to the page from another site (a course
page, a chat) arrives with it, as the same browser.  What keeps other sites from using it is not
the SameSite attribute but the checks on every change: any method but GET, HEAD and OPTIONS must
come from this server's own page (:func:`cross_origin`, on ``Sec-Fetch-Site`` and ``Origin``),
which refuses a page on another port of this machine too (the same *site* for cookies, Lax or
Strict alike, but another origin).  A GET changes nothing, and another site cannot read the
answer (no CORS header is ever sent).

A new id is set only on a request the browser's own page (or the person, typing the address)
made (:func:`may_name_a_new_owner`): a request from another site that comes without the cookie
(a form posted from there, a cookie an older gamelearn set ``Strict``) is answered without a new
one, so it can never replace the browser's id, its games and its learners with nobody's.  A
cookie that is not one of ours (wrong shape) is replaced, never trusted.
"""

from __future__ import annotations

import ipaddress
import json
import re
import secrets
import threading
import time
from collections import deque

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..paths import data_dir

OWNER_COOKIE = "gamelearn_id"
OWNER_PATTERN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
#: A year: learners are meant to go on learning across visits.
OWNER_MAX_AGE = 365 * 24 * 3600


#: Sent with every answer: scripts only from this server (no inline script), no framing (Reset
#: cannot be clickjacked), no content-type guessing, no page address sent to other sites.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


class TooManyNewOwners(RuntimeError):
    def __init__(self, retry_after: int) -> None:
        super().__init__(f"too many new browsers from your address; try again in {retry_after} s")
        self.retry_after = retry_after


class TooManyShares(RuntimeError):
    """A new shared link past a bound (this browser's, or the server's); ``retry_after`` seconds
    until the oldest link that counts expires."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = max(1, int(retry_after) + 1)


def how_long(seconds: float) -> str:
    """``seconds`` as a person reads a wait: "40 s", "12 min", "5 h", "29 days"."""
    for unit, size, past in (("s", 1, 90), ("min", 60, 90 * 60), ("h", 3600, 36 * 3600)):
        if seconds < past:
            return f"{max(1, round(seconds / size))} {unit}"
    return f"{round(seconds / 86400)} days"


class NewOwnerLimit:
    """At most ``limit`` new owners (browsers that start their first game) per client address in
    any ``window`` seconds, so one client cannot fill the server with games of made-up browsers.
    A browser counts once: its first game asked for again (after a 503 from a busy server, whose
    answer already gave it its id) is the same newcomer, not another."""

    #: Addresses remembered at most (the oldest are dropped past it).
    MAX_ADDRESSES = 10_000

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self._seen: dict[str, deque[tuple[float, str]]] = {}
        self._lock = threading.Lock()

    def admit(self, address: str, owner: str) -> None:
        now = time.monotonic()
        with self._lock:
            admitted = self._seen.setdefault(address, deque())
            while admitted and now - admitted[0][0] > self.window:
                admitted.popleft()
            if any(known == owner for _, known in admitted):
                return
            if len(admitted) >= self.limit:
                raise TooManyNewOwners(max(1, int(self.window - (now - admitted[0][0])) + 1))
            admitted.append((now, owner))
            if len(self._seen) > self.MAX_ADDRESSES:
                for stale in list(self._seen)[: len(self._seen) - self.MAX_ADDRESSES]:
                    del self._seen[stale]


#: Methods that change nothing, so any page may send them (the events stream, the page itself).
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: What a browser's Sec-Fetch-Site says of a request from this server's own page, or typed in.
OWN_FETCH_SITES = frozenset({"same-origin", "none"})


#: The names of this machine every server answers to, whatever address it listens on.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
_HOST_NAME = re.compile(r"[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]+\]")


def check_host_name(name: str) -> str:
    """``name`` as an allowed host (lower case), or ValueError in one line: a DNS name or an IP
    address (an IPv6 one in brackets), without a port, a path or spaces."""
    cleaned = name.strip().lower().rstrip(".")
    if ":" in cleaned and not cleaned.startswith("["):
        try:
            ipaddress.IPv6Address(cleaned)
        except ValueError:
            pass
        else:
            cleaned = f"[{cleaned}]"
    if _HOST_NAME.fullmatch(cleaned) is None:
        raise ValueError(f"--allowed-hosts: {name[:60]!r} is not a host name (a name or an address, no port)")
    return cleaned


def own_hosts(host: str, port: int, extra: tuple[str, ...] = ()) -> frozenset[str]:
    """The ``Host`` values a server listening on ``host``:``port`` answers to: this machine's
    loopback names, the address it listens on (unless it is every address, 0.0.0.0 or ::), and
    the ``extra`` names, each with the port (and without it on port 80, as a browser sends it);
    an ``extra`` name without a port too (a proxy in front, on the standard port)."""
    added = {check_host_name(name) for name in extra}
    names = {*LOOPBACK_NAMES, *added}
    try:
        listened = check_host_name(host)
    except ValueError:  # not a name a browser sends (uvicorn refuses it anyway)
        listened = "0.0.0.0"
    if listened not in ("0.0.0.0", "[::]"):
        names.add(listened)
    found = {f"{name}:{port}" for name in names} | added  # an added name may be a proxy's, on its own port
    if port == 80:
        found |= names
    return frozenset(found)


def wrong_host(host: str | None, allowed: frozenset[str] | None) -> str | None:
    """Why a request sent to ``host`` (its Host header) is not for this server, or None.  A page
    of another site that a DNS name now leads to 127.0.0.1 (DNS rebinding) sends its own name in
    Host; refused before the Origin check, which compares Origin with this Host."""
    if allowed is None:
        return None
    shown = (host or "")[:60]
    if host is not None and host.strip().lower().rstrip(".") in allowed:
        return None
    names = ", ".join(sorted(allowed))
    return f"this server answers to {names}, not to the host {shown!r} (gamelearn serve --allowed-hosts adds names)"


def cross_origin(method: str, scheme: str, headers: dict[str, str]) -> str | None:
    """Why a request that may change something does not come from this server's page, or None.

    A browser names the page a request comes from in ``Origin`` (and, lately, ``Sec-Fetch-Site``)
    on every cross-origin POST, PUT or DELETE; it must be this server's own origin, the scheme
    and the ``Host`` the request was sent to, port included (RFC 6454).  A request with neither
    header is not a browser's (a script, curl): it has no cookie of another site to borrow."""
    if method.upper() in SAFE_METHODS:
        return None
    site = headers.get("sec-fetch-site")
    if site is not None and site.lower() not in OWN_FETCH_SITES:
        return f"a {site[:20]} request: changes come only from this server's own page"
    origin = headers.get("origin")
    if origin is None:
        return None
    own = f"{scheme}://{headers.get('host', '')}".lower()
    if origin.strip().lower().rstrip("/") != own:
        return f"a request from {origin[:60]!r}: changes come only from this server's own page"
    return None


def may_name_a_new_owner(headers: dict[str, str]) -> bool:
    """Whether a request that came without an owner cookie, and that :func:`cross_origin` lets
    through, may be answered with a new one: only one from this server's own page or typed in
    (``Sec-Fetch-Site`` ``same-origin`` or ``none``), or one of a client that sends no
    ``Sec-Fetch-Site`` (a script, an older browser).  A browser sends its cookie with every
    request of this server's own page, but one that arrives from another site without it may
    still hold one, which a new id would replace (RFC 6265bis 5.7: the answer to a top-level
    navigation may set a SameSite cookie)."""
    site = headers.get("sec-fetch-site")
    return site is None or site.lower() in OWN_FETCH_SITES


def new_owner_id() -> str:
    return secrets.token_urlsafe(24)


def valid_owner(value: str | None) -> bool:
    return bool(value) and OWNER_PATTERN.match(value or "") is not None


#: A run of characters that may be (part of) a file path: no blanks, quotes, brackets or ';'.
_TOKEN = re.compile(r"[^\s'\"`()\[\]<>;]+")
_DRIVE = re.compile(r"^[A-Za-z]:[\\/]")
_CLOSING_TAG = re.compile(r"/[A-Za-z][A-Za-z0-9-]{0,20}")
_DATA_MARK = "\x00data\x00"
#: What the data directory's path is replaced with in a message.
DATA_DIRECTORY = "<data directory>"


def _looks_like_path(token: str) -> bool:
    """``/srv/x``, ``~/x``, ``C:\\x``: an absolute path, as the server's own paths are.  A relative
    ``a/b/c``, ``1/2`` or ``4-3-2-1`` (a person's input, option values) is left as it is."""
    return token.startswith(("/", "~/", "\\")) or _DRIVE.match(token) is not None


#: A message a browser is shown is cut to this many characters, and any one word of it (echoed
#: input: a spec, a move) to LONGEST_WORD.
LONGEST_MESSAGE = 300
LONGEST_WORD = 48


def _cut(message: str) -> str:
    def shorten(match: re.Match[str]) -> str:
        word = match.group()
        return word if len(word) <= LONGEST_WORD else f"{word[: LONGEST_WORD - 8]}… ({len(word)} characters)"

    message = re.sub(rf"\S{{{LONGEST_WORD + 1},}}", shorten, message)
    return message if len(message) <= LONGEST_MESSAGE else message[: LONGEST_MESSAGE - 1] + "…"


def _scrub_paths(message: str) -> str:
    pieces: list[str] = []
    kept_until = 0
    after_path = False  # the token before (blanks between) was a path: "/srv/my docs/x" goes whole
    for match in _TOKEN.finditer(message):
        token = match.group()
        core = token.rstrip(".,:")  # a sentence's punctuation after a path stays
        between = message[kept_until : match.start()]
        continues = after_path and not between.strip() and ("/" in core or "\\" in core)
        # "</b>" a person typed is a closing tag, not a path ("</srv/x>" still is one).
        tag = between.endswith("<") and _CLOSING_TAG.fullmatch(token) is not None and message[match.end() :][:1] == ">"
        after_path = not tag and not core.startswith(_DATA_MARK) and (continues or _looks_like_path(core))
        pieces.append(between)
        pieces.append("<server path>" + token[len(core) :] if after_path else token)
        kept_until = match.end()
    pieces.append(message[kept_until:])
    return "".join(pieces)


def public_message(text: object) -> str:
    """An error's message as a browser may see it: one line, and no path of the server's files.

    A player's or a game's error may name a file (a missing solved table, a memory file); the
    browser needs the reason, not where the server keeps its data.  The data directory is named
    as such (its own path may hold blanks a pattern could not see through); any other path
    becomes ``<server path>``."""
    # Idempotent: a message scrubbed once (then again where it becomes an HTTP detail) keeps its
    # "<data directory>/solved/teeko.table".
    message = " ".join(str(text).split()).replace(DATA_DIRECTORY, _DATA_MARK)
    home = str(data_dir())
    if len(home) > 1 and (home.startswith("/") or _DRIVE.match(home)):
        # The directory itself, not a longer name that starts with it (/srv/gl in /srv/glx).
        message = re.sub(re.escape(home.rstrip("/\\")) + r"(?![\w-])", _DATA_MARK, message)
    return _cut(_scrub_paths(message).replace(_DATA_MARK, DATA_DIRECTORY))


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is answered 413 before any handler runs,
    whether it declares its length (Content-Length) or streams it in chunks.  ``larger`` gives the
    few paths that take a file (a thesis memory.m) a limit of their own."""

    def __init__(self, app: ASGIApp, limit: int, larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.larger = dict(larger or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope.get("path", ""), self.limit)
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await self._refuse(send, 400, "Content-Length is not a number")
                    return
                if declared > limit:
                    await self._refuse(send, 413, f"request body over {limit} bytes")
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
            if received > limit:
                await self._refuse(send, 413, f"request body over {limit} bytes")
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
        body = json.dumps({"detail": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})
