"""TurnUnderstanding: what the understand step decides about one user turn."""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

from common.emotions import EmotionLabel, coerce_label

INTENTS = ("first_greeting", "update_user_info", "end_conversation", "language_change", "continue_conversation")
# What a turn asks of memory: recall, keep, forget, or nothing (a plain statement). about_me ("what do
# you know about me?") is a kind of recall.
MEMORY_INTENTS = ("recall", "remember", "forget_one", "forget_me", "about_me", "not_keep", "statement")
RECALL_INTENTS = ("recall", "about_me")
TOOL_AGENTS = ("search_agent", "knowledge_rag_agent", "vision_agent")
PLAN_AGENTS = (*TOOL_AGENTS, "response_agent")

class Emotion(BaseModel):
    label: EmotionLabel = "neutral"
    intensity: float = Field(0.0, ge=0.0, le=1.0)

    @field_validator("label", mode="before")
    @classmethod
    def _label(cls, v: object) -> str:
        return coerce_label(v)

    @field_validator("intensity", mode="before")
    @classmethod
    def _clip(cls, v: object) -> float:
        try:
            return min(1.0, max(0.0, float(v)))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return 0.0


class PlanStep(BaseModel):
    agent: str
    message: str = ""


class TurnUnderstanding(BaseModel):
    intent: str = "continue_conversation"
    emotion: Emotion = Emotion()  # Nadine's own reaction: drives tone and PAD
    user_emotion: Emotion = Emotion()  # what the user feels now: drives scene storage
    is_recall: bool = False  # always memory_intent in RECALL_INTENTS once the guards ran
    memory_intent: str | None = None  # one of MEMORY_INTENTS; None: the model did not say
    memory_text: str | None = None  # a remember request's fact, in the user's words (model only)
    plan: list[PlanStep] = []
    language: str | None = None  # target language named by a language_change turn

    @field_validator("memory_intent", mode="before")
    @classmethod
    def _memory_intent(cls, v: object) -> str | None:
        text = str(v or "").strip().lower()
        return text if text in MEMORY_INTENTS else None

    @field_validator("memory_text", mode="before")
    @classmethod
    def _memory_text(cls, v: object) -> str | None:
        return v.strip() or None if isinstance(v, str) else None

    @classmethod
    def safe(cls, text: str) -> TurnUnderstanding:
        """The fallback for any failure: carry on talking, neutral, one response step."""
        return cls(memory_intent="statement", plan=[PlanStep(agent="response_agent", message=text)])
