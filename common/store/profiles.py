"""User profiles (user_info.json) and the id -> name index (user_ids.json), safe with two writers.

Every change is a locked read-modify-write followed by an atomic replace, so perception and
interaction (or two interaction workers) never lose each other's update.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from pydantic import BaseModel, ConfigDict, ValidationError, create_model, model_validator

from common.store.atomic import atomic_write_json, file_lock, read_json, write_json_if_changed
from common.store.facts import (
    FactChange,
    FactRecord,
    FactSource,
    Wording,
    apply,
    current_values,
    is_field,
    plain_values,
    reconcile,
    same_value,
    says,
    value_key,
    without_turns,
)
from common.store.ids import new_user_id, validate_user_id
from common.store.layout import DataLayout
from common.store.profile_fields import FIELDS_BY_NAME, PROFILE_FIELDS

log = logging.getLogger("nadine.store.profiles")

class _ProfileBase(BaseModel):
    """user_info.json: the reference's fields (extra keys a lab added are kept), plus `facts`, the
    history of every profile field (the plain fields hold the current values for old tools)."""

    model_config = ConfigDict(extra="allow")

    user_id: str
    user_name: str = "Unknown"
    # names others call the person by, said by them ("everyone calls me Maggie"): the same person when
    # heard later, asked about first
    other_names: list[str] = []
    # how they asked to be addressed when a title is part of it ("Dr. Schmidt"); replies use it for
    # their given name, and user_name stays the name they gave
    addressed_as: str | None = None
    face_image_path: str | None = None
    last_updated: str | None = None
    facts: dict[str, list[FactRecord]] = {}

    @property
    def known(self) -> bool:
        return bool(self.user_name) and self.user_name != "Unknown"

    @model_validator(mode="after")
    def _records_follow_plain_fields(self) -> _ProfileBase:
        facts = {k: [r.model_copy() for r in v] for k, v in self.facts.items() if is_field(k)}
        reconcile(facts, {f.name: getattr(self, f.name) for f in PROFILE_FIELDS}, self.last_updated)
        self.__dict__["facts"] = facts  # not through the setter: that would validate again
        return self

    def history(self, field: str) -> list[FactRecord]:
        return list(self.facts.get(field, []))


UserProfile = create_model(
    "UserProfile", __base__=_ProfileBase, __module__=__name__,
    **{f.name: ((list[str], []) if f.multi else (str | None, None)) for f in PROFILE_FIELDS},
)


def apply_changes(profile: _ProfileBase, changes: list[FactChange], now: datetime,
                  source: FactSource | None = None) -> tuple[_ProfileBase, list[FactChange]]:
    """The profile after `changes` (records superseded or closed, never overwritten), and the changes
    that did change something."""
    source = source or FactSource(date=now.isoformat(timespec="seconds"))
    facts = {k: [r.model_copy() for r in v] for k, v in profile.facts.items()}
    applied = []
    for change in changes:
        if not is_field(change.field):
            continue
        records, multi = facts.setdefault(change.field, []), FIELDS_BY_NAME[change.field].multi
        if change.op == "close" and change.value is None and not multi and current_values(records):
            change = change.model_copy(update={"value": current_values(records)[-1]})  # name what ended
        if apply(records, multi, change, now, source):
            applied.append(change)
    if not applied:
        return profile, []
    data = {**profile.model_dump(), **plain_values(facts), "facts": facts,
            "last_updated": now.isoformat(timespec="seconds")}
    return UserProfile.model_validate(data), applied


def changes_from_fields(update: dict, wording: Wording | None = None) -> list[FactChange]:
    """Plain extracted fields (field -> value or list) as "set" changes, each with how it was said."""
    changes = []
    for key, value in update.items():
        if not is_field(key) or value in (None, "", []):
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item.strip():
                words = (wording or {}).get((key, value_key(item)))
                changes.append(FactChange(field=key, op="set", value=item.strip(),
                                          **(words.model_dump() if words else {})))
    return changes


def merge_profile(profile: _ProfileBase, update: dict, now: datetime,
                  source: FactSource | None = None, wording: Wording | None = None) -> _ProfileBase:
    """Merge extracted fields: a new one-valued fact supersedes the old, list values are added;
    other keys (user_name, face_image_path, a lab's own) replace when given."""
    merged, _ = apply_changes(profile, changes_from_fields(update, wording), now, source)
    others = {k: v for k, v in update.items() if not is_field(k) and v not in (None, "", [])}
    data = {**merged.model_dump(), **others, "last_updated": now.isoformat(timespec="seconds")}
    return UserProfile.model_validate(data)


class ProfileStore:
    def __init__(self, layout: DataLayout) -> None:
        self.layout = layout

    # --- user_ids.json -------------------------------------------------------------------------

    def user_ids(self) -> dict[str, str]:
        data = read_json(self.layout.user_ids_file, default={})
        if not isinstance(data, dict):
            log.warning("%s is not an object; treating as empty", self.layout.user_ids_file)
            return {}
        return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}

    def _update_ids(self, change: Callable[[dict[str, str]], None]) -> dict[str, str]:
        path = self.layout.user_ids_file
        with file_lock(path):
            ids = self.user_ids()
            before = dict(ids)
            change(ids)
            if ids != before:  # every profile update re-states the name: most change nothing
                atomic_write_json(path, ids)
            return ids

    def set_name(self, user_id: str, user_name: str) -> None:
        validate_user_id(user_id)
        self._update_ids(lambda ids: ids.__setitem__(user_id, user_name))

    def remove_id(self, user_id: str) -> bool:
        removed = []
        self._update_ids(lambda ids: removed.append(ids.pop(user_id, None)))
        return removed[0] is not None

    def mint_user_id(self, user_name: str, now: datetime) -> str:
        """Reserve a new YYMMDD_NNNN id for `user_name` atomically (no two writers get the same); on a
        robot of a fleet <robot_id>-YYMMDD_NNNN, so two robots' people never share an id."""
        minted: list[str] = []
        prefix = f"{self.layout.robot_id}-" if self.layout.robot_id else ""

        def change(ids: dict[str, str]) -> None:
            taken = {i.removeprefix(prefix) for i in set(ids) | set(self.layout.user_ids()) if i.startswith(prefix)}
            # the highest number issued today, per robot prefix: a forgotten person's id is never reused.
            # The counter holds a day and a number, never a whole id (a forget's trace scan stays clean).
            counters = read_json(self.layout.user_id_counter_file, default={})
            counters = counters if isinstance(counters, dict) else {}
            mine = counters.get(prefix) if isinstance(counters.get(prefix), dict) else {}
            day = now.strftime("%y%m%d")
            issued = mine.get("last", 0) if mine.get("day") == day and isinstance(mine.get("last"), int) else 0
            bare = new_user_id(taken, now, issued)
            atomic_write_json(self.layout.user_id_counter_file, counters | {prefix: {"day": day, "last": int(bare[7:])}})
            uid = prefix + bare
            ids[uid] = user_name
            minted.append(uid)

        self._update_ids(change)
        return minted[0]

    # --- user_info.json ------------------------------------------------------------------------

    def load(self, user_id: str) -> UserProfile | None:
        data = read_json(self.layout.user_info_file(user_id))
        if data is None:
            return None
        if not isinstance(data, dict):
            log.warning("profile of %s is not an object; ignored", user_id)
            return None
        data["user_id"] = user_id
        try:
            return UserProfile.model_validate(data)
        except ValidationError as exc:
            log.warning("profile of %s unreadable (%s); ignored", user_id, exc.errors()[0]["msg"])
            return None

    def update(self, user_id: str, change: dict, now: datetime, source: FactSource | None = None,
               wording: Wording | None = None) -> UserProfile:
        """Locked merge of `change` into user_info.json; keeps user_ids.json's name in step."""
        path = self.layout.user_info_file(user_id)
        with file_lock(path):
            current = self.load(user_id) or UserProfile(user_id=user_id)
            merged = merge_profile(current, change, now, source, wording)
            # a turn's facts were often applied just before (apply): then the file already holds them
            write_json_if_changed(path, merged.model_dump(exclude_none=False))
        if merged.known:
            self.set_name(user_id, merged.user_name)
        return merged

    def forget_fact(self, user_id: str, field: str, value: str, now: datetime) -> int:
        """Erase every record of `value` in `field` (history included: a forgotten fact leaves no
        trace, unlike a closed one); returns the records removed."""
        if not is_field(field):
            return 0
        return self._keep_facts(user_id, now, lambda k, records: [
            r for r in records if not (k == field and same_value(r.value, value))])

    def forget_turns(self, user_id: str, turn_ids: frozenset[str], now: datetime) -> int:
        """Erase the fact records learned in `turn_ids` (what a forgotten memory's turns told);
        returns the records removed."""
        if not turn_ids:
            return 0
        return self._keep_facts(user_id, now, lambda _, records: without_turns(records, turn_ids))

    def _keep_facts(self, user_id: str, now: datetime,
                    keep: Callable[[str, list[FactRecord]], list[FactRecord]]) -> int:
        """Locked: each field's records become keep(field, records); returns the records removed."""
        path = self.layout.user_info_file(user_id)
        with file_lock(path):
            current = self.load(user_id)
            if current is None:
                return 0
            facts = {k: keep(k, v) for k, v in current.facts.items()}
            kept = {id(r) for records in facts.values() for r in records}
            gone = [r.value for records in current.facts.values() for r in records if id(r) not in kept]
            removed = len(gone)
            if removed:
                for record in (r for records in facts.values() for r in records):
                    if any(says(record.clause, value) for value in gone):
                        record.clause = None  # the words a forgotten value was said in go with it
                data = {**current.model_dump(), **plain_values(facts), "facts": facts,
                        "last_updated": now.isoformat(timespec="seconds")}
                atomic_write_json(path, UserProfile.model_validate(data).model_dump(exclude_none=False))
            return removed

    def apply(self, user_id: str, changes: list[FactChange], now: datetime,
              source: FactSource | None = None) -> tuple[UserProfile | None, list[FactChange]]:
        """Locked set / supersede / close of profile facts; nothing is written when nothing changes
        (and a person without a profile gets none from a close)."""
        path = self.layout.user_info_file(user_id)
        with file_lock(path):
            current = self.load(user_id)
            if current is None and not any(c.op != "close" for c in changes):
                return None, []
            updated, applied = apply_changes(current or UserProfile(user_id=user_id), changes, now, source)
            if applied:
                atomic_write_json(path, updated.model_dump(exclude_none=False))
            return updated, applied
