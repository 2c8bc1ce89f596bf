"""Perception's part of forgetting a user (nadine/memory/forget_user): the same idempotent on-disk
erase every process runs (faces, scenes, profile, captures, study-log pseudonyms), plus what only
perception holds in memory: the face gallery, the tracked identity, the name it learned and any
pending registration for that id. Answered on user_forgotten."""

from __future__ import annotations

import logging

from common import topics as t
from common.bus import Bus
from common.messages import UserForgotten
from common.store import DataLayout
from common.store.forget import forget_user_files
from perception.identity import Recognizer
from perception.registration import Registrar
from perception.tracking import ActiveUserTracker

log = logging.getLogger("nadine.perception.forget")


def forget_in_perception(
    user_id: str, layout: DataLayout, recognizer: Recognizer | None, registrar: Registrar,
    tracker: ActiveUserTracker, bus: Bus, pseudonym: str | None = None,
) -> dict[str, int]:
    """Runs on the frame-loop thread, so no frame sees half of it. The id is validated by the caller."""
    names = [n for n in [recognizer.name_of(user_id) if recognizer else None] if n]
    registrar.drop(user_id)
    removed = forget_user_files(layout, user_id, names, pseudonym)
    if recognizer is not None:
        recognizer.forget_name(user_id)
        recognizer.reload()
    track = tracker.track
    if track is not None and track.identity is not None and track.identity.user_id == user_id:
        track.identity = None  # re-identified against the smaller gallery on the next frame
    log.info("forgot %s: %s", user_id, removed)  # the log filter writes a pseudonym for the id
    bus.publish(t.USER_FORGOTTEN, UserForgotten(user_id=user_id, process="perception", removed=removed))
    return removed
