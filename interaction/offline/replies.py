"""Template replies for the offline backend. They only state what the inputs hold: a remembered
moment is said back from its stored utterance as reported speech (reported_speech.py, the wording
the model's prompt gives too), and with no memory the reply says so."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from datetime import datetime

from common.messages import RecalledMemory
from common.store.facts import latest_ended, says
from common.store.profile_fields import FIELDS_BY_NAME
from interaction import cues, profile_wording
from interaction.answer_span import ANSWER_FIRST, names_what_is_asked, slot_asked
from interaction.asked_value import (
    asks_from_today,
    calls_off,
    denied_outright,
    denies_what_is_asked,
    only_intended_then,
    said_of_someone_else,
    says_what_is_asked,
    someone_asked_of_is_untold,
    still_to_come,
    told_as_wished,
    whether_told,
)
from interaction.clock_question import day_said, in_the_clocks_form
from interaction.confirmation.reader import bare_answer, read_offline
from interaction.memory.retrieval.core import names_all_asked
from interaction.memory.retrieval.spelling import names_as_told
from interaction.memory.told import is_told, only_thanks
from interaction.memory_intent.classifier import classify
from interaction.memory_intent.phrasing import request_content
from interaction.names import confirmation_question
from interaction.offline import personal_facts
from interaction.offline.articles import with_article
from interaction.offline.corrections import corrected_in_turn
from interaction.offline.embedded_question import direct_question
from interaction.offline.knowledge_rephrase import spoken_knowledge
from interaction.offline.name_reading import asked_for_name, name_asked_enough
from interaction.offline.parsing import told_as_present
from interaction.offline.question_form import (
    asks_back_their_own,
    asks_her_memory,
    asks_if_known,
    asks_what_was_told,
    asks_whether,
    asks_why,
    pleads_not_to_tell,
    request_of_nadine,
    statement_tagged,
    told_in_confidence,
)
from interaction.offline.self_description import another_workplace, place_of_work
from interaction.offline.wishes import wishes_the_listener
from interaction.own_life import asks_after_own, thing_asked, thing_told
from interaction.reply_inputs import ReplyInputs
from interaction.reported_speech import reported, said_day, told_back
from interaction.session_gist import gist
from interaction.told_time import asks_how_long_back, from_now, how_long_asked, it_is, time_until, told_in
from interaction.turn_act.reader import turn_act
from interaction.turn_understanding import Emotion

_EMPATHY = {
    "happy": "That's wonderful{hi}! I'm really happy for you.",
    "sad": "I'm sorry to hear that{hi}. I'm here if you want to talk about it.",
    "angry": "That sounds really frustrating{hi}. I understand why you're upset.",
    "fearful": "That sounds worrying{hi}. I hope it turns out well.",
    "surprised": "Wow, that is surprising!",
    "disgusted": "Oh no, that sounds unpleasant.",
}
# news the polarity finds good or bad, told without a feeling strong enough to name: its kind is said back
_NEWS = {
    "positive": "That sounds like good news{hi}! Tell me more about it.",
    "negative": "That doesn't sound easy{hi}. Tell me more about it, if you like.",
}
# a detail said of the news told just before ("He was 18." after the cat died) keeps its tone
_GOING_ON = {
    "positive": "How lovely{hi}! Tell me more.",
    "negative": "I see{hi}. Take your time, I'm listening.",
}
# a yes or a no when nothing was asked, or a backchannel: taken as said, with nothing asked back
_ACKNOWLEDGED = "All right{hi}."
# Felt this strongly, a person's news deserves an answer even on a turn that introduces them: the
# storage threshold, where a moment becomes worth keeping. A greeting's politeness ("good morning")
# stays below it.
_NEWS_INTENSITY = 0.5
# how likely news must be good or bad for the reply to say it is ("That sounds like good news"):
# chosen on the reply-feeling judge's dev splits (scripts/eval/news_line.py)
NEWS_LINES = {"positive": 0.55, "negative": 0.55}
# "where did I live before?": the latest value that ended, from the fact history
_ASKS_BEFORE = [
    (re.compile(r"\bwhere (?:did|have) i (?:use to |used to )?(?:work|been working)\b|"
                r"\b(?:previous|former|old|last) (?:job|employer|company|workplace)\b", re.I), "current_company"),
    (re.compile(r"\bwhat (?:did|have) i (?:use to |used to )?(?:do|work as)\b|\b(?:previous|former|old) (?:position|role)\b", re.I),
     "current_position"),
    (re.compile(r"\bwhere (?:did|have) i (?:use to |used to )?(?:live|stay)\b|"
                r"\b(?:previous|former|old) (?:home|address|city|town|place)\b", re.I), "location"),
    (re.compile(r"\bwhat (?:did|have) i (?:use to |used to )?(?:like|enjoy|play|do for fun)\b|\b(?:old|former) hobb", re.I),
     "hobbies"),
]
# a position that says the job it names was left (closed: the adjectives of having left a post)
_FORMERLY = re.compile(r"(?:(?:retired|former)\s+|ex-)(\w.*)", re.I)
_BEFORE = re.compile(r"\b(?:before|previously|used to|use to|formerly|in the past|earlier)\b|"
                     r"\b(?:previous|former|old|last) (?:job|employer|company|workplace|position|role|home|address|city|town|place|hobb)",
                     re.I)
_ASKS = [
    (re.compile(r"\b(what(?:'?s| is) my name|who am i(?=\W*$)|do you know (?:who i am|my name))\b", re.I), "user_name"),
    (re.compile(r"\bwhere do i (?:work|work at)\b|\bwhat(?:'?s| is) my (?:company|employer)\b|"
                r"\bwhich (?:company|firm|organi[sz]ation|employer)\b.*\b(?:i|me)\b|\bwho do i work for\b|"
                r"\bwhat(?:'?s| is) my (?:job|position|role)\b|\bwhat do i do for (?:a )?living\b|"
                r"\bwhat (?:do|did i say) i do\b|\bwhat is my profession\b", re.I), "work"),
    (re.compile(r"\bwhere do i (?:live|stay)\b|\bwhat (?:city|town|country|place)\b.*\b(?:i|me)\b.*\b(?:live|home|from)\b|"
                r"\bwhere(?:'?s| is) (?:my )?home\b", re.I), "location"),
    (re.compile(r"\bwhat do i (?:like|enjoy)\b|\bmy hobb", re.I), "hobbies"),
]

_NOT_TOLD = "You haven't told me"  # how a profile answer opens that says what is asked was never told
# what a profile question asks for, said when the profile holds no answer
_UNTOLD = {"work": "what you do or where you work", "location": "where you live", "hobbies": "what you like to do"}


def _day(ts: str | None, now: datetime) -> str | None:
    """The day itself: "earlier today", "yesterday", "on Wednesday 2 December"; None when unknown."""
    said = said_day(ts, now)
    if said is None:
        return None
    days = said.days_ago
    if days <= 0:
        return "earlier today"
    if days == 1:
        return "yesterday"
    day = said.on
    # told in the small hours, the day it is spoken of is the one before the calendar's: named by its
    # date, it is that day's night ("what's the date today?" said the calendar's then)
    night = "the night of " if said.on != datetime.fromisoformat(ts).date() else ""
    return f"on {night}{day:%A} {day.day} {day:%B}"  # spoken: "the 2nd" reads "2", never "02"


def _relative_day(ts: str | None, now: datetime) -> str:
    day = _day(ts, now)
    return "when we met before" if day is None else day if not day.startswith("on ") else f"when we met {day}"


def _quote(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"


def _listing(value: object) -> str:
    return profile_wording.listing(value) if isinstance(value, list) else str(value)


def _clock_answer(question: str, now: datetime) -> str:
    """The date of today or of the day asked ("what's the date tomorrow?"), or the time, from the clock
    the turn runs on."""
    said = []
    if cues.ASKS_DATE.search(question):
        said.append(day_said(question, now))
    if cues.ASKS_TIME.search(question):
        said.append(f"it's {now.strftime('%H:%M')}")
    return _capital(" and ".join(said)) + "."


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sentence(phrase: str) -> str:
    return _capital(phrase) + "."


def _asked(r: ReplyInputs) -> str:
    """The question as asked directly: one put through her memory ("do you remember what I do for a
    living?") asks what it would ask alone ("what do I do for a living?")."""
    return direct_question(r.text) or r.text


def _before_answer(r: ReplyInputs) -> str | None:
    """The latest ended value of the field the question asks about, or an honest "I don't know"."""
    asked = _asked(r)
    if r.profile is None or not _BEFORE.search(asked):
        return None
    for pattern, key in _ASKS_BEFORE:
        if pattern.search(asked):
            old = latest_ended(r.profile.history(key))
            if old is None and key == "current_position" and (was := _job_left(r.profile)):
                return f"You were {with_article(was)}, before you retired."  # "I'm a retired carpenter"
            if old is None:
                return "I don't know — you haven't told me about an earlier one."
            now = profile_wording.phrases(profile_wording.current(r.profile, [key]))
            current = f" Now {profile_wording.listing(now)}." if now else ""
            return f"Before, {profile_wording.before_words(key, old.value, old.clause)}.{current}"
    return None


def _job_left(profile) -> str | None:  # noqa: ANN001 - a UserProfile
    """The job a current position says was left ("retired carpenter", "former nurse"): what they
    did before."""
    now = next((r.value for r in profile.history("current_position") if r.current), None)
    found = _FORMERLY.match(now or "")
    return found.group(1) if found else None


def _profile_answer(r: ReplyInputs) -> str | None:
    """A question about their name, work, home or hobbies answered from the profile, in the words the
    facts were told in (profile_wording.py); None when it holds no answer."""
    if r.profile is None or (cues.is_question(r.text) and slot_asked(r.text) == "time"):
        return None  # "when are my cello lessons?": no work, home or pastime held says when
    before = _before_answer(r)
    if before:
        return before
    asked = _asked(r)
    key = next((key for pattern, key in _ASKS if pattern.search(asked)), None)
    if key is None and r.profile_field is not None:  # the retrieval core found which of their facts it asks after
        key = "work" if r.profile_field in profile_wording.WORK_FIELDS else r.profile_field
    answer = _answer_from_profile(r, key) if key is not None else None
    return _yes_or_no(r.text, answer) if answer else answer


def _yes_or_no(question: str, answer: str) -> str:
    """A question whether a fact holds ("do I live in Bergen?") answered from the profile: yes first
    when the answer says every word it names, no when it names a place or name the answer does not
    ("do I live in Ghent?" over Antwerp); as it is otherwise."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    if not asks_whether(question) or asks_her_memory(question) or answer.startswith(_NOT_TOLD):
        return answer  # ... and an answer that says what was asked was never told is neither
    try:
        doc = load_parser()(question)
    except ParserUnavailable:
        return answer
    said = {w.casefold() for w in re.findall(r"\w+", answer)} | {t.lemma_.lower() for t in load_parser()(answer)}
    # ... and what it asks done, or a state said by a participle ("am I retired?" over "you're a software
    # developer", "am I still working?" over "you retired in June")
    missing = [t for t in doc if t.pos_ in ("NOUN", "PROPN", "ADJ", "VERB")
               and not t.is_stop and not {t.lower_, t.lemma_.lower()} & said]
    if not missing:
        return f"Yes — {answer[:1].lower()}{answer[1:]}"
    if any(t.pos_ == "PROPN" for t in missing):
        return f"No — {answer[:1].lower()}{answer[1:]}"
    return answer


def _asked_of_the_past(question: str) -> bool:
    """The question asks when something was ("when did I get my keys?"): its verb, or the auxiliary on
    it, is past; the day it was told answers it. True without the parser."""
    from interaction.offline.parsing import ParserUnavailable, asked_of_the_past, load_parser

    try:
        return asked_of_the_past(load_parser()(question))
    except ParserUnavailable:
        return True


def _untold(r: ReplyInputs) -> str | None:
    """A question about their work, home or hobbies that the profile holds no answer to, said as such."""
    asked = _asked(r)
    key = next((key for pattern, key in _ASKS if pattern.search(asked)), None)
    return f"{_NOT_TOLD} {_UNTOLD[key]} yet." if key in _UNTOLD and r.profile is not None else None


def _answer_from_profile(r: ReplyInputs, key: str) -> str | None:
    if key == "user_name":
        return f"You're {r.name}, of course!" if r.name else None
    work = profile_wording.work(r.profile)
    if key == "work":
        return " ".join(_sentence(p) for p in work) if work else _no_longer(r, key)
    if key == "location":
        home = profile_wording.home(r.profile)
        if home is not None:
            return _sentence(profile_wording.own_words(home))
        # only a job's place is known: say that, and that no home was named (a job that names no place
        # is no answer: "you retired last spring" to "where do I live?")
        placed = any(t.works_here for t in profile_wording.current(r.profile, ["location"]))
        return f"{_NOT_TOLD} where you live, but {profile_wording.listing(work)}." if work and placed \
            else _no_longer(r, key)
    held = profile_wording.named_in(profile_wording.current(r.profile, [key], now=r.now), r.text)
    said = profile_wording.phrases(held) or (profile_wording.left_named_in(r.profile, r.text) if key == "relations" else [])
    return _sentence(profile_wording.listing(said)) if said else None  # every pastime held, not the first


def _held_instead(r: ReplyInputs, memory: str) -> str | None:
    """What the profile holds now in place of a fact that has ended, which the question names and the
    memory tells, as a sentence ("Now you live in Bergen." for "do I live in Oslo?" over "I live in
    Oslo"); "" when nothing has taken its place ("do I still work at Tesco?" after "I got laid off");
    None when none has ended. A job told in the present is said in its own words: "I'm retraining as a
    nurse" is not working as one."""
    ended = _ended_facts(r, memory)
    held = [h for field, _ in ended for h in profile_wording.current(r.profile, [field])]
    if not held:
        return "" if ended else None
    if held[0].field == "current_position" and held[0].clause and told_as_present(held[0].clause):
        return _capital(profile_wording.phrases(held[:1])[0]) + "."
    return f"Now {profile_wording.own_words(held[0])}."


def _ended_asked(r: ReplyInputs, memory: str) -> str:
    """The ended fact _held_instead found, said as ended ("you no longer work at Tesco")."""
    field, value = _ended_facts(r, memory)[0]
    return profile_wording.ended_words(r.profile, field, value)


def _ended_facts(r: ReplyInputs, memory: str) -> list[tuple[str, str]]:
    """(field, value) of the facts of one value that have ended, which the question names and the
    memory tells."""
    if r.profile is None:
        return []
    asked = {w.casefold() for w in re.findall(r"\w+", r.text)}
    # by its words, but for the article it was kept with ("a call centre" asked as "the call centre"), or
    # by a name said with it ("Kingsbridge" of "a maths teacher at Kingsbridge Academy")
    return [(field, rec.value) for field in FIELDS_BY_NAME if not FIELDS_BY_NAME[field].multi
            for rec in r.profile.history(field) if not rec.current and says(memory, rec.value)
            and ({w.casefold() for w in re.findall(r"\w+", rec.value)} - _ARTICLES <= asked
                 or _names_in(rec.clause or "") & asked)]


def _names_in(text: str) -> frozenset[str]:
    """The words written with a capital where no sentence starts (casefolded): the names it says, as
    typed ("rhian and I split up" names none, which the memory may still have)."""
    return frozenset(w.casefold() for w in re.findall(r"(?<=\w )[A-Z]\w+", text))


_ARTICLES = frozenset({"a", "an", "the"})  # closed grammar


def _no_longer(r: ReplyInputs, key: str) -> str | None:
    """A home or a job they told has ended and none has followed: said so, never the ended one as if it
    held ("I moved away from Cardiff", then "where do I live?" was answered "In Cardiff"); None when
    none has ended."""
    told = [(rec, f) for f in (profile_wording.WORK_FIELDS if key == "work" else (key,)) for rec in r.profile.history(f)]
    # a town said as where their work was is no home they had ("I work at a bookshop in Porto")
    ended = latest_ended([rec for rec, f in told if not (f == "location" and key == "location" and rec.home is False)])
    if ended is None:
        return None
    field = next(f for rec, f in told if rec is ended)
    if key == "work" and r.is_recall and r.recall is not None and r.recall.outcome == "asserted" and any(
            another_workplace(place_of_work(ended.clause or ""), place_of_work(m.text)) for m in r.recall.memories):
        return None  # the recall answers: where they told they work since, with no employer to keep ("a bookshop")
    return f"{_NOT_TOLD} {_UNTOLD[key]} now. Before, {profile_wording.before_words(field, ended.value, ended.clause)}."


def _said(m: RecalledMemory, r: ReplyInputs) -> str:
    """One remembered thing as it was said (a session summary by its gist), with its day."""
    text = _quote(m.text, 300)
    if m.kind == "first_meeting":
        # the meeting is the day's own event: "the first time we met was on Wednesday 2 December", never
        # "when we met on Wednesday 2 December was the first time we met"
        day = _day(m.occurred_at, r.now)
        return f"the first time we met was {day}, when you introduced yourself to me" if day else \
            "the first time we met, you introduced yourself to me"
    if m.kind == "observation":  # something Nadine saw, not something the person said
        return f"{_relative_day(m.occurred_at, r.now)} I saw: {text}"
    if m.kind == "episode":  # a summary: its gist in Nadine's words, never quoted as the person's
        return f"{_relative_day(m.occurred_at, r.now)} {gist(m.text, said_day(m.occurred_at, r.now))}"
    return f"{_relative_day(m.occurred_at, r.now)} {told_back(m.kind, text, said_day(m.occurred_at, r.now))}"


def _recall(r: ReplyInputs) -> str:
    memories = r.recall.memories if r.recall else []
    # the question read with the names its memories spell with a capital ("did nibbles have babies?" is
    # of Nibbles, not of someone else than the hamster who had them)
    r = replace(r, text=names_as_told(r.text, (m.text for m in memories)))
    # the answer first, then where it comes from; a count of days to it is counted from the whole told
    if r.answer is not None and how_long_asked(r.text) is None:
        m, day = r.answer.memory, _relative_day(r.answer.memory.occurred_at, r.now)
        said = said_day(m.occurred_at, r.now)
        if r.answer.answer.asks == "value":  # the memory itself says it ("my locker code is 5512")
            so = "you asked me to remember it" if m.kind == "explicit_memory" else "you told me so"
            return f"{_capital(reported(m.text, said=said))} — {so} {day}."
        first = r.answer.said_first(r.now)
        # the day the answer names, not another the memory tells ("I am quite sad today. ... She leaves
        # on the 19th of December": today has gone by, the 19th has not; "my last day ... is the 31st":
        # "last day" is no date); read in the memory, whose tense says which 2nd "on the 2nd" is
        if r.answer.answer.asks == "time" and (told := told_in(m.text, m.told_on(), within=(
                r.answer.answer.start, r.answer.answer.end))) is not None \
                and told.passed(r.now) and (when := from_now(told, r.now)) is not None:
            # a day that has gone by since it was told is said as gone ("It was on Monday the 9th at ten,
            # yesterday"), never as if it were still to come
            first = f"it was {first}, {when}"
        return f"{_capital(first)}{ANSWER_FIRST}{day} {told_back(m.kind, r.answer.rest, said)}."
    if r.recall and r.recall.outcome == "asserted" and memories:
        said = "; and ".join(_said(m, r) for m in memories) + "."
        # a question whether ("is my sister moving?", "did I tell you my sister is moving?") is answered
        # yes first; a plain question about their life with what they told; "of course" answers "do
        # you remember?", but not of a loss or a worry: that is remembered, not gladly
        whether = asks_whether(r.text) and not asks_her_memory(r.text) and not asks_back_their_own(r.text)
        # what the question asks for is in none of them (the answer would have been found): what they
        # told is said, never as the answer ("did I tell you when the shed gets painted?" over the shed's
        # key); the day a thing was told answers "when did I ...?" of it, and a count may be told in
        # words ("expecting twins")
        if r.recall.decided_by == "planned":  # "what do I have on today?", "anything on Friday?"
            if whether and all(m.memory_id in r.recall.changed_plans for m in memories):
                # all there is to say of the day is the news that moved or called off its plans
                return f"Not any more — {said}"
            return f"Yes — {said}" if whether else _capital(said)
        slot = slot_asked(r.text)
        if slot is not None and (whether or slot not in ("time", "count")):
            # a memory naming what is asked was told, though its answer was not read off it: said as told
            if any(names_what_is_asked(r.text, m.text) for m in memories):
                return _capital(said)
            return f"I don't think you told me that — {said}"
        told = told_in(memories[0].text, memories[0].told_on())
        # ... a day still to come never answers how long ago something was ("how long since I've seen
        # her?" over "she arrives on the 22nd. I haven't seen her in four years" got "Fourteen days")
        if (unit := how_long_asked(r.text)) is not None and told is not None \
                and (told.passed(r.now) or not asks_how_long_back(r.text)):
            # "how many days until my ferry?": counted from the clock to the day the memory names; a day
            # it cannot name (a month, a week) leaves what was told to answer
            length = time_until(told, r.now, unit)
            if length is not None:
                return f"{'That was ' + length + ' ago' if told.passed(r.now) else _capital(length)} — {said}"
        if whether:
            # yes only when what it asks is what was told: "is my MOT due in March?" over "... due on
            # the 28th of February" is a no, with what was told; a value that cannot be compared, neither.
            # A day asked from today ("is it tomorrow?") is answered with where the told day falls.
            latest = max(memories, key=lambda m: m.occurred_at or "")
            if calls_off(r.text, latest.text):
                # the latest told of it is that it was called off ("is the party still on Saturday?" after
                # "the party is cancelled"): no, as that news says, whatever the plan before it said
                return f"No — {_said(latest, r)}."
            holds = _as_it_holds(memories)
            if (now := _held_instead(r, holds[0])) is not None:
                # "do I live in Oslo?" over "I live in Oslo" after "I moved to Bergen": the fact it asks
                # about has ended, and the profile holds another in its place
                return f"Not any more — {said} {now}" if now else \
                    f"Not any more — {said} {_capital(_ended_asked(r, holds[0]))}."
            left = [v for v in profile_wording.people_left_named_in(r.profile, r.text)
                    if says(holds[0], profile_wording.relation_of(v)[0])]
            if left:
                # "do I have a girlfriend?" over "I live with my girlfriend Megan" after "megan and i broke
                # up": the person it names they have left since
                return f"Not any more — {said} {_capital(profile_wording.ended_words(r.profile, 'relations', left[0]))}."
            gone = [v for v in profile_wording.people_left(r.profile) if says(holds[0], profile_wording.relation_of(v)[0])]
            if gone and not left:
                # "am I still going to Lisbon?" over "my girlfriend Lena and I are going to Lisbon in June"
                # after "lena and i broke up": what was told holds someone they have left since, so it
                # is said as told, with the parting, never a yes
                return f"{_capital(said)} Since then, you told me {profile_wording.ended_words(r.profile, 'relations', gone[0])}."
            if _parted_from(r.text, memories):
                # "is Emma my wife?" over "I'm married to Emma", then "Emma and I got divorced", or "is Dan
                # still my boyfriend?" over "I broke up with my boyfriend Dan": what was told says they
                # parted from the one asked of
                return f"Not any more — {said}"
            verdict = whether_told(r.text, *holds, r.now)
            if (other := said_of_someone_else(r.text, holds[0])) is not None:
                # asked of themselves, what was told of someone else ("am I retired?" over "my dad
                # retired", "do I live in Canada?" over "my brother moved to Canada"): no, it was them,
                # whatever day or place theirs was
                return f"No, that was {reported(other)} — {said}"
            if verdict == "unsure" or (verdict != "no" and _news_since(memories)):
                return _capital(said)  # "is my meeting on Monday?" over it and "the meeting is off" told since: as told
            if verdict is None and denied_outright(r.text, holds[0]):
                # "do I smoke?" over "I quit smoking": what was told says no
                return f"No — {said}"
            if verdict != "no" and (told_as_wished(holds[0]) or only_intended_then(r.text, holds[0])):
                # "have I been to Greece?" over "if I won the lottery I'd sail to Greece": a wish; "are we
                # still going to Lisbon?" over "I was meant to go to Lisbon but that's off now": a plan that was
                return f"I don't think so — {said}"
            if verdict is None and (not says_what_is_asked(r.text, holds[0], names_all_asked(memories[0]))
                                    or someone_asked_of_is_untold(r.text, holds[0])):
                # no value to compare, and the memory does not say what is asked ("is my daughter getting
                # married?" over her going to Australia): no yes, and what was told instead
                return f"I don't think you told me that — {said}"
            if verdict is None and still_to_come(r.text, holds[0], latest.told_on(), r.now):
                # "have I run the marathon yet?" over "next month I'm running the Berlin marathon"; what
                # it asks is said first (a plumber is nothing the wedding still to come says of Hana)
                return f"Not yet — {said}"
            if verdict != "no" and (denies_what_is_asked(r.text, holds[0]) or _denied_since(r.text, memories)):
                # "can he eat spinach?" over "he must not eat too much spinach", "is my mother still coming
                # on Sunday?" over "my mum can't make Sunday": as told, whatever day it names
                return _capital(said)
            # where the day falls is said of the value as it holds ("No, it's in three days" of a blood
            # test moved to Thursday, never "No, it's tomorrow" of the Tuesday it was moved from)
            held = told_in(*holds)
            when = it_is(held, r.now) if held is not None and asks_from_today(r.text, r.now) else None
            return f"{'No' if verdict == 'no' else 'Yes'}{', ' + when if when else ''} — {said}"
        if slot == "time" and not _asked_of_the_past(r.text) and not any(told_in(m.text, m.told_on()) for m in memories):
            # "when's my operation?" over "my hip operation is finally scheduled": no day of it was told,
            # and the day it was told is no answer to when it will be; a day told but not given as the
            # answer (news since called it off) is said as told
            return f"I don't think you told me the date — {said}"
        if r.own_life or not asks_what_was_told(r.text):
            return _capital(said)  # "how long was I there?" asks of their life, not whether she remembers
        return ("I remember — " if any(news_sign(m.text) == "negative" for m in memories) else "Of course — ") + said
    if r.recall and r.recall.outcome == "offered" and memories:
        m = memories[0]
        day = _relative_day(m.occurred_at, r.now)
        if r.recall.decided_by == "margin" and m.channels.get("entity_absent", 0.0) >= 1.0 and asks_after_own(r.text):
            # offered for standing out by closeness alone, naming nothing asked ("did I tell you my
            # sister's name?" over "I'm Grace"): a thing of their own never told is said to be untold
            return f"I don't think you told me about {thing_asked(r.text) or 'that'}{', ' + r.addressed if r.addressed else ''}."
        if m.kind == "episode":  # a whole conversation's summary: quoting it would read out every turn
            return f"I'm not sure — do you mean something you told me {day}? Tell me a little more."
        if m.kind == "first_meeting":
            return f"I'm not sure — do you mean when you told me {day} about our first meeting?"
        if asks_whether(r.text) and (other := said_of_someone_else(r.text, m.text)) is not None:
            # offered, as what was told of another ("is my grandad in hospital?" over "my brother Fergus is
            # in hospital"): no, it was them, as an asserted memory says it
            return f"No, that was {reported(other)} — {_said(m, r)}."
        return f"I'm not sure — do you mean that {day} {told_back(m.kind, _quote(m.text), said_day(m.occurred_at, r.now))}?"
    if r.name:
        return f"I'm sorry {r.addressed}, I don't remember you telling me about that."
    return "I'm sorry, I don't remember that — I don't think I know you yet. What's your name?"


def _news_since(memories: list[RecalledMemory]) -> bool:
    """News was told after the first memory of what it names (later_news.py), other than a new value in
    place of a thing's (that is compared as it holds; a new home or job is news, for what went with the
    old one need not hold): whether the first still holds is theirs to say.
    The first being the latest news itself ("I got the job!" for "did I get the job?") answers."""
    from interaction.memory.retrieval.later_news import updates
    from interaction.offline.value_changes import thing_value_change

    first = memories[0]
    return any(updates(later.text, first.text) and thing_value_change(later.text, first.text) is None
               for later in _told_after_the_first(memories))


def _denied_since(question: str, memories: list[RecalledMemory]) -> bool:
    """A memory told after the first says what the yes/no question asks under a negation, or as
    undone ("my mum can't make Sunday, dinner is off" for "is my mother still coming on Sunday?"):
    no yes can be read off the first."""
    return any(denies_what_is_asked(question, later.text) for later in _told_after_the_first(memories))


def _parted_from(question: str, memories: list[RecalledMemory]) -> bool:
    """The first memory, or one told after it, tells the speaker left someone the question names by name
    (a word it writes with a capital mid-sentence, which the memory may not have: "rhian and I split
    up")."""
    names = _names_in(question)
    return bool(names) and any(name.casefold() in names for m in [memories[0], *_told_after_the_first(memories)]
                               for name in personal_facts.ended_relations(m.text, names))


def _told_after_the_first(memories: list[RecalledMemory]) -> list[RecalledMemory]:
    first = memories[0]
    return [m for m in memories[1:] if (m.occurred_at or "") > (first.occurred_at or "")]


def _as_it_holds(memories: list[RecalledMemory]) -> tuple[str, datetime | None]:
    """The first memory as the ones told after it changed its value ("is it still on the 14th?" over
    "my MRI scan is on the 14th", then "they moved my MRI scan to the 16th": the 16th), and the day
    the value it holds was told (a day of the month is read as of then)."""
    from interaction.offline.value_changes import thing_value_change

    first = memories[0]
    # a slip put right in the same breath holds as put right ("I live in Brighton, no wait, Hove"); a new
    # home or job is the profile's to say (_held_instead), never the old statement with its value swapped
    text, on = corrected_in_turn(first.text) or first.text, first.told_on()
    for m in sorted(_told_after_the_first(memories), key=lambda m: m.occurred_at or ""):
        if (now := thing_value_change(m.text, text)) is not None:
            text, on = now[0], m.told_on()
    return text, on


def _never_told(r: ReplyInputs) -> str:
    """A question about a thing of their own that memory holds nothing of, said as such, with what
    they told that conflicts with it ("... a granddaughter — earlier today you told me your grandson
    Pim is learning to swim.")."""
    thing = thing_asked(r.text)
    said = f"I don't think you told me about {thing or 'that'}"
    if not r.recall or not r.recall.memories:
        return f"{said}{', ' + r.addressed if r.addressed else ''}."
    m = r.recall.memories[0]
    return f"{said} — {_relative_day(m.occurred_at, r.now)} {told_back(m.kind, _quote(m.text), said_day(m.occurred_at, r.now))}."


def _between_us(text: str, hi: str) -> str | None:
    """What Nadine says to a plea not to pass something on: news told after it is a secret kept; a
    plea about what was told before, kept between them; None for any other turn."""
    if told_in_confidence(text):
        return f"Your secret is safe with me{hi}."
    return f"Of course{hi}, I won't tell anyone. It stays between us." if pleads_not_to_tell(text) else None


def _a_plan_told(r: ReplyInputs, hi: str) -> str | None:
    """"That's in three days — I'll keep it in mind." for a statement of something still to come on a
    day it names ("my study group meets on Tuesday at 7pm"): the day as Nadine read it, which the
    person can put right; None for anything else (a question, a day gone by, no day), and for someone
    not known yet, for whom nothing is kept."""
    if r.name is None or cues.is_question(r.text) or not is_told(r.text):
        return None
    told = told_in(r.text, r.now)
    if told is None or not told.a_day or told.passed(r.now) or (when := from_now(told, r.now)) is None:
        return None
    if told.start <= r.now and told.at is None:
        return None  # today with no hour to come: how today is ("it's raining today"), no plan
    return f"That's {when}{hi} — I'll keep it in mind."


def news_sign(text: str) -> str | None:
    """"positive" or "negative" when the calibrated polarity finds what the person tells good (or bad)
    at least as likely as its line (news_reading), though too faint to name a feeling ("We finally got
    the keys to our new flat.")."""
    read = news_reading(text)
    return read[0] if read is not None and read[1] >= NEWS_LINES[read[0]] else None


def news_reading(text: str) -> tuple[str, float] | None:
    """The likelier of "positive" and "negative" for what the person tells, with its probability;
    None for a plain fact, a question, or without the model, and for a feeling said in the present
    with no event told ("I'm feeling a bit low"): no news, and its words, not the polarity, say which
    way it goes (understand_rules.feeling_is_the_news)."""
    from interaction.offline.feeling_polarity import CLASSES, shipped_polarity
    from interaction.offline.understand_rules import (
        feeling_is_the_news,
        felt_parts,
        praise_of_unwelcome_news_in,
        surer_bad_news,
    )

    model = shipped_polarity()
    if model is None or cues.is_question(text) or not is_told(text) or feeling_is_the_news(text):
        return None
    # the greetings and introductions in it are politeness, no news ("Good afternoon, I'm Bernadette.")
    parts = felt_parts(text)
    if not parts:
        return None
    p = model.probabilities([" ".join(dict.fromkeys(parts.values()))])[0]
    sign = max(("positive", "negative"), key=lambda c: p[CLASSES.index(c)])
    if sign == "positive" and (praised := praise_of_unwelcome_news_in(parts, model)) is not None:
        return ("negative", 1.0) if praised else None  # praise said of news that is not good: irony
    if sign == "positive" and surer_bad_news(list(dict.fromkeys(parts.values())), p[CLASSES.index(sign)], model):
        return None  # a sentence of it is surely bad news ("... We're shutting down next month."): no sign
    return sign, float(p[CLASSES.index(sign)])


def _says_their_name_again(text: str, name: str) -> bool:
    """The turn only gives the name of the one already talking ("Gunnar again", "Magda here"): the
    name reader's, with no verb beside it."""
    from interaction.offline.extract import extract_name
    from interaction.offline.self_description import ParserUnavailable, load_parser

    said = extract_name(text, loose=True)
    if said is None or said.casefold() != name.casefold():
        return False
    named = set(said.casefold().split())  # the tagger may take a name typed in lower case for a verb ("becca")
    try:
        return not any(t.pos_ in ("VERB", "AUX") and t.lower_ not in named for t in load_parser()(text))
    except ParserUnavailable:
        return False


def _declines_after_news(text: str) -> bool:
    """The turn tells something, then declines to talk about it in a sentence of its own."""
    said = cues.sentences(text)
    return len(said) > 1 and turn_act(said[-1]) == "decline"


def _goes_on_about_the_news(r: ReplyInputs) -> str | None:
    """The sign of the news the person told in their turn before (the feeling its understanding
    names, else news_sign), when this one goes on about it: its subject, or a person it names, is a
    personal pronoun of the third person by spaCy's morphology ("He was 18.", "I had her since I was a kid"), or
    a thing set by the definite article ("The funeral was beautiful."), someone or something already
    spoken of."""
    from interaction.offline.parsing import third_person
    from interaction.offline.self_description import ParserUnavailable, load_parser

    if _told_before(r) is None:
        return None
    try:
        doc = load_parser()(r.text)
    except ParserUnavailable:
        return None
    # the subject of the clause it opens with ("The funeral was lovely, lots of people came."), or
    # someone already spoken of by a pronoun wherever it stands ("i had her since i was a kid")
    subject = next((t for t in doc if t.dep_ in ("nsubj", "nsubjpass")), None)
    spoken_of = any(third_person(t) and t.lower_ != "it" for t in doc)
    if not spoken_of and (subject is None or not (
            third_person(subject) or any(d.dep_ == "det" and d.morph.get("Definite") == ["Def"] for d in subject.children))):
        return None
    return _sign_told_before(r)


def _told_before(r: ReplyInputs) -> str | None:
    """The person's turn before this one, if any."""
    # the history may already end with this turn
    return next((text for role, text in reversed(r.history) if role == "user" and text != r.text), None)


@functools.lru_cache(maxsize=32)  # a turn asks it of the one before up to three times
def _sign_of(text: str) -> str | None:
    """"positive" or "negative": the feeling the understanding of a turn names, else its news_sign."""
    from interaction.offline.understand_rules import user_emotion

    return _sign_of_feeling(named_feeling(user_emotion(text))) or news_sign(text)


def _sign_of_feeling(felt: str | None) -> str | None:
    """"positive" for a pleasant feeling named, "negative" for another, None for none."""
    from interaction.offline.understand_rules import PLEASANT

    return None if felt is None else "positive" if felt in PLEASANT else "negative"


def _sign_told_before(r: ReplyInputs) -> str | None:
    """The sign of the news the person told in their turn before this one, or None."""
    before = _told_before(r)
    return None if before is None else _sign_of(before)


def _against_the_news_before(r: ReplyInputs, sign: str | None) -> bool:
    """The turn is read the other way from the news told just before it ("sorry" for "we've been
    trying for two years" after "I just found out I'm pregnant!!"; "wonderful" for "I have to retake it
    in August" after the failed exam): the sign is in doubt, so no feeling is named, and the turn is
    answered for what it says."""
    return sign is not None and _sign_told_before(r) not in (None, sign)


def named_feeling(felt: Emotion) -> str | None:
    """The feeling a reply names for what the user said ("happy", "sad", ...), or None: offline the
    understanding leaves a feeling neutral unless the calibrated polarity is sure of its sign at the
    lines chosen on the judge's dev turns (scripts/eval/train_feeling_polarity.py)."""
    return felt.label if felt.label in _EMPATHY else None


def correction_reply(corrected: str, name: str | None) -> str:
    """The answer to a correction: the statement as it is held now, in Nadine's words ("your birthday
    is on the 13th of April")."""
    kept = classify(corrected).intent == "remember"  # "please remember that my code is 241": the code
    # in reported speech, as a recall says it: without the "oh, and" that joined it to what came before
    held = reported((request_content(corrected) if kept else corrected).rstrip(" .!"))
    return f"Thank you for putting me right{', ' + name if name else ''}. So {held}. I'll remember that."


def change_reply(now_held: str, name: str | None) -> str:
    """The answer to news that gives a kept thing a new value: the memory as it holds now."""
    return f"Thank you for letting me know{', ' + name if name else ''}. So {reported(now_held.rstrip(' .!'))} now."


def _whether_met(met_before: bool | None, hi: str) -> str:
    """The answer to "do you remember me?": whether Nadine met the speaker before this conversation."""
    if met_before is None:
        return "I don't think we've met yet. What's your name?"
    if not met_before:
        return f"I don't think we had met before today{hi}, but I'll remember you from now on."
    return f"Of course I remember you{hi}!"


def offline_reply(r: ReplyInputs) -> str:
    return composed_reply(r).text


@dataclass(frozen=True)
class Composed:
    text: str
    from_profile: bool = False  # a question the profile holds the answer to, answered from it (not from a recall)


def composed_reply(r: ReplyInputs) -> Composed:
    """The offline template's reply, and what it answered from."""
    if r.confirmation:
        return Composed(confirmation_question(r.confirmation))
    hi = f", {r.addressed}" if r.addressed else ""
    if r.intent == "end_conversation":
        return Composed(f"Goodbye{hi}! It was lovely talking with you. See you soon!")
    parts: list[str] = []
    kind = r.identity_event or (r.outcome.kind if r.outcome else None)
    addressed_now = bool(r.outcome and r.outcome.learned.get("addressed_as"))  # they said how to be called
    if kind == "linked" and r.name:
        parts.append(f"Welcome back, {r.addressed}! It's good to see you again.")
    elif kind == "renamed" and r.name:
        parts.append(f"Of course! From now on I'll call you {r.addressed if addressed_now else r.name}.")
    elif kind == "updated" and addressed_now and r.addressed:
        parts.append(f"Of course! From now on I'll call you {r.addressed}.")
    elif kind == "kept" and r.name:
        parts.append(f"All right, I'll go on calling you {r.name}.")
    elif kind == "not_their_name":  # "Busy" to "What's your name?" was not it: asked again, told of nobody
        return Composed("Sorry, I got that wrong. What's your name?")
    elif kind == "unsettled":  # nobody's memories open to an unclear answer, and nobody new is made of one
        return Composed("All right, I won't guess who you are, so I can't look into anything you told me "
                        "before. Just tell me your full name whenever you like.")
    elif kind == "shared_name":  # nor to a name several people go by
        return Composed("I know more than one person by that name, so I won't guess which one you are, and I "
                        "can't look into anything told to me before.")
    elif kind in ("new", "conflict_new") and r.name:
        parts.append(f"Nice to meet you, {r.addressed}!")
    elif r.intent == "first_greeting" or cues.is_greeting(r.text):
        # "Hello Nadine, how are you?" asks after her too
        well = " I'm very well, thank you." if cues.HOW_ARE_YOU.search(r.text) else ""
        # asked whether she knows them, she asks the name once, after saying they have not met
        ask = "" if r.met_before is None and asks_if_known(r.text) else " What's your name?"
        parts.append(f"Hello {r.addressed}, it's nice to see you!{well}" if r.addressed else f"Hello!{well} I'm Nadine.{ask}")
    # learned: what the profile now holds from this turn (or, before a name, what waits for one), as said
    learned = {k: v for k, v in (r.outcome.learned if r.outcome else {}).items() if k in FIELDS_BY_NAME}
    ended = [profile_wording.ended_words(r.profile, c.field, c.value) for c in r.fact_changes if c.op == "close" and c.value]
    if learned or ended:
        said = profile_wording.phrases(profile_wording.heard(learned, r.fact_wording, r.profile)) + ended
        waits = r.outcome is not None and r.outcome.kind == "pending"  # nothing is stored before a name
        # what they told takes the place of what Nadine held ("I left the bank, I'm at a bakery now"): she
        # takes the change in, rather than promising to keep something new
        changed = bool(learned) and set(learned) <= {c.field for c in r.fact_changes if c.op == "supersede"}
        opening = "I'd like to remember that " if waits else "So " if changed else "I'll remember that "
        parts.append(opening + _listing(said) + ".")
        if not r.name and not name_asked_enough(r.history):
            parts.append("May I ask your name?")
    if not parts and not r.name and asked_for_name(r.history) and asks_why(r.text):
        # "why do you ask?" to her question for their name asks why she wants it
        return Composed("So that I can recognise you and remember what you tell me when we meet again. "
                        "What's your name?")
    if asks_if_known(r.text):  # whether they have met is known, never looked up
        return Composed(" ".join([*parts, _whether_met(r.met_before, hi)]))
    if parts and r.intent in ("first_greeting", "update_user_info"):
        # "pleased to meet you :)" reads as joy, but is no news to be happy about
        news = named_feeling(r.user_emotion) if r.user_emotion.intensity >= _NEWS_INTENSITY and is_told(r.text) else None
        if news and _against_the_news_before(r, _sign_of_feeling(news)):
            news = None
        return Composed(" ".join([*parts, _EMPATHY[news].format(hi="")] if news else parts))
    answer = _profile_answer(r)
    if answer:
        parts.append(answer)
    elif r.is_recall:
        parts.append(_recall(r))
    elif r.own_life and r.recall and r.recall.outcome == "abstained":
        parts.append(_never_told(r))
    elif r.scene and r.scene.user_message:
        # what they feel about what they say now comes before what it brings back ("good news, mum's
        # blood sugar is under control" is met with joy, then with the worry it recalls)
        if named := named_feeling(r.user_emotion):
            parts.append(_EMPATHY[named].format(hi=hi))
        parts.append(f"That reminds me — {_relative_day(r.scene.timestamp, r.now)} "
                     f"{told_back('moment', _quote(r.scene.user_message), said_day(r.scene.timestamp, r.now))}.")
    for tool_result in (r.search, r.vision):
        if tool_result:
            parts.append(_quote(tool_result, 300))
    if r.knowledge:
        parts.append(spoken_knowledge(r.knowledge, r.text))
    if not parts:
        from interaction.offline.understand_rules import PLEASANT

        named = named_feeling(r.user_emotion)
        # a good thing in bad news ("The funeral was beautiful." after a death): glad of it, never "happy
        # for you"
        glad = named == "happy" and _goes_on_about_the_news(r) == "negative"
        felt_sign = _sign_of_feeling(named)
        if _against_the_news_before(r, felt_sign):
            named = None
        template = _EMPATHY[named] if named else None
        act = turn_act(r.text)
        if r.profile is None and asked_for_name(r.history) and bare_answer(r.text) and read_offline(r.text) == "yes":
            parts.append("Lovely! What's your name?")  # "may I ask your name?" answered "ya": it is still to come
        elif act == "decline":  # asked to leave a topic, she lets it go rather than asking after it
            parts.append(f"Of course{hi}, we don't have to talk about it.")
        elif _declines_after_news(r.text):
            # "the engagement is off. I don't want to talk about it": the news is answered, never asked after
            sorry = named not in PLEASANT if named else news_sign(cues.sentences(r.text)[0]) == "negative"
            opening = "I'm sorry to hear that" if sorry else "Of course"
            parts.append(f"{opening}{hi}. We don't have to talk about it.")
        elif r.name and _says_their_name_again(r.text, r.name):  # "Gunnar again" from Gunnar, still talking
            parts.append(f"Hello again{hi}!")
        elif act == "backchannel":  # "mhm", "fair enough": heard, and the turn handed back without a question
            parts.append(_ACKNOWLEDGED.format(hi=hi))
        elif only_thanks(r.text):  # the warmth of a thanks is for Nadine, not news to be happy about
            parts.append(f"You're welcome{hi}! I'm glad we talked.")
        elif wishes_the_listener(r.text):  # a wish for her, not news of theirs to be happy about
            parts.append(f"Thank you{hi}, that's kind of you!")
        elif glad:
            parts.append(f"I'm glad to hear that{hi}.")
        elif secret := _between_us(r.text, hi):
            # her memories open to the one who told them, and to no one else: said first, then how it felt
            parts.append(secret + (f" {template.format(hi='')}" if template else ""))
        elif template:
            parts.append(template.format(hi=hi))
        elif cues.HOW_ARE_YOU.search(r.text):
            parts.append(f"I'm very well, thank you{hi}! And how are you?")
        elif in_the_clocks_form(r.text):
            parts.append(_clock_answer(r.text, r.now))
        elif untold := _untold(r):
            parts.append(untold)
        elif request := request_of_nadine(r.text):  # "tell me a joke": nothing she knows does it
            parts.append(f"I'm afraid I can't {request}{hi}.")
        elif cues.is_about_nadine(r.text):  # her knowledge holds nothing that answers it
            parts.append(f"I'm afraid I don't know that about myself{hi}.")
        elif cues.is_question(r.text) and statement_tagged(cues.sentences(r.text)[-1]) is None:
            parts.append("That's a good question. I'm afraid I don't know the answer.")
        elif bare_answer(r.text):  # nothing was asked: a yes or a no is taken as said
            parts.append(_ACKNOWLEDGED.format(hi=hi))
        elif plan := _a_plan_told(r, hi):  # a plan told calmly: when it falls, so a misread day shows
            parts.append(plan)
        elif (sign := felt_sign or news_sign(r.text)) and not _against_the_news_before(r, sign):
            parts.append(_NEWS[sign].format(hi=hi))  # news told calmly: its kind is said, no feeling is named
        elif r.user_emotion.intensity >= _NEWS_INTENSITY:
            # worth keeping, but its feeling unsure: thank them rather than guess how it felt (said back
            # whole, a messy message comes out garbled: "your bday is march 13 not march 3, your bad")
            parts.append(f"Thank you for telling me{hi}.")
        elif (going_on := _goes_on_about_the_news(r)) and (going_on == "negative" or sign in (None, going_on)):
            # a detail of the news before keeps its tone, unless it is read the other way: bad news is
            # gone on about whatever a detail seems ("i had her since i was a kid" after the cat died)
            parts.append(_GOING_ON[going_on].format(hi=hi))
        elif is_told(r.text) and (thing := thing_told(r.text)) is not None:
            # a thing of theirs told of plainly: named back, so they hear what was taken in
            parts.append(f"Thank you for telling me about {thing}{hi}.")
        else:
            parts.append(f"I see{hi}. Tell me more!")
    return Composed(" ".join(parts), from_profile=bool(answer))
