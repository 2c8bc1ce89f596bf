"""A request to forget everything but something ("forget everything except the gate code") is neither a
request to forget everything nor one to forget the thing it keeps out: one request forgets all of a
person or one thing, so Nadine says so, asks nothing and forgets nothing; a yes after it erases
nothing, and the thing kept out is still known. Before, the gate code, the one thing to keep, was
offered for forgetting (tester46 s66), and "forget everything about me except my name" was asked as a
forget-me."""

from __future__ import annotations

import pytest

from interaction.forget import excepted
from tests.interaction.test_memory_requests import maya, say  # noqa: F401 - a fixture


@pytest.mark.parametrize(("request_", "kept"), [
    ("forget everything except the gate code", "the gate code"),
    ("forget everything but my gate code", "your gate code"),
    ("wipe everything apart from my birthday", "your birthday"),
    ("forget everything about me other than my name and my job", "your name and your job"),
    ("forget about me", None),
    ("forget my job but not the town", None),  # "but" after no "everything": two things named
])
def test_what_a_forget_request_keeps_out_is_read_from_its_preposition(request_, kept):
    assert excepted(request_) == kept


@pytest.mark.parametrize("request_", ["forget everything except the gate code",
                                      "forget everything about me except my name"])
def test_a_request_to_forget_all_but_one_thing_forgets_nothing_and_asks_nothing(maya, request_):  # noqa: F811
    dm, _, services, uid = maya
    say(dm, "Please remember my gate code is 1985.")
    say(dm, "My daughter Isla is getting her braces off on Friday.")
    asked = say(dm, request_)
    assert "can't forget everything but" in asked.reply and "yes or no" not in asked.reply, asked.reply
    assert asked.intent != "forget_request"
    assert "forget" not in say(dm, "yes").reply.lower()
    assert [m.text for m in services.explicit.list(uid)] == ["my gate code is 1985"]
    assert "1985" in say(dm, "What's my gate code?").reply
