"""The feeling an offline reply names: from the calibrated polarity (interaction/offline/feeling_polarity.py)
at lines chosen on the reply-feeling judge's dev turns; a plain fact gets none, and what was worth keeping
but unsure of its sign is answered by what it says."""

from __future__ import annotations

import json
from datetime import datetime

import pytest

from common.store import UserProfile
from interaction.offline.feeling_polarity import WEIGHTS, shipped_polarity
from interaction.offline.replies import named_feeling, news_sign, offline_reply
from interaction.offline.understand_rules import user_emotion
from interaction.reply_inputs import ReplyInputs
from interaction.turn_understanding import Emotion
from scripts.eval.named_feeling import Judged, error, load, load_apart, load_news, sign_of


def sign(said: str) -> str:
    return sign_of(named_feeling(user_emotion(said)))


@pytest.mark.parametrize("said", [
    pytest.param("My tortoise hides under the shed all winter.", marks=pytest.mark.xfail(
        strict=True, reason="read as sad (P(negative) above its line): hiding and winter, a held-out miss")),
    "My cat Pixie sleeps on the boiler all afternoon.",
    "There's a shop on my street that sells old maps and globes.",
    "My nephew plays the tuba in the school band.",
    "Our parrot is called Sunny.",
])
def test_a_plain_fact_gets_no_feeling(said):
    assert sign(said) == "none", user_emotion(said)


@pytest.mark.parametrize("said,felt", [
    ("Our old cat Tigger died this morning, I can't stop crying.", "negative"),
    ("I was told today my job is gone, the whole office is closing.", "negative"),
    ("I got into the conservatory, I'm over the moon!", "positive"),
    ("My daughter had a healthy baby boy last night, we're all so happy.", "positive"),
])
def test_felt_news_is_named_with_its_sign(said, felt):
    assert sign(said) == felt, user_emotion(said)


@pytest.mark.parametrize("said", [
    "My granddaughter passed her driving test on Monday.",
    "Our son finally got his pilot's licence.",
    "My wife's scan came back all clear.",
])
def test_good_news_told_plainly_is_never_met_with_sorrow(said):
    assert sign(said) in ("positive", "none"), user_emotion(said)


def _reply(text: str, felt: Emotion) -> str:
    return offline_reply(ReplyInputs(text=text, intent="continue_conversation", is_recall=False,
                                     now=datetime(2026, 12, 1, 10, 0), language="en-US", user_emotion=felt,
                                     profile=UserProfile(user_id="261201_0001", user_name="Odile")))


def test_a_kept_turn_of_unsure_feeling_is_thanked_for_never_guessed_at_or_echoed():
    reply = _reply("My grandson built a boat in his garage.", Emotion(label="neutral", intensity=0.6))
    assert reply == "Thank you for telling me, Odile."


def test_a_messy_kept_turn_is_never_echoed_nor_asked_after():
    messy = _reply("my bday is march 13 not march 3, my bad", Emotion(label="neutral", intensity=0.6))
    assert "your bad" not in messy and "Tell me more" not in messy


def test_small_talk_not_worth_keeping_is_still_invited_on():
    assert _reply("I bought a new umbrella.", Emotion(label="neutral", intensity=0.2)) == "I see, Odile. Tell me more!"


@pytest.mark.parametrize(("told", "named"), [
    ("My tortoise Gus sleeps in the shed all winter.", "your tortoise Gus"),
    ("I have three chinchillas.", "your three chinchillas"),
])
def test_a_thing_of_theirs_told_plainly_is_named_back_not_asked_after(told, named):
    """"My dog Pip is a border collie." got "I see, ... Tell me more!", as did 16 other plain facts of
    a person's own (tester): what was taken in is said."""
    reply = _reply(told, Emotion(label="neutral", intensity=0.2))
    assert reply == f"Thank you for telling me about {named}, Odile.", reply


def test_a_thing_of_two_told_together_is_not_named_as_one_of_them():
    reply = _reply("My brother and I restore old radios.", Emotion(label="neutral", intensity=0.2))
    assert "your brother," not in reply, reply


def test_a_named_feeling_is_answered_in_kind():
    assert "sorry" in _reply("My brother's shop burned down.", Emotion(label="sad", intensity=0.7)).lower()
    assert named_feeling(Emotion(label="neutral", intensity=0.9)) is None


def test_the_shipped_lines_were_chosen_and_load():
    shipped = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert set(shipped["lines"]) == {"positive", "negative"} and shipped["read"] in ("part", "turn")
    assert all(0.3 <= line <= 0.9 for line in shipped["lines"].values())
    assert shipped_polarity() is not None


def test_the_judge_weighs_a_wrong_sign_above_a_missed_feeling():
    good_news = Judged("dev", "w", "My son got his driving licence.", frozenset({"positive"}))
    drizzle = Judged("dev", "w", "It's drizzling again.", frozenset({"negative", "none"}))
    fact = Judged("dev", "w", "My cat sleeps all day.", frozenset({"none"}))
    assert error(good_news, "negative") == "wrong sign" and error(good_news, "none") == "unnamed"
    assert error(drizzle, "none") is None and error(drizzle, "positive") == "wrong sign"
    assert error(fact, "negative") == "named, none said"


def test_the_judge_splits_its_written_sentences_by_writer():
    rows = load()
    by_writer: dict[str, set[str]] = {}
    for r in rows:
        by_writer.setdefault(r.writer, set()).add(r.split)
    assert all(len(splits) == 1 for splits in by_writer.values())
    assert {r.split for r in rows} == {"dev", "test"}


