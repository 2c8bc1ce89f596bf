"""Response agent: the name-confirmation question, else the model's reply to the background packet
(scene image attached for a vision model), else the offline template. A model that streams is spoken
sentence by sentence while it generates (AgentDeps.ask_spoken); when nothing of its reply could be
spoken, the offline template is the reply."""

from __future__ import annotations

import logging

from interaction.agents.context import RESPONSE, AgentDeps
from interaction.answer_span import answered
from interaction.llm.reply_text import ReplyCheck
from interaction.names import confirmation_question
from interaction.offline.replies import change_reply, composed_reply, correction_reply
from interaction.own_life import question_meant
from interaction.profiles import MEETS
from interaction.prompts import (
    BACKGROUND_HEADING,
    CONVERSATION_HEADING,
    NADINE_LABEL,
    REPLY_STOPS,
    USER_LABEL,
    image_data_url,
    response_messages,
)
from interaction.reply_inputs import ReplyInputs
from interaction.state import TurnState

NAME_SETTLED = ("renamed", "kept", "unsettled", "shared_name", "not_their_name")  # the reply says which name is held now: never left to a model

log = logging.getLogger("nadine.interaction.response")

AGENT = "response_agent"


def reply_inputs(deps: AgentDeps, state: TurnState) -> ReplyInputs:
    u = state["understanding"]
    retrieval = state.get("retrieval")
    recall = bool(state.get("is_recall"))
    scene = retrieval.scene if retrieval and retrieval.scene and retrieval.scene.injected else None
    if not deps.settings.common.enable_visual_memory:
        scene = None
    # text memories reach the prompt on recall turns only: elsewhere they would be brought up unasked
    own_life = bool(retrieval and retrieval.details.get("mode") == "own_life")
    report = retrieval.recall if retrieval and (recall or own_life) else None
    return ReplyInputs(
        text=state["text"], intent=state["intent"], is_recall=recall, now=deps.clock.now(),
        language=state.get("language") or deps.settings.interaction.default_language,
        user_emotion=u.user_emotion, profile=state["identity"].profile, outcome=state.get("profile_outcome"),
        fact_changes=list(state.get("fact_changes") or []), fact_wording=dict(state.get("fact_wording") or {}),
        identity_event=state.get("identity_event"), confirmation=state.get("name_confirmation"), scene=scene,
        recall=report, own_life=own_life,
        answer=answered(question_meant(state) if own_life else state["text"], report), profile_field=state.get("profile_field"),
        search=state.get("search_results"), vision=state.get("vision_results"),
        knowledge=state.get("knowledge_retrieval"), affect=deps.affect.describe(),
        history=list(state.get("messages") or [])[-deps.settings.interaction.conversation_limit:],
        visual_memory_enabled=deps.settings.common.enable_visual_memory,
        met_before=met_before(state),
    )


def met_before(state: TurnState) -> bool | None:
    """Whether the speaker was met before this conversation; None while nobody is known."""
    identity = state["identity"]
    if not identity.known:
        return None
    outcome = state.get("profile_outcome")
    return not (state.get("met_now") or (outcome is not None and outcome.kind in MEETS))


def _taken_in_the_profile(state: TurnState, changed: str) -> bool:
    """The new value is one the profile took this turn in place of another ("I've moved to Cardiff" over
    "I live in Bristol with my two flatmates"): the reply says it as told now, never as the old
    statement with the value swapped, which carries over what went with the old one (the flatmates)."""
    return any(c.op == "supersede" and c.value and c.value.casefold() in changed.casefold()
               for c in state.get("fact_changes") or [])


def respond(deps: AgentDeps, state: TurnState) -> dict:
    """The reply (final_message), and whether it answered from the profile rather than from the turn's
    recall (answered_from_profile: the notes under it say so)."""
    r = reply_inputs(deps, state)
    if r.confirmation:
        return {"final_message": confirmation_question(r.confirmation)}
    if (r.identity_event or (r.outcome.kind if r.outcome else None)) in NAME_SETTLED:
        return _offline(r)  # the name now held, in so many words
    if (fixed := state.get("correction")) is not None:
        return {"final_message": correction_reply(fixed.corrected, r.addressed)}  # what is held now, in so many words
    if (changed := state.get("changed_memory")) is not None and not _taken_in_the_profile(state, changed):
        return {"final_message": change_reply(changed, r.addressed)}
    model = None if deps.turn_offline else deps.llm.for_agent(AGENT)
    if model is not None:
        image = image_data_url(deps.layout, r.scene.image_path) if r.scene and r.scene.image_path \
            and model.profile.vision else None
        messages = response_messages(r, image)
        check = ReplyCheck(labels=(USER_LABEL, NADINE_LABEL), own_label=NADINE_LABEL,
                           headings=(BACKGROUND_HEADING, CONVERSATION_HEADING), instructions=[messages[0]["content"]])
        if deps.streams(AGENT):
            # each sentence is spoken as soon as it is complete and checked; what was spoken is the reply
            if sentences := deps.ask_spoken(AGENT, messages, check, state, phase=RESPONSE, stop=REPLY_STOPS):
                return {"final_message": " ".join(sentences)}
        elif answer := deps.ask(AGENT, messages, json_mode=False, phase=RESPONSE, stop=REPLY_STOPS):
            if spoken := check.spoken(answer):
                return {"final_message": spoken}
            log.warning("the model's reply only continued the prompt (%r); offline reply instead", answer[:80])
    return _offline(r)


def _offline(r: ReplyInputs) -> dict:
    composed = composed_reply(r)
    return {"final_message": composed.text, "answered_from_profile": composed.from_profile}
