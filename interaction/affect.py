"""Nadine's affect: a PAD emotion that reacts to each turn and a mood that follows it slowly.

The reference names emotion_to_pad and update_affect_state but documents no values; ours:
- emotion_to_pad: Russell & Mehrabian (1977) PAD ratings for the seven labels (neutral at the origin);
- emotion_{t} = EMOTION_DECAY * emotion_{t-1} + intensity * pad(label): half of the previous turn's
  feeling survives one turn, so a single remark does not colour the whole conversation;
- mood_{t} = mood_{t-1} + MOOD_RATE * (emotion_{t} - mood_{t-1}) + MOOD_RELAX * (baseline - mood_{t-1}):
  the mood moves a tenth of the way towards the current emotion per turn and drifts back to a
  mildly positive baseline (a friendly personality) when nothing happens.
Everything is clipped to [-1, 1].
"""

from __future__ import annotations

from dataclasses import dataclass, field

from common.emotions import EmotionLabel
from interaction.turn_understanding import Emotion

PAD = tuple[float, float, float]

EMOTION_TO_PAD: dict[EmotionLabel, PAD] = {
    "happy": (0.76, 0.48, 0.35),
    "sad": (-0.63, -0.27, -0.33),
    "angry": (-0.51, 0.59, 0.25),
    "fearful": (-0.64, 0.60, -0.43),
    "disgusted": (-0.60, 0.35, 0.11),
    "surprised": (0.40, 0.67, -0.13),
    "neutral": (0.0, 0.0, 0.0),
}
EMOTION_DECAY = 0.5
MOOD_RATE = 0.1
MOOD_RELAX = 0.05
BASELINE_MOOD: PAD = (0.2, 0.1, 0.1)


def _clip(v: float) -> float:
    return max(-1.0, min(1.0, v))


def _nearest_label(p: PAD) -> EmotionLabel:
    if max(abs(x) for x in p) < 0.1:
        return "neutral"
    return min(EMOTION_TO_PAD, key=lambda k: sum((a - b) ** 2 for a, b in zip(EMOTION_TO_PAD[k], p, strict=True)))


@dataclass
class AffectState:
    emotion: PAD = (0.0, 0.0, 0.0)
    mood: PAD = BASELINE_MOOD
    last: Emotion = field(default_factory=Emotion)

    def update(self, felt: Emotion) -> None:
        target = EMOTION_TO_PAD[felt.label]
        self.emotion = tuple(_clip(EMOTION_DECAY * e + felt.intensity * t) for e, t in zip(self.emotion, target, strict=True))  # type: ignore[assignment]
        self.mood = tuple(  # type: ignore[assignment]
            _clip(m + MOOD_RATE * (e - m) + MOOD_RELAX * (b - m))
            for m, e, b in zip(self.mood, self.emotion, BASELINE_MOOD, strict=True)
        )
        self.last = felt

    @property
    def arousal(self) -> float:
        return round(self.emotion[1], 3)

    @property
    def mood_label(self) -> EmotionLabel:
        return _nearest_label(self.mood)

    def describe(self) -> str:
        """The affect line of the response prompt."""
        p, a, d = self.mood
        return (f"you feel {self.last.label} (intensity {self.last.intensity:.1f}); your mood is "
                f"{self.mood_label} (pleasure {p:+.2f}, arousal {a:+.2f}, dominance {d:+.2f})")
