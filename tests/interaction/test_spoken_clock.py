"""Times of day said in words are written as the clock shows them when Nadine says them back; what is
no time after "at" stays as said. Sentences written for these tests."""

from __future__ import annotations

import pytest

from interaction.spoken_clock import clock_written


@pytest.mark.parametrize(("said", "written"), [
    ("the bin lorry comes at half seven", "the bin lorry comes at 7:30"),
    ("choir starts at a quarter to eight", "choir starts at 7:45"),
    ("the bus leaves at twenty past eleven", "the bus leaves at 11:20"),
    ("lunch is at five to one", "lunch is at 12:55"),
    ("the match kicks off at half past 2", "the match kicks off at 2:30"),
    # already a clock's, or no time of day at all
    ("the train is at 6:40", "the train is at 6:40"), ("we meet at six", "we meet at six"),
    ("the odds were ten to one", "the odds were ten to one"),
])
def test_a_time_said_in_words_is_written_as_a_clock_shows_it(said, written):
    assert clock_written(said) == written


def test_a_memory_said_back_with_its_time_written_is_still_found_to_forget():
    from interaction.memory.forgotten import Forgotten

    forgotten = Forgotten.of(["my piano lesson is at quarter to six"])
    assert forgotten.said_in("Yes, it's kept: your piano lesson is at 5:45.")
    assert not forgotten.said_in("Yes, it's kept: your piano lesson is at 6:45.")
