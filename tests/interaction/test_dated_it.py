"""A question whose only thing is "it" asks after what was last told with a date (dated_it.py)."""

from __future__ import annotations

from tests.interaction.test_returning_by_name import dm, say  # noqa: F401 - the fixture


def test_how_long_until_it_counts_to_the_thing_last_told_with_a_date(dm):  # noqa: F811
    say(dm, "Hello, I'm Ines Carvalho.")
    say(dm, "My cousin's christening is on the 2nd of January.")
    say(dm, "I've been baking all week.")  # told since, without a date: not what "it" is
    reply = say(dm, "how many weeks till it?").reply
    assert "christening" in reply and "week" in reply.lower(), reply


def test_it_with_nothing_dated_told_is_left_as_it_is(dm):  # noqa: F811
    say(dm, "Hello, I'm Ines Carvalho.")
    say(dm, "I've been baking all week.")
    reply = say(dm, "how many weeks till it?").reply
    assert "baking" not in reply, reply
