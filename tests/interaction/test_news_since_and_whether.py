"""A thing told since about someone a memory names answers in its place, or is said with it; a
question asking whether is answered no when what it asks is not what was told. The sentences are
new: in none of the benchmark scripts or labelled sets."""

from __future__ import annotations

from datetime import datetime

import pytest

from interaction.asked_value import whether_told
from interaction.memory.retrieval.later_news import updates
from tests.interaction import test_memory_requests
from tests.interaction.test_memory_requests import say
from tests.interaction.test_own_words import later

maya = test_memory_requests.maya  # Maya, known by face, with real memory services
TOLD = datetime(2026, 5, 4, 10)
NOW = datetime(2026, 5, 5, 10)


@pytest.mark.parametrize(("later_text", "earlier", "new"), [
    ("Biscuit passed away last night.", "We have two dogs, Biscuit and Rolo.", True),
    ("My brother Idris moved to Cardiff.", "Idris lives in Swansea with his wife.", True),
    ("Idris phoned me on Sunday.", "Idris lives in Swansea with his wife.", False),
    ("Biscuit passed away last night.", "My neighbour has a parrot called Kiwi.", False),
])
def test_news_of_someone_a_memory_names(later_text, earlier, new):
    assert updates(later_text, earlier) is new


@pytest.mark.parametrize(("question", "memory", "verdict"), [
    ("Is my dentist appointment in June?", "my dentist appointment is on the 3rd of July", "no"),
    ("Is my dentist appointment on the 3rd of July?", "my dentist appointment is on the 3rd of July", "yes"),
    ("Is my dentist appointment on the 4th of July?", "my dentist appointment is on the 3rd of July", "no"),
    ("Is the code for my bike lock 4471?", "the code for my bike lock is 4417", "no"),
    ("Is the code for my bike lock 4417?", "the code for my bike lock is 4417", "yes"),
    ("Is my nephew starting school?", "my nephew starts school in September", None),
    # the time something was told is not a value asked
    ("Did I tell you yesterday about my dentist appointment?", "my dentist appointment is on the 3rd of July", None),
])
def test_whether_what_is_asked_was_told(question, memory, verdict):
    assert whether_told(question, memory, TOLD, NOW) == verdict


@pytest.mark.parametrize(("before", "since", "question", "first", "said"), [
    # a place told since answers where, never the one told before
    ("Please remember that Amira is at the Royal Free hospital, ward 9.", "Great news, Amira went home this afternoon!",
     "Where is Amira now?", "Home — ", "Amira went home"),
    # a count told before is not said as current once news of one of them came since
    ("We keep three goats, Nutmeg, Clover and Basil.", "Terrible day, Basil died in the night.",
     "How many goats do I have now?", "", "Basil died"),
    # asking whether: no, with what was told, when the value asked is another; yes when it is the same
    ("Please remember that my passport renewal appointment is on the 9th of March.", None,
     "Is my passport renewal appointment in April?", "No — ", "9th of March"),
    ("Please remember that my passport renewal appointment is on the 9th of March.", None,
     "Is my passport renewal appointment on the 9th of March?", "Yes — ", "9th of March"),
    # a thing the parser takes for the copula's attribute is still asked whether, and a value changed
    # since answers it
    ("The viewing of the flat on Elm Road is on Tuesday at 5.", "They pushed the viewing to Thursday at 6.",
     "Is my viewing on Tuesday?", "No", "Thursday"),
    # asking whether a thing happened that the memory of the same person does not say: no yes
    ("My son Kit is moving to Lisbon after Easter.", None, "Is my son getting divorced?",
     "I don't think you told me that — ", "Lisbon"),
    ("My son Kit is moving to Lisbon after Easter.", None, "Did I tell you my son is moving to Lisbon?",
     "Yes — ", "Lisbon"),
    # a choice between values asks which, never whether: no "No" before the one that was told
    ("My niece Orla is flying to Dublin on Friday for the match.", None, "Is Orla flying to Dublin or to Cork?",
     "Earlier today you told me", "Dublin"),
    # a name of their own never told: said to be untold, never an unrelated memory offered in its place
    ("I'm a nurse in Leeds and I've got a parrot called Kiwi.", None, "Did I tell you my brother's name?",
     "I don't think you told me about your brother", ""),
])
def test_what_was_told_since_and_whether(maya, before, since, question, first, said):
    dm, _, _, uid = maya
    say(dm, before)
    later(dm, uid)
    if since:
        say(dm, since)
    reply = say(dm, question).reply
    assert reply.startswith(first) and said in reply and "Three goats" not in reply, reply
    assert "Royal Free" not in reply and "do you mean" not in reply, reply



