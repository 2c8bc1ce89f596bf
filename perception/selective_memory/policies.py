"""Storage policies: pure functions of the inputs, so the decision can be checked against the paper.

- `intensity` (default): memorability = the chosen affect intensity; store iff >= intensity_threshold.
- `pad_arousal` (the local robot's): memorability = MEMORABILITY_AROUSAL_BASE[label] x intensity; store iff
  >= arousal_threshold, and always when the user has no stored scene yet.
- `vision` (the paper's eq. 1-4): facial-emotion salience and scene novelty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from common.config.perception_settings import SelectiveMemorySettings
from common.emotions import FACIAL_LABELS, coerce_label
from common.messages import AffectState

# The local robot's base memorability per appraised label; other labels are read through
# common.emotions (an unknown one is neutral). Its appraiser also says "goodbye".
MEMORABILITY_AROUSAL_BASE: dict[str, float] = {
    "angry": 0.85, "fearful": 0.80, "surprised": 0.75, "happy": 0.60, "disgusted": 0.55, "sad": 0.40,
    "neutral": 0.10,
}
GOODBYE, GOODBYE_AROUSAL_BASE = "goodbye", 0.30
# Facial emotions that can make a frame salient (neutral cannot, eq. 2 over the active set).
ACTIVE_EMOTIONS: tuple[str, ...] = tuple(label for label in FACIAL_LABELS if label != "neutral")


@dataclass
class Verdict:
    store: bool
    memorability: float
    threshold: float
    reason: str
    emotion_label: str
    intensity: float
    metadata: dict = field(default_factory=dict)  # policy-specific scene metadata (vision fields)


@dataclass(frozen=True)
class Signal:
    label: str
    intensity: float
    source: str  # "user" or "robot" (the affect fields it came from)


def affect_signal(affect: AffectState, source: str) -> Signal:
    """The emotion that drives storage: the user's (default) or Nadine's own appraisal."""
    if source == "user" and affect.user_intensity is not None:
        return Signal(affect.user_label or affect.label, affect.user_intensity, "user")
    # a client that appraises only Nadine sends no user fields: her appraisal is all there is
    return Signal(affect.label, affect.intensity, "robot")


def intensity_verdict(affect: AffectState, source: str, threshold: float) -> Verdict:
    sig = affect_signal(affect, source)
    store = sig.intensity >= threshold
    cmp = ">=" if store else "<"
    # two decimals unless they would read as the threshold itself ("0.50 < 0.50")
    digits = next((d for d in (2, 3) if f"{sig.intensity:.{d}f}" != f"{threshold:.{d}f}"), 4)
    reason = f"{sig.source} intensity {sig.intensity:.{digits}f} ({sig.label}) {cmp} threshold {threshold:.{digits}f}"
    return Verdict(store, sig.intensity, threshold, reason if store else f"below threshold: {reason}",
                   sig.label, sig.intensity)


def arousal_verdict(affect: AffectState, source: str, threshold: float, has_scenes: bool) -> Verdict:
    sig = affect_signal(affect, source)
    label = sig.label.strip().lower()
    base = GOODBYE_AROUSAL_BASE if label == GOODBYE else MEMORABILITY_AROUSAL_BASE[coerce_label(label)]
    memorability = base * sig.intensity
    detail = f"base({sig.label})={base:.2f} x {sig.source} intensity {sig.intensity:.2f} = {memorability:.2f}"
    if not has_scenes:
        return Verdict(True, memorability, threshold, f"first scene of this user ({detail})", sig.label, sig.intensity)
    store = memorability >= threshold
    reason = f"{detail} {'>=' if store else '<'} threshold {threshold:.2f}"
    return Verdict(store, memorability, threshold, reason if store else f"below threshold: {reason}",
                   sig.label, sig.intensity)


# --- vision policy (the paper's salience and novelty) ---------------------------------------------


def salience(p: float, t: float) -> float:
    """Eq. 1: normalised activation above a threshold, max(0, (p - t) / (1 - t)); 0 when t >= 1."""
    if t >= 1.0:
        return 0.0
    return max(0.0, (p - t) / (1.0 - t))


def boost_happy(probs: Mapping[str, float], factor: float) -> dict[str, float]:
    """Scale `happy` by factor (capped at 1) and rescale the rest so the distribution sums as before."""
    out = {k: float(v) for k, v in probs.items()}
    if factor == 1.0 or "happy" not in out:
        return out
    total = sum(out.values())
    happy = min(total, out["happy"] * factor)
    rest = total - out["happy"]
    scale = (total - happy) / rest if rest > 0 else 0.0
    out = {k: (happy if k == "happy" else v * scale) for k, v in out.items()}
    return out


def emotional_salience(probs: Mapping[str, float], thresholds: Mapping[str, float]) -> tuple[float, str]:
    """Eq. 2: e = max_k s_k over the active emotions, with the dominant (argmax) emotion."""
    best, label = 0.0, "neutral"
    for k in ACTIVE_EMOTIONS:
        s = salience(float(probs.get(k, 0.0)), thresholds.get(k, 1.0))
        if s > best:
            best, label = s, k
    return best, label


def novelty(embedding: np.ndarray, stored: Sequence[np.ndarray]) -> float | None:
    """Eq. 3: min cosine distance to the stored scene embeddings; None when nothing is stored."""
    vec = np.asarray(embedding, dtype=np.float32).ravel()
    rows = [np.asarray(s, dtype=np.float32).ravel() for s in stored]
    rows = [r for r in rows if r.shape == vec.shape and np.linalg.norm(r) > 0]
    if not rows or np.linalg.norm(vec) == 0:
        return None
    mat = np.stack(rows)
    cos = (mat @ vec) / (np.linalg.norm(mat, axis=1) * np.linalg.norm(vec))
    return float(np.min(1.0 - cos))


def vision_verdict(
    probs: Mapping[str, float] | None, embedding: np.ndarray | None, stored: Sequence[np.ndarray],
    cfg: SelectiveMemorySettings, has_scenes: bool,
) -> Verdict:
    """Eq. 1-4. memorability = w_e * e + w_n * novelty salience (reported, and the rule in 'weighted').

    The first scene of a user is always stored (the paper's reference scene)."""
    boosted = boost_happy(probs or {}, cfg.happy_boost_factor)
    e, label = emotional_salience(boosted, cfg.emotion_thresholds)
    n = novelty(embedding, stored) if embedding is not None else None
    first = not has_scenes
    n_sal = min(1.0, salience(1.0 if first else (n or 0.0), cfg.novelty_threshold))
    memorability = cfg.w_emotion * e + cfg.w_novelty * n_sal
    meta = {"emotion_salience": e, "novelty_salience": n_sal, "emotion_probs": boosted}
    detail = f"e={e:.2f} ({label}), n={'none' if n is None else f'{n:.2f}'}, memorability={memorability:.2f}"
    if first:
        return Verdict(True, memorability, cfg.memorability_threshold, f"first scene of this user ({detail})",
                       label, e, meta)
    if cfg.vision_rule == "weighted":
        store = memorability >= cfg.memorability_threshold
        threshold = cfg.memorability_threshold
        why = f"memorability {'>=' if store else '<'} {threshold:.2f}"
    else:
        novel = n is not None and n > cfg.novelty_threshold
        store = e > 0 or novel
        threshold = cfg.novelty_threshold
        why = ("emotionally salient" if e > 0 else "novel scene" if novel
               else f"e = 0 and n <= T_n {cfg.novelty_threshold:.2f}")
    reason = f"{why}: {detail}"
    return Verdict(store, memorability, threshold, reason if store else f"below threshold: {reason}",
                   label, e, meta)
