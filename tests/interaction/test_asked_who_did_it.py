""""my gran died on saturday", then the next day "who died" got "That's a good question. I'm afraid I
don't know the answer.": the question asks who did it, so the same event told of anyone is what it
asks about, not a thing of nobody's that the gran's death could not be (tester62 s48)."""

from __future__ import annotations

from tests.interaction import test_own_words
from tests.interaction.test_memory_requests import say

stranger = test_own_words.stranger  # nobody in view: a chat without a camera


def test_who_did_it_is_answered_by_the_event_told_of_someone(stranger):
    say(stranger, "im Ash")
    say(stranger, "my gran died on saturday")
    stranger.clock.advance(20)
    say(stranger, "its Ash")
    reply = say(stranger, "who died").reply
    assert reply.startswith("Your gran"), reply


def test_who_did_it_is_not_answered_by_another_event(stranger):
    say(stranger, "im Ash")
    say(stranger, "my gran's funeral is next wednesday at 11")
    stranger.clock.advance(20)
    say(stranger, "its Ash")
    reply = say(stranger, "who got married?").reply
    assert "funeral" not in reply, reply
