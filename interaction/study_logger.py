"""Study logging for --study (the A/B study's records): one JSONL record per turn, a human-readable
.log line, and per-user transcripts, under <data>/study_logs/.

    <condition>_<participant>_<start>.jsonl   one JSON record per turn
    <condition>_<participant>_<start>.log     the same turns, one readable line each
    by_user/<user_id>.log                     every turn of that user, across sessions

A record is written at the later of graph completion and the robot's audio onset (control's
start_speak), or audio_timeout_s after completion without an onset, so no turn is lost.

API (called by the dialogue manager):
    logger = StudyLogger(settings, layout, clock)
    logger.turn_started(turn_id, user_text, t_received=time.monotonic(), t_speech_end=None)
    logger.turn_completed(turn_id, {
        "robot_text", "intent", "language", "user_id", "user_name", "user_emotion", "user_intensity",
        "robot_emotion", "robot_intensity",
        "visual": {"injected", "scene_id", "similarity", "description", "user_message"} | None,
        "reply_references_scene" (optional: computed by reply_references_scene() when absent),
        "reply_offline" (the offline rules wrote the reply: reply_references_scene is null, not measured),
        "latency_s", "latency_first_sentence_s" (transcript -> first sentence of a streamed reply handed
        to control; null when the reply was produced whole: no sentence went ahead of it),
    })
    logger.audio_onset(time.monotonic())   # on each start_speak; the first after a turn's start counts
                                            # (a streamed reply has one per sentence)
    logger.close()                          # writes what is still waiting
t_* are time.monotonic() values. full_latency_s = audio onset - (t_speech_end or t_received).
Writes never raise into the caller: a failed write is logged.
"""

from __future__ import annotations

import json
import logging
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from common.clock import Clock
from common.config import NadineSettings
from common.store.atomic import file_lock
from common.store.ids import is_valid_user_id
from common.store.layout import DataLayout

log = logging.getLogger("nadine.study")

_SAFE = re.compile(r"[^A-Za-z0-9_-]+")
_WORD = re.compile(r"[a-zA-Z][a-zA-Z'-]{3,}")
_COMMON = frozenset(
    "that this with have your from they what when where which there their about would could should "
    "really today remember time just like been were will also very much more some than then them "
    "photo scene person people looking suggests neutral expression nadine".split()
)


def reply_references_scene(reply: str, scene_text: str) -> bool:
    """Heuristic: the reply repeats a distinctive word (4+ letters, not a common word) of the scene's
    utterance or description; two such words when the scene text has many."""
    scene_words = {w.lower() for w in _WORD.findall(scene_text)} - _COMMON
    if not scene_words:
        return False
    shared = scene_words & {w.lower() for w in _WORD.findall(reply)}
    return len(shared) >= (1 if len(scene_words) <= 4 else 2)


def _measured(value: Any) -> str:
    return "not measured" if value is None else str(value)


@dataclass
class _Turn:
    turn_id: str
    user_text: str
    t_received: float
    t_speech_end: float | None
    started_at: str
    fields: dict[str, Any] | None = None
    onset: float | None = None
    timer: threading.Timer | None = field(default=None, repr=False)


