"""Time windows named in recall questions, on a fixed clock (Monday 30 November 2026, 15:00)."""

from __future__ import annotations

from datetime import datetime

import pytest

from interaction.memory.time_window import names_time_ahead, parse_window

NOW = datetime(2026, 11, 30, 15, 0)  # a Monday


def day(d: str, hour: int = 0) -> datetime:
    return datetime.fromisoformat(d).replace(hour=hour)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        # a day as people speak of it runs from 4 a.m. to 4 a.m. (common.clock.DAY_TURNS)
        ("What did I tell you yesterday?", day("2026-11-29", 4), day("2026-11-30", 4)),
        ("what happened last week", day("2026-11-23"), day("2026-11-30")),
        ("Remember what I said this morning?", day("2026-11-30"), day("2026-11-30", 12)),
        ("what did I say on Monday", day("2026-11-23", 4), day("2026-11-24", 4)),
        ("what did I say last Friday", day("2026-11-27", 4), day("2026-11-28", 4)),
        ("what did I tell you in May", day("2026-05-01"), day("2026-06-01")),
        ("do you remember what I told you in December?", day("2025-12-01"), day("2026-01-01")),
        ("what did I tell you on 3 May", day("2026-05-03", 4), day("2026-05-04", 4)),
        ("last month I told you something", day("2026-10-01"), day("2026-11-01")),
        ("what did I say last weekend?", day("2026-11-28"), day("2026-11-30")),
        ("earlier this month", day("2026-11-01"), NOW),
        ("last year", day("2025-01-01"), day("2026-01-01")),
    ],
)
def test_calendar_expressions_become_the_unit_they_name(question: str, start: datetime, end: datetime) -> None:
    window = parse_window(question, NOW)
    assert window is not None, question
    assert (window.start, window.end) == (start, end)


@pytest.mark.parametrize(
    ("question", "inside", "outside"),
    [
        ("what did I tell you two weeks ago?", day("2026-11-16", 10), day("2026-11-28", 10)),
        ("three weeks ago I mentioned something", day("2026-11-10", 9), day("2026-11-25", 9)),
        ("a couple of days ago", day("2026-11-28", 9), day("2026-11-25", 9)),
        ("the day before yesterday", day("2026-11-28", 18), day("2026-11-30", 9)),
        ("a few weeks ago", day("2026-11-09", 12), day("2026-11-29", 12)),
        ("what did I mention the other day?", day("2026-11-27", 15), day("2026-11-22", 15)),
    ],
)
def test_ago_is_approximate_but_still_excludes_other_times(question: str, inside: datetime, outside: datetime) -> None:
    window = parse_window(question, NOW)
    assert window is not None
    assert window.contains(inside) and not window.contains(outside)


@pytest.mark.parametrize(
    "question",
    [
        "Do you remember what I told you about my dog?",
        "I may have told you about my sister",  # "may" the verb, not the month
        "What will I do tomorrow?",  # the future names nothing told yet
        "what are my plans for next week",
        "",
    ],
)
def test_questions_without_a_past_time_have_no_window(question: str) -> None:
    assert parse_window(question, NOW) is None


def test_windows_never_reach_past_now() -> None:
    for question in ("earlier today", "this week", "this morning", "an hour ago"):
        window = parse_window(question, NOW)
        assert window is not None and window.end <= NOW and window.start < window.end, question


@pytest.mark.parametrize("now", [datetime(2019, 7, 4, 23, 30), datetime(2031, 3, 12, 23, 0), datetime(2026, 11, 30, 23, 59)])
@pytest.mark.parametrize("question", ["what did I tell you this morning?", "this afternoon I said something",
                                      "remember what I said this evening?", "what did I mention tonight?",
                                      "earlier today I told you"])
def test_parts_of_today_fall_on_the_day_of_the_clock_given(now: datetime, question: str) -> None:
    # parsedatetime parses "this <part of day>" against the machine's clock unless told otherwise; the
    # window must follow the clock the question was asked on (the shared clock scripts move), on any date.
    window = parse_window(question, now)
    assert window is not None, question
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    assert today <= window.start < window.end <= now, (question, window)


def test_this_morning_is_the_morning_of_the_clock_given_not_of_the_machine() -> None:
    early = datetime(2030, 1, 15, 9, 30)
    window = parse_window("what did I say this morning?", early)
    assert window is not None and (window.start, window.end) == (datetime(2030, 1, 15), early)


@pytest.mark.parametrize("question", [
    "who is coming on Tuesday?",  # when the thing told happens, not when it was told
    "what's happening in June?",
    "what is my brother doing on Saturday?",
    "what do I have on Friday?",
])
def test_a_time_said_of_a_present_or_a_future_is_no_recall_window(question: str) -> None:
    from interaction.memory.retrieval.windows import resolve

    assert resolve(question, NOW, []) is None


