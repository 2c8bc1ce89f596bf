"""The paper's Algorithm 1 (seed 003, "Multimodal Hybrid Memory Retrieval"): z-score the episode and
the scene similarities within their own pools, let the higher normalised best score win, and pair the
winner with the item of the other pool nearest to it in time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np


@dataclass(frozen=True)
class FusionPick:
    episode: int | None  # index into the episode pool
    scene: int | None  # index into the scene pool
    primary: Literal["episode", "scene"] | None
    z_episode: float | None  # best normalised score of each pool
    z_scene: float | None


def zscore(scores: np.ndarray, eps: float) -> np.ndarray:
    return (scores - scores.mean()) / (scores.std() + eps)


def _nearest(times: np.ndarray, t: float) -> int:
    return int(np.argmin(np.abs(times - t)))


def fuse(
    episode_scores: np.ndarray, episode_times: np.ndarray, scene_scores: np.ndarray, scene_times: np.ndarray,
    eps: float = 1e-6,
) -> FusionPick:
    """Times are seconds on one clock (e.g. POSIX timestamps). Ties go to the scene (line 8 is a
    strict >). An empty pool leaves its side None and the other pool's best wins."""
    ep = np.asarray(episode_scores, dtype=np.float64)
    sc = np.asarray(scene_scores, dtype=np.float64)
    if not len(ep) and not len(sc):
        return FusionPick(None, None, None, None, None)
    z_ep = zscore(ep, eps) if len(ep) else None
    z_sc = zscore(sc, eps) if len(sc) else None
    best_ep = int(np.argmax(z_ep)) if z_ep is not None else None
    best_sc = int(np.argmax(z_sc)) if z_sc is not None else None
    top_ep = float(z_ep[best_ep]) if best_ep is not None else None
    top_sc = float(z_sc[best_sc]) if best_sc is not None else None
    if best_sc is None or (best_ep is not None and top_ep > top_sc):
        scene = _nearest(np.asarray(scene_times, float), float(episode_times[best_ep])) if len(sc) else None
        return FusionPick(best_ep, scene, "episode", top_ep, top_sc)
    episode = _nearest(np.asarray(episode_times, float), float(scene_times[best_sc])) if len(ep) else None
    return FusionPick(episode, best_sc, "scene", top_ep, top_sc)
