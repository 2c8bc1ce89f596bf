""""What do you know about me?" says what was told as it holds now: a plain statement a later turn gave a
new value is not said back beside it ("My dentist is on Tuesday at half past two", then "the dentist
moved to Thursday", asked on that Tuesday: "... you told me your dentist is today at half past two":
tester27 hannah)."""

from __future__ import annotations

from tests.interaction import test_memory_requests
from tests.interaction.test_memory_requests import say
from tests.interaction.test_own_words import later

maya = test_memory_requests.maya  # Maya, known by face, with real memory services


def test_a_statement_given_a_new_value_later_is_not_said_back(maya):
    dm, _, _, uid = maya
    say(dm, "My optician appointment is on Monday at ten.")
    say(dm, "I'm learning to play the banjo.")
    later(dm, uid)
    say(dm, "Actually the optician appointment moved to Wednesday.")
    later(dm, uid)
    dm.clock.advance(24 * 2)
    known = say(dm, "What do you know about me?").reply
    assert "Wednesday" in known and "banjo" in known, known
    assert "Monday" not in known and "today" not in known, known
