"""Payload models: one per topic (see common/topics.py for which topic carries which).

The wire format is the original robot's exactly, so its clients keep working: JSON objects where it
sent JSON, plain UTF-8 strings where it sent a plain string. Every model knows how to encode itself
and how to decode bytes from the wire; decoding raises PayloadError with a human-readable reason.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from common.emotions import EmotionLabel, canonical_label

MAX_PAYLOAD_BYTES = 1_000_000
USER_MESSAGE_MAX_CHARS = 500


class PayloadError(ValueError):
    """A payload that cannot be turned into its model; the message says why."""


def _first_error(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "payload"
    return f"{where}: {first.get('msg', 'invalid')}"


class Message(BaseModel):
    """A JSON-object payload. Strict types: a string where a number is due is refused, not coerced."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    def encode(self) -> bytes:
        return self.model_dump_json(exclude_none=True).encode("utf-8")

    @classmethod
    def decode(cls, payload: bytes) -> Self:
        if len(payload) > MAX_PAYLOAD_BYTES:
            raise PayloadError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD_BYTES}")
        try:
            return cls.model_validate_json(payload)
        except ValidationError as exc:
            raise PayloadError(_first_error(exc)) from None


class PlainText(Message):
    """A payload that is a bare UTF-8 string on the wire (no JSON quoting)."""

    value: str

    def encode(self) -> bytes:
        return self.value.encode("utf-8")

    @classmethod
    def decode(cls, payload: bytes) -> Self:
        if len(payload) > MAX_PAYLOAD_BYTES:
            raise PayloadError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD_BYTES}")
        try:
            text = payload.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PayloadError(f"not UTF-8 text: {exc}") from None
        try:
            return cls(value=text)
        except ValidationError as exc:
            raise PayloadError(_first_error(exc)) from None


def _non_empty(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return value


# --- perception -> interaction ---------------------------------------------------------------


class UserDetected(Message):
    """Who is in front of the robot. confidence is a percentage, (best_cosine + 1) / 2 * 100, of the
    recognised user; 0 for an unknown face ("Unknown"), which matched nobody."""

    user_name: str | None
    confidence: float = Field(ge=0.0, le=100.0)
    user_id: str | None

    def encode(self) -> bytes:  # the null message keeps its explicit nulls on the wire
        return self.model_dump_json().encode("utf-8")


class FaceStored(Message):
    user_name: str
    user_id: str
    status: Literal["face_stored", "face_stored_new_user"] = "face_stored"


class SceneStored(Message):
    """Perception stored a memorable scene: what the original study clients read, plus what a monitor
    needs to show why (scene type and id, image path, reason, turn id)."""

    user_id: str
    user_name: str
    memorability: float
    emotion_label: str
    intensity: float
    description: str
    user_message: str | None = None
    scene_type: Literal["moment", "first_meeting", "observation"] | None = None
    scene_id: str | None = None
    image_path: str | None = None
    reason: str | None = None
    turn_id: str | None = None


class StorageDecision(Message):
    """Our addition: perception's verdict on one affect event, stored or not, with the reason."""

    user_id: str | None = None  # None (and absent on the wire) when nobody known was in view
    stored: bool
    # None (absent on the wire) when no policy judged the turn: nobody to keep it for, visual memory
    # off, a newer event superseded it, a cooldown
    memorability: float | None = None
    threshold: float | None = None
    reason: str
    scene_id: str | None = None
    turn_id: str | None = None


class LookAt(Message):
    x: float
    y: float
    z: float


class ViewCaptured(Message):
    path: str
    ok: bool
    error: str | None = None


# --- interaction -> perception ---------------------------------------------------------------


class UserInfo(Message):
    user_name: str
    user_id: str
    turn_id: str | None = None  # our addition: the turn that settled the name (its first-meeting scene)

    _check_name = field_validator("user_name", "user_id")(_non_empty)


class CaptureRequest(PlainText):
    """Plain string on the wire: the file path the next frame is written to."""

    _check = field_validator("value")(_non_empty)


class AffectState(Message):
    """Nadine's appraised emotion after a turn (label, arousal, intensity) plus the user's (user_*
    fields, absent from a client that appraises only Nadine)."""

    label: str
    arousal: float
    intensity: float = Field(ge=0.0, le=1.0)
    user_label: str | None = None
    user_intensity: float | None = Field(default=None, ge=0.0, le=1.0)
    user_message: str | None = Field(default=None, max_length=USER_MESSAGE_MAX_CHARS)
    suppress_storage: bool = False
    suppress_reason: str | None = None  # what the turn was ("a request to forget"), said in the decision
    turn_id: str | None = None
    # who interaction is talking with (identity by name or face), so a memorable turn without a
    # camera view can still be kept as a text-only moment for that person
    user_id: str | None = None
    user_name: str | None = None


# --- interaction -> control ------------------------------------------------------------------


class Speak(Message):
    """JSON {text, locale} on the wire; a plain-text payload is accepted and means en-US."""

    DEFAULT_LOCALE: ClassVar[str] = "en-US"

    text: str
    locale: str = DEFAULT_LOCALE

    @classmethod
    def decode(cls, payload: bytes) -> Self:
        if len(payload) > MAX_PAYLOAD_BYTES:
            raise PayloadError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD_BYTES}")
        stripped = payload.lstrip()
        if stripped.startswith(b"{"):
            return super().decode(payload)
        try:
            return cls(text=payload.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise PayloadError(f"not UTF-8 text: {exc}") from None


class Animation(PlainText):
    """Plain string: an XML <animation_name> such as LOOKUP_Waving."""

    _check = field_validator("value")(_non_empty)


class LookAtTarget(PlainText):
    """Plain string: Posture_LookAtInterviewer, Posture_LookAtZoom or LOOKUPPostureDefault."""

    _check = field_validator("value")(_non_empty)


class StopSpeak(PlainText):
    """Payload undocumented in the reference; anything (usually empty) means stop now."""


# --- control -> interaction ------------------------------------------------------------------


class SpeakFeedback(PlainText):
    """Plain string as in [S]: the literal `start_speak` or `end_speak`."""


# --- our additions ---------------------------------------------------------------------------


class ProcessStatus(PlainText):
    """Retained `online` / `offline` (the latter is also the last will)."""

    value: Literal["online", "offline"]


class CameraStatus(Message):
    """Retained beside perception's online/offline: what its camera is. `ok` false means there is no
    view (nothing can be seen, who is talking is known by name only); `error` says why."""

    source: str
    ok: bool
    error: str | None = None


class ForgetUser(Message):
    user_id: str
    # minted by whoever asks, so every process writes the same pseudonym into the study logs
    pseudonym: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]{1,40}$")


