"""The conversation-script format (shared/spec/conversation-script.md): YAML -> validated models.

Unknown keys are errors, so a typo in a benchmark script fails loudly instead of silently testing
nothing. Camera paths are relative to the script file, or to the shared data folder with `shared:`
(../shared/data next to the project, or NADINE_SHARED_DATA).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from common.messages import EmotionSignal
from scripts.shared_data import shared_data_dir

SHARED_PREFIX = "shared:"


class ScriptError(ValueError):
    """The script cannot be played; the message names the file and the offending key."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


RecallOutcome = Literal["asserted", "offered", "abstained", "none"]
MemoryIntent = Literal["recall", "remember", "forget_one", "forget_me", "statement"]
# What the `memories` key counts: explicit memories and the scene types a person holds.
MemoryKind = Literal["explicit", "moment", "first_meeting", "observation"]


def _as_list(value: Any) -> Any:
    """A single value where a list of acceptable values is allowed: `recall_outcome: abstained`."""
    return [value] if isinstance(value, str) else value


class Expect(_Strict):
    stored: Literal["moment", "observation", "first_meeting", "none"] | None = None
    recall: bool | None = None
    scene_of: str | None = None
    profile: dict[str, Any] | None = None
    user_name: str | None = None
    # Keys judged on TurnResult.recall / memory_intent and on the reply (docs/conversation-script.md).
    recall_outcome: list[RecallOutcome] | None = Field(None, min_length=1)
    recalled_text: str | None = Field(None, min_length=1)
    not_recalled_text: str | None = Field(None, min_length=1)
    memory_intent: list[MemoryIntent] | None = Field(None, min_length=1)
    reply_has: list[str] | None = Field(None, min_length=1)
    reply_lacks: list[str] | None = Field(None, min_length=1)
    same_user_as: int | None = Field(None, ge=1)
    new_user: bool | None = None
    profile_lacks: dict[str, Any] | None = None
    # How many memories of each kind given the person holds after the turn (what a refused
    # confirmation must leave and a confirmed forget must remove).
    memories: dict[MemoryKind, int] | None = None

    _lists = field_validator("recall_outcome", "memory_intent", "reply_has", "reply_lacks", mode="before")(_as_list)

    @field_validator("memories")
    @classmethod
    def _counts_not_negative(cls, value: dict[str, int] | None) -> dict[str, int] | None:
        if value and any(n < 0 for n in value.values()):
            raise ValueError("memories: counts are 0 or more")
        return value

    def keys(self) -> list[str]:
        """The expectations actually given (scene_of: null and user_name: null are expectations too)."""
        return sorted(self.model_fields_set)


class Turn(_Strict):
    say: str = Field(min_length=1)
    user_emotion: EmotionSignal | None = None
    is_recall: bool | None = None
    intent: str | None = None
    expect: Expect | None = None


class Session(_Strict):
    camera: list[str] = []
    gap_hours: float = Field(0.0, ge=0)
    turns: list[Turn] = Field(min_length=1)


class Script(_Strict):
    name: str = ""
    data_dir: str | None = None
    # Where the shared clock stands when the first session begins (local time, no zone), so that
    # "this morning", "on Saturday" and "in May" have one meaning whatever day the script is played.
    clock_start: datetime | None = None
    sessions: list[Session] = Field(min_length=1)

    @model_validator(mode="after")
    def _earlier_sessions_only(self) -> Script:
        """same_user_as names a session played before the turn (a later one has no user yet)."""
        for i, session in enumerate(self.sessions, 1):
            for turn in session.turns:
                wanted = turn.expect.same_user_as if turn.expect else None
                if wanted is not None and wanted >= i:
                    raise ValueError(f"session {i}: same_user_as must name an earlier session, not {wanted}")
        return self


def resolve_image(entry: str, script_dir: Path) -> Path:
    if entry.startswith(SHARED_PREFIX):
        path = shared_data_dir() / entry[len(SHARED_PREFIX):].lstrip("/")
    else:
        path = script_dir / entry
    return path.resolve()


def _where(err: ValidationError) -> str:
    first = err.errors()[0]
    loc = ".".join(str(p) for p in first["loc"])
    msg = "unknown key" if first["type"] == "extra_forbidden" else first["msg"]
    return f"{loc}: {msg}"


def load_script(path: Path) -> tuple[Script, list[list[Path]]]:
    """The validated script and, per session, its camera images as absolute paths (all must exist)."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScriptError(f"cannot read script {path}: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        raise ScriptError(f"{path} is not valid YAML: {exc}") from None
    if not isinstance(raw, dict):
        raise ScriptError(f"{path}: a script is a mapping with a 'sessions:' list")
    try:
        script = Script.model_validate(raw)
    except ValidationError as exc:
        raise ScriptError(f"{path}: {_where(exc)}") from None
    cameras: list[list[Path]] = []
    for i, session in enumerate(script.sessions, 1):
        images = [resolve_image(entry, path.parent) for entry in session.camera]
        missing = [str(p) for p in images if not p.is_file()]
        if missing:
            raise ScriptError(f"{path}: session {i} camera image(s) not found: {', '.join(missing)}")
        cameras.append(images)
    return script, cameras
