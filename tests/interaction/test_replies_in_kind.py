"""Replies that fit what was said, offline: a question that names nothing of the person's own is never
answered as a memory they lack; "what did I ask you to remember?" lists what they asked to be kept and
nothing merely told beside it; a loss recalled is not opened with "Of course"; what is said back is
reported speech (an elided subject said, a framing "long story," left out); nerves about what lies
ahead are met with concern, not joy; a parting wish ends the conversation. (Good news is not met with
the worry it settles: test_told_as_said.py.)"""

from __future__ import annotations

from datetime import datetime

import pytest

from common.messages import RecalledMemory, RecallReport
from interaction import cues
from interaction.memory.told import is_told
from interaction.offline.replies import news_sign, offline_reply
from interaction.offline.understand_rules import understand, user_emotion
from interaction.reply_inputs import ReplyInputs
from interaction.reported_speech import reported
from interaction.turn_understanding import Emotion
from tests.interaction.test_forget_said_just_now import back, ines, kept_as_moment, say  # noqa: F401 - a fixture

NOBODYS = ["Who composed the Four Seasons?", "who designed the Eiffel Tower?", "when did the Berlin wall fall",
           "Do you remember who invented the radio?", "What was the name of Columbus's ship?"]


@pytest.mark.parametrize("asked", NOBODYS)
def test_a_question_that_names_nothing_of_the_speakers_is_no_recall(asked):
    assert not understand(asked).is_recall


def test_nothing_of_theirs_asked_gets_no_memory_answer_while_their_own_things_are_found(ines):  # noqa: F811
    dm, uid = ines
    say(dm, "Please remember that the bike shed code is 6624.")
    for asked in ("who designed the Eiffel Tower?", "when did the Berlin wall fall"):
        turn = say(dm, asked)
        assert not turn.is_recall and "telling me" not in turn.reply, (asked, turn.reply)
    again = say(dm, "what was the bike shed code again?")
    assert "6624" in again.reply, again.reply
    assert "Of course I remember you" not in again.reply


def test_what_they_asked_to_keep_is_listed_without_what_was_told_beside_it(ines):  # noqa: F811
    dm, uid = ines
    kept_as_moment(dm, uid, say(dm, "My sister just had twins and I'm over the moon!"))
    say(dm, "Please remember that the boiler service is on the 9th.")
    kept_as_moment(dm, uid, say(dm, "Our dog Pip ran off yesterday and I'm devastated."))
    say(dm, "Could you remember that my bike lock code is 5521?")
    back(dm, uid)
    asked = say(dm, "So what did I tell you to keep in mind?")
    assert "boiler" in asked.reply and "5521" in asked.reply, asked.reply
    assert "twins" not in asked.reply and "Pip" not in asked.reply, asked.reply


def _recalled(text: str) -> str:
    memory = RecalledMemory(kind="moment", memory_id="m1", text=text, occurred_at="2026-03-01T10:00:00")
    return offline_reply(ReplyInputs(
        text="Do you remember what I told you last week?", intent="continue_conversation", is_recall=True,
        now=datetime(2026, 3, 8, 18, 0), language="en-US", user_emotion=Emotion(label="neutral", intensity=0.0),
        recall=RecallReport(outcome="asserted", memories=[memory])))


def test_a_loss_recalled_is_not_opened_with_of_course():
    sad = _recalled("Our neighbour's boy was killed on his motorbike, the whole street is in shock.")
    assert not sad.startswith("Of course") and "killed on his motorbike" in sad, sad
    glad = _recalled("My granddaughter took her first steps on Sunday, we were all cheering!")
    assert glad.startswith("Of course"), glad


@pytest.mark.parametrize(("said", "back_"), [
    ("Bought a little cottage near the sea last spring.", "you bought a little cottage near the sea last spring"),
    ("Been volunteering at the food bank since June.", "you've been volunteering at the food bank since June"),
    ("Sad news: my aunt's bakery is closing down.", "your aunt's bakery is closing down"),
    ("Big update, but my passport finally arrived.", "your passport finally arrived"),
    ("In March, my brother moved to Oslo.", "in March, your brother moved to Oslo"),
])
def test_what_was_told_is_said_back_as_reported_speech(said, back_):
    assert reported(said) == back_


