"""The time window a recall question names.

Calendar expressions ("yesterday", "last week", "in May") are parsed by
interaction.memory.time_window.parse_window against the clock. Two expressions are relative to the
person's sessions, not to the calendar, and are resolved here from the stored items' times:
"last time" (the most recent saved session) and "the first time we met" (the earliest one, or the
first_meeting scene). A session's span is the time of its first to its last stored item, padded so
scenes stored during that conversation fall inside it.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import numpy as np
import parsedatetime

from common.clock import DAY_TURNS, spoken_day
from interaction.cues import FIRST_MEETING_QUESTION
from interaction.memory.retrieval.candidates import CandidatePool
from interaction.memory.time_window import TIME_UNITS, parse_window

if TYPE_CHECKING:
    from interaction.told_time import ToldTime

log = logging.getLogger("nadine.memory.windows")

# the grammar of the one session-relative expression the calendar parser cannot resolve
LAST_SESSION = re.compile(
    r"\b(?:(?:last|previous) (?:time|conversation|chat|talk|visit)|(?:when )?we last (?:met|spoke|talked|saw each other))\b",
    re.IGNORECASE)
SESSION_PAD = timedelta(minutes=15)
SESSION_KINDS = ("turn", "episode", "conversation", "explicit_memory")


@dataclass(frozen=True)
class Window:
    start: datetime
    end: datetime
    expression: str
    names_event: bool = False  # "the first time we met": the window's own event is what is asked about
    # when what is asked about happened ("was my dentist appointment yesterday?"), not when it was told:
    # a memory told before whose words name a day inside it is inside it too
    happened: bool = False
    # when what is asked about takes place, today or to come ("what do I have on tomorrow?"): a memory
    # is inside it only by the day its words name (day_named_in)
    to_come: bool = False

    def mask(self, occurred_ts: np.ndarray) -> np.ndarray:
        """Items that happened inside the window (an item of unknown time is never inside one)."""
        with np.errstate(invalid="ignore"):
            return (occurred_ts >= self.start.timestamp()) & (occurred_ts <= self.end.timestamp())

    def names_a_day_in(self, text: str, occurred_ts: float) -> bool:
        """The memory's words name a day inside the window ("my dentist appointment is on the 9th",
        told a week before it) when the window is of what happened or of what is to come."""
        return self.day_named_in(text, occurred_ts) is not None

    def day_named_in(self, text: str, occurred_ts: float) -> ToldTime | None:
        """The day inside the window the memory's words name, as names_a_day_in reads it."""
        from interaction.told_time import told_in

        if not (self.happened or self.to_come) or np.isnan(occurred_ts) or not _names_a_time(text):
            return None
        told = told_in(text, datetime.fromtimestamp(occurred_ts))
        if told is None or not told.a_day:
            return None
        return told if self.start <= (told.at or told.start + DAY_TURNS) < self.end else None


# the words parsedatetime reads a date or a time from (its own vocabulary), or a number: a memory
# with none of them names no day, and is not parsed to find one
_PDT = parsedatetime.Constants()
_CALENDAR_WORDS = frozenset(w for name in (*_PDT.Weekdays, *_PDT.shortWeekdays, *_PDT.Months, *_PDT.shortMonths,
                                            *_PDT.dayOffsets, *TIME_UNITS, "tonight", "weekend")
                             for w in name.casefold().split("|") if len(w) > 1)


def _names_a_time(text: str) -> bool:
    return any(w in _CALENDAR_WORDS or w[:1].isdigit() for w in re.findall(r"\w+", text.casefold()))


def _calendar(query: str, now: datetime) -> Window | None:
    found = parse_window(query, now)
    if found is None:
        return None
    of = _of_the_past(query, found.expression)
    return Window(found.start, found.end, found.expression, happened=of == "happened") if of else None


_PAST_TAGS = {"VBD", "VBN"}


_RECALLING = ("verb.cognition", "verb.communication")


