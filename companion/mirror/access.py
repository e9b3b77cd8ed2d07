"""Who may look: the addresses the mirror answers and listens on, and its secret token.

Pure standard library; the server asks `allowed_client` before anything else.
"""

from __future__ import annotations

import contextlib
import fcntl
import ipaddress
import secrets
import socket
import struct
from pathlib import Path

ALLOWED_NETWORKS = tuple(ipaddress.ip_network(net) for net in (
    "127.0.0.0/8", "::1/128",                          # loopback
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",  # RFC 1918
    "169.254.0.0/16", "fe80::/10",                     # link-local
    "fc00::/7",                                        # unique local IPv6
))
"""The clients the mirror answers: the machine itself and the local network, nobody else."""

TOKEN_BYTES = 9
"""72 random bits: 12 URL-safe characters, short enough for a small QR code."""

_SIOCGIFADDR = 0x8915


def allowed_client(address: str) -> bool:
    """Whether a peer at `address` is on this machine or the local network (an IPv4 address
    seen through an IPv6 socket, ::ffff:a.b.c.d, counts as the IPv4 address)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip.version == net.version and ip in net for net in ALLOWED_NETWORKS)


MIN_TOKEN_CHARS = 11
"""URL-safe characters carry 6 bits each: 11 of them are the 64 bits a guess must beat."""
_URL_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
MIN_DISTINCT_CHARS = 5
"""Fewer different characters than this is a pattern ("aaaaaaaaaaaa"), not randomness; a
random 11-character token has so few about once in a billion."""


def check_token(token: str) -> str:
    """`token` if it can be the address's secret; otherwise ValueError saying why."""
    strange = sorted({c for c in token if c not in _URL_SAFE})
    if strange:
        raise ValueError(f"the token may hold only letters A-Z and a-z, digits, '-' and '_' "
                         f"(it must fit in a web address as it is), not {' '.join(strange)!r}")
    if len(token) < MIN_TOKEN_CHARS:
        raise ValueError(f"the token must be at least {MIN_TOKEN_CHARS} characters long "
                         f"(64 random bits), not {len(token)}")
    if len(set(token)) < MIN_DISTINCT_CHARS:
        raise ValueError("the token repeats too few characters to be a secret; leave --token "
                         "out for a random one")
    return token


def usable_token(token: str) -> bool:
    try:
        check_token(token)
    except ValueError:
        return False
    return True


def new_token() -> str:
    """A fresh secret for the page's address (new each game night, or on demand)."""
    while True:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with contextlib.suppress(ValueError):
            return check_token(token)


def lan_addresses() -> list[str]:
    """This machine's addresses on the local network (private or link-local IPv4, unique
    local IPv6), loopback left out; the first is the one a phone is best pointed at."""
    found: list[str] = []
    for _, name in socket.if_nameindex():
        address = _ipv4_of(name)
        if address and address not in found:
            found.append(address)
    found.extend(address for address in _ipv6_unique_local() if address not in found)
    routed = _default_route_address()
    if routed in found:  # the address the default route leaves by: the Wi-Fi's, usually
        found.remove(routed)
        found.insert(0, routed)
    return [a for a in found if allowed_client(a) and not ipaddress.ip_address(a).is_loopback]


def _ipv4_of(interface: str) -> str | None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            packed = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR,
                                 struct.pack("256s", interface.encode()[:15]))
        except OSError:  # no IPv4 address on this interface
            return None
    return socket.inet_ntoa(packed[20:24])


def _ipv6_unique_local() -> list[str]:
    """fc00::/7 addresses from /proc (link-local ones need a zone to bind, so not those)."""
    found = []
    with contextlib.suppress(OSError):
        for line in Path("/proc/net/if_inet6").read_text().splitlines():
            raw = line.split()[0]
            address = str(ipaddress.IPv6Address(bytes.fromhex(raw)))
            if ipaddress.IPv6Address(address) in ipaddress.ip_network("fc00::/7"):
                found.append(address)
    return found


def _default_route_address() -> str | None:
    """The source address of the default route (a UDP connect sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
        except OSError:  # no route at all: no network
            return None
        return str(probe.getsockname()[0])
