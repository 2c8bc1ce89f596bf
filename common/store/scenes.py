"""Memorable scenes: images/<id>.jpg, embeddings/<id>_embedding.npy, metadata/<id>_metadata.json.

Perception writes moment and first_meeting scenes, interaction writes observation scenes; both read.
The metadata file is written last and is the commit marker: a scene without readable metadata does
not exist for readers (a writer killed half-way leaves nothing a reader will trip over).
Legacy names (scene_YYYYMMDD_HHMMSS) and the legacy episode_context field are read.
"""

from __future__ import annotations

import io
import logging
import re
import secrets
import time
from datetime import datetime
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, ValidationError

from common.store.atomic import atomic_write_bytes, atomic_write_json, file_lock, read_json
from common.store.layout import DataLayout

log = logging.getLogger("nadine.store.scenes")

SceneType = Literal["moment", "first_meeting", "observation"]
SCENE_ID_RE = re.compile(r"^scene_\d{8}_\d{6}(_[0-9a-f]{6})?$")
FIRST_MEETING_ANCHOR = "The first time we met — {user_name} introduced themselves to me."


class SceneMetadata(BaseModel):
    """A scene's metadata.json: the fields the original study robot wrote (its tools read them), plus
    ours; policy-specific extras are kept."""

    model_config = ConfigDict(extra="allow")

    scene_id: str
    timestamp: str
    image_path: str
    memorability: float
    emotion_label: str = "neutral"
    intensity: float = 0.0
    description: str = ""
    user_message: str | None = None
    scene_type: SceneType = "moment"
    reason: str = ""
    episode_context: str | None = None  # legacy, read only
    turn_id: str | None = None  # the dialogue turn whose words it keeps: forgetting it finds them there

    @property
    def text_only(self) -> bool:
        """Stored without a camera view (chat, or the person out of view): no image, no embedding."""
        return not self.image_path

    @property
    def retrieval_text(self) -> str:
        """What a scene is retrieved by: the utterance, else legacy episode_context, else the caption."""
        return (self.user_message or self.episode_context or self.description or "").strip()

    @property
    def when(self) -> datetime | None:
        try:
            return datetime.fromisoformat(self.timestamp)
        except ValueError:
            try:
                return datetime.strptime(self.timestamp, "%Y%m%d_%H%M%S")
            except ValueError:
                return None


def new_scene_id(now: datetime) -> str:
    return f"scene_{now.strftime('%Y%m%d_%H%M%S')}_{secrets.token_hex(3)}"


