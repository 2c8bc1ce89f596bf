"""A fact kept on request is said back as the fact: the words that opened the telling ("hmm,
honestly", "hold on", "so basically") are not part of it, and a value set after a colon is said with
"is" / "are"."""

from __future__ import annotations

from common.messages import UserInput
from interaction.offline.told_plainly import plainly
from tests.interaction.test_correction_kept import _odile


def test_opening_asides_are_not_said_back(tmp_path):
    dm, _, _ = _odile(tmp_path)
    kept = dm.process_input(UserInput(text="please remember hmm, honestly my violin teacher is called Ruairi")).reply
    assert "I'll remember that your violin teacher is called Ruairi" in kept, kept
    kept = dm.process_input(UserInput(text="please remember: look, basically my padlock number is 6203")).reply
    assert "I'll remember that your padlock number is 6203" in kept, kept
    listed = dm.process_input(UserInput(text="what do you know about me?")).reply
    assert "honestly" not in listed and "look" not in listed and "basically" not in listed, listed


def test_a_value_after_a_colon_is_said_with_is(tmp_path):
    dm, _, _ = _odile(tmp_path)
    kept = dm.process_input(UserInput(text="please remember my bike shed combination: 55-12-08")).reply
    assert "I'll remember that your bike shed combination is 55-12-08" in kept, kept
    kept = dm.process_input(UserInput(text="could you remember my nephews' birthdays: May 2 and June 30")).reply
    assert "your nephews' birthdays are May 2 and June 30" in kept, kept


def test_what_a_fact_says_stays():
    # a verb of thinking takes the clause as what is thought; a colon after a clause introduces a list
    assert plainly("guess my flat number is 12") == "guess my flat number is 12"
    assert plainly("I need three things: milk, eggs and bread") == "I need three things: milk, eggs and bread"
    assert plainly("now my flat number is 12") == "my flat number is 12"