@pytest.mark.parametrize(("before", "since", "questions", "first", "said"), [
    # where the day falls is said of the day as it holds: "Is my blood test still on Friday?" after it
    # moved to Monday (asked on a Wednesday), never "it's in two days" of the Friday it left
    ("My blood test is on Friday at 9.", "The blood test got moved to Monday at 10.",
     ("Is my blood test still on Friday?", "Is it still on Friday?"), "No, it's in five days — ", "Monday"),
    # a memory that says what is asked under a negation ("can't make Saturday") takes the yes away; one
    # that says the lunch is off is a no ("off", of events, is "cancelled" in WordNet)
    ("My brother Kofi is coming for lunch on Saturday at one.", "Kofi can't make Saturday after all, lunch is off.",
     ("Is Kofi still coming on Saturday?", "Is my brother coming for lunch on Saturday?"), ("Earlier today", "No — earlier today"),
     "make Saturday"),
])
def test_whether_a_thing_moved_or_called_off_since_still_holds(maya, before, since, questions, first, said):
    dm, _, _, uid = maya
    say(dm, before)
    later(dm, uid)
    say(dm, since)
    for asked in questions:
        reply = say(dm, asked).reply
        assert reply.startswith(first) and said in reply, reply


@pytest.mark.parametrize(("before", "since", "asked"), [
    ("My grandson Teodor has a violin recital on Thursday at 6.", "The violin recital got cancelled, the hall flooded.",
     "Is Teodor's recital still on Thursday?"),
    ("We're having a leaving do for Anneke on Friday night.", "They called off the leaving do, Anneke is staying after all.",
     "Is the leaving do still on?"),
    ("I've got a meeting with the council planners on the 14th.", "The planners cancelled the meeting.",
     "Do I still have the meeting with the planners?"),
])
def test_whether_a_thing_called_off_since_is_still_on_is_a_no(maya, before, since, asked):
    """The latest told of a thing is that it was called off (by a verb meaning to cancel it): "No",
    with that news, on the visit it was told and on the next."""
    dm, _, _, uid = maya
    say(dm, before)
    later(dm, uid)
    say(dm, since)
    for _ in range(2):
        reply = say(dm, asked).reply
        assert reply.startswith("No — ") and since.split(",")[0].split(" ", 1)[1].rstrip(".") in reply, reply
        later(dm, uid)


@pytest.mark.parametrize(("told", "asked", "first"), [
    ("On Friday I have to collect my glasses from the optician.", "Did I need to fetch anything from the optician?", "Yes — "),
    ("I must drop the parcel off at the post office tomorrow.", "Was I meant to take something to the post office?", "Yes — "),
    ("On Friday I have to collect my glasses from the optician.", "Did I need to fetch anything from the garage?", "I'm sorry"),
])
def test_whether_anything_was_to_be_done_is_answered_by_what_was(maya, told, asked, first):
    """An indefinite object asks whether anything was done there, whatever it was: the memory naming
    the rest of the question is a yes; one naming another place is no answer."""
    dm, _, _, uid = maya
    say(dm, told)
    later(dm, uid)
    reply = say(dm, asked).reply
    assert reply.startswith(first), reply


def test_a_parting_from_someone_else_by_name_is_no_news_of_a_bond():
    assert not updates("I split up with my girlfriend Nadia two years ago, no regrets.", "I'm married to Chloé, we live in Bath.")
    assert updates("Chloé and I split up last month.", "I'm married to Chloé, we live in Bath.")
    assert updates("We split up last month.", "I'm married to Chloé, we live in Bath.")


def test_whether_someone_is_still_theirs_is_a_no_when_what_was_told_is_that_they_parted(maya):
    dm, _, _, uid = maya
    say(dm, "I'm married to Chloé, we live in Bath.")
    say(dm, "I split up with my girlfriend Nadia two years ago, no regrets.")
    later(dm, uid)
    asked = say(dm, "Is Nadia still my girlfriend?").reply
    assert asked.startswith("Not any more"), asked
    wife = say(dm, "Who's my wife?").reply
    assert "Chloé" in wife and "Nadia" not in wife, wife


@pytest.mark.parametrize(("question", "memory", "verdict"), [
    # "did I go to Osaka?" over two weeks in Kyoto and Tokyo got "Yes — ..." (tester59 s78): a place
    # within the one told may or may not have been where they were
    ("Did I go to Venice?", "back from Italy, ten days in Rome and Florence", "unsure"),
    ("Did I go to Rome?", "back from Italy, ten days in Rome and Florence", "yes"),
    ("Did I go to Barcelona?", "back from Italy, ten days in Rome and Florence", "no"),
])
def test_a_place_asked_is_told_by_itself_or_a_place_within_it(question, memory, verdict):
    assert whether_told(question, memory, TOLD, NOW) == verdict
