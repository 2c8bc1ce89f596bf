"""Two answers that said the opposite of the memory: "Who arrives on the 20th?" over "my mother-in-law
arrives on the 20th" got "Your mother —" (the tokenizer splits the hyphenated word), and "Was anyone hurt
in the accident?" over "Nobody hurt, thank God." got "Yes —" (tester63 s70, s78)."""

from __future__ import annotations

import pytest

from interaction.answer_span import answer_in
from interaction.asked_value import denied_outright, said_of_someone_else, someone_asked_of_is_untold
from tests.interaction.test_memory_requests import maya  # noqa: F401 - a fixture


def test_a_hyphenated_word_is_answered_whole():
    memory = "Also, my mother-in-law arrives on the 20th. Wonderful. Just wonderful."
    found = answer_in("Who arrives on the 20th?", memory)
    assert found is not None and found.words(memory) == "my mother-in-law"


@pytest.mark.parametrize(("question", "memory"), [
    ("Was anyone hurt in the accident?", "Had a small accident on the highway yesterday. Nobody hurt, thank God."),
    ("Did anybody get hurt?", "Had a small accident on the highway yesterday. Nobody hurt, thank God."),
    ("Was anyone injured?", "No one was injured."),
])
def test_whether_anyone_did_it_is_denied_by_no_one_doing_it(question, memory):
    assert denied_outright(question, memory)


def test_no_one_doing_another_thing_denies_nothing():
    assert not denied_outright("Was anyone arrested?", "Nobody hurt, thank God.")


def test_whether_anyone_else_was_there_is_untold_when_no_one_else_is_told_of():
    # "Was anyone else in the car with Felix?" over "My grandson Felix passed his driving test" got "Yes —"
    # (own play as Ottilie)
    memory = "My grandson Felix passed his driving test this morning, first try!"
    assert someone_asked_of_is_untold("Was anyone else in the car with Felix?", memory)
    assert not someone_asked_of_is_untold("Was anyone else in the car with Felix?", "Felix drove his friend Tom to the coast")
    assert not someone_asked_of_is_untold("Was anything stolen?", "my camera got stolen")


@pytest.mark.parametrize(("question", "memory", "untold"), [
    # "Is my daughter 71?" over "I'm 71" got "Yes — earlier today you told me you're 71." (my play as Clement)
    ("Is my daughter 71?", "I'm 71", True),
    ("Is my husband a nurse?", "I work as a nurse at St Mary's.", True),
    ("Does Priya live in Leeds?", "I live in Leeds with my two cats.", True),
    ("Is my daughter a nurse?", "my daughter Mia works as a nurse", False),
    ("Is Mia a nurse?", "my daughter Mia works as a nurse in Leeds", False),
    ("Am I 71?", "I'm 71", False),
    ("Is my brother moving to Oslo?", "I'm moving to Oslo with my brother next month", False),
])
def test_someone_else_asked_of_is_untold_when_the_memory_tells_only_of_the_speaker(question, memory, untold):
    assert (said_of_someone_else(question, memory) == "I") is untold


def test_a_question_whether_of_someone_else_is_no_yes_from_what_the_speaker_told_of_themselves(maya):  # noqa: F811
    from tests.interaction.test_memory_requests import say

    dm = maya[0]
    say(dm, "I'm 71 and I live in Leeds.")
    for question in ("Is my daughter 71?", "Does my daughter live in Leeds?"):
        reply = say(dm, question).reply
        assert reply.startswith("No, that was you"), (question, reply)


def test_a_question_of_another_persons_age_is_not_answered_with_the_speakers(maya):  # noqa: F811
    """"How old is my mum?" got "You're 45." (tester65 s21/8)."""
    from tests.interaction.test_memory_requests import say

    dm = maya[0]
    say(dm, "I'm 45 and I work as a dental nurse.")
    for question in ("How old is my mum?", "What's my husband's job?"):
        reply = say(dm, question).reply
        assert "45" not in reply and "dental" not in reply.split("—")[0], (question, reply)
    assert "45" in say(dm, "How old am I?").reply
