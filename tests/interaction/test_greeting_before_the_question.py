""""wren here. do you remember what i told you about juno?" got "I don't remember you telling me about
that": the introduction was read as part of what was asked, and no memory of Juno names a wren. A
greeting or an introduction before the question names nothing asked (own play as Wren)."""

from __future__ import annotations

import pytest

from interaction.offline.name_reading import greets_or_introduces_only
from interaction.own_life import up_to_the_question
from tests.interaction import test_own_words
from tests.interaction.test_silence_ends_conversation import asked_the_next_day

stranger = test_own_words.stranger  # nobody in view: a chat without a camera


def test_an_introduction_before_the_question_is_not_asked_about(stranger):
    told = ["hiya im Wren and im 34", "my sister Juno just had her baby, a little boy called Otto!!",
            "he was 3.4 kilos and she's doing fine"]
    reply = asked_the_next_day(stranger, told, "hey its wren", "wren here. do you remember what i told you about juno?")
    assert "Otto" in reply and "not sure" not in reply, reply


@pytest.mark.parametrize(("said", "only"), [
    ("wren here.", True), ("Hi Nadine!", True), ("Hello, it's Tomasz.", True),
    ("I told you about Ana's wedding.", False), ("Hi, my dog died.", False),
])
def test_a_sentence_that_only_greets_or_introduces(said, only):
    assert greets_or_introduces_only(said) is only


@pytest.mark.parametrize(("said", "asked"), [
    ("hey its Zeke, when is my gig?", "when is my gig?"),
    ("Hi Nadine, what did I tell you about Juno?", "what did I tell you about Juno?"),
    ("my dog, what is he called?", "my dog, what is he called?"),
])
def test_a_greeting_clause_before_the_question_is_left_out(said, asked):
    assert up_to_the_question(said) == asked