class SceneStore:
    def __init__(self, layout: DataLayout) -> None:
        self.layout = layout

    def _dirs(self, user_id: str) -> tuple[Path, Path, Path]:
        base = self.layout.scenes_dir(user_id)
        return base / "images", base / "embeddings", base / "metadata"

    def write(
        self, user_id: str, meta: SceneMetadata, jpeg: bytes | None, embedding: np.ndarray | None = None
    ) -> SceneMetadata:
        """Write image, then embedding (moment / first_meeting), then metadata last. `jpeg` None is a
        text-only scene: metadata only, image_path ""."""
        if not SCENE_ID_RE.match(meta.scene_id):
            raise ValueError(f"invalid scene id {meta.scene_id!r}")
        images, embeddings, metadata = self._dirs(user_id)
        if jpeg is None:
            meta = meta.model_copy(update={"image_path": ""})
            atomic_write_json(metadata / f"{meta.scene_id}_metadata.json", meta.model_dump(exclude_none=True))
            return meta
        image_path = images / f"{meta.scene_id}.jpg"
        atomic_write_bytes(image_path, jpeg)
        if embedding is not None:
            vec = np.asarray(embedding, dtype=np.float32).ravel()
            norm = float(np.linalg.norm(vec))
            buf = io.BytesIO()
            np.save(buf, vec / norm if norm > 0 else vec)
            atomic_write_bytes(embeddings / f"{meta.scene_id}_embedding.npy", buf.getvalue())
        meta = meta.model_copy(update={"image_path": str(image_path)})
        atomic_write_json(metadata / f"{meta.scene_id}_metadata.json", meta.model_dump(exclude_none=True))
        return meta

    def metadata_files(self, user_id: str) -> list[Path]:
        _, _, metadata = self._dirs(user_id)
        try:
            return sorted(p for p in metadata.glob("*_metadata.json") if not p.name.startswith("."))
        except FileNotFoundError:  # glob checks the folder first, but a forget may rename it right after
            return []

    def read(self, path: Path) -> SceneMetadata | None:
        """One scene's metadata, or None (logged) when it is unreadable or incomplete."""
        data = read_json(path)
        if not isinstance(data, dict):
            if data is not None:
                log.warning("scene metadata %s is not an object; skipped", path)
            return None
        data.setdefault("scene_id", path.name.removesuffix("_metadata.json"))
        try:
            meta = SceneMetadata.model_validate(data)
        except ValidationError as exc:
            log.warning("scene metadata %s incomplete (%s); skipped", path, exc.errors()[0]["msg"])
            return None
        image = Path(meta.image_path)
        if meta.image_path and (not image.is_absolute() or not image.exists()):
            local = path.parent.parent / "images" / f"{meta.scene_id}.jpg"
            if local.exists():
                meta = meta.model_copy(update={"image_path": str(local)})
        return meta

    def list(self, user_id: str) -> list[SceneMetadata]:
        return [m for p in self.metadata_files(user_id) if (m := self.read(p)) is not None]

    def get(self, user_id: str, scene_id: str) -> SceneMetadata | None:
        if not SCENE_ID_RE.match(scene_id):
            raise ValueError(f"invalid scene id {scene_id!r}")
        _, _, metadata = self._dirs(user_id)
        return self.read(metadata / f"{scene_id}_metadata.json")

    def reword(self, user_id: str, scene_id: str, user_message: str) -> bool:
        """The scene keeps `user_message` as the words it was told in (a value put right in the next
        breath); every other field stays as written. False when the scene is gone."""
        if not SCENE_ID_RE.match(scene_id):
            raise ValueError(f"invalid scene id {scene_id!r}")
        _, _, metadata = self._dirs(user_id)
        path = metadata / f"{scene_id}_metadata.json"
        with file_lock(path):
            data = read_json(path)
            if not isinstance(data, dict):
                return False
            atomic_write_json(path, {**data, "user_message": user_message})
        return True

    def embedding_path(self, user_id: str, scene_id: str) -> Path:
        _, embeddings, _ = self._dirs(user_id)
        return embeddings / f"{scene_id}_embedding.npy"

    def load_embedding(self, user_id: str, scene_id: str) -> np.ndarray | None:
        path = self.embedding_path(user_id, scene_id)
        try:
            return np.load(path, allow_pickle=False).astype(np.float32).ravel()
        except FileNotFoundError:
            return None
        except (ValueError, OSError) as exc:
            log.warning("scene embedding %s unreadable (%s); skipped", path, exc)
            return None

    def sweep_orphans(self, user_id: str, min_age_s: float) -> int:
        """Remove images / embeddings whose metadata (the commit marker) never got written because
        the writer was killed; only files older than min_age_s, so a scene being written survives."""
        images, embeddings, metadata = self._dirs(user_id)
        committed = {p.name.removesuffix("_metadata.json") for p in self.metadata_files(user_id)}
        removed = 0
        now = time.time()
        for folder, suffix in ((images, ".jpg"), (embeddings, "_embedding.npy")):
            if not folder.is_dir():
                continue
            for path in folder.glob(f"*{suffix}"):
                scene_id = path.name.removesuffix(suffix)
                try:
                    if scene_id not in committed and now - path.stat().st_mtime >= min_age_s:
                        path.unlink()
                        removed += 1
                        log.info("removed %s: its scene was never completed", path)
                except FileNotFoundError:
                    continue
        return removed

    def embeddings(self, user_id: str) -> list[np.ndarray]:
        """All readable stored scene embeddings of a user (novelty reference set)."""
        _, embeddings, _ = self._dirs(user_id)
        out = []
        if embeddings.is_dir():
            for p in sorted(embeddings.glob("*_embedding.npy")):
                try:
                    out.append(np.load(p, allow_pickle=False).astype(np.float32).ravel())
                except (ValueError, OSError) as exc:
                    log.warning("scene embedding %s unreadable (%s); skipped", p, exc)
        return out
