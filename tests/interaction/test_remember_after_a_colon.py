""""I'm Nadia, and I need you to remember something: my pin for the parking garage is 2244." kept "I'm
Nadia, and I need you to remember something" and lost the PIN (tester61 s46): what a colon opens is
said apart from what announces it, and a request that ends by announcing something keeps what follows."""

from __future__ import annotations

import pytest

from interaction.memory_intent.phrasing import request_content
from tests.interaction import test_memory_requests
from tests.interaction.test_said_before import told_then_asked

maya = test_memory_requests.maya  # Maya, known by face, with real memory services


@pytest.mark.parametrize(("text", "kept"), [
    ("Hi, I'm Colm, and I need you to remember something: my locker at the pool is number 318.",
     "my locker at the pool is number 318"),
    ("I'm Colm and I need you to remember something: the spare key is under the blue pot.",
     "the spare key is under the blue pot"),
    ("keep this for me: the boiler engineer's number is 0161 496 0000", "the boiler engineer's number is 0161 496 0000"),
    # an announcement before the colon is no content of its own, nor what is said beside it ("I'm
    # Henrik and this is important: remember that ..." kept "... twice a day. I'm Henrik and this is
    # important", said back "you're Henrik and this is important.": my replay of tester61 s78)
    ("I'm Orla and this is urgent: remember that my daughter's inhaler is the blue one.",
     "my daughter's inhaler is the blue one"),
    # a clock's colon is no break
    ("please remember that my ferry leaves at 6:45", "my ferry leaves at 6:45"),
])
def test_what_a_colon_opens_is_kept(text, kept):
    assert request_content(text) == kept


def test_the_pin_told_after_the_colon_is_recalled(maya):
    dm, _, _, uid = maya
    reply = told_then_asked(dm, uid, ["Maya here, and I need you to remember something: my bike lock code is 7730."],
                            "What's my bike lock code?")
    assert "7730" in reply, reply


@pytest.mark.parametrize(("text", "kept"), [
    # "Hi, I'm Keiko. Remember that my client meeting is on Monday at 10 in Shibuya." kept "... Hi, I'm
    # Keiko" and said back "... Hi, you're Keiko." (my replay of tester61 s75)
    ("Morning! I'm Bruno. Please remember that my allotment plot is number 17.", "my allotment plot is number 17"),
    ("I run the bakery on Mill Lane. Remember that the flour delivery comes on Tuesdays.",
     "the flour delivery comes on Tuesdays"),
    # ... but the statement a pronoun of the request points back to goes with it
    ("My niece is called Bea. Please remember that her recital is on the 9th.", "her recital is on the 9th. My niece is called Bea"),
])
def test_what_is_said_before_a_request_that_names_its_content_is_not_kept_with_it(text, kept):
    assert request_content(text).casefold() == kept.casefold()
