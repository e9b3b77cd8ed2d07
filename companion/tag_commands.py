"""The tag registry's commands: what the RFID tags under the cards mean (list, look up, enrol,
forget, and export or import them as CSV); no game needed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from .core import commands as c
from .core.errors import Refused
from .core.phrases import Translate
from .files import read_limited, write_asked_for
from .reader import tags
from .store import GameStore
from .store_errors import TagsInUse


@dataclass(frozen=True)
class ListTags(c.Command):
    """Every enrolled tag, and how many cards of each kind have one."""

    name: ClassVar[str] = "tags"


@dataclass(frozen=True)
class LookUpTag(c.Command):
    name: ClassVar[str] = "tag_lookup"
    uid: str


@dataclass(frozen=True)
class EnrolTag(c.Command):
    name: ClassVar[str] = "tag_enrol"
    uid: str
    kind: str
    card: str
    replace: bool = False
    """Re-enrol a tag that already means something else."""


@dataclass(frozen=True)
class ForgetTag(c.Command):
    name: ClassVar[str] = "tag_forget"
    uid: str


@dataclass(frozen=True)
class ExportTags(c.Command):
    name: ClassVar[str] = "tag_export"
    path: str


@dataclass(frozen=True)
class ImportTags(c.Command):
    name: ClassVar[str] = "tag_import"
    path: str
    replace: bool = False
    """Re-enrol tags the file gives another meaning than they have now."""


TAG_REGISTRY_COMMANDS = (ListTags, LookUpTag, EnrolTag, ForgetTag, ExportTags, ImportTags)


class TagCommands:
    """Answers the six tag commands from the tags the store keeps."""

    commands: ClassVar[tuple[type[c.Command], ...]] = TAG_REGISTRY_COMMANDS

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def handle(self, command: c.Command, translate: Translate) -> dict[str, Any]:
        if isinstance(command, ListTags):
            enrolled = {uid: _meaning(row) for uid, row in self.store.tags().items()}
            return {"tags": [_tag_view(uid, m) for uid, m in tags.sorted_tags(enrolled)],
                    "progress": tags.progress(enrolled.values(), tags.known_cards())}
        if isinstance(command, LookUpTag):
            uid = _uid(command.uid)
            row = self.store.tag(uid)
            return {"tag": _tag_view(uid, _meaning(row)) if row else None}
        if isinstance(command, EnrolTag):
            return self._enrol_tag(command)
        if isinstance(command, ForgetTag):
            uid = _uid(command.uid)
            row = self.store.tag(uid)
            if row is None:
                raise Refused(f"the tag {uid} is not enrolled, so there is nothing to forget")
            self.store.forget_tag(uid)
            return {"forgotten": _tag_view(uid, _meaning(row))}
        if isinstance(command, ExportTags):
            return {"exported": self._export_tags(Path(command.path).expanduser())}
        assert isinstance(command, ImportTags)
        return {"imported": self._import_tags(Path(command.path).expanduser(), command.replace)}

    def _enrol_tag(self, command: EnrolTag) -> dict[str, Any]:
        uid = _uid(command.uid)
        try:
            meaning = tags.check_meaning(command.kind, command.card, tags.known_cards())
        except ValueError as error:
            raise Refused(f"'tag_enrol': {error}") from None
        row = self.store.tag(uid)
        before = _meaning(row) if row else None
        if before == meaning:
            return {"tag": _tag_view(uid, meaning), "replaced": None}
        if before is not None and not command.replace:
            raise Refused(f"the tag {uid} already means {_describe(before)}; send "
                          f"\"replace\": true to make it mean {_describe(meaning)} instead")
        self.store.enrol_tag(uid, meaning.kind, meaning.card)
        return {"tag": _tag_view(uid, meaning),
                "replaced": _tag_view(uid, before) if before else None}

    def _export_tags(self, path: Path) -> dict[str, Any]:
        enrolled = {uid: _meaning(row) for uid, row in self.store.tags().items()}
        write_asked_for(self.store, path, tags.tags_to_csv(enrolled), overwrite=True)
        return {"path": str(path), "count": len(enrolled)}

    def _import_tags(self, path: Path, replace: bool) -> dict[str, Any]:
        try:
            text = read_limited(path).decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(f"{path} is not a UTF-8 text file; save it as CSV (UTF-8) and try "
                          "again") from None
        try:
            incoming = tags.tags_from_csv(text, tags.known_cards())
        except tags.TagFileError as error:
            raise Refused(f"{path}, {error}. Nothing was imported") from None
        try:
            replaced = self.store.replace_tags(
                {uid: {"kind": m.kind, "card": m.card} for uid, m in incoming.items()},
                replace_existing=replace)
        except TagsInUse as error:
            enrolled = self.store.tags()
            named = [f"{uid} (now {_describe(_meaning(enrolled[uid]))})"
                     for uid in error.uids[:3]]
            more = f" and {len(error.uids) - 3} more" if len(error.uids) > 3 else ""
            raise Refused(f"{path} gives a new meaning to tags already enrolled: "
                          f"{', '.join(named)}{more}. Nothing was imported; send "
                          "\"replace\": true to re-enrol them as the file says") from None
        return {"path": str(path), "count": len(incoming), "replaced": replaced}


def _uid(text: str) -> str:
    try:
        return tags.normalise_uid(text)
    except ValueError as error:
        raise Refused(str(error)) from None


def _meaning(row: dict[str, str]) -> tags.TagMeaning:
    return tags.TagMeaning(row["kind"], row["card"])


def _describe(meaning: tags.TagMeaning) -> str:
    if meaning.kind == "command":
        return f"the command '{tags.card_name(meaning)}'"
    return f"the {meaning.kind} card {tags.card_name(meaning)}"


def _tag_view(uid: str, meaning: tags.TagMeaning) -> dict[str, str]:
    return {"uid": uid, "kind": meaning.kind, "card": meaning.card,
            "name": tags.card_name(meaning)}
