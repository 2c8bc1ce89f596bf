"""Offline captioner: one honest sentence from what perception knows (faces, the user's name and
emotion) plus the scene encoder's top ImageNet labels. No captioning model ships in any registry
package, so this is marked source "tags" and never passes for a model-written description."""

from __future__ import annotations

import numpy as np

from common.emotions import canonical_label
from common.vision.base import Caption, CaptionFacts, SceneLabeller

NAME = "tags"
# how an emotion reads after "looking ...": the appraisal labels (facial labels and synonyms are read
# into them by common.emotions), and contempt, the facial label with no appraisal counterpart
EMOTION_PHRASES = {
    "happy": "looking happy", "sad": "looking sad", "surprised": "looking surprised", "fearful": "looking afraid",
    "disgusted": "looking disgusted", "angry": "looking angry", "contempt": "looking contemptuous",
    "neutral": "with a neutral expression",
}  # fmt: skip


def people_phrase(facts: CaptionFacts) -> str:
    count = max(facts.faces, 1 if facts.user_name else 0)
    if count == 0:
        return "no one in view"
    emotion = (facts.emotion or "").strip().lower()
    mood = EMOTION_PHRASES.get(canonical_label(emotion) or emotion, f"looking {emotion}") if emotion else ""
    details = ", ".join(d for d in (facts.user_name, mood) if d)
    if count == 1:
        return f"a person ({details})" if details else "a person"
    return f"{count} people (one of them {details})" if details else f"{count} people"


class TagCaptioner:
    name = NAME

    def __init__(self, labeller: SceneLabeller, k: int = 3, min_probability: float = 0.05) -> None:
        self._labeller = labeller
        self.k = k
        self.min_probability = min_probability  # below this an ImageNet guess is noise, not a tag

    def tags(self, rgb: np.ndarray) -> list[str]:
        found: list[str] = []
        for label, p in self._labeller.top_labels(rgb, self.k):
            if p >= self.min_probability and label not in found:
                found.append(label)
        return found

    def caption(self, rgb: np.ndarray, facts: CaptionFacts | None = None) -> Caption:
        # without facts nothing is known about people, so the caption says nothing about them
        parts = [f"A photo with {people_phrase(facts)}" if facts else "A photo"]
        tags = self.tags(rgb)
        if tags:
            parts.append(f"the scene suggests: {', '.join(tags)}")
        parts.extend(f"{k}: {v}" for k, v in (facts.extra if facts else {}).items() if v)
        return Caption(text="; ".join(parts) + ".", source=NAME)
