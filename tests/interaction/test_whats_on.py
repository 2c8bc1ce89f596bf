"""Whole turns with real memory services: a question after a day, today or to come, that names nothing
else ("what have I got on today?", "anything on Saturday?") is answered with what the person told takes
place on it, read off the words of what they told (a "tomorrow" told yesterday is today), in the order
it takes place; a day said back on the day it falls is "today" or "this evening". The sentences are
new: in none of the benchmark scripts or labelled sets."""

from __future__ import annotations

from datetime import datetime

import pytest

from interaction.memory.retrieval.windows import to_come
from interaction.offline.parsing import load_parser, told_as_past
from tests.interaction import test_memory_requests
from tests.interaction.test_memory_requests import say
from tests.interaction.test_own_words import later

maya = test_memory_requests.maya  # Maya, known by face, with real memory services, on Wednesday 4 November


@pytest.fixture
def planned(maya):
    """Three plans told on the Wednesday afternoon; the next morning, 08:00 on Thursday 5 November."""
    dm, _, _, uid = maya
    for told in ("My dentist check-up is tomorrow at 9.",
                 "We're having the Hendersons over for dinner on Thursday evening.",
                 "The boiler man comes on Saturday at 11."):
        say(dm, told)
    later(dm, uid)
    dm.clock.advance(17)
    return dm


def test_what_is_on_today_is_what_was_told_takes_place_today_in_its_order(planned):
    turn = say(planned, "What have I got on today?")
    assert turn.is_recall and turn.recall.decided_by == "planned"
    assert "dentist check-up is today at 9" in turn.reply
    assert "Hendersons over for dinner this evening" in turn.reply
    assert turn.reply.index("dentist") < turn.reply.index("Hendersons")
    assert "boiler" not in turn.reply and "on Thursday" not in turn.reply


@pytest.mark.parametrize(("question", "first"), [
    ("Anything on Saturday?", ""),
    ("Is there anything I need to do on Saturday?", "Yes — "),
])
def test_a_day_to_come_asked_after_alone(planned, question, first):
    turn = say(planned, question)
    assert turn.reply.startswith(first) and "boiler man comes on Saturday the 7th at 11" in turn.reply
    assert "dentist" not in turn.reply and "Hendersons" not in turn.reply


@pytest.mark.parametrize("news", [
    "The boiler man can't come after all, they've cancelled it.",
    "The boiler man is moved, he comes on Monday instead.",
])
def test_a_plan_later_news_changes_is_not_listed_on_its_old_day(planned, news):
    """After "the study group is moved, we meet Thursday at 6pm instead", "what's on Tuesday for me?"
    still listed the Tuesday meeting (tester23 mei). News that changes or calls a plan off, told in
    this conversation, takes it off the day it named."""
    say(planned, news)
    assert "boiler man comes on Saturday" not in say(planned, "Anything on Saturday?").reply


def test_a_days_plan_changed_since_is_answered_with_the_news_that_changed_it(planned):
    """Asked after the day, the news that moved its plan is what there is to say of it (tester23 mei:
    the moved study group was listed on its old day); the other plans of that day stay."""
    say(planned, "Oh, I forgot: the chimney sweep comes on Saturday at 9.")
    say(planned, "The boiler man is moved, he comes on Monday instead.")
    reply = say(planned, "Anything on Saturday?").reply
    assert "chimney sweep" in reply and "moved, he comes on Monday" in reply, reply
    assert "boiler man comes on Saturday" not in reply, reply


@pytest.mark.parametrize(("told", "when"), [
    ("My book club meets on Tuesday at 7.", "That's in five days"),  # told on Thursday 5 November
    ("The piano tuner comes tomorrow afternoon.", "That's tomorrow"),
])
def test_a_plan_told_calmly_is_met_with_when_it_falls(planned, told, when):
    """"my study group meets on Tuesday at 7pm" got "I see, Mei. Tell me more!" (tester23: 20 plans met
    so): the day as Nadine read it is said back, so a misread day shows."""
    reply = say(planned, told).reply
    assert reply.startswith(when) and "keep it in mind" in reply, reply


def test_a_question_of_the_past_or_of_telling_lists_no_plans(planned):
    assert "boiler" not in say(planned, "What did I do yesterday?").reply


@pytest.mark.parametrize(("question", "day"), [
    ("what have I got on today?", 5),
    ("Anything on Saturday?", 7),
    ("What are my plans for tomorrow?", 6),
    ("What did I tell you on Saturday?", None),  # when it was told
    ("What did I do yesterday?", None),  # what happened
    ("Do you remember what I said today?", None),
])
def test_the_window_of_what_takes_place(question, day):
    window = to_come(question, datetime(2026, 11, 5, 8, 0))
    assert (window.start.day if window else None) == day


def test_have_got_with_its_object_asked_is_have_now():
    got = next(t for t in load_parser()("What have I got on today?") if t.lower_ == "got")
    assert not told_as_past(got)