class ForgetMemory(Message):
    """Forget one memory of a person (the inspector, the CLI): a moment (scene id), an explicit
    memory or an episode (Chroma document id), or a profile fact ("field:value")."""

    user_id: str
    kind: Literal["moment", "explicit_memory", "episode", "fact"]
    memory_id: str = Field(min_length=1, max_length=300)


class UserForgotten(Message):
    user_id: str
    process: str
    removed: dict[str, int] = Field(default_factory=dict)
    memory_id: str | None = None  # set when answering forget_memory (one memory, not the whole person)


class EmotionSignal(Message):
    """One of the appraisal labels (common/emotions.py); a facial label or synonym is read into it
    ("fear" -> "fearful"), a label that means none of them is refused with the allowed ones."""

    label: EmotionLabel
    intensity: float = Field(ge=0.0, le=1.0)

    @field_validator("label", mode="before")
    @classmethod
    def _label(cls, v: object) -> object:
        return canonical_label(v) or v  # an unknown label fails the Literal check, naming the allowed ones


class UserInput(Message):
    """Our addition: one typed or transcribed user utterance (stands in for STT).

    The optional fields pin what the understanding step returns, so scripts can test memory
    behaviour apart from the language model (conversation-script.md).
    """

    text: str = Field(max_length=10_000)
    turn_id: str | None = None
    user_emotion: EmotionSignal | None = None
    is_recall: bool | None = None
    intent: str | None = None


class RetrievedScene(Message):
    scene_id: str
    similarity: float
    threshold: float
    injected: bool
    user_message: str | None = None
    description: str | None = None
    scene_type: str | None = None
    # "similarity" (best match above its threshold) or "recency" (a generic "what did I tell you last
    # time?" names no content, so the latest memorable moment is recalled whatever its similarity)
    selected_by: str | None = None


