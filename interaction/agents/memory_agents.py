"""Memory agents: profile update (MemoryUpdate + name logic), retrieval, and the episodic save."""

from __future__ import annotations

import dataclasses
import json
import logging
from datetime import datetime

from common.messages import ForgetMemory, RecalledMemory, RecallReport
from common.store import SceneStore, UserProfile
from common.store.facts import FactChange, FactSource, Wording, current_values, same_value, says, value_key
from common.store.forget import purge_chroma_documents
from common.store.profile_fields import FIELDS_BY_NAME
from interaction import cues
from interaction.agents.context import AgentDeps
from interaction.agents.episode import summarize
from interaction.answer_span import answer_in
from interaction.dated_it import done_to_it, news_with_it_named
from interaction.forget import forget_one_memory
from interaction.memory.contracts import RetrievalResult, TranscriptTurn
from interaction.memory.retrieval.model_chooser import ModelChooser
from interaction.memory_intent.phrasing import request_content
from interaction.memory_requests import recall_this_session, said_earlier, told_since
from interaction.names import match_name, name_similarity, part_of
from interaction.offline import fact_changes, personal_facts
from interaction.offline.corrections import (
    Correction,
    corrected_in_turn,
    puts_someone_right,
    read_correction,
    says_a_correction,
)
from interaction.offline.extract import extract_name, extract_profile, name_to_ask_about
from interaction.offline.first_meeting import says_never_met
from interaction.offline.grounding import Grounded, Proposal, coordinated, ground, grounded_update, is_name
from interaction.offline.name_claims import (
    NameClaim,
    names_beside_a_request,
    names_others_use,
    read_name_claim,
)
from interaction.offline.name_reading import (
    asked_for_name,
    introduces_only,
)
from interaction.offline.self_description import another_workplace, place_of_work
from interaction.offline.value_changes import tells_a_change, value_change
from interaction.own_life import (
    held_field_asked,
    profile_field_asked,
    question_meant,
    recall_own_life,
    tells_a_fact,
)
from interaction.profile_wording import relation_of
from interaction.profiles import Identity, MemoryUpdate, ProfileOutcome
from interaction.prompts import MEMORY_UPDATE_SYSTEM, history_text
from interaction.state import TurnState

log = logging.getLogger("nadine.interaction.memory_agents")

AGENT = "memory_update_agent"
RECALL_CHOOSER = "recall_chooser"  # which shortlisted memory answers a recall question (an index or none)


def extract(deps: AgentDeps, text: str, identity: Identity, history: list[tuple[str, str]]) -> MemoryUpdate:
    known = identity.profile.model_dump(exclude={"face_image_path", "last_updated"}) if identity.profile else {}
    update = deps.ask_json(AGENT, [
        {"role": "system", "content": MEMORY_UPDATE_SYSTEM},
        {"role": "user", "content": f"Known profile: {json.dumps(known)}\nConversation so far:\n"
                                    f"{history_text(history)}\n\nLatest user message: {text}"},
    ], MemoryUpdate)
    if update is not None:
        if update.user_name and update.user_name.split()[0].casefold() not in text.casefold():
            update = update.model_copy(update={"user_name": None})  # a name nobody said is a guess
        return update
    return extract_profile(text, loose_names=not identity.known,
                           name_asked=not identity.known and asked_for_name(history))


