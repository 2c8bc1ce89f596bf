"""Questions about when a thing told takes place, answered against the shared clock: "is it
tomorrow?", "how long until ...?", "was it yesterday?", and a day of the month asked without its
month. The sentences are new: in none of the benchmark scripts or labelled sets. Every time comes
from a fixed clock, never the wall clock."""

from __future__ import annotations

from datetime import datetime

import pytest

from interaction.answer_span import answer_in
from interaction.asked_value import whether_told
from interaction.offline.parsing import load_parser
from interaction.reported_speech import dates_named, said_day
from interaction.told_time import how_long_asked, it_is, named_time, time_until, told_in
from tests.interaction import test_memory_requests
from tests.interaction.test_memory_requests import say
from tests.interaction.test_own_words import later

maya = test_memory_requests.maya  # Maya, known by face, with real memory services, on a pinned clock
TOLD = datetime(2026, 3, 2, 10)  # a Monday
NOW = datetime(2026, 3, 11, 10)  # the Wednesday of the week after
BOILER = "the boiler service is on the 12th of March at 8am"


@pytest.mark.parametrize(("question", "memory", "verdict"), [
    ("Is the boiler service tomorrow?", BOILER, "yes"),
    ("Is the boiler service this week?", BOILER, "yes"),
    ("Is the boiler service next week?", BOILER, "no"),
    ("Is the boiler service today?", BOILER, "no"),
    # a day of the month asked without its month
    ("Is the boiler service on the 14th?", BOILER, "no"),
    ("Is the boiler service on the 12th?", BOILER, "yes"),
    ("Is my niece's christening on the 26th?", "my niece's christening is on the 28th", "no"),
    ("Is my niece's christening on the 28th of March?", "my niece's christening is on the 28th", "yes"),
    # asked in the past tense of a day told of before it came
    ("Did the piano tuner come yesterday?", "the piano tuner comes on the 10th of March", "yes"),
    ("Did the piano tuner come on Monday?", "the piano tuner comes on the 10th of March", "no"),
    # a month told, a week asked: neither
    ("Is the roof repair this week?", "the roof repair is in March", "unsure"),
])
def test_a_date_asked_from_today_or_by_its_day_alone(question, memory, verdict):
    assert whether_told(question, memory, TOLD, NOW) == verdict


def test_where_a_told_day_falls_from_the_clock():
    boiler = named_time(load_parser()(BOILER), TOLD)
    assert it_is(boiler, NOW) == "it's tomorrow"
    assert time_until(boiler, datetime(2026, 3, 3, 9)) == "nine days"
    assert time_until(boiler, datetime(2026, 3, 12, 5)) == "three hours"
    assert it_is(boiler, datetime(2026, 3, 14, 9)) == "it was two days ago"
    # a length of time is no day ("we've been married for 40 years")
    assert named_time(load_parser()("we have been married for 40 years"), TOLD) is None
    assert how_long_asked("How many weeks till the boiler service?") == "week"
    assert how_long_asked("How long is the boiler service?") is None


@pytest.mark.parametrize(("told", "asked", "first", "said"), [
    # told on Wednesday the 4th of November, asked on Thursday the 12th
    ("Please remember that my train to Inverness leaves on the 13th of November at 8am.",
     "Is my train to Inverness tomorrow?", "Yes, it's tomorrow — ", "13th of November"),
    ("Please remember that my train to Inverness leaves on the 13th of November at 8am.",
     "Is my train to Inverness next week?", "No, it's tomorrow — ", "13th of November"),
    ("Please remember that my train to Inverness leaves on the 13th of November at 8am.",
     "How long until my train to Inverness?", "One day — ", "13th of November"),
    # a count of days asked for: the unit counted is what is asked, not a thing the memory must name
    ("Please remember that my sister's flight from Lisbon lands on the 15th of November at noon.",
     "How many days until my sister's flight?", "Three days — ", "15th of November"),
    # a day told of before it came, asked of after it: when it took place, not when it was told
    ("Please remember that my allotment inspection is on the 11th of November.",
     "Was my allotment inspection yesterday?", "Yes, it was yesterday — ", "11th of November"),
    ("Please remember that my allotment inspection is on the 10th of November.",
     "Is my allotment inspection on the 11th?", "No — ", "10th of November"),
    # typed in lower case, as a chat is: still a question whether, and a weekday told is its date
    ("My nephew's wedding is on Friday.", "is the wedding on the 7th?", "No — ", "Friday the 6th"),
])
def test_a_time_question_is_answered_against_the_clock(maya, told, asked, first, said):
    dm, _, _, uid = maya
    say(dm, told)
    dm.clock.advance(24 * 8)  # the shared clock moved, as scripts move it
    later(dm, uid)
    reply = say(dm, asked).reply
    assert reply.startswith(first) and said in reply, reply


