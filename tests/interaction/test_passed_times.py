"""A time asked for that has passed since it was told is said as passed: "when is my optician
appointment?" the day after it took place is answered with the day and that it is over, never as if it
were still to come. Whole turns with real memory services on a clock moved through its file."""

from __future__ import annotations

import pytest

from tests.interaction import test_memory_requests
from tests.interaction.test_memory_requests import say
from tests.interaction.test_own_words import later

maya = test_memory_requests.maya  # Maya, known by face, with real memory services; Wednesday 4 November


def days_pass(dm, days: float) -> None:
    # through the clock itself: a file written behind its back is read only after its re-read interval
    dm.clock.advance(days * 24)


@pytest.mark.parametrize(("told", "asked", "after_days", "said"), [
    ("Please remember that my optician appointment is on Monday at ten.", "When is my optician appointment?",
     6, "It was on Monday the 9th at ten, yesterday"),
    ("Don't let me forget the plumber is coming on the 6th.", "when's the plumber coming?", 4, "It was on the 6th, two days ago"),
    # still to come: said as it was told, nothing of its having passed
    ("Please remember that my optician appointment is on Monday at ten.", "When is my optician appointment?",
     2, None),
])
def test_a_time_asked_that_has_passed_is_said_as_passed(maya, told, asked, after_days, said):
    dm, _, _, uid = maya
    say(dm, told)
    days_pass(dm, after_days)
    later(dm, uid)
    turn = say(dm, asked)
    if said is None:
        assert " was " not in turn.reply.split(" — ")[0], turn.reply
    else:
        assert said in turn.reply.split(" — ")[0], turn.reply