@pytest.mark.parametrize("question", ["What have I got on Tuesday?", "what've I got on Tuesday", "Have I got anything on Tuesday?"])
def test_have_got_asks_what_they_have_not_what_happened(question: str) -> None:
    """"What have I got on Monday?" was read as a past ("got") and abstained: nothing told that day
    (tester); "have got" is "have", now."""
    from interaction.memory.retrieval.windows import resolve

    assert resolve(question, NOW, []) is None


@pytest.mark.parametrize(("question", "expression"), [
    ("what did I tell you on Tuesday?", "Tuesday"),
    ("tell me what I said this morning", "this morning"),
    ("what do you remember from last week?", "last week"),
    ("how was my trip last week?", "last week"),
])
def test_a_time_of_the_past_or_of_remembering_is_a_recall_window(question: str, expression: str) -> None:
    from interaction.memory.retrieval.windows import resolve

    window = resolve(question, NOW, [])
    assert window is not None and expression in window.expression


BEFORE_DAWN = datetime(2026, 12, 3, 4, 30)


@pytest.mark.parametrize("text", [
    "My aunt runs a little bed and breakfast near Whitby.",
    "Supper was a disaster, the fish was raw.",
    "I skipped lunch to finish the report.",
])
def test_a_meal_the_sentence_tells_of_is_no_time(text):
    """parsedatetime reads a meal as the hour it is eaten; the parse says it is a thing told of."""
    assert not names_time_ahead(text, BEFORE_DAWN)
    assert parse_window(text, BEFORE_DAWN) is None


@pytest.mark.parametrize("question", ["What did I tell you about opening night?", "what did I say about quiz night",
                                      "What did I tell you about the work lunch?",
                                      # the meal had, where "at lunch" is a time (replay45 s52)
                                      "What did I have for lunch?"])
def test_a_part_of_the_day_named_by_a_noun_before_it_is_an_event_not_a_time(question):
    """"opening night" was read as tonight, so the recall searched only today's evening and found
    nothing of what was told yesterday (my play, asked at night); "Friday night" and "last night" are
    still times."""
    late = datetime(2026, 11, 30, 22, 30)
    assert parse_window(question, late) is None
    assert parse_window("What did I do on Friday night?", late) is not None
    assert parse_window("What happened last night?", late) is not None


@pytest.mark.parametrize("text", ["I'm meeting Sunil at lunch.", "We fly out tonight."])
def test_a_meal_or_a_part_of_the_day_said_as_when_is_still_a_time(text):
    assert names_time_ahead(text, BEFORE_DAWN)


def test_a_job_with_a_meal_in_its_name_is_kept_before_the_meal():
    from interaction.offline.extract import extract_profile
    from interaction.offline.grounding import grounded_update

    text = "I manage a bed and breakfast in Whitby."
    update, _ = grounded_update(text, extract_profile(text), now=BEFORE_DAWN)
    assert update.current_position == "manage a bed and breakfast", update


def test_what_was_told_just_after_midnight_is_yesterday_by_the_evening():
    """Told at twenty to one, asked about 22 hours later on the same calendar date: it was "yesterday"
    to the person (the night before), and a night's talk is still "yesterday" just after midnight."""
    told = datetime(2026, 12, 3, 0, 40)
    for asked in (datetime(2026, 12, 3, 22, 40), datetime(2026, 12, 4, 1, 15)):
        window = parse_window("what did I tell you yesterday?", asked)
        assert window is not None and window.start <= told < window.end, (asked, window)



def test_what_was_told_yesterday_morning_is_yesterday_in_the_small_hours():
    """Told at ten past five in the morning, asked 22 hours later at ten past three, before sleeping: the
    calendar's yesterday, though the day people speak of has not turned yet."""
    told = datetime(2026, 12, 3, 5, 10)
    window = parse_window("what did I tell you yesterday?", datetime(2026, 12, 4, 3, 10))
    assert window is not None and window.start <= told < window.end, window
    earlier = parse_window("what did I tell you yesterday?", datetime(2026, 12, 4, 15, 10))
    assert earlier is not None and not earlier.start <= datetime(2026, 12, 2, 5, 10) < earlier.end, earlier


@pytest.mark.parametrize("question,expression", [
    ("What did we chat about the other day?", "the other day"),
    ("Remind me what I said a couple of days ago", "a couple of days ago"),
])
def test_a_rewritten_idiom_is_the_expression_as_said(question: str, expression: str) -> None:
    """The question is read without its window's words: those are the words said, not the rewriting."""
    window = parse_window(question, NOW)
    assert window is not None and window.expression == expression