def test_a_count_of_days_to_a_feast_is_not_answered_from_a_memory(maya):
    """A question about the calendar, not about anything told, is never answered with the count of
    days to a thing told (the one memory held may still be offered, as it was before)."""
    dm, _, _, uid = maya
    say(dm, "Please remember that my train to Inverness leaves on the 13th of November at 8am.")
    later(dm, uid)
    reply = say(dm, "How many days until Christmas?").reply
    assert " days — " not in reply and not reply.startswith(("Yes", "No")), reply



@pytest.mark.parametrize(("memory", "verdict"), [
    ("the vet comes on the 11th of March at 3pm", "yes"),
    ("the vet comes on the 14th of March at 3pm", "no"),
])
def test_a_part_of_today_asked_is_the_clocks_day_not_the_machines(memory, verdict):
    """parsedatetime reads "this afternoon" against the machine's clock unless the calendar is given
    the turn's: asked on a moved clock, it is that clock's afternoon."""
    assert whether_told("Is the vet this afternoon?", memory, TOLD, NOW) == verdict


@pytest.mark.parametrize(("memory", "day"), [
    # a participle after a present or modal auxiliary tells of a day to come
    ("my godson is getting confirmed on Sunday", datetime(2026, 3, 8)),
    ("the fence will be painted on Friday", datetime(2026, 3, 6)),
    ("the bins are collected on Thursday", datetime(2026, 3, 5)),
    # after a past auxiliary of a day gone by
    ("the fence was painted on Friday", datetime(2026, 2, 27)),
    ("my scooter got towed on Saturday", datetime(2026, 2, 28)),
    # moved or put off to a day: ahead of the telling, though the verb of moving is past
    ("the allotment meeting moved to the 9th", datetime(2026, 3, 9)),
    ("they pushed my MRI back to Thursday", datetime(2026, 3, 5)),
    # a day the past verb itself happened on stays behind it
    ("we planted the beans on the 1st", datetime(2026, 3, 1)),
    # the finite auxiliary of a progressive passive hangs on the other auxiliary (tester: a wedding "on
    # the 20th of June next year" was "one hundred and sixty-eight days ago")
    ("Tom and I are getting married on the 4th of May next year.", datetime(2027, 5, 4)),
    ("My nephew is getting christened on the 21st.", datetime(2026, 3, 21)),
    # a participle completing another verb takes that verb's tense
    ("I'm having my boiler serviced on the 20th.", datetime(2026, 3, 20)),
    ("I had my boiler serviced on the 1st.", datetime(2026, 3, 1)),
    # moved to a day the parse hangs on the words after it (tester: "It was the 12th, twenty-four days ago")
    ("The physio moved to the 16th, same time.", datetime(2026, 3, 16)),
    ("They pushed the fitting back to the 9th, same place.", datetime(2026, 3, 9)),
    # a participle that only names a thing has no tense of its own (tester64 s55: "starting a new medicine
    # called metformin on Monday", told on a Monday, was "Monday the 7th, yesterday" the next day)
    ("I'm starting a new medicine called metformin on Monday.", datetime(2026, 3, 9)),
    ("We went to a bar called Joe's on Friday.", datetime(2026, 2, 27)),
])
def test_a_told_day_falls_by_its_tense_and_where_it_was_moved_to(memory, day):
    told = named_time(load_parser()(memory), TOLD)  # Monday 2 March
    assert told is not None and told.start == day, (memory, told)


