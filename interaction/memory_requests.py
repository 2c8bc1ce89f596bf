"""Turns that ask something of memory itself (issue 13): "please remember that ...", "forget what I
said about ...", "forget me" when only the understanding caught it, and "what do you know about me?".

The graph routes such a turn here after understanding (interaction/graph.py); forgetting one memory
takes a confirmation, answered on the next turn by ForgetOneConversation before the graph runs, the
way interaction/forget.py handles "forget me".
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Literal

from common.embedding.registry import offline_text_embedder
from common.messages import ForgetMemory
from common.store import SceneStore
from common.store.forget import purge_chroma_documents
from common.store.profile_fields import PROFILE_FIELDS
from interaction import cues
from interaction.agents.context import RESPONSE, AgentDeps
from interaction.forget import NOTHING_STORED, PrivacyTurn, forget_one_memory, forget_question
from interaction.llm.reply_text import spoken_part
from interaction.memory.contracts import TranscriptTurn
from interaction.memory.explicit_memories import ExplicitMemories, ExplicitMemory
from interaction.memory.recall_query import content_words, names_a_word_of
from interaction.memory_intent.phrasing import request_content, second_person
from interaction.profiles import Identity
from interaction.prompts import ABOUT_ME_HEADING, NADINE_LABEL, REPLY_STOPS, USER_LABEL, about_me_messages
from interaction.reply_inputs import RecalledFact
from interaction.session import Session

log = logging.getLogger("nadine.interaction.memory_requests")

MEMORY_REQUESTS = ("remember", "forget_one", "forget_me", "about_me")
FORGET_INTENTS = ("forget_one", "forget_me")
AGENT = "response_agent"
MAX_LISTED = 5  # explicit memories / moments named in one spoken answer


@dataclass(frozen=True)
class ForgetCandidate:
    """The one memory a forget-one request points at."""

    user_id: str
    kind: Literal["explicit_memory", "moment", "this_session"]
    memory_id: str  # explicit memory id, scene id, or "" for a turn of this session
    text: str  # in the user's words
    similarity: float = 0.0


def wire_memory_intent(result: dict) -> str | None:
    """TurnResult.memory_intent: "what do you know about me?" is a recall on the wire (common contract)."""
    intent = result.get("memory_intent")
    return "recall" if intent == "about_me" else intent


def explicit_store(deps: AgentDeps) -> ExplicitMemories | None:
    if deps.services is None or not deps.settings.interaction.enable_memory_agents:
        return None
    return deps.services.explicit


def match_threshold(deps: AgentDeps) -> float:
    """How similar a memory must be to what the person names: the offline embedder's calibrated
    ordinary-turn threshold (scripts/eval/calibrate)."""
    return deps.settings.interaction.visual_memory.embedder_profiles["minilm_onnx"].similarity_threshold


def named(deps: AgentDeps, query: str, text: str, similarity: float) -> bool:
    """Does a question or request name this memory: similar enough by the calibrated threshold, or
    naming one of its content words (MiniLM scores "what did I say about my brother?" against "my
    brother bought a boat" at 0.2: framing words drown the one word that matters)."""
    return similarity >= match_threshold(deps) or names_a_word_of(query, text)


def explicit_candidates(deps: AgentDeps, user_id: str, query: str, n: int = 3) -> list[ExplicitMemory]:
    """The explicit memories most similar to a question or request, best first. The one retrieval
    call of this module: the retrieval core can replace it."""
    store = explicit_store(deps)
    return store.search(user_id, query, n=n) if store is not None else []


def said_earlier(transcript: list[TranscriptTurn]) -> list[TranscriptTurn]:
    """What the person told earlier in this conversation (the last turn is the current one); their
    questions are not things they told."""
    return [t for t in transcript[:-1] if t.role == "user" and not cues.is_question(t.text)]


def similarities(query: str, texts: list[str]) -> list[float]:
    """Cosine of each text to the query on the offline embedder ([] for no texts)."""
    if not texts:
        return []
    vectors = offline_text_embedder().embed([query, *texts])
    return [float(s) for s in vectors[1:] @ vectors[0]]


def recall_facts(deps: AgentDeps, state: dict) -> RecalledFact | None:
    """The earlier turn of THIS session a recall question is about ("what did I just say about my
    brother?"): this session is not in the long-term store yet, so the retrieval core cannot see it.
    Explicit memories are long-term documents and are recalled, verified, by the retrieval core."""
    question = state["text"]
    earlier = said_earlier(state.get("transcript") or [])
    candidates = [RecalledFact("this_session", t.text, t.at.isoformat(), sim)
                  for t, sim in zip(earlier, similarities(question, [t.text for t in earlier]), strict=True)]
    fitting = [c for c in candidates if named(deps, question, c.text, c.similarity)]
    return max(fitting, key=lambda c: c.similarity, default=None)


def handle(deps: AgentDeps, state: dict) -> dict:
    """The reply (and what the DM must remember) for a memory request turn."""
    intent = state.get("memory_intent")
    identity: Identity = state["identity"]
    if not identity.known:
        return {"final_message": NOTHING_STORED if intent != "remember" else
                "I'd like to remember that, but I don't know who you are yet. What's your name?"}
    if intent == "forget_me":  # the understanding heard a "forget me" the privacy gate's phrases did not
        return {"final_message": forget_question(identity.name), "forget_me_asked": True}
    if intent == "remember":
        return {"final_message": remember(deps, state)}
    if intent == "forget_one":
        return forget_one_request(deps, state)
    return {"final_message": about_me(deps, state)}


def remember(deps: AgentDeps, state: dict) -> str:
    identity: Identity = state["identity"]
    u = state["understanding"]
    fact = u.memory_text or request_content(state["text"])
    if not content_words(fact):  # "remember this!" names nothing to keep
        return "Of course. What would you like me to remember?"
    store = explicit_store(deps)
    if store is None:
        return "I'm sorry, I can't keep new memories right now."
    try:
        stored = store.add(identity.user_id or "", identity.name or "", fact, state.get("turn_id"))
    except Exception:  # a store failure is said, never hidden behind "I'll remember"
        log.exception("explicit memory not stored for %s", identity.user_id)
        stored = None
    if stored is None:
        return "I'm sorry, I couldn't store that just now. Could you tell me again later?"
    return f"I'll remember that {second_person(stored.text)}."


def _moment_candidates(deps: AgentDeps, user_id: str, query: str) -> list[ForgetCandidate]:
    """The person's moments (not the first-meeting anchor), most similar first."""
    scenes = [m for m in SceneStore(deps.layout).list(user_id) if m.scene_type != "first_meeting" and m.retrieval_text]
    found = [ForgetCandidate(user_id, "moment", m.scene_id, m.retrieval_text, sim)
             for m, sim in zip(scenes, similarities(query, [m.retrieval_text for m in scenes]), strict=True)]
    return sorted(found, key=lambda c: -c.similarity)


def _session_candidates(user_id: str, topic: str, transcript: list[TranscriptTurn]) -> list[ForgetCandidate]:
    """What the person said earlier in this conversation, most similar first."""
    said = [t.text for t in said_earlier(transcript)]
    found = [ForgetCandidate(user_id, "this_session", "", text, sim)
             for text, sim in zip(said, similarities(topic, said), strict=True)]
    return sorted(found, key=lambda c: -c.similarity)


def find_forget_candidate(
    deps: AgentDeps, user_id: str, text: str, transcript: list[TranscriptTurn]
) -> ForgetCandidate | None:
    """Explicit memories first, then remembered moments, then what was said in this conversation:
    the most similar one the request names."""
    topic = request_content(text)
    explicit = [ForgetCandidate(user_id, "explicit_memory", m.memory_id, m.text, m.similarity)
                for m in explicit_candidates(deps, user_id, topic)]
    for pool in (explicit, _moment_candidates(deps, user_id, topic), _session_candidates(user_id, topic, transcript)):
        hit = next((c for c in pool if named(deps, topic, c.text, c.similarity)), None)
        if hit is not None:
            return hit
    return None


def forget_one_request(deps: AgentDeps, state: dict) -> dict:
    identity: Identity = state["identity"]
    candidate = find_forget_candidate(deps, identity.user_id or "", state["text"], state.get("transcript") or [])
    if candidate is None:
        return {"final_message": "I don't think I have a memory of that, so there is nothing to forget."}
    return {"final_message": f"Do you want me to forget that {_quoted(candidate)}? Please say yes or no.",
            "forget_candidate": candidate}


def _quoted(candidate: ForgetCandidate) -> str:
    said = second_person(candidate.text.rstrip(" .!?"))
    return said if candidate.kind == "explicit_memory" else f"you told me: \"{said}\""


def phrases_of(candidate: ForgetCandidate) -> list[str]:
    """The words a memory was said in, by the person and back by Nadine."""
    text = candidate.text.strip().rstrip(" .!?")
    return [text, second_person(text)]


def forget(deps: AgentDeps, candidate: ForgetCandidate, session: Session) -> bool:
    """Remove only that memory, from every store that holds it: its own document or scene (the same
    path as nadine/memory/forget_memory, Chroma's log records included), the sentences that repeat it
    in transcripts and episode summaries, and this session's turns."""
    services = deps.services
    embedded = deps.settings.interaction.chroma.mode == "embedded"
    removed: dict[str, int] = {}
    if candidate.kind != "this_session":  # a turn of this conversation is only in the session (below)
        removed = forget_one_memory(
            deps.layout, ForgetMemory(user_id=candidate.user_id, kind=candidate.kind, memory_id=candidate.memory_id),
            deps.clock.now(), services.forget_document if services is not None else None, embedded)
    if services is not None and candidate.kind == "moment":
        services.on_scene_forgotten(candidate.user_id)
    phrases = phrases_of(candidate)
    said_now = any(p.casefold() in t.text.casefold() for p in phrases for t in session.transcript)
    store = explicit_store(deps)
    if store is not None:
        store.scrub(candidate.user_id, phrases, (lambda collection_id, ids: purge_chroma_documents(
            deps.layout.chroma_dir, collection_id, ids)) if embedded else None)
    session.forget_phrases(phrases)
    return said_now if candidate.kind == "this_session" else any(removed.get(k) for k in ("scene_files", "text_memories"))


class ForgetOneConversation:
    """A forget-one request -> "Do you want me to forget that ...?" -> a clear yes from the same
    person forgets it, a no keeps it; anything else drops the question and is an ordinary turn."""

    def __init__(self) -> None:
        self._pending: ForgetCandidate | None = None

    def ask(self, candidate: ForgetCandidate) -> None:
        self._pending = candidate

    def turn(self, deps: AgentDeps, text: str, session: Session) -> PrivacyTurn | None:
        pending, self._pending = self._pending, None
        if pending is None or pending.user_id != session.identity.user_id:
            return None
        if cues.AFFIRMATIVE.match(text):
            try:
                done = forget(deps, pending, session)
            except Exception:
                log.exception("forgetting one memory of %s failed", pending.user_id)
                done = False
            if done:  # the reply does not repeat what was forgotten
                return PrivacyTurn("Done. I have forgotten it.", "forget_one_confirmed")
            return PrivacyTurn("I'm sorry, I couldn't forget that just now. Please ask me again.", "forget_one_failed")
        if cues.NEGATIVE.match(text):
            return PrivacyTurn("All right, I'll keep that memory.", "forget_one_cancelled")
        return None


def known_facts(deps: AgentDeps, identity: Identity) -> tuple[list[str], list[str], list[str]]:
    """What Nadine knows about the person, in her words: profile facts, explicit memories, moments."""
    p = identity.profile
    facts = [spec.now.format(_and(value) if spec.multi else value) for spec in PROFILE_FIELDS
             if p is not None and (value := getattr(p, spec.name, None))]
    store = explicit_store(deps)
    explicit = [second_person(m.text.rstrip(" .!?")) for m in (store.list(identity.user_id or "") if store else [])]
    scenes = sorted((m for m in SceneStore(deps.layout).list(identity.user_id or "")
                     if m.scene_type == "moment" and m.user_message), key=lambda m: m.timestamp)
    moments = [m.user_message.strip() for m in scenes if m.user_message]
    return facts, explicit[-MAX_LISTED:], moments[-MAX_LISTED:]


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def about_me(deps: AgentDeps, state: dict) -> str:
    """Built only from what is stored; with nothing but a name, says so."""
    identity: Identity = state["identity"]
    facts, explicit, moments = known_facts(deps, identity)
    model = None if deps.turn_offline else deps.llm.for_agent(AGENT)
    if model is not None and (facts or explicit or moments):
        language = state.get("language") or deps.settings.interaction.default_language
        messages = about_me_messages(identity.name or "", facts, explicit, moments, state["text"], language)
        answer = deps.ask(AGENT, messages, json_mode=False, phase=RESPONSE, stop=REPLY_STOPS)
        spoken = spoken_part(answer, labels=(USER_LABEL, NADINE_LABEL), own_label=NADINE_LABEL,
                             headings=(ABOUT_ME_HEADING,), instructions=[messages[0]["content"]]) if answer else None
        if spoken:
            return spoken
    return about_me_offline(identity.name or "", facts, explicit, moments)


def about_me_offline(name: str, facts: list[str], explicit: list[str], moments: list[str]) -> str:
    if not (facts or explicit or moments):
        return f"I only know your name so far, {name}. Tell me something about yourself and I'll remember it."
    parts = [f"You're {name}" + (", " + _and(facts) if facts else "") + "."]
    if explicit:
        parts.append("You asked me to remember that " + _and(explicit) + ".")
    if moments:
        quoted = [f"\"{m.rstrip(' .!?')}\"" for m in moments]
        parts.append("And I remember you telling me " + _and(quoted) + ".")
    return " ".join(parts)
