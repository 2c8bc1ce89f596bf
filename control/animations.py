"""The animation library: XML files in one folder, each defining one animation by its <animation_name>.

As in the reference, an animation is found by the name inside the file, not the file name, and a new
file dropped into the folder is playable after a restart without code changes. Our format:

    <animation>
      <animation_name>nod</animation_name>
      <kind>head</kind>                 <!-- gesture (default) | head | posture | blink -->
      <frame t="0.0"><joint name="head_pitch">0</joint></frame>
      <frame t="0.25"><joint name="head_pitch">12</joint></frame>
    </animation>

Joint values are interpolated linearly between frames; after the last frame a joint holds its value.
A file that does not parse, names an unknown joint or repeats a name is logged and skipped.
"""

from __future__ import annotations

import logging
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from control.joints import BY_NAME

log = logging.getLogger("nadine.control.animations")

Kind = Literal["gesture", "head", "posture", "blink"]
KINDS: tuple[Kind, ...] = ("gesture", "head", "posture", "blink")
DEFAULT_POSTURE = "LOOKUPPostureDefault"
BLINK = "blink"
MAX_FILE_BYTES = 1_000_000


class AnimationFileError(ValueError):
    pass


@dataclass(frozen=True)
class Animation:
    name: str
    kind: Kind
    tracks: dict[str, tuple[tuple[float, float], ...]]  # joint -> ((t, value), ...) sorted by t

    @property
    def duration_s(self) -> float:
        return max((keys[-1][0] for keys in self.tracks.values()), default=0.0)


def _number(text: str | None, what: str) -> float:
    try:
        return float((text or "").strip())
    except ValueError:
        raise AnimationFileError(f"{what} is not a number: {text!r}") from None


def parse_animation(path: Path) -> Animation:
    if path.stat().st_size > MAX_FILE_BYTES:
        raise AnimationFileError(f"larger than {MAX_FILE_BYTES} bytes")
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise AnimationFileError(f"not well-formed XML: {exc}") from None
    name = (root.findtext("animation_name") or "").strip()
    if not name:
        raise AnimationFileError("no <animation_name>")
    kind = (root.findtext("kind") or "gesture").strip()
    if kind not in KINDS:
        raise AnimationFileError(f"<kind> {kind!r} is not one of {', '.join(KINDS)}")
    keys: dict[str, list[tuple[float, float]]] = {}
    for frame in root.iter("frame"):
        t = _number(frame.get("t"), "frame t")
        if t < 0:
            raise AnimationFileError(f"frame t={t} is negative")
        for joint in frame.iter("joint"):
            jname = joint.get("name", "")
            if jname not in BY_NAME:
                raise AnimationFileError(f"unknown joint {jname!r}")
            value = BY_NAME[jname].clamp(_number(joint.text, f"joint {jname}"))
            keys.setdefault(jname, []).append((t, value))
    if not keys:
        raise AnimationFileError("no <frame> with a <joint>")
    tracks = {j: tuple(sorted(k)) for j, k in keys.items()}
    return Animation(name=name, kind=kind, tracks=tracks)  # type: ignore[arg-type]


class AnimationLibrary:
    def __init__(self, animations: dict[str, Animation]) -> None:
        self._animations = animations

    @classmethod
    def load(cls, folder: Path) -> AnimationLibrary:
        found: dict[str, Animation] = {}
        if not folder.is_dir():
            log.error("animation library %s does not exist: no gestures or postures will play", folder)
            return cls(found)
        for path in sorted(folder.glob("*.xml")):
            try:
                anim = parse_animation(path)
            except (AnimationFileError, OSError) as exc:
                log.error("animation file %s skipped: %s", path, exc)
                continue
            if anim.name in found:
                log.error("animation file %s skipped: %s is already defined", path, anim.name)
                continue
            found[anim.name] = anim
        log.info("animation library %s: %d animations (%s)", folder, len(found), ", ".join(sorted(found)))
        return cls(found)

    def get(self, name: str) -> Animation | None:
        return self._animations.get(name)

    def names(self, kind: Kind | None = None) -> list[str]:
        return sorted(n for n, a in self._animations.items() if kind is None or a.kind == kind)
