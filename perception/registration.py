"""Registration on user_info (a newly named person): store the tracked face for the given user id.

A request waits up to registration_wait_s for a visible tracked face (and for the id to be known:
interaction mints it into user_ids.json before it publishes user_info). At most one face per
face_store_cooldown_s and max_face_images per user; the first face of an id also stores the
first_meeting scene. A face that is recognised as somebody else, or that does not match the faces
already stored for this id, is never filed under it.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from common import topics as t
from common.bus import Bus
from common.clock import Clock
from common.config.perception_settings import FaceSettings
from common.messages import FaceStored, UserInfo
from common.store import DataLayout, InvalidUserId, ProfileStore, validate_user_id
from common.store.faces import FaceStore
from common.vision.image import crop_box
from perception.backends.base import FaceBox
from perception.identity import Recognizer
from perception.selective_memory.recorder import encode_jpeg
from perception.view import View

log = logging.getLogger("nadine.perception.registration")


@dataclass
class _Request:
    info: UserInfo
    arrived: float


class Registrar:
    def __init__(
        self, cfg: FaceSettings, layout: DataLayout, faces: FaceStore, profiles: ProfileStore,
        recognizer: Recognizer | None, bus: Bus, clock: Clock, memory,
    ) -> None:
        self.cfg = cfg
        self.layout = layout
        self.faces = faces
        self.profiles = profiles
        self.recognizer = recognizer
        self.bus = bus
        self.clock = clock
        self.memory = memory  # SelectiveMemory or NoVisualMemory: stores the first_meeting scene
        self._pending: list[_Request] = []

    def request(self, info: UserInfo, now: float) -> None:
        try:
            validate_user_id(info.user_id)
        except InvalidUserId as exc:
            log.warning("user_info refused: %s", exc)
            return
        if self.recognizer is not None:
            self.recognizer.learn_name(info.user_id, info.user_name)
        self.drop(info.user_id)
        self._pending.append(_Request(info, now))

    def drop(self, user_id: str) -> None:
        """Forget a pending registration (the user is being forgotten)."""
        self._pending = [r for r in self._pending if r.info.user_id != user_id]

    def _known_id(self, user_id: str) -> bool:
        return user_id in self.profiles.user_ids() or self.layout.user_dir(user_id).is_dir()

    def on_frame(self, view: View, box: FaceBox | None, now: float) -> bool:
        """Serve pending requests with the current tracked face; True when the gallery changed."""
        ready: list[_Request] = []
        keep: list[_Request] = []
        for req in self._pending:
            uid = req.info.user_id
            if view.rgb is not None and view.face_visible and box is not None and self._known_id(uid):
                ready.append(req)
            elif now - req.arrived < self.cfg.registration_wait_s:
                keep.append(req)
            elif not self._known_id(uid):
                log.warning("user_info refused: unknown user id %r (not in user_ids.json, no profile folder)", uid)
            else:
                log.warning("user_info for %s dropped: no face in view within %.1f s", uid,
                            self.cfg.registration_wait_s)
        self._pending = keep  # before serving: a request that fails is not retried every frame
        changed = False
        for req in ready:
            try:
                changed |= self._register(req.info, view, box)
            except (OSError, ValueError) as exc:  # one failed registration must not stop the frame loop
                log.error("face of %s not registered: %s", req.info.user_id, exc)
        return changed

    def _register(self, info: UserInfo, view: View, box: FaceBox) -> bool:
        uid, name, rgb, tracked_user = info.user_id, info.user_name, view.rgb, view.user_id
        if self.recognizer is None:
            log.error("cannot register a face for %s: no face identity backend is loaded", uid)
            return False
        if tracked_user is not None and tracked_user != uid:
            log.warning("user_info for %s ignored: the tracked face is recognised as %s", uid, tracked_user)
            return False
        embedding = self.recognizer.identifier.embed(rgb, box)
        if self.recognizer.is_someone_else(uid, embedding):
            # a name alone never opens someone's gallery: interaction gives such a speaker a new id
            log.warning("user_info for %s ignored: the face in view does not match their stored faces", uid)
            return False
        count = self.faces.count(uid)
        if count >= self.cfg.max_face_images:
            log.info("%s already has %d stored faces; none added", uid, count)
            return False
        last = self.faces.last_stored(uid)
        if last is not None and time.time() - last < self.cfg.face_store_cooldown_s:
            log.info("face of %s stored less than %.0f s ago; none added", uid, self.cfg.face_store_cooldown_s)
            return False
        path = self.faces.add(uid, encode_jpeg(crop_box(rgb, box.x1, box.y1, box.x2, box.y2, self.cfg.crop_margin)), embedding,
                              self.recognizer.identifier.name, self.clock.now())
        first = count == 0
        log.info("stored face %d of %s (%s): %s", count + 1, uid, name, path)
        if first:
            self.profiles.update(uid, {"user_name": name, "face_image_path": str(path)}, self.clock.now())
        self.bus.publish(t.FACE_STORED, FaceStored(
            user_name=name, user_id=uid, status="face_stored_new_user" if first else "face_stored"))
        if first:
            try:
                self.memory.store_first_meeting(uid, name, view, info.turn_id)
            except (OSError, ValueError) as exc:  # the face is stored: the gallery must still reload
                log.error("first_meeting scene of %s not stored: %s", uid, exc)
        return True