def update_profile(deps: AgentDeps, state: TurnState) -> dict:
    if state.get("name_confirmation") or not deps.settings.interaction.enable_memory_agents:
        return {}
    identity: Identity = state["identity"]
    correction: Correction | None = state.get("correction")
    # a correction is read as the statement it corrects, with the value it puts right, whether it came
    # a turn later or in the same breath ("I'm a taxi accountant... no, I mean a tax accountant")
    text = correction.corrected if correction else corrected_in_turn(state["text"]) or state["text"]
    if correction is not None and identity.user_id:
        undo_corrected_turn(deps, identity, state["corrected_turn"], correction)
        identity.profile = deps.keeper.store.load(identity.user_id) or identity.profile
    profile = identity.profile
    current = {k: current_values(v) for k, v in profile.facts.items()} if profile and identity.user_id else {}
    homes = [r.value for r in profile.history("location") if r.current and r.home is not False] \
        if profile and identity.user_id else []
    extracted = extract(deps, text, identity, state.get("messages", []))
    claim = read_name_claim(text)
    renames = own_name_otherwise(identity, claim, deps.keeper.high, state.get("met_now", False))
    beside: list[str] = []
    if claim is not None and claim.hearsay and identity.known:
        # "most people call me Roz" from someone known: what others call them, neither a rename nor
        # somebody else
        extracted = extracted.model_copy(update={"user_name": None})
    elif claim is not None and (renames or claim.request or not extracted.user_name or any(
            name_similarity(extracted.user_name, n) >= deps.keeper.high for n in names_others_use(text))):
        # the name as the parse placed it ("I'm Kasia, but friends call me Kat": Kasia, whom others call
        # Kat); asked to be called by one ("my name's Robert but call me Bob"), the one they go by, and
        # the name given beside it another of theirs
        if claim.request and extracted.user_name and name_similarity(extracted.user_name, claim.name) < deps.keeper.high:
            beside = [extracted.user_name]
        elif claim.request and renames and identity.name and name_similarity(identity.name, claim.name) < deps.keeper.high:
            # "just call me Teo" from Mateo Silva: the name held stays one of theirs, so "Mateo Silva
            # again" is still them
            beside = [identity.name]
        extracted = extracted.model_copy(update={"user_name": claim.name})
    # what they ask to be called, a title with it or not, is how replies address them
    address = (claim.address or claim.name) if claim is not None and claim.request else None
    if address and identity.known and is_own_name(claim.name, identity.name or "", deps.keeper.high):
        # "call me Dr. Schmidt" or "just call me Greta" from Greta Schmidt: who she is stays as it was
        extracted, renames = extracted.model_copy(update={"user_name": None}), False
    renames = renames or respells_new_name(identity, extracted.user_name, state.get("met_now", False), deps.keeper)
    update, changes, heard = decide_facts(text, extracted, current, identity.name, homes, deps.clock.now())
    update = update.model_copy(update={"other_names": _other_names(text, update, identity, beside),
                                       **({"addressed_as": address} if address else {})})
    if profile is not None and identity.user_id:
        changes += jobs_ending_with_their_employer(profile, update, changes, cues.told_part(text))
        changes += jobs_left_by_their_place(profile, cues.told_part(text), changes)
        changes += workplace_towns_left(profile, cues.told_part(text), changes)
    if state.get("keeping_nothing"):
        # asked to keep nothing more of this conversation: who they are is still heard, what they tell is not
        update, changes, heard = MemoryUpdate(**update.model_dump(include={"user_name", "other_names", "addressed_as"})), [], {}
    source = FactSource(turn_id=state.get("turn_id"), date=deps.clock.now().isoformat(timespec="seconds"))
    applied: list[FactChange] = []
    if identity.user_id and not update.user_name:  # before the keeper's merge, so records keep the turn id
        _, applied = deps.keeper.store.apply(identity.user_id, changes, deps.clock.now(), source)
    carried = state.get("pending_facts") or {}
    wording = {**(state.get("pending_wording") or {}), **heard_wording(heard)}
    guessed = None if update.user_name or identity.known else name_to_ask_about(
        text, state.get("messages") or [], deps.keeper.store.user_ids(), deps.keeper.high)
    if guessed is not None and _a_full_name_of_no_one(guessed, text, deps.keeper):
        # "Good afternoon. Harold Finch, pleased to make your acquaintance.": a given name and a surname,
        # each typed with its capital, that nobody known goes by, is plainly their name (asked about, a
        # turn of news instead of a yes lost all they told)
        update, guessed = update.model_copy(update={"user_name": guessed}), None
    if guessed is not None:
        # a word alone opening the conversation ("Dave."), a known name in a greeting said in words not
        # read ("Hola, soy Lucía"), unasked, or an English word answering her question for the name
        # ("Earl"): likely their name, so asked about
        outcome = deps.keeper.ask_name(identity, guessed, {**carried, **update.facts()})
    else:
        outcome = deps.keeper.save_user_info(identity, update, carried, wording, renames=renames,
                                             never_met=bool(update.user_name) and (
                                                 claim is not None and claim.another or says_never_met(deps, text)),
                                             said=text)
    if outcome.kind in ("updated", "linked", "new", "conflict_new", "renamed") and outcome.identity.user_id and not applied:
        _, applied = deps.keeper.store.apply(outcome.identity.user_id, changes, deps.clock.now(), source)
    if applied and outcome.identity.user_id:
        outcome.identity.profile = deps.keeper.store.load(outcome.identity.user_id) or outcome.identity.profile
        if outcome.kind == "none":
            outcome = ProfileOutcome("updated", outcome.identity, learned=outcome.learned)
    outcome.learned = _stored(outcome) if outcome.kind != "pending" else outcome.learned
    outcome.wording = wording
    result: dict = {"profile_outcome": outcome, "identity": outcome.identity, "fact_changes": applied,
                    "fact_wording": heard}
    if outcome.kind == "confirm":
        result["name_confirmation"] = outcome.confirmation
    elif outcome.kind == "pending":
        result["pending_facts"] = {**carried, **outcome.learned}
    elif outcome.kind != "none":
        result["pending_facts"] = {}
    return result


def facts_told(deps: AgentDeps, text: str) -> dict:
    """The profile facts `text` tells of the speaker, read as any statement's, while who the speaker is
    waits on the answer to "is your name ...?" (they go with the question to whoever that is)."""
    update, _, _ = decide_facts(text, extract(deps, text, Identity(), []), {}, now=deps.clock.now())
    return update.facts()


def _other_names(text: str, update: MemoryUpdate, identity: Identity, beside: list[str]) -> list[str]:
    """The names the speaker says others call them by, and their own names said `beside` a request to
    be called by another (the full name of "I'm Wilhelmina, but call me Mina"), with those held ([]
    when none is new): never the name they go by."""
    held = list(identity.profile.other_names) if identity.profile and identity.user_id else []
    own = [n for n in (update.user_name, identity.name) if n and n not in beside]
    said = [*names_others_use(text), *beside, *names_beside_a_request(text)]
    new = [n for n in dict.fromkeys(said) if not any(name_similarity(n, o) >= 0.99 for o in [*own, *held])]
    return [*held, *new] if new else []