class StudyLogger:
    def __init__(self, settings: NadineSettings, layout: DataLayout, clock: Clock) -> None:
        study = settings.interaction.study
        self.condition = study.condition or ("A" if settings.common.enable_visual_memory else "B")
        self.participant = _SAFE.sub("_", study.participant_id).strip("_") or "anon"
        self.audio_timeout_s = study.audio_timeout_s
        self._clock = clock
        self.folder = layout.study_logs_dir
        stem = f"{self.condition}_{self.participant}_{clock.now():%Y%m%d_%H%M%S}"
        self.jsonl_path = self.folder / f"{stem}.jsonl"
        self.log_path = self.folder / f"{stem}.log"
        self.by_user_dir = self.folder / "by_user"
        self._turns: dict[str, _Turn] = {}
        self._order: list[str] = []
        self._lock = threading.Lock()
        self._closed = False
        self.by_user_dir.mkdir(parents=True, exist_ok=True)

    # --- events ----------------------------------------------------------------------------------

    def turn_started(self, turn_id: str, user_text: str, t_received: float, t_speech_end: float | None = None) -> None:
        with self._lock:
            if self._closed:
                return
            self._turns[turn_id] = _Turn(turn_id, user_text, t_received, t_speech_end, self._clock.now().isoformat())
            self._order.append(turn_id)

    def turn_completed(self, turn_id: str, fields: dict[str, Any]) -> None:
        with self._lock:
            turn = self._turns.get(turn_id)
            if turn is None:
                log.warning("study log: completion of unknown turn %s; recorded without a start", turn_id)
                turn = self._turns[turn_id] = _Turn(turn_id, str(fields.get("user_text", "")), 0.0, None,
                                                    self._clock.now().isoformat())
                self._order.append(turn_id)
            turn.fields = dict(fields)
            if turn.onset is not None:
                self._finish(turn)
            else:
                turn.timer = threading.Timer(self.audio_timeout_s, self._on_timeout, args=(turn_id,))
                turn.timer.daemon = True
                turn.timer.start()

    def audio_onset(self, t: float) -> None:
        with self._lock:
            for turn_id in self._order:
                turn = self._turns[turn_id]
                if turn.onset is None and t >= turn.t_received:
                    turn.onset = t
                    if turn.fields is not None:
                        self._finish(turn)
                    return

    def close(self) -> None:
        """Write every turn still waiting (for audio, or never completed)."""
        with self._lock:
            self._closed = True
            for turn_id in list(self._order):
                self._finish(self._turns[turn_id])

    # --- writing (lock held) -----------------------------------------------------------------------

    def _on_timeout(self, turn_id: str) -> None:
        # completed turns before this one timed out earlier: write them first (timers race)
        with self._lock:
            if turn_id not in self._turns:
                return
            for earlier in self._order[: self._order.index(turn_id) + 1]:
                if self._turns[earlier].fields is not None:
                    self._finish(self._turns[earlier])

    def _finish(self, turn: _Turn) -> None:
        if turn.timer is not None:
            turn.timer.cancel()
        self._turns.pop(turn.turn_id, None)
        self._order.remove(turn.turn_id)
        record = self._record(turn)
        try:
            self._append(self.jsonl_path, json.dumps(record, ensure_ascii=False, default=str))
            line = self._line(record)
            self._append(self.log_path, line)
            user = record["user_id"] if is_valid_user_id(record["user_id"]) else "unknown"
            self._append(self.by_user_dir / f"{user}.log", f"{self.jsonl_path.stem} {line}")
        except OSError as exc:
            log.error("study log write failed (%s); turn %s: %s", exc, turn.turn_id, record)

    def _record(self, turn: _Turn) -> dict[str, Any]:
        f = turn.fields or {}
        visual = f.get("visual") or {}
        robot_text = f.get("robot_text") or ""
        references = f.get("reply_references_scene")
        if f.get("reply_offline"):
            # the offline reply quotes the injected scene by template: a reference would be circular
            references = None
        elif references is None:
            scene_text = f"{visual.get('user_message') or ''} {visual.get('description') or ''}"
            references = bool(visual.get("injected")) and reply_references_scene(robot_text, scene_text)
        start = turn.t_speech_end if turn.t_speech_end is not None else turn.t_received
        full = round(turn.onset - start, 4) if turn.onset is not None and turn.t_received else None
        return {
            "turn_id": turn.turn_id,
            "timestamp": turn.started_at,
            "condition": self.condition,
            "participant": self.participant,
            "user_text": turn.user_text,
            "robot_text": robot_text,
            "intent": f.get("intent"),
            "language": f.get("language"),
            "user_id": f.get("user_id"),
            "user_name": f.get("user_name"),
            "user_emotion": f.get("user_emotion"),
            "user_intensity": f.get("user_intensity"),
            "robot_emotion": f.get("robot_emotion"),
            "robot_intensity": f.get("robot_intensity"),
            "visual": {
                "injected": bool(visual.get("injected", False)),
                "scene_id": visual.get("scene_id"),
                "similarity": visual.get("similarity"),
                "description": visual.get("description"),
            },
            "reply_references_scene": None if references is None else bool(references),
            "latency_s": f.get("latency_s"),
            "latency_first_sentence_s": f.get("latency_first_sentence_s"),
            "full_latency_s": full,
            "completed": turn.fields is not None,
            "audio_onset": turn.onset is not None,
        }

    @staticmethod
    def _line(r: dict[str, Any]) -> str:
        v = r["visual"]
        scene = f"scene={v['scene_id']}({v['similarity']}, injected={v['injected']})" if v["scene_id"] else "scene=-"
        return (
            f"{r['timestamp']} [{r['turn_id']}] {r['user_name'] or r['user_id'] or 'unknown'}: {r['user_text']!r}"
            f" -> Nadine: {r['robot_text']!r} | intent={r['intent']} user={r['user_emotion']}/{r['user_intensity']}"
            f" nadine={r['robot_emotion']}/{r['robot_intensity']} {scene} refs={_measured(r['reply_references_scene'])}"
            f" latency={r['latency_s']} first={_measured(r['latency_first_sentence_s'])} full={r['full_latency_s']}"
        )

    @staticmethod
    def _append(path: Path, line: str) -> None:
        # held under forget's lock so a pseudonymisation never races an append
        with file_lock(path, outside=True), path.open("a", encoding="utf-8") as fh:
            fh.write(line.replace("\n", " ") + "\n")
