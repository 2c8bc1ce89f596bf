"""A fact kept on request is said back as the fact: the words that opened the telling ("hmm,
honestly", "look, basically") are not part of it, and a value set after a colon is said with
"is" / "are"."""

from __future__ import annotations

from common.messages import UserInput
from interaction.offline.told_plainly import plainly
from tests.interaction.test_correction_kept import _odile

KEPT = [
    ("please remember hmm, honestly my violin teacher is called Ruairi", "your violin teacher is called Ruairi"),
    ("please remember: look, basically my padlock number is 6203", "your padlock number is 6203"),
    ("please remember my bike shed combination: 55-12-08", "your bike shed combination is 55-12-08"),
    ("could you remember my nephews' birthdays: May 2 and June 30", "your nephews' birthdays are May 2 and June 30"),
]


def test_a_kept_fact_is_said_back_plainly(tmp_path):
    dm, _, _ = _odile(tmp_path)
    for asked, said in KEPT:
        kept = dm.process_input(UserInput(text=asked)).reply
        assert f"I'll remember that {said}" in kept, kept
    listed = dm.process_input(UserInput(text="what do you know about me?")).reply
    assert all(w not in listed for w in ("honestly", "look", "basically", ":")), listed


def test_what_a_fact_says_stays():
    # a verb of thinking takes the clause as what is thought; a colon after a clause introduces a list
    assert plainly("guess my flat number is 12") == "guess my flat number is 12"
    assert plainly("I need three things: milk, eggs and bread") == "I need three things: milk, eggs and bread"
    assert plainly("now my flat number is 12") == "my flat number is 12"


def test_a_clock_time_keeps_its_colon():
    """"leaves at 7:40" was kept and said back as "leaves at 7 is 40": a colon between digits tells the
    time, never a value set after a name."""
    assert plainly("the coach to Inverness goes at 6:15") == "the coach to Inverness goes at 6:15"
    assert plainly("my bin day: Tuesday, from 7:30") == "my bin day is Tuesday, from 7:30"
