"""The current view (the vision agent's tool): capture it through perception and answer about it.

Capture: publish CAPTURE_CURRENT_VIEW with a fresh path under <data>/nadine_view/ and wait for the
matching VIEW_CAPTURED (a threading.Event set by a subscription made at construction). The wait must
not run on the bus dispatcher thread, which is the thread that delivers VIEW_CAPTURED.
Answer: the OpenAI-compatible vision profile of agent `vision_description` when one is configured,
else (or when it fails) the offline captioner of common/vision/registry.
"""

from __future__ import annotations

import base64
import logging
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from common import topics as t
from common.bus import Bus
from common.clock import Clock
from common.config import NadineSettings
from common.messages import CaptureRequest, ViewCaptured
from common.store.layout import DataLayout, PathOutsideDataRoot
from common.vision.base import BackendUnavailable, Captioner
from common.vision.image import read_rgb

log = logging.getLogger("nadine.interaction.current_view")

AGENT = "vision_description"
UNAVAILABLE = "Sorry, I cannot see anything right now."
SYSTEM_PROMPT = (
    "You are the eyes of Nadine, a social robot. The image is what her camera sees right now. Answer "
    "the person's question about it in one or two short sentences, concretely. If the image does not "
    "let you answer, start your answer with 'Sorry'."
)


@dataclass(frozen=True)
class Look:
    answer: str
    image_path: Path | None  # the captured frame (inside the data root), None when nothing came
    source: str  # which backend answered


class VisionAgent:
    def __init__(self, settings: NadineSettings, layout: DataLayout, bus: Bus, clock: Clock) -> None:
        self._settings = settings
        self._layout = layout
        self._bus = bus
        self._clock = clock
        self._pending: dict[str, tuple[threading.Event, list[ViewCaptured]]] = {}
        self._lock = threading.Lock()
        self._captioner: Captioner | None = None
        self._captioner_loaded = False
        self._llm: Any = None  # interaction.llm.LlmRegistry, built on the first question
        bus.subscribe(t.VIEW_CAPTURED, self._on_view_captured)

    # --- capture ---------------------------------------------------------------------------------

    def _on_view_captured(self, msg: ViewCaptured) -> None:
        with self._lock:
            waiter = self._pending.get(msg.path)
        if waiter is None:
            log.debug("view_captured for %s, which nobody here asked for", msg.path)
            return
        waiter[1].append(msg)
        waiter[0].set()

    def capture(self) -> Path | None:
        """The path of a fresh frame written by perception, or None (timeout, error, off-root path)."""
        if threading.current_thread().name == f"bus-{self._bus.process}":
            log.error("vision capture requested on the bus dispatcher thread; refused (it would deadlock)")
            return None
        now = self._clock.now()
        path = self._layout.captures_dir / f"view_{now:%Y%m%d_%H%M%S}_{secrets.token_hex(3)}.jpg"
        path.parent.mkdir(parents=True, exist_ok=True)
        event, replies = threading.Event(), []
        with self._lock:
            self._pending[str(path)] = (event, replies)
        try:
            self._bus.publish(t.CAPTURE_CURRENT_VIEW, CaptureRequest(value=str(path)))
            timeout = self._settings.interaction.vision_capture_timeout_s
            if not event.wait(timeout):
                log.warning("no view_captured for %s within %.1f s", path.name, timeout)
                return None
        finally:
            with self._lock:
                self._pending.pop(str(path), None)
        reply = replies[0]
        if not reply.ok:
            log.warning("perception could not capture the view: %s", reply.error or "no reason given")
            return None
        try:
            captured = self._layout.inside(reply.path)
        except PathOutsideDataRoot:
            log.warning("view_captured names %s, outside the data root; ignored", reply.path)
            return None
        if not captured.is_file():
            log.warning("view_captured says ok but %s does not exist", captured)
            return None
        return captured

    # --- answer ----------------------------------------------------------------------------------

    def look(self, question: str) -> Look:
        image = self.capture()
        if image is None:
            return Look(UNAVAILABLE, None, "none")
        answer = self._ask_vlm(question, image)
        if answer is not None:
            return Look(answer, image, AGENT)
        return self._caption(image)

    def _ask_vlm(self, question: str, image: Path) -> str | None:
        try:
            from interaction.llm import LlmError, LlmRegistry
        except ImportError as exc:  # the LLM layer is optional for the offline captioner path
            log.error("no LLM layer for the vision model (%s); answering with the captioner", exc)
            return None
        if self._llm is None:
            self._llm = LlmRegistry(self._settings.interaction.llm)
        model = self._llm.for_agent(AGENT)
        if model is None or not model.profile.vision:  # a text-only model cannot look: the captioner answers
            return None
        data_url = "data:image/jpeg;base64," + base64.b64encode(image.read_bytes()).decode("ascii")
        messages = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": [
                {"type": "text", "text": question},
                {"type": "image_url", "image_url": {"url": data_url, "detail": "high"}},
            ]},
        ]
        try:
            return model.complete(messages, json_mode=False).strip()
        except LlmError as exc:
            log.warning("vision model failed (%s); answering with the offline captioner", exc)
            return None

    def _load_captioner(self) -> Captioner | None:
        if not self._captioner_loaded:
            self._captioner_loaded = True
            try:
                from common.vision.registry import build_captioner

                self._captioner = build_captioner(self._settings)
            except (ImportError, BackendUnavailable) as exc:
                log.error("no captioner for the vision agent: %s", exc)
        return self._captioner

    def _caption(self, image: Path) -> Look:
        captioner = self._load_captioner()
        if captioner is None:
            return Look(UNAVAILABLE, image, "none")
        try:
            rgb = read_rgb(image)
        except (OSError, ValueError) as exc:
            log.warning("captured view %s unreadable: %s", image, exc)
            return Look(UNAVAILABLE, image, "none")
        caption = captioner.caption(rgb)
        return Look(caption.text, image, caption.source)
