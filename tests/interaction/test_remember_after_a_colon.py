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
