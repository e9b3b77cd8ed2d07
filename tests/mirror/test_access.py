"""Who the mirror answers: this machine and the local network, nobody else."""

from __future__ import annotations

import pytest

from companion.mirror.access import allowed_client, lan_addresses, new_token


@pytest.mark.parametrize("address", [
    "127.0.0.1", "127.3.2.1", "::1",                     # loopback
    "10.0.0.7", "172.16.0.1", "172.31.255.254", "192.168.1.23",  # RFC 1918
    "169.254.10.20", "fe80::1", "fe80::1%wlan0",          # link-local
    "fd12:3456:789a::1", "fc00::5",                       # unique local
    "::ffff:192.168.1.40",                                # IPv4 seen through an IPv6 socket
])
def test_the_machine_and_the_local_network_may_look(address: str) -> None:
    assert allowed_client(address)


@pytest.mark.parametrize("address", [
    "8.8.8.8", "1.1.1.1", "172.32.0.1", "172.15.255.255", "192.169.0.1", "11.0.0.1",
    "100.64.0.1",            # carrier-grade NAT is not the table's network
    "192.0.2.10",            # documentation range
    "2001:db8::1", "2a00:1450:4001::200e", "::ffff:8.8.8.8",
    "0.0.0.0", "", "not an address", "999.1.1.1",
])
def test_a_public_or_unreadable_address_may_not(address: str) -> None:
    assert not allowed_client(address)


def test_tokens_are_url_safe_and_new_each_time() -> None:
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50
    assert all(len(token) == 12 and token.replace("-", "").replace("_", "").isalnum()
               for token in tokens)


def test_the_lan_addresses_are_local_and_never_loopback() -> None:
    for address in lan_addresses():
        assert allowed_client(address) and not address.startswith("127.") and address != "::1"
