"""A time asked for is said as gone only when the day the answer names has gone by: "When does she
leave?" over "I am quite sad today. ... She leaves on the 19th of December." got "It was on the 19th
of December, yesterday", read from the "today" the memory also tells; and "she leaves on the 23rd now",
told after it, names Astrid by "she" and answers "When is Astrid leaving?" (tester63 s22, s27)."""

from __future__ import annotations

from tests.interaction import test_own_words
from tests.interaction.test_memory_requests import say
from tests.interaction.test_silence_ends_conversation import asked_the_next_day

stranger = test_own_words.stranger  # nobody in view: a chat without a camera

TOLD = ["Hello. My name is Ingrid.",
        "I am quite sad today. My best friend Astrid is moving to Australia. She leaves on the 19th of December."]


def test_the_day_an_answer_names_is_not_another_day_the_memory_tells(stranger):
    reply = asked_the_next_day(stranger, TOLD, "Hello, Ingrid here.", "When does Astrid leave?")
    assert reply.startswith("On the 19th"), reply


def test_a_new_day_told_of_her_by_she_answers_after_the_old_one(stranger):
    asked_the_next_day(stranger, TOLD, "Hello, Ingrid here.", "Who is moving to Australia?")
    say(stranger, "Actually, she changed her flight, she leaves on the 23rd now.")
    reply = say(stranger, "When is Astrid leaving?").reply
    assert reply.startswith("On the 23rd"), reply


def test_a_day_gone_by_is_read_in_the_tense_of_its_sentence(stranger):
    # read alone, "on the 2nd" is the 2nd to come: the sentence's past says it has gone by
    reply = asked_the_next_day(stranger, ["omg hiii im Priya!!!", "my audition was on the 2nd and they called me today"],
                               "priya again heyy", "when was my audition")
    assert reply.startswith("It was on the 2nd"), reply


def test_a_day_the_answer_does_not_name_is_not_its_day(stranger):
    # "my last day at the office is the 31st": "last day" is a date to the recogniser, yesterday's, so
    # "When's my last day?" got "It was the 31st, two days ago" (final replay of tester63: s22/7)
    reply = asked_the_next_day(stranger, ["Yo Nadine. Kofi here.", "Remember that my last day at the office is the 31st."],
                               "Kofi again.", "When's my last day?")
    assert "31st" in reply and not reply.startswith("It was"), reply
