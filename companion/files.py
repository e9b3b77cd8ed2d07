"""Reading and writing a file a command names, safely: only a regular file is read, and only
up to a size limit; a file is written so that a crash leaves the old file or the new one, never
half of it, and a file the players ask for never over the games database.

A path can name /dev/zero (endless), a FIFO (blocks until someone writes) or a huge file; the
driver must answer every line, so such paths are refused with a reason instead of read.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from .core.commands import cut
from .core.errors import Refused

if TYPE_CHECKING:
    from .store import GameStore

MAX_READ_BYTES = 8 * 1024 * 1024
"""The largest file `import` and `tag_import` read (8 MiB); an export of a long game is far
smaller."""


def read_limited(path: Path, limit: int = MAX_READ_BYTES) -> bytes:
    """The bytes of the regular file at `path`; raises Refused for anything else or anything
    larger than `limit`."""
    named = cut(str(path))
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; the fstat below refuses it.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as error:
        raise Refused(f"could not read {named}: {error.strerror}") from None
    except ValueError:  # a NUL or an unencodable character in the path
        raise Refused(f"could not read {named}: no file can have that name") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise Refused(f"could not read {named}: it is a folder, not a file")
        if not stat.S_ISREG(mode):
            raise Refused(f"could not read {named}: it is not a regular file (a device, FIFO "
                          "or socket is never read)")
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1024 * 1024, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise Refused(f"could not read {named}: it is larger than {limit // (1024 * 1024)} "
                          "MiB, the most a file to import may be")
        return b"".join(chunks)
    except OSError as error:
        raise Refused(f"could not read {named}: {error.strerror}") from None
    finally:
        os.close(fd)


def write_atomically(path: Path, text: str | bytes, overwrite: bool) -> None:
    """Write `text` (UTF-8) or bytes to `path` so that a crash leaves the old file or the new
    one, never half.

    The text goes to a temporary file beside the target, which is fsynced and then renamed
    over it (or hard-linked to it when `overwrite` is false, which fails if the target exists
    however late it appeared); the folder is fsynced so the rename survives a power cut.
    Raises FileExistsError when the target exists and `overwrite` is false.
    """
    temporary = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(text.encode("utf-8") if isinstance(text, str) else text)
            f.flush()
            os.fsync(f.fileno())
        move_into_place(temporary, path, overwrite)
    finally:
        if temporary.exists():
            os.unlink(temporary)


def move_into_place(temporary: Path, path: Path, overwrite: bool) -> None:
    """Rename the written (and fsynced) file `temporary` to `path` in the same folder, then
    fsync the folder so the rename survives a power cut.

    Without `overwrite` the file is hard-linked to `path`, which fails if `path` exists however
    late it appeared (FileExistsError, `temporary` left for the caller); else `temporary` is
    gone once this returns.
    """
    if overwrite:
        os.replace(temporary, path)
    else:
        try:
            os.link(temporary, path)
        except FileExistsError:
            raise
        except OSError:  # a file system without hard links (FAT on a USB stick)
            if path.exists():
                raise FileExistsError(path) from None
            os.replace(temporary, path)
        else:
            os.unlink(temporary)
    sync_to_disk(path.parent)


def sync_to_disk(path: Path) -> None:
    """fsync a file (what was written to it is on the disk) or a folder (the names just made
    or renamed in it are)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_asked_for(store: GameStore, path: Path, text: str, overwrite: bool) -> None:
    """Write a file the players asked for: whole or not at all, never over the games."""
    if store.is_own_file(path):
        raise Refused(f"{path} is the games database; an export must go to another file")
    try:
        write_atomically(path, text, overwrite)
    except FileExistsError:
        raise Refused(f"{path} already exists; send \"overwrite\": true to replace "
                      "it") from None
    except OSError as error:
        raise Refused(f"could not write {path}: {error.strerror}") from None
