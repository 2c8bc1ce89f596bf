"""Requests to remember and to forget, judged on whole turns in-process with the real memory services:
a request to keep said after what it keeps ("..., don't let me forget", "..., please remember that")
keeps it, a bare "Remember the X is Y" is a request, forget one finds what recall finds, offers nothing
that is not plausibly what was named, and takes with it what restates the same thing, naming all of it
before anything goes."""

from __future__ import annotations

import pytest

from common.messages import UserDetected
from tests.interaction.test_forget_vague_topic import holding, meet
from tests.interaction.test_memory_requests import affect_of, maya, say  # noqa: F401


def _told_then_back(dm, uid: str, *said: str) -> None:
    """Maya tells `said` and comes back for another conversation."""
    for text in said:
        say(dm, text)
    dm.close_session("test")
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))


@pytest.mark.parametrize(("said", "kept"), [
    ("oh and the padlock on my shed is 8802, dont let me forget", "8802"),
    ("never let me forget that the recycling goes out on Thursdays", "recycling goes out on Thursdays"),
    ("The plumber is coming on the 4th at noon, don't let me forget it.", "plumber is coming on the 4th"),
])
def test_dont_let_me_forget_keeps_what_it_names(maya, said, kept):  # noqa: F811
    dm, out, services, uid = maya
    asked = say(dm, said)
    assert asked.memory_intent == "remember", (said, asked.memory_intent, asked.reply)
    assert asked.reply.startswith("I'll remember that"), asked.reply
    assert any(kept in m.text for m in services.explicit.list(uid)), services.explicit.list(uid)


@pytest.mark.parametrize(("said", "kept"), [
    ("the spare key is under the green flowerpot, please remember that", "the spare key is under the green flowerpot"),
    ("My niece's recital is on the 12th of May at 6pm. Can you remember that?",
     "My niece's recital is on the 12th of May at 6pm"),
    ("our bin day moved to Wednesday, remember that for me", "our bin day moved to Wednesday"),
])
def test_a_request_after_what_it_keeps_keeps_it(maya, said, kept):  # noqa: F811
    dm, out, services, uid = maya
    asked = say(dm, said)
    assert asked.memory_intent == "remember", asked
    assert [m.text for m in services.explicit.list(uid)] == [kept]
    assert asked.memory_action.outcome == "kept" and asked.reply.startswith("I'll remember that"), asked.reply


def test_what_the_notes_say_of_a_request_that_keeps_nothing_agrees_with_what_happened(maya):  # noqa: F811
    dm, out, services, uid = maya
    asked = say(dm, "Please remember this!")
    assert asked.memory_action.outcome == "not_kept" and services.explicit.list(uid) == []
    reason = affect_of(out, asked).suppress_reason
    assert reason and "kept" not in reason, reason


@pytest.mark.parametrize("said", ["Remember the wifi password is silvertiger8",
                                  "Remember the alarm code is readingroom2"])
def test_a_bare_remember_the_x_is_y_is_a_request(maya, said):  # noqa: F811
    dm, out, services, uid = maya
    asked = say(dm, said)
    assert asked.memory_intent == "remember" and not asked.is_recall, asked
    assert [m.text for m in services.explicit.list(uid)] == [said.split(" ", 1)[1]]


def test_forget_one_finds_what_recall_finds(maya):  # noqa: F811
    dm, out, services, uid = maya
    _told_then_back(dm, uid, "My dad slipped on the ice last week and hurt his knee.",
                    "Please remember that his physio apointment is on the 3rd of Aprill.",
                    "I've started learning Portuguese on my phone.")
    assert "3rd" in say(dm, "when is dad's physio appointment?").reply
    asked = say(dm, "forget about my dad's physio appointment")
    assert asked.reply.startswith("Do you want me to forget") and "physio" in asked.reply, asked.reply
    assert "Portuguese" not in asked.reply
    assert say(dm, "yes please").intent == "forget_one_confirmed"
    assert holding(dm, b"physio") == []
    assert holding(dm, b"Portuguese")


def test_forget_one_offers_nothing_that_was_not_named(maya):  # noqa: F811
    """One thing told, and a forget request naming something else: the one memory is not what every
    request names."""
    dm, out, services, uid = maya
    dm.close_session("test")
    meet(dm, "Oskar")
    for said in ("Hi Nadine!", "Do you remember me?", "My car broke down on the motorway and I had to wait three hours."):
        say(dm, said)
    for request in ("Could you forget my eye test please?", "please forget my sister's wedding"):
        asked = say(dm, request)
        assert "motorway" not in asked.reply and not asked.reply.startswith("Do you want me to forget"), asked.reply
        assert say(dm, "yes").intent != "forget_one_confirmed"
    assert "motorway" in say(dm, "what happened with my car?").reply


def test_forgetting_a_topic_takes_what_restates_it_and_names_it_all_first(maya):  # noqa: F811
    dm, out, services, uid = maya
    _told_then_back(dm, uid, "Please remember that my eye test is on the 9th of June at 3pm.",
                    "I'm a bit anxious about the eye test on the 9th, my eyes have been blurry.",
                    "My brother is visiting from Gdansk next month.")
    asked = say(dm, "please forget about the eye test")
    assert asked.reply.startswith("Do you want me to forget"), asked.reply
    assert "3pm" in asked.reply and "blurry" in asked.reply, asked.reply  # both that hold it are named
    assert "Gdansk" not in asked.reply
    assert holding(dm, b"eye test")  # nothing goes before the yes
    assert say(dm, "yes, forget it").intent == "forget_one_confirmed"
    later = say(dm, "When is my eye test?")
    assert "4pm" not in later.reply and "3pm" not in later.reply, later.reply
    assert holding(dm, b"eye test") == []
    assert holding(dm, b"Gdansk")
