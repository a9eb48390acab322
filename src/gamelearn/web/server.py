"""The HTTP server around the app (uvicorn, h11): what one client's sockets may hold.

uvicorn closes a keep-alive connection that stays idle after an answer (``timeout_keep_alive``),
but a connection that never finishes its request's headers, or sends nothing at all, it keeps for
ever, so enough of them take every file descriptor.  :class:`GuardedH11` adds the two bounds it lacks:

* a connection has ``header_timeout`` seconds to send a whole request head (from its first byte,
  or from the connection), else it is closed;
* at most ``max_connections`` are open at once; one more is closed as soon as it is accepted, and a
  request that arrives while that many are open is answered 503 (uvicorn's ``limit_concurrency``).

Forwarded headers (``X-Forwarded-For``) are trusted from the addresses given only, none by default:
otherwise one process on this machine names itself as any number of browsers' addresses and gets
past the per-address limit on new browsers (guards.NewOwnerLimit).
"""

from __future__ import annotations

import asyncio
import ipaddress
from dataclasses import dataclass
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol


@dataclass(frozen=True)
class ServerLimits:
    #: Seconds a connection has to send its request's headers.
    header_timeout: float = 10.0
    #: Seconds an idle keep-alive connection is kept after an answer.
    keep_alive: float = 5.0
    #: Connections open at once.
    max_connections: int = 256
    #: Proxies whose X-Forwarded-For is believed (comma-separated addresses); "" trusts none.
    forwarded_allow_ips: str = ""


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for the request head and a hard connection limit."""

    header_timeout = ServerLimits.header_timeout
    max_connections = ServerLimits.max_connections

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            transport.close()  # its descriptor goes at once; connection_lost forgets it
            return
        self._watch_head()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_watching()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        self._stop_watching()  # idle now: the keep-alive timeout takes over
        super().on_response_complete()

    def _watch_head(self) -> None:
        """Arm the deadline while the client owes a request head; disarm it once it has sent one."""
        if self.transport.is_closing():
            return
        waiting = self.conn.their_state is h11.IDLE and self.timeout_keep_alive_task is None
        if waiting and self._head_deadline is None:
            self._head_deadline = self.loop.call_later(self.header_timeout, self._head_too_late)
        elif not waiting:
            self._stop_watching()

    def _stop_watching(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _head_too_late(self) -> None:
        self._head_deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def check_proxies(addresses: str) -> str:
    """The trusted proxies' addresses, each checked (ValueError naming the bad one)."""
    items = [item.strip() for item in addresses.split(",") if item.strip()]
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise ValueError(f"--proxies: {item[:60]!r} is not an IP address or network") from None
    return ",".join(items)


def server_config(
    app: Any, host: str, port: int, limits: ServerLimits | None = None, **overrides: Any
) -> uvicorn.Config:
    """The uvicorn configuration `gamelearn serve` runs (and the tests start); ``overrides``: more
    of uvicorn.Config's settings (a test's ``log_config=None`` leaves the logging alone)."""
    limits = limits or ServerLimits()
    protocol = type(
        "GuardedH11Protocol",
        (GuardedH11,),
        {"header_timeout": limits.header_timeout, "max_connections": limits.max_connections},
    )
    proxies = check_proxies(limits.forwarded_allow_ips)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=protocol,
        timeout_keep_alive=max(1, round(limits.keep_alive)),
        limit_concurrency=limits.max_connections,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        **overrides,
    )


def open_to_the_network(host: str) -> bool:
    """True for an address other machines can reach (anything but the loopback)."""
    if host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return True  # a host name: it may resolve to any interface