@pytest.mark.parametrize(("memory", "start", "at"), [
    # a day of a named month is a date, never a length of time ("15 days" is one)
    ("my daughter has her school play on 15 december", datetime(2026, 12, 15), None),
    ("My daughter has her school play on 15 December at 18:00", datetime(2026, 12, 15), datetime(2026, 12, 15, 18)),
    # "18h" after "at" is the clock's hour as much of Europe writes it, not eighteen hours from now
    ("my daugther Sofia has school play on 15 december at 18h", datetime(2026, 12, 15), datetime(2026, 12, 15, 18)),
    ("the concert is on 20 December at 19h30", datetime(2026, 12, 20), datetime(2026, 12, 20, 19, 30)),
])
def test_a_day_of_a_named_month_and_a_clock_hour_written_with_h(memory, start, at):
    told = named_time(load_parser()(memory), TOLD)
    assert told is not None and told.start == start and told.at == at, (memory, told)


@pytest.mark.parametrize(("memory", "day"), [
    # "have got" is have: a day to come (told on Monday 2 March)
    ("I've got a hospital check-up for my knee on Thursday at 11.", datetime(2026, 3, 5)),
    ("I have got a dentist appointment on Friday.", datetime(2026, 3, 6)),
    # "since" a day: one gone by, whatever the verb's tense
    ("My father is in the hospital since Saturday.", datetime(2026, 2, 28)),
    # a weekday with its date: the date, not the weekday to come
    ("I start on Monday the 11th of January.", datetime(2027, 1, 11)),
])
def test_have_got_since_and_a_weekday_with_its_date(memory, day):
    told = named_time(load_parser()(memory), TOLD)
    assert told is not None and told.start == day, (memory, told)


@pytest.mark.parametrize(("memory", "said_back"), [
    ("I've got a hospital check-up for my knee on Thursday at 11.", "on Thursday the 5th at 11"),
    ("My father is in the hospital since Saturday.", "since Saturday the 28th of February"),
    ("I start on Monday the 11th of January.", "I start on Monday the 11th of January."),
])
def test_said_back_a_weekday_falls_as_it_was_told(memory, said_back):
    said = said_day("2026-03-02T10:00:00", NOW)
    assert said_back in dates_named(memory, said, 0, len(memory))


def test_a_weekday_said_back_beside_a_participle_is_named_by_its_auxiliarys_tense():
    said = said_day("2026-03-02T10:00:00", NOW)  # told on Monday 2 March, said back nine days later
    memory = "my godson is getting confirmed on Sunday"
    assert dates_named(memory, said, 0, len(memory)) == "my godson is getting confirmed on Sunday the 8th"


def test_a_count_of_days_asked_is_counted_as_how_long_is(maya):
    """"how many days" counts what "how long" counts: the days counted are what is asked, not a thing
    the memory must name, so a thing told in passing is counted to, not only offered."""
    dm, _, _, _ = maya
    say(dm, "My ferry to Arran sails on the 13th of November.")
    for asked in ("How long until my ferry?", "How many days until my ferry?"):
        reply = say(dm, asked).reply
        assert reply.startswith("Nine days — "), reply


@pytest.mark.parametrize(("told", "asked", "said"), [
    ("My nephew Kwabena sits his driving test on the 13th of November, fingers crossed.",
     "How many days until Kwabena's driving test?", "driving test"),
    ("My granddaughter's christening is on the 13th of November, at St Aidan's.",
     "How many days until the christening?", "christening"),
])
def test_a_count_of_days_to_a_thing_of_theirs_named_without_my_is_counted(maya, told, asked, said):
    """A count of days asked with no "my" in the question ("the christening", a person told of) is
    still of their life when a memory tells the day: the days to it, not a count the memory must name."""
    dm, _, _, _ = maya
    say(dm, told)
    reply = say(dm, asked).reply
    assert reply.startswith("Nine days — ") and said in reply, reply


AFTER_MIDNIGHT = datetime(2026, 3, 13, 1, 20)  # Friday 01:20: people still speak of Thursday


@pytest.mark.parametrize(("question", "verdict"), [
    ("Do I have my physio session on Tuesday?", "yes"),
    ("Is my physio session on Monday?", "no"),
    ("Have I got physio tomorrow?", "no"),  # tomorrow is Friday, the day just begun
])
def test_a_weekday_asked_after_midnight_is_the_one_to_come_from_the_day_spoken_of(question, verdict):
    told = "my physio session is on Tuesday"  # told the same night: the Tuesday of the 17th
    assert whether_told(question, told, AFTER_MIDNIGHT, AFTER_MIDNIGHT) == verdict


