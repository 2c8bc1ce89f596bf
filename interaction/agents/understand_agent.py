"""The merged understand step: one structured call, guards around it, pins after it."""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Any

from common.embedding.registry import offline_text_embedder
from common.vision.base import BackendUnavailable
from interaction import cues
from interaction.agents.context import AgentDeps
from interaction.guards import GuardContext, apply_guards
from interaction.linear_text import clauses
from interaction.memory import told
from interaction.memory.contracts import MemoryServices
from interaction.memory.retrieval.lexicon import load_wordnet
from interaction.memory_intent import classifier as memory_intent
from interaction.memory_intent import not_keep_reader
from interaction.memory_intent.classifier import classify
from interaction.memory_intent.misspelt import as_meant
from interaction.memory_intent.phrasing import stretches
from interaction.offline import fact_changes, name_reading
from interaction.offline import understand_rules as offline
from interaction.offline.extract import name_to_ask_about, texts_ahead
from interaction.offline.name_reading import (
    asked_for_name,
    read_answered_name,
)
from interaction.offline.self_description import ParserUnavailable, load_parser
from interaction.prompts import UNDERSTAND_SYSTEM, history_text
from interaction.state import TurnState
from interaction.turn_act import reader as turn_act
from interaction.turn_understanding import INTENTS, RECALL_INTENTS, Emotion, PlanStep, TurnUnderstanding

log = logging.getLogger("nadine.interaction.understand")

AGENT = "turn_understanding"


def _plan_objects(data: dict[str, Any], text: str) -> dict[str, Any]:
    plan = data.get("plan")
    if isinstance(plan, list):  # small models answer ["search_agent", ...] as often as objects
        data["plan"] = [{"agent": p, "message": text} if isinstance(p, str) else p for p in plan]
    return data


def _from_model(deps: AgentDeps, text: str, history: list[tuple[str, str]]) -> TurnUnderstanding | None:
    return deps.ask_json(AGENT, [
        {"role": "system", "content": UNDERSTAND_SYSTEM},
        {"role": "user", "content": f"Conversation so far:\n{history_text(history)}\n\nLatest user message: {text}"},
    ], TurnUnderstanding, lambda data: _plan_objects(data, text))


def apply_pins(u: TurnUnderstanding, pins: dict[str, Any], text: str) -> TurnUnderstanding:
    """UserInput's optional fields replace what understanding decided (scripts test memory apart from it)."""
    update: dict[str, Any] = {}
    if pins.get("user_emotion") is not None:
        felt = Emotion.model_validate(pins["user_emotion"])
        update["user_emotion"] = felt
        if u.emotion.label == "neutral":
            update["emotion"] = Emotion(label=offline.REACTION[felt.label], intensity=felt.intensity * 0.8)
    if pins.get("is_recall") is not None:
        update["is_recall"] = bool(pins["is_recall"])
        if update["is_recall"] != (u.memory_intent in RECALL_INTENTS):
            update["memory_intent"] = "recall" if update["is_recall"] else "statement"
    if pins.get("intent") in INTENTS:
        update["intent"] = pins["intent"]
        if pins["intent"] in ("first_greeting", "end_conversation"):
            update["plan"] = [PlanStep(agent="response_agent", message=text)]
    return u.model_copy(update=update) if update else u


def _read_ahead(text: str, services: MemoryServices | None = None) -> None:
    """What the turn's readers will ask of the parser and the embedder, asked at once: the question
    form, the felt clauses, the fact-change clauses and the profile reader parse the utterance and each
    of its sentences, and the reading of whether it tells something the stretches of its sentences, in
    one spaCy batch (pipe gives every text the parse one call gives it, at about half the cost); the
    memory-intent and fact-change classifiers and retrieval embed the utterance, its sentences and the
    clauses of its statements, the emotion reading its sentences and clauses, the
    verb-job model its clauses said with a verb, the profile reader the positions said without one, and
    retrieval what a question names, in one embedder call (a batch gives every text the vector it gets
    alone). The memory-intent classifier also reads the utterance as meant when the parse shows a word
    of it misspelt (a name no dictionary knows, often): that text joins the call too. Both keep what
    they made, and the readers find it instead of running the models once each."""
    sentences = cues.sentences(text)
    with contextlib.suppress(ParserUnavailable):  # each reader says so itself when it cannot load
        # a sentence typed in lower case is parsed as it would be written too (question_form), the
        # stretches between its commas are read for a request beside what another one tells (phrasing),
        # and, as written, for whether the turn tells something (told)
        load_parser().pipe(list(dict.fromkeys(
            [text, *sentences, *(s[:1].upper() + s[1:] for s in sentences), *stretches(text), *told.texts_parsed(text)])))
    with contextlib.suppress(BackendUnavailable):
        parts = offline.candidate_parts(text)
        # the turn-act reader reads the turn, its sentences, the felt parts and each sentence's clauses (told.py)
        acts = turn_act.texts_read(list(dict.fromkeys([text, *sentences, *parts, *(c for s in sentences for c in clauses(s))])))
        offline_text_embedder().embed(list(dict.fromkeys([
            text, *sentences, *parts, *acts, *memory_intent.texts_read(text), *not_keep_reader.texts_read(text),
            *fact_changes.statement_clauses(text),
            *texts_ahead(text),
            *(services.texts_ahead(text) if services is not None else [])])))


