"""A data root with real stores filled for a few users (scenes, faces, profile, study logs, Chroma)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import cv2
import numpy as np

from common.store import DataLayout, ProfileStore, SceneMetadata, SceneStore, new_scene_id
from tests.reliability.traces import image_needles, name_needles, vector_needles


@dataclass
class PlantedUser:
    user_id: str
    name: str
    images: list[bytes] = field(default_factory=list)
    vectors: list[np.ndarray] = field(default_factory=list)

    def needles(self) -> dict[str, list[bytes]]:
        return {
            f"name:{self.name}": name_needles(self.name),
            f"id:{self.user_id}": [self.user_id.lower().encode()],
            "image": [n for img in self.images for n in image_needles(img)],
            "vector": [n for v in self.vectors for n in vector_needles(v)],
        }


def noise_jpeg(rng: np.random.Generator) -> bytes:
    ok, buf = cv2.imencode(".jpg", rng.integers(0, 255, (120, 160, 3), dtype=np.uint8))
    assert ok
    return buf.tobytes()


def plant_user(layout: DataLayout, user_id: str, name: str, rng: np.random.Generator) -> PlantedUser:
    """Profile, two scenes (image + embedding + metadata), one face crop + identity embedding."""
    user = PlantedUser(user_id, name)
    now = datetime(2026, 1, 1, 12, 0, 0)
    profiles = ProfileStore(layout)
    profiles.update(user_id, {"user_name": name, "hobbies": ["chess"]}, now)
    scenes = SceneStore(layout)
    for i in range(2):
        jpeg, vec = noise_jpeg(rng), rng.normal(size=512).astype(np.float32)
        meta = SceneMetadata(
            scene_id=new_scene_id(now), timestamp=now.isoformat(), image_path="", memorability=0.9,
            user_message=f"{name} said something memorable #{i}", description=f"{name} smiling",
        )
        scenes.write(user_id, meta, jpeg, vec)
        user.images.append(jpeg)
        user.vectors.append(vec)
    faces = layout.faces_dir(user_id)
    faces.mkdir(parents=True, exist_ok=True)
    crop, ident = noise_jpeg(rng), rng.normal(size=128)
    (faces / "face_000.jpg").write_bytes(crop)
    np.save(faces / "face_000.npy", ident)
    user.images.append(crop)
    user.vectors.append(ident)
    return user


def plant_pair(root: Path, seed: int) -> tuple[DataLayout, PlantedUser, PlantedUser, np.random.Generator]:
    """Maya and Bob with profiles, scenes, faces and study-log records, in `root`/data."""
    layout = DataLayout(root / "data")
    rng = np.random.default_rng(seed)
    maya = plant_user(layout, "260101_0001", "Maya", rng)
    bob = plant_user(layout, "260101_0002", "Bob", rng)
    plant_study_logs(layout, [maya, bob])
    return layout, maya, bob, rng


def plant_study_logs(layout: DataLayout, users: list[PlantedUser]) -> None:
    logs = layout.study_logs_dir
    (logs / "by_user").mkdir(parents=True, exist_ok=True)
    with open(logs / "A_anon_20260101_120000.jsonl", "a", encoding="utf-8") as fh:
        for u in users:
            fh.write(json.dumps({"user_id": u.user_id, "user_text": f"My name is {u.name}",
                                 "robot_text": f"Nice to meet you, {u.name}!"}) + "\n")
    with open(logs / "A_anon_20260101_120000.log", "a", encoding="utf-8") as fh:
        for u in users:
            fh.write(f"turn user={u.user_id} ({u.name}): hello\n")
    for u in users:
        (logs / "by_user" / f"{u.user_id}.jsonl").write_text(
            json.dumps({"user": u.name, "text": "I love chess"}, ensure_ascii=True) + "\n")


def plant_chroma(chroma_dir: Path, users: list[PlantedUser], rng: np.random.Generator, docs: int = 1200):
    """One collection per user, enough documents that Chroma persists an HNSW segment folder."""
    import chromadb
    from chromadb.config import Settings

    client = chromadb.PersistentClient(path=str(chroma_dir), settings=Settings(anonymized_telemetry=False))
    for u in users:
        col = client.get_or_create_collection(f"user_{u.user_id}", metadata={"hnsw:space": "cosine"})
        vecs = rng.normal(size=(docs, 384)).astype(np.float32)
        for start in range(0, docs, 400):
            stop = min(start + 400, docs)
            col.add(ids=[f"{u.user_id}-{i}" for i in range(start, stop)],
                    documents=[f"Episode {i}: {u.name} talked about chess" for i in range(start, stop)],
                    metadatas=[{"user_id": u.user_id, "user_name": u.name}] * (stop - start),
                    embeddings=vecs[start:stop].tolist())
        u.vectors.extend([vecs[0], vecs[docs - 1]])
    return client