def test_when_a_moved_plan_takes_place_is_its_new_day_said_without_the_news_opening(maya):
    """"When does my book club meet?" after it moved was asked about ("do you mean ... change of plan:
    the book club meets on Friday now?"): the parser made "club" an apposition of "book", so the
    question named a "book" the memory only named in passing (my play). The new day is said, and
    "Oh, change of plan:" is how the news opened, not what was told."""
    dm, *_ = maya
    say(dm, "My choir rehearses on Monday evening in the church hall.")
    say(dm, "Oh, change of plan: the choir rehearses on Wednesday now.")
    say(dm, "My book club meets on Tuesday evening at the library.")
    say(dm, "Oh, change of plan: the book club meets on Friday now.")
    reply = say(dm, "When does my book club meet?").reply
    assert "Friday" in reply and "not sure" not in reply and "change of plan" not in reply, reply


@pytest.mark.parametrize("told", [
    # how today is, no plan (tester25: each got "That's today, Sol — I'll keep it in mind.")
    "it's raining today",  # the tester's
    # a phone number's last group is no time of the day
    "my new mobile number is 079 412 1145",
])
def test_what_names_today_and_no_hour_to_come_is_no_plan(planned, told):
    assert "keep it in mind" not in say(planned, told).reply


def test_a_plan_later_today_is_met_with_when_it_falls(planned):
    reply = say(planned, "The electrician comes today at 5pm.").reply
    assert "keep it in mind" in reply, reply


@pytest.mark.parametrize("question", ["Is the boiler man still coming on Saturday?", "Do I still have something on Saturday?"])
def test_whether_a_day_still_holds_a_plan_called_off_is_not_answered_yes(planned, question):
    """"am I still flying on the 18th?" got "Yes — ... the Chennai trip is off" (tester25 priya)."""
    say(planned, "Bad news, the boiler firm rang, so the Saturday repair is off.")
    reply = say(planned, question).reply
    assert not reply.startswith("Yes") and "repair is off" in reply, reply


def test_news_of_someone_a_plan_is_made_with_leaves_the_plan_on_its_day(planned):
    """"my brother Luis just got out of hospital" took the place of "... lunch with my brother Luis at 1"
    on Friday (tester25 mateo): news of a person moves no plan made with them."""
    say(planned, "On Sunday I have brunch with my sister Ilse at 11.")
    say(planned, "My sister Ilse just came home from hospital, she had her knee done.")
    reply = say(planned, "Anything on Sunday?").reply
    assert "brunch" in reply and "knee" not in reply, reply


def test_moving_one_of_two_plans_told_together_moves_not_the_other():
    """"lunch with Luis is moved to Saturday" got "So on Saturday you have a dentist appointment at 9
    and then lunch ..." (tester25 mateo, H): the day both were told on is not the lunch's alone."""
    from interaction.offline.value_changes import changed_value

    told = "on Thursday I have a haircut at 9 and then lunch with my friend Ade at 1"
    assert changed_value("lunch with Ade is moved to Friday", told) is None
    assert changed_value("the haircut is moved to Friday", "on Thursday I have a haircut at 9") is not None


def test_a_plan_told_before_and_moved_in_this_conversation_is_off_its_day(maya):
    """"book club moved to Saturday, Harriet is ill" one turn before "what do I have on Friday?", the
    book club told the day before: it was listed on Friday (tester25 priya)."""
    dm, _, _, uid = maya
    say(dm, "and on Wednesday I have choir practice at 7pm with Tomas")
    later(dm, uid)
    say(dm, "choir practice moved to Thursday, Tomas has flu")
    reply = say(dm, "what do I have on Wednesday?").reply
    assert "moved to Thursday" in reply and "you have choir practice at 7pm" not in reply, reply


def test_an_activity_called_off_leaves_what_was_told_with_it(maya):
    """"tea with Petroc is off" (no article: an activity) did not take the tea off Wednesday; and when
    it does, the optician told in the same breath still takes place (my play)."""
    dm, _, _, uid = maya
    say(dm, "On Wednesday I have the osteopath at 11 and then lunch with my niece Tamsin at 1.")
    later(dm, uid)
    say(dm, "lunch with Tamsin is off, she's got the flu")
    reply = say(dm, "What do I have on Wednesday?").reply
    assert "osteopath" in reply and "lunch with Tamsin is off" in reply, reply


def test_news_told_in_this_conversation_goes_with_the_plan_it_called_off(maya):
    """"am I still going to Lisbon?" one turn after "the stag do is cancelled" got "Yes — ... you're off to
    Lisbon for a stag do" (tester25 dev, H): the stored plan's recall did not see this conversation's news."""
    dm, _, _, uid = maya
    # the tester's words: with "hen do" the small tagger makes "do" a verb in both sentences
    say(dm, "In two weeks I'm off to Lisbon for a stag do!")
    later(dm, uid)
    say(dm, "actually the stag do is cancelled, the groom got cold feet")
    reply = say(dm, "am I still going to Lisbon?").reply
    assert not reply.startswith("Yes") and "cancelled" in reply, reply
