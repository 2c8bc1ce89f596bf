"""Who a question is about, by its parse: Nadine asked to remember or tell a clause is only the one
asked, so "do you remember what's going on with the garden?" is a question about the person's life
(answered from what they told), while "can you tell me how you recognise faces?" is about her (her
knowledge answers it)."""

from __future__ import annotations

from datetime import datetime

import pytest

from interaction.clock_question import asks_the_clock
from interaction.offline import question_form
from interaction.offline.replies import offline_reply
from interaction.offline.understand_rules import plan_for
from interaction.own_life import asks_about_own_life
from interaction.reply_inputs import ReplyInputs
from interaction.turn_understanding import Emotion
from tests.interaction.test_memory_requests import maya, say  # noqa: F401 - a fixture
from tests.interaction.test_own_words import later, stranger  # noqa: F401 - a fixture

KNOWLEDGE = "knowledge_rag_agent"


@pytest.mark.parametrize("text,about_her", [
    ("do you recall what's happening with the kitchen renovation?", False),
    ("do you know where the choir rehearsal is this week?", False),
    ("do you remember how the allotment committee vote went?", False),
    ("could you tell me how you recognise faces?", True),
    ("do you know who designed you?", True),
    ("can you tell me what ur battery does?", True),
    ("do you remember what we decided about the holiday?", False),
    ("do you recall when the quarterly review is?", False),  # an embedded question read as adverbial
])
def test_a_clause_nadine_is_asked_to_remember_or_tell_decides_who_the_question_is_about(text, about_her):
    assert question_form.addresses_nadine(text) is about_her
    assert (KNOWLEDGE in [s.agent for s in plan_for(text)]) is about_her


@pytest.mark.parametrize("text,about_her", [
    ("who repaired you last spring?", True),
    ("what do the children at the museum call you?", True),
    ("could I borrow you for a minute?", False),  # the speaker's request
])
def test_a_question_whose_verb_is_done_to_her_is_about_her(text, about_her):
    assert question_form.addresses_nadine(text) is about_her


@pytest.mark.parametrize("text,about_her", [
    # her still having a particular thing, not hers, asks whether she keeps what she was told: "Do you have
    # the vet's number still?" got "I'm afraid I don't know that about myself" (tester21 albert)
    ("Do you still have the plumber's number?", False), ("Have you still got the code for the shed?", False),
    ("Do you have your own bedroom?", True), ("Do you have a favourite song?", True),
])
def test_her_having_a_thing_told_is_no_question_about_her(text, about_her):
    assert question_form.addresses_nadine(text) is about_her
    assert question_form.asks_after_nobody(text) is about_her


@pytest.mark.parametrize("text,own", [
    ("do you recall what's happening with the kitchen renovation?", True),
    ("do you remember how the allotment committee vote went?", True),
    ("could you tell me how you recognise faces?", False),
    ("do you know who designed you?", False),
    ("do you recall when the quarterly review is?", True),
])
def test_such_a_clause_about_something_else_asks_memory_first(text, own):
    assert asks_about_own_life(text) is own


def test_asked_whether_she_remembers_their_news_she_says_what_they_told_not_how_her_memory_works(stranger):  # noqa: F811
    say(stranger, "Hello, I'm Gwendolyn.")
    say(stranger, "The kitchen renovation is a nightmare, the builders knocked out the wrong wall and I'm furious.")
    turn = say(stranger, "do you remember what's going on with the renovation?")
    assert "wrong wall" in turn.reply and "memory for every person" not in turn.reply, turn.reply
    assert turn.is_recall and turn.recall is not None and turn.recall.outcome == "asserted", turn.recall
    about_her = say(stranger, "how does your memory work?")
    assert "memory for every person" in about_her.reply and "wrong wall" not in about_her.reply, about_her.reply



def test_asked_whether_she_remembers_anything_about_someone_named_she_says_only_what_was_told(stranger):  # noqa: F811
    say(stranger, "Hello, I'm Gwendolyn.")
    say(stranger, "My godson Emeka passed his grade five trumpet exam with distinction!")
    turn = say(stranger, "Do you remember anything about Emeka?")
    assert "trumpet" in turn.reply and "memory for every person" not in turn.reply, turn.reply


@pytest.mark.parametrize("asked", ["What do you remember about Wilhelmina?", "what do you remember about wilhelmina"])
def test_what_she_remembers_about_someone_named_is_a_recall(stranger, asked):  # noqa: F811
    say(stranger, "Hello, I'm Gwendolyn.")
    say(stranger, "My neighbour Wilhelmina turned ninety on Saturday and we threw her a surprise tea party!")
    turn = say(stranger, asked)
    assert turn.is_recall and "surprise tea party" in turn.reply, turn.reply


@pytest.mark.parametrize("text,said", [
    ("could you tell me what time it is?", "16:05"),
    ("do you happen to know what the date is?", "Wednesday 4 March 2026"),
    # the date of a day the question names, in any tense
    ("what date is it tomorrow?", "Tomorrow is Thursday 5 March 2026"),
    ("so what day is it on Sunday?", "Sunday is 8 March 2026"),
    ("what day was it yesterday?", "Yesterday was Tuesday 3 March 2026"),
])
def test_asked_what_time_or_day_it_is_inside_a_question_her_own_clock_answers(text, said):
    reply = offline_reply(ReplyInputs(text=text, intent="continue_conversation", is_recall=False,
                                      now=datetime(2026, 3, 4, 16, 5), language="en-US", user_emotion=Emotion()))
    assert said in reply, reply


