"""`companion mirror`: the phones' view of the games another process plays in a database,
for a headless Pi or a test. Prints the page's address first, then serves until stopped."""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

from . import DEFAULT_PORT


def add_mirror_command(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    mirror = commands.add_parser(
        "mirror",
        help="show the game played in a database on phones (read-only, local network only)",
        description="Serves a read-only page of the game another companion plays in DB, to "
        "the local network only. The first line printed is the page's address with its "
        "secret token; the page follows every acknowledged command until Ctrl-C.")
    mirror.add_argument("--db", type=Path, required=True, dest="mirror_db",
                        help="the games database to follow (opened read-only)")
    mirror.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"the port (default {DEFAULT_PORT}; 0: any free one)")
    mirror.add_argument("--host", default=None,
                        help="listen on this address only (default: loopback and every LAN "
                        "address)")
    mirror.add_argument("--token", default=None, type=_token,
                        help="the address's secret (default: a new random one); give the "
                        "last one to keep phones following across a restart (at least 11 "
                        "characters of A-Z, a-z, 0-9, - and _)")


def _token(text: str) -> str:
    from .access import check_token

    try:
        return check_token(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run_mirror_command(args: argparse.Namespace) -> int:
    # Imported here: the app's start pays for none of this.
    from ..signals import StopSignals
    from ..store_errors import StoreError
    from .access import new_token
    from .feed import MirrorFeed
    from .follow import DatabaseFollower
    from .server import MirrorServer

    feed = MirrorFeed()
    try:
        follower = DatabaseFollower(args.mirror_db, feed)
    except StoreError as error:
        print(f"companion mirror: {error}", file=sys.stderr)
        return 1
    follower.poll()  # the state is there before the first phone asks
    server = MirrorServer(feed, args.token or new_token(), port=args.port, host=args.host)
    try:
        server.start()
    except OSError as error:
        print(f"companion mirror: cannot listen on port {args.port}: {error.strerror}",
              file=sys.stderr)
        follower.store.close()
        return 1
    urls = server.urls()
    print(urls[0], flush=True)
    for other in urls[1:]:
        print(f"also: {other}", flush=True)
    stop = threading.Event()
    try:
        with StopSignals():
            follower.run(stop)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        server.stop()
        server.rules.close()
    return 0
