"""Visual scene retrieval over an in-memory index of each user's scenes.

Each user's candidate scenes (non-empty description) and their retrieval-text vectors are kept as
one matrix per text embedder; a turn costs one query embedding and one matrix product, and never
lists the metadata folder: the index of a user is marked stale by on_scene_stored() (perception's
scene_stored event) and by a background check of the folder's mtime every CHECK_EVERY_S seconds;
a stale index reads only the new files on the next turn. A user's index is built from that user's
folder only and refuses images outside it.

Ordinary turns (select): moments and observations, the best similarity, injected above the strict
similarity_threshold of the embedder's profile. Recall turns are decided by the retrieval core
(interaction/memory/retrieval), which reads the same scenes through pool().
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from common.config import NadineSettings
from common.config.interaction_settings import EmbedderProfile
from common.embedding.base import EmbeddingFailed, TextEmbedder
from common.embedding.registry import profile_key
from common.store.ids import is_valid_user_id
from common.store.layout import PathOutsideDataRoot
from common.store.scenes import SceneMetadata, SceneStore
from interaction.memory.contracts import VisualMemory
from interaction.memory.image_channel import ImageChannel
from interaction.memory.retrieval.candidates import Candidate, CandidatePool

log = logging.getLogger("nadine.memory.scenes")

CHECK_EVERY_S = 1.0  # background check of the users' metadata folders (files written without an event)


def _empty(dtype: type) -> np.ndarray:
    return np.zeros(0, dtype=dtype)


@dataclass
class _UserScenes:
    """One user's candidates; per-scene facts the selection needs are kept as arrays, so a turn
    touches no Python object per scene."""

    mtime_ns: int = -1
    dirty: bool = True
    files: set[str] = field(default_factory=set)
    scenes: list[SceneMetadata] = field(default_factory=list)
    vectors: dict[str, np.ndarray] = field(default_factory=dict)  # embedder name -> (n, dim)
    first_meeting: np.ndarray = field(default_factory=lambda: _empty(bool))
    seconds: np.ndarray = field(default_factory=lambda: _empty(np.float64))  # timestamp, 0 if unknown
    day: np.ndarray = field(default_factory=lambda: _empty(np.int64))  # date ordinal
    memorability: np.ndarray = field(default_factory=lambda: _empty(np.float32))
    pools: dict[str, CandidatePool] = field(default_factory=dict)  # embedder name -> the core's view
    lock: threading.Lock = field(default_factory=threading.Lock)

    def reset(self) -> None:
        self.files, self.scenes, self.vectors = set(), [], {}
        self.first_meeting, self.seconds = _empty(bool), _empty(np.float64)
        self.day, self.memorability = _empty(np.int64), _empty(np.float32)

    def extend(self, new: list[SceneMetadata]) -> None:
        self.scenes = self.scenes + new  # a new list: SceneScores of earlier turns keep theirs intact
        whens = [m.when for m in new]
        self.first_meeting = np.concatenate([self.first_meeting, [m.scene_type == "first_meeting" for m in new]])
        self.seconds = np.concatenate([self.seconds, [w.timestamp() if w else 0.0 for w in whens]])
        self.day = np.concatenate([self.day, [w.toordinal() if w else 0 for w in whens]]).astype(np.int64)
        self.memorability = np.concatenate([self.memorability, [m.memorability for m in new]]).astype(np.float32)


@dataclass
class SceneScores:
    """The candidates of one turn (positions `index` into the user's scenes) with their combined
    similarity, their own threshold and the facts recency selection uses."""

    all_scenes: list[SceneMetadata]
    index: np.ndarray
    similarity: np.ndarray
    thresholds: np.ndarray
    first_meeting: np.ndarray
    seconds: np.ndarray
    day: np.ndarray
    memorability: np.ndarray
    embedder: str
    profile: EmbedderProfile

    def scene(self, k: int) -> SceneMetadata:
        return self.all_scenes[int(self.index[k])]


class SceneIndex:
    def __init__(
        self, settings: NadineSettings, store: SceneStore, embedder: TextEmbedder, fallback: TextEmbedder,
    ) -> None:
        self._settings = settings
        self._store = store
        self._layout = store.layout
        self._profiles = settings.interaction.visual_memory.embedder_profiles
        self._embedder = embedder if profile_key(embedder) in self._profiles else fallback
        if self._embedder is not embedder:
            log.error("no threshold profile for embedder %s; using %s", embedder.name, fallback.name)
        self._fallback = fallback
        self._image = ImageChannel(settings)
        self._users: dict[str, _UserScenes] = {}
        self._users_lock = threading.Lock()
        self._checker: threading.Thread | None = None
        self._stop = threading.Event()

    @property
    def enabled(self) -> bool:
        return self._settings.common.enable_visual_memory

    # --- index maintenance -----------------------------------------------------------------------

    def on_scene_stored(self, user_id: str) -> None:
        if is_valid_user_id(user_id):
            self._user(user_id).dirty = True

    def forget(self, user_id: str) -> int:
        with self._users_lock:
            entry = self._users.pop(user_id, None)
        self._image.forget(user_id)
        return len(entry.scenes) if entry else 0

    def _user(self, user_id: str) -> _UserScenes:
        with self._users_lock:
            if self._checker is None:
                # the loop holds the index weakly: an index nobody uses any more (a closed session's
                # services, a test's) is collected and its thread ends instead of polling forever
                self._checker = threading.Thread(target=_check_loop, args=(weakref.ref(self), self._stop),
                                                 name="scene-index-check", daemon=True)
                self._checker.start()
            return self._users.setdefault(user_id, _UserScenes())

    def close(self) -> None:
        self._stop.set()

    def _check_once(self) -> None:
        """Marks a user's index stale when the metadata folder changed (or changed so recently that
        a coarse directory mtime could hide a second write)."""
        with self._users_lock:
            users = list(self._users.items())
        for user_id, entry in users:
            mtime_ns = self._folder_mtime(user_id)
            if mtime_ns != entry.mtime_ns or time.time() - mtime_ns / 1e9 < 2 * CHECK_EVERY_S:
                entry.dirty = True

    def _folder_mtime(self, user_id: str) -> int:
        try:
            return (self._layout.scenes_dir(user_id) / "metadata").stat().st_mtime_ns
        except (FileNotFoundError, OSError):
            return 0

    def _refresh(self, user_id: str, entry: _UserScenes) -> None:
        if not entry.dirty:
            return
        folder = self._layout.scenes_dir(user_id) / "metadata"
        entry.dirty = False
        entry.mtime_ns = self._folder_mtime(user_id)
        names = {p.name for p in self._store.metadata_files(user_id)}
        if names == entry.files:
            return
        removed = entry.files - names
        if removed:  # forget/cleanup: rebuild from what is left (rare)
            entry.reset()
        added = sorted(names - entry.files)
        new = [m for m in (self._candidate(user_id, folder / n) for n in added) if m is not None]
        entry.files |= set(added)
        entry.pools.clear()
        if not new:
            return
        entry.extend(new)
        for name, matrix in list(entry.vectors.items()):
            embedder = self._embedder if name == self._embedder.name else self._fallback
            try:
                entry.vectors[name] = np.vstack([matrix, embedder.embed([m.retrieval_text for m in new])])
            except EmbeddingFailed:
                del entry.vectors[name]  # recomputed in full on the next successful turn
        log.info("scene index of %s: %d candidates (+%d)", user_id, len(entry.scenes), len(new))

    def _candidate(self, user_id: str, path: Path) -> SceneMetadata | None:
        meta = self._store.read(path)
        if meta is None or not meta.description.strip() or not meta.retrieval_text:
            return None
        if meta.text_only:
            return meta  # no image to check: found by its text like any other scene
        try:
            image = self._layout.inside(meta.image_path)
            if self._layout.scenes_dir(user_id) not in image.parents:
                raise PathOutsideDataRoot(meta.image_path)
        except (PathOutsideDataRoot, OSError, ValueError):
            log.warning("scene %s of %s points at an image outside the user's folder; skipped", path.name, user_id)
            return None
        return meta

    def _vectors(self, entry: _UserScenes, embedder: TextEmbedder) -> np.ndarray:
        matrix = entry.vectors.get(embedder.name)
        if matrix is None or len(matrix) != len(entry.scenes):
            matrix = embedder.embed([m.retrieval_text for m in entry.scenes])
            entry.vectors[embedder.name] = matrix
        return matrix

    # --- retrieval -------------------------------------------------------------------------------

    def pool(self, user_id: str) -> tuple[CandidatePool, TextEmbedder] | None:
        """The user's scenes as the retrieval core's candidates, in the active embedder's space
        (the fallback's when it fails); None when visual memory is off or there is no scene."""
        if not self.enabled or not is_valid_user_id(user_id):
            return None
        entry = self._user(user_id)
        with entry.lock:
            self._refresh(user_id, entry)
            if not entry.scenes:
                return None
            embedder = self._embedder
            try:
                vectors = self._vectors(entry, embedder)
            except EmbeddingFailed as exc:
                log.warning("scene pool: %s; using %s", exc, self._fallback.name)
                embedder = self._fallback
                vectors = self._vectors(entry, embedder)
            pool = entry.pools.get(embedder.name)
            if pool is None or len(pool) != len(entry.scenes):
                items = [Candidate(kind=m.scene_type, memory_id=m.scene_id, text=m.retrieval_text,
                                   quote=m.user_message or m.description, occurred_ts=float(ts) if ts else None,
                                   group=m.scene_id, memorability=float(m.memorability))
                         for m, ts in zip(entry.scenes, entry.seconds, strict=True)]
                pool = entry.pools[embedder.name] = CandidatePool(items, vectors, embedder.name)
        return pool, embedder

    def scene(self, user_id: str, scene_id: str) -> SceneMetadata | None:
        entry = self._user(user_id)
        with entry.lock:
            return next((m for m in entry.scenes if m.scene_id == scene_id), None)

    def scores(self, user_id: str, query: str, is_recall: bool) -> SceneScores | None:
        """All eligible candidates of a user, scored; None when visual memory is off or none exist."""
        if not self.enabled or not is_valid_user_id(user_id) or not query.strip():
            return None
        entry = self._user(user_id)
        with entry.lock:
            self._refresh(user_id, entry)
            keep = np.arange(len(entry.scenes)) if is_recall else np.flatnonzero(~entry.first_meeting)
            if not len(keep):
                return None
            embedder = self._embedder
            try:
                sims = _cosines(self._vectors(entry, embedder), embedder.embed([query])[0])
            except EmbeddingFailed as exc:
                log.warning("scene retrieval: %s; using %s", exc, self._fallback.name)
                embedder = self._fallback
                sims = _cosines(self._vectors(entry, embedder), embedder.embed([query])[0])
            all_scenes, first_meeting = entry.scenes, entry.first_meeting[keep]
            facts = entry.seconds[keep], entry.day[keep], entry.memorability[keep]
        sims = sims[keep].astype(np.float32)
        if self._image.alpha > 0:
            sims = self._image.combine(self._store, user_id, query, [all_scenes[i] for i in keep], sims)
        profile = self._profiles[profile_key(embedder)]
        base = profile.recall_threshold if is_recall else profile.similarity_threshold
        first = max(profile.recall_threshold, profile.first_meeting_recall_threshold)
        thresholds = np.where(first_meeting, first, base).astype(np.float32)
        return SceneScores(all_scenes, keep, sims, thresholds, first_meeting, *facts, embedder.name, profile)

    def retrieve(self, user_id: str, query: str, is_recall: bool) -> VisualMemory | None:
        scored = self.scores(user_id, query, is_recall)
        return None if scored is None else select(scored, query, is_recall)


def _cosines(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Rows are L2-normalised. einsum runs numpy's own single-threaded loop: a BLAS matvec hands
    this memory-bound product to a thread pool whose spinning threads, on a 2-core machine shared
    with perception, cost 10 ms and slow the ONNX query embedding beside it (measured)."""
    return np.einsum("ij,j->i", matrix, query)


def select(scored: SceneScores, query: str, is_recall: bool) -> VisualMemory:
    """The best candidate, injected when it passes its threshold (recall turns are decided by the
    retrieval core; this serves ordinary turns and the paper's fusion mode)."""
    sims, thresholds = scored.similarity, scored.thresholds
    passing = sims >= thresholds
    k = _best(sims, passing)
    if passing[k] and scored.scene(k).retrieval_text.strip().casefold() == query.strip().casefold():
        # the moment perception kept of this very turn, stored while the reply was being made: what
        # was just said reminds of nothing ("That reminds me — earlier today you told me <this turn>")
        passing[k] = False
        k = _best(sims, passing)
    return as_visual_memory(scored.scene(k), float(sims[k]), float(thresholds[k]), bool(passing[k]))


def _best(sims: np.ndarray, passing: np.ndarray) -> int:
    pool = np.flatnonzero(passing) if passing.any() else np.arange(len(sims))
    return int(pool[np.argmax(sims[pool])])


def as_visual_memory(
    meta: SceneMetadata, similarity: float, threshold: float, injected: bool, selected_by: str = "similarity"
) -> VisualMemory:
    return VisualMemory(
        scene_id=meta.scene_id, image_path=meta.image_path, similarity=round(similarity, 4),
        threshold=round(threshold, 4), injected=injected, description=meta.description,
        user_message=meta.user_message, episode_context=meta.episode_context, timestamp=meta.timestamp,
        scene_type=meta.scene_type, selected_by=selected_by,  # type: ignore[arg-type]
    )


__all__ = ["SceneIndex", "SceneScores", "as_visual_memory", "select"]


def _check_loop(index_ref: weakref.ref, stop: threading.Event) -> None:
    while not stop.wait(CHECK_EVERY_S):
        index = index_ref()
        if index is None:
            return
        index._check_once()
        del index  # no strong reference across the wait
