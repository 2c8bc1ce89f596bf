"""User profiles (user_info.json) and the id -> name index (user_ids.json), safe with two writers.

Every change is a locked read-modify-write followed by an atomic replace, so perception and
interaction (or two interaction workers) never lose each other's update.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from pydantic import BaseModel, ConfigDict, ValidationError

from common.store.atomic import atomic_write_json, file_lock, read_json
from common.store.ids import new_user_id, validate_user_id
from common.store.layout import DataLayout

log = logging.getLogger("nadine.store.profiles")

LIST_FIELDS = ("hobbies", "interests")


class UserProfile(BaseModel):
    """user_info.json, with the reference's fields (extra keys a lab added are kept)."""

    model_config = ConfigDict(extra="allow")

    user_id: str
    user_name: str = "Unknown"
    current_company: str | None = None
    current_position: str | None = None
    location: str | None = None
    hobbies: list[str] = []
    interests: list[str] = []
    face_image_path: str | None = None
    last_updated: str | None = None

    @property
    def known(self) -> bool:
        return bool(self.user_name) and self.user_name != "Unknown"


def merge_profile(profile: UserProfile, update: dict, now: datetime) -> UserProfile:
    """Merge extracted fields: scalars replace when given, hobbies/interests are de-duplicated."""
    data = profile.model_dump()
    for key, value in update.items():
        if value in (None, "", []):
            continue
        if key in LIST_FIELDS:
            items = value if isinstance(value, list) else [value]
            seen = {x.casefold() for x in data.get(key) or []}
            merged = list(data.get(key) or [])
            for item in items:
                if isinstance(item, str) and item.strip() and item.strip().casefold() not in seen:
                    merged.append(item.strip())
                    seen.add(item.strip().casefold())
            data[key] = merged
        else:
            data[key] = value
    data["last_updated"] = now.isoformat(timespec="seconds")
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
            change(ids)
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
        """Reserve a new YYMMDD_NNNN id for `user_name` atomically (no two writers get the same)."""
        minted: list[str] = []

        def change(ids: dict[str, str]) -> None:
            taken = set(ids) | set(self.layout.user_ids())
            # the counter holds the day and a number, never a whole id: a forget's trace scan stays clean
            counter = read_json(self.layout.user_id_counter_file, default={})
            day = now.strftime("%y%m%d")
            issued = counter.get("last", 0) if isinstance(counter, dict) and counter.get("day") == day else 0
            uid = new_user_id(taken, now, issued if isinstance(issued, int) else 0)
            atomic_write_json(self.layout.user_id_counter_file, {"day": day, "last": int(uid[7:])})
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

    def update(self, user_id: str, change: dict, now: datetime) -> UserProfile:
        """Locked merge of `change` into user_info.json; keeps user_ids.json's name in step."""
        path = self.layout.user_info_file(user_id)
        with file_lock(path):
            current = self.load(user_id) or UserProfile(user_id=user_id)
            merged = merge_profile(current, change, now)
            atomic_write_json(path, merged.model_dump(exclude_none=False))
        if merged.known:
            self.set_name(user_id, merged.user_name)
        return merged
