"""The HTTP server around the app (uvicorn, h11): what one client's sockets may hold.

uvicorn closes a keep-alive connection that stays idle after an answer (``timeout_keep_alive``),
but a connection that never finishes its request, or sends nothing at all, it keeps for ever, so
enough of them take every file descriptor or every connection the server allows, and no one else
is served.  :class:`GuardedH11` adds the bounds it lacks:

* a connection has ``request_timeout`` seconds to send a whole request, its head and its body
  (from the request's first byte, or from the connection for its first request); one that has
  begun a request and not finished it is answered 408 and closed, one that sent nothing is
  closed.  A body trickled a byte a second holds a socket for that long, not for hours;
* at most ``connections_per_client`` connections are open from one client address (an IPv6
  client's /64, which one machine is usually given whole), so that a few clients cannot take
  every connection; one more is closed as soon as it is accepted.  The proxies named in
  ``forwarded_allow_ips`` carry every client's connections and are not bounded so;
* at most ``max_connections`` are open at once; one more is closed as soon as it is accepted, and a
  request that arrives while that many are open is answered 503 (uvicorn's ``limit_concurrency``).

Forwarded headers (``X-Forwarded-For``) are trusted from the addresses given only, none by default:
otherwise one process on this machine names itself as any number of browsers' addresses and gets
past the per-address limit on new browsers (guards.NewOwnerLimit).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from dataclasses import dataclass
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True)
class ServerLimits:
    #: Seconds a connection has to send a whole request, head and body.
    request_timeout: float = 10.0
    #: Seconds an idle keep-alive connection is kept after an answer.
    keep_alive: float = 5.0
    #: Connections open at once.
    max_connections: int = 256
    #: Proxies whose X-Forwarded-For is believed (comma-separated addresses); "" trusts none.
    forwarded_allow_ips: str = ""
    #: Connections open at once from one client address (a browser opens at most 6 to a server).
    connections_per_client: int = 64


def client_group(host: str) -> str:
    """The address one client's connections are counted under: an IPv4 address as it is (an
    IPv4-mapped IPv6 one too), an IPv6 address by its /64 (one machine's usual share, RFC 4291's
    interface identifier), the loopback as it is; anything else (a Unix socket) as given."""
    try:
        address = ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        if not address.is_loopback:
            return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def request_timeout_answer(seconds: float) -> bytes:
    """The 408 a connection gets when its request did not arrive in time, then it is closed."""
    body = json.dumps({"detail": f"the request did not arrive within {seconds:g} s; the connection is closed"})
    head = (
        "HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
        f"content-length: {len(body)}\r\n\r\n"
    )
    return (head + body).encode()


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for the whole request and bounds on connections."""

    request_timeout = ServerLimits.request_timeout
    max_connections = ServerLimits.max_connections
    connections_per_client = ServerLimits.connections_per_client
    #: Clients whose connections are not bounded per address (the trusted proxies).
    unbounded: tuple[Network, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._began = False  # a byte of the request the deadline runs for has come
        self.group: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.max_connections or self._one_too_many():
            # Its descriptor goes at once, and it counts no more (connection_lost comes later).
            self.connections.discard(self)
            transport.close()
            return
        self._watch()

    def _one_too_many(self) -> bool:
        """True when this connection is one more than its client address may have open."""
        if self.client is None or self._trusted(self.client[0]):
            return False
        self.group = client_group(self.client[0])
        mine = sum(1 for other in self.connections if getattr(other, "group", None) == self.group)
        return mine > self.connections_per_client

    def _trusted(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host.strip("[]").split("%")[0])
        except ValueError:
            return False
        return any(address in network for network in self.unbounded)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if data and self._owes_a_request():
            self._began = True
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_watching()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()  # idle now (the keep-alive timeout takes over), or a body still owed

    def _owes_a_request(self) -> bool:
        """True while the client owes a request's head or body: from the connection (or the
        first byte after an answer, when the keep-alive timeout stops) until the body's end."""
        state = self.conn.their_state
        return state is h11.SEND_BODY or (state is h11.IDLE and self.timeout_keep_alive_task is None)

    def _watch(self) -> None:
        """Arm the deadline while a request is owed; disarm it once it has all come."""
        if self.transport.is_closing():
            return
        if not self._owes_a_request():
            self._stop_watching()
        elif self._deadline is None:
            self._deadline = self.loop.call_later(self.request_timeout, self._too_late)

    def _stop_watching(self) -> None:
        self._began = False
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_late(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or not self._owes_a_request():
            return
        # No answer of ours begun (the app may be waiting on the body): a 408 goes first.
        unanswered = self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE)
        if self._began and unanswered:
            if self.cycle is not None and not self.cycle.response_complete:
                self.cycle.disconnected = True  # whatever the app sends now goes nowhere
            self.transport.write(request_timeout_answer(self.request_timeout))
        self._began = False
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
    proxies = check_proxies(limits.forwarded_allow_ips)
    protocol = type(
        "GuardedH11Protocol",
        (GuardedH11,),
        {
            "request_timeout": limits.request_timeout,
            "max_connections": limits.max_connections,
            "connections_per_client": limits.connections_per_client,
            "unbounded": tuple(ipaddress.ip_network(item, strict=False) for item in proxies.split(",") if item),
        },
    )
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
