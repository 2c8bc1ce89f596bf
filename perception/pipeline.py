"""The per-frame loop: detect, track, identify, announce, register, decide, capture.

Bus handlers only put events on one queue; everything that touches the camera, the models or the
data folder runs here, on the frame-loop thread, in arrival order.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from common import topics as t
from common.bus import Bus
from common.messages import (
    AffectState,
    CameraStatus,
    CaptureRequest,
    ForgetMemory,
    ForgetUser,
    LookAt,
    UserForgotten,
    UserInfo,
)
from common.store import is_valid_user_id
from common.vision.base import Captioner, SceneEncoder
from perception.announcer import Announcement, Announcer
from perception.backends.base import EmotionRecognizer, FaceBox, FaceDetector
from perception.camera import Camera, Frame
from perception.capture import ViewCapture
from perception.fer_sampler import FerSampler
from perception.forget import forget_in_perception
from perception.identity import Recognizer
from perception.preview import GUI_FIX
from perception.registration import Registrar
from perception.selective_memory.module import NoVisualMemory, SelectiveMemory
from perception.tracking import ActiveUserTracker, Identity, Track
from perception.view import View

log = logging.getLogger("nadine.perception")

PREVIEW_WINDOW = "Face & 3D Tracking"


@dataclass
class Backends:
    detector: FaceDetector | None = None
    recognizer: Recognizer | None = None
    emotion: EmotionRecognizer | None = None
    encoder: SceneEncoder | None = None
    captioner: Captioner | None = None


@dataclass
class StepTimes:
    """Seconds spent per stage in one frame (the benchmark prints these)."""

    detect: float = 0.0
    identify: float = 0.0
    emotion: float = 0.0
    decision: float = 0.0
    total: float = 0.0
    identified: bool = False


class Perception:
    def __init__(
        self, *, bus: Bus, backends: Backends, tracker: ActiveUserTracker, announcer: Announcer,
        registrar: Registrar, memory: SelectiveMemory | NoVisualMemory, capture: ViewCapture,
        identify_every_n: int, detect_max_side: int = 0, fer: FerSampler | None = None, preview: bool = False,
    ) -> None:
        self.bus = bus
        self.b = backends
        self.tracker = tracker
        self.announcer = announcer
        self.registrar = registrar
        self.memory = memory
        self.capture = capture
        self.identify_every_n = identify_every_n
        self.detect_max_side = detect_max_side
        self.fer = fer
        self.preview = preview
        self._stage_errors: set[tuple[str, str, str]] = set()
        self.events: queue.Queue[tuple[Callable[[Any, float], None], Any, float]] = queue.Queue()
        self._was_tracking = False
        self._last_logged: str | None = None  # who the last "identified as" line named
        self._last_faces: list[FaceBox] | None = None
        self._camera_status: CameraStatus | None = None
        if backends.detector is None:
            log.error("no face detector: nobody will ever be seen (see the backend error above)")

    # --- bus handlers (dispatcher thread): enqueue only ------------------------------------------

    def subscribe(self) -> None:
        for spec, handle in (
            (t.USER_INFO, self._on_user_info), (t.AFFECT_STATE, self._on_affect),
            (t.CAPTURE_CURRENT_VIEW, self._on_capture), (t.FORGET_USER, self._on_forget),
            (t.FORGET_MEMORY, self._on_forget_memory),
        ):
            self.bus.subscribe(spec, lambda m, handle=handle: self.events.put((handle, m, time.monotonic())))

    # --- event handlers (frame-loop thread, in arrival order) ------------------------------------

    def _drain_events(self) -> None:
        while True:
            try:
                handle, msg, at = self.events.get_nowait()
            except queue.Empty:
                return
            handle(msg, at)

    def _on_user_info(self, msg: UserInfo, at: float) -> None:
        self.registrar.request(msg, at)

    def _on_affect(self, msg: AffectState, at: float) -> None:
        identity = self.tracker.track.identity if self.tracker.track else None
        self.memory.on_affect(msg, at, identity.user_id if identity else None)

    def _on_capture(self, msg: CaptureRequest, at: float) -> None:
        self.capture.request(msg.value, at)

    def _on_forget(self, msg: ForgetUser, at: float) -> None:
        if not is_valid_user_id(msg.user_id):
            log.warning("forget_user with invalid user id %r refused", msg.user_id)
            return
        forget_in_perception(msg.user_id, self.registrar.layout, self.b.recognizer, self.registrar,
                             self.tracker, self.bus, msg.pseudonym)

    def _on_forget_memory(self, msg: ForgetMemory, at: float) -> None:
        """Perception holds no single memory outside the files, so it only confirms. A moment's files
        are deleted by interaction (or by the CLI when interaction is down), which first reads what
        was said in it to take those words out of the saved conversations: deleting them here could
        win that race."""
        if not is_valid_user_id(msg.user_id):
            log.warning("forget_memory with invalid user id %r refused", msg.user_id)
            return
        self.bus.publish(t.USER_FORGOTTEN, UserForgotten(user_id=msg.user_id, process="perception", removed={},
                                                         memory_id=msg.memory_id))

    # --- the frame step ----------------------------------------------------------------------------

    def _detect(self, frame: Frame) -> list[FaceBox]:
        if self.b.detector is None:
            return []
        if frame.static and self._last_faces is not None:
            return self._last_faces  # an unchanged still: same pixels, same faces, no CPU spent
        self._last_faces = self._detect_pixels(frame)
        return self._last_faces

    def _detect_pixels(self, frame: Frame) -> list[FaceBox]:
        rgb = frame.rgb
        h, w = rgb.shape[:2]
        scale = self.detect_max_side / max(h, w) if self.detect_max_side else 1.0
        if scale >= 1.0:
            faces = self.b.detector.detect(rgb)
        else:
            small = cv2.resize(rgb, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
            faces = [
                dataclasses.replace(f, x1=int(f.x1 / scale), y1=int(f.y1 / scale),
                                    x2=min(w, int(f.x2 / scale)), y2=min(h, int(f.y2 / scale)))
                for f in self.b.detector.detect(small)
            ]
        if frame.depth_m is None:
            return faces
        return [dataclasses.replace(f, depth_m=frame.depth_at((f.x1 + f.x2) // 2, (f.y1 + f.y2) // 2))
                for f in faces]

    def _identify(self, frame: Frame, track: Track, force: bool) -> bool:
        periodic = track.frames_since_identify >= self.identify_every_n
        due = track.identity is None or force or (periodic and not frame.static)
        if not due:
            track.frames_since_identify += 1
            if periodic and track.identity.user_id and self.b.recognizer is not None:
                # an unchanged still needs no new embedding, but a renamed user gets the new name
                track.identity.user_name = self.b.recognizer.name_of(track.identity.user_id)
                track.frames_since_identify = 1
            return False
        if self.b.recognizer is None:
            track.identity = Identity(None, -1.0)
        else:
            track.identity = self.b.recognizer.identify(frame.rgb, track.box)
            who = track.identity.user_id or "unknown"
            if who != self._last_logged:  # a folder of photos of one person logs once, not per photo
                log.info("track %d identified as %s (cos %.3f)", track.track_id, who, track.identity.best_cos)
                self._last_logged = who
        track.frames_since_identify = 1
        return True

    def _publish(self, ann: Announcement | None) -> None:
        if ann is not None:
            self.bus.publish(t.USER_DETECTED, ann.message, qos=ann.qos)

    def _safely(self, stage: str, run, default):
        """A model stage that fails counts as "no result" for this frame, so heartbeats, storage
        decisions and captures still run; each distinct failure is logged once."""
        try:
            return run()
        except Exception as exc:
            key = (stage, type(exc).__name__, str(exc)[:120])
            if key not in self._stage_errors:
                self._stage_errors.add(key)
                log.exception("%s failed on this frame (logged once per distinct error)", stage)
            return default

    def _look_at(self, frame: Frame, box: FaceBox) -> None:
        if frame.deproject is None or box.depth_m is None:
            return
        x, y, z = frame.deproject((box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2, box.depth_m)
        if (x, y, z) != (0.0, 0.0, 0.0):
            self.bus.publish(t.LOOK_AT, LookAt(x=x, y=y, z=z))

    def step(self, frame: Frame | None, now: float | None = None, force_identify: bool = False,
             camera_on: bool = True) -> StepTimes:
        """One frame (None: nothing to see). `camera_on` false: no camera delivers at all, so turns
        waiting for the person to come into view are decided at once."""
        now = time.monotonic() if now is None else now
        times = StepTimes()
        started = time.perf_counter()
        self._drain_events()

        t0 = time.perf_counter()
        faces = self._detect(frame) if frame is not None else []
        times.detect = time.perf_counter() - t0
        track = self.tracker.update(faces, now, cut=frame.cut if frame is not None else False)
        visible = frame is not None and track is not None and track.visible
        probs = None
        if visible:
            t0 = time.perf_counter()
            times.identified = self._safely("identify", lambda: self._identify(frame, track, force_identify), False)
            times.identify = time.perf_counter() - t0
            if self.b.emotion is not None:
                t0 = time.perf_counter()
                probs = self._safely("emotion", lambda: self.b.emotion.probabilities(frame.rgb, track.box), None)
                times.emotion = time.perf_counter() - t0
            self._look_at(frame, track.box)

        if track is not None and track.identity is not None:
            ident = track.identity
            self._publish(self.announcer.seen(ident.user_id, ident.user_name, ident.confidence, now))
        elif track is None and self._was_tracking:
            self._publish(self.announcer.gone())
        self._was_tracking = track is not None

        identity = track.identity if track else None
        rgb = frame.rgb if frame is not None else None
        view = View(rgb, identity.user_id if identity else None, identity.user_name if identity else None,
                    visible, probs, faces=len(faces), camera_on=camera_on)
        if self.registrar.on_frame(view, track.box if visible else None, now):
            self.b.recognizer.reload()
            track.identity = None  # re-identify against the new gallery on the next frame
            view.user_id = None  # this frame's identity predates the registration

        t0 = time.perf_counter()
        self.memory.on_frame(view, now)
        times.decision = time.perf_counter() - t0
        if self.fer is not None and visible:
            self.fer.on_frame(view.user_id, probs, frame.rgb, now)
        self.capture.on_frame(rgb, now)
        if self.preview and frame is not None:
            self._show(frame.rgb, track if visible else None)
        times.total = time.perf_counter() - started
        return times

    def _show(self, rgb: np.ndarray, track: Track | None) -> None:
        """The reference's preview: only the tracked face, boxed and labelled (on a copy)."""
        img = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
        if track is not None:
            b = track.box
            ident = track.identity
            label = f"{(ident.user_name or ident.user_id or 'Unknown') if ident else '...'}"
            if ident is not None and ident.user_id is not None:  # an unknown face has no confidence
                label += f" ({ident.confidence:.0f}%)"
            cv2.rectangle(img, (b.x1, b.y1), (b.x2, b.y2), (0, 255, 0), 2)
            cv2.putText(img, label, (b.x1, max(12, b.y1 - 6)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 255, 0), 2)
        try:
            cv2.imshow(PREVIEW_WINDOW, img)
            cv2.waitKey(1)
        except cv2.error as exc:
            log.error("preview window unavailable (%s); for --preview: %s. Continuing headless.",
                      str(exc).splitlines()[0] if str(exc) else exc, GUI_FIX)
            self.preview = False

    def publish_camera(self, camera: Camera) -> None:
        """The retained camera status, whenever the camera opens or fails (who can see what)."""
        status = CameraStatus(source=camera.source.description, ok=camera.ok, error=camera.error)
        if status != self._camera_status:
            self._camera_status = status
            self.bus.publish(t.CAMERA_STATUS, status)

    def run(self, camera: Camera, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                frame = camera.read(stop.wait)
                if stop.is_set():
                    break
                self.publish_camera(camera)
                self.step(frame, camera_on=camera.ok)
            except Exception:  # one bad frame (a model or camera error) must not end the process
                log.exception("frame step failed; continuing with the next frame")
                stop.wait(0.1)