def own_name_otherwise(identity: Identity, claim: NameClaim | None, high: float, met_now: bool) -> bool:
    """The known speaker says their own name is otherwise: asks to be called by it, or says it as a
    correction; the name they disown, if any, is the one held. Known by face alone, only a request to
    be called renames: "actually, my name is Tobias" or "no, I'm Anna, not Robert" may say the face
    was taken for someone else's (a face match can be wrong, and a rename would hand Robert's memories
    to Anna), which the reference makes a new person. So may a name typed in an earlier conversation
    ("that was my brother earlier, I'm actually Jordan" after "Alex here"): a correction renames it
    only in the conversation it was given in (`met_now`), unless it is said as their own name, the
    other a short one ("my real name is Rebecca, Bex is just a nickname")."""
    if claim is None or not identity.known or not (claim.request or claim.corrects) or claim.another:
        return False  # "I'm a different Sofia" is someone else of the name, never the one known renamed
    if identity.source == "face" and not claim.request:
        return False
    if not met_now and not (claim.request or claim.qualified):
        return False
    return claim.disowned is None or name_similarity(claim.disowned, identity.name or "") >= high


def _a_full_name_of_no_one(name: str, text: str, keeper) -> bool:  # noqa: ANN001 - ProfileKeeper
    """`name` is a given name and a surname, each as typed with its capital in `text`, said with more
    than itself (a name alone, "Walter Sparrow.", may be a word said to no one), and no one known goes by
    a name like it."""
    words = name.split()
    said_with_more = text.strip(" .!,").casefold() != name.casefold()
    return len(words) > 1 and said_with_more and all(w[:1].isupper() and w in text for w in words) \
        and match_name(name, keeper.store.user_ids(), keeper.high, keeper.low).kind == "none"


def respells_new_name(identity: Identity, name: str | None, met_now: bool, keeper) -> bool:  # noqa: ANN001 - ProfileKeeper
    """The speaker met in this conversation by the name they typed gives a name spelt close to it (the
    band that would ask "is your name ...?", or one that sounds alike): the name just given put right
    ("it's Kathrin with an h" after "I'm Katrin"), plainly told, so no yes is needed. Known from an
    earlier conversation, or by face, a close name may be someone else's and is asked about as before."""
    if not (name and met_now and identity.known and identity.source == "dialogue" and identity.user_id):
        return False
    return match_name(name, {identity.user_id: identity.name or ""}, keeper.high, keeper.low).kind == "ambiguous"


def is_own_name(name: str, held: str, high: float) -> bool:
    """`name` is the name held or a part of it (the surname of "Greta Schmidt")."""
    return name_similarity(name, held) >= high or part_of(name, held)


def gives_another_name(deps: AgentDeps, state: TurnState) -> bool:
    """The known speaker names themselves otherwise this turn ("you know what, call me Ilse", which the
    memory classifier reads as "what do you know about me"): who they are is settled first, and no
    request of memory is served for either name on that turn ("it's Gruyères" in a request to remember
    names no one)."""
    identity: Identity = state["identity"]
    claim = read_name_claim(state["text"]) if identity.known else None
    return claim is not None and own_name_otherwise(identity, claim, deps.keeper.high, state.get("met_now", False)) \
        and name_similarity(claim.name, identity.name or "") < deps.keeper.high


def names_a_stranger(deps: AgentDeps, state: TurnState) -> bool:
    """Someone not known yet gives their name in the turn that asks something of memory ("Hi, I'm
    Lucy, please remember my locker is 12"): who they are is settled first, and the request is theirs."""
    return not state["identity"].known and state["intent"] == "update_user_info" \
        and extract_name(state["text"]) is not None


CORRECTABLE_TURNS = 3  # a correction puts right one of the person's last few statements


def correction_of(deps: AgentDeps, state: TurnState, u) -> dict:  # noqa: ANN001 - TurnUnderstanding
    """The turn corrects a value of one of the person's latest statements in this conversation ("sorry,
    I meant Gdynia"): {"correction", "corrected_turn"}; {} otherwise (a request of memory, a question,
    a name still to confirm, or nothing to put right). A taking back that the memory classifier hears
    as a forget ("I meant the 15th, not the 14th") is a correction when it puts a statement right: the
    parse names what replaces what, which a request to forget never does."""
    # a goodbye puts nothing right ("Grand, talk soon!" after a password: "Grand" is no new password)
    if u.memory_intent not in (None, "statement", "forget_one") or state.get("name_confirmation") \
            or cues.is_unambiguous_farewell(state["text"]):
        return {}
    earlier = [t for t in reversed(state.get("transcript", [])[:-1]) if t.role == "user" and t.tells]
    earlier = earlier[:CORRECTABLE_TURNS]
    found = read_correction(state["text"], [t.text for t in earlier])
    if found is None:
        found, earlier = _correction_of_saved(deps, state)
    held = state["identity"].name
    if found is None or (held and name_similarity(found.old, held) >= deps.keeper.high):
        return {}  # the person's own name put right is a rename, read by the name logic
    if not found.disowned and extract_name(state["text"]) is not None and not puts_someone_right(found):
        # "ok, it's Mirella now": someone saying who they are, not a town put right; "sorry, it's Verdi"
        # after "my favourite composer is Puccini" is the composer put right
        return {}
    return {"correction": found, "corrected_turn": next(t for t in earlier if t.text == found.earlier)}