@pytest.mark.parametrize("said", ["Have a lovely one!", "right, gotta go", "Enjoy your holiday"])
def test_a_parting_wish_ends_the_conversation(said):
    assert cues.is_farewell(said) and understand(said).intent == "end_conversation"


@pytest.mark.parametrize("said", ["Ring me tomorrow", "We had a good one last year, the best harvest ever.",
                                  # a request about a day, not a wish for one: it ended the conversation
                                  "Forget the boiler service date.", "Delete the exam date please."])
def test_a_time_said_or_a_one_told_of_is_no_parting_wish(said):
    assert not cues.is_farewell(said)


@pytest.mark.parametrize("said", ["keep my mum's birthday", "Keep my wedding anniversary please."])
def test_a_day_someone_else_owns_is_no_parting_wish(said):
    """A wish bids the listener spend their own time or one both share ("enjoy your weekend"); "keep my
    mum's birthday" asks Nadine to hold on to a date (it ended the visit with a goodbye)."""
    assert not cues.is_farewell(said)


@pytest.mark.parametrize("said", ["I'm really anxious about my citizenship interview next Tuesday.",
                                  "I'm so nervous about my piano exam on Saturday.",
                                  "I'm nervous about starting at the new school on Monday.",
                                  # a feeling carried on into now by the perfect
                                  "I've been feeling really nervous about my driving test."])
def test_nerves_about_what_lies_ahead_are_met_with_concern_not_joy(said):
    assert user_emotion(said).label == "fearful"


def test_nerves_told_before_the_outcome_still_take_the_outcomes_sign():
    assert user_emotion("I was shaking like a leaf at the audition, and they gave me the part!").label == "happy"


@pytest.mark.parametrize("said", ["Happy Hanukkah to everybody!", "Merry Xmas, by the way.", "Happy holidays!",
                                  "Happy Easter, Nadine!"])
def test_a_season_wished_well_is_no_news_to_keep_or_be_glad_of(said):
    felt = user_emotion(said)
    assert felt.intensity < 0.5 and felt.label == "neutral", felt
    reply = offline_reply(ReplyInputs(text=said, intent="continue_conversation", is_recall=False,
                                      now=datetime(2026, 12, 24, 18, 0),
                                      language="en-US", user_emotion=felt))
    assert reply.startswith("Thank you"), reply


@pytest.mark.parametrize("said", ["Busy weekend!", "Sad Christmas this year, without Mum.",
                                  "My happy birthday turned into a disaster."])
def test_a_day_told_of_is_no_seasonal_wish(said):
    from interaction.offline.wishes import wishes_the_listener

    assert not wishes_the_listener(said)


@pytest.mark.parametrize("said", ["Sing me a song, please.", "Read us a story.", "Recite me a poem!"])
def test_a_request_of_nadine_tells_nothing_to_keep(said):
    assert not is_told(said)


@pytest.mark.parametrize("said", ["My grandson sang me a song on the phone.", "Mum read us a story every night."])
def test_what_someone_did_for_the_speaker_is_told(said):
    assert is_told(said)


@pytest.mark.parametrize("said", ["My landlord put the rent up again and the boiler is still broken, you know?",
                                  "It was the best summer of my life, you see?",
                                  "we've been arguing about money all month, the kids hear everything, u know?"])
def test_a_statement_closed_by_an_appeal_to_be_followed_is_told_not_asked(said):
    assert not cues.is_question(said) and is_told(said)


@pytest.mark.parametrize("said", ["The party is on Friday, isn't it?", "Where did I park, you know?",
                                  "My train leaves at nine, right?"])
def test_a_tag_that_asks_back_or_a_question_before_it_stays_a_question(said):
    assert cues.is_question(said)


def _after(before: str, said: str) -> str:
    return offline_reply(ReplyInputs(text=said, intent="continue_conversation", is_recall=False,
                                     now=datetime(2026, 3, 1, 10, 0), language="en-US", user_emotion=user_emotion(said),
                                     history=[("user", before), ("nadine", "...")]))


