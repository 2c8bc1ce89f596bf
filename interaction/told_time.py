"""When the thing a memory tells of takes place, and where that falls against the clock: "my ferry to
Orkney is on the 11th of December at 9am", told on the 3rd of December, takes place on the 11th at
9:00, so on the 10th it is "tomorrow", on the 2nd of December "in nine days", on the 13th "two days
ago".

The time is read off spaCy's date and time entities (a day of the month said alone is an ordinal
after "on": "the recital was on the 3rd") and resolved by parsedatetime as of the day it was told.
A date said without its year, or a day of the month without its month, is the one to come from that
day, or the one before it when the memory speaks in the past tense ("we went to the fair on the
2nd"); parsedatetime reads "the 14th of January" as January alone, so the day is taken from the
words. Everything is seen from the clock the turn runs on, never the machine's.
"""

from __future__ import annotations

import calendar
import re
import threading
from dataclasses import dataclass
from datetime import date, datetime, timedelta

import inflect
import parsedatetime
from dateutil.relativedelta import relativedelta

from common.clock import DAY_TURNS, spoken_day
from interaction.memory.time_window import TIME_UNITS, ClockedCalendar, precision_of, unit_window
from interaction.offline.chat_spelling import spelled_out
from interaction.offline.parsing import (
    AHEAD,
    ahead_of_telling,
    behind_telling,
    comes_round,
    preposition_of,
    told_as_past,
)

_ACU = parsedatetime.pdtContext
# parsedatetime's precisions that name a day, and those finer than one (a time of day)
OF_A_DAY = _ACU.ACU_DAY | _ACU.ACU_HALFDAY | _ACU.ACU_HOUR | _ACU.ACU_MIN
_OF_THE_CLOCK = _ACU.ACU_HOUR | _ACU.ACU_MIN
_WEEKDAY = re.compile(r"\b(?:" + "|".join(calendar.day_name) + r")\b,?", re.IGNORECASE)
WEEKDAYS = {name.lower(): number for number, name in enumerate(calendar.day_name)}
_MONTH = re.compile(r"\b(?:" + "|".join(calendar.month_name[1:]) + r")\b", re.IGNORECASE)
DAY_OF_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)?\b")
_HH, _MM = r"(?:[01]?\d|2[0-3])", r"[0-5]\d"  # an hour and its minutes, in digits
# "7:40", "16:05": the tagger reads no number in them (a CARDINAL at most), their form is a time of day
DIGITAL_CLOCK = re.compile(rf"{_HH}:{_MM}")
# ... and after "at" a bare hour too ("at 6", "at 6.30", "at 3:15pm"), though the tagger calls it a count
HOUR_AT = re.compile(rf"{_HH}(?:[.:]{_MM})?(?:[ap]\.?m\.?)?", re.IGNORECASE)
# the hour of the clock as much of Europe writes it ("at 18h", "at 19h30"): after "at", never a length
_HOUR_WITH_H = re.compile(rf"({_HH})h({_MM})?", re.IGNORECASE)
# a time of day said on a twelve-hour face with nothing for its half of the day ("4:15", "at 4"): a
# morning's hour in digits with no leading zero, no "am" / "pm" and no part of the day said with it
_TWELVE_HOUR_CLOCK = re.compile(rf"(?:at\s+)?(?:1[01]|[1-9])(?:[.:]{_MM})?", re.IGNORECASE)
ORDINAL_DAY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\b")  # a day of the month said alone: "the 21st"
_YEAR = re.compile(r"\b\d{4}\b")
_calendars = threading.local()
_WORDS = inflect.engine()


def calendar() -> ClockedCalendar:
    """parsedatetime's calendar with its default constants (a weekday or a date without a year is the
    one to come), every parse relative to the time it is given ("this evening" of the day told, not of
    the machine's); it keeps parse state on itself: one per thread."""
    found = getattr(_calendars, "calendar", None)
    if found is None:
        found = _calendars.calendar = ClockedCalendar(parsedatetime.Constants())
    return found


@dataclass(frozen=True)
class ToldTime:
    """The calendar unit a memory's time names (a day, a week, a month) and its time of day if told."""

    start: datetime
    end: datetime
    at: datetime | None = None
    # the clock said without its half of the day ("at 4:15"): the afternoon's may be meant, so the time
    # has gone by only once that has too
    either_half: bool = False

    @property
    def a_day(self) -> bool:
        return self.end - self.start <= timedelta(days=1)

    def passed(self, now: datetime) -> bool:
        at = self.at + timedelta(hours=12) if self.at is not None and self.either_half else self.at
        return (at or self.end) <= now