def kept_value_changed(deps: AgentDeps, state: TurnState, u) -> dict:  # noqa: ANN001 - TurnUnderstanding
    """The turn gives a thing the person asked to be remembered, or told of, a new value ("the garage
    moved my MOT to the 22nd" over "my MOT is on the 15th"; "the wedding got moved to June" over "my
    cousin is getting married in May", told last week): {"changed_memory": that memory as it holds
    now}, so the reply says the change was taken; {} otherwise, and when two things of the person's
    it could be hold different values (a wrong one changed is worse than none). What was kept or told
    stays as it was said (what holds now is read from both, memory_requests.as_changed and the
    retrieval core's later news). A change of "it" is read as one of the thing last told with a date,
    and the conversation keeps it so ({"it_named": the turn with that thing named}), as a recall reads it;
    so is news of what was done to "it" ("it's been cancelled"), which changes no value."""
    identity: Identity = state["identity"]
    if u.memory_intent not in (None, "statement") or deps.services is None or not identity.known \
            or not identity.user_id:
        return {}
    changes = tells_a_change(state["text"])
    if not changes and not done_to_it(state["text"]):
        return {}
    memories = deps.services.explicit.list(identity.user_id)
    told = told_since(deps, identity.user_id, state.get("transcript", []))
    # "they moved it to the 16th": "it" is the thing last told with a date, asked to be kept or told
    said = sorted([*told, *(TranscriptTurn("user", k.text, datetime.fromisoformat(k.occurred_at)) for k in memories
                                  if k.occurred_at)], key=lambda t: t.at)
    named = news_with_it_named(state["text"], said)
    if not changes:
        return {"it_named": named} if named else {}
    earlier = dict.fromkeys([*(k.text for k in reversed(memories)), *(t.text for t in reversed(told))])
    found = [c for c in (value_change(named or state["text"], e) for e in earlier) if c is not None]
    if not found or len({replaced.casefold() for _, replaced in found}) > 1:
        return {}
    return {"changed_memory": found[0][0], **({"it_named": named} if named else {})}


def _correction_of_saved(deps: AgentDeps, state: TurnState) -> tuple[Correction | None, list[TranscriptTurn]]:
    """The turn says outright that a statement of the person's saved conversations was not meant ("I
    meant Kinsale, not Cork" the next day): one of the last few things they told, or, when they name
    the words they take back, the latest statement that holds them; (None, []) otherwise. "It's
    Friday" at the start of a visit puts nothing of an earlier one right."""
    identity: Identity = state["identity"]
    if deps.services is None or not identity.known or not identity.user_id or not says_a_correction(state["text"]):
        return None, []
    # what they asked to be remembered is told too, kept as its own memory rather than as a turn
    kept = [TranscriptTurn("user", k.text, datetime.fromisoformat(k.occurred_at), k.source_turn)
            for k in deps.services.explicit.list(identity.user_id) if k.source_turn]
    told = sorted([*deps.services.told_turns(identity.user_id), *kept], key=lambda t: t.at, reverse=True)
    recent = told[:CORRECTABLE_TURNS]
    found = read_correction(state["text"], [t.text for t in recent])
    if found is not None:
        return found, recent
    found = read_correction(state["text"], [t.text for t in told])
    return (found, told) if found is not None and found.disowned else (None, [])


def undo_corrected_turn(deps: AgentDeps, identity: Identity, turn: TranscriptTurn, correction: Correction) -> None:
    """What the corrected turn stored goes: its profile fact records (a value it superseded is current
    again, as if the slip was never said); an explicit memory it kept is kept again, and a moment it
    was kept as keeps, the corrected words."""
    uid = identity.user_id or ""
    if turn.turn_id:
        deps.keeper.store.forget_turns(uid, frozenset({turn.turn_id}), deps.clock.now())
    services = deps.services
    if services is None or not turn.turn_id:
        return
    # a statement of a saved conversation: its session keeps the corrected words, and Chroma's log
    # keeps no record of the slip
    rewritten = services.reword_turn(uid, turn.turn_id, correction.earlier, correction.corrected, correction.old,
                                     correction.new, lambda turns, name: summarize(deps, turns, name))
    if rewritten is not None and deps.settings.interaction.chroma.mode == "embedded":
        purge_chroma_documents(deps.layout.chroma_dir, rewritten.collection_id, rewritten.doc_ids)
    scenes = SceneStore(deps.layout)
    reworded = [scenes.reword(uid, s.scene_id, correction.corrected) for s in scenes.list(uid)
                if s.scene_type == "moment" and s.turn_id == turn.turn_id]
    if any(reworded):
        services.on_scenes_changed(uid)
    for kept in services.explicit.list(uid):
        if kept.source_turn == turn.turn_id:
            forget_one_memory(deps.layout, ForgetMemory(user_id=uid, kind="explicit_memory", memory_id=kept.memory_id),
                              deps.clock.now(), services, lambda turns, name: summarize(deps, turns, name),
                              deps.settings.interaction.chroma.mode == "embedded")
            # the memory itself put right is its new words; a request put right, what it asks to keep
            kept_now = correction.corrected if correction.earlier == kept.text else request_content(correction.corrected)
            services.explicit.add(uid, identity.name or "", kept_now, turn.turn_id)


