"""What a person told, as Nadine says it back: reported speech after "you told me", read from spaCy's
parse rather than replaced word by word. "I'll command the next shuttle mission" -> "you'd command
the next shuttle mission"; "My sister gave me her old car" -> "your sister gave you her old car";
"You helped me so much" -> "I helped you so much".

Only the person's own words change: the speaker's pronouns become the listener's (I, my, we ... ->
you, your ...), Nadine's become hers (you -> I where it is a subject, me elsewhere), a verb whose
subject changed person agrees with its new one (am -> are, was -> were), and a modal of the future
or of ability moves one step back (will -> would, can -> could), since what was said lies in the
past. A leading interjection ("Oh", "Guess what") or conjunction ("And our cat ...": it joined the
words to what was said before them) and the closing punctuation are left out, and
every sentence after the first is joined to it: the whole is one clause after "you told me".

Said back on a later day, the words that placed it in time from the day it was said move with it:
"today" -> "that day", "yesterday" -> "the day before", "this morning" -> "that morning", "last
night" -> "the night before", "tomorrow" -> "the day after" ("yesterday you told me your daughter
was accepted into medical school that day"), as reported speech does in English grammar. A day of
the week names the date it meant on the day it was said: "my niece's recital is Saturday at 3",
told on Monday 7 December, is said back "your niece's recital is Saturday the 12th at 3".
"""

from __future__ import annotations

import calendar
import functools
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from common.clock import spoken_day
from interaction.memory.retrieval.lexicon import load_wordnet
from interaction.memory.told import what_it_tells
from interaction.memory_intent.phrasing import second_person
from interaction.memory_intent.to_do import to_do
from interaction.offline.chat_spelling import CHAT_SPELLINGS
from interaction.offline.parsing import (
    ahead_of_telling,
    behind_telling,
    comes_round,
    opening_aside,
    subject_joined_after,
    told_as_past,
    verb_of,
)
from interaction.offline.question_form import bare_wh, forbids, tagged_question
from interaction.told_time import ORDINAL_DAY, WEEKDAYS, named_time

log = logging.getLogger("nadine.reported_speech")

# personal pronouns by grammatical person: closed grammar, not a list fitted to examples
_SPEAKER_TO_LISTENER = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself",
                        "we": "you", "us": "you", "our": "your", "ours": "yours", "ourselves": "yourselves"}
_LISTENER_TO_SPEAKER = {"your": "my", "yours": "mine", "yourself": "myself", "yourselves": "ourselves"}
_BE_FOR_YOU = {"am": "are", "'m": "'re", "was": "were"}
_BE_FOR_I = {"are": "am", "'re": "'m", "were": "was"}
_MAX_OPENING = 6  # "guess what", "you know what", "you'll never guess what"
_NAMING = {"NOUN", "PROPN", "NUM", "ADJ"}
_BACKSHIFT = {"will": "would", "'ll": "'d", "wo": "would", "shall": "should", "sha": "should",
              "can": "could", "ca": "could", "may": "might"}
_SUBJECTS = {"nsubj", "nsubjpass", "expl"}
# deictic time words, from the day something was said to a later day (closed grammar of reported speech)
_DAY_WORDS = {"today": "that day", "tonight": "that night", "yesterday": "the day before",
              "tomorrow": "the day after"}
_DAY_OFFSETS = {"today": 0, "tonight": 0, "yesterday": -1, "tomorrow": 1}
_PARTS_OF_DAY = {"morning", "afternoon", "evening", "night", "week", "weekend"}
# a day of the week after one of these is the one to come whatever the verb's tense ("moved to Friday")
_PRONOUN_TAGS = {"PRP", "PRP$"}
# nouns of telling and thinking ("story", "news", "fact"): words that frame what is told, not what it is
_OF_TELLING = {"noun.communication", "noun.cognition"}  # Penn tags: a personal or possessive pronoun ("mine", never "a coal mine")


