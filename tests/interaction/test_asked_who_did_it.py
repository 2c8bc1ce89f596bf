""""my gran died on saturday", then the next day "who died" got "That's a good question. I'm afraid I
don't know the answer.": the question asks who did it, so the same event told of anyone is what it
asks about, not a thing of nobody's that the gran's death could not be (tester62 s48)."""

from __future__ import annotations

from tests.interaction import test_own_words
from tests.interaction.test_silence_ends_conversation import asked_the_next_day

stranger = test_own_words.stranger  # nobody in view: a chat without a camera


def test_who_did_it_is_answered_by_the_event_told_of_someone(stranger):
    reply = asked_the_next_day(stranger, ["im Ash", "my gran died on saturday"], "its Ash", "who died")
    assert reply.startswith("Your gran"), reply


def test_who_did_it_is_not_answered_by_another_event(stranger):
    reply = asked_the_next_day(stranger, ["im Ash", "my gran's funeral is next wednesday at 11"], "its Ash",
                               "who got married?")
    assert "funeral" not in reply, reply


def test_what_underwent_it_is_answered_by_the_thing_told_of(stranger):
    # "what got stolen?" got "That's a good question" over "my camera got stolen from my car" (tester63 s82)
    reply = asked_the_next_day(stranger, ["hi, Iris here.", "my camera got stolen from my car. 4000 dollars of gear gone"],
                               "iris here", "what got stolen?")
    assert "camera" in reply, reply


def test_a_question_of_the_world_is_not_answered_from_a_memory_that_names_its_thing(stranger):
    reply = asked_the_next_day(stranger, ["hi, Iris here.", "I baked sourdough bread yesterday, it came out great"],
                               "iris here", "what makes bread rise?")
    assert "sourdough" not in reply, reply
