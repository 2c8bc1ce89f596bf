"""The deterministic guards (greeting, goodbye, language change, name confirmation, recall routing),
applied around whatever produced the understanding, so a model's slip cannot skip them."""

from __future__ import annotations

from dataclasses import dataclass

from interaction import cues
from interaction.clock_question import asks_the_clock
from interaction.memory_intent.not_keep import bids_not_to_keep, not_keep_intent
from interaction.memory_requests import FORGET_INTENTS
from interaction.offline.extract import extract_name
from interaction.offline.question_form import asks_back_their_own
from interaction.turn_understanding import INTENTS, PLAN_AGENTS, RECALL_INTENTS, PlanStep, TurnUnderstanding


@dataclass(frozen=True)
class GuardContext:
    user_id: str | None
    greeted_user_id: str | None
    confirmation_pending: bool
    named: bool = False  # Nadine knows the speaker's name: a word alone after "Hi." is no introduction


def apply_guards(u: TurnUnderstanding, text: str, ctx: GuardContext) -> TurnUnderstanding:
    intent = u.intent if u.intent in INTENTS else "continue_conversation"
    language = None  # only a language_change turn changes the language
    if intent == "language_change":
        language = cues.as_locale(u.language) or cues.language_request(text)
        intent = "continue_conversation"
    said_name = extract_name(text, loose=not ctx.named)
    if intent in ("first_greeting", "continue_conversation") and said_name:
        intent = "update_user_info"  # "Hi. Tomas." / "Evening. Marta here." introduce
    if intent == "update_user_info" and cues.is_about_nadine(text) and not said_name:
        intent = "continue_conversation"
    if intent == "end_conversation" and not cues.is_farewell(text):
        intent = "continue_conversation"
    if cues.is_unambiguous_farewell(text):
        intent = "end_conversation"  # gates the episodic save, the language reset and the wave
    if intent == "end_conversation" and said_name:
        intent = "update_user_info"  # "Ciao, I'm Chiara.": who introduces themselves is not leaving
    if intent == "first_greeting" and ctx.user_id is not None and ctx.greeted_user_id == ctx.user_id:
        intent = "continue_conversation"
    if ctx.confirmation_pending:
        intent = "update_user_info"
    # the understanding's memory intent stands as given (a model's, else the classifier's); a model
    # that only answered is_recall means recall
    memory_intent = u.memory_intent or ("recall" if u.is_recall else "statement")
    if (memory_intent in ("remember", "statement", "not_keep") or memory_intent == "recall" and bids_not_to_keep(text)) \
            and (negated := not_keep_intent(text)) is not None:
        # a model, like the classifier, may read "please don't remember that" by its words as a remember
        # request: asked not to keep it, nothing of the turn is kept ("don't remember my blood type
        # anymore" asks to forget what she holds)
        memory_intent = negated
    if memory_intent == "remember" and asks_back_their_own(text):
        # "give me my locker code" shares its words with a request to keep: it asks for what was kept
        memory_intent = "recall"
    if memory_intent in RECALL_INTENTS and asks_the_clock(text):
        # the day, the date or the time asked ("what's the date on Friday?") is the clock's, never a memory's
        memory_intent = "statement"
    is_recall = memory_intent in RECALL_INTENTS
    if intent == "end_conversation" and (is_recall or memory_intent in FORGET_INTENTS):
        # a request to forget or a question about their past asks for Nadine's answer, which leaving
        # would not wait for ("oh go on then, forget it" is no goodbye, whatever its words of going)
        intent = "continue_conversation"
    plan = [s for s in u.plan if s.agent in PLAN_AGENTS]
    if is_recall:
        # recalling the user's own past goes straight to the response (profile and scene loaded): a web
        # search or a camera look would answer about something else
        plan = [s for s in plan if s.agent not in ("search_agent", "vision_agent")]
    elif any(s.agent == "vision_agent" for s in plan) and not cues.is_about_view(text):
        plan = [s for s in plan if s.agent != "vision_agent"]  # a who / what question about the past asks memory
    if cues.ASKS_DATE.search(text) or cues.ASKS_TIME.search(text):
        # the date and the time are the shared clock's (the reply reads them from it): a web search,
        # which "today's" calls for, would answer from another clock, or not at all
        plan = [s for s in plan if s.agent != "search_agent"]
    if intent in ("first_greeting", "end_conversation") or not plan:
        plan = [PlanStep(agent="response_agent", message=text)]
    return u.model_copy(update={
        "intent": intent, "language": language, "plan": plan, "is_recall": is_recall, "memory_intent": memory_intent,
    })
