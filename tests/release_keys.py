"""Ed25519 key pairs made with openssl for the tests of signed releases."""

from __future__ import annotations

import subprocess
from pathlib import Path


def make_key(folder: Path, name: str) -> Path:
    """NAME.key (private) and NAME.pub (public) in folder; the private key's path."""
    folder.mkdir(parents=True, exist_ok=True)
    key = folder / f"{name}.key"
    subprocess.run(["openssl", "genpkey", "-algorithm", "ed25519", "-out", str(key)], check=True)
    subprocess.run(["openssl", "pkey", "-in", str(key), "-pubout", "-out",
                    str(folder / f"{name}.pub")], check=True)
    return key