def test_a_detail_said_of_sad_news_keeps_its_tone():
    reply = _after("We lost our old horse Duke last week, I'm heartbroken.", "He was 31.")
    assert "Tell me more!" not in reply and "listening" in reply, reply


@pytest.mark.parametrize(("before", "said"), [
    ("Our grandad passed away on Sunday, we're all devastated.", "The service at the crematorium was beautiful."),
    ("My mum died last week.", "The wake was lovely, so many old friends came."),
])
def test_a_good_thing_said_of_sad_news_is_met_gladly_never_as_joy(before, said):
    reply = _after(before, said)
    assert reply.startswith("I'm glad to hear that") and "happy for you" not in reply, reply
    # ... and the history may already end with the turn itself
    with_it = offline_reply(ReplyInputs(text=said, intent="continue_conversation", is_recall=False,
                                        now=datetime(2026, 3, 1, 10, 0), language="en-US", user_emotion=user_emotion(said),
                                        history=[("user", before), ("nadine", "..."), ("user", said)]))
    assert with_it == reply


def test_a_detail_said_of_good_news_or_of_a_plain_fact_keeps_theirs():
    assert _after("My daughter just had a baby boy!", "He weighs seven pounds.").startswith("How lovely"), \
        _after("My daughter just had a baby boy!", "He weighs seven pounds.")
    assert _after("I work at the library.", "It opens at nine.") == "I see. Tell me more!"


@pytest.mark.parametrize(("before", "said"), [
    # "i had her since i was a kid" after "my cat Pepper died this morning" got "That sounds like good
    # news" (tester60 s05, H): the one spoken of by a pronoun, wherever it stands, is the sad news's
    ("Our dog Bramble died last night, she was fourteen.", "we got her when I was still at school"),
    ("My grandad passed away on Friday.", "I used to visit him every Sunday after church"),
])
def test_a_memory_of_someone_just_lost_is_never_good_news(before, said):
    reply = _after(before, said)
    assert "good news" not in reply and "happy for you" not in reply and "wonderful" not in reply, reply


@pytest.mark.parametrize(("before", "said"), [
    # "me and my husband Tom have been trying for two years" right after "i just found out im pregnant!!"
    # got "I'm sorry to hear that" (tester61 s52, H): read the other way from the news it goes on
    # about, its sign is in doubt
    ("I passed my driving test this morning!!", "I failed it three times before"),
    ("My son got into Oxford!", "he was rejected last year"),
    # "so no marathon this year i guess. great." after a hurt ankle got "That's wonderful" (tester60 s41)
    ("I tore a muscle in my calf, the physio says no football till spring", "so no cup final for me. brilliant."),
])
def test_a_turn_read_the_other_way_from_the_news_just_before_names_no_feeling(before, said):
    reply = _after(before, said)
    assert not any(w in reply for w in ("sorry", "wonderful", "happy for you", "good news", "How lovely")), reply


def test_a_turn_of_the_same_sign_as_the_news_before_keeps_its_feeling():
    assert "sorry" in _after("My cat was hit by a car last night.", "The vet couldn't save her, she died this morning.")


def test_news_run_on_from_a_greeting_without_a_comma_is_answered_with_its_feeling():
    # "hi nadine im Ellie and i just found out im pregnant!!" got only "Nice to meet you, Ellie!": the
    # whole sentence was read as a greeting, politeness
    said = "hey nadine im Joss and i just got engaged to my girlfriend!!"
    assert user_emotion(said).label == "happy", user_emotion(said)


def test_a_greeting_and_an_introduction_give_the_news_after_them_no_sign():
    # "Good afternoon, I'm Bernadette. I'm 82 and I live alone since my husband went into a care home."
    # then "His name is Walter. He has dementia." got "How lovely, Bernadette! Tell me more." (tester61
    # s26, H): the greeting's warmth made the turn before good news
    before = "Hello there, I'm Mavis. I'm 80 and my husband moved into a care home in March."
    assert news_sign(before) != "positive"
    reply = _after(before, "His name is Albert. He has Alzheimer's.")
    assert "lovely" not in reply.casefold() and "good news" not in reply, reply
