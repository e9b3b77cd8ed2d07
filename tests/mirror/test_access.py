"""Who the mirror answers: this machine and the local network, nobody else."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.mirror.access import (
    allowed_client,
    check_token,
    lan_addresses,
    new_token,
    usable_token,
)


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


@pytest.mark.parametrize("token", ["x", "short_tok1", "a/b", "é ü", "tok en with spaces",
                                   "ab%2Fcd123456", "aaaaaaaaaaaaaaaa", "121212121212"])
def test_a_guessable_token_or_one_no_address_can_carry_is_refused_in_words(token: str) -> None:
    with pytest.raises(ValueError, match="token"):
        check_token(token)
    assert not usable_token(token)


def test_new_tokens_and_long_url_safe_ones_are_accepted() -> None:
    for _ in range(200):
        assert check_token(new_token())
    assert check_token("tok-en_123456") == "tok-en_123456"


def test_companion_mirror_refuses_a_guessable_token_before_it_listens(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["mirror", "--db", str(tmp_path / "games.sqlite3"), "--token", "x"])
    assert stopped.value.code == 2
    assert "at least 11 characters" in capsys.readouterr().err