def _of_the_past(query: str, expression: str, verbless: str | None = "told") -> str | None:
    """Whose time the window is: "told" when it belongs to a verb of telling or to the listener's verb
    of remembering ("what did I tell you on Tuesday?", "what do you remember from last week?", by its
    most frequent WordNet sense), "happened" when the question speaks in the past tense of something else ("was my dentist
    appointment yesterday?"); None when said of a present or a future ("who is coming on Tuesday?",
    "what's happening in June?"): it is when the thing told happens, which the memory's words hold,
    not when it was told. A time on no verb ("anything on Friday?") is `verbless`'s. Without the parser,
    every time is when something was told (recall looks back)."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.parsing import told_as_past, verb_of
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(query)
    except ParserUnavailable:
        return "told"
    at = query.find(expression)
    tokens = [t for t in doc if at <= t.idx < at + len(expression)] if at >= 0 else []
    verb = verb_of(tokens[0]) if tokens else None
    if verb is None or verb.pos_ not in ("VERB", "AUX"):
        return verbless
    wordnet = load_wordnet()
    # knowing is the listener's recalling ("what do you remember from last week?"); the speaker's own
    # knowing or studying is a doing of theirs ("what do I study in the evening?")
    kind = wordnet.verb_lexical_file(verb.lemma_) if wordnet is not None else None
    listeners = any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ == "you" for c in verb.children)
    if wordnet is None or kind == "verb.communication" or (kind == "verb.cognition" and listeners):
        return "told"
    # a participle is past by its auxiliary: "what have I got on Monday?" asks what they have
    return "happened" if any(t.tag_ in _PAST_TAGS and t.pos_ in ("VERB", "AUX") and told_as_past(t) for t in doc) else None


def to_come(query: str, now: datetime) -> Window | None:
    """The window of a question after what takes place today or on a day to come ("what do I have on
    today?", "anything on Friday?", "what are my plans for next week?"), from today's start: what
    memory holds of it is what its words say takes place then, not what was told then. None for a
    question of the past, or of remembering or telling (windows of when it was told: resolve)."""
    from interaction.told_time import told_in

    if not _names_a_time(query):  # most questions name no day: nothing to parse
        return None
    found = parse_window(query, now)
    if found is not None and _of_the_past(query, found.expression, verbless=None) is not None:
        return None
    asked = told_in(query, now)
    today = datetime.combine(spoken_day(now), datetime.min.time())
    if asked is None or asked.end <= today:
        return None
    return Window(max(asked.start, today), asked.end, "", to_come=True)


def _sessions(pools: list[CandidatePool], now: datetime) -> list[tuple[float, float]]:
    """(first, last) item time of every saved session, oldest first; scenes count as one-item
    sessions only when no text session exists, and a first meeting's never: its scene is written as
    they meet, in the conversation going on, which is no last time."""
    spans: dict[str, list[float]] = {}
    scenes: list[np.ndarray] = []
    for pool in pools:
        known = ~np.isnan(pool.occurred_ts) & (np.nan_to_num(pool.occurred_ts) <= now.timestamp())
        session = np.isin(pool.kinds, SESSION_KINDS)
        for i in np.flatnonzero(known & session):
            spans.setdefault(pool.items[i].group, []).append(float(pool.occurred_ts[i]))
        scenes.append(pool.occurred_ts[known & ~session & (pool.kinds != "first_meeting")])
    if spans:
        return sorted((min(v), max(v)) for v in spans.values())
    return [(float(ts), float(ts)) for ts in np.sort(np.concatenate(scenes))] if scenes else []


def _session_window(span: tuple[float, float], expression: str, names_event: bool = False) -> Window:
    start, end = (datetime.fromtimestamp(t) for t in span)
    return Window(start - SESSION_PAD, end + SESSION_PAD, expression, names_event)


def last_session(now: datetime, pools: list[CandidatePool]) -> Window | None:
    sessions = _sessions(pools, now)
    return _session_window(sessions[-1], "") if sessions else None


def resolve(query: str, now: datetime, pools: list[CandidatePool]) -> Window | None:
    first = FIRST_MEETING_QUESTION.search(query)
    last = LAST_SESSION.search(query)
    if first or last:
        sessions = _sessions(pools, now)
        if first:
            firsts = np.concatenate([p.occurred_ts[p.kinds == "first_meeting"] for p in pools])
            known = [float(t) for t in firsts if not np.isnan(t)]
            span = (min(known), min(known)) if known else sessions[0] if sessions else None
            return _session_window(span, first.group(0), names_event=True) if span else None
        assert last is not None
        return _session_window(sessions[-1], last.group(0)) if sessions else None
    return _calendar(query, now)
