"""Everything the data root holds about one person, as plain data: profile facts with their history,
explicit memories, moments (scenes), episodes, face images. Read by `scripts.memory show` and the
memory inspector; nothing here writes.

Chroma is read with its own client and no embedding function (no model load, never a rebuild); with
interaction running on an embedded database this reads the same SQLite file, which Chroma allows for
readers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from common.config import NadineSettings
from common.store import DataLayout, ProfileStore, SceneStore
from common.store.faces import FaceStore
from common.store.profile_fields import PROFILE_FIELDS

OTHER_TEXT_KINDS = ("conversation", "turn")  # listed by count only: transcripts, not memories


def _documents(settings: NadineSettings, layout: DataLayout, user_id: str) -> list[Any]:
    from interaction.memory.chroma_store import episodic_client
    from interaction.memory.documents import list_documents

    if settings.interaction.chroma.mode == "embedded" and not layout.chroma_dir.is_dir():
        return []
    return list_documents(episodic_client(settings, layout), user_id)


def facts_of(profile: Any) -> list[dict[str, Any]]:
    """Per declared field: label, current value(s) and every record, newest first."""
    if profile is None:
        return []
    out = []
    for spec in PROFILE_FIELDS:
        records = profile.history(spec.name)
        if records:
            out.append({"field": spec.name, "label": spec.label, "current": getattr(profile, spec.name),
                        "history": [r.model_dump() for r in reversed(records)]})
    return out


def moments_of(layout: DataLayout, user_id: str) -> list[dict[str, Any]]:
    scenes = SceneStore(layout).list(user_id)
    rows = []
    for s in sorted(scenes, key=lambda s: s.timestamp, reverse=True):
        image = Path(s.image_path) if s.image_path else None
        rows.append({
            "id": s.scene_id, "date": s.timestamp, "scene_type": s.scene_type, "utterance": s.user_message,
            "caption": s.description, "image_path": str(image) if image and image.is_file() else None,
            "why": s.reason or f"memorability {s.memorability:.2f}", "memorability": s.memorability,
            "emotion": s.emotion_label, "intensity": s.intensity,
        })
    return rows


def person(settings: NadineSettings, layout: DataLayout, user_id: str) -> dict[str, Any]:
    """The whole record of one person (the id is validated by the caller)."""
    store = ProfileStore(layout)
    profile = store.load(user_id)
    docs = _documents(settings, layout, user_id)
    explicit = [d for d in docs if d.kind == "explicit_memory"]
    episodes = [d for d in docs if d.kind == "episode"]
    return {
        "user_id": user_id,
        "user_name": store.user_ids().get(user_id) or (profile.user_name if profile else None),
        "profile_updated": profile.last_updated if profile else None,
        "facts": facts_of(profile),
        "explicit_memories": [{"id": d.doc_id, "text": d.text, "date": d.occurred_at,
                               "source_turn": d.metadata.get("source_turn")} for d in reversed(explicit)],
        "moments": moments_of(layout, user_id),
        "episodes": [{"id": d.doc_id, "date": d.occurred_at, "summary": d.text} for d in reversed(episodes)],
        "other_text_memories": {k: sum(d.kind == k for d in docs) for k in OTHER_TEXT_KINDS},
        "face_images": FaceStore(layout).count(user_id),
    }


def people(layout: DataLayout) -> list[dict[str, Any]]:
    """Everyone the data root knows (user_ids.json and profile folders), with a face image to show."""
    names = ProfileStore(layout).user_ids()
    faces = FaceStore(layout)
    rows = []
    for user_id in sorted(set(names) | set(layout.user_ids())):
        images = faces.images(user_id)
        rows.append({"user_id": user_id, "user_name": names.get(user_id), "face": images[0].name if images else None,
                     "faces": len(images), "moments": len(SceneStore(layout).metadata_files(user_id))})
    return rows
