""""Actually they cancelled it. It's now next Monday at 9." got "I'm sorry to hear that", and "When is it
now?" gave the cancelled "today at 4:15": a value said to hold now by "be" ("is now", "instead") is a
new value, of the "it" a sentence before did something to (tester63 s53). Alone, "it's now 5 o'clock"
tells the time and changes nothing."""

from __future__ import annotations

import pytest

from interaction.offline.value_changes import tells_a_change, value_change
from tests.interaction import test_own_words
from tests.interaction.test_memory_requests import say
from tests.interaction.test_silence_ends_conversation import asked_the_next_day

stranger = test_own_words.stranger  # nobody in view: a chat without a camera


@pytest.mark.parametrize(("later", "now"), [
    ("my dentist appointment is now next Monday at 9", "my dentist appointment is next Monday at 9"),
    ("my appointment is now at 10", "my dentist appointment is tomorrow at 10"),
])
def test_a_value_said_to_hold_now_changes_the_one_kept(later, now):
    found = value_change(later, "my dentist appointment is tomorrow at 4:15")
    assert found is not None and found[0] == now


@pytest.mark.parametrize("said", ["it's now 5 o'clock", "its now raining"])
def test_it_said_to_be_now_with_nothing_done_to_it_changes_nothing(said):
    assert not tells_a_change(said)


def test_a_new_time_said_after_what_was_done_to_it_answers_after(stranger):
    asked_the_next_day(stranger, ["Hey Nadine, Chloe here.", "Remember that my dentist appointment is tomorrow at 4:15."],
                       "Chloe here.", "When is my dentist appointment?")
    assert "Monday at 9" in say(stranger, "Actually they cancelled it. It's now next Monday at 9.").reply
    assert say(stranger, "When is it now?").reply.startswith("Next Monday at 9")


def test_a_clause_before_the_value_said_to_hold_now_is_no_subject_of_it():
    # "Actually the hospital rang, the operation is now on the 22nd." took no change: the parser filed
    # "rang" as a second subject of "is" (own play as Ottilie)
    found = value_change("Actually the hospital rang, the operation is now on the 22nd.",
                         "my hip operation is scheduled for the 18th at 8 in the morning")
    assert found is not None and found[0] == "my hip operation is scheduled for the 22nd at 8 in the morning"
