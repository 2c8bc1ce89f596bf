"""Deterministic turn understanding: cue lexicons for intent and plan, the memory-intent classifier for
recall / remember / forget, VADER plus emotion words and intensifiers for the user's emotion. Used when
no model endpoint is configured or it failed."""

from __future__ import annotations

import re
from functools import lru_cache

from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

from common.emotions import EmotionLabel
from interaction import cues
from interaction.memory_intent.classifier import classify
from interaction.offline import fact_changes
from interaction.offline.extract import extract_profile
from interaction.turn_understanding import RECALL_INTENTS, Emotion, PlanStep, TurnUnderstanding

EMOTION_WORDS: dict[EmotionLabel, tuple[str, ...]] = {
    "happy": ("happy", "glad", "delighted", "thrilled", "excited", "overjoyed", "joy", "joyful", "wonderful",
              "fantastic", "amazing", "awesome", "proud", "celebrate", "celebrating", "yay", "ecstatic",
              "cheerful", "pleased", "grateful", "great day", "best day", "over the moon", "smiling", "laughing",
              "got engaged", "got married", "got promoted", "got the job", "passed my", "won", "elated",
              "relieved", "blessed", "so much fun", "dream come true"),
    "sad": ("sad", "unhappy", "depressed", "miserable", "heartbroken", "lonely", "crying", "cried", "grief",
            "grieving", "upset", "disappointed", "devastated", "died", "passed away", "miss him", "miss her",
            "miss them", "feel down", "feeling down"),
    "angry": ("angry", "furious", "mad at", "annoyed", "irritated", "hate", "frustrated", "outraged", "livid"),
    "fearful": ("afraid", "scared", "frightened", "terrified", "worried", "anxious", "nervous", "panic",
                "fear", "dread"),
    "disgusted": ("disgusting", "disgusted", "gross", "revolting", "nasty", "sick of", "yuck", "repulsive"),
    "surprised": ("surprised", "wow", "unbelievable", "shocked", "astonished", "unexpected", "can't believe",
                  "cannot believe", "no way", "omg"),
}
INTENSIFIERS = ("very", "so", "really", "extremely", "incredibly", "super", "totally", "absolutely", "truly",
                "deeply", "completely", "utterly", "terribly", "awfully", "such")
# "can't stop smiling" / "couldn't be happier" intensify rather than negate
_NEGATION = re.compile(r"\b(not|never|no|n't|hardly)\W+(?:\w+\W+)?$", re.IGNORECASE)
_NOT_A_NEGATION = re.compile(r"\b(?:can't|cannot|couldn't) (?:stop|help|be)\W+(?:\w+\W+)?$", re.IGNORECASE)
# a question names a feeling it asks about ("what was that happy thing?"); only "I'm / I feel ..." is felt now
_FELT_NOW = re.compile(r"\b(?:i(?:'m| am)|i feel|i'm feeling|i am feeling|makes me|made me)\b", re.IGNORECASE)
_PATTERNS = {
    label: re.compile(r"\b(" + "|".join(re.escape(w) for w in words) + r")\b", re.IGNORECASE)
    for label, words in EMOTION_WORDS.items()
}
_INTENSIFIER_BEFORE = re.compile(r"\b(" + "|".join(INTENSIFIERS) + r")\W+(?:\w+\W+)?$", re.IGNORECASE)

# Nadine's reaction to what the user feels: she shares joy and surprise, meets distress with concern
REACTION: dict[EmotionLabel, EmotionLabel] = {
    "happy": "happy", "sad": "sad", "angry": "sad", "fearful": "sad", "disgusted": "disgusted",
    "surprised": "surprised", "neutral": "neutral",
}


@lru_cache(maxsize=1)
def _vader() -> SentimentIntensityAnalyzer:
    return SentimentIntensityAnalyzer()


def user_emotion(text: str) -> Emotion:
    """Label from emotion words (negated ones skipped), else from VADER's sign; intensity from VADER's
    |compound| raised by each further emotion word, intensifiers before them and exclamation marks."""
    compound = _vader().polarity_scores(text)["compound"]
    hits: dict[EmotionLabel, float] = {}
    boosts = 0
    for label, pattern in _PATTERNS.items():
        for found in pattern.finditer(text):
            before = text[: found.start()]
            if _NEGATION.search(before) and not _NOT_A_NEGATION.search(before):
                continue
            hits[label] = hits.get(label, 0.0) + 1.0
            boosts += bool(_INTENSIFIER_BEFORE.search(before))
    exclaim = min(text.count("!"), 3) * 0.05
    if hits and cues.is_question(text) and not _FELT_NOW.search(text):
        hits = {}
    if hits:
        label = max(hits, key=lambda k: hits[k])
        intensity = max(abs(compound), 0.5) + 0.15 * (hits[label] - 1) + 0.1 * boosts + exclaim
    elif cues.is_question(text):
        # "what's the weather like?" is not a feeling: without emotion words a question is neutral
        label, intensity = "neutral", abs(compound) * 0.3
    elif compound >= 0.35:
        label, intensity = "happy", abs(compound) * 0.8 + exclaim
    elif compound <= -0.35:
        label, intensity = "sad", abs(compound) * 0.8 + exclaim
    else:
        label, intensity = "neutral", abs(compound) * 0.3
    return Emotion(label=label, intensity=round(min(1.0, intensity), 3))


def plan_for(text: str) -> list[PlanStep]:
    steps = []
    # only a real information question needs the web: "nice weather today, isn't it?" is small talk
    if cues.REALTIME.search(text) and cues.is_information_question(text):
        steps.append(PlanStep(agent="search_agent", message=text))
    if cues.is_about_nadine(text):
        steps.append(PlanStep(agent="knowledge_rag_agent", message=text))
    if cues.VISUAL.search(text):
        steps.append(PlanStep(agent="vision_agent", message=text))
    return [*steps, PlanStep(agent="response_agent", message=text)]


def understand(text: str) -> TurnUnderstanding:
    felt = user_emotion(text)
    language = cues.language_request(text)
    profile = extract_profile(text)
    if language:
        intent = "language_change"
    elif cues.is_unambiguous_farewell(text):
        intent = "end_conversation"
    elif profile.user_name or profile.facts() or fact_changes.states_a_change(text):
        intent = "update_user_info"
    elif cues.is_greeting(text):
        intent = "first_greeting"
    else:
        intent = "continue_conversation"
    own = Emotion(label=REACTION[felt.label], intensity=round(felt.intensity * 0.8, 3))
    if intent in ("first_greeting", "end_conversation") and felt.label == "neutral":
        own = Emotion(label="happy", intensity=0.3)
    memory_intent = classify(text).intent
    return TurnUnderstanding(
        intent=intent, emotion=own, user_emotion=felt, memory_intent=memory_intent,
        is_recall=memory_intent in RECALL_INTENTS, plan=plan_for(text), language=language,
    )