def jobs_left_by_their_place(profile: UserProfile, text: str, changes: list[FactChange]) -> list[FactChange]:
    """A job told with where it is ("I work at the Mater clinic as a porter") ends when the speaker
    tells they left that place ("I quit the clinic"): the place is in the words the job was told in,
    not in the job itself ("I left the party early" ends no party planner's job)."""
    if any(c.field in ("current_position", "current_company") for c in changes):
        return []
    held = [r for r in profile.history("current_position") if r.current and r.clause]
    if not held:
        return []
    places = [" ".join([*(w.text for w in t.lefts if w.dep_ == "compound"), t.text])
              for t in personal_facts.things_left(text) if t.pos_ == "NOUN"]
    return [FactChange(field="current_position", op="close", value=r.value) for r in held
            if any(says(r.clause, place) and not says(r.value, place) for place in places)]


def workplace_towns_left(profile: UserProfile, text: str, changes: list[FactChange]) -> list[FactChange]:
    """The town a workplace was told in ("I work at a bookshop in Porto": Porto, said as no home) ends
    when the speaker tells they left that workplace ("ok I quit the bookshop, now I'm a barista" was
    answered "You work at a bookshop in Porto"), unless the turn places them anew itself."""
    if any(c.field == "location" for c in changes):
        return []
    left = [t.text for t in personal_facts.things_left(text) if t.pos_ == "NOUN"]
    return [FactChange(field="location", op="close", value=r.value) for r in profile.history("location")
            if r.current and r.home is False and r.clause and any(says(r.clause, place) for place in left)]


def jobs_ending_with_their_employer(profile: UserProfile, update: MemoryUpdate, changes: list[FactChange],
                                    text: str) -> list[FactChange]:
    """A job told with its employer ("I'm a cashier at Spar") ends when that employer does ("I left
    Spar", "I started at Volvo"), unless a job is told in the same breath: it was the job there."""
    if update.current_position or any(c.field == "current_position" and c.op != "close" for c in changes):
        return []
    held = current_values(profile.history("current_company"))
    ended = [c.value or v for c in changes if c.field == "current_company" and c.op == "close" for v in held
             if c.value is None or same_value(c.value, v)]
    new = [v for v in [update.current_company, *(c.value for c in changes if c.field == "current_company"
                                                  and c.op != "close")] if v]
    if new:  # a new employer: the one before has ended (the same one said again has not)
        ended += [h for h in held if not any(same_value(h, n) for n in new)]
    # ... and where they work, though said by its kind alone and so no employer ("I work in a bookshop
    # now" after "I work as a baker at a village bakery"): a job told at another place has ended
    now_at = place_of_work(text)
    return [FactChange(field="current_position", op="close", value=r.value)
            for r in profile.history("current_position")
            if r.current and (any(says(r.clause, company) for company in ended)
                              or now_at is not None and (then := place_of_work(r.clause or "")) is not None
                              and another_workplace(then, now_at))]


def _as_kept(g: Grounded) -> str:
    """The value a fact keeps: a workplace with no clause to be said back in (told without a subject:
    "just got promoted at the bank!!") with the article it was said with, never "you work at bank"."""
    return g.said if g.field == "current_company" and g.clause is None else g.value


def heard_wording(heard: dict[str, Grounded]) -> Wording:
    """How each value heard this turn was said, as the profile keeps it."""
    return {(g.field, value_key(g.value)): g.words for g in heard.values()}