def named_time(doc, told_on: datetime, within: tuple[int, int] | None = None) -> ToldTime | None:  # noqa: ANN001 - a spaCy Doc
    """When what `doc` tells takes place, read as of `told_on`; None when it names no date. `within`:
    only a date said in that character span counts (the answer a question asked for)."""
    hours = [t for t in doc if _HOUR_WITH_H.fullmatch(t.text) and t.i > 0 and doc[t.i - 1].lower_ == "at"]
    # a day that comes round ("every Tuesday", "the last Sunday of every month") names no date
    dates = [e for e in doc.ents if e.label_ == "DATE" and not _a_length(e) and not any(t in hours for t in e)
             and not any(_WEEKDAY.fullmatch(t.text) and comes_round(t) for t in e)] + days_alone(doc)
    if within is not None:
        dates = [e for e in dates if e.start_char < within[1] and within[0] < e.end_char]
    # a chat spelling as the word it stands for ("tmrw")
    told = next((t for t in (_resolved(spelled_out(e.text), told_on,
                                       behind_telling(e) or (_in_the_past(doc, e) and not ahead_of_telling(e)))
                             for e in dates)
                 if t is not None), None)
    if told is not None and not told.a_day:
        told = _its_weekday(told, dates) or told
    if told is None or not told.a_day:
        return told
    clock, said = next(((p, e.text) for e in doc.ents if e.label_ == "TIME"
                        for p, c, *_ in [_parsed(e.text, told.start)] if c is not None and c.accuracy & _OF_THE_CLOCK),
                       (None, ""))
    if clock is None and hours:
        hour, minute = _HOUR_WITH_H.fullmatch(hours[0].text).groups()
        clock = told.start.replace(hour=int(hour), minute=int(minute or 0))
    either = clock is not None and clock.hour < 12 and bool(_TWELVE_HOUR_CLOCK.fullmatch(said.strip()))
    return ToldTime(told.start, told.end, clock, either) if clock is not None else told


def _its_weekday(week: ToldTime, dates: list) -> ToldTime | None:  # noqa: ANN001 - spaCy Spans
    """The day of a week told (the first of `dates`) that the one day of the week said in the same
    clause names ("my shift next week starts Tuesday", "on Tuesday next week"); None when none or
    several are said, or the window is no week."""
    from interaction.offline.parsing import verb_of

    if week.end - week.start > timedelta(days=7) or not dates:
        return None
    clause = verb_of(dates[0].root)
    # one day of the week: of two ("the physio on Tuesday and the dentist on Thursday") the week is all
    # that is said of both
    days = {WEEKDAYS[t.lower_] for e in dates for t in e if t.lower_ in WEEKDAYS and verb_of(t) == clause}
    if len(days) != 1:
        return None
    day = week.start + timedelta(days=(days.pop() - week.start.weekday()) % 7)
    return _the_day(day.date()) if day < week.end else None


def _in_the_past(doc, time) -> bool:  # noqa: ANN001 - a spaCy Doc, and a Span or Token in it
    """The clause the time is said in tells of the past: its verb's tense ("the surgery phoned, the
    appointment is now on the 28th" tells the 28th to come); a time in no clause of its own, by
    any verb of the sentence."""
    verb = getattr(time, "root", time)
    # a participle that only names a thing ("a new medicine called metformin on Monday") has no tense:
    # the clause's is its noun's verb's
    while verb.pos_ not in ("VERB", "AUX") or verb.dep_ in ("aux", "auxpass") or (verb.dep_ == "acl" and verb.tag_ == "VBN"):
        if verb.head.i == verb.i:
            return any(told_as_past(t) for t in doc if t.pos_ in ("VERB", "AUX") and t.dep_ not in ("aux", "auxpass"))
        verb = verb.head
    return told_as_past(verb)


def days_alone(doc) -> list:  # noqa: ANN001 - a spaCy Doc
    """The days of the month said without their month ("on the 21st", "moved to the 9th"), as English
    names one: an ordinal day the object of "on" or of a preposition of moving ahead, whatever the
    entity recogniser made of it (an ordinal, nothing), or the parse hung it on the words after it ("moved
    to the 16th, same time": a modifier of "time")."""
    return [doc[t.left_edge.i: _its_month(t) + 1] for t in doc if (t.dep_ == "pobj" or _hung_across_a_comma(t))
            and preposition_of(t) in {"on", *AHEAD} and ORDINAL_DAY.fullmatch(t.text) and t.ent_type_ != "DATE"]


