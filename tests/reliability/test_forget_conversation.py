"""The spoken forget flow's decisions (interaction/forget.py): ask first, forget only on a clear yes,
ask once more when the answer is unclear."""

from __future__ import annotations

import pytest

from interaction.forget import ForgetConversation

MAYA = "260101_0001"


@pytest.mark.parametrize("request_text", [
    "Please forget me.", "Can you delete my data?", "forget everything you know about me",
    "I want you to erase all of my memories", "Nadine, remove my profile please",
])
def test_request_then_yes_forgets_the_person_asked(request_text):
    flow = ForgetConversation()
    ask = flow.turn(request_text, MAYA, "Maya")
    assert ask is not None and ask.intent == "forget_request" and ask.forget_user_id is None
    assert "yes or no" in ask.reply
    done = flow.turn("Yes, please.", MAYA, "Maya")
    assert done is not None and done.forget_user_id == MAYA and done.intent == "forget_confirmed"


@pytest.mark.parametrize("answer", ["No, keep them.", "Absolutely not!", "Of course not.", "I'd rather you didn't."])
def test_a_no_keeps_everything(answer):
    flow = ForgetConversation()
    flow.turn("forget me", MAYA, "Maya")
    outcome = flow.turn(answer, MAYA, "Maya")
    assert outcome is not None and outcome.intent == "forget_cancelled" and outcome.forget_user_id is None
    assert flow.turn("yes", MAYA, "Maya") is None  # the question is gone


def test_an_unclear_answer_is_asked_once_more_then_everything_is_kept():
    flow = ForgetConversation()
    flow.turn("forget me", MAYA, "Maya")
    again = flow.turn("Well, I'm not really sure.", MAYA, "Maya")
    assert again is not None and again.intent == "forget_request" and again.forget_user_id is None
    assert "yes or no" in again.reply
    kept = flow.turn("Hmm, maybe.", MAYA, "Maya")
    assert kept is not None and kept.intent == "forget_cancelled" and kept.forget_user_id is None
    assert flow.turn("yes", MAYA, "Maya") is None


def test_a_question_of_their_own_instead_of_an_answer_keeps_everything_and_asks_nothing_more():
    flow = ForgetConversation()
    flow.turn("forget me", MAYA, "Maya")
    assert flow.turn("What's the weather like in Leeds?", MAYA, "Maya") is None  # answered as any turn
    assert flow.turn("yes", MAYA, "Maya") is None


def test_asked_again_a_clear_yes_forgets():
    flow = ForgetConversation()
    flow.turn("delete my data", MAYA, "Maya")
    flow.turn("Hmm, maybe.", MAYA, "Maya")
    done = flow.turn("Yes, go ahead.", MAYA, "Maya")
    assert done is not None and done.forget_user_id == MAYA


def test_a_yes_from_someone_else_forgets_nobody():
    flow = ForgetConversation()
    flow.turn("delete my data", MAYA, "Maya")
    assert flow.turn("yes", "260101_0002", "Bob") is None


def test_a_stranger_has_nothing_to_forget_and_ordinary_talk_is_not_touched():
    flow = ForgetConversation()
    stranger = flow.turn("forget me", None, None)
    assert stranger is not None and stranger.forget_user_id is None
    assert flow.turn("yes", None, None) is None
    assert flow.turn("Don't forget my birthday!", MAYA, "Maya") is None
    assert flow.turn("I forgot my keys", MAYA, "Maya") is None
