"""A value corrected in the next breath ("sorry, I meant Gdynia", "no, it's the 13th of April, not the
3rd", "actually it's 241, not 214") is read as the earlier statement with the value replaced, never
as a name or a new statement; a date or number said after "it's" is no name."""

from __future__ import annotations

import pytest

from interaction.offline.extract import extract_name


@pytest.mark.parametrize("text", [
    "No, it's March 13, not March 3.", "it's June 2nd actually", "Oh sorry, it is May 30.",
    "No no, it's August the 1st.",
])
def test_a_date_after_its_is_no_name(text):
    assert extract_name(text) is None


@pytest.mark.parametrize(("text", "name"), [("Hi, it's Grace.", "Grace"), ("It's Katarzyna actually, not Kasia.", "Katarzyna"),
                                            ("Hello, it's Oona.", "Oona")])
def test_a_name_after_its_is_still_a_name(text, name):
    assert extract_name(text) == name
