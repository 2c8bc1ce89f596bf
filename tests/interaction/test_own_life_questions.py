"""Whole turns: a question about the person's own life is answered from what they told, however it is
phrased (a how-to question about a thing is not a recall of it, a question after a to-do finds it,
a profile question asked as "do you remember ...?" gets the profile's answer), and a question to
Nadine about herself that her knowledge cannot answer is answered honestly, not with a chunk of it."""

from __future__ import annotations

import pytest

from tests.interaction.test_memory_requests import say
from tests.interaction.test_own_words import stranger  # noqa: F401 - a fixture


def _meet(dm, name: str, *told: str) -> None:
    say(dm, f"Hello, I'm {name}.")
    for text in told:
        say(dm, text)
    dm.close_session("test")  # a later conversation
    say(dm, f"Hi, it's {name} again.")


def test_a_how_to_question_about_a_thing_is_no_recall_of_what_was_told_about_it(stranger):  # noqa: F811
    _meet(stranger, "Ingrid", "Please remember that my wifi password is heron-salt-77.")
    asked = say(stranger, "how can I change the password on my router?")
    assert not asked.is_recall and "heron-salt-77" not in asked.reply, asked
    again = say(stranger, "what's my wifi password again?")
    assert again.is_recall and "heron-salt-77" in again.reply, again.reply


def test_a_question_after_something_to_do_finds_the_to_do(stranger):  # noqa: F811
    _meet(stranger, "Tobias", "could you remind me to collect the parcel from the post office?")
    asked = say(stranger, "is there anything I was supposed to collect?")
    # said as what was asked, not offered back as a guess ("I'm not sure — do you mean ...?")
    assert asked.is_recall and asked.recall.outcome == "asserted", asked.reply
    assert "the parcel from the post office" in asked.reply, asked.reply


def test_a_profile_question_asked_as_a_recall_gets_the_profile_answer(stranger):  # noqa: F811
    _meet(stranger, "Henrike", "I work as a glassblower.", "I live in Ghent.")
    for question, value in (("can you remember what my job is?", "glassblower"),
                            ("do you recall where I live?", "Ghent")):
        asked = say(stranger, question)
        assert value in asked.reply and asked.answered_from_profile, (question, asked.reply)


@pytest.mark.xfail(strict=True, reason="the knowledge answers with its nearest chunk above the cosine threshold "
                   "(0.339): 'a favourite poem' reaches a chunk about her memory")
def test_a_question_about_nadine_her_knowledge_cannot_answer_gets_no_unrelated_knowledge(stranger):  # noqa: F811
    _meet(stranger, "Ruth")
    for question in ("Do you have a favourite poem?", "Which city would you most like to visit?"):
        asked = say(stranger, question)
        assert "I'm afraid I don't know that about myself" in asked.reply, (question, asked.reply)
    known = say(stranger, "Who made you?")
    assert "I'm afraid I don't know" not in known.reply, known.reply


@pytest.mark.parametrize("question", [
    "Have you got kids of your own, Nadine?", "Have you any nieces or nephews?",
    pytest.param("Do you have a boyfriend?", marks=pytest.mark.xfail(strict=True, reason=(
        "a kind of partner her family section does not name is less similar to it than the threshold"))),
])
def test_a_question_about_her_own_family_is_answered_that_she_has_none(stranger, question):  # noqa: F811
    # asked as a person would ask a new acquaintance: answered from what she is, never with a chunk about
    # something else (how her memories are kept) nor "I don't know that about myself"
    _meet(stranger, "Wendell")
    asked = say(stranger, question)
    assert "I am a robot, so I have no family of my own" in asked.reply, asked.reply
    told = say(stranger, "My nephew Caspar starts school next week.")  # their own family is theirs
    assert "no family of my own" not in told.reply, told.reply
