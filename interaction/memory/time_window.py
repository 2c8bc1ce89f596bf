"""Time windows named in a recall question ("last week", "yesterday", "two weeks ago", "in May").

parsedatetime finds the expression and reports how precise it is (a year, month, week, day, part of a
day, hour); the window is the calendar unit at that precision around the point it resolves to. Chosen
over dateparser (points only, no precision, so "last week" cannot become a week) and ctparse (resolved
"last week" to tomorrow); parsedatetime costs about 0.1 ms a question once warm.

Recall looks back: a named weekday or month that would resolve to the future means the last one that
has passed, and every window ends no later than now. Expressions with "ago" are approximate ("three
weeks ago" is rarely exactly 21 days): their window is the point plus or minus one unit, in whole days.
Session-relative references ("last time", "the first time we met") are not calendar windows; the
retrieval core resolves them from the sessions it knows.
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

import parsedatetime
from dateutil.relativedelta import relativedelta

from common.clock import DAY_TURNS, spoken_day

_ACU = parsedatetime.pdtContext
# Finest precision first: a match flagged "month and day" ("on 3 May") is a day.
_PRECISIONS = (_ACU.ACU_NOW, _ACU.ACU_SEC, _ACU.ACU_MIN, _ACU.ACU_HOUR, _ACU.ACU_HALFDAY, _ACU.ACU_DAY,
               _ACU.ACU_WEEK, _ACU.ACU_MONTH, _ACU.ACU_YEAR)

# Quantity idioms parsedatetime does not read; rewritten to the numbers they stand for.
_QUANTITY_IDIOMS = (
    (re.compile(r"\bthe day before yesterday\b", re.I), "2 days ago"),
    (re.compile(r"\ba couple of\b", re.I), "2"),
    (re.compile(r"\ba few\b", re.I), "3"),
    # "the other day": on a recent day, a few days ago
    (re.compile(r"\bthe other day\b", re.I), "3 days ago"),
    (re.compile(r"\bseveral\b", re.I), "4"),
)
_IDIOMS = re.compile("|".join(f"({pattern.pattern})" for pattern, _ in _QUANTITY_IDIOMS), re.I)
# parsedatetime's units of the calendar and the clock, by every name it reads them by ("days", "wk")
TIME_UNITS = {name: unit.rstrip("s") for unit, names in parsedatetime.Constants().units.items() for name in names}


def a_length_of_time(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """A unit of the calendar or the clock that is counted ("three days") or asked how many of ("how
    many weeks"): a length of time, as spaCy's DATE entity is, whatever its recogniser made of it."""
    return token.lower_ in TIME_UNITS and any(
        c.dep_ == "nummod" or any(g.tag_ == "WRB" for g in c.children) for c in token.children)


def _rewrite_idioms(text: str) -> tuple[str, list[tuple[int, int, int, int]]]:
    """The text with its quantity idioms rewritten, and where each rewriting stands: (start, end)
    in the rewritten text, then in the text as said."""
    parts: list[str] = []
    spans: list[tuple[int, int, int, int]] = []
    last = shift = 0
    for m in _IDIOMS.finditer(text):
        replacement = _QUANTITY_IDIOMS[(m.lastindex or 1) - 1][1]
        parts += [text[last:m.start()], replacement]
        spans.append((m.start() + shift, m.start() + shift + len(replacement), m.start(), m.end()))
        shift += len(replacement) - (m.end() - m.start())
        last = m.end()
    return "".join(parts + [text[last:]]), spans


def _as_said(position: int, spans: list[tuple[int, int, int, int]], end: bool) -> int:
    """Where a position of the rewritten text stands in the text as said (a rewritten idiom whole)."""
    shift = 0
    for new_start, new_end, old_start, old_end in spans:
        if position < new_start or (end and position == new_start):
            break
        if position < new_end or (end and position == new_end):
            return old_end if end else old_start
        shift = old_end - new_end
    return position + shift


# parsedatetime has no weekend; "last/this/past weekend" and "at/over the weekend" mean the latest one.
_WEEKEND = re.compile(r"\b(?:last|this|past|the)\s+weekend\b", re.I)
# Month names that are also everyday words ("I may have", "we march"): a month only when capitalised or
# after a word that introduces a date.
_AMBIGUOUS_MONTH = re.compile(r"^(?:may|march)$")
_DATE_PREPOSITION = re.compile(r"\b(?:in|since|during|of|early|late|last|this|until|before|after)\s*$", re.I)


@dataclass(frozen=True)
class TimeWindow:
    start: datetime
    end: datetime
    expression: str

    def contains(self, when: datetime) -> bool:
        return self.start <= when < self.end


class ClockedCalendar(parsedatetime.Calendar):
    """A calendar whose every parse is relative to the time it is given.

    parsedatetime resolves a modifier before a time of day ("this morning", "this afternoon", "this
    evening") by parsing the time word with no source time, i.e. against the machine's clock, so the
    window fell on the real date whatever `sourceTime` said (and moved with the real day, not with the
    shared clock scripts move). Here a parse without a source time uses the one `nlp` was called with.
    """

    def __init__(self, constants: parsedatetime.Constants) -> None:
        super().__init__(constants, version=parsedatetime.VERSION_CONTEXT_STYLE)
        self.source_time: time.struct_time | None = None

    def parse(self, datetimeString, sourceTime=None, version=None):  # noqa: N803 - parsedatetime's names
        return super().parse(datetimeString, self.source_time if sourceTime is None else sourceTime, version)

    def nlp_at(self, text: str, now: datetime):
        self.source_time = now.timetuple()
        try:
            return self.nlp(text, sourceTime=now)
        finally:
            self.source_time = None


# parsedatetime keeps parse state on the calendar, and the source time above is per call: one per thread.
_calendars = threading.local()


def _calendar() -> ClockedCalendar:
    calendar = getattr(_calendars, "calendar", None)
    if calendar is None:
        constants = parsedatetime.Constants()
        constants.DOWParseStyle = -1  # "on Monday" = the one before now
        constants.CurrentDOWParseStyle = False  # said on a Monday, "on Monday" is last week's
        constants.YearParseStyle = 0  # "in May" = this year's May (moved back a year below if still ahead)
        calendar = _calendars.calendar = ClockedCalendar(constants)
    return calendar


def precision_of(context: parsedatetime.pdtContext) -> int | None:
    return next((p for p in _PRECISIONS if context.accuracy & p), None)


def _day_floor(when: datetime) -> datetime:
    return when.replace(hour=0, minute=0, second=0, microsecond=0)


def unit_window(point: datetime, precision: int) -> tuple[datetime, datetime, relativedelta]:
    """The calendar unit around `point` at `precision`, and the length of one such unit."""
    day = _day_floor(point)
    if precision == _ACU.ACU_YEAR:
        start = day.replace(month=1, day=1)
        return start, start + relativedelta(years=1), relativedelta(years=1)
    if precision == _ACU.ACU_MONTH:
        start = day.replace(day=1)
        return start, start + relativedelta(months=1), relativedelta(months=1)
    if precision == _ACU.ACU_WEEK:
        start = day - timedelta(days=day.weekday())
        return start, start + timedelta(days=7), relativedelta(weeks=1)
    if precision == _ACU.ACU_DAY:
        return day, day + timedelta(days=1), relativedelta(days=1)
    if precision == _ACU.ACU_HALFDAY:  # parsedatetime puts morning at 6:00, afternoon 13:00, night 21:00
        return point - timedelta(hours=6), point + timedelta(hours=6), relativedelta(hours=6)
    return point - timedelta(hours=1), point + timedelta(hours=1), relativedelta(hours=1)


def _latest_weekend(now: datetime) -> TimeWindow | None:
    day = _day_floor(now)
    saturday = day - timedelta(days=(day.weekday() - 5) % 7)
    return TimeWindow(saturday, min(saturday + timedelta(days=2), now), "last weekend")


def _is_everyday_word(text: str, expression: str, offset: int, precision: int) -> bool:
    """The expression is a word of everyday speech, not a time: "may" / "march" without a date's
    preposition, or a single word parsedatetime reads as a part of the day that the parse makes a
    thing the sentence is about ("we run a bed and breakfast", "I had lunch with Jo"), not when
    something happens ("at lunch", "tonight"); parsedatetime may take the preposition before it along
    ("in night" of "I work as a nurse in night shift"), which makes it no time when the parse makes the
    word itself a thing ("night" naming the shift)."""
    word = expression.strip()
    if _AMBIGUOUS_MONTH.match(word):
        return not _DATE_PREPOSITION.search(text[:offset])
    *before, last = word.split()
    return precision == _ACU.ACU_HALFDAY and len(before) <= 1 \
        and _a_thing(text, offset + expression.rindex(last), preposition=bool(before))


def _a_thing(text: str, at: int, preposition: bool = False) -> bool:
    """The word at `at` is a thing the sentence tells of by its role in the parse; with `preposition`,
    only when the word before it is one (the tagger's IN: "in night shift")."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return False
    token = next((t for t in doc if t.idx == at), None)
    if token is None or (preposition and (token.i == 0 or doc[token.i - 1].tag_ != "IN")):
        return False
    # ... or what it is had for ("what did I have for lunch?": the meal, where "at lunch" is a time)
    return token.dep_ in _THING_ROLES or _named_by_a_noun(token) or (token.dep_ == "pobj" and token.head.lower_ == "for")


def _named_by_a_noun(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """A part of the day named by the common noun before it, which is no time itself: an event
    ("opening night", "quiz night", "the work lunch"), where "Friday night" or "tomorrow night" is a
    time. The parser hangs such a noun on the word in more ways than one, so its place is read."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    before = token.doc[token.i - 1] if token.i > 0 else None
    return wordnet is not None and before is not None and before.pos_ == "NOUN" \
        and not wordnet.names_a_time(before.lemma_.lower())


# a noun in one of these places is something the clause tells of, not a time it names
_THING_ROLES = frozenset({"nsubj", "nsubjpass", "dobj", "attr", "conj", "compound", "appos"})


def parse_window(text: str, now: datetime) -> TimeWindow | None:
    """The window of time a question names, or None when it names none; its expression as said
    ("the other day", though read as "3 days ago"), so the question can be read without it."""
    said = text
    text, spans = _rewrite_idioms(text)
    if _WEEKEND.search(text):
        return _latest_weekend(now)
    # read as of the day people speak of: at 1 a.m. "yesterday" is the day before the one just ending
    matches = _calendar().nlp_at(text, now - DAY_TURNS) or ()
    # ... and, in those small hours, as of the calendar's day too: what was told yesterday morning is
    # "yesterday" at 3 a.m. to someone who has not slept, so a relative day covers both readings
    by_calendar = {(offset, expression): point for point, _, offset, _, expression
                   in (_calendar().nlp_at(text, now) or ()) if spoken_day(now) != now.date()}
    best: TimeWindow | None = None
    for point, context, offset, end_at, expression in matches:
        precision = precision_of(context)
        if precision is None or precision in (_ACU.ACU_NOW, _ACU.ACU_SEC, _ACU.ACU_MIN):
            continue
        if _is_everyday_word(text, expression, offset, precision):
            continue
        as_said = said[_as_said(offset, spans, False):_as_said(end_at, spans, True)]
        start, end, unit = unit_window(point, precision)
        if precision == _ACU.ACU_DAY:  # a day people speak of runs from DAY_TURNS to DAY_TURNS
            start, end = start + DAY_TURNS, end + DAY_TURNS
            calendar_point = by_calendar.get((offset, expression))
            if calendar_point is not None and calendar_point.date() > point.date():
                end = max(end, unit_window(calendar_point, precision)[1])
        if start > now:
            # A named month ahead ("in December", "on 3 December" said in November) is last year's; a
            # relative future ("tomorrow", "next week") names nothing that can have been told yet.
            if context.accuracy & _ACU.ACU_MONTH:
                start, end = start - relativedelta(years=1), end - relativedelta(years=1)
            else:
                continue
        if "ago" in expression.lower():
            start, end = _day_floor(point - unit), _day_floor(point + unit + timedelta(days=1))
            if precision in (_ACU.ACU_HALFDAY, _ACU.ACU_HOUR):
                start, end = point - unit, point + unit
        window = TimeWindow(start, min(end, now), as_said.strip())
        if window.start >= window.end:
            continue
        if best is None or len(window.expression) > len(best.expression):
            best = window
    return best


def names_time_ahead(text: str, now: datetime) -> bool:
    """The text names a time that has not begun yet ("next month", "tomorrow", "in two weeks"): what
    it tells is a plan, not what is true now. A time named to the minute or as "now" is not one."""
    for point, context, offset, _end, expression in _calendar().nlp_at(text, now) or ():
        precision = precision_of(context)
        if precision is None or precision in (_ACU.ACU_NOW, _ACU.ACU_SEC, _ACU.ACU_MIN):
            continue
        if not _is_everyday_word(text, expression, offset, precision) and unit_window(point, precision)[0] > now:
            return True
    return False
