"""The addresses to share with friends: the LAN address(es) of this machine, the URLs the
server can be reached at, and the base of the invite links.

>>> share_urls("127.0.0.1", 8000, None, lan=["192.168.1.20"])
[('this computer', 'http://127.0.0.1:8000')]
>>> share_urls("0.0.0.0", 8000, None, lan=["192.168.1.20"])
[('this computer', 'http://127.0.0.1:8000'), ('your network', 'http://192.168.1.20:8000')]
>>> share_urls("0.0.0.0", 80, "https://play.example.org/dn", lan=[])[-1]
('invite links', 'https://play.example.org/dn')
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import time

#: listen addresses that mean "every interface"
WILDCARDS = {"0.0.0.0", "::", ""}


def _usable(address: str) -> bool:
    """A unicast address a friend could reach (not loopback, link-local or unspecified)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def lan_addresses(ipv6: bool = False) -> list[str]:
    """This machine's addresses on its networks, the one of the default route first.

    The default route's address is found by "connecting" a UDP socket, which sends
    nothing; the others come from the host name. Empty when the machine has no network.
    """
    found: list[str] = []
    probes = [(socket.AF_INET, "10.255.255.255")]
    if ipv6:
        probes.append((socket.AF_INET6, "fd00::1"))
    for family, probe in probes:
        with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            found.append(str(s.getsockname()[0]))
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, proto=socket.IPPROTO_TCP):
            if info[0] == socket.AF_INET or (ipv6 and info[0] == socket.AF_INET6):
                found.append(str(info[4][0]))
    unique: list[str] = []
    for address in found:
        if _usable(address) and address not in unique:
            unique.append(address)
    return unique


_cache: dict[bool, tuple[float, list[str]]] = {}


def cached_lan_addresses(ipv6: bool = False, max_age: float = 60.0) -> list[str]:
    """``lan_addresses`` looked up at most once a minute (pages ask on every load)."""
    now = time.monotonic()
    stamp, found = _cache.get(ipv6, (-max_age - 1.0, []))
    if now - stamp > max_age:
        found = lan_addresses(ipv6)
        _cache[ipv6] = (now, found)
    return found


def http_url(host: str, port: int) -> str:
    """``http://host:port`` (IPv6 addresses in brackets, port 80 left out)."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}" if port == 80 else f"http://{host}:{port}"


def share_urls(
    host: str, port: int, public_url: str | None, lan: list[str] | None = None
) -> list[tuple[str, str]]:
    """``(who can use it, URL)`` pairs to print at start-up.

    Listening on every interface (``0.0.0.0`` / ``::``) adds the LAN addresses; a
    ``public_url`` is where invite links point.
    """
    urls: list[tuple[str, str]] = []
    if host in WILDCARDS:
        urls.append(("this computer", http_url("127.0.0.1" if host != "::" else "::1", port)))
        if lan is None:
            lan = lan_addresses(ipv6=host == "::")
        urls.extend(("your network", http_url(address, port)) for address in lan)
    else:
        urls.append(("this computer" if is_loopback(host) else "your network",
                     http_url(host, port)))  # fmt: skip
    if public_url:
        urls.append(("invite links", public_url))
    return urls


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (only this machine reaches them)."""
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]").split("%")[0]).is_loopback
    except ValueError:
        return False


def invite_base(
    public_url: str | None,
    listen_host: str,
    port: int,
    page_host: str | None,
    page_port: int | None,
    lan: list[str] | None = None,
) -> str | None:
    """The start of invite links (``scheme://host[:port][/prefix]``), or None for "the
    address the page was opened at" (the browser's ``location.origin``).

    With a ``public_url`` it is that. Else, when the page was opened on this machine
    (``localhost``) at the server's own port and the server listens on every interface,
    a link to this machine's LAN address, which the friends can open; else the page's
    own address (a page opened through a proxy or a forwarded port: a link to the
    server's own address and port would go round them).

    >>> invite_base("https://dn.example.org", "127.0.0.1", 8000, "127.0.0.1", 8000)
    'https://dn.example.org'
    >>> invite_base(None, "0.0.0.0", 8000, "localhost", 8000, lan=["192.168.1.20"])
    'http://192.168.1.20:8000'
    >>> invite_base(None, "0.0.0.0", 8000, "localhost", 80, lan=["192.168.1.20"]) is None
    True
    >>> invite_base(None, "0.0.0.0", 8000, "192.168.1.20", 8000) is None
    True
    """
    if public_url:
        return public_url
    if (
        page_host is not None
        and is_loopback(page_host)
        and page_port == port
        and listen_host in WILDCARDS
    ):
        found = lan if lan is not None else cached_lan_addresses(ipv6=listen_host == "::")
        if found:
            return http_url(found[0], port)
    return None