def decide_facts(text: str, update: MemoryUpdate, current: dict[str, list[str]], known_name: str | None = None,
                 homes: list[str] | None = None, now: datetime | None = None
                 ) -> tuple[MemoryUpdate, list[FactChange], dict[str, Grounded]]:
    """What one utterance does to the profile: the extraction's facts and the fact changes (each with
    how it was said), each kept only where the speaker said its value about themselves (grounding.py);
    and each kept value's grounding. `current`: the person's current facts (field -> values); `homes`:
    the current places said as their home (default: every current location); `now`: when it was said
    (a time named ahead of it makes a plan, not a fact). Its questions tell nothing."""
    names = (update.user_name, known_name, extract_name(text))
    text = cues.told_part(text)
    update, kept = grounded_update(text, update, names, now)
    # a turn that only says who the speaker is ("hey its Dev") changes no fact, whatever the model reads
    decided = [] if introduces_only(text) else fact_changes.decide(text, update.facts(), current)
    # a person of theirs named in the turn is nobody's workplace, home or pastime ("I run a bakery with
    # my partner Jonas": the tagger may mark "Jonas" as where they work)
    read_off_the_parse = personal_facts.read(text)
    told_people = {held[0].casefold() for v in [*update.relations, *(g.value for g in read_off_the_parse
                                                                     if g.field == "relations")]
                   if (held := relation_of(v))}
    decided = [c for c in decided if c.field == "relations" or not c.value or c.value.casefold() not in told_people]
    valued = [c for c in decided if c.value]
    found = dict(zip(map(id, valued), ground(
        text, [Proposal(c.field, c.value or "", c.op != "close") for c in valued], names, kept, now), strict=True))
    changes = []
    for c in decided:  # a close that names no value ends the field's current one and needs none
        g = found.get(id(c))
        if c.value and g is None:
            # the value stays out of the log: it is the person's words (a name, a place), erased by a forget
            log.info("not stored: %s %s: not said by the speaker about themselves", c.op, c.field)
        else:
            # the value as the grounding found its words ("new bakery" where the tagger marked its "the")
            changes.append(c.model_copy(update={**g.words.model_dump(), "value": _as_kept(g)})
                           if g is not None and c.op != "close" else c)
    grounded = [*kept, *(g for g in found.values() if g is not None)]
    # where they are from, their home said in other ways, their age and their people by name: read off
    # the parse as said of the speaker (personal_facts.py), each a fact of its own
    for g in read_off_the_parse:
        # a person of theirs by the speaker's own name is no one of theirs ("my colleague Lars wants to
        # say hi, Lars just took the keyboard, I'm Lars": the one before him told of him)
        held = relation_of(g.value) if g.field == "relations" else None
        # (a home said beside a workplace's town is still their home: "I work at a theatre in Bristol
        # and live in Clifton")
        if not any(o.field == g.field and (same_value(o.value, g.value) or not FIELDS_BY_NAME[g.field].multi
                                           and not (g.home and o.home is False))
                   for o in grounded) and not is_name(held[0] if held else g.value, names):
            changes.append(FactChange(field=g.field, op="set", value=g.value, **g.words.model_dump()))
            grounded.append(g)
    # a person of theirs they tell they have left is one no longer ("I broke up with Marco")
    people = {v: held[0].casefold() for v in current.get("relations", []) if (held := relation_of(v))}
    left = {name.casefold() for name in personal_facts.ended_relations(text, frozenset(people.values()))}
    changes += [FactChange(field="relations", op="close", value=v) for v, name in people.items() if name in left]
    # ... or that they are parted, as a state of theirs ("I'm divorced now"): from the one they name, or
    # from their spouse
    if (parted := personal_facts.parted_as_a_state(text)) is not None:
        changes += [FactChange(field="relations", op="close", value=v) for v in current.get("relations", [])
                    if (held := relation_of(v)) and held[1] and not any(c.value == v for c in changes)
                    and (held[1].casefold() in parted if parted else personal_facts.a_spouse(held[1]))]
    # a value said in one breath with another ("I play tennis and the piano") is a fact of its own
    for also in coordinated(text, grounded):
        changes.append(FactChange(field=also.field, op="set", value=also.value, **also.words.model_dump()))
        grounded.append(also)
    # a job's or a workplace's town is where they live only while no home is known: it never replaces
    # one said before ("I live in Lisbon", later "I work at a law firm in Porto")
    homes = (current.get("location") or []) if homes is None else homes
    away = {g.value for g in grounded if g.field == "location" and not g.home and homes
            and not any(same_value(g.value, h) for h in homes)}
    if away:
        log.info("not stored: location: a workplace's place while a home is known")
        update = update.model_copy(update={"location": None}) if update.location in away else update
        changes = [c for c in changes if not (c.field == "location" and c.value in away)]
    return _with_changes(update, changes), changes, {g.value: g for g in grounded}


def _stored(outcome: ProfileOutcome) -> dict:
    """Of the facts heard this turn, those the profile now holds as current: what a reply may confirm."""
    profile = outcome.identity.profile
    if profile is None:
        return {}
    stored: dict = {}
    for key, value in outcome.learned.items():
        held = getattr(profile, key, None)
        if isinstance(value, list):
            items = [v for v in value if isinstance(held, list) and any(same_value(v, h) for h in held)]
            if items:
                stored[key] = items
        elif isinstance(held, str) and same_value(str(value), held):
            stored[key] = value
    return stored


def _with_changes(update: MemoryUpdate, changes: list[FactChange]) -> MemoryUpdate:
    """The extraction as the fact changes decided it: a closed field's value is not a new fact, and a
    new value the extraction missed ("I relocated to Oslo") is one."""
    data = update.model_dump()
    for change in changes:
        if change.op == "close":
            data[change.field] = [] if isinstance(data[change.field], list) else None
    for change in changes:
        if change.op != "close" and change.value:
            if isinstance(data[change.field], list):
                # the extraction and a fact change may both find one value: it is one fact
                if not any(same_value(change.value, v) for v in data[change.field]):
                    data[change.field] = [*data[change.field], change.value]
            else:
                data[change.field] = change.value
    return MemoryUpdate.model_validate(data)


