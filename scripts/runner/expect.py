"""Evaluates a turn's `expect` keys against what the suite did (conversation-script.md)."""

from __future__ import annotations

from typing import Any

from common.messages import SceneStored, TurnResult
from scripts.runner.script import Expect


def _norm(text: str | None) -> str:
    return " ".join((text or "").split()).casefold()


def surfaced_message(result: TurnResult | None) -> str | None:
    """The utterance of the scene Nadine actually used in her reply (injected), else None."""
    if result is None or result.retrieved is None or not result.retrieved.injected:
        return None
    return result.retrieved.user_message or result.retrieved.description or ""


def stored_types(scenes: list[SceneStored]) -> set[str]:
    return {s.scene_type or "moment" for s in scenes}


def profile_matches(profile: dict[str, Any] | None, wanted: dict[str, Any]) -> bool:
    if profile is None:
        return False
    for key, value in wanted.items():
        have = profile.get(key)
        if isinstance(have, list):
            items = {_norm(str(x)) for x in have}
            wanted_items = value if isinstance(value, list) else [value]
            if not all(_norm(str(w)) in items for w in wanted_items):
                return False
        elif isinstance(value, str) or isinstance(have, str):
            if _norm(None if have is None else str(have)) != _norm(None if value is None else str(value)):
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
            kinds = stored_types(scenes)
            out[key] = not kinds if expect.stored == "none" else expect.stored in kinds
        elif key == "recall":
            out[key] = result.is_recall == expect.recall
        elif key == "scene_of":
            got = surfaced_message(result)
            out[key] = got is None if expect.scene_of is None else (got is not None and _norm(got) == _norm(expect.scene_of))
        elif key == "profile":
            out[key] = profile_matches(profile, expect.profile or {})
        elif key == "user_name":
            if expect.user_name is None:
                out[key] = result.user_name in (None, "Unknown")
            else:
                out[key] = _norm(result.user_name) == _norm(expect.user_name)
    return out
