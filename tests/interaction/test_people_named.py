"""The speaker's people called both ways in a question ("my sister" / "Lena") when their texts name
exactly one, read with the real parser."""

from __future__ import annotations

import pytest

from interaction.memory.people_named import with_names
from interaction.offline.self_description import load_parser


@pytest.fixture(scope="module")
def nlp():
    return load_parser()


TOLD = ["I have news: my sister Lena is pregnant!", "Viktor, my husband, drives trams.",
        "Our dog is called Pip.", "My best friend Tom Baker moved to Leeds."]


@pytest.mark.parametrize(("asked", "expected"), [
    ("Where does my sister live?", "Where does my sister Lena live?"),
    ("What does my husband do?", "What does my husband Viktor do?"),
    ("How old is Pip?", "How old is my dog Pip?"),
    ("When did Tom Baker move?", "When did my friend Tom Baker move?"),
    ("Is my sister's baby due soon?", "Is my sister Lena's baby due soon?"),
    # said with its relation already, or nobody of that kind named, or not the speaker's own
    ("Where does my sister Lena live?", "Where does my sister Lena live?"),
    ("What does my brother do?", "What does my brother do?"),
    ("Where does your sister live?", "Where does your sister live?"),
    ("What's the capital of Peru?", "What's the capital of Peru?"),
])
def test_a_question_calls_the_persons_people_both_ways(nlp, asked, expected):
    assert with_names(asked, TOLD, nlp) == expected


def test_two_named_the_same_way_or_someone_elses_people_are_left_alone(nlp):
    told = ["My cousin Ada moved to Lyon.", "My cousin Bruno keeps bees.", "His sister Mia is a nurse."]
    assert with_names("Where does my cousin live?", told, nlp) == "Where does my cousin live?"
    assert with_names("What does my sister do?", told, nlp) == "What does my sister do?"
    assert with_names("What does Mia do?", told, nlp) == "What does Mia do?"
