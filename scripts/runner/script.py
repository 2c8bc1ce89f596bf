"""The conversation-script format (shared/spec/conversation-script.md): YAML -> validated models.

Unknown keys are errors, so a typo in a benchmark script fails loudly instead of silently testing
nothing. Camera paths are relative to the script file, or to the shared data folder with `shared:`
(../shared/data next to the project, or NADINE_SHARED_DATA).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from common.messages import EmotionSignal
from scripts.shared_data import shared_data_dir

SHARED_PREFIX = "shared:"


class ScriptError(ValueError):
    """The script cannot be played; the message names the file and the offending key."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Expect(_Strict):
    stored: Literal["moment", "observation", "first_meeting", "none"] | None = None
    recall: bool | None = None
    scene_of: str | None = None
    profile: dict[str, Any] | None = None
    user_name: str | None = None

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
    sessions: list[Session] = Field(min_length=1)


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