def retrieval_step(deps: AgentDeps, state: TurnState) -> dict:
    """The turn's retrieval. A question about the person's own life that memory answers becomes a
    recall of that memory, ahead of the web search and the knowledge base (own_life.py); what Nadine sees now is not asked
    of memory."""
    plan = state.get("plan_steps") or []
    own = recall_own_life(deps, state)
    # "am I running a marathon?" reads as what the camera shows, like "am I smiling?": what they told
    # answers it when memory asserts an answer, and the view otherwise
    sees = any(s.agent == "vision_agent" for s in plan) and (own is None or own.outcome != "asserted")
    own = None if sees else own
    from_memory = {"plan_steps": [s for s in plan if s.agent not in ("search_agent", "knowledge_rag_agent", "vision_agent")]}
    found = retrieve(deps, state) if own is None else None
    recalled = own if own is not None else found.recall if found is not None else None
    asserted = recalled is not None and recalled.outcome == "asserted"
    # what their profile holds answers it ("do you know where I work?"), in the words it was told; where
    # the memory asserted is where one of its facts was told, the reply says that fact as it holds now
    field = None if sees else held_field_asked(state["identity"], state["text"], asserted)
    if field is None and not sees and (not asserted or tells_a_fact(state["identity"], recalled)):
        field = profile_field_asked(deps, state)
    if field is not None and not asserted:
        return {"retrieval": None, "profile_field": field, **from_memory}
    answered = {"profile_field": field} if field is not None else {}
    if own is None:
        return {"retrieval": found, **answered}
    if own.outcome == "abstained":  # said to be untold; what the turn asks of memory stays as understood
        return {"retrieval": RetrievalResult(recall=own, details={"mode": "own_life"}), **from_memory, **answered}
    return {"retrieval": RetrievalResult(recall=own, details={"mode": "own_life"}), "is_recall": True,
            "memory_intent": "recall", **from_memory, **answered}


def retrieve(deps: AgentDeps, state: TurnState) -> RetrievalResult | None:
    """The long-term retrieval; on a recall turn also this conversation's own statements, whose
    decision becomes the turn's recall when it asserts one of them (unless the long-term memories
    assert the same words), or offers one where the long-term memories assert nothing; no other memory
    is shown with it then."""
    if state.get("is_recall"):
        # "which city is he going to?" asks of the person the conversation last named
        state = {**state, "text": question_meant(state)}
    found = _long_term(deps, state)
    if not state.get("is_recall"):
        found = _not_of_this_conversation(found, state.get("transcript") or [])
        return _not_against_the_news(_of_what_it_tells(deps, found, str(state.get("text", ""))), state)
    this_session = recall_this_session(deps, state)
    if this_session is None:
        if found is not None and found.recall is not None and found.recall.outcome == "asserted":
            return dataclasses.replace(found, recall=_with_news_told_since(found.recall, state.get("transcript") or []))
        if found is None and state.get("is_recall") and not state["identity"].known:
            # nobody known holds no memory: the recall is decided, and abstains (a stranger's "do you
            # remember when we met?" is told so, and the notes say nothing was stored to recall)
            return RetrievalResult(recall=RecallReport(outcome="abstained"), details={"mode": "nobody known"})
        return found
    said = {m.text.strip().casefold() for m in this_session.memories}
    long_term = found.recall if found is not None else None
    if long_term is not None and long_term.outcome == "asserted" and (this_session.outcome == "offered" or said <= {
            m.text.strip().casefold() for m in long_term.memories} or _answers_alone(state["text"], long_term, this_session)):
        # the same words already stored (a moment of this conversation): the stored one carries its picture;
        # or only the stored one holds what is asked ("when are my harp lessons?": the lessons kept, not
        # "I teach the harp" said since)
        return found
    return RetrievalResult(recall=this_session, details={"mode": "this_session"})


def _answers_alone(question: str, first: RecallReport, other: RecallReport) -> bool:
    """Of two asserted recalls, only the first's memories hold the answer to the question (answer_span)."""
    def answers(recall: RecallReport) -> bool:
        return any(answer_in(question, m.text) is not None for m in recall.memories)

    return other.outcome == "asserted" and answers(first) and not answers(other)


def _with_news_told_since(recall: RecallReport, transcript: list[TranscriptTurn]) -> RecallReport:
    """The recall with what this conversation told since of what it asserts (later_news.updates: "the
    stag do is cancelled" after "I'm off to Lisbon for a stag do"), latest last: the long-term store
    does not hold this conversation yet, so its decision could not bring that news along."""
    from interaction.memory.retrieval.later_news import updates

    said = {m.text.strip().casefold() for m in recall.memories}
    news = [RecalledMemory(kind="turn", memory_id=f"this_session:{t.turn_id or i}", text=t.text, occurred_at=t.at.isoformat())
            for i, t in enumerate(said_earlier(transcript))
            if t.text.strip().casefold() not in said and any(updates(t.text, m.text) for m in recall.memories)]
    return recall.model_copy(update={"memories": [*recall.memories, *news]}) if news else recall


def _not_of_this_conversation(found: RetrievalResult | None, transcript: list[TranscriptTurn]) -> RetrievalResult | None:
    """An ordinary turn's scene, unless it keeps words said in this conversation: those are in its
    history already, and bringing them up as a memory ("That reminds me — earlier today you told me
    <what was said a minute ago>") repeats the person back to themselves."""
    scene = found.scene if found is not None else None
    if scene is None or not scene.injected or not scene.user_message:
        return found
    said = {t.text.strip().casefold() for t in transcript if t.role == "user"}
    if scene.user_message.strip().casefold() not in said:
        return found
    return dataclasses.replace(found, scene=dataclasses.replace(scene, injected=False))