@pytest.mark.parametrize(("text", "clock"), [
    ("what's the date on Friday?", True), ("what day will it be tomorrow?", True), ("what time is it?", True),
    ("what's the date of my dental check-up?", False), ("what day is my sister's recital?", False),
    # a preposition before the question word asks when something happens
    ("And at what time is it?", False), ("On which date is it going to be held?", False),
])
def test_a_question_the_clock_answers_names_nothing_but_the_day(text, clock):
    assert asks_the_clock(text) is clock


@pytest.mark.parametrize("text", ["what time is it at?", "what time's it at again?", "what day is it on?"])
def test_a_preposition_left_after_the_question_asks_when_something_happens(text):
    """"what time is it at?" after "when's my dentist appointment?" got "It's 17:44" (tester44)."""
    assert not asks_the_clock(text)
    assert asks_the_clock("what time is it?")


@pytest.mark.parametrize(("text", "about_her"), [
    # "do you record what I say?" got "I don't remember you telling me about that" (tester44 D13): what
    # she does with what they say is about her; her memory of it, or telling it back, is not
    ("do you record what I say?", True), ("what do you do with what I tell you?", True),
    ("do you share what I tell you with anyone?", True),
    ("do you remember what I said?", False), ("can you tell me what I said yesterday?", False),
    ("did you see what I did?", False),
    # "what do you do with the stuff I tell you?", "do you record my voice?" got the same (tester59 s12,
    # s108): what they say as a thing described by their saying it, and a thing of theirs she is asked
    # whether she does it to; "can you call my mum?" asks her to do it, "do you have my number?" whether
    # she holds what they told
    ("what do you do with the stuff I tell you?", True), ("do you record my voice?", True),
    ("do you save photos of me?", True), ("can you call my mum?", False), ("do you have my number?", False),
])
def test_what_she_does_with_what_they_say_is_a_question_about_her(text, about_her):
    assert question_form.asks_what_she_does_with_it(text) is about_her
    assert question_form.addresses_nadine(text) is about_her


def test_a_question_of_what_she_keeps_is_answered_from_her_privacy_section(stranger):  # noqa: F811
    say(stranger, "Hello, I'm Gwendolyn.")
    turn = say(stranger, "do you record what I say?")
    assert not turn.is_recall and "stay on the computer I run on" in turn.reply, turn.reply


def test_the_date_of_a_day_named_is_no_recall_of_a_date_told(stranger):  # noqa: F811
    say(stranger, "Hello, I'm Gwendolyn.")
    say(stranger, "My dental check-up is on the 20th of March.")
    turn = say(stranger, "what's the date on Friday?")
    assert not turn.is_recall and "check-up" not in turn.reply, turn.reply
    assert turn.reply.startswith("Friday is "), turn.reply


@pytest.mark.parametrize("text", ["Do you have the time?", "Excuse me, have you got the time?"])
def test_having_the_time_asks_the_clock(text):
    """"Do you have the time?" got "That's a good question" once her having a particular thing asked
    whether she keeps what she was told: it asks what time it is."""
    assert asks_the_clock(text)
    reply = offline_reply(ReplyInputs(text=text, intent="continue_conversation", is_recall=False,
                                      now=datetime(2026, 3, 4, 16, 5), language="en-US", user_emotion=Emotion()))
    assert "16:05" in reply, reply


@pytest.mark.parametrize("asked", ["can you delete it all if I ask?", "Could you wipe everything if I asked you to?"])
def test_what_she_would_do_if_asked_is_a_question_about_her_not_a_request(stranger, asked):  # noqa: F811
    """"can you delete it all if I ask?" was taken for "forget everything about me": Nadine asked "Do you
    want me to forget everything ...?", and the news told next went unheard as an unclear answer
    (tester46 s13). What she would do on the speaker's asking is answered from her privacy section,
    by its sentence on forgetting; nothing waits for a yes."""
    say(stranger, "Hello, I'm Olusegun.")
    turn = say(stranger, asked)
    assert turn.memory_intent not in ("forget_me", "forget_one") and "yes or no" not in turn.reply, turn.reply
    assert "forget" in turn.reply and "clear yes" in turn.reply, turn.reply
    assert "I'll remember that you're a bus driver" in say(stranger, "I'm a bus driver in Peckham.").reply


def test_a_request_on_a_condition_of_the_moment_still_asks(stranger):  # noqa: F811
    say(stranger, "Hello, I'm Olusegun.")
    say(stranger, "I'm a bus driver in Peckham.")
    assert "yes or no" in say(stranger, "forget everything about me if that's ok").reply


def test_what_another_told_her_is_answered_with_that_she_does_not_pass_it_on(stranger):  # noqa: F811
    """"what did the last person tell you?" lost "I do not tell one person what another told me" when the
    spoken knowledge took the sentence closest to the question in its place (replay47 s127b): the
    chunk's first sentences are said, and the closest other one after them."""
    say(stranger, "Hello, I'm Olusegun.")
    assert "I do not tell one person what another told me" in say(stranger, "what did the last person tell you?").reply


def test_asked_what_happened_on_a_day_she_says_what_was_told_then(maya):  # noqa: F811
    # "do you remember what happened yesterday?" the day after the cat died got "I'm not sure — do you
    # mean ...?" (tester60 s05): a question that names only a time asks what was told then
    dm, _, _, uid = maya
    say(dm, "Our budgie Kiwi flew out of the window this morning, we never found him.")
    dm.clock.advance(24)
    later(dm, uid)
    reply = say(dm, "do you remember what happened yesterday?").reply
    assert reply.startswith("Yesterday you told me") and "Kiwi" in reply, reply
