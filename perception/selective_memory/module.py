"""Ties affect events and frames to storage decisions (one decision per turn's affect event).

Every affect event gets exactly one storage_decision:
- trigger `event` (default): evaluated once on the next frame in which the tracked face is a known
  user, then consumed (at most one scene per turn, no cooldown);
- trigger `interval` (the local robot's; always for the vision policy): a known user is checked at most every
  memorability_check_interval s with the latest affect state, 15 s cooldown after a store; pending
  events are decided by the next check;
- an event whose known user is not in view within decision_wait_s is decided without a view when
  interaction names who it is talking with (chat, no camera, the person out of view): the same policy
  judges it from the affect state alone and a memorable turn is kept as a text-only moment (no
  image, no image embedding). Without a session identity it is decided "not in view" (or "unknown
  user" when only an unrecognised face was seen).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from dataclasses import dataclass

from common import topics as t
from common.bus import Bus
from common.config.perception_settings import SelectiveMemorySettings
from common.messages import AffectState, StorageDecision
from common.store import ProfileStore, SceneStore, is_valid_user_id
from perception.selective_memory.policies import (
    Verdict,
    arousal_verdict,
    intensity_verdict,
    vision_verdict,
)
from perception.selective_memory.recorder import SceneRecorder, SceneRequest
from perception.view import View

log = logging.getLogger("nadine.perception.memory")


@dataclass
class _Pending:
    affect: AffectState
    arrived: float
    saw_unknown: bool = False


def publish_decision(
    bus: Bus, affect: AffectState | None, user_id: str | None, stored: bool, memorability: float | None,
    threshold: float | None, reason: str, scene_id: str | None = None,
) -> None:
    """memorability and threshold None: no policy judged this event (the reason says why)."""
    log.info("storage decision for %s (turn %s): %s, %s", user_id, affect.turn_id if affect else None,
             "stored" if stored else "not stored", reason)
    bus.publish(t.STORAGE_DECISION, StorageDecision(
        user_id=user_id, stored=stored, threshold=threshold,
        memorability=None if memorability is None else round(float(memorability), 4),
        reason=reason, scene_id=scene_id, turn_id=affect.turn_id if affect else None,
    ))


class NoVisualMemory:
    """common.enable_visual_memory false (study condition B): nothing is evaluated or stored."""

    REASON = "visual memory disabled"

    def __init__(self, bus: Bus) -> None:
        self.bus = bus

    def on_affect(self, affect: AffectState, now: float, view_user: str | None) -> None:
        publish_decision(self.bus, affect, view_user, False, None, None, self.REASON)

    def on_frame(self, view: View, now: float) -> None:
        pass

    def store_first_meeting(self, user_id: str, user_name: str, view: View, turn_id: str | None = None) -> None:
        pass


class SelectiveMemory:
    def __init__(self, cfg: SelectiveMemorySettings, recorder: SceneRecorder, scenes: SceneStore, bus: Bus) -> None:
        self.cfg = cfg
        self.recorder = recorder
        self.scenes = scenes
        self.bus = bus
        self.trigger = "interval" if cfg.policy == "vision" else cfg.trigger
        if cfg.policy == "vision" and cfg.trigger != "interval":
            log.info("the vision policy always uses the interval trigger (novelty is between frames)")
        self._pending: deque[_Pending] = deque()
        self._latest: AffectState | None = None
        self._next_check: dict[str, float] = {}
        self._cooldown_until: dict[str, float] = {}
        self.last_decision_s = 0.0  # evaluation time of the last decision, for the benchmark

    @property
    def threshold(self) -> float:
        c = self.cfg
        if c.policy == "intensity":
            return c.intensity_threshold
        if c.policy == "pad_arousal":
            return c.arousal_threshold
        return c.memorability_threshold if c.vision_rule == "weighted" else c.novelty_threshold

    # --- inputs ---------------------------------------------------------------------------------

    def on_affect(self, affect: AffectState, now: float, view_user: str | None) -> None:
        self._latest = affect
        self._pending.append(_Pending(affect, now))

    def on_frame(self, view: View, now: float) -> None:
        if not view.known_in_view:
            self._expire(view, now)
            return
        if self.trigger == "event":
            if self._pending:
                ev = self._pending.popleft()
                self._decide(ev.affect, view, self._evaluate(ev.affect, view))
            return
        self._interval_check(view, now)

    def store_first_meeting(self, user_id: str, user_name: str, view: View, turn_id: str | None = None) -> None:
        if any(m.scene_type == "first_meeting" for m in self.scenes.list(user_id)):
            log.info("%s already has a first_meeting scene; not storing another", user_id)
            return
        self.recorder.store_first_meeting(user_id, user_name, view, turn_id)

    # --- decisions ------------------------------------------------------------------------------

    def _expire(self, view: View, now: float) -> None:
        # without a camera nobody can come into view: waiting would only delay the decision
        wait = self.cfg.decision_wait_s if view.camera_on else 0.0
        unknown_face = view.face_visible and view.user_id is None
        for ev in self._pending:
            ev.saw_unknown = ev.saw_unknown or unknown_face
        while self._pending and now - self._pending[0].arrived >= wait:
            ev = self._pending.popleft()
            session = self._session_view(ev.affect)
            if session is not None and not ev.saw_unknown:
                self._decide(ev.affect, session, self._evaluate(ev.affect, session))
                continue
            if ev.saw_unknown:
                reason = "unknown user"
            elif not view.camera_on:
                reason = "no camera view, and nobody known by name yet"
            else:
                reason = f"user not in view within {wait:g} s"
            publish_decision(self.bus, ev.affect, None, False, None, None, reason)

    def _session_view(self, affect: AffectState) -> View | None:
        """A view without pixels for the person interaction is talking with, when that is a known user."""
        uid = affect.user_id
        if not is_valid_user_id(uid):
            return None
        layout = self.scenes.layout
        if not layout.user_dir(uid).is_dir() and uid not in ProfileStore(layout).user_ids():
            return None
        return View(None, uid, affect.user_name or uid)

    def _evaluate(self, affect: AffectState | None, view: View) -> Verdict:
        started = time.perf_counter()
        c = self.cfg
        if c.policy == "vision" and view.rgb is None:
            verdict = Verdict(False, 0.0, self.threshold, "the vision policy needs a camera view", "neutral", 0.0)
        elif c.policy == "vision":
            embedding = self.recorder.embed(view.rgb)
            verdict = vision_verdict(
                view.emotion_probs, embedding, self.scenes.embeddings(view.user_id), c,
                has_scenes=bool(self.scenes.metadata_files(view.user_id)),
            )
            verdict.metadata["_embedding"] = embedding
        elif affect is None:
            verdict = Verdict(False, 0.0, self.threshold, "no affect state yet", "neutral", 0.0)
        elif c.policy == "pad_arousal":
            verdict = arousal_verdict(affect, c.emotion_source, c.arousal_threshold,
                                      has_scenes=bool(self.scenes.metadata_files(view.user_id)))
        else:
            verdict = intensity_verdict(affect, c.emotion_source, c.intensity_threshold)
        if affect is not None and affect.suppress_storage:
            why = f"suppressed ({affect.suppress_reason or 'interaction asked not to keep this turn'})"
            # what the policy said only matters when suppression changed it
            verdict.reason = f"{why}; would have stored: {verdict.reason}" if verdict.store else why
            verdict.store = False
        self.last_decision_s = time.perf_counter() - started
        return verdict

    def _decide(self, event: AffectState | None, view: View, verdict: Verdict,
                affect: AffectState | None = None) -> None:
        """Store if the verdict says so, then publish the decision (for `event`, None for a poll).
        `affect` is what the scene records (defaults to the event's)."""
        affect = affect or event
        scene_id = None
        if verdict.store:
            extra = dict(verdict.metadata)
            embedding = extra.pop("_embedding", None)
            try:
                meta = self.recorder.store(SceneRequest(
                    user_id=view.user_id, user_name=view.user_name or view.user_id, rgb=view.rgb,
                    scene_type="moment", memorability=verdict.memorability, emotion_label=verdict.emotion_label,
                    intensity=verdict.intensity, reason=verdict.reason,
                    user_message=affect.user_message if affect else None,
                    turn_id=event.turn_id if event else None, embedding=embedding, extra=extra,
                    faces=view.faces, face_emotion=view.face_emotion,
                ))
                scene_id = meta.scene_id
            except Exception as exc:  # any store failure: the decision is still owed for this turn
                log.exception("scene for %s not stored: %s", view.user_id, exc)
                verdict.store, verdict.reason = False, f"store failed: {exc}"
        publish_decision(self.bus, event, view.user_id, verdict.store, verdict.memorability, verdict.threshold,
                         verdict.reason, scene_id)

    def _interval_check(self, view: View, now: float) -> None:
        uid = view.user_id
        if now < self._next_check.get(uid, 0.0):
            return
        self._next_check[uid] = now + self.cfg.memorability_check_interval
        events = list(self._pending)
        self._pending.clear()
        for ev in events[:-1]:
            publish_decision(self.bus, ev.affect, uid, False, None, None,
                             "superseded by a newer affect event before the next check")
        current = events[-1].affect if events else None
        left = self._cooldown_until.get(uid, 0.0) - now
        if left > 0:
            if current is not None:
                publish_decision(self.bus, current, uid, False, None, None,
                                 f"cooldown: {left:.1f} s until this user's next scene may be stored")
            return
        affect = current or self._latest
        verdict = self._evaluate(affect, view)
        if verdict.store:
            self._cooldown_until[uid] = now + self.cfg.scene_store_cooldown_s
        if current is not None or verdict.store:
            self._decide(current, view, verdict, affect)
        else:
            log.debug("interval check for %s: %s", uid, verdict.reason)
