"""Whether a remembered thing says what a yes / no question asks: "Is my MOT due in March?" over "my
car's MOT is due on the 28th of February" is a no, "Is my gym locker number 112?" over "my locker at
the gym is number 112" a yes. A question asking whether, answered "Yes —" whatever its value, would
agree with a false premise.

The values a question asks are read off spaCy's entities and tags: a date or time, a number, a place
(one that is not part of its subject: "is my Paris flight on Monday?" asks the day), never the time
something was told ("did I tell you yesterday ...?"). Each is compared
with the memory's value of the same kind: dates by the calendar (parsedatetime reads both, the
memory's as of the day it was told: month, and day of the month when both name one), numbers as
said, places by their words or by WordNet (a place within the one asked, or containing it, agrees).
A question naming no such value ("is my uncle retiring?") has nothing to compare: None.
"""

from __future__ import annotations

import re
import threading
from datetime import datetime
from typing import Literal

import parsedatetime

Verdict = Literal["yes", "no", "unsure"]
_TIME_ENTS = {"DATE", "TIME"}
_PLACE_ENTS = {"GPE", "LOC", "FAC"}
_DAY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\b")
_ACU = parsedatetime.pdtContext
# parsedatetime's precisions that name a day of the month, and those that name only a month
_OF_A_DAY = _ACU.ACU_DAY | _ACU.ACU_HALFDAY | _ACU.ACU_HOUR | _ACU.ACU_MIN
_calendars = threading.local()
_TELLING = ("verb.communication", "verb.cognition")  # WordNet's verb files of saying and of knowing


def whether_told(question: str, memory: str, told_on: datetime | None, now: datetime) -> Verdict | None:
    """"yes" when every value the question asks is the memory's, "no" when one differs from the
    memory's value of its kind, "unsure" when one cannot be compared; None when it asks none."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return None
    q, m = nlp(question), nlp(memory)
    subject = {t.i for s in q if s.dep_ in ("nsubj", "nsubjpass") for t in s.subtree}
    verdicts: list[Verdict] = []
    for ent in q.ents:
        if ent.label_ in _TIME_ENTS and not _a_number(ent, now) and not _when_told(ent):
            verdicts.append(_same_date(ent.text, now, [e.text for e in m.ents if e.label_ in _TIME_ENTS],
                                       told_on or now))
        elif ent.label_ in _PLACE_ENTS and not subject & {t.i for t in ent}:
            verdicts.append(_same_place(ent, m))
    asked = _numbers(q, now)
    if asked:
        held = _numbers(m, told_on or now)
        verdicts.append("unsure" if not held else "yes" if asked <= held
                        else "no" if all(n.isdigit() for n in asked | held) else "unsure")
    if not verdicts:
        return None
    return "no" if "no" in verdicts else "unsure" if "unsure" in verdicts else "yes"


def _when_told(ent) -> bool:  # noqa: ANN001 - a spaCy Span
    """The time is when something was told or remembered, not a value asked ("did I tell you yesterday
    about ...?"): it hangs on a verb whose most frequent WordNet sense is of telling or knowing."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    verb = ent.root
    while verb.pos_ not in ("VERB", "AUX") and verb.head.i != verb.i:
        verb = verb.head
    wordnet = load_wordnet()
    return wordnet is not None and verb.pos_ in ("VERB", "AUX") and wordnet.verb_lexical_file(verb.lemma_) in _TELLING


def _numbers(doc, now: datetime) -> set[str]:  # noqa: ANN001 - a spaCy Doc
    """The numbers a text says that are not part of a date or time ("number 112", "two cats")."""
    times = [e for e in doc.ents if e.label_ in _TIME_ENTS and not _a_number(e, now)]
    return {t.lower_ for t in doc if t.like_num and not any(t in e for e in times)}


def _a_number(ent, now: datetime) -> bool:  # noqa: ANN001 - a spaCy Span
    """A number the entity recogniser took for a date or time but the calendar cannot read as one
    ("the code is 4417")."""
    return _day_of(ent.text, now) is None and any(t.like_num for t in ent)


def _calendar() -> parsedatetime.Calendar:
    calendar = getattr(_calendars, "calendar", None)
    if calendar is None:  # parsedatetime keeps parse state on the calendar: one per thread
        calendar = _calendars.calendar = parsedatetime.Calendar(version=parsedatetime.VERSION_CONTEXT_STYLE)
    return calendar


def _day_of(text: str, now: datetime) -> tuple[int, int | None] | None:
    """The month a date names and its day of the month when it names one; None when unread."""
    found = _calendar().nlp(text, sourceTime=now)
    if not found:
        return None
    point, context, *_ = found[0]
    if not context.accuracy & (_OF_A_DAY | _ACU.ACU_MONTH):
        return None
    said = _DAY.search(text)  # "the 28th of February": parsedatetime reads the month alone
    day = point.day if context.accuracy & _OF_A_DAY else int(said.group(1)) if said else None
    return point.month, day


def _same_date(asked: str, now: datetime, held: list[str], told_on: datetime) -> Verdict:
    question = _day_of(asked, now)
    memory = next((d for d in (_day_of(h, told_on) for h in held) if d is not None), None)
    if question is None or memory is None:
        return "unsure"
    if question[0] != memory[0]:
        return "no"
    if question[1] is None or memory[1] is None:
        return "yes" if question[1] is None else "unsure"
    return "yes" if question[1] == memory[1] else "no"


def _same_place(asked, m) -> Verdict:  # noqa: ANN001 - a spaCy Span and Doc
    from interaction.memory.retrieval.lexicon import Relation, load_wordnet

    places = [e for e in m.ents if e.label_ in _PLACE_ENTS]
    if not places:
        return "unsure"
    if asked.text.lower() in m.text.lower():
        return "yes"
    wordnet = load_wordnet()
    if wordnet is not None and any(wordnet.relation(asked.root.lemma_.lower(), p.root.lemma_.lower())[0]
                                   in (Relation.SAME, Relation.BROADER, Relation.NARROWER) for p in places):
        return "yes"
    return "no"
