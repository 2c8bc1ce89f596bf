"""Ordinary sentences understood as a new user says them: a remember request whose content is a bare
fact with a number keeps that fact (the memory-intent classifier had read "my locker number is N"
itself as a request and left nothing to keep), a bare fact of that shape is a statement, and a stored
job is said back with its article in every later reply. The sentences are not in the classifier's
training data (interaction/memory_intent/utterances.tsv)."""

from __future__ import annotations

import pytest

from common.messages import UserDetected
from common.store import ProfileStore
from interaction.memory_intent.classifier import UTTERANCES, default_classifier
from interaction.memory_intent.phrasing import names_something, request_content
from interaction.offline.articles import spoken, with_article
from tests.interaction.test_memory_requests import maya, say  # noqa: F401 - the fixture

REMEMBER = [
    ("Please remember that my locker number is 4417.", "my locker number is 4417"),
    ("Remember that my storage unit is number 86.", "my storage unit is number 86"),
    ("Please remember that my badge number is 10023.", "my badge number is 10023"),
    ("Could you remember that my table at the café is number 9?", "my table at the café is number 9"),
    ("Please remember that the alarm code at the office is 2468.", "the alarm code at the office is 2468"),
]
BARE_FACTS = [
    "My locker number is 4417.", "My badge number is 10023.", "The alarm code at the office is 2468.",
    "My storage unit is number 86.", "Our post box is number 15.",
]


def test_the_new_sentences_are_not_training_data():
    text = UTTERANCES.read_text(encoding="utf-8")
    for sentence in [s for s, _ in REMEMBER] + BARE_FACTS:
        assert sentence not in text, sentence


@pytest.mark.parametrize(("asked", "content"), REMEMBER)
def test_a_remember_request_with_a_number_keeps_its_fact(asked, content):
    assert default_classifier().classify(asked).intent == "remember"
    found = request_content(asked)
    assert found == content
    assert names_something(found)


@pytest.mark.parametrize(("asked", "content"), [
    # tester23 claire's request without "that"; then ours
    ("Please remember my sister Amélie's flight lands on the 20th of December at 6:40 pm at Heathrow.",
     "my sister Amélie's flight lands on the 20th of December at 6:40 pm at Heathrow"),
    ("Please remember my godson Idris starts nursery on the 4th of January.",
     "my godson Idris starts nursery on the 4th of January"),
    # the politeness that closes it is no part of it either
    ("Remember my bike shed code is 5519 please.", "my bike shed code is 5519"),
])
def test_the_verb_that_bids_is_no_part_of_what_is_kept(asked, content):
    """"Please remember my sister Amélie's flight lands ..." was kept and said back as "I'll remember
    that remember your sister ...": a tail that opens with the bidding verb is still the request."""
    assert request_content(asked).casefold() == content.casefold()


@pytest.mark.parametrize("sentence", BARE_FACTS)
def test_a_bare_fact_with_a_number_is_a_statement(sentence):
    assert default_classifier().classify(sentence).intent == "statement"


@pytest.mark.parametrize(("stored", "said"), [
    ("paralegal", "a paralegal"), ("engineer", "an engineer"), ("head chef", "a head chef"),
    ("midwife", "a midwife"), ("university lecturer", "a university lecturer"),
    ("IT consultant", "an IT consultant"), ("retired", "retired"), ("self-employed", "self-employed"),
    ("nurses", "nurses"), ("a nurse", "a nurse"), ("the CEO", "the CEO"),
    # tagged a verb alone, a person in WordNet first ("you no longer work as cook": my play)
    ("cook", "a cook"), ("guide", "a guide"),
])
def test_a_stored_job_is_said_with_its_article(stored, said):
    assert with_article(stored) == said


def test_only_a_position_takes_an_article():
    assert spoken("current_position", "tram driver") == "a tram driver"
    assert spoken("location", "Porto") == "Porto"
    assert spoken("current_company", "law firm") == "law firm"


def test_what_do_you_know_about_me_says_the_job_with_its_article(maya):  # noqa: F811 - the imported fixture
    dm, _, _, uid = maya
    ProfileStore(dm.layout).update(uid, {"current_position": "paralegal", "location": "Porto"}, dm.clock.now())
    dm.close_session("test")  # a later conversation loads the profile afresh
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    reply = say(dm, "What do you know about me?").reply
    assert "you work as a paralegal" in reply and "you live in Porto" in reply, reply


def test_the_profile_answer_says_the_job_with_its_article():
    from datetime import datetime

    from common.store import UserProfile
    from interaction.offline.replies import offline_reply
    from interaction.reply_inputs import ReplyInputs
    from interaction.turn_understanding import Emotion

    profile = UserProfile(user_id="u1", user_name="Ines", current_position="paralegal")
    reply = offline_reply(ReplyInputs(text="What is my job?", intent="continue_conversation", is_recall=False,
                                      now=datetime(2026, 11, 30, 12), language="en",
                                      user_emotion=Emotion(label="neutral", intensity=0.0), profile=profile))
    assert "You work as a paralegal." in reply, reply


HOME_KNOWN = {"location": ["Lisbon"]}


@pytest.mark.parametrize(("sentence", "current", "location"), [
    # a job's or a workplace's town while a home is known: the home stays
    ("I work at an architecture studio in Porto.", HOME_KNOWN, None),
    ("I'm a pharmacist in Coimbra.", HOME_KNOWN, None),
    ("I drive a delivery van in Faro.", HOME_KNOWN, None),
    # the same with no home known yet: the town is the best the profile has
    ("I work at an architecture studio in Porto.", {}, "Porto"),
    ("I'm a pharmacist in Coimbra.", {}, "Coimbra"),
    # said as where they live: it replaces the home
    ("We moved to Braga in the spring.", HOME_KNOWN, "Braga"),
    ("I live in a small flat in Aveiro now.", HOME_KNOWN, "Aveiro"),
    # the known home said again with the job: still the home
    ("I'm a pharmacist in Lisbon.", HOME_KNOWN, "Lisbon"),
])
def test_a_workplaces_town_never_replaces_a_known_home(sentence, current, location):
    from interaction.agents.memory_agents import decide_facts
    from interaction.offline.extract import extract_profile

    update, changes, _ = decide_facts(sentence, extract_profile(sentence), current)
    assert update.location == location, (sentence, update.location)
    if location is None:
        assert not [c for c in changes if c.field == "location"]


def test_a_forget_question_says_a_moment_back_in_nadines_words_not_as_a_quotation():
    from interaction.memory_requests import ForgetCandidate, forget_one_question

    asked = forget_one_question(ForgetCandidate("u1", "moment", "scene_1", "I failed my driving test and I feel awful."))
    assert asked == ("Do you want me to forget that you told me you failed your driving test and you feel awful? "
                     "Please say yes or no.")


@pytest.mark.parametrize("sentence", ["I love the food in Lisbon.", "I really enjoy the markets in Valencia."])
def test_a_value_found_by_the_extraction_and_a_fact_change_is_one_fact(sentence):
    from interaction.agents.memory_agents import decide_facts
    from interaction.offline.extract import extract_profile

    update, _, _ = decide_facts(sentence, extract_profile(sentence), {})
    for values in (update.hobbies, update.interests):
        assert len(values) == len({v.casefold() for v in values}), values


def test_a_forget_question_keeps_a_possessive_lower_case_mid_sentence():
    from interaction.memory_requests import ForgetCandidate, forget_one_question

    asked = forget_one_question(ForgetCandidate("u1", "moment", "scene_2", "My son won the regional chess final!"))
    assert asked == "Do you want me to forget that you told me your son won the regional chess final? Please say yes or no."