def _its_month(day) -> int:  # noqa: ANN001 - a spaCy Token
    """Where the day's month ends when its "of" names one ("the 5th of May": the recogniser may take
    "May" for the modal and leave the month out of the date), else where the day ends."""
    month = next((o for c in day.children if c.dep_ == "prep" and c.lower_ == "of" for o in c.children
                  if o.dep_ == "pobj" and _MONTH.fullmatch(o.text)), None)
    return month.i if month is not None else day.i


def _hung_across_a_comma(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """A modifier the parse hung on a noun after a comma ("the 16th, same time"), not one of the noun
    it stands before ("on my 30th birthday")."""
    return token.dep_ == "amod" and token.i + 1 < len(token.doc) and token.nbor(1).is_punct and token.head.i > token.i


def _a_length(ent) -> bool:  # noqa: ANN001 - a spaCy Span
    """A count of calendar units that is a length of time, not a time ("married for 30 years", "three
    days"): one names a time only as "in ..." or "... ago" ("in two weeks", "two weeks ago"). A number
    beside a month's name counts no units: "on 15 December" is a day."""
    counted = ent.root.lower_ in TIME_UNITS and any(c.dep_ == "nummod" for c in ent.root.children)
    return counted and not (ent.root.dep_ == "pobj" and ent.root.head.lower_ == "in") \
        and not any(c.lower_ == "ago" for c in ent.root.children)


def _parsed(text: str, source: datetime) -> tuple[datetime | None, parsedatetime.pdtContext | None]:
    found = calendar().nlp_at(text, source)
    return (found[0][0], found[0][1]) if found else (None, None)


def _resolved(text: str, told_on: datetime, past: bool) -> ToldTime | None:
    if DAY_OF_MONTH.search(_YEAR.sub("", text)) and _MONTH.search(text):
        text = _WEEKDAY.sub("", text)  # "Monday the 11th of January": the date says which Monday
    point, context = _parsed(text, told_on)
    said = DAY_OF_MONTH.search(_YEAR.sub("", text))
    if context is not None and context.accuracy & _ACU.ACU_MONTH and said and not context.accuracy & OF_A_DAY:
        # "the 14th of January": parsedatetime reads the month alone
        explicit = _YEAR.search(text) is not None or bool(context.accuracy & _ACU.ACU_YEAR)  # "... next year"
        day = _dated(point.year, point.month, int(said.group(1)))
        if day is None:
            return None
        if not explicit:
            day = _nearest(day.replace(year=told_on.year), told_on.date(), past, relativedelta(years=1))
        return _the_day(day)
    if point is None:  # a day of the month alone ("on the 21st"): of this month, or the next or last
        alone = ORDINAL_DAY.search(text)
        day = _dated(told_on.year, told_on.month, int(alone.group(1))) if alone else None
        return _the_day(_nearest(day, told_on.date(), past, relativedelta(months=1))) if day else None
    precision = precision_of(context)
    if precision is None or context.accuracy & _ACU.ACU_NOW or not context.accuracy & ~_OF_THE_CLOCK:
        return None  # a clock time alone names no day: "087 555 1234", whose "1234" reads as 12:34 today
    if precision == _ACU.ACU_MONTH and not _YEAR.search(text):  # "in March": parsedatetime's is the next one
        first = _nearest(date(told_on.year, point.month, 1), told_on.date().replace(day=1), past, relativedelta(years=1))
        start = datetime(first.year, first.month, 1)
        return ToldTime(start, start + relativedelta(months=1))
    if context.accuracy & OF_A_DAY and past and 0 < (point.date() - told_on.date()).days <= 7:
        point -= timedelta(days=7)  # "we went on Friday": the Friday before it was told
    start, end, _ = unit_window(point, precision)
    if context.accuracy & OF_A_DAY:
        start, end = unit_window(point, _ACU.ACU_DAY)[:2]
    return ToldTime(start, end, point if context.accuracy & _OF_THE_CLOCK else None)


def _dated(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _nearest(day: date, told: date, past: bool, step: relativedelta) -> date:
    """The `day` of the calendar unit (a year, a month) meant: the one to come from the day it was
    told, or the one before it when told in the past tense."""
    if past and day > told:
        return day - step
    if not past and day < told:
        return day + step
    return day


def _the_day(day: date) -> ToldTime:
    start = datetime(day.year, day.month, day.day)
    return ToldTime(start, start + timedelta(days=1))


def days_from_now(told: ToldTime, now: datetime) -> int:
    """Days from today (the day people speak of) to the told day: 1 tomorrow, -2 two days ago."""
    return (told.start.date() - spoken_day(now)).days


def from_now(told: ToldTime, now: datetime) -> str | None:
    """Where a told day falls from now, as said: "today", "tomorrow", "in nine days", "two days ago";
    None for a longer unit (a week, a month)."""
    if not told.a_day:
        return None
    days = days_from_now(told, now)
    if days == 0:
        return "earlier today" if told.passed(now) else "today"
    if abs(days) == 1:
        return "tomorrow" if days > 0 else "yesterday"
    return f"in {_count(days, 'day')}" if days > 0 else f"{_count(-days, 'day')} ago"


def it_is(told: ToldTime, now: datetime) -> str | None:
    """"it's tomorrow", "it was two days ago": where a told day falls, in the tense it takes now."""
    when = from_now(told, now)
    return None if when is None else f"it {'was' if told.passed(now) else 'is'} {when}".replace("it is", "it's")


def time_until(told: ToldTime, now: datetime, unit: str = "day") -> str | None:
    """How long from now until the told time, or since it ("nine days", "three weeks and two days",
    "five hours" on its day); None when the time is no single day."""
    if not told.a_day:
        return None
    days = days_from_now(told, now)
    if days == 0 and told.at is not None:
        hours = round(abs((told.at - now).total_seconds()) / 3600)
        return _count(hours, "hour") if hours else "less than an hour"
    if days == 0:
        return None
    days = abs(days)
    if unit == "week" and days >= 7:
        weeks, rest = divmod(days, 7)
        return _count(weeks, "week") + (f" and {_count(rest, 'day')}" if rest else "")
    return _count(days, "day")


def _count(n: int, unit: str) -> str:
    """"one day", "nine days", "twenty-one days": a count said in words."""
    return f"{_WORDS.number_to_words(n)} {_WORDS.plural(unit, n)}"


def as_spoken(told_on: datetime) -> datetime:
    """The moment days are counted from, as people speak: in the small hours, still the evening of the
    day before ("tomorrow at 2", said at a quarter past midnight on Saturday, is Saturday at 2)."""
    return told_on - DAY_TURNS if spoken_day(told_on) != told_on.date() else told_on


def told_in(text: str, told_on: datetime | None, spoken: bool = True, within: tuple[int, int] | None = None
            ) -> ToldTime | None:
    """When what `text` tells takes place (named_time), read from its words, its days counted from
    the spoken day (as_spoken; `spoken` False: from the calendar's, as a clock question asks); only
    a date said within that character span when `within` is given; None without the parser."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    if told_on is None:
        return None
    try:
        return named_time(load_parser()(text), as_spoken(told_on) if spoken else told_on, within)
    except ParserUnavailable:
        return None


# the words that set a time against now in "how long until ...?", "how many days since ...?",
# "how long ago ...?" (closed grammar): without one, "how long is my flight?" asks its length
_FROM_NOW = {"until", "till", "til", "before", "since", "ago", "away", "left"}
_BACK_FROM_NOW = {"since", "ago"}  # how long a thing done lies back ("how long since I saw her?")


def asks_how_long_back(question: str) -> bool:
    """A how-long question (how_long_asked) counts back from now to a thing done ("since", "ago"): a
    day still to come does not answer it."""
    return any(w in _BACK_FROM_NOW for w in re.findall(r"[a-z]+", question.lower()))


def how_long_asked(question: str) -> str | None:
    """The unit a question asks how many of lie between now and a thing ("how many weeks till the
    recital?": "week"; "how long until my ferry?": "day"); None for any other question."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        doc = load_parser()(question)
    except ParserUnavailable:
        return None
    how = next((t for t in doc if t.lower_ == "how" and t.tag_ == "WRB"), None)
    if how is None or not any(t.lower_ in _FROM_NOW for t in doc):
        return None
    if how.head.lower_ in ("long", "soon"):
        return "day"
    counted = how.head.head if how.head.lower_ in ("many", "much") else None
    return TIME_UNITS.get(counted.lower_) if counted is not None else None
