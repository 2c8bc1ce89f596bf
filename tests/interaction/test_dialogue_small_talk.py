"""Whole turns of small talk with real memory services: a question or request addressed to Nadine
herself is answered from what she knows about herself or honestly declined, and a bare yes or no with
nothing asked is acknowledged."""

from __future__ import annotations

import pytest

from interaction.confirmation.reader import bare_answer
from interaction.offline import question_form
from tests.interaction.test_memory_requests import say
from tests.interaction.test_own_words import stranger  # noqa: F401 - a fixture

UNHEARD = "Tell me more"


@pytest.fixture
def ilse(stranger):  # noqa: F811 - the fixture above
    say(stranger, "Hello, my name is Ilse.")
    return stranger


@pytest.mark.parametrize("question,said", [
    ("are u a robot?", "robot"),
    ("where were you built?", "Singapore"),
    # about her pastimes, not the person's: she says she has none
    ("got any hobbies of your own, Nadine?", "no hobbies"),
    ("so what do u do for fun?", "no hobbies"),
])
def test_a_question_to_nadine_is_answered_from_what_she_knows_of_herself(ilse, question, said):
    turn = say(ilse, question)
    assert said in turn.reply and UNHEARD not in turn.reply, turn.reply


@pytest.mark.parametrize("request_,said", [
    ("tell me a joke", "tell you a joke"),
    ("sing me a song please", "sing you a song"),
    # "Can you tell me a joke?" got "That's a good question. I'm afraid I don't know the answer." (my
    # play): a bid asked of "you" with a modal is one
    ("Could you recite me a limerick?", "recite you a limerick"),
    ("can u read us a bedtime story", "read you a bedtime story"),
])
def test_a_request_she_cannot_do_is_declined_honestly(ilse, request_, said):
    turn = say(ilse, request_)
    assert said in turn.reply and UNHEARD not in turn.reply, turn.reply
    assert turn.memory_intent == "statement", turn


def test_a_question_about_her_that_she_cannot_answer_gets_an_honest_short_reply(ilse):
    turn = say(ilse, "what's your favourite film?")
    assert UNHEARD not in turn.reply and "myself" in turn.reply and len(turn.reply) < 80, turn.reply


@pytest.mark.parametrize("answer", ["sure", "nope"])
def test_a_bare_yes_or_no_with_nothing_asked_is_acknowledged(ilse, answer):
    turn = say(ilse, answer)
    assert turn.memory_intent == "statement", turn
    assert turn.reply.startswith("All right"), turn.reply


@pytest.mark.parametrize("text,addressed", [
    ("r u even a real robot?", True), ("what is ur favourite song", True), ("any pets of your own?", True), ("where were you switched on first?", True),
    ("can you help me with my tax form?", False), ("do you remember my cat?", False), ("what's my postcode?", False),
])
def test_a_question_is_about_nadine_by_its_parse(text, addressed):
    assert question_form.addresses_nadine(text) is addressed


@pytest.mark.parametrize("text,request_", [
    ("read me a poem", "read you a poem"), ("please tell us a story about pirates", "tell you a story about pirates"),
    ("Read me the news headlines", "read you the news headlines"),  # said mid-sentence in her reply
    ("tell me about Lisbon", None), ("have a lovely evening", None), ("don't tell me the score", None),
    ("excuse me", None), ("would you pass me the salt?", "pass you the salt"), ("can I tell you a secret?", None),
    ("could you tell me about Lisbon?", None), ("you never tell me a joke", None),
])
def test_what_an_imperative_asks_nadine_to_do(text, request_):
    assert question_form.request_of_nadine(text) == request_


@pytest.mark.parametrize("text,bare", [
    ("yes please", True), ("Nope!", True), ("ok sure", True),
    ("yes, I finally sold the caravan", False), ("no, I moved out in 2019", False), ("maybe later", False),
])
def test_a_bare_answer_tells_nothing_else(text, bare):
    assert bare_answer(text) is bare


@pytest.mark.parametrize("text", ["Tell me something about yourself.", "tell me a bit about yourself"])
def test_asked_to_tell_something_of_herself_is_about_nadine(text):
    """"tell me a bit about yourself" got "I'm afraid I can't tell you a bit about myself"."""
    from interaction import cues

    assert cues.is_about_nadine(text)

