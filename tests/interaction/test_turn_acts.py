"""What a turn does in the conversation (interaction/turn_act): taking leave in whatever words or
language ends it, words of parting told of something else do not; a backchannel and declining a topic
are read as such, and what a farewell clause leaves of a sentence is what was told."""

from __future__ import annotations

import pytest

from interaction import cues
from interaction.memory.told import is_told
from interaction.turn_act.reader import turn_act
from tests.interaction.test_memory_requests import maya  # noqa: F401 - a fixture


@pytest.mark.parametrize("said", [
    "Right, I'll let you get back to it. Adieu!", "ok ttfn, the taxi's outside", "mum's shouting for me, gotta scoot",
    "nighty nite then", "The bus is here. Chat soon!",
])
def test_leave_taken_in_other_words_is_a_farewell(said):
    assert cues.is_unambiguous_farewell(said)


@pytest.mark.parametrize("said", [
    "My aunt waved goodbye from the ferry and I cried all the way home.",
    "I'm off to Crete on Saturday with my brother.",
    "We threw a farewell lunch for our head chef yesterday.",
    "Goodbye Yellow Brick Road is my favourite album.",
    "I need to go to the vet with the cat on Monday.",
])
def test_parting_words_told_of_something_else_are_no_farewell(said):
    assert not cues.is_farewell(said)


@pytest.mark.parametrize(("said", "farewell"), [
    # "I have a parrot called Rico who swears in Spanish" ended the visit (tester29 carmen): the
    # turn-act reader reads it as a farewell
    ("I have a parrot called Rico who swears in Spanish", False),
    ("I have a goose called Dolores", False),
    ("ok gotta run, my friend Ana is waiting", True),  # a goodbye beside a named thing is still one
])
def test_a_sentence_that_names_a_thing_it_tells_of_is_no_farewell(said, farewell):
    assert cues.is_unambiguous_farewell(said) is farewell


@pytest.mark.parametrize(("said", "farewell"), [
    # "please remember my shift rota code: F7-NIGHT" got "Goodbye, Tomás!" and nothing was kept
    # (tester33 r15): a turn ending with a request to remember asks for what comes next
    ("please remember my door code: B2-NIGHT", False),
    ("remember that the night bus code is GN-44 please", False),
    ("Lovely chat. Remember my gate code is 8812. Bye!", True),  # leave taken after the request
])
def test_a_turn_ending_with_a_request_to_remember_takes_no_leave(said, farewell):
    assert cues.is_unambiguous_farewell(said) is farewell


@pytest.mark.parametrize(("said", "act"), [
    ("mm okay", "backchannel"), ("yeah fair", "backchannel"), ("lol true", "backchannel"),
    ("Honestly I'd prefer not to get into that right now.", "decline"),
    ("I'd really rather not talk about my brother.", "decline"),
    ("I never want to talk to my landlord again.", "other"),
    ("ok so my niece starts school next week", "other"),
])
def test_a_backchannel_and_a_declined_topic_are_read_as_such(said, act):
    assert turn_act(said) == act


def test_a_farewell_clause_tells_nothing_and_the_news_beside_it_is_told():
    assert not is_told("Right, must dash, cheerio!")
    assert is_told("Gotta scoot, my cast comes off tomorrow!")


@pytest.mark.parametrize("said", ["Off you go then, forget my overdraft.", "ok fine go ahead, forget it"])
def test_a_request_to_forget_in_words_of_going_waits_for_its_answer(said):
    """Words of going ("off you go", "go ahead") around a request to forget, which the reader may take
    for leave: the request asks for an answer, which a goodbye would not wait for."""
    from interaction.guards import GuardContext, apply_guards
    from interaction.turn_understanding import TurnUnderstanding

    u = apply_guards(TurnUnderstanding(intent="end_conversation", memory_intent="forget_one"), said,
                     GuardContext(user_id=None, greeted_user_id=None, confirmation_pending=False))
    assert u.intent == "continue_conversation"


@pytest.mark.parametrize("said", [
    "I had a rough night, I'm exhausted.",  # tester27 tilda: read as a goodbye, the visit ended
    "Awful night, the dog was sick everywhere.",
    "Honestly, what a night, the twins never settled.",
])
def test_news_of_a_bad_night_is_no_farewell(said):
    assert turn_act(said) != "farewell" and not cues.is_unambiguous_farewell(said)


@pytest.mark.parametrize("said", [
    # "I passed my PhD defence today!!! Dr Mei now haha" and "im tired" got "Goodbye" and ended the visit,
    # the news kept for nobody (tester42 s53, s52): a short cheer or mood after news is no leave-taking
    "finished my last chemo session today. done!",
    "im exhausted",
    "I got the keys to my first flat today!! homeowner now lol",
])
def test_a_short_cheer_or_mood_is_no_farewell(said):
    assert not cues.is_farewell(said)


@pytest.mark.parametrize("said", ["Right, I'm off. Bye!", "gotta run, ttyl", "night night x"])
def test_a_goodbye_is_still_a_farewell(said):
    assert cues.is_farewell(said)


def test_the_first_words_of_a_conversation_take_leave_of_nothing(tmp_path):
    # a lone name opening a visit ("noura", "tomasz") read as a goodbye it had never seen (tester42 s05, s23)
    from tests.interaction.test_fact_changes import _dm
    from tests.interaction.test_returning_by_name import first_visit, say

    talk, _ = _dm(tmp_path)
    first_visit(talk, "Hi, I'm Zofia.", "I teach piano in Gdańsk.")
    opened = say(talk, "zofia")
    assert opened.intent != "end_conversation" and "Goodbye" not in opened.reply, opened.reply


@pytest.mark.parametrize(("said", "act"), [("which subject?", "other"), ("Which subject is it in?", "other"),
                                           ("Shall we change the subject?", "decline")])
def test_a_question_asked_by_a_wh_word_declines_nothing(said, act):
    """"which subject?", asked after "my son Mateo has his GCSE maths exam on the 20th of may", got "Of
    course, Dolores, we don't have to talk about it" (tester46 s26): its words are those of "change the
    subject", but a wh-question asks for something."""
    assert turn_act(said) == act


@pytest.mark.parametrize(("news", "sorry"), [("my dog died yesterday. i don't want to talk about it", True),
                                             ("the engagement is off. I don't want to talk about it", None)])
def test_news_followed_by_a_declined_topic_is_answered_and_never_asked_after(maya, news, sorry):  # noqa: F811
    """"the engagement is off. I don't want to talk about it" got "That doesn't sound easy, Laila. Tell
    me more about it, if you like." (tester59 s83): the last sentence declines what the first told.
    The news is what is kept; nothing of it is asked after."""
    from tests.interaction.test_memory_requests import say

    dm, _, _, _ = maya
    turn = say(dm, news)
    assert "We don't have to talk about it" in turn.reply and "Tell me more" not in turn.reply, turn.reply
    assert sorry is None or turn.reply.startswith("I'm sorry"), turn.reply
    assert turn.memory_intent != "not_keep"
