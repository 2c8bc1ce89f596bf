""""Do you want me to forget ...?" answered "yes please forget" was asked again, and the worry stayed on
disk: the reader held the yes back as if the verb after it narrowed it. A yes followed by bidding it done,
to nothing but a pronoun, holds nothing back (tester63 s57)."""

from __future__ import annotations

import pytest

from interaction.confirmation.reader import read_offline


@pytest.mark.parametrize("said", ["yes please forget", "yes please forget it", "yes, delete"])
def test_a_yes_then_bidding_it_done_is_yes(said):
    assert read_offline(said) == "yes"


@pytest.mark.parametrize("said", ["yes please don't", "yes but forget only the first", "yes but keep my mums birthday"])
def test_a_yes_with_a_part_held_back_is_still_no_yes(said):
    assert read_offline(said) == "unclear"