@pytest.mark.parametrize(("told", "day"), [
    # the past of another clause says nothing of the date's: the 30th is the one to come
    ("The garage rang, the MOT is now on the 30th.", datetime(2026, 12, 30)),
    ("We met up on the 2nd and it was lovely.", datetime(2026, 12, 2)),
])
def test_a_date_is_read_in_the_tense_of_its_own_clause(told, day):
    time = named_time(load_parser()(told), datetime(2026, 12, 6, 10))
    assert time is not None and time.start == day, time


def test_a_day_typed_as_chat_is_said_from_the_day_it_is_asked(maya):
    """"vet is tmrw at 11 for my cat" was kept as a request "is tmrw at 11 for your cat" (the word
    "vet" cut off), and the next day "whens the vet again" got "Tmrw at 11": a copula with its subject
    tells, and "tmrw" is tomorrow, said back from the day it is asked."""
    dm, _, _, uid = maya
    told = say(dm, "vet is tmrw at 11 for my cat")
    assert told.memory_intent == "statement", told.reply
    later(dm, uid)
    dm.clock.advance(20)
    asked = say(dm, "whens the vet again")
    assert asked.reply.startswith("Today at 11"), asked.reply


@pytest.mark.parametrize(("at", "day"), [
    (datetime(2026, 12, 5, 0, 20), 5),  # a quarter past midnight on Saturday: still Friday night
    (datetime(2026, 12, 5, 3, 40), 5),
    (datetime(2026, 12, 5, 9, 0), 6),
])
def test_tomorrow_said_in_the_small_hours_is_the_day_after_the_spoken_one(at, day):
    told = told_in("Tomorrow at half nine I have to take the car to the garage.", at)
    assert told is not None and told.start.date() == datetime(2026, 12, day).date(), told


@pytest.mark.parametrize("told", [
    # "the beekeeping club meets on the first Saturday of the month" was kept as "... on the first
    # Saturday the 12th of the month", "Wednesday evenings" as "Wednesday the 9th in the evenings"
    # (tester31): a day that comes round names no date
    "the choir meets on the second Tuesday of the month",
    "my allotment rota is on Friday mornings",
    "my sister rings on the last Saturday of every month",
])
def test_a_day_that_comes_round_names_no_date(told):
    assert told_in(told, datetime(2026, 12, 6, 10, 0)) is None
    said = said_day(datetime(2026, 12, 3, 10, 0), datetime(2026, 12, 6, 10, 0))
    assert dates_named(told, said, 0, len(told)) == told


def test_a_day_of_may_is_read_with_its_month():
    """"When are the roofers coming?" over "the roofers come on the 5th of May" got "It was on the 5th,
    yesterday — ..." (tester31): the recogniser took "May" for the modal and left it out of the date."""
    told = told_in("the glaziers come on the 7th of May", datetime(2026, 12, 6, 10, 0))
    assert told is not None and told.start == datetime(2027, 5, 7)
    found = answer_in("When are the glaziers coming?", "the glaziers come on the 7th of May")
    assert found is not None and found.words("the glaziers come on the 7th of May") == "on the 7th of May"


def test_how_long_since_is_never_counted_to_a_day_still_to_come(maya):
    # "How long since I've seen her?" over "she arrives on the 22nd. I haven't seen her in four years."
    # got "Fourteen days — ..." (tester62 s73, H): the days to her arrival
    dm, _, _, _ = maya
    say(dm, "My brother is flying in from Accra on the 13th of November. I haven't seen him in six years.")
    reply = say(dm, "How long since I last saw my brother?").reply
    assert "Nine days" not in reply and "nine days" not in reply, reply
    assert say(dm, "How many days until my brother flies in?").reply.startswith("Nine days — ")


def test_a_day_of_the_week_said_as_any_one_of_them_names_no_date():
    """"a meeting at 4:45 on a Friday" was said back "on a Friday the 4th" (tester64 s29)."""
    said = "my manager Greg scheduled a meeting at 4:45 on a Friday just to tell us the project is cancelled"
    assert named_time(load_parser()(said), TOLD) is None

