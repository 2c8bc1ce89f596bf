""""do you remember what i told you yesterday" said back two things, and "forget it. forget everything
i said" got "I don't think I have a memory of that": the question names no topic for the request to
find, so what goes is what the reply said back, every memory of it (tester63 s30)."""

from __future__ import annotations

from tests.interaction import test_own_words
from tests.interaction.test_memory_requests import say
from tests.interaction.test_silence_ends_conversation import asked_the_next_day

stranger = test_own_words.stranger  # nobody in view: a chat without a camera


def test_a_request_to_forget_what_was_just_said_back_offers_each_memory_said(stranger):
    reply = asked_the_next_day(stranger, ["hi. im Noor. 16", "my parents are getting divorced", "idk how to feel about it"],
                               "noor", "do you remember what i told you yesterday")
    assert "divorced" in reply and "idk how to feel" in reply, reply
    asked = say(stranger, "forget it. forget everything i said").reply
    assert "divorced" in asked and "idk how to feel" in asked and "yes or no" in asked, asked
    say(stranger, "yes")
    assert "divorced" not in say(stranger, "what do you know about my parents?").reply
