"""interaction.yaml (root key `interaction:`): graph, LLM profiles, memory, retrieval, study logging."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field, model_validator

from common.config.base import Section


class LlmProfile(Section):
    backend: Literal["openai", "offline"] = "openai"
    model: str = "gpt-5.4-mini"
    base_url: str | None = Field(None, description="any OpenAI-compatible server; None = the llm.base_url")
    temperature: float = Field(0.0, ge=0, le=2)
    max_tokens: int = Field(300, ge=1)
    timeout: float | None = Field(None, gt=0, description="caps one call; None = the turn budget alone")
    max_retries: int = Field(2, ge=0)
    format: Literal["json", "text"] = "text"
    vision: bool = Field(False, description="the model accepts image_url content: remembered scene images are attached")
    stream: bool = Field(True, description="replies are requested as a stream (stream=true) and spoken sentence by "
                         "sentence as they are generated (the response agent)")


STOP_MARGIN_S = 10.0


class LlmBudget(Section):
    """Seconds of model time per turn; retries and repairs never run past them (then offline rules answer)."""

    understanding_s: float = Field(3.0, gt=0, description="NADINE_LLM_BUDGET_UNDERSTANDING_S: every model call "
                                   "before the reply (understanding, profile facts)")
    response_s: float = Field(10.0, gt=0, description="NADINE_LLM_BUDGET_RESPONSE_S: the reply")
    episode_s: float = Field(20.0, gt=0, description="the session summary, written after the farewell is spoken")

    @property
    def shutdown_s(self) -> float:
        """The longest a stop can take: the turn in progress, then the open session's summary and save
        (STOP_MARGIN_S for the memory writes after the model's time)."""
        return self.understanding_s + self.response_s + self.episode_s + STOP_MARGIN_S


class CircuitBreakerSettings(Section):
    """Per endpoint: after this many consecutive failures (or timeouts) turns go to the offline backend
    without calling it, until a probe after the cool-down succeeds."""

    failures_to_open: int = Field(3, ge=1, description="consecutive errors (refused, HTTP 5xx, unusable transport)")
    timeouts_to_open: int = Field(1, ge=1, description="consecutive timeouts: each one cost a whole budget")
    cooldown_s: float = Field(30.0, gt=0, description="how long an open endpoint is left alone before one probe")


# The turn budget (LlmBudget) bounds the agents' calls; `timeout` only caps one call further. The vision
# question runs outside the budget, so its profile keeps a timeout.
DEFAULT_PROFILES: dict[str, LlmProfile] = {
    "understand_gpt": LlmProfile(format="json", max_tokens=300),
    "response_gpt": LlmProfile(temperature=0.3, max_tokens=160, vision=True),
    "gpt_json": LlmProfile(format="json", max_tokens=300),
    "gpt_text": LlmProfile(max_tokens=120),
    "vision_gpt": LlmProfile(max_tokens=150, timeout=2.5, vision=True),
    "offline": LlmProfile(backend="offline", model="rules"),
}


class LlmSettings(Section):
    base_url: str | None = Field(
        None, description="NADINE_LLM_BASE_URL; unset (and no OPENAI_API_KEY) = offline understanding and replies"
    )
    model: str | None = Field(
        None, description="NADINE_LLM_MODEL: the model of every profile that names none (a local server's model)"
    )
    api_key_env: str = Field("OPENAI_API_KEY", description="env var holding the key; keys never go in YAML")
    budget: LlmBudget = LlmBudget()
    breaker: CircuitBreakerSettings = CircuitBreakerSettings()
    # YAML or overrides that name one profile (or one key of it) change only that; the rest keep their defaults
    profiles: dict[str, LlmProfile] = dict(DEFAULT_PROFILES)
    # agent -> profile name (which model serves each agent); NADINE_PROFILE_<agent> overrides one entry
    agents: dict[str, str] = {
        "turn_understanding": "understand_gpt",
        "confirmation_reader": "gpt_json",
        "memory_update_agent": "gpt_json",
        "recall_chooser": "gpt_json",
        "search_router": "gpt_json",
        "vision_router": "gpt_json",
        "vision_description": "vision_gpt",
        "response_agent": "response_gpt",
    }

    @model_validator(mode="before")
    @classmethod
    def _profiles_over_defaults(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not isinstance(data.get("profiles"), dict):
            return data
        if all(isinstance(p, LlmProfile) for p in data["profiles"].values()):
            return data  # already merged (re-validation on assignment)
        merged: dict[str, Any] = {name: p.model_dump(exclude_unset=True) for name, p in DEFAULT_PROFILES.items()}
        for name, given in data["profiles"].items():
            given = given.model_dump(exclude_unset=True) if isinstance(given, LlmProfile) else given
            merged[name] = {**merged.get(name, {}), **given} if isinstance(given, dict) else given
        return {**data, "profiles": merged}

    def model_of(self, profile: LlmProfile) -> str:
        """The profile's own model, else NADINE_LLM_MODEL, else the profile default."""
        if "model" in profile.model_fields_set or self.model is None:
            return profile.model
        return self.model


class RecallCalibration(Section):
    """The recall decision of one text embedder (written by scripts/eval/calibrate_recall --write):
    P(told) = sigmoid(intercept + dense * cosine + lexical * BM25 coverage + verifier * logit +
    agreement * mean head cosine of the question's mentions + absent * share the memory lacks +
    names_missing * (a name of the question missing) + conflict * (a conflicting entity) + margin *
    verifier margin over the runner-up + rival * share with only another owner's sister word +
    dense_margin * dense cosine over the runner-up's + all_agree * (agrees with all it names)), fitted
    on labelled told / untold (question, memory) pairs; below abstain_below Nadine says she does not
    remember, between the two she asks "do you mean ...?", from assert_above she recalls (never a
    memory with a conflicting entity). A memory agreeing with everything the question names and
    closest by dense cosine is asserted from agree_dense, or agree_margin above the next one, too; the closest memory is asked about when
    its cosine is offer_margin above the next one's and it names nothing conflicting. What the question and the memory name
    is compared through WordNet (sister words: at most sister_depth kind-of links below a common
    ancestor at least ancestor_depth deep) and, for words WordNet does not know, by the MiniLM cosine
    of head phrases (head_threshold) and possessors (possessor_threshold); interaction/memory/
    retrieval/entities.py."""

    intercept: float
    dense: float
    lexical: float
    verifier: float
    agreement: float = 0.0
    absent: float = 0.0
    names_missing: float = 0.0
    rival: float = 0.0
    conflict: float = 0.0
    margin: float = 0.0
    dense_margin: float = 0.0
    all_agree: float = 0.0
    head_threshold: float = Field(1.0, ge=-1, le=1)
    possessor_threshold: float = Field(1.0, ge=-1, le=1)
    sister_depth: int = Field(2, ge=0, description="WordNet sister words: both at most this many kind-of links "
                              "below a common ancestor")
    ancestor_depth: int = Field(5, ge=0, description="... that lies at least this many links below the root")
    rival_threshold: float = Field(float("inf"), description="heads at least this close (MiniLM cosine) that "
                                   "do not agree are sister words (the rival feature)")
    sense_threshold: float = Field(0.5, ge=-1, le=1, description="WordNet relates two words as the same "
                                   "or one a kind or part of the other through a rarer sense of either only "
                                   "when their MiniLM cosine reaches this (below: by both most frequent senses)")
    agree_dense: float = Field(float("inf"), description="a memory agreeing with everything the question names "
                               "and closest by dense cosine is asserted from this cosine (inf: never by agreement)")
    agree_margin: float = Field(float("inf"), description="... or when it is this much closer (dense cosine) "
                                "than the next one (inf: never by that margin)")
    offer_margin: float = Field(float("inf"), description="the closest memory by dense cosine, naming nothing "
                                "conflicting, is asked about when it is this much closer than the next one (inf: never)")
    abstain_below: float = Field(ge=0, le=1)
    assert_above: float = Field(ge=0, le=1)


class EmbedderProfile(Section):
    """Thresholds that only make sense for one text embedder (written by scripts/eval/calibrate)."""

    similarity_threshold: float = Field(ge=-1, le=1)
    recall_threshold: float = Field(ge=-1, le=1)
    first_meeting_recall_threshold: float = Field(ge=-1, le=1)


class VisualMemorySettings(Section):
    retrieval_alpha: float = Field(0.0, ge=0, le=1, description="weight of the image channel")
    text_embedder: Literal["minilm_onnx", "openai"] = "minilm_onnx"
    desc_embed_model: str = Field("text-embedding-3-large", description="NADINE_DESC_EMBED_MODEL (openai)")
    embedder_profiles: dict[str, EmbedderProfile] = {
        "openai": EmbedderProfile(
            similarity_threshold=0.35, recall_threshold=0.13, first_meeting_recall_threshold=0.32
        ),
        # chosen by scripts.eval.calibrate on scripts/eval/calibration_pairs/minilm_*.jsonl (291 pairs) and
        # written to config/generated/embedder_profiles.yaml: strict on ordinary turns (above every small-talk pair),
        # generic "last time" recall questions go by recency rather than similarity
        "minilm_onnx": EmbedderProfile(
            similarity_threshold=0.491, recall_threshold=0.26, first_meeting_recall_threshold=0.347
        ),
    }


class ForgetOfferSettings(Section):
    """How close a memory must be to the topic a forget request names to be offered ("Do you want me
    to forget that ...?"), besides what the recall decision would assert or ask about: looser than a
    recall, since nothing goes without a clear yes. Chosen by `python -m scripts.eval.forget_topics`
    on its dev people (MiniLM cosines)."""

    offer_margin: float = Field(0.18, description="the memory closest by dense cosine and naming nothing "
                                "conflicting is offered when it is this much closer than the next one (inf: never; "
                                "a memory alone stands out from nothing)")
    spelling: float = Field(0.75, ge=0, description="a word no dictionary knows is read as the nearest word "
                            "of the person's memories from this similarity (above 1: never)")


class RecallSettings(Section):
    """The retrieval core (interaction/memory/retrieval) on recall turns."""

    top_k: int = Field(3, ge=1, le=10, description="text memories a recall turn hands the reply")
    fusion: Literal["zscore", "rrf", "weighted"] = Field("zscore", description="chosen on LoCoMo dev conversations")
    dense_weight: float = Field(1.0, ge=0)
    lexical_weight: float = Field(1.0, ge=0)
    verify_top: int = Field(5, ge=1, le=50, description="best fused candidates the verifier reads")
    verifier: Literal["cross_encoder_onnx", "cross_encoder_lab", "none"] = "cross_encoder_onnx"
    verifier_model: str = Field("cross-encoder/ms-marco-MiniLM-L-12-v2", description="cross_encoder_lab only")
    context_turns: int = Field(1, ge=0, le=3, description="neighbouring turns indexed with each turn")
    generic_threshold: float = Field(
        0.6482, ge=-1, le=1, description="MiniLM cosine to the nearest labelled generic question (calibrate_recall)")
    # per text-embedder profile (embedder_profiles keys). Fitted by scripts.eval.calibrate_recall (the
    # weights on recall_labels/dev.jsonl, the near-miss dev people and LoCoMo's dev conversations, the
    # bounds and entity thresholds on the people) and written to config/generated/recall_calibration.yaml
    # with --write; this default is the same fit
    calibration: dict[str, RecallCalibration] = {
        "minilm_onnx": RecallCalibration(intercept=2.282259, dense=0.54241, lexical=-16.290485, verifier=0.339334,
                                         head_threshold=0.7, possessor_threshold=0.7, sister_depth=3,
                                         ancestor_depth=6, agree_dense=0.2, agree_margin=0.05, offer_margin=0.22,
                                         abstain_below=0.686934, assert_above=0.686934),
    }

    forget: ForgetOfferSettings = ForgetOfferSettings()

    def decision_for(self, profile: str) -> RecallCalibration | None:
        return self.calibration.get(profile) or self.calibration.get("minilm_onnx")


class RetrievalSettings(Section):
    mode: Literal["phd", "fusion"] = Field(
        "phd", description="utterance-anchored (scene text similarity only), or the paper's Algorithm 1")
    fusion_epsilon: float = Field(1e-6, gt=0)
    recall: RecallSettings = RecallSettings()


class ChromaSettings(Section):
    mode: Literal["embedded", "http"] = "embedded"
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    server_persist_dir: Path | None = Field(
        None, description="NADINE_CHROMA_SERVER_PATH; the server's `chroma run --path` folder when this machine "
        "reaches it: a forget vacuums it (else deleted rows linger in the server's free pages)")


class StudySettings(Section):
    enabled: bool = Field(False, description="NADINE_STUDY_LOG")
    condition: Literal["A", "B"] | None = Field(None, description="NADINE_STUDY_CONDITION; default from visual memory")
    participant_id: str = Field("anon", description="NADINE_PARTICIPANT_ID")
    audio_timeout_s: float = Field(10.0, gt=0, description="NADINE_STUDY_AUDIO_TIMEOUT")


class InteractionSettings(Section):
    enable_vision_agent: bool = Field(True, description="NADINE_ENABLE_VISION_AGENT")
    enable_memory_agents: bool = Field(True, description="NADINE_ENABLE_MEMORY_AGENTS")
    default_language: str = "en-US"
    conversation_limit: int = Field(40, ge=2, description="chat-history messages kept in the prompt")
    # a stated name links to a stored person without asking only when it is that name: "Ann" is not
    # "Anna" (0.86), and handing Anna's memories to Ann is worse than one "is your name Anna?"
    name_high_similarity: float = Field(1.0, ge=0, le=1)
    name_low_similarity: float = Field(0.6, ge=0, le=1)
    vision_capture_timeout_s: float = Field(3.0, gt=0)
    presence_grace_s: float = Field(
        30.0, ge=0, description="NADINE_PRESENCE_GRACE_S; out of view for less than this and back: same session")
    # set by hand, not fitted: a chat has no face to leave the view, and a person who comes back the next
    # day without having said goodbye begins another conversation, not a turn of yesterday's
    silence_ends_conversation_s: float = Field(
        1800.0, gt=0, description="NADINE_SILENCE_ENDS_CONVERSATION_S; a turn after this long without one (shared clock) begins a new conversation")
    knowledge_thresholds: dict[str, float] = Field(
        {"minilm_onnx": 0.339}, description="per text embedder: a knowledge chunk less similar to the question "
        "is no answer (python -m scripts.eval.knowledge_relevance --write); an embedder without one answers "
        "with the nearest chunk")
    profile_facts: Literal["spacy_parse", "rules"] = Field(
        "spacy_parse", description="how position/company/location are read from self-descriptions offline"
    )
    llm: LlmSettings = LlmSettings()
    visual_memory: VisualMemorySettings = VisualMemorySettings()
    retrieval: RetrievalSettings = RetrievalSettings()
    chroma: ChromaSettings = ChromaSettings()
    study: StudySettings = StudySettings()
