"""Evaluates a turn's `expect` keys against what the suite did (conversation-script.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from common.messages import SceneStored, TurnResult
from scripts.runner.script import Expect


def same_text(a: str | None, b: str | None) -> bool:
    """Utterances and names compare case- and whitespace-insensitively."""
    return " ".join((a or "").split()).casefold() == " ".join((b or "").split()).casefold()


def injected_utterance(retrieved: Mapping[str, Any] | None) -> str | None:
    """The utterance of the scene Nadine actually used in her reply (injected), else None. Takes the
    `retrieved` of a TurnResult (dumped) or of a runner record, so live checks and offline metrics
    judge the same thing."""
    if not retrieved or not retrieved.get("injected"):
        return None
    return retrieved.get("user_message") or retrieved.get("description") or ""


def scene_of_met(wanted: str | None, injected: str | None) -> bool:
    """`scene_of: <utterance>` wants exactly that scene injected; `scene_of: null` wants none."""
    return injected is None if wanted is None else (injected is not None and same_text(injected, wanted))


def user_name_met(wanted: str | None, believed: str | None) -> bool:
    """`user_name: null` wants a stranger (no name or "Unknown")."""
    return believed in (None, "Unknown") if wanted is None else same_text(believed, wanted)


def stored_met(wanted: str | None, kinds: set[str]) -> bool:
    return not kinds if wanted == "none" else wanted in kinds


def stored_types(scenes: list[SceneStored]) -> set[str]:
    return {s.scene_type or "moment" for s in scenes}


def profile_matches(profile: dict[str, Any] | None, wanted: dict[str, Any]) -> bool:
    if profile is None:
        return False
    for key, value in wanted.items():
        have = profile.get(key)
        if isinstance(have, list):
            wanted_items = value if isinstance(value, list) else [value]
            if not all(any(same_text(str(w), str(x)) for x in have) for w in wanted_items):
                return False
        elif isinstance(value, str) or isinstance(have, str):
            if not same_text(None if have is None else str(have), None if value is None else str(value)):
                return False
        elif have != value:
            return False
    return True


def check(
    expect: Expect, result: TurnResult | None, scenes: list[SceneStored], profile: dict[str, Any] | None
) -> dict[str, bool]:
    """expect key -> met. A turn without a result meets nothing."""
    out: dict[str, bool] = {}
    for key in expect.keys():
        if result is None:
            out[key] = False
        elif key == "stored":
            out[key] = stored_met(expect.stored, stored_types(scenes))
        elif key == "recall":
            out[key] = result.is_recall == expect.recall
        elif key == "scene_of":
            retrieved = result.retrieved.model_dump() if result.retrieved is not None else None
            out[key] = scene_of_met(expect.scene_of, injected_utterance(retrieved))
        elif key == "profile":
            out[key] = profile_matches(profile, expect.profile or {})
        elif key == "user_name":
            out[key] = user_name_met(expect.user_name, result.user_name)
    return out