class RecalledMemory(Message):
    """One memory a recall turn considered handing to the reply, with why (retrieval core)."""

    kind: Literal["moment", "first_meeting", "observation", "turn", "episode", "explicit_memory", "fact"]
    memory_id: str
    text: str
    occurred_at: str | None = None  # ISO 8601: when it happened (LoCoMo: the session date, never "now")
    fused_score: float | None = None
    verifier_score: float | None = None
    channels: dict[str, float] = Field(default_factory=dict)  # e.g. {"dense": 0.41, "lexical": 7.2}

    def told_on(self) -> datetime | None:
        """When it was told, what its day words ("tomorrow", "on Monday") are counted from."""
        try:
            return datetime.fromisoformat(self.occurred_at) if self.occurred_at else None
        except ValueError:
            return None


class RecallReport(Message):
    """What the retrieval core decided on a recall turn.

    outcome: "asserted" (memories injected as things the person told), "offered" (Nadine asks "do you
    mean ...?"), "abstained" (nothing trustworthy: she says she does not remember), "none" (not a
    recall turn, or an ordinary turn with nothing volunteered).
    """

    outcome: Literal["asserted", "offered", "abstained", "none"] = "none"
    memories: list[RecalledMemory] = Field(default_factory=list)
    window_start: str | None = None  # ISO 8601 bounds of a time window named in the question
    window_end: str | None = None
    window_expression: str | None = None  # the words that named it ("last week")
    verifier_score: float | None = None  # best candidate's verifier score
    # what decided the outcome: "probability" (the best candidate's calibrated p_told against the two
    # thresholds), "agreement" (asserted below assert_above: the memory agrees with everything the
    # question names and is the closest), "margin" (asked about below abstain_below: the closest
    # memory stands out from the others by its dense cosine), "window" (asked about below abstain_below:
    # the one memory of the time the question names that agrees with everything it names) or
    # "memorable" (a question naming no topic: what was told in its window), "planned" (a question naming
    # nothing but a day, today or to come: what they told takes place on it) or "no_answer" (abstained:
    # what would have been asked about holds no answer of what the question asks for)
    decided_by: Literal["probability", "agreement", "margin", "window", "memorable", "planned", "no_answer"] | None = None
    # planned: the memories listed for the news that moved or called off a plan of the day asked (ids)
    changed_plans: list[str] = Field(default_factory=list)
    p_told: float | None = None  # the best candidate's calibrated probability (decided_by probability)
    assert_above: float | None = None
    abstain_below: float | None = None


class MemoryAction(Message):
    """What a memory request did besides the moment decision (the notes under a reply say it):
    an explicit memory kept or not, a memory a forget request named (asked about) or none."""

    outcome: Literal["kept", "not_kept", "forget_asked", "nothing_to_forget", "forget_narrowed"]
    kind: str | None = None  # explicit_memory, moment, turn (said in an earlier conversation), this_session
    text: str | None = None
    p_told: float | None = None  # how surely the memory a forget request named is the one meant
    reason: str | None = None  # why not kept


class EpisodeSaved(Message):
    """A conversation (or one speaker's part of it) ended and its episode was handed to memory (or not,
    and why): published after the farewell's TurnResult, so the reply never waits for the save, after
    the TurnResult of the turn in which another person said who they are, and on a user switch or
    shutdown."""

    user_id: str | None = None
    session_id: str
    saved: bool
    reason: str  # what ended the session: "farewell", "nobody in view", "shutdown", "<user id> took over", ...
    turn_id: str | None = None  # the farewell's turn, or the turn in which the next speaker said who they are


class TurnResult(Message):
    """Our addition: what interaction did with one user turn (for the runner, monitors, study tools)."""

    turn_id: str | None = None
    text: str
    reply: str
    user_id: str | None = None
    user_name: str | None = None
    intent: str
    is_recall: bool
    user_emotion: EmotionSignal | None = None
    retrieved: RetrievedScene | None = None
    recall: RecallReport | None = None
    # recall | remember | forget_one | forget_me | not_keep | statement
    memory_intent: str | None = None
    memory_action: MemoryAction | None = None
    # the reply answered from the profile ("what do I do for a living?"), not from `recall`: a recall
    # question's decision is still reported, but the reply did not say it
    answered_from_profile: bool = False
    latency_s: float
    extra: dict[str, Any] = Field(default_factory=dict)
