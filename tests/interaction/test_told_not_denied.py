"""A memory that answers what is asked is never said after "I don't think you told me that": who did
a thing told by how they are theirs ("my mum is coming to stay": tester27 maggie), and whether they
told about someone the memory names ("did I tell you about Bruno?": tester27 tomasz). The sentences
are new, in none of the labelled sets."""

from __future__ import annotations

import pytest

from interaction.answer_span import answer_in, names_what_is_asked, slot_asked
from interaction.asked_value import says_what_is_asked
from tests.interaction import test_memory_requests
from tests.interaction.test_memory_requests import say
from tests.interaction.test_own_words import later

maya = test_memory_requests.maya  # Maya, known by face, with real memory services


@pytest.mark.parametrize(("question", "memory", "answer"), [
    ("Who is picking me up from the station?", "My husband is picking me up from the station on Monday.",
     "My husband"),
    ("Who am I meeting for coffee?", "I'm meeting my old flatmate for coffee on Thursday.", "my old flatmate"),
    ("Who is coming for dinner?", "My mum is coming for dinner tonight.", "My mum"),  # "mum": a flower first
    ("Who is coming for dinner?", "My cousin Dara is coming for dinner tonight.", "Dara"),  # the name, when said
])
def test_a_person_of_theirs_answers_who(question, memory, answer):
    found = answer_in(question, memory)
    assert found is not None and memory[found.start:found.end] == answer
    assert names_what_is_asked(question, memory)


@pytest.mark.parametrize(("question", "memory"), [
    ("Who is my optician?", "My optician appointment moved to Thursday."),  # a compound names no person
    ("Who fixed the gate?", "The gate was fixed on Saturday."),
])
def test_no_person_of_theirs_no_answer(question, memory):
    assert answer_in(question, memory) is None


@pytest.mark.parametrize(("question", "memory", "says"), [
    ("Did I tell you about Pepper?", "Our cat Pepper had kittens last night!", True),
    ("Did I mention the allotment?", "I finally got an allotment near the canal.", True),
    ("Did I tell you about my promotion?", "Our cat Pepper had kittens last night!", False),
    ("Did I tell you that Pepper is pregnant?", "Our cat Pepper had kittens last night!", False),
])
def test_whether_they_told_about_what_a_memory_names(question, memory, says):
    assert says_what_is_asked(question, memory) is says


def test_who_and_whether_are_answered_from_what_was_told(maya):
    dm, _, _, uid = maya
    say(dm, "My aunt is visiting us over Easter, I can't wait.")
    say(dm, "Our cat Pepper had kittens last night!")
    later(dm, uid)
    who = say(dm, "Who is visiting over Easter?").reply
    assert who.startswith("Your aunt") and "don't think" not in who, who
    told = say(dm, "Did I tell you about Pepper?").reply
    assert told.startswith("Yes") and "kittens" in told and "don't think" not in told, told


@pytest.mark.parametrize(("question", "memory", "answer"), [
    # the parser hangs the noun and its name on the verb, two subjects: only the tester's words
    # reproduced it (tester27 elena)
    ("What's my cat called?", "My cat Miso knocked my coffee over this morning, typical.", "Miso"),
    ("What's my cat's name?", "My cat Miso knocked my coffee over this morning, typical.", "Miso"),
    # the names listed beside a plural (tester27 grace: "two guinea pigs, Salt and Pepper")
    ("What are my guinea pigs called?", "I have two guinea pigs, Salt and Pepper.", "Salt and Pepper"),
    ("What are my cats called?", "I have two cats, Mango and Pickle.", "Mango and Pickle"),
    ("What are my rabbits called?", "We adopted two rabbits, Clover and Fig.", "Clover and Fig"),
])
def test_the_name_beside_the_noun_answers_what_it_is_called(question, memory, answer):
    found = answer_in(question, memory)
    assert found is not None and memory[found.start:found.end] == answer


@pytest.mark.parametrize("question", ["What did my grandfather teach me?", "What did my aunt give me?"])
def test_what_was_done_asks_for_no_thing_a_memory_must_name(question):
    """ "What did my nan teach me?" over "She taught me to knit." got "I don't think you told me
    that — ..." (tester27 ines): the "what" of a verb with two objects asks what was done."""
    assert slot_asked(question) is None
