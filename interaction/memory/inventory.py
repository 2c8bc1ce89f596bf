"""Everything the data root holds about one person, as plain data: profile facts with their history,
explicit memories, moments (scenes), episodes, face images. Read by `scripts.memory show`, the
memory inspector and the script runner; nothing here writes.

Chroma is read with its own client and no embedding function (no model load, never a rebuild); with
interaction running on an embedded database this reads the same SQLite file, which Chroma allows for
readers.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import Any

from common.config import NadineSettings
from common.store import DataLayout, ProfileStore, SceneStore
from common.store.faces import FaceStore
from common.store.profile_fields import PROFILE_FIELDS

OTHER_TEXT_KINDS = ("conversation", "turn")  # listed by count only: transcripts, not memories


def when(value: Any) -> str:
    """An ISO 8601 time as a person reads it, in local time to the minute ("Tue 1 Dec 2026, 21:05");
    a time without a zone is taken as local already. Anything else is shown as given ("" for none)."""
    if value is None or value == "":
        return ""
    try:
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return f"{moment:%a} {moment.day} {moment:%b %Y, %H:%M}"


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


def _changed_since(rows: list[dict[str, Any]], key: str, docs: list[Any]) -> None:
    """Each row's memory as it holds now under "now", where the person told a change of it since
    ("my cousin is getting married in May", then "the wedding was moved to June"): read as Nadine
    reads it (memory_requests.as_changed); the memory itself stays as it was kept."""
    from interaction.memory.contracts import TranscriptTurn
    from interaction.memory_requests import as_changed
    from interaction.offline.value_changes import may_change

    told = sorted((TranscriptTurn("user", str(d.metadata["quote"]), at, d.metadata.get("turn_id"))
                   for d in docs if d.kind == "turn" and d.metadata.get("quote") and not d.metadata.get("answers_question")
                   and (at := _at(d.occurred_at)) is not None), key=lambda t: t.at)
    told = [t for t in told if may_change(t.text)]
    for row in rows:
        if told and row[key] and row["date"] and (now := as_changed(row[key], str(row["date"]), told)) != row[key]:
            row["now"] = now


def _at(value: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None


def person(settings: NadineSettings, layout: DataLayout, user_id: str, as_they_hold: bool = False) -> dict[str, Any]:
    """The whole record of one person (the id is validated by the caller); `as_they_hold`: each
    explicit memory and moment a change told since gives a new value also as it holds now."""
    store = ProfileStore(layout)
    profile = store.load(user_id)
    docs = _documents(settings, layout, user_id)
    explicit = [d for d in docs if d.kind == "explicit_memory"]
    episodes = [d for d in docs if d.kind == "episode"]
    kept = [{"id": d.doc_id, "text": d.text, "date": d.occurred_at, "source_turn": d.metadata.get("source_turn")}
            for d in reversed(explicit)]
    moments = moments_of(layout, user_id)
    if as_they_hold:
        _changed_since(kept, "text", docs)
        _changed_since(moments, "utterance", docs)
    return {
        "user_id": user_id,
        "user_name": store.user_ids().get(user_id) or (profile.user_name if profile else None),
        "profile_updated": profile.last_updated if profile else None,
        "facts": facts_of(profile),
        "explicit_memories": kept,
        "moments": moments,
        "episodes": [{"id": d.doc_id, "date": d.occurred_at, "summary": d.text} for d in reversed(episodes)],
        "other_text_memories": {k: sum(d.kind == k for d in docs) for k in OTHER_TEXT_KINDS},
        "face_images": FaceStore(layout).count(user_id),
    }


def user_is_known(settings: NadineSettings, layout: DataLayout, user_id: str) -> bool:
    """True when anything on disk belongs to this id: its user_ids.json entry, its folder, or (a
    forget interrupted after the files went) its Chroma collection."""
    if user_id in ProfileStore(layout).user_ids() or layout.user_dir(user_id).is_dir():
        return True
    from interaction.memory.chroma_store import collection_name, make_client

    name = collection_name(user_id)
    if settings.interaction.chroma.mode == "http":
        return name in {c if isinstance(c, str) else c.name for c in
                        make_client(settings.interaction.chroma, layout.chroma_dir).list_collections()}
    db = layout.chroma_dir / "chroma.sqlite3"
    if not db.is_file():
        return False
    # read-only SQLite, not a second Chroma client: interaction may have the database open
    with closing(sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)) as conn:
        return conn.execute("SELECT 1 FROM collections WHERE name = ?", (name,)).fetchone() is not None


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


def as_text(record: dict[str, Any]) -> str:
    """One person's record (person()) for a terminal: what is held, when and why, one item a line."""
    lines = [f"{record['user_name'] or '(no name)'} ({record['user_id']}); profile last updated "
             f"{when(record['profile_updated']) or 'never'}; {record['face_images']} face image(s)"]

    def section(title: str, rows: list[str]) -> None:
        lines.extend(["", f"{title}:", *(f"  {row}" for row in rows)] if rows else ["", f"{title}: none"])

    facts = []
    for fact in record["facts"]:
        for r in fact["history"]:
            span = f"since {when(r.get('valid_from')) or 'before Nadine knew'}"
            if r.get("valid_to"):
                span += f", until {when(r['valid_to'])} ({'replaced' if r.get('ended') == 'superseded' else 'ended'})"
            facts.append(f"{fact['label']}: {r['value']} ({span})")
    section("Profile facts", facts)
    def now(row: dict[str, Any]) -> str:
        return f"; changed since, now: \"{row['now']}\"" if row.get("now") else ""

    section("Explicit memories", [f"{when(e['date'])}: \"{e['text']}\"{now(e)}" for e in record["explicit_memories"]])
    section("Moments", [f"{when(m['date'])} {m['scene_type']} {m['id']}: \"{m['utterance'] or m['caption'] or ''}\" "
                        f"(why: {m['why']}; {'image ' + m['image_path'] if m['image_path'] else 'text only'}{now(m)})"
                        for m in record["moments"]])
    section("Episodes", [f"{when(e['date'])}: {e['summary']}" for e in record["episodes"]])
    others = ", ".join(f"{n} {k} document(s)" for k, n in record["other_text_memories"].items())
    lines += ["", f"Also held: {others}."]
    return "\n".join(lines)
