"""Questions the clock answers, not memory: what day or date it is, today or on a day the question
names ("what's the date tomorrow?", "what day is it on Saturday?"), and what time it is.

The question has the form cues.ASKS_DATE or cues.ASKS_TIME reads, and names nothing besides what it
asks: every noun outside that form lies in a date or time spaCy's recogniser reads ("on Saturday",
"tomorrow"), and no preposition opens it ("at what time is it?" asks when the thing "it" stands for
happens). "What's the date of my ferry?" names a ferry: that is memory's question. The day named is
read by told_time as of the turn's clock, never the machine's.
"""

from __future__ import annotations

from datetime import date, datetime

from common.clock import spoken_day
from interaction import cues
from interaction.told_time import told_in

_NOUNS = {"NOUN", "PROPN"}
_OF_THE_CALENDAR = {"DATE", "TIME"}


def _asked(text: str) -> list[tuple[int, int]]:
    return [m.span() for pattern in (cues.ASKS_DATE, cues.ASKS_TIME) for m in pattern.finditer(text)]


def in_the_clocks_form(text: str) -> bool:
    """`text` asks what day, date or time it is by its words (cues.ASKS_DATE, cues.ASKS_TIME), and no
    preposition opens the question ("at what time is it?" asks when the thing "it" stands for happens)."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    spans = _asked(text)
    if not spans:
        return False
    try:
        return not _opened_by_a_preposition(load_parser()(text), spans)
    except ParserUnavailable:
        return True


def _opened_by_a_preposition(doc, spans: list[tuple[int, int]]) -> bool:  # noqa: ANN001 - a spaCy Doc
    """A preposition stands right before the question ("at what time is it?", "on what day is it to
    be held?"), or is left standing after its verb ("what time is it at?", "what day's it on again?"): it
    asks when something happens, not what the clock says."""
    opened = any(t.pos_ == "ADP" and t.i + 1 < len(doc) and any(doc[t.i + 1].idx == s for s, _ in spans) for t in doc)
    stranded = any(t.lower_ in ("at", "on") and t.head.lemma_ == "be" and not any(c.dep_ == "pobj" for c in t.children)
                   and t.i > t.head.i for t in doc)
    return opened or stranded


def asks_the_clock(text: str) -> bool:
    """`text` asks the day, the date or the time, of now or of a day it names, and nothing else."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    spans = _asked(text)
    if not spans:
        return False
    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return True  # the form alone, as before the parse
    if _opened_by_a_preposition(doc, spans):
        return False
    return all(t.ent_type_ in _OF_THE_CALENDAR or any(s <= t.idx < e for s, e in spans)
               for t in doc if t.pos_ in _NOUNS)


def named_day(text: str) -> str | None:
    """The words naming the day a clock question asks of ("tomorrow", "on Saturday" -> "Saturday");
    None when it names none (it asks of today)."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return None
    spans = _asked(text)
    return next((e.text for e in doc.ents if e.label_ == "DATE"
                 and not any(s <= e.start_char < end for s, end in spans)), None)


def day_asked(text: str, now: datetime) -> date | None:
    """The day a clock question asks of: the one it names, as of `now`, else today; None when what it
    names is no single day ("what's the date this month?"). Today is the calendar's: a date asked for at
    two in the morning is for the day just begun, whatever "last night" still means."""
    if named_day(text) is None:
        return now.date()
    told = told_in(text, now, spoken=False)
    return told.start.date() if told is not None and told.a_day else None


def day_said(text: str, now: datetime) -> str:
    """The answer to a clock question about a day: "tomorrow is Friday 4 December 2026", "Saturday is
    5 December 2026", "today is ..."; a day it names but that is no single day is said to be unclear."""
    day = day_asked(text, now)
    named = named_day(text)
    if day is None:
        return f"I'm not sure which day you mean by {named}, but today is {_written(spoken_day(now), '')}"
    when = named or "today"
    return f"{when} {'was' if day < spoken_day(now) else 'is'} {_written(day, when)}"


def _written(day: date, said: str) -> str:
    """The day as a calendar names it; its weekday left out when the words said already name it."""
    weekday = f"{day:%A}"
    return f"{'' if weekday.lower() in said.lower() else weekday + ' '}{day.day} {day:%B %Y}"
