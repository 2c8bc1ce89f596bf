"""Plays a conversation script against a running suite, the way a person would arrive and talk.

Per session: the previous person leaves (camera emptied, wait for perception's all-null message),
the shared clock moves by gap_hours, the session's images are shown and the player waits, bounded,
until perception reports who is in view. Per turn: publish USER_INPUT, wait for that turn's
TURN_RESULT and STORAGE_DECISION, collect the scenes stored meanwhile, check the expectations.
`play()` yields events; the caller prints them (JSON lines, transcript).
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from common import topics as t
from common.bus import Bus
from common.clock import Clock
from common.config import NadineSettings
from common.messages import SceneStored, StorageDecision, TurnResult, UserDetected, UserInput
from common.store import DataLayout
from common.store.profiles import ProfileStore
from scripts.runner import expect as ex
from scripts.runner.camera import CameraFeeder
from scripts.runner.observer import Observer
from scripts.runner.script import Expect, Script, Session, Turn

log = logging.getLogger("nadine.runner")


@dataclass
class Timeouts:
    first_presence_s: float = 120.0  # perception loads its models before the first face
    presence_s: float = 30.0
    identify_settle_s: float = 2.0  # after an "Unknown" face, how long to wait for it to be recognised
    nobody_s: float = 10.0  # after emptying the camera (no_face_timeout_s is added)
    first_reply_s: float = 180.0  # interaction loads its models on the first turn
    reply_s: float = 90.0
    decision_s: float = 30.0
    first_meeting_s: float = 15.0
    profile_s: float = 5.0
    speech_onset_s: float = 3.0  # a reply whose speech has not begun by then is not waited for
    speech_s: float = 60.0


@dataclass
class SessionStarted:
    index: int
    session: Session
    images: list[Path]


@dataclass
class PresenceSeen:
    index: int
    message: UserDetected | None  # None: camera empty, or no face reported within the bound
    camera_empty: bool


@dataclass
class TurnOutcome:
    session: int
    turn: int
    spec: Turn
    result: TurnResult | None
    decision: StorageDecision | None
    scenes: list[SceneStored]
    latency_s: float | None
    checks: dict[str, bool] = field(default_factory=dict)

    @property
    def expect_ok(self) -> bool | None:
        return all(self.checks.values()) if self.checks else None

    def stored(self) -> dict[str, Any] | None:
        own = [s for s in self.scenes if self.result is not None and s.turn_id == self.result.turn_id]
        scene = (own or self.scenes or [None])[0]
        if scene is None:
            return None
        return {"scene_id": scene.scene_id, "scene_type": scene.scene_type or "moment",
                "memorability": round(scene.memorability, 4)}

    def record(self) -> dict[str, Any]:
        """The documented per-turn JSON object, exactly these keys."""
        r = self.result
        retrieved = None
        if r is not None and r.retrieved is not None:
            retrieved = {"scene_id": r.retrieved.scene_id, "similarity": round(r.retrieved.similarity, 4),
                         "injected": r.retrieved.injected, "user_message": r.retrieved.user_message}
        return {
            "session": self.session, "turn": self.turn, "say": self.spec.say,
            "user_id": r.user_id if r else None, "user_name": r.user_name if r else None,
            "intent": r.intent if r else None, "is_recall": r.is_recall if r else None,
            "user_emotion": r.user_emotion.model_dump() if r and r.user_emotion else None,
            "stored": self.stored(), "retrieved": retrieved,
            "reply": r.reply if r else None,
            "latency_s": None if self.latency_s is None else round(self.latency_s, 3),
            "expect_ok": self.expect_ok,
        } | self._memory_fields()

    def _memory_fields(self) -> dict[str, Any]:
        """`memory_intent` and `recall` (the RecallReport) only when the suite reports them, so a
        record from a suite without them keeps exactly the keys above."""
        r = self.result
        out: dict[str, Any] = {}
        if r is not None and r.memory_intent is not None:
            out["memory_intent"] = r.memory_intent
        if r is not None and r.recall is not None:
            out["recall"] = r.recall.model_dump(mode="json")
        return out


Event = SessionStarted | PresenceSeen | TurnOutcome


class ScriptPlayer:
    def __init__(
        self, bus: Bus, observer: Observer, camera: CameraFeeder, data_dir: Path,
        no_face_timeout_s: float, alive: Callable[[], None], settings: NadineSettings,
        timeouts: Timeouts | None = None, wait_for_speech: bool = False,
    ) -> None:
        self.bus = bus
        self.observer = observer
        self.camera = camera
        self.layout = DataLayout(data_dir)
        self.settings = settings
        self.clock = Clock(self.layout.runtime_dir)
        self.no_face_timeout_s = no_face_timeout_s
        self.alive = alive
        self.timeouts = timeouts or Timeouts()
        self.wait_for_speech = wait_for_speech
        self._last_reply_mark: int | None = None  # where the last answered turn began (speech pacing)
        self._last_reply_utterances = 1  # what control was handed for it: one, or one per streamed sentence
        self._run = uuid.uuid4().hex[:8]
        self._someone_announced = False
        self._first_presence = True
        self._first_reply = True
        self._session_users: dict[int, list[str]] = {}  # session -> user ids Nadine held, turn order

    def play(self, script: Script, cameras: list[list[Path]]) -> Iterator[Event]:
        if script.clock_start is not None:
            self.clock.advance((script.clock_start.replace(tzinfo=None) - self.clock.now()).total_seconds() / 3600)
        for index, (session, images) in enumerate(zip(script.sessions, cameras, strict=True), 1):
            self._leave()
            if session.gap_hours:
                self.clock.advance(session.gap_hours)
            yield SessionStarted(index, session, images)
            yield PresenceSeen(index, self._arrive(images), camera_empty=not images)
            for number, turn in enumerate(session.turns, 1):
                self._let_nadine_finish()
                yield self._turn(index, number, turn)
        self._let_nadine_finish()

    # --- presence ------------------------------------------------------------------------------

    def _leave(self) -> None:
        """The previous person walks away: empty the camera and wait for perception's all-null."""
        self._let_nadine_finish()
        if not self.camera.showing:
            return
        mark = self.observer.mark()
        self.camera.show([])
        if self._someone_announced:
            timeout = self.no_face_timeout_s + self.timeouts.nobody_s
            gone = self.observer.wait_for(t.USER_DETECTED, lambda m: m.user_name is None, mark, timeout, self.alive)
            if gone is None:
                log.warning("perception did not report nobody in view within %.0f s", timeout)
        self._someone_announced = False

    def _arrive(self, images: list[Path]) -> UserDetected | None:
        if not images:
            return None
        mark = self.observer.mark()
        self.camera.show(images)
        timeout = self.timeouts.first_presence_s if self._first_presence else self.timeouts.presence_s
        self._first_presence = False
        seen = self.observer.wait_for(t.USER_DETECTED, lambda m: m.user_name is not None, mark, timeout, self.alive)
        if seen is None:
            log.warning("perception reported no face within %.0f s; playing the session anyway", timeout)
            return None
        self._someone_announced = True
        if seen.user_id is None:  # an unknown face may be recognised a moment later
            later = self.observer.wait_for(
                t.USER_DETECTED, lambda m: m.user_id is not None, mark, self.timeouts.identify_settle_s, self.alive
            )
            seen = later or seen
        log.info("in view: %s (%s, %.0f%%)", seen.user_name, seen.user_id, seen.confidence)
        return seen

    # --- turns ---------------------------------------------------------------------------------

    def _turn(self, session: int, number: int, turn: Turn) -> TurnOutcome:
        turn_id = f"{self._run}-s{session}t{number}"
        mark = self.observer.mark()
        began = time.monotonic()
        self.bus.publish(t.USER_INPUT, UserInput(
            text=turn.say, turn_id=turn_id, user_emotion=turn.user_emotion, is_recall=turn.is_recall,
            intent=turn.intent,
        ))
        timeout = self.timeouts.first_reply_s if self._first_reply else self.timeouts.reply_s
        result = self.observer.wait_for(t.TURN_RESULT, lambda m: m.turn_id == turn_id, mark, timeout, self.alive)
        latency = time.monotonic() - began if result is not None else None
        if result is None:
            log.error("no turn_result for %r within %.0f s", turn.say, timeout)
        else:
            self._first_reply = False
        decision = self.observer.wait_for(
            t.STORAGE_DECISION, lambda m: m.turn_id == turn_id, mark,
            self.timeouts.decision_s if result is not None else 0.0, self.alive,
        )
        if result is not None and decision is None:
            log.warning("no storage_decision for turn %s within %.0f s", turn_id, self.timeouts.decision_s)
        expectation = turn.expect
        if expectation is not None and expectation.stored == "first_meeting":
            self.observer.wait_for(t.SCENE_STORED, lambda m: m.scene_type == "first_meeting", mark,
                                   self.timeouts.first_meeting_s, self.alive)
        if result is not None:
            self._last_reply_mark = mark
            self._last_reply_utterances = max(1, int(result.extra.get("sentences") or 0))
        scenes = [s for s in self.observer.since(t.SCENE_STORED, mark) if s.turn_id in (turn_id, None)]
        outcome = TurnOutcome(session, number, turn, result, decision, scenes, latency)
        if expectation is not None:
            seen = ex.SeenUsers({s: ids for s, ids in self._session_users.items() if s < session})
            outcome.checks = self._check(expectation, outcome, seen)
        if result is not None and result.user_id:
            self._session_users.setdefault(session, []).append(result.user_id)
        return outcome

    def _let_nadine_finish(self) -> None:
        """With speech pacing, a person waits for the spoken reply to end before talking again or
        leaving (the lab's microphone reopens on end_speak). end_speak carries no turn id: count
        onsets and ends since the last answered turn began, and at least one end per utterance (a
        streamed reply's next sentence may not have started when the previous one ends)."""
        mark, self._last_reply_mark = self._last_reply_mark, None
        if not self.wait_for_speech or mark is None:
            return
        if self.observer.wait_for(t.START_SPEAK, lambda m: True, mark, self.timeouts.speech_onset_s, self.alive) is None:
            return

        utterances = self._last_reply_utterances

        def done(_: object) -> bool:
            ends = len(self.observer.since(t.END_SPEAK, mark))
            return ends >= max(utterances, len(self.observer.since(t.START_SPEAK, mark)))

        if self.observer.wait_for(t.END_SPEAK, done, mark, self.timeouts.speech_s, self.alive) is None:
            log.warning("Nadine was still speaking %.0f s after the reply", self.timeouts.speech_s)

    def _check(self, expectation: Expect, outcome: TurnOutcome, seen: ex.SeenUsers) -> dict[str, bool]:
        """Profile updates and stored memories may land a moment after the reply: re-check those for a
        short while."""
        deadline = time.monotonic() + self.timeouts.profile_s
        while True:
            counts = self._memory_counts(outcome.result) if expectation.memories is not None else None
            checks = ex.check(expectation, outcome.result, outcome.scenes, self._profile(outcome.result),
                              seen, outcome.spec.say, counts)
            settled = all(checks.get(key, True) for key in ("profile", "profile_lacks", "memories"))
            if settled or time.monotonic() > deadline:
                return checks
            time.sleep(0.25)

    def _memory_counts(self, result: TurnResult | None) -> dict[str, int] | None:
        """What the person Nadine believes she talks to holds, read from the data root as the
        inspector reads it."""
        if result is None or not result.user_id:
            return None
        from interaction.memory.inventory import person  # reads Chroma: only for scripts that count memories

        try:
            return ex.memory_counts(person(self.settings, self.layout, result.user_id))
        except ValueError as exc:  # an invalid id must not be turned into a path
            log.warning("turn result names an invalid user id: %s", exc)
            return None

    def _profile(self, result: TurnResult | None) -> dict[str, Any] | None:
        if result is None or not result.user_id:
            return None
        try:
            profile = ProfileStore(self.layout).load(result.user_id)
        except ValueError as exc:  # an invalid id must not be turned into a path
            log.warning("turn result names an invalid user id: %s", exc)
            return None
        return profile.model_dump() if profile else None
