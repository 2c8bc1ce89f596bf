""""heyyy nadine im Bella im 13" and "hey there, names Dani" were asked "What's your name?", and what
they told next was kept for nobody: a casual name slot closes where the speaker goes on about
themselves with no comma ("im 13", "and i just moved here"), and "names" is "name's" typed without its
apostrophe. "im oscar" got "you're an oscar": a word WordNet knows only as a thing is no state of the
speaker, whatever the tagger guessed."""

from __future__ import annotations

import pytest

from interaction.offline.extract import extract_name, extract_profile


@pytest.mark.parametrize(("said", "name"), [
    ("heyyy nadine im Bella im 13", "Bella"),
    ("hi im bella and im 13", "Bella"),
    ("sup im kofi and i just moved here", "Kofi"),
    ("hey there, names Dani", "Dani"),
])
def test_a_name_before_the_speaker_goes_on_is_read(said, name):
    assert extract_name(said, loose=True) == name


@pytest.mark.parametrize("said", [
    "im tired and im hungry", "im home and im exhausted", "hi its me and i missed you", "names are hard to remember",
])
def test_what_the_speaker_is_before_more_of_them_is_no_name(said):
    assert extract_name(said, loose=True) is None


def test_a_word_known_only_as_a_thing_is_no_state_of_the_speaker():
    assert extract_profile("im oscar and im turning 7").current_position is None
    assert extract_profile("I'm retired").current_position == "retired"


@pytest.mark.parametrize(("said", "name"), [
    ("heyy so im Fatima and i just wanna say today was soooo long", "Fatima"),
    ("well, it's Tom", "Tom"), ("anyway its Rosa", "Rosa"),
    ("so im tired", None), ("my friend said im crazy", None), ("honestly im done", None),
])
def test_a_name_after_words_of_the_telling_is_read(said, name):
    """"heyy so im Fatima and i just wanna say ..." was asked "What's your name?" and all she told was
    kept for nobody (tester64 s23): words that only open the telling ("so", "well,", "anyway") stand
    before the slot."""
    assert extract_name(said, loose=True) == name
