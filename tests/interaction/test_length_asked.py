""""How long ...?" asks a stretch of time: answered with the one the memory says of what is asked ("for
two weeks", "nine months"), never with a point in time ("in two weeks") nor a stretch said of something
else ("how long is my flight?" over a stay of two weeks). The sentences are new: in none of the
benchmark scripts or labelled sets."""

from __future__ import annotations

import pytest

from interaction.answer_span import answer_in
from tests.interaction import test_memory_requests
from tests.interaction.test_memory_requests import say
from tests.interaction.test_own_words import later

maya = test_memory_requests.maya  # Maya, known by face, with real memory services


@pytest.mark.parametrize(("question", "memory", "answer"), [
    ("How long am I staying?", "I'm staying with my aunt in Porto for three weeks.", "for three weeks"),
    ("How long is my apprenticeship?", "my apprenticeship at the boatyard lasts nine months", "nine months"),
    ("how long have we been together?", "Ruth and I have been together for eleven years now", "for eleven years"),
    # a point in time is no stretch of it
    ("How long is my course?", "My pottery course starts in two weeks.", None),
    # a stretch said of another thing
    ("How long is my flight?", "I'm staying with my aunt in Porto for three weeks.", None),
])
def test_how_long_is_answered_by_the_stretch_of_time_said_of_it(question, memory, answer):
    found = answer_in(question, memory)
    assert (found.words(memory) if found else None) == answer


def test_a_stay_told_one_day_is_answered_the_next(maya):
    dm, _, _, uid = maya
    say(dm, "I'm flying to Reykjavik on Monday, staying for ten days with an old friend.")
    later(dm, uid)
    reply = say(dm, "How long am I staying in Reykjavik?").reply
    assert reply.startswith("For ten days — "), reply
    reply = say(dm, "How long is my flight?").reply
    assert not reply.startswith("For ten days") and reply.startswith("I don't think you told me"), reply


def test_how_long_the_speaker_has_been_married_with_someone():
    """"my wife Edna and I have been married 68 years": the speaker is one of the doers (replay61 s94)."""
    memory = "my husband Piotr and I have been married 41 years"
    found = answer_in("How long have I been married?", memory)
    assert found is not None and found.words(memory) == "41 years"
