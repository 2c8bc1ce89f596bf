"""A question whose only person is "she" or "he" asks after the last person told of in this
conversation (person_pronoun.py), of the pronoun's sex where WordNet's gloss gives one."""

from __future__ import annotations

import pytest

from interaction.memory.retrieval.lexicon import load_wordnet
from tests.interaction.test_returning_by_name import dm, say  # noqa: F401 - the fixture


@pytest.mark.parametrize(("word", "sex"), [("niece", "Fem"), ("nephew", "Masc"), ("grandmother", "Fem"),
                                           ("uncle", "Masc"), ("colleague", None), ("neighbour", None)])
def test_the_sex_of_a_kind_of_person_is_read_from_its_gloss(word, sex):
    assert load_wordnet().sex_of(word) == sex


def test_she_is_the_person_last_told_of_and_the_answer_is_read_off_what_was_told(dm):  # noqa: F811
    say(dm, "Hello, I'm Marguerite Okafor.")
    say(dm, "My uncle Kwame is retiring to Accra in the spring.")
    say(dm, "My niece Lola is going to train as a vet in Glasgow.")
    reply = say(dm, "where is she going to train?").reply
    assert reply.startswith("In Glasgow"), reply
    reply = say(dm, "where is he retiring to?").reply  # the last "he" told of, past the niece
    assert reply.startswith("Accra") or reply.startswith("To Accra"), reply


def test_a_pronoun_of_the_other_sex_than_anyone_told_of_finds_no_one(dm):  # noqa: F811
    say(dm, "Hello, I'm Marguerite Okafor.")
    say(dm, "My niece Lola is going to train as a vet in Glasgow.")
    reply = say(dm, "where is he going to train?").reply
    assert "Glasgow" not in reply, reply


def test_a_progressive_what_question_is_not_answered_with_the_person_asked_of(dm):  # noqa: F811
    say(dm, "Hello, I'm Marguerite Okafor.")
    say(dm, "My nephew Ade is going to study law in Dublin next year.")
    reply = say(dm, "what is my nephew going to study?").reply
    assert not reply.lower().startswith("nephew") and "law" in reply, reply


def test_he_is_the_person_the_question_before_named(dm):  # noqa: F811
    say(dm, "Hello, I'm Marguerite Okafor.")
    say(dm, "My godson Felix is starting an apprenticeship in Derby in January.")
    say(dm, "The weather has been dreadful.")
    assert "Derby" in say(dm, "Where is my godson starting his apprenticeship?").reply
    reply = say(dm, "When does he start?").reply
    assert reply.startswith("In January"), reply



@pytest.mark.parametrize(("told", "asked", "then", "first"), [
    # "what's happening with my mum?" then "how old will she be?" got "That's a good question" (tester59
    # s16): the person named in a question's phrase, not its subject, is the one "she" stands for
    ("My mum is moving to Lagos in March, she wants to be near her sisters.", "Any news about my mum?",
     "When is she moving?", "In March"),
    ("My grandad is having his knee operation in Leeds on Friday.", "What's going on with my grandad?",
     "Where is he having it?", "In Leeds"),
])
def test_a_pronoun_is_the_one_person_a_question_before_asked_after(dm, told, asked, then, first):  # noqa: F811
    for text in ("Hello, I'm Marguerite Okafor.", told, "The weather has been dreadful.", asked):
        say(dm, text)
    reply = say(dm, then).reply
    assert reply.startswith(first), reply