@functools.cache
def _parser():
    """The shipped spaCy pipeline; None (one log line) when it cannot load."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return load_parser()
    except ParserUnavailable as exc:
        log.error("%s; recalled words are said back with their pronouns swapped word by word", exc)
        return None


def _as_parsed(text: str) -> str:
    return " ".join(text.replace("\u2019", "'").split())


def read_ahead(texts: Iterable[str]) -> None:
    """Parse in one spaCy batch the texts reported() is about to be given (pipe gives every text the
    parse one call gives it, at about half the cost of one call each); the parser keeps the Docs."""
    nlp = _parser()
    if nlp is not None:
        nlp.pipe(dict.fromkeys(map(_as_parsed, texts)))


@dataclass(frozen=True)
class SaidDay:
    """The day something was said and the day it is said back on, as people speak of days
    (common.clock.spoken_day)."""

    on: date
    today: date

    @property
    def days_ago(self) -> int:
        return max(0, (self.today - self.on).days)


_A_NIGHT_AGO = timedelta(hours=12)


def said_day(said_at: str | datetime | None, now: datetime) -> SaidDay | None:
    """When something was said (ISO 8601 or a datetime), seen from `now`; None: today, or unknown."""
    if said_at is None:
        return None
    try:
        when = said_at if isinstance(said_at, datetime) else datetime.fromisoformat(said_at)
    except ValueError:
        return None
    today = spoken_day(now)
    on = spoken_day(when)
    if on == today != now.date() and when.date() < now.date() and now - when > _A_NIGHT_AGO:
        # in the small hours, what was told before the evening that is ending was told "yesterday"
        # (at three in the morning, a thing of yesterday morning is no "earlier today"); a thing told
        # in an earlier night's small hours is a spoken day back already, counted as such
        today = now.date()
    return SaidDay(on, today)


def reported(text: str, nlp=None, said: SaidDay | None = None) -> str:
    """The words of `text` as the clause after "you told me" (see the module docstring); `said`:
    the day it was said (its time words move from the next day on; None: today)."""
    text = what_it_tells(text)  # "you told me good evening; you were Hyacinth; and ..." says nothing
    days_ago = said.days_ago if said else 0
    nlp = nlp or _parser()
    if nlp is None:  # without a parse: the word-by-word swap the remember confirmations use
        said = second_person(text.strip().rstrip(" .!?"))
        return said if said.startswith(("I ", "I'")) else said[:1].lower() + said[1:]
    doc = nlp(_as_parsed(text))
    words: list[str] = [t.text_with_ws for t in doc]
    subject_became: dict[int, str] = {}  # head token index -> "you" / "I": whose verb must agree
    for t in doc:
        low = t.lower_
        new = None
        if t.tag_ not in _PRONOUN_TAGS:
            continue
        if low in _SPEAKER_TO_LISTENER:
            new = _SPEAKER_TO_LISTENER[low]
        elif low == "you":
            new = "I" if t.dep_ in _SUBJECTS else "me"
        elif low in _LISTENER_TO_SPEAKER:
            new = _LISTENER_TO_SPEAKER[low]
        if new is None:
            continue
        if t.dep_ in _SUBJECTS:
            subject_became[t.head.i] = "I" if new == "I" else "you" if low in ("i", "we") else ""
        words[t.i] = _cased(t, new) + t.whitespace_
    for t in doc:
        low = _contraction(doc, t)
        if low != t.lower_:  # "im" typed without its apostrophe: said back with it ("you're", "you've")
            words[t.i] = low + t.whitespace_
        # a verb agrees with the subject hung on it or on the verb it helps: the parser may hang "I" on
        # the auxiliary itself ("I'm lowkey dreading Monday": "I" on "'m", "'m" on "dreading")
        became = subject_became.get(t.i) or (subject_became.get(t.head.i) if t.dep_ in ("aux", "auxpass") else None)
        if low == "'m" and t.i > 0 and doc[t.i - 1].lower_ == "i":
            became = "you"  # "'m" follows only "I", however the parser hangs the two ("im aisha")
        if became == "you" and low in _BE_FOR_YOU:
            words[t.i] = _cased(t, _BE_FOR_YOU[low]) + t.whitespace_
        elif became == "I" and low in _BE_FOR_I:
            words[t.i] = _cased(t, _BE_FOR_I[low]) + t.whitespace_
        if t.tag_ == "MD" and low in _BACKSHIFT and not _beside_a_number(t) and t.ent_type_ != "DATE":
            # spaCy splits "won't" / "can't" as "wo" / "ca" + "n't"
            words[t.i] = _cased(t, _BACKSHIFT[low]) + t.whitespace_
        elif days_ago >= 1 and _felt_then(t):
            # how they felt is said as how they felt that day ("you were so proud of her"); what they
            # are ("a nurse") stays as said
            past = "were" if became == "you" or low in ("are", "'re") else "was"
            words[t.i] = ("" if t.i == 0 or doc[t.i - 1].whitespace_ else " ") + _cased(t, past) + t.whitespace_
    if said is not None and days_ago >= 1:
        _shift_time_words(doc, words, said)
    return _one_clause(doc, words)


def _felt_then(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """A present "be" whose complement is an adjective of feeling, one the sentiment lexicon scores,
    or any adjective said of the day it was said ("I'm knackered today", "I'm so tired this
    morning"): a state of that day ("I'm so proud", "it's exhausting"); a lasting quality ("my
    favourite colour is green", "he's 7 years old") holds as said."""
    from interaction.offline.emotion_intensity import vader

    if token.lemma_ != "be" or token.tag_ not in ("VBP", "VBZ") or token.dep_ == "aux":
        return False
    states = [c for c in token.children if c.dep_ == "acomp"]
    return bool(states) and (_of_the_day(token) or any(
        c.lower_ in vader().lexicon or c.lemma_.lower() in vader().lexicon for c in states))


def _of_the_day(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """The verb is placed in the day it was said by a word of that day ("today", "tonight", "this
    morning")."""
    return any(c.dep_ == "npadvmod" and (_DAY_OFFSETS.get(c.lower_) == 0 or (
        c.lemma_.lower() in _PARTS_OF_DAY and any(d.dep_ == "det" and d.lower_ == "this" for d in c.children)))
        for c in verb.children)


def _contraction(doc, token) -> str:
    """The token's lower-case form, with the apostrophe a contracted verb typed without one lacks:
    spaCy splits "im" / "ive" / "youre" after a pronoun as it splits "I'm" ("i" + "m"), so the verb
    reads "m" where the pronoun's new person needs "'m" -> "'re" (no verb of one or two letters
    follows a pronoun without a space otherwise)."""
    low = token.lower_
    if (token.i > 0 and not doc[token.i - 1].whitespace_ and doc[token.i - 1].tag_ in _PRONOUN_TAGS
            and token.tag_.startswith(("VB", "MD")) and low.isalpha() and len(low) <= 2):
        return "'" + low
    return low


def _from_today(word: str, said: SaidDay) -> str | None:
    """A day word whose day is still to come, as said today: "tomorrow" told yesterday is "today",
    told two days before tomorrow's "tomorrow" ("your hearing appointment is tomorrow at 3", said back
    the next day, was "the day after at 3"); None for a day gone by, which "the day after" says."""
    soon = _today_or_tomorrow(said.on + timedelta(days=_DAY_OFFSETS[word]), said)
    return "tonight" if soon == "today" and word == "tonight" else soon


def _today_or_tomorrow(meant: date, said: SaidDay) -> str | None:
    """"today" or "tomorrow" for a day that is one of them on the day it is said back; None otherwise."""
    return {0: "today", 1: "tomorrow"}.get((meant - said.today).days)


def _week_from_today(modifier: str, said: SaidDay) -> str | None:
    """"this" or "next" of a week still to come or going on, as said today ("next week" told on a
    Friday is still next week on the Saturday, and this week on the Monday); None otherwise."""
    if modifier not in ("this", "next"):
        return None
    meant = said.on - timedelta(days=said.on.weekday()) + timedelta(weeks=modifier == "next")
    weeks = (meant - (said.today - timedelta(days=said.today.weekday()))).days // 7
    return {0: "this", 1: "next"}.get(weeks)


def _shift_time_words(doc, words: list[str], said: SaidDay) -> None:
    """"today" -> "that day", "this morning" -> "that morning", "last night" -> "the night before",
    "on Saturday" -> "on Saturday the 12th" (in place): the day they meant is no longer today."""
    for t in doc:
        low = t.norm_ if t.lower_ in CHAT_SPELLINGS else t.lower_  # "tmrw" is "tomorrow"
        if _a_weekday_alone(doc, t):
            _name_the_date(doc, t, words, said, near=True)
        elif low in _DAY_WORDS and t.pos_ in ("NOUN", "ADV", "PROPN"):
            words[t.i] = _cased(t, _from_today(low, said) or _DAY_WORDS[low]) + t.whitespace_
        elif t.lemma_.lower() in _PARTS_OF_DAY and t.i > 0 and doc[t.i - 1].head.i == t.i:
            before = doc[t.i - 1]
            if t.lemma_.lower() == "week" and (now := _week_from_today(before.lower_, said)) is not None:
                words[before.i] = _cased(before, now) + before.whitespace_  # still to come: as said today
            elif before.lower_ == "this":
                words[before.i] = _cased(before, "that") + before.whitespace_
            elif before.lower_ == "last":
                words[before.i] = _cased(before, "the") + before.whitespace_
                words[t.i] = t.text + " before" + t.whitespace_
            elif before.lower_ == "next":
                words[before.i] = _cased(before, "the") + before.whitespace_
                words[t.i] = t.text + " after" + t.whitespace_


def _a_weekday_alone(doc, token) -> bool:  # noqa: ANN001 - spaCy Doc, Token
    """A day of the week that names no date of its own ("on Saturday", never "Saturday the 12th" nor
    "Saturday 12 December")."""
    # a comma may set the date off after its day ("Thursday, the 10th", "Saturday, 12 December"): it
    # still is that day's date, a number counting a month's days as much as one the recogniser marks
    after = [t for t in doc[token.i + 1: token.i + 4] if not t.is_punct][:2]
    # "every Sunday", "Wednesday evenings", "the first Saturday of the month": a day that comes round,
    # no date ("on Sundays" is plural)
    if comes_round(token):
        return False
    return token.lower_ in WEEKDAYS and token.ent_type_ == "DATE" \
        and not any(t.like_num or t.ent_type_ == "ORDINAL" or ORDINAL_DAY.fullmatch(t.text) for t in after
                    if t.ent_type_ in ("DATE", "ORDINAL") or t.head.ent_type_ == "DATE" or t.lower_ == "the"
                    or ORDINAL_DAY.fullmatch(t.text))  # "Thursday the 10th": the tagger may leave "10th" out


def dates_named(text: str, said: SaidDay | None, start: int, end: int, *, today_too: bool = False) -> str:
    """`text[start:end]` with each day of the week in it named as the date it meant, read in the
    whole of `text` (an answer's few words keep the tense of the clause they came from: "on Friday"
    of "we went to the fair on Friday" is the Friday before); said on the day it was told only when
    `today_too` (a memory said back as it is kept, so the person hears which Friday was taken)."""
    nlp = _parser()
    if said is None or (said.days_ago < 1 and not today_too) or nlp is None:
        return text[start:end]
    doc = nlp(text)
    words = [t.text_with_ws for t in doc]
    inside = [t for t in doc if start <= t.idx and t.idx + len(t) <= end]
    for t in inside:
        if _a_weekday_alone(doc, t):
            _name_the_date(doc, t, words, said)
    return "".join(words[t.i] for t in inside).strip() or text[start:end]


def _name_the_date(doc, day, words: list[str], said: SaidDay, near: bool = False) -> None:  # noqa: ANN001 - spaCy Doc, Token
    """A day of the week as the date it meant on the day it was said (in place): the one before
    after "last" or in a clause told in the past ("we went on Friday"), else the one to come ("the
    recital is Saturday", "moved to Friday", "this Sunday": today's if it was said that day). The
    month is said when it is not this one. `near`: a day to come that is today or tomorrow is said
    so (in a whole clause said back; an answer's few words are shifted again as the clause's)."""
    before = doc[day.i - 1] if day.i > 0 and doc[day.i - 1].head.i == day.i else None
    modifier = before.lower_ if before is not None and before.lower_ in ("last", "next", "this", "coming") else None
    # the verb its phrase hangs on, however high ("had a heart attack on tuesday": "on" on "attack")
    head = verb_of(day)
    past = modifier == "last" or behind_telling(day) or (modifier is None and not ahead_of_telling(day)
                                                         and told_as_past(head))
    weekday, said_on = WEEKDAYS[day.lower_], said.on.weekday()
    if past:
        # a day of its own week told in the past is that very day unless "last" says the week before:
        # "got a gig on Saturday" told on a Saturday is that Saturday, whatever "got" tells
        meant = said.on - timedelta(days=(said_on - weekday) % 7 or (7 if modifier == "last" else 0))
    else:
        meant = said.on + timedelta(days=(weekday - said_on) % 7 or (0 if modifier == "this" else 7))
        # ... or the one of the week the clause names ("my shift next week starts Tuesday")
        week = named_time(doc, datetime.combine(said.on, time()))
        if week is not None and week.a_day and week.start.weekday() == weekday and week.start.date() > said.on:
            meant = week.start.date()
            # the date said names the week: "on Saturday the 19th at 6pm", not "... the 19th next week ..."
            for told_week in (e for e in doc.ents if e.label_ == "DATE" and e.root.lower_ == "week"):
                for t in told_week:
                    if t.i != day.i:
                        words[t.i] = ""
    month = "" if meant.month == said.today.month else f" of {meant:%B}"
    if before is not None and modifier is not None:
        words[before.i] = ""
    part = day.head if day.head.i == day.i + 1 and day.head.lemma_.lower() in _PARTS_OF_DAY else None
    soon = _today_or_tomorrow(meant, said) if near and not past else None
    if soon is not None:
        # the day they meant is the one it is said back on, or the next: "on Sunday afternoon" told on
        # Saturday is "this afternoon" on the Sunday, never "on Sunday the 6th in the afternoon"
        first = before if before is not None and modifier is not None else day
        if first.i > 0 and doc[first.i - 1].lower_ == "on":
            words[first.i - 1] = ""
        words[day.i] = (("this" if soon == "today" else soon) + " ") if part is not None else soon + day.whitespace_
        return
    words[day.i] = f"{calendar.day_name[weekday]} the {_ordinal(meant.day)}{month}" + day.whitespace_
    if part is not None:  # "Thursday evening": "Thursday the 10th in the evening", never "the 10th evening"
        words[part.i] = f"in the {part.text}" + part.whitespace_


def _ordinal(number: int) -> str:
    """12 -> "12th", 22 -> "22nd": English ordinals are closed grammar."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _cased(token, new: str) -> str:
    """A word's new form, capitalised only where the old one was for a reason of its own (a
    sentence's first word is lower-cased later; "I" always is capitalised)."""
    if new == "I":
        return new
    kept = token.text[:1].isupper() and token.lower_ != "i" and token.i != token.sent.start
    return new[:1].upper() + new[1:] if kept else new


def _beside_a_number(t) -> bool:  # noqa: ANN001 - a spaCy Token
    """A word written next to a number ("3rd may", "may 3rd", "5 may") is part of a date, whatever the
    tagger made of it: a modal never stands by a number with no verb of its own. (Further from it, "the
    21st of may", the recogniser's date says so.)"""
    return any(0 <= i < len(t.doc) and t.doc[i].text[:1].isdigit() for i in (t.i - 1, t.i + 1))


def _one_clause(doc, words: list[str]) -> str:
    """The sentences as one clause: questions asked along the way, leading interjections and closing
    punctuation dropped, each
    sentence's first word lower-cased (unless a name or "I"), sentences after the first joined by ";"."""
    clauses: list[str] = []
    sentences = list(doc.sents)
    # a question asked on the way ("You know what?", "Can you believe it?") is not what was told
    told = [s for s in sentences if s[-1].text != "?"] or sentences
    for sent in told:
        tokens = list(sent) if clauses else _without_frame(list(sent))
        # a conjunction opening the first sentence joined it to words before it, not to "you told me"
        # ... but never a word said with the subject ("jake and i broke up", which the parser may split)
        while tokens and subject_joined_after(tokens[0]) is None and (
                tokens[0].dep_ == "intj" or (opening_aside(tokens[0]) and not (tokens[0].pos_ == "CCONJ" and clauses))
                or _unread_interjection(tokens)):
            # an interjection goes with the words that hang on it ("Hi there", "oh well")
            dropped = {t.i for t in tokens[0].subtree} if tokens[0].dep_ == "intj" else {tokens[0].i}
            tokens = [t for t in tokens if t.i not in dropped]
            # a name set off by a comma before the clause is who was addressed ("Nadine, my sister ...")
            if len(tokens) > 2 and tokens[0].pos_ == "PROPN" and tokens[0].dep_ not in _SUBJECTS \
                    and tokens[1].text == ",":
                tokens = tokens[2:]
        if not clauses:  # a frame after the interjection ("Oh, change of plan: the book club meets on Friday now")
            tokens = _without_frame(tokens)
        tokens = _without_tag_question(_without_announcement(tokens))
        while tokens and tokens[-1].pos_ == "PUNCT" and tokens[-1].text in ".!?…":
            tokens.pop()
        if not tokens:
            continue
        first = next((t for t in tokens if words[t.i]), tokens[0])  # a word left out says nothing ("last" of a date named)
        text = "".join(words[t.i] for t in tokens).strip()
        if first.pos_ != "PROPN" and not text.startswith(("I ", "I'")):
            text = text[:1].lower() + text[1:]
        said = _elided_subject(first) + text
        # a sentence the splitter cut before its conjunction goes on the one before ("so... jake" / "and i
        # broke up"): joined by it, not by a semicolon
        clauses[-1:] = [f"{clauses[-1]} {said}"] if clauses and first.pos_ == "CCONJ" else [*clauses[-1:], said]
    return "; ".join(clauses)


def _elided_subject(first) -> str:  # noqa: ANN001 - a spaCy Token
    """The subject a sentence that opens with its own past verb left unsaid, as it is said back: the
    speaker's ("got 2 kids, Tom and Ellie", "went to Lisbon last week": "you got 2 kids", "you went
    to Lisbon"); a participle without its auxiliary dropped "have" with the subject ("been so busy":
    "you've been so busy", "been volunteering since June": "you've been volunteering"). A past "be"
    would need its person too ("was so tired"), and is left as said. Adverbs before the verb go with it
    ("just got back from Japan": "you just got back")."""
    while first.dep_ == "advmod" and first.head.i > first.i and first.i + 1 < len(first.doc):
        first = first.doc[first.i + 1]
    verb = first.head if first.dep_ in ("aux", "auxpass") else first
    if verb.dep_ != "ROOT" or first.tag_ not in ("VBD", "VBN") or (first.lemma_ == "be" and first.tag_ == "VBD") \
            or any(c.dep_ in _SUBJECTS or (c.dep_ in ("aux", "auxpass") and c.i < first.i) for c in verb.children):
        return ""
    return "you've " if first.tag_ == "VBN" else "you "


def _without_frame(tokens: list) -> list:
    """A sentence without the words that only frame what it tells, set off before it by a comma, a
    colon or a dash: a noun of telling or thinking by WordNet's lexicographer file with no verb nor
    time of its own ("long story, but basically my brother is moving", "good news, dad's scan came
    back clear", "fun fact: my grandad flew Spitfires"), when what follows tells with a subject of
    its own. "Last week, my brother moved" keeps its time. So does a plea not to do something ("don't tell
    anyone yet, but ..."): it tells nothing."""
    # a hyphen inside a word ("follow-up") sets nothing off
    cut = next((k for k, t in enumerate(tokens[:_MAX_OPENING]) if t.is_punct and (t.whitespace_ or k + 1 == len(tokens))), None)
    if not cut:
        return tokens
    opening, rest = tokens[:cut], tokens[cut + 1:]
    tells = any(t.dep_ in _SUBJECTS and t.head.pos_ in ("VERB", "AUX") for t in rest)
    if tells and any(forbids(t) for t in opening):
        return rest  # "don't tell anyone yet, but the due date is ...": the plea tells nothing
    lexicon = load_wordnet()
    if lexicon is None or any(t.pos_ in ("VERB", "AUX", "PRON") or t.ent_type_ in ("DATE", "TIME") for t in opening):
        return tokens
    if not any(t.pos_ in ("NOUN", "PROPN") and lexicon.lexical_file(t.lemma_.lower()) in _OF_TELLING for t in opening):
        return tokens
    return rest if tells else tokens


def _unread_interjection(tokens: list) -> bool:
    """An opening word the tagger did not read as an interjection ("ugh", "omg", "lol" typed in a
    chat, which it tags as an adverb, a preposition or a name): a word on its own before the
    clause's subject that is no English word at all, so it carries no part of what was told."""
    if len(tokens) < 3:
        return False
    first = tokens[0]
    set_off = tokens[1].text == ","  # then not the subject, whatever the tagger says ("Ugh, the boiler broke")
    if not first.is_alpha or first.is_stop or list(first.children) \
            or (first.dep_ in _SUBJECTS and not set_off):
        return False
    if not (first.is_lower or set_off):  # a capitalised word run into the clause may be its name
        return False
    lexicon = load_wordnet()
    return lexicon is not None and not lexicon.knows(first.text)


def _without_announcement(tokens: list) -> list:
    """The words after an opening that only announces them: a few words addressed to the listener
    (an imperative, or "you" their subject) that name nothing and end in a wh-word with no clause
    of its own or, set off by punctuation, hold only verbs of the mind ("Guess what, my granddaughter
    was born", "you know what, I got the job", "You'll never guess — my son got engaged"). What
    follows was told; "I asked him what, and he left" and "You promised, then you forgot" were told whole."""
    cut = next((k for k, t in enumerate(tokens[:_MAX_OPENING]) if bare_wh(t) or (k and t.is_punct)), None)
    if cut is None:
        return tokens
    opening = tokens[:cut + bare_wh(tokens[cut])]
    if any(t.pos_ in _NAMING or (t.dep_ in _SUBJECTS and t.lower_ not in ("you", "u")) for t in opening):
        return tokens
    if not bare_wh(tokens[cut]) and not all(_of_the_mind(t) for t in opening if t.pos_ == "VERB"):
        return tokens
    rest = tokens[cut + 1:]
    while rest and rest[0].pos_ == "PUNCT":
        rest = rest[1:]
    return rest  # none: the sentence only announced the next ("Guess what! We moved.")


def _of_the_mind(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """A verb of knowing or perceiving by its most frequent WordNet sense ("guess", "know", "listen")."""
    lexicon = load_wordnet()
    return lexicon is not None and lexicon.verb_lexical_file(verb.lemma_) in ("verb.cognition", "verb.perception")


def _without_tag_question(tokens: list) -> list:
    """A statement without the question tagged on after its last comma ("we bought a house in
    Tavira, can you believe it"): the statement is what was told."""
    commas = [k for k, t in enumerate(tokens) if t.text == ","]
    if not commas:
        return tokens
    head, tail = tokens[: commas[-1]], tokens[commas[-1] + 1:]
    return head if tagged_question(*("".join(t.text_with_ws for t in part) for part in (head, tail))) else tokens


def told_back(kind: str, text: str, said: SaidDay | None = None) -> str:
    """How Nadine says one remembered thing the person said or asked her to keep, in the offline
    reply and in the model's prompt alike ("you told me you'd command the next shuttle mission");
    `said`: the day it was said."""
    if kind == "explicit_memory":
        return f"you asked me to {asked_to_keep(text, said)}"
    return f"you told me {reported(text, said=said)}"


def asked_to_keep(text: str, said: SaidDay | None = None) -> str:
    """What the person asked Nadine to keep, as the words after "you asked me to": "remember that
    your passport expires in March", or a to-do as the request it was ("remind you to phone the
    dentist on Monday", "remember to ask you about your exam results")."""
    return reported(text, said=said) if to_do(text) is not None else \
        f"remember that {reported(text, said=said)}"
