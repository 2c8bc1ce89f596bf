"""Whole turns: a request to remember something to do is kept as a to-do, said back at once and on
recall as one, with Nadine honest that she cannot remind by herself; what is no such request stays
what it was."""

from __future__ import annotations

import pytest

from common.messages import UserDetected
from tests.interaction.test_memory_requests import maya, say  # noqa: F401 - the fixture

__all__ = ["maya"]


def _next_conversation(dm, uid):
    dm.close_session("test")
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))


@pytest.mark.parametrize(("request_", "reply", "stored", "question", "recalled"), [
    # the person's to-do
    ("could you remind me to renew the car insurance on Thursday?",
     "I'll remember that you want to renew the car insurance on Thursday. I can't remind you by myself, though "
     "— just ask me any time.", "remind me to renew the car insurance on Thursday",
     "what did I ask you to remind me about?", "you asked me to remind you to renew the car insurance on Thursday"),
    # Nadine's own, said back as hers
    ("please remember to ask me about my piano exam next week",
     "I'll remember that you want me to ask you about your piano exam next week. I can't bring it up by myself, "
     "though — just ask me any time.", "remember to ask me about my piano exam next week",
     "what did I want you to remember?", "you asked me to remember to ask you about your piano exam"),
])
def test_a_to_do_is_kept_in_the_persons_words_and_found_by_a_later_question(  # noqa: F811
        maya, request_, reply, stored, question, recalled):
    dm, _, services, uid = maya
    asked = say(dm, request_)
    assert asked.memory_intent == "remember" and not asked.is_recall
    assert asked.reply == reply
    assert [m.text for m in services.explicit.list(uid)] == [stored]
    _next_conversation(dm, uid)
    later = say(dm, question)
    assert later.is_recall, later
    assert recalled in later.reply and "remember that" not in later.reply, later.reply


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