def _of_what_it_tells(deps: AgentDeps, found: RetrievalResult | None, text: str) -> RetrievalResult | None:
    """An ordinary turn's scene, when the turn names a thing the moment tells of, and nothing of it
    conflicts: "the leeks at my allotment took all summer" brings back the leeks the flood ruined, but
    a morning's run is another event than the marathon told last week ("I went for a run this morning,
    just 5k" is no "That reminds me — ... the Lisbon marathon"), which only its verb names. Without
    the entity reader, the similarity alone decides."""
    scene = found.scene if found is not None else None
    entities = getattr(getattr(deps.services, "core", None), "entities", None)
    if scene is None or not scene.injected or not scene.user_message or entities is None:
        return found
    compared = entities.compare(text, scene.user_message)
    if compared.told_of > 0 and not compared.conflict:
        return found
    return dataclasses.replace(found, scene=dataclasses.replace(scene, injected=False))


_FELT_SIGN = {"happy": "positive", "sad": "negative", "angry": "negative", "fearful": "negative", "disgusted": "negative"}


def _not_against_the_news(found: RetrievalResult | None, state: TurnState) -> RetrievalResult | None:
    """An ordinary turn's scene, unless what is told now is news of a plan it kept, or what it kept
    feels the other way from what is told now: good
    news of something they were worried about ("Diego is back at school!" and last week's "I'm so
    worried, Diego is ill") settles the worry, and bringing the worry up again ("That reminds me —
    you told me you're really worried ...") answers their joy with it; bad news is not met with an
    old joy either, nor with a memory of no feeling. The sign of each: the turn's named feeling, else
    the offline polarity of its words (offline/replies.news_sign), and the polarity of the scene's words."""
    from interaction.offline.replies import news_sign

    scene = found.scene if found is not None else None
    if scene is None or not scene.injected or not scene.user_message:
        return found
    from interaction.memory.retrieval.later_news import updates

    text = str(state.get("text", ""))
    if _a_plan(scene) and updates(text, scene.user_message):
        # news of a thing it kept as still to come ("the street party got postponed" over "our street
        # party is on the 7th"): what it said may no longer hold, and saying it back as a memory would
        # give the old plan; a moment of the past stays one ("the leeks took all summer to grow")
        return dataclasses.replace(found, scene=dataclasses.replace(scene, injected=False))
    u = state.get("understanding")
    now = _FELT_SIGN.get(u.user_emotion.label) if u is not None else None
    now = now or news_sign(text)
    then = news_sign(scene.user_message)
    # bad news is met only with a memory of the same feeling: "my dog Mel died this morning" is not
    # the moment to be reminded she was "the love of my life", told calmly once
    if now is None or now == then or (then is None and now != "negative"):
        return found
    return dataclasses.replace(found, scene=dataclasses.replace(scene, injected=False))


def _a_plan(scene) -> bool:  # noqa: ANN001 - a RecalledScene
    """The moment named a time still ahead when it was kept."""
    from interaction.told_time import told_in

    try:
        kept = datetime.fromisoformat(scene.timestamp) if scene.timestamp else None
    except ValueError:
        return False
    told = told_in(scene.user_message, kept) if kept is not None else None
    return told is not None and not told.passed(kept)


def _long_term(deps: AgentDeps, state: TurnState) -> RetrievalResult | None:
    identity: Identity = state["identity"]
    if deps.services is None or not deps.settings.interaction.enable_memory_agents or not identity.known:
        return None
    try:
        return deps.services.retrieve(identity.user_id or "", state["text"], bool(state.get("is_recall")),
                                      recall_chooser(deps) if state.get("is_recall") else None)
    except Exception:  # memory trouble must not cost the reply
        log.exception("memory retrieval failed for %s; answering without memories", identity.user_id)
        return None


def recall_chooser(deps: AgentDeps) -> ModelChooser | None:
    """The configured model as the recall decision, inside the turn's understanding budget (the
    reply has not been asked for yet); None when the agent is offline: the calibrated decision."""
    core = getattr(deps.services, "core", None)
    if deps.turn_offline or core is None or deps.llm.for_agent(RECALL_CHOOSER) is None:
        return None
    return ModelChooser(lambda messages, schema: deps.ask_json(RECALL_CHOOSER, messages, schema),
                        core.chooser, lambda judged: judged.candidate.quote)


def save_episode(deps: AgentDeps, identity: Identity, transcript: list[TranscriptTurn],
                 replies: int | None = None) -> bool:
    """Summarise the session and hand it to memory (unknown users are never saved); `replies`: how
    many times Nadine replied in it."""
    if deps.services is None or not identity.known or not any(t.role == "user" for t in transcript):
        return False
    if not deps.settings.interaction.enable_memory_agents:
        return False
    summary = summarize(deps, transcript, identity.name or "", replies)
    try:
        return deps.services.save_episode(identity.user_id or "", identity.name or "", transcript, summary)
    except Exception:
        log.exception("episodic save failed for %s", identity.user_id)
        return False
