"""Turns that ask something of memory itself: "please remember that ...", "forget what I
said about ...", "forget me" when only the understanding caught it, and "what do you know about me?".

The graph routes such a turn here after understanding (interaction/graph.py); forgetting one memory
takes a confirmation, answered on the next turn by ForgetOneConversation before the graph runs, the
way interaction/forget.py handles "forget me".
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Literal

from common.clock import spoken_day
from common.config.interaction_settings import ForgetOfferSettings
from common.messages import ForgetMemory, MemoryAction, RecallReport
from common.store import DataLayout, ProfileStore, SceneStore, UserProfile
from common.store.profile_fields import FIELDS_BY_NAME
from interaction import cues, profile_wording, said_back
from interaction.agents.context import RESPONSE, AgentDeps
from interaction.agents.episode import summarize
from interaction.answer_span import holds_no_answer
from interaction.confirmation import next_step, read_offline, read_reply
from interaction.confirmation.reader import bare_answer
from interaction.forget import (
    NOTHING_STORED,
    WHOSE_UNKNOWN,
    PrivacyTurn,
    excepted,
    forget_narrowed,
    forget_one_memory,
    forget_question,
    forget_words,
)
from interaction.llm.reply_text import spoken_part
from interaction.memory.contracts import EpisodicSave, ExplicitMemoryStore, TranscriptTurn
from interaction.memory.forgotten import Forgotten
from interaction.memory.retrieval.core import Judged, RecallDecision
from interaction.memory.retrieval.decision import standing_out
from interaction.memory.said_before import quoted
from interaction.memory.told import is_told, what_it_tells
from interaction.memory_intent.classifier import classify
from interaction.memory_intent.named_value import with_named_value
from interaction.memory_intent.not_keep import points_before_the_turn, tells_beside_the_plea
from interaction.memory_intent.phrasing import (
    names_something,
    names_their_own_name,
    only_announces,
    request_content,
    request_topics,
    second_person,
    topics_by_their_modifiers,
)
from interaction.memory_intent.refers_back import refers_back
from interaction.memory_intent.to_do import ToDo, to_do
from interaction.names import given_name
from interaction.offline.articles import number_words
from interaction.offline.extract import extract_name
from interaction.offline.name_reading import read_opening_name
from interaction.offline.told_plainly import plainly
from interaction.offline.value_changes import changed_value, may_change
from interaction.profile_wording import Told
from interaction.profiles import Identity
from interaction.prompts import ABOUT_ME_HEADING, NADINE_LABEL, REPLY_STOPS, USER_LABEL, about_me_messages
from interaction.reported_speech import SaidDay, dates_named, read_ahead, reported, said_day, told_back
from interaction.session import HeldMemory, Session
from interaction.spoken_clock import clock_written
from interaction.turn_act.reader import OTHER, turn_act

log = logging.getLogger("nadine.interaction.memory_requests")

MEMORY_REQUESTS = ("remember", "forget_one", "forget_me", "about_me", "not_keep")
FORGET_INTENTS = ("forget_one", "forget_me")
# turns that are not something told: neither the episode nor the chat history keeps them
NOT_TOLD = (*FORGET_INTENTS, "not_keep")
NOT_KEPT = "All right — I won't keep that."
NOT_KEPT_REASON = "asked not to keep it"
# a plea that tells nothing and points back at nothing is about what is still to come ("please don't save
# anything I say today"): nothing more of the conversation is kept (dialogue.py)
KEEPING_NOTHING = "All right — I won't keep anything more of this conversation."
KEEPING_NOTHING_REASON = "asked to keep nothing more of this conversation"
HELD = "I don't know who you are yet, so I'll keep that for you once you tell me. What's your name?"
# each request of someone not known yet answered as what it asked: "what do you know about me?" and
# "forget what I said about ..." are no request to forget everything (nor is a forgotten person, whose
# session starts again with nobody, known any more)
UNKNOWN_SPEAKER = {
    "remember": "I'd like to remember that, but I don't know who you are yet. What's your name?",
    "about_me": "I don't know who you are yet, so I can't tell you anything I know about you. What's your name?",
    "forget_one": f"{WHOSE_UNKNOWN} Tell me your name, then ask me again.",
    "forget_me": NOTHING_STORED,
}
AGENT = "response_agent"
MAX_LISTED = 5  # explicit memories / moments named in one spoken answer
# besides what was said in this conversation: what they asked to be kept, their moments, and what they
# said in earlier conversations (a recall quotes those too: all of it can be taken back)
FORGETTABLE = frozenset({"explicit_memory", "moment", "turn"})


@dataclass(frozen=True)
class ForgetCandidate:
    """The one memory a forget-one request points at."""

    user_id: str
    kind: Literal["explicit_memory", "moment", "turn", "this_session", "fact"]
    # explicit memory id, scene id, a saved turn's document id, a profile fact as "field:value", or ""
    # for a turn of this session
    memory_id: str
    text: str  # in the user's words (profile facts: as Nadine says them, "you live in Porto")
    probability: float = 0.0  # the retrieval core's calibrated probability that it is what was named
    also: tuple[ForgetCandidate, ...] = ()  # other memories that hold the same thing, forgotten with it


def wire_memory_intent(result: dict) -> str | None:
    """TurnResult.memory_intent: "what do you know about me?" is a recall on the wire (common contract)."""
    intent = result.get("memory_intent")
    return "recall" if intent == "about_me" else intent


def explicit_store(deps: AgentDeps) -> ExplicitMemoryStore | None:
    if deps.services is None or not deps.settings.interaction.enable_memory_agents:
        return None
    return deps.services.explicit


def said_earlier(transcript: list[TranscriptTurn]) -> list[TranscriptTurn]:
    """What the person told earlier in this conversation (the last turn is the current one): not
    their questions, greetings or farewells, nor what the memory-intent classifier reads as asking to
    recall or to forget ("remind me what I said about the car", "scratch the part about my debts")
    (interaction/memory/told.py, as for the long-term memories), nor a request to remember, whose
    content is an explicit memory of its own (forgetting the turn instead would leave the memory), nor
    an answer to a question Nadine put ("No, actually, keep it.")."""
    # a turn that speaks of someone by a pronoun is quoted with the statement before it (said_before.py)
    return [replace(t, text=quoted(transcript, i)) for i, t in enumerate(transcript[:-1])
            if t.tells and is_told(t.text) and classify(t.text).intent != "remember"]


def recall_this_session(deps: AgentDeps, state: dict) -> RecallReport | None:
    """What the retrieval core decides about the earlier turns of THIS session for a recall question
    ("what did I just say about my brother?"): they are not in the long-term store yet, so it decides
    over this conversation's statements on their own, as it decides over long-term memories. None
    when it names none of them (neither asserted nor offered), or offers only statements none of
    which holds what the question asks for, as a long-term recall does not offer them ("what's my
    neighbour's wifi password?" is not about "I'm Kit, my neighbour's lodger")."""
    earlier = said_earlier(state.get("transcript") or [])
    if deps.services is None or not earlier:
        return None
    decided = deps.services.about(state["identity"].user_id or "", state["text"], earlier)
    report = decided.report() if decided is not None and decided.named is not None else None
    return None if report is None or holds_no_answer(state["text"], report) else report


def handle(deps: AgentDeps, state: dict) -> dict:
    """The reply (and what the DM must remember) for a memory request turn."""
    intent = state.get("memory_intent")
    identity: Identity = state["identity"]
    if intent == "not_keep":  # whoever asks: nothing of the turn is kept (dialogue.py)
        not_kept = {"final_message": NOT_KEPT, "memory_action": MemoryAction(outcome="not_kept", reason=NOT_KEPT_REASON)}
        # in a turn of its own ("don't remember that") it means what they said just before: that goes too;
        # with nothing told before it ("I'd rather you didn't remember any of this" after a greeting), or
        # pointing at nothing before it, it is about the turns still to come
        said = just_said(state) if refers_back(state["text"]) or points_before_the_turn(state["text"]) else None
        if said is None and not tells_beside_the_plea(state["text"]):
            return {**not_kept, "final_message": KEEPING_NOTHING, "keep_nothing": True}
        return {**not_kept, "take_back": said} if said is not None and identity.known else not_kept
    if intent == "remember" and asks_if_kept(state["text"]):
        return {"final_message": whether_kept(deps, state)}
    if not identity.known:
        held = wanted_kept(state) if intent == "remember" else None
        if held is not None:  # kept for them once they say who they are (dialogue.py)
            return {"final_message": HELD, "held_memory": held}
        return {"final_message": UNKNOWN_SPEAKER[intent]}
    if intent in FORGET_INTENTS and (kept := excepted(state["text"])) is not None:
        # "forget everything except the gate code": neither everything nor the gate code is asked about
        return {"final_message": forget_narrowed(kept, identity.name),
                "memory_action": MemoryAction(outcome="forget_narrowed")}
    if intent == "forget_me":  # the understanding heard a "forget me" the privacy gate's phrases did not
        return {"final_message": forget_question(identity.name), "forget_me_asked": True}
    if intent == "remember":
        return remember(deps, state)
    if intent == "forget_one":
        return forget_one_request(deps, state)
    return {"final_message": about_me(deps, state),
            "drew_on": said_back.about_me(deps, identity.user_id, identity.profile)}


def asks_if_kept(text: str) -> bool:
    """A question about remembering that names nothing to remember ("you sure you'll remember that?",
    "will you remember it?"): it asks about Nadine's memory of what was just said, not to keep anything;
    "could you remind me to ...?" asks to keep a to-do, and "can you hang on to something for me?" one
    thing still to be said."""
    return (cues.is_question(text) and to_do(text) is None and not names_something(request_content(text))
            and not only_announces(text))


def whether_kept(deps: AgentDeps, state: dict) -> str:
    """The plain answer to "will you remember that?": what is kept on disk of the person's last turn
    before it (a memory they asked for, a moment, a profile fact), or honestly that nothing is."""
    identity: Identity = state["identity"]
    if not identity.known or not identity.user_id:
        return "Not yet, I'm afraid: I don't know who you are, so I can't keep anything for you. What's your name?"
    uid = identity.user_id
    said = next((t for t in reversed(state.get("transcript", [])[:-1]) if t.role == "user"), None)
    turn = said.turn_id if said is not None else None
    if turn:
        store = explicit_store(deps)
        kept = next((m for m in (store.list(uid) if store is not None else []) if m.source_turn == turn), None)
        if kept is not None:
            return f"Yes, it's kept: {kept_wording(kept.text)}."
        if any(s.turn_id == turn and s.scene_type == "moment" for s in SceneStore(deps.layout).list(uid)):
            return f"Yes, it's kept: {second_person(said.text.rstrip(' .!'))}."
        profile = ProfileStore(deps.layout).load(uid)
        if profile is not None and any(r.current and r.source.turn_id == turn
                                       for records in profile.facts.values() for r in records):
            return "Yes, it's kept with what I know about you."
    return ("Honestly, not as a memory of its own: I only keep it as part of our conversation. "
            "If you'd like me to keep it, just say \"please remember that ...\".")


ASK_WHAT_TO_KEEP = "Of course. What would you like me to remember?"


def answers_what_to_keep(state: dict) -> bool:
    """The turn tells what Nadine just asked to be told, having been asked to remember something not
    yet said ("Can you hang on to something for me?" / "What would you like me to remember?" / "My
    locker is number 31."): the turn is that something. A turn that lets it drop tells nothing to keep:
    one the turn-act reader hears as acknowledging or declining ("never mind", "nothing, sorry"), or a
    no ("no, it doesn't matter")."""
    before = (state.get("transcript") or [])[:-1]
    text = state["text"]
    return (bool(before) and before[-1].role == "nadine" and before[-1].text == ASK_WHAT_TO_KEEP
            and is_told(text) and turn_act(text) == OTHER and read_offline(text) != "no")


def asks_of_their_memory(text: str) -> bool:
    """A request to keep or forget a thing it names ("please forget my student ID", "remember my bus
    pass number is 5521"), or to forget everything about them ("I'd like you to forget everything you
    know about me"), not opened by a yes or a no: no answer to a yes / no question of Nadine's however
    its words lean, but a request that needs to know whose memory it is."""
    from interaction.offline.name_reading import CLAUSE_BREAK

    intent = classify(text).intent
    if intent != "forget_me" and (intent not in ("remember", "forget_one") or not names_something(request_content(text))):
        return False
    return not bare_answer(CLAUSE_BREAK.split(cues.sentences(text)[0])[0])


def wanted_kept(state: dict) -> HeldMemory | None:
    """What a request to remember asks to keep; None when it names nothing ("remember this!"); the
    whole turn when it answers what to keep."""
    if answers_what_to_keep(state):
        return HeldMemory(plainly(" ".join(state["text"].split()).rstrip(" .!")), state.get("turn_id"), None)
    u = state["understanding"]
    # something to do is kept as the request it was ("remind me to phone the dentist"), so it is said
    # back as one; a fact without its asking words
    todo = to_do(state["text"])
    fact = todo.request if todo is not None else plainly(u.memory_text or with_named_value(
        state["text"], request_content(state["text"])))
    # "remember this!" names nothing to keep, "remember a number for me" only a thing still to be said;
    # a to-do is kept as a request, so its action is what names
    if not (names_something(todo.action, asks=False) if todo is not None
            else names_something(fact) and not only_announces(fact)):
        return None
    return HeldMemory(fact, state.get("turn_id"), todo)


def remember(deps: AgentDeps, state: dict) -> dict:
    """The reply to "remember that ...", and the memory action (kept, or not and why)."""
    wanted = wanted_kept(state)
    if wanted is None:
        return {"final_message": ASK_WHAT_TO_KEEP,
                "memory_action": MemoryAction(outcome="not_kept", kind="explicit_memory",
                                              reason="the request names nothing to keep")}
    return keep(deps, state["identity"], wanted)


def keep(deps: AgentDeps, identity: Identity, wanted: HeldMemory) -> dict:
    """Keep `wanted` for the person as an explicit memory: the reply and the memory action."""
    def not_kept(reply: str, why: str) -> dict:
        return {"final_message": reply, "memory_action": MemoryAction(outcome="not_kept", kind="explicit_memory",
                                                                      reason=why)}

    store = explicit_store(deps)
    if store is None:
        return not_kept("I'm sorry, I can't keep new memories right now.", "memory agents are off")
    try:
        stored = store.add(identity.user_id or "", identity.name or "", wanted.fact, wanted.turn_id)
    except Exception:  # a store failure is said, never hidden behind "I'll remember"
        log.exception("explicit memory not stored for %s", identity.user_id)
        stored = None
    if stored is None:
        return not_kept("I'm sorry, I couldn't store that just now. Could you tell me again later?",
                        "the memory store failed (see logs/interaction.log)")
    todo = wanted.todo
    today = spoken_day(deps.clock.now())
    kept = kept_wording(stored.text, SaidDay(today, today), today_too=True)
    return {"final_message": todo_kept(todo) if todo is not None else f"I'll remember that {kept}.",
            "memory_action": MemoryAction(outcome="kept", kind="explicit_memory", text=stored.text)}


def todo_kept(todo: ToDo) -> str:
    """The reply to a to-do kept: what is to be done, and honestly that Nadine keeps it but cannot
    bring it up by herself (she speaks only when spoken to: nothing of hers speaks first at a time or
    on a day)."""
    reminding = "remind you" if todo.doer == "person" else "bring it up"
    return f"I'll remember that {wanted(todo)}. I can't {reminding} by myself, though — just ask me any time."


def wanted(todo: ToDo) -> str:
    """A to-do in Nadine's words: "you want to phone the dentist on Monday", "you want me to ask you
    about your exam results"."""
    return f"you want {'' if todo.doer == 'person' else 'me '}{second_person(todo.words)}"


def kept_wording(text: str, said: SaidDay | None = None, *, today_too: bool = False) -> str:
    """An explicit memory in Nadine's words, as it follows "I'll remember that": a fact ("your
    passport expires in March") or a to-do ("you want to phone the dentist"); asked for on an
    earlier day (`said`), or as it is kept (`today_too`), a day of the week in it is named as the
    date it meant; a time of day said in words is said as the clock shows it ("at half three": "at 3:30")."""
    text = clock_written(dates_named(text, said, 0, len(text), today_too=today_too))
    todo = to_do(text)
    return wanted(todo) if todo is not None else second_person(_continued(text.rstrip(" .!?")))


def _continued(text: str) -> str:
    """A sentence as it continues Nadine's own ("I'll remember that the plumber ..."): its first word
    lower-cased unless spaCy's tagger reads it as a name, or it is "I"."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        first = next(iter(load_parser()(text)), None)
    except ParserUnavailable:
        return text
    if first is None or first.pos_ == "PROPN" or first.lower_ == "i" or first.lower_.startswith("i'"):
        return text
    return text[:1].lower() + text[1:]


def fact_statements(profile: UserProfile | None, at: datetime) -> list[tuple[TranscriptTurn, Told]]:
    """The person's current profile facts by their own words, as they would tell them ("I live in
    Porto", "I enjoy chess"): a forget request may name one ("forget where I live"). Not the clause
    it was told in: "my brother and I moved to Porto" is also about the brother, and a request about
    him means what was told."""
    return [(TranscriptTurn(role="user", at=at, text=_FIRST_PERSON.sub(
        lambda m: _AS_TOLD[m.group(0)], profile_wording.own_words(told), count=1)), told)
        for told in profile_wording.current(profile, now=at)]


_FIRST_PERSON = re.compile(r"^you(?:'re|r)?\b")
_AS_TOLD = {"you": "I", "you're": "I'm", "your": "my"}


@dataclass(frozen=True)
class ForgetMatches:
    """What the retrieval core found for each topic a forget request names."""

    user_id: str
    decisions: list[RecallDecision]  # over the person's memories, one per topic phrasing
    fact: tuple[Judged, Told] | None  # a current profile fact the request is sure to name, with how sure
    # ... and one per noun its phrases are compounded with ("the bike thing": "bike"), which names what
    # is meant when the phrases themselves match nothing
    by_modifiers: list[RecallDecision] = field(default_factory=list)


def forget_matches(
    deps: AgentDeps, user_id: str, text: str, transcript: list[TranscriptTurn], profile: UserProfile | None = None,
    spelling: float | None = None,
) -> ForgetMatches:
    """Explicit memories, remembered moments, what was said in this conversation and the current
    profile facts of `profile`, ranked and verified by the retrieval core on each topic the request
    names (request_topics: its noun phrases, not its framing words; and what is left of the request
    without its asking words when it names a thing of its own, "my parents divorced"), a word no
    dictionary knows read as the nearest one the person used (`spelling`)."""
    earlier = said_earlier(transcript)
    topics = request_topics(text)
    kinds = FORGETTABLE
    decisions = [d for topic in topics
                 if (d := deps.services.about(user_id, topic, earlier, kinds, spelling)) is not None]
    # the facts are ranked on their own: a turn that told one says it in nearly the same words, and two
    # near-twins leave neither standing out
    facts = fact_statements(profile, deps.clock.now())
    # only a fact the request is sure to name: among a person's few facts the closest one always
    # stands out ("forget about my cat" offered "you work at work")
    named_facts = [d.named for topic in topics if facts
                   and (d := deps.services.about(user_id, topic, [turn for turn, _ in facts], spelling=spelling))
                   is not None and d.outcome == "asserted" and d.named is not None]
    fact = max(named_facts, key=lambda j: j.probability, default=None)
    by_modifiers = [d for topic in topics_by_their_modifiers(text)
                    if (d := deps.services.about(user_id, topic, earlier, kinds, spelling)) is not None]
    return ForgetMatches(user_id, decisions, None if fact is None else (fact, facts[int(fact.candidate.memory_id)][1]),
                         by_modifiers)


def chosen_to_forget(matches: ForgetMatches, offer: ForgetOfferSettings) -> ForgetCandidate | None:
    """The memory to offer, with every other one that restates the same thing. What the recall
    decision asserts, naming nothing that conflicts with the topic; else, looser, since forgetting is
    asked first: the closest by the dense cosine standing offer.offer_margin above the next one (a
    memory alone stands out from nothing: the one thing a person told is not what every request
    names). Below that there is nothing to forget. A profile fact closer than every other memory is
    the one meant ("forget where I live": the fact, not the turn that told it), but for one of their
    people by name, which goes with what was told about them. What else is asserted
    with it, or names everything the topic names (the entity reader's agreement: "the dentist is at
    11 not 10" for "the dentist appointment"), holds the same thing: it is offered with it, so the
    person's yes covers all that goes."""
    named = [j for d in matches.decisions for j in _offered(d, offer)]
    if not named and matches.fact is None:
        # what the phrases are compounded with, alone, when they match nothing ("forget the bike thing")
        named = [j for d in matches.by_modifiers for j in _offered(d, offer)]
    fact = None if matches.fact is None else ForgetCandidate(
        matches.user_id, "fact", f"{matches.fact[1].field}:{matches.fact[1].value}",
        profile_wording.own_words(matches.fact[1]), matches.fact[0].probability)
    # a person of theirs named ("forget what I told you about my aunt") means what was told about them
    # when a memory holds it: their name is offered with it, not instead of it
    with_it = fact is not None and bool(named) and FIELDS_BY_NAME[matches.fact[1].field].names_people
    if fact is not None and not with_it and all(fact.probability > j.probability for j in named):
        return fact
    if not named:
        return None
    best = _as_kept(max(named, key=lambda j: j.probability), matches)
    also: dict[str, ForgetCandidate] = {fact.text.casefold(): fact} if with_it else {}
    for d in matches.decisions:
        asserted = d.chosen if d.outcome == "asserted" else []
        for j in d.considered:
            if j.conflict or not (j in asserted or j.all_agree):
                continue
            other = _as_kept(j, matches)
            if other.text.casefold() not in best.text.casefold() and best.text.casefold() not in other.text.casefold():
                also.setdefault(other.text.casefold(), other)
    return replace(best, also=tuple(list(also.values())[:MAX_LISTED - 1]))


def _offered(d: RecallDecision, offer: ForgetOfferSettings) -> list[Judged]:
    """What one topic's decision offers to forget (chosen_to_forget): what it asserts, else the
    memory standing out among others, else the closest that names everything the topic names and
    nothing conflicting ("so my brother Steve just got diagnosed" for "my brother", though "his chemo
    starts on the 2nd" is nearer by the sentence vectors): forgetting asks first, so what it names is
    offered, never taken."""
    if d.outcome == "asserted" and d.named is not None and not d.named.conflict:
        return [d.named]
    if len(d.considered) > 1 and (i := standing_out(offer.offer_margin, d.considered)) is not None:
        return [d.considered[i]]
    agreeing = [j for j in d.considered if j.all_agree and not j.conflict]
    return [max(agreeing, key=lambda j: j.dense)] if agreeing else []


def _as_kept(judged: Judged, matches: ForgetMatches) -> ForgetCandidate:
    """A matched memory as the candidate to forget; the turn that asked for something to be kept
    stands for the memory it asked for (forgetting it takes its words out of the saved sessions too,
    the turn's among them)."""
    best = judged
    if best.candidate.kind == "turn":
        said = best.candidate.quote.casefold()
        best = next((j for d in matches.decisions for j in d.considered if j.candidate.kind == "explicit_memory"
                     and j.candidate.quote.casefold() in said), best)
    c = best.candidate
    kind = c.kind if c.kind in ("explicit_memory", "moment", "turn") else "this_session"
    return ForgetCandidate(matches.user_id, kind, "" if kind == "this_session" else c.memory_id, c.quote,
                           best.probability)


def find_forget_candidate(
    deps: AgentDeps, user_id: str, text: str, transcript: list[TranscriptTurn], profile: UserProfile | None = None,
) -> ForgetCandidate | None:
    """The memory a forget request names, with what restates it (forget_matches, chosen_to_forget),
    or None."""
    if deps.services is None:
        return None
    offer = deps.settings.interaction.retrieval.recall.forget
    return chosen_to_forget(forget_matches(deps, user_id, text, transcript, profile, offer.spelling), offer)


def just_said(state: dict) -> ForgetCandidate | None:
    """What a request that names nothing of its own ("forget that", "don't remember what I just said")
    is about: the person's turn right before it, when that told something (or asked for something to
    be remembered); a question or a greeting before it leaves it about nothing."""
    identity: Identity = state["identity"]
    before = [t for t in (state.get("transcript") or [])[:-1] if t.role == "user"]
    if not before or not before[-1].tells or not (is_told(before[-1].text) or classify(before[-1].text).intent == "remember"):
        return None
    return ForgetCandidate(identity.user_id or "", "this_session", "", before[-1].text)


def declined(state: dict) -> ForgetCandidate | None:
    """The memory this person said no to forgetting on the turn before ("Forget the school play." /
    "No." / "Actually yes, forget it."): a request that names nothing of its own is about it first;
    the question and its answer left the transcript, so nothing else there points at it."""
    candidate = state.get("declined_forget")
    return candidate if candidate is not None and candidate.user_id == state["identity"].user_id else None


def answered_from_memory(state: dict) -> TranscriptTurn | None:
    """The person's question just before this turn when Nadine's reply to it said back memories of
    theirs ("what's my student id?" / "... your student ID is A00482913." / "forget that"): what was
    just talked about is what that question asked about."""
    before = (state.get("transcript") or [])[:-1]
    if len(before) < 2 or before[-1].role != "nadine" or not before[-1].drew_on or before[-2].role != "user":
        return None
    return before[-2]


def memories_said_back(deps: AgentDeps, user_id: str, asked: TranscriptTurn, state: dict) -> ForgetCandidate | None:
    """The memories Nadine's reply to `asked` said back, when that question names no topic of its own
    ("do you remember what I told you yesterday?" / "forget all that"): each one she drew on, offered
    together, the closest first; None when none is held any more."""
    before = (state.get("transcript") or [])[:-1]
    decided = deps.services.about(user_id, asked.text, said_earlier(before), FORGETTABLE) if deps.services else None
    drew_on = before[-1].drew_on if before else frozenset()
    said = [j for j in (decided.considered if decided is not None else [])
            if j.candidate.kind in FORGETTABLE and j.candidate.memory_id.split("~")[0] in drew_on]
    if not said:
        return None
    each = [ForgetCandidate(user_id, j.candidate.kind, j.candidate.memory_id, j.candidate.quote, j.probability)  # type: ignore[arg-type]
            for j in said]
    return replace(each[0], also=tuple(each[1:MAX_LISTED]))


def takes_back_nothing(state: dict) -> bool:
    """A request to forget what was just said, in a turn of its own ("scratch that", "forget what I
    just said"), when nothing was told, declined or said back just before it: it can mean nothing, so
    it asks nothing."""
    return (state.get("memory_intent") == "forget_one" and refers_back(state["text"]) and just_said(state) is None
            and declined(state) is None and answered_from_memory(state) is None
            and not names_their_own_name(state["text"]))  # "my name" is a word of talk to WordNet, and theirs


def forget_one_request(deps: AgentDeps, state: dict) -> dict:
    identity: Identity = state["identity"]
    if identity.known and names_their_own_name(state["text"]):
        # their name is who they are to her, no memory: forgetting it is forgetting them, which asks
        # for its own clear request (a memory offered in its place was erased on a yes)
        return {"final_message": "I keep your name so that I know who you are, so I can't forget it and still "
                                 "remember you. If you want me to forget you altogether, say \"forget everything about me\"."}
    if refers_back(state["text"]):
        candidate = declined(state) or just_said(state)
        if candidate is None and (asked := answered_from_memory(state)) is not None:
            # the memory the question asked about, as a request naming the same would find it
            candidate = find_forget_candidate(deps, identity.user_id or "", asked.text, state.get("transcript") or [],
                                              identity.profile) or memories_said_back(deps, identity.user_id or "", asked, state)
    else:
        candidate = find_forget_candidate(deps, identity.user_id or "", state["text"], state.get("transcript") or [],
                                          identity.profile)
    if candidate is None:
        return {"final_message": "I don't think I have a memory of that, so there is nothing to forget.",
                "memory_action": MemoryAction(outcome="nothing_to_forget")}
    return {"final_message": forget_one_question(candidate), "forget_candidate": candidate, "memory_action": MemoryAction(
        outcome="forget_asked", kind=candidate.kind, text=candidate.text, p_told=round(candidate.probability, 4))}


def forget_one_question(candidate: ForgetCandidate) -> str:
    """Names every memory that will go: the one asked about and what restates it."""
    said = [_quoted(c) for c in (candidate, *candidate.also)]
    return f"Do you want me to forget that {', and that '.join(said)}? Please say yes or no."


FORGET_ONE_ASKED_AGAIN = "Sorry, I'm not sure what you mean. Shall I forget it? Please answer yes or no."


def _quoted(candidate: ForgetCandidate) -> str:
    said = reported(candidate.text)
    if candidate.kind == "fact":  # already in Nadine's words
        return candidate.text
    # said back in Nadine's words ("you told me you failed ..."), as a recall says them: a quotation
    # would be the person's own
    if candidate.kind == "explicit_memory":  # a to-do as the request it was: "you asked me to remind you to ..."
        return told_back(candidate.kind, candidate.text) if to_do(candidate.text) is not None else said
    return f"you told me {said}"


def forget(deps: AgentDeps, candidate: ForgetCandidate, session: Session) -> bool:
    """Remove that memory and those that restate it (candidate.also), each as _forget_memory does;
    True when any went."""
    done = [_forget_memory(deps, c, session) for c in (candidate, *candidate.also)]
    return any(done)


def _forget_memory(deps: AgentDeps, candidate: ForgetCandidate, session: Session) -> bool:
    """Remove only that memory, from every store that holds it: its own document or scene (the same
    path as nadine/memory/forget_memory, Chroma's log records included), every saved session that
    holds its words or its turn (rewritten without them, the summary made again), and this session's
    turns."""
    services = deps.services
    embedded = deps.settings.interaction.chroma.mode == "embedded"

    def summary(turns: list[TranscriptTurn], name: str) -> EpisodicSave:
        return summarize(deps, turns, name)

    if candidate.kind in ("this_session", "turn"):
        # words said (this session's are not in the long-term store yet, unless said before in the
        # same words): every saved session that holds them is rewritten without them, and the replies
        # that said them back (by the turn they were said in, or the saved turn's document)
        turn_ids = [t.turn_id for t in session.transcript if t.role == "user" and t.turn_id and t.text == candidate.text]
        forgotten = Forgotten.of([candidate.text], turn_ids, [candidate.memory_id.split("~")[0]])
        # the profile facts learned in a saved turn go with it; this session's are taken back below
        removed = forget_words(deps.layout, candidate.user_id, forgotten, services, summary, embedded,
                               now=deps.clock.now() if candidate.kind == "turn" else None)
        # what was kept of this conversation's turn: the moment perception kept of it, what it asked to remember
        for kept in _kept_from(deps, candidate.user_id, forgotten.turn_ids, ("moment", "explicit_memory"), forgotten):
            also, _ = forget_one_memory(deps.layout, kept, deps.clock.now(), services, summary, embedded)
            for k, n in also.items():
                removed[k] = removed.get(k, 0) + n
    else:
        removed, forgotten = forget_one_memory(
            deps.layout, ForgetMemory(user_id=candidate.user_id, kind=candidate.kind, memory_id=candidate.memory_id),
            deps.clock.now(), services, summary, embedded, said=[candidate.text])
        if candidate.kind == "moment":
            # a moment kept from a request to remember: what that turn asked to keep goes with it
            for kept in _kept_from(deps, candidate.user_id, forgotten.turn_ids, ("explicit_memory",)):
                also, _ = forget_one_memory(deps.layout, kept, deps.clock.now(), services, summary, embedded)
                removed["text_memories"] = removed.get("text_memories", 0) + also.get("text_memories", 0)
    if services is not None and (candidate.kind == "moment" or removed.get("scene_files")):
        services.on_scenes_changed(candidate.user_id)
    said_now = forget_in_session(deps.layout, session, forgotten, deps.clock.now(),
                                 bool(removed.get("fact_records") or removed.get("facts")), candidate.kind != "fact")
    if candidate.kind == "this_session":
        return bool(said_now)
    return any(removed.get(k) for k in ("scene_files", "text_memories", "session_documents", "facts"))


def _kept_from(deps: AgentDeps, user_id: str, turn_ids: frozenset[str], kinds: tuple[str, ...],
               forgotten: Forgotten | None = None) -> list[ForgetMemory]:
    """The memories kept of the person's turns `turn_ids` (a moment's turn_id, an explicit memory's
    source_turn); and the moments whose words hold the `forgotten` memory as a turn's would (a moment
    kept of a turn a forgotten memory was kept with: "we got a kitten" of "we got a kitten. her name is
    Mgla", said_before.py)."""
    kept = []
    if "moment" in kinds and (turn_ids or forgotten):
        kept += [ForgetMemory(user_id=user_id, kind="moment", memory_id=m.scene_id)
                 for m in SceneStore(deps.layout).list(user_id) if m.scene_type == "moment" and (
                     m.turn_id in turn_ids or (forgotten is not None and forgotten.said_in(m.user_message or "")))]
    if "explicit_memory" in kinds and turn_ids and deps.services is not None:
        kept += [ForgetMemory(user_id=user_id, kind="explicit_memory", memory_id=k.memory_id)
                 for k in deps.services.explicit.list(user_id) if k.source_turn in turn_ids]
    return kept


def forget_in_session(layout: DataLayout, session: Session, forgotten: Forgotten, now: datetime,
                      facts_changed: bool, their_facts: bool = True) -> list[TranscriptTurn]:
    """The conversation in progress's part of a forget: its turns that hold the memory, the profile
    facts those turns told (unless not `their_facts`: a forgotten fact takes only itself), and the
    profile the session holds (`facts_changed`: the forget already took facts out of the stored
    profile). Returns the turns taken out."""
    said_now = session.forget(forgotten)
    user_id = session.identity.user_id
    if user_id is None:
        return said_now
    profiles = ProfileStore(layout)
    said_ids = frozenset(t.turn_id for t in said_now if t.role == "user" and t.turn_id) if their_facts else frozenset()
    if profiles.forget_turns(user_id, said_ids, now) or facts_changed:
        session.identity = replace(session.identity, profile=profiles.load(user_id) or session.identity.profile)
    return said_now


class ForgetOneConversation:
    """A forget-one request -> "Do you want me to forget that ...?" -> only a clear yes from the same
    person forgets it; an unclear answer is asked once more; a no, or a second unclear answer, keeps it,
    and so does a question of their own or another request to forget instead of an answer."""

    def __init__(self) -> None:
        self._pending: ForgetCandidate | None = None
        self._asked_again = False
        # what the person said no to: on the turn after that answer only, `declined` (a change of
        # mind is said at once: "Actually yes, forget it.")
        self.declined: ForgetCandidate | None = None
        self._declined_now: ForgetCandidate | None = None

    def ask(self, candidate: ForgetCandidate) -> None:
        self._pending, self._asked_again = candidate, False

    def waiting_for(self, user_id: str | None) -> bool:
        """The question was put to this person and is not answered yet."""
        return self._pending is not None and self._pending.user_id == user_id

    def withdraw(self) -> None:
        """The conversation the question was put in is over: no later words answer it."""
        self._pending = self._declined_now = None

    def next_turn(self) -> None:
        """A turn of the person's begins: what they said no to on the turn before is `declined` for it."""
        self.declined, self._declined_now = self._declined_now, None

    def turn(self, deps: AgentDeps, text: str, session: Session) -> PrivacyTurn | None:
        pending, self._pending = self._pending, None
        if pending is None or pending.user_id != session.identity.user_id:
            return None
        answer = read_reply(deps, forget_one_question(pending), text)
        step = next_step(answer, self._asked_again, text, forgetting=True)
        # kept, and the question they asked instead is answered as any turn; so is another request to
        # forget ("Forget the chiropodist thing." instead of an answer), which is asked about in its turn;
        # a no that names nothing else is the answer ("no, please keep it" reads as a request too)
        if step == "moved_on" or (answer != "yes" and classify(text).intent in FORGET_INTENTS and (
                answer == "unclear" or names_something(request_content(text)))):
            return None
        if answer == "yes" and _names_another(deps, text, pending, session):
            return None  # "you can forget my gym code" to "... forget your home address ...?": asked about in its turn
        if step == "ask_again" and (one := _the_one_picked(deps, text, pending)) is not None:
            # "the wifi one" to a question about two passwords: that one is asked about alone
            self._pending = one
            return PrivacyTurn(forget_one_question(one), "forget_one_asked_again")
        if step == "ask_again":
            self._pending, self._asked_again = pending, True
            return PrivacyTurn(FORGET_ONE_ASKED_AGAIN, "forget_one_asked_again")
        if step == "keep":
            self._declined_now = pending
            return PrivacyTurn("All right, I'll keep that memory.", "forget_one_cancelled")
        try:
            done = forget(deps, pending, session)
        except Exception:
            log.exception("forgetting one memory of %s failed", pending.user_id)
            done = False
        if done:  # the reply does not repeat what was forgotten
            return PrivacyTurn("Done. I have forgotten it.", "forget_one_confirmed")
        return PrivacyTurn("I'm sorry, I couldn't forget that just now. Please ask me again.", "forget_one_failed")


def _the_one_picked(deps: AgentDeps, text: str, pending: ForgetCandidate) -> ForgetCandidate | None:
    """Of the memories a forget question named together, the one an answer that is no yes or no picks
    ("the wifi one"), as the retrieval core decides which of them it is about (asserted or asked
    about); None for a question about one memory, or when it picks none."""
    if not pending.also or deps.services is None:
        return None
    group = [replace(pending, also=()), *pending.also]
    now = deps.clock.now()
    decided = deps.services.about(pending.user_id, text, [TranscriptTurn("user", c.text, now) for c in group])
    named = decided.named if decided is not None else None
    # one of the group (a day named may bring up a stored plan instead: no pick among these)
    return group[int(named.candidate.memory_id)] if named is not None and named.candidate.kind == "this_session" else None


def _names_another(deps: AgentDeps, text: str, pending: ForgetCandidate, session: Session) -> bool:
    """A yes said as a request to forget that names something ("you can forget my gym code"), and what
    it names is not the memory the question is about: a request of its own, not this question's yes."""
    if classify(text).intent not in FORGET_INTENTS or not names_something(request_content(text)):
        return False
    found = find_forget_candidate(deps, pending.user_id, text, session.transcript, session.identity.profile)
    return found is not None and (found.kind, found.memory_id, found.text) != (pending.kind, pending.memory_id, pending.text)


def known_facts(deps: AgentDeps, identity: Identity, transcript: list[TranscriptTurn] | None = None
                ) -> tuple[list[str], list[str], list[tuple[str, SaidDay | None]]]:
    """What Nadine knows about the person, in her words: profile facts, explicit memories, and what they
    told, moments and plain statements of their conversations alike (each as it holds now:
    `as_changed`; with the day it was said)."""
    now = deps.clock.now()
    facts = profile_wording.phrases(profile_wording.current(identity.profile, now=now))
    store = explicit_store(deps)
    kept = store.list(identity.user_id or "") if store else []
    scenes = sorted((m for m in SceneStore(deps.layout).list(identity.user_id or "")
                     if m.scene_type == "moment" and m.user_message), key=lambda m: m.timestamp)
    said = told_since(deps, identity.user_id or "", transcript or [])
    # a turn is read for a change once, not beside every kept memory: only one that may change something
    # is read against each
    told = [t for t in said if may_change(t.text)]
    explicit = [kept_wording(as_changed(m.text, m.occurred_at, told), said_day(m.occurred_at, now)) for m in kept]
    # a moment is said as it holds now too: "my cousin is getting married in May", then "the wedding
    # was moved to June", is a wedding in June
    recent = said[-MAX_LISTED * 3:]
    moments = [(m.when or now, as_changed(m.user_message.strip(), m.timestamp, told)) for m in scenes
               if m.user_message and not _called_off_since(m.user_message, m.when or now, recent)]
    # news told calmly is no moment, yet Nadine knows it: what a turn told, unless kept as a memory, a
    # moment or a profile fact of its own, or said with their name (what an introduction tells is
    # their profile: "hello dear, I am Dorothy Brown, I am 89 years old"), nor a name said alone ("Ruairi
    # Delaney." as they came back)
    held = {k.source_turn for k in kept} | {m.turn_id for m in scenes} | {
        r.source.turn_id for records in (identity.profile.facts.values() if identity.profile else ()) for r in records}
    # ... nor one a later turn gave a new value, which is told in its place ("my dentist is on Tuesday",
    # then "the dentist moved to Thursday": the Tuesday said back on that Tuesday read "today")
    # ... nor a plan called off since: the news that it is off is told in its place ("the Zanzibar trip is
    # off" said back, never "you're going to Zanzibar on the 3rd" beside it)
    plain = [t for t in recent if not (t.turn_id and t.turn_id in held)
             and is_told(t.text) and classify(t.text).intent == "statement" and extract_name(t.text, loose=True) is None
             and read_opening_name(t.text) is None
             and not any(u.at > t.at and changed_value(u.text, t.text) is not None for u in told)
             and not _called_off_since(t.text, t.at, recent)]
    latest = sorted([*moments, *((t.at, what_it_tells(t.text)) for t in plain)], key=lambda m: m[0])[-MAX_LISTED:]
    return facts, explicit[-MAX_LISTED:], [(text, said_day(at, now)) for at, text in latest]


def _called_off_since(text: str, at: datetime, said: list[TranscriptTurn]) -> bool:
    """A turn told after `at` tells that what `text` names was called off (asked_value.calls_off)."""
    from interaction.asked_value import calls_off

    return any(u.at > at and calls_off(text, u.text) for u in said)


def told_since(deps: AgentDeps, user_id: str, transcript: list[TranscriptTurn]) -> list[TranscriptTurn]:
    """What the person told, in saved conversations and in this one, oldest first."""
    saved = deps.services.told_turns(user_id) if deps.services is not None and user_id else []
    return sorted([*saved, *said_earlier(transcript)], key=lambda t: t.at)


def as_changed(kept: str, kept_at: str, told: list[TranscriptTurn]) -> str:
    """A kept memory as it holds now: with the value a statement told after it changed it to ("my
    locker code is 4471", then "my locker code changed to 5582": "my locker code is 5582"), the latest
    change last. The memory itself is left as it was kept: what changed it may be forgotten."""
    try:
        since = datetime.fromisoformat(kept_at)
    except ValueError:
        return kept
    for turn in told:
        if turn.at > since and (now := changed_value(turn.text, kept)) is not None:
            kept = now
    return kept


def about_me(deps: AgentDeps, state: dict) -> str:
    """Built only from what is stored; with nothing but a name, says so."""
    identity: Identity = state["identity"]
    facts, explicit, moments = known_facts(deps, identity, state.get("transcript"))
    model = None if deps.turn_offline else deps.llm.for_agent(AGENT)
    if model is not None and (facts or explicit or moments):
        language = state.get("language") or deps.settings.interaction.default_language
        messages = about_me_messages(identity.name or "", facts, explicit, [m for m, _ in moments], state["text"], language)
        answer = deps.ask(AGENT, messages, json_mode=False, phase=RESPONSE, stop=REPLY_STOPS)
        spoken = spoken_part(answer, labels=(USER_LABEL, NADINE_LABEL), own_label=NADINE_LABEL,
                             headings=(ABOUT_ME_HEADING,), instructions=[messages[0]["content"]]) if answer else None
        if spoken:
            return spoken
    return about_me_offline(identity.name or "", facts, explicit, [m for m, _ in moments], [d for _, d in moments])


def about_me_offline(name: str, facts: list[str], explicit: list[str], moments: list[str],
                     said_on: list[SaidDay | None] | None = None) -> str:
    if not (facts or explicit or moments):
        return f"I only know your name so far, {given_name(name)}. Tell me something about yourself and I'll remember it."
    parts = [f"You're {name}" + (", " + profile_wording.listing(facts) if facts else "") + "."]
    if explicit:
        parts.append("You asked me to remember that " + profile_wording.listing(explicit) + ".")
    if moments:
        # said back in Nadine's words, as a recall says them: a quotation would be the person's own "I"
        days = said_on or [None] * len(moments)
        read_ahead(moments)
        # grouped by the day each was told, that day named first: "that day" in what was said back then
        # points at it ("yesterday you told me your daughter was accepted into medical school that day")
        by_day: dict[int, list[str]] = {}
        for moment, said in zip(moments, days, strict=True):
            by_day.setdefault(said.days_ago if said else 0, []).append(reported(moment, said=said))
        for i, (age, said) in enumerate(sorted(by_day.items())):
            told = f"{days_ago_words(age)} you told me ".lstrip()
            parts.append(("And " + told if i == 0 else told[:1].upper() + told[1:]) + profile_wording.listing(said) + ".")
    return " ".join(parts)


def days_ago_words(days: int) -> str:
    """When something was told, as said before "you told me": "" (today), "yesterday", "three days ago"."""
    return "" if days <= 0 else "yesterday" if days == 1 else f"{number_words(days)} days ago"
