"""Whole turns: a request to remember something to do is kept as a to-do, said back at once and on
recall as one, with Nadine honest that she cannot remind by herself; what is no such request stays
what it was."""

from __future__ import annotations

from common.messages import UserDetected
from tests.interaction.test_memory_requests import maya, say  # noqa: F401 - the fixture

__all__ = ["maya"]


def _next_conversation(dm, uid):
    dm.close_session("test")
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))


def test_remind_me_to_is_kept_in_the_persons_words_and_found_by_a_later_question(maya):  # noqa: F811
    dm, _, services, uid = maya
    asked = say(dm, "could you remind me to renew the car insurance on Thursday?")
    assert asked.memory_intent == "remember" and not asked.is_recall
    assert asked.reply == ("I'll remember that you want to renew the car insurance on Thursday. "
                           "I can't remind you by myself, though — just ask me any time.")
    assert [m.text for m in services.explicit.list(uid)] == ["remind me to renew the car insurance on Thursday"]
    _next_conversation(dm, uid)
    later = say(dm, "what did I ask you to remind me about?")
    assert later.is_recall, later
    assert "you asked me to remind you to renew the car insurance on Thursday" in later.reply, later.reply
    assert "remember that" not in later.reply, later.reply


def test_remember_to_ask_me_is_nadines_to_do_said_back_as_hers(maya):  # noqa: F811
    dm, _, services, uid = maya
    asked = say(dm, "please remember to ask me about my piano exam next week")
    assert asked.memory_intent == "remember"
    assert asked.reply == ("I'll remember that you want me to ask you about your piano exam next week. "
                           "I can't bring it up by myself, though — just ask me any time.")
    assert [m.text for m in services.explicit.list(uid)] == ["remember to ask me about my piano exam next week"]
    _next_conversation(dm, uid)
    later = say(dm, "what did I want you to remember?")
    assert later.is_recall, later
    assert "you asked me to remember to ask you about your piano exam" in later.reply, later.reply


def test_dont_let_me_forget_is_a_to_do_of_the_persons(maya):  # noqa: F811
    dm, _, services, uid = maya
    asked = say(dm, "Nadine, don't let me forget to water Grandma's roses on Saturday.")
    assert asked.memory_intent == "remember"
    assert asked.reply.startswith("I'll remember that you want to water Grandma's roses on Saturday.")
    about = say(dm, "what do you know about me?")
    assert "you want to water Grandma's roses on Saturday" in about.reply, about.reply


def test_what_only_sounds_like_a_reminder_is_not_kept(maya):  # noqa: F811
    dm, _, services, uid = maya
    for said in ("my watch reminds me to drink water every hour", "that reminds me of my first flat in Leeds"):
        turn = say(dm, said)
        assert turn.memory_intent != "remember" and not turn.is_recall, (said, turn)
    assert services.explicit.list(uid) == []