@pytest.mark.parametrize("said,felt", [
    ("I got into medical school and I screamed so loud!", "positive"),
    ("My sister cried all day, she finally got the job she wanted.", "positive"),
    pytest.param("My mum screamed when I told her the fire service had taken me on.", "positive",
                 marks=pytest.mark.xfail(strict=True, reason="read as sad: 'taken me on' for a hiring is too "
                                                             "idiomatic for the sentence vector to outweigh the scream")),
    ("I was shaking so hard I dropped the phone, the adoption panel said yes.", "positive"),
    pytest.param("I screamed when I found the front door kicked in.", "negative", marks=pytest.mark.xfail(
        strict=True, reason="left unnamed since the refit with the told rows of distance and busy trade: "
                            "P(negative) under its line")),
    ("My sister cried all day, her old dog had to be put down.", "negative"),
])
def test_the_outcome_told_decides_the_sign_not_the_bodys_reaction(said, felt):
    """Screaming, crying and shaking say how strongly something is felt; whether it is joy or
    distress is in what happened."""
    assert sign(said) == felt, user_emotion(said)


@pytest.mark.parametrize("said", [
    "They've closed the ward I worked on for twenty years.",
    "The MRI shows the tumour is back.",
    "My grandson was expelled from school on Monday.",
])
def test_bad_news_told_calmly_is_never_met_with_joy(said):
    assert sign(said) in ("negative", "none"), user_emotion(said)


def test_the_news_rows_are_split_by_writer_and_written_by_others_than_the_judges():
    news = load_news()
    assert {r.split for r in news} == {"dev", "test"}
    assert not {r.writer for r in news} & {r.writer for r in load()}


@pytest.mark.parametrize("said,felt", [
    ("My best mate is emigrating to Perth next month and I'm gutted.", ("negative", "none")),
    ("Nobody from my old team came to my leaving do.", ("negative",)),
    ("Wild day at the bookshop, the new release flew off the shelves!", ("positive",)),
])
def test_a_friend_gone_far_or_a_slight_is_never_joy_and_a_rush_of_trade_is_no_sorrow(said, felt):
    """Someone close moving away, being forgotten or left out, and trade so busy that stock runs out:
    news whose words ("best friend", "crazy", "ran out") point the other way from what happened."""
    assert sign(said) in felt, user_emotion(said)


@pytest.mark.parametrize("said", [
    "My son forgot to call me on my birthday.",
    pytest.param("My husband forgot Valentine's Day completely.", marks=pytest.mark.xfail(
        strict=True, reason="P(negative) 0.49 since the refit with the told rows of bereavement, under the 0.5 line "
                            "where news has a sign: left unnamed, never joy")),
])
def test_being_forgotten_told_calmly_is_bad_news(said):
    assert news_sign(said) == "negative"


def test_a_feeling_said_now_is_no_news():
    assert news_sign("I'm feeling a bit nostalgic for Lagos tonight.") is None


@pytest.mark.parametrize("said", [
    "Nana passed away peacefully.",
    "My grandpa passed on.",
])
def test_a_death_told_plainly_is_never_good_news(said):
    """"Passed" is mostly exams and tests in what the polarity learned from; passing away must not
    read as a pass, with or without a face that shows nothing."""
    assert sign(said) == "negative", user_emotion(said)
    assert news_sign(said) != "positive"


def test_the_testers_turns_are_split_by_writer_apart_from_the_judges_own():
    testers = load_apart()["testers "]
    assert {r.split for r in testers} == {"dev", "test"}
    assert not {r.writer for r in testers} & {r.writer for r in load()}


@pytest.mark.parametrize("said", ["Wilhelmina here, hiya pet!", "Bartek again, hello hello!", "Hi there, Oksana Petrenko again"])
def test_saying_who_one_is_with_a_greeting_is_politeness_not_a_feeling(said):
    assert sign(said) == "none"


@pytest.mark.parametrize("said", [
    "My husband Ewan died in the autumn. The funeral was lovely, half the village came.",
    "Grandpa passed away last Tuesday. The nurses were wonderful with him.",
])
def test_a_good_thing_told_after_a_loss_in_the_same_turn_is_never_joy(said):
    assert sign(said) != "positive"


def test_a_good_thing_told_after_a_loss_in_the_same_turn_is_answered_as_the_loss():
    assert sign("My brother Callum passed away in June. The funeral was beautiful, so many friends came.") == "negative"


@pytest.mark.parametrize("said", [
    # "oh great, my car broke down again on the motorway. just fantastic." got "That's wonderful, Fatima!
    # I'm really happy for you." (tester59 s08, s50): praise that tells nothing, said of bad news, is irony
    "oh lovely, my flat flooded again overnight. just brilliant.",
    "great, the bank lost my paperwork. love that for me",
])
def test_praise_said_only_of_bad_news_is_never_joy(said):
    assert sign(said) != "positive" and news_sign(said) != "positive", said


@pytest.mark.parametrize("said", [
    "my daughter got into medical school! amazing",
    "I was so nervous but I passed! amazing",
    "My mum was ill last year but she's fully recovered now, we're so happy",
])
def test_praise_of_good_news_told_beside_a_worry_is_still_joy(said):
    assert sign(said) == "positive", said
