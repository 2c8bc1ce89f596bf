""""so my name is actually Siobhan but everyone calls me Shiv" made her "Actually" for the whole
conversation: an adverb the tagger reads between "my name is" and the name is no part of it."""

from __future__ import annotations

import pytest

from interaction.offline.extract import extract_name


@pytest.mark.parametrize(("text", "name"), [
    ("so my name is actually Siobhan but everyone calls me Shiv", "Siobhan"),
    ("my name is honestly just Bob", "Bob"),
    ("well, my name's really Teodora Vasquez", "Teodora Vasquez"),
    # a name the tagger reads as a name stays whole
    ("My name is Early Smith", "Early Smith"),
])
def test_the_name_said_after_an_adverb(text, name):
    assert extract_name(text) == name


@pytest.mark.parametrize("said", [
    # "my exam results come out tomorrow at 9am, im lowkey terrified" got "Nice to meet you, Lowkey!",
    # and Dev's worry went to a new person of that name (tester62 s57)
    "the interview is at ten tomorrow, im lowkey terrified",
    "im lowkey obsessed with this song",
])
def test_a_word_before_how_the_speaker_feels_is_no_name(said):
    assert extract_name(said, loose=True) is None