def warm_up() -> threading.Thread:
    """Load in the background at process start what the first turn's understanding would otherwise
    load on its reply path: the emotion reading's model and VADER's lexicon (20-40 ms), and the
    memory-intent classifier (a greeting is not read for a feeling: the sentence is a felt one), the
    turn-act reader,
    WordNet's verbs and its lemmas by length (a progressive asked about, a misspelt word: 90 ms), the
    reader of a name said casually, with WordNet's proper adjectives (150 ms), and the chat words every
    statement's clauses are looked up in for a casual name (VADER's lexicon less WordNet's words: 13 ms
    on the first turn that told something), the nouns WordNet derives from verbs and adjectives
    (what a recall's entity reader and a yes/no answer read "I'm allergic" as: 60 ms), every verb
    synset with its senses (whether a statement's verb ends a relation, read of every statement that
    tells a fact: 40-80 ms on the first), and every adjective synset with the ones WordNet sets beside
    it as similar (whether a person word's adjective makes them no one of the speaker's now, "my old
    dog": 150-300 ms on the first)."""
    def load() -> None:
        offline.user_emotion("I am glad to be here.")
        classify("I am glad to be here.")
        as_meant("forgt the date")  # a misspelt statement read again
        cues.is_about_view("what am I learning?")  # a progressive asked about: its verb's domain
        name_reading.default_reader()
        turn_act.default_reader()
        not_keep_reader.default_reader()
        name_reading.candidates("I am glad to be here.", loose=False)
        if (wordnet := load_wordnet()) is not None:
            wordnet.nouns_of_verb("climb")
            wordnet.nouns_of_adjective("allergic")
            wordnet.parts_from_an_association("leave", between_the_two=True)
            wordnet.may_mean("old", "dead")  # none of the adjective's senses is the other's: its similar ones are read

    thread = threading.Thread(target=load, name="understanding-warm-up", daemon=True)
    thread.start()
    return thread


def understand(deps: AgentDeps, state: TurnState) -> TurnUnderstanding:
    text = state["text"]
    _read_ahead(text, deps.services)
    identity = state["identity"]
    pending = bool(state.get("name_confirmation"))
    ctx = GuardContext(identity.user_id, state.get("greeted_user_id"), pending, identity.known)
    try:
        # a pending name confirmation decides the intent before any model call (a yes or no needs no model)
        u = None if pending else _from_model(deps, text, state.get("messages", []))
        if u is not None and u.memory_intent is None and not u.is_recall:
            # a model that gave no memory intent: the classifier is its fallback, never its judge
            u = u.model_copy(update={"memory_intent": classify(text).intent})
        u = apply_guards(u or offline.understand(text), text, ctx)
        messages = state.get("messages", [])
        if u.intent == "end_conversation" and state.get("replies", 1) <= 1:
            # the first words of a conversation take leave of nothing: they open it ("tomasz", a name the
            # turn-act reader never saw, reads like a goodbye it never saw)
            u = u.model_copy(update={"intent": "continue_conversation"})
        if (u.intent in ("continue_conversation", "first_greeting") and not identity.known and not pending
                and ((asked_for_name(messages) and read_answered_name(text))
                     or name_to_ask_about(text, messages, deps.keeper.store.user_ids(), deps.keeper.high))):
            # "Pierre" to "What's your name?"; "Earl" to it, or "Dave." or "Hola, soy Lucía" as the first
            # words of a conversation, asked about
            u = u.model_copy(update={"intent": "update_user_info"})
    except Exception:  # the turn must still be answered
        log.exception("understanding failed; answering with a single safe response step")
        u = TurnUnderstanding.safe(text)
    return apply_pins(u, state.get("pins") or {}, text)
