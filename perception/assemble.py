"""Build the perception pipeline from settings: load the model backends (each failure logged once,
with its fix, and the process degrades as the reference says) and wire the stages together."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

from common.bus import Bus
from common.clock import Clock
from common.config import NadineSettings
from common.store import DataLayout, ProfileStore, SceneStore
from common.store.faces import FaceStore
from common.vision.base import BackendUnavailable
from perception.announcer import Announcer
from perception.capture import ViewCapture
from perception.fer_sampler import FerSampler
from perception.identity import Recognizer
from perception.pipeline import Backends, Perception
from perception.registration import Registrar
from perception.selective_memory.module import NoVisualMemory, SelectiveMemory
from perception.selective_memory.policies import novelty
from perception.selective_memory.recorder import SceneRecorder
from perception.tracking import ActiveUserTracker

log = logging.getLogger("nadine.perception")

T = TypeVar("T")


def _load(what: str, build: Callable[[], T | None], consequence: str) -> T | None:
    try:
        backend = build()
    except BackendUnavailable as exc:
        log.error("%s: %s; %s", what, exc, consequence)
        return None
    if backend is not None:
        log.info("%s: %s", what, getattr(backend, "name", type(backend).__name__))
    return backend


def load_backends(settings: NadineSettings, faces: FaceStore, profiles: ProfileStore) -> Backends:
    from common.vision import registry as vision_registry
    from perception.backends import registry

    p = settings.perception
    b = Backends()
    b.detector = _load("face detector", lambda: registry.build_face_detector(settings), "nobody will be seen")
    identifier = _load("face identity", lambda: registry.build_face_identifier(settings),
                       "every face stays Unknown and no face can be registered")
    b.emotion = _load("facial emotion", lambda: registry.build_emotion(settings),
                      "no facial emotion (vision policy and FER sampler get none)")
    memory_on = settings.common.enable_visual_memory
    if memory_on or p.fer.novelty:
        b.encoder = _load("scene encoder", lambda: vision_registry.build_scene_encoder(settings),
                          "scenes are stored without an embedding and novelty is not measured")
    if memory_on:
        b.captioner = _load("captioner", lambda: vision_registry.build_captioner(settings, b.encoder),
                            "scenes are stored without a description")
    if b.detector is not None and identifier is not None:
        b.recognizer = Recognizer(b.detector, identifier, faces, profiles, registry.recognition_threshold(settings))
        b.recognizer.reload()
    return b


def fer_log_path(settings: NadineSettings, layout: DataLayout) -> Path:
    configured = settings.perception.fer.log_path
    if not configured:
        return layout.fer_samples_file
    path = Path(configured).expanduser()
    return path if path.is_absolute() else layout.root / path


def build(settings: NadineSettings, layout: DataLayout, bus: Bus, clock: Clock,
          backends: Backends | None = None, preview: bool = False) -> Perception:
    p = settings.perception
    faces, profiles, scenes = FaceStore(layout), ProfileStore(layout), SceneStore(layout)
    b = backends or load_backends(settings, faces, profiles)
    if settings.common.enable_visual_memory:
        recorder = SceneRecorder(scenes, bus, clock, b.encoder, b.captioner)
        memory: SelectiveMemory | NoVisualMemory = SelectiveMemory(p.selective_memory, recorder, scenes, bus)
        log.info("selective memory: policy %s, trigger %s, emotion source %s", p.selective_memory.policy,
                 memory.trigger, p.selective_memory.emotion_source)
    else:
        memory = NoVisualMemory(bus)
        log.info("visual memory disabled: no selective memory module loaded, nothing is stored")
    fer = None
    if p.fer.enabled:
        novelty_of = None
        if p.fer.novelty and b.encoder is not None:
            encoder = b.encoder

            def novelty_of(user_id: str, rgb: np.ndarray) -> float | None:
                return novelty(encoder.embed_image(rgb), scenes.embeddings(user_id))

        fer = FerSampler(fer_log_path(settings, layout), p.fer.interval_s, clock, novelty_of)
    perception = Perception(
        bus=bus, backends=b,
        tracker=ActiveUserTracker(p.faces.track_hold_s, p.faces.no_face_timeout_s),
        announcer=Announcer(p.faces.announce_period_s),
        registrar=Registrar(p.faces, layout, faces, profiles, b.recognizer, bus, clock, memory),
        memory=memory, capture=ViewCapture(layout, bus, p.camera.frame_timeout_s),
        identify_every_n=p.faces.identify_every_n_frames, detect_max_side=p.faces.detect_max_side, fer=fer, preview=preview,
    )
    return perception
