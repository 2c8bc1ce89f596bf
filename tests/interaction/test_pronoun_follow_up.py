"""A question that names what it asks of only by a pronoun ("What breed is she?", "How old is he?")
right after a question Nadine answered from memory asks that memory for another thing: the pronoun is
the thing the question before asked after ("what's my dog called?"), or whom its answer named ("who is
coming for the summer?" / "Teodor — ..."). Before, each got "That's a good question. I'm afraid I
don't know the answer." (tester61: 16 turns). The sentences are new: in none of the benchmark scripts
or labelled sets."""

from __future__ import annotations

from tests.interaction import test_memory_requests
from tests.interaction.test_memory_requests import say
from tests.interaction.test_said_before import told_then_asked

maya = test_memory_requests.maya  # Maya, known by face, with real memory services


def test_what_is_asked_of_her_is_asked_of_the_dog_asked_after(maya):
    dm, _, _, uid = maya
    told = ["We adopted a whippet called Nutmeg on Saturday.", "She is terrified of the hoover."]
    assert told_then_asked(dm, uid, told, "What's my dog called?").startswith("Nutmeg — ")
    # asked of the whippet's memory (whether it is sure enough to say the breed first is the core's)
    reply = say(dm, "What breed is she?").reply
    assert "whippet" in reply.casefold() and "good question" not in reply, reply
    reply = say(dm, "And what is she terrified of?").reply
    assert "hoover" in reply and "good question" not in reply, reply


def test_how_old_he_is_is_asked_of_whom_the_answer_named(maya):
    dm, _, _, uid = maya
    told = ["My nephew Teodor is coming to stay over Easter.", "He's nine and mad about trains.",
            "Our neighbour's cat had kittens in our shed, two of them are tabby."]
    assert told_then_asked(dm, uid, told, "Who is coming over Easter?").startswith("Teodor — ")
    reply = say(dm, "How old is he?").reply
    assert "nine" in reply and "kittens" not in reply, reply



def test_she_after_a_question_of_her_name_is_the_one_named_not_the_name(maya):
    dm, _, _, uid = maya
    told = ["We took in a retired racing greyhound last spring.", "Her name is Clementine.",
            "She's frightened of thunder and hides in the bath."]
    assert told_then_asked(dm, uid, told, "What's my dog's name?").startswith("Clementine — ")
    # "she" is the dog the name belongs to: asked of the name, the answer was the name again
    for asked, value in (("What breed is she?", "greyhound"), ("What is she frightened of?", "thunder")):
        reply = say(dm, asked).reply
        assert value in reply.casefold() and not reply.startswith("Clementine"), reply


def test_what_time_it_is_asked_after_an_answer_from_memory_asks_the_clock(maya):
    dm, _, _, uid = maya
    told = ["Please remember that my dentist appointment is on Friday at 3pm."]
    assert "3pm" in told_then_asked(dm, uid, told, "When is my dentist appointment?")
    # "it" was read as the appointment asked after: "On Friday the ... at 3pm — ..." (my replay of tester61 s75)
    reply = say(dm, "what time is it?").reply
    assert reply.startswith("It's ") and "dentist" not in reply, reply
