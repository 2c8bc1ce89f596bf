"""The graph state of one turn (the original graph's fields, plus what the DialogueManager hands in and
reads back)."""

from __future__ import annotations

from typing import Any, TypedDict

from common.store.facts import FactChange, Wording
from interaction.memory.contracts import RetrievalResult, TranscriptTurn
from interaction.names import NameConfirmation
from interaction.offline.grounding import Grounded
from interaction.profiles import Identity, ProfileOutcome
from interaction.turn_understanding import PlanStep, TurnUnderstanding


class TurnState(TypedDict, total=False):
    # handed in by the dialogue manager
    text: str
    turn_id: str | None
    messages: list[tuple[str, str]]  # earlier (role, text) pairs of this session, role user | nadine
    transcript: list[TranscriptTurn]  # the full session so far, this utterance included
    identity: Identity
    name_confirmation: NameConfirmation | None
    identity_event: str | None  # the DM settled a name confirmation before the graph ran
    pending_facts: dict  # profile facts heard before the speaker's name was known
    pending_wording: Wording  # how they were said
    greeted_user_id: str | None
    met_now: bool  # the person was met for the first time in this conversation
    pins: dict[str, Any]  # UserInput's user_emotion / is_recall / intent
    language: str
    replies: int  # Nadine's replies in this session, this turn's included (the farewell's episode)
    # filled by the nodes
    understanding: TurnUnderstanding
    intent: str
    is_recall: bool
    memory_intent: str | None  # recall | remember | forget_one | forget_me | about_me | not_keep | statement
    named_with_request: bool  # someone not known gives their name in a turn that asks something of memory
    forget_candidate: Any  # memory_requests.ForgetCandidate a forget-one question was put about
    # memory_requests.ForgetCandidate the person said no to forgetting on the turn before this one
    # ("No." ... "Actually yes, forget it.")
    declined_forget: Any
    take_back: Any  # memory_requests.ForgetCandidate: the statement a "don't remember that" takes back
    keep_nothing: bool  # asked to keep nothing more of this conversation: the DM keeps no later turn
    keeping_nothing: bool  # ... asked so earlier in it: what the turn tells of the person is not kept
    drew_on: frozenset[str]  # what the reply said back besides the turn's retrieval (said_back.py)
    forget_me_asked: bool  # the understanding heard "forget me": the DM now awaits the yes
    memory_action: Any  # common.messages.MemoryAction: what a memory request did (TurnResult)
    held_memory: Any  # session.HeldMemory: asked to be kept before the speaker said who they are
    plan_steps: list[PlanStep]
    profile_outcome: ProfileOutcome | None
    correction: Any  # offline.corrections.Correction: this turn corrects a value said earlier
    corrected_turn: Any  # the TranscriptTurn it corrected
    changed_memory: str | None  # a kept memory as it holds now that this turn gave a new value
    it_named: str | None  # this turn with the "it" it changed said as the thing it stands for
    fact_changes: list[FactChange]  # profile facts set, superseded or closed this turn
    fact_wording: dict[str, Grounded]  # each value heard this turn: where and how the person said it ("a nurse")
    retrieval: RetrievalResult | None
    profile_field: str | None  # a question about their own life that this profile field answers
    search_results: str | None
    vision_results: str | None
    knowledge_retrieval: str | None
    final_message: str
    answered_from_profile: bool  # the offline reply answered from the profile, not from the recall
    llm_failed: bool  # a configured endpoint failed: the rest of this turn runs offline
