"""Whole turns with real memory services: profile facts come only from what the speaker says about
themselves (never a name, a question, another person's life, or words a model made up), a change told
in one breath supersedes the old fact, the reply confirms only what was stored; a question about the
person's own life is answered from memory; forget-one finds the memory by the topic named."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from common.messages import EmotionSignal, UserDetected
from common.store import ProfileStore, SceneStore
from common.store.facts import current_values
from interaction.dialogue import DialogueManager
from interaction.memory.local_services import LocalMemoryServices
from tests.interaction import test_memory_requests
from tests.interaction.memory_fixtures import layout_and_clock, make_settings, write_scene
from tests.interaction.test_dialogue_inprocess import Outbox
from tests.interaction.test_memory_requests import say

maya = test_memory_requests.maya  # Maya, known by face, with real memory services

FACT_FIELDS = ("current_company", "current_position", "location", "hobbies", "interests")


@pytest.fixture
def stranger(tmp_path):
    """A DialogueManager with real memory services and nobody in view yet."""
    layout, clock = layout_and_clock(tmp_path)
    settings = make_settings(tmp_path)
    services = LocalMemoryServices(settings, layout, clock, bus=None)
    return DialogueManager(settings, layout, clock, Outbox(), services=services, environ={})


def facts_of(dm: DialogueManager) -> dict:
    profile = ProfileStore(dm.layout).load(dm.session.identity.user_id)
    return {f: getattr(profile, f) for f in FACT_FIELDS if getattr(profile, f)}


def test_an_introduction_is_a_name_and_nothing_else(stranger):
    turn = say(stranger, "Hello! My name is Eileen.")
    assert turn.user_name == "Eileen" and turn.reply.startswith("Nice to meet you, Eileen!")
    assert "remember" not in turn.reply and facts_of(stranger) == {}


def test_a_greeting_with_a_question_stores_no_fact(stranger):
    turn = say(stranger, "Hi, I'm Bea. What did I tell you about my paper?")
    assert turn.user_name == "Bea"
    for wrong in ("work as", "interested in", "enjoy", "I'll remember"):
        assert wrong not in turn.reply, turn.reply
    assert facts_of(stranger) == {}


def test_a_name_said_with_a_hobby_is_the_name_and_the_hobby_the_hobby(stranger):
    turn = say(stranger, "Hi, I'm Priya and I love hiking.")
    assert turn.user_name == "Priya" and facts_of(stranger) == {"hobbies": ["hiking"]}
    assert "you enjoy hiking" in turn.reply and "Priya." not in turn.reply.split("!", 1)[-1]


def test_a_fact_before_the_name_is_not_said_to_be_stored(stranger):
    turn = say(stranger, "I live in Basel.")
    assert "I'll remember" not in turn.reply and "May I ask your name?" in turn.reply
    named = say(stranger, "My name is Nora.")
    assert named.user_name == "Nora" and facts_of(stranger) == {"location": "Basel"}


def test_a_fact_waiting_for_a_name_is_mentioned_once_and_said_as_told_when_kept(stranger):
    first = say(stranger, "I'm a bit nervous, I start at the new bakery on Monday.")
    assert "the new bakery" in first.reply and "at the." not in first.reply, first.reply
    other = say(stranger, "I bought a new kettle today.")
    assert "bakery" not in other.reply and "remember" not in other.reply, other.reply
    named = say(stranger, "I'm Marta by the way.")
    assert "you start at the new bakery on Monday" in named.reply, named.reply
    assert facts_of(stranger) == {"current_company": "new bakery"}


def test_an_article_alone_is_no_value(stranger):
    """A tagger that marks only the article of "at the new bakery" has pointed at no workplace: the
    value is the noun phrase the article opens, never "the"."""
    say(stranger, "Hi, I'm Oona.")
    say(stranger, "I start at the new bakery on Monday.")
    assert facts_of(stranger) == {"current_company": "new bakery"}


def test_someone_not_known_yet_is_answered_from_this_conversation(stranger):
    say(stranger, "hello")
    say(stranger, "my husband Tomek is a firefighter")
    turn = say(stranger, "what does my husband do?")
    assert turn.user_id is None and "firefighter" in turn.reply, turn.reply


def test_a_thanks_is_welcomed_and_kept_as_no_moment(maya):
    from common import topics as t

    dm, out, _, _ = maya
    turn = say(dm, "Cheers for the chat, Nadine, really.")
    assert turn.reply.startswith("You're welcome") and "happy for you" not in turn.reply, turn.reply
    assert out.of(t.AFFECT_STATE)[-1].suppress_reason == "a thanks"
    news = say(dm, "Thanks, my knee is finally healed!")
    assert "welcome" not in news.reply and out.of(t.AFFECT_STATE)[-1].suppress_reason is None, news.reply


@pytest.mark.parametrize("text", ["Thank you, love. That's everything for now.", "Thanks so much. It was lovely.",
                                  "Cheers, need to dash!"])
def test_a_thanks_closing_the_talk_is_kept_as_no_moment(maya, text):
    """A sentence after the thanks whose subject points back at the talk ("that's all for today") tells
    nothing of theirs either: it was kept as a happy moment and answered "I'm really happy for you"."""
    from common import topics as t

    dm, out, _, _ = maya
    turn = say(dm, text, user_emotion=EmotionSignal(label="happy", intensity=0.8))
    assert out.of(t.AFFECT_STATE)[-1].suppress_reason == "a thanks" and "happy for you" not in turn.reply, turn.reply
    news = say(dm, "Thank you. That was my last shift at the depot!", user_emotion=EmotionSignal(label="happy", intensity=0.8))
    assert out.of(t.AFFECT_STATE)[-1].suppress_reason is None, news.reply
    news = say(dm, "Thanks, sold the caravan!", user_emotion=EmotionSignal(label="happy", intensity=0.8))
    assert out.of(t.AFFECT_STATE)[-1].suppress_reason is None, news.reply


def test_a_greeting_with_a_pleasantry_is_kept_as_no_moment(maya):
    """ "nice to meet you :)" reads as joy, but the turn tells nothing of the person's own: kept, it came
    back as a memory at the next greeting."""
    from common import topics as t

    dm, out, _, _ = maya
    hello = say(dm, "Morning! I'm Maya, pleased to meet you :)", user_emotion=EmotionSignal(label="happy", intensity=0.8))
    assert out.of(t.AFFECT_STATE)[-1].suppress_storage and "happy for you" not in hello.reply, hello.reply
    say(dm, "Hi again, I'm Maya, we just adopted a puppy!", user_emotion=EmotionSignal(label="happy", intensity=0.8))
    assert not out.of(t.AFFECT_STATE)[-1].suppress_storage


def test_a_recall_from_someone_not_known_yet_abstains_and_says_why(stranger):
    from common.turn_notes import recall_note

    turn = say(stranger, "Do you remember when we first met?")
    assert turn.is_recall and turn.recall is not None and turn.recall.outcome == "abstained"
    assert "don't think I know you" in turn.reply
    assert recall_note(turn.recall) == ["[recall] abstained: nothing stored to recall"]


def test_forget_me_from_someone_not_known_yet_says_so_in_the_note(stranger):
    from common.turn_notes import PRIVACY_NOTES

    turn = say(stranger, "please forget everything about me")
    # they may have memories under a name not said yet: never "nothing stored about you"
    assert turn.intent == "forget_nobody_known" and "Tell me your name" in turn.reply
    assert "nothing stored" not in turn.reply and "nothing forgotten" in PRIVACY_NOTES[turn.intent]


def test_a_jobs_town_is_said_back_as_told_never_as_a_home(maya):
    """The town is kept as the location while no home is known, but said as where the job is: the
    person never said they live there."""
    dm, _, _, _ = maya
    turn = say(dm, "I am a robotics engineer in Munich.")
    assert facts_of(dm) == {"current_position": "robotics engineer", "location": "Munich"}
    assert "you are a robotics engineer in Munich" in turn.reply
    assert "live in Munich" not in turn.reply and "work at" not in turn.reply


@pytest.mark.parametrize("text", [
    "My sister lives in Madrid and works as a nurse.",
    "My husband works at Siemens.",
    "Where do I live, do you think?",
    "I'd love to live in Rome one day.",
    "I don't work at Google.",
    "Oh, and I am seventy-nine years old, can you believe it.",  # an age is no position
])
def test_other_lives_questions_and_wishes_are_not_profile_facts(maya, text):
    dm, _, _, _ = maya
    turn = say(dm, text)
    assert facts_of(dm) == {}, text
    assert "I'll remember" not in turn.reply


def test_the_article_the_person_used_is_said_back(maya):
    dm, _, _, _ = maya
    turn = say(dm, "I work as a nurse at the Charite in Berlin.")
    assert "you work as a nurse" in turn.reply, turn.reply
    assert facts_of(dm)["current_position"] == "nurse"


def test_a_models_made_up_facts_are_not_stored(maya, monkeypatch):
    """A small model's memory update names a university, a home and hobbies nobody said: none is kept;
    what the speaker did say about themselves is."""
    dm, _, _, _ = maya

    def model(agent, messages, json_mode=None, **_):
        if agent == "memory_update_agent":
            return json.dumps({"user_name": None, "current_company": "Prague University",
                               "location": "Prague University", "current_position": "student",
                               "hobbies": ["Biology", "Fashion"], "interests": []})
        return None

    monkeypatch.setattr(dm.deps, "ask", model)
    turn = say(dm, "I'm a student and I live in Prague.")
    assert facts_of(dm) == {"current_position": "student", "location": "Prague"}
    assert "Prague University" not in turn.reply and "Biology" not in turn.reply


def history(dm: DialogueManager, field: str) -> tuple[list[str], list[str]]:
    profile = ProfileStore(dm.layout).load(dm.session.identity.user_id)
    records = profile.history(field)
    return current_values(records), [r.value for r in records if not r.current]


def test_a_move_told_in_one_breath_supersedes_the_old_town(maya):
    dm, _, _, _ = maya
    say(dm, "I live in Oslo.")
    turn = say(dm, "We moved from Oslo to Bergen last month.")
    assert history(dm, "location") == (["Bergen"], ["Oslo"])
    assert "Bergen" in turn.reply and "you live in Oslo" not in turn.reply


def test_my_wife_and_i_is_the_speaker(maya):
    dm, _, _, _ = maya
    say(dm, "I live in Oslo.")
    say(dm, "My wife and I moved to Bergen.")
    assert history(dm, "location") == (["Bergen"], ["Oslo"])


def test_a_new_job_told_in_one_breath_supersedes_the_old_one(maya):
    dm, _, _, _ = maya
    say(dm, "I work at Deutsche Bank.")
    say(dm, "I left Deutsche Bank and joined Spotify.")
    assert history(dm, "current_company") == (["Spotify"], ["Deutsche Bank"])


# --- questions about one's own life ---------------------------------------------------------------

def later(dm: DialogueManager, uid: str) -> None:
    dm.close_session("test")
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))


@pytest.mark.parametrize(("told", "asked", "value"), [
    ("Please remember that my passport expires in March.", "When does my passport expire?", "March"),
    ("Please remember that the gate code at my building is 4711.", "What's the gate code at my building?", "4711"),
    ("Don't forget that my flight to Lisbon leaves on Friday at nine.", "When is my flight?", "Friday"),
    ("Please remember that I parked the car on level 3.", "Where did I park my car?", "level 3"),
])
def test_a_question_about_ones_own_life_is_answered_from_memory(maya, told, asked, value):
    dm, _, _, uid = maya
    say(dm, told)
    later(dm, uid)
    turn = say(dm, asked)
    assert value in turn.reply and "don't know" not in turn.reply, turn.reply
    assert turn.is_recall and turn.recall is not None and turn.recall.outcome in ("asserted", "offered")


def test_what_was_said_about_family_in_an_earlier_conversation_answers_a_question(maya):
    """Not a moment, not asked to be remembered: a plain statement of an earlier conversation, kept
    as its turn, answers a plain question about the people it names, and only those."""
    dm, _, _, uid = maya
    say(dm, "My husband Ivo teaches history in Split, and my son Luka works at a boatyard in Trogir.")
    later(dm, uid)
    turn = say(dm, "Where does my son work?")
    assert "boatyard" in turn.reply and turn.reply.startswith("At a boatyard"), turn.reply
    other = say(dm, "What does my sister do?")
    assert "boatyard" not in other.reply and "history" not in other.reply, other.reply


def told_before(maya, *said: str) -> DialogueManager:
    """Maya's manager after she told `said` in a conversation that has ended."""
    dm, _, _, uid = maya
    for text in said:
        say(dm, text)
    later(dm, uid)
    return dm


def test_what_was_said_next_is_not_taken_for_what_came_before_it(maya):
    """A saved turn is found with the turn before it as context; whether it is what was named is
    judged on its own words (else "I forgot my keys" is the birthday as much as the birthday is)."""
    dm = told_before(maya, "Please remember that my daughter's birthday is on 3 May.",
                     "I'm devastated, I forgot my keys and missed my flight.")
    asked = say(dm, "Please forget what I told you about my daughter's birthday.")
    assert "3 May" in asked.reply and "keys" not in asked.reply, asked.reply


def test_forgetting_what_was_asked_to_be_kept_forgets_the_kept_memory_not_only_the_request(maya):
    dm, _, services, uid = maya
    told_before(maya, "Please remember that my allotment plot is number 17.", "The tomatoes are doing well this year.")
    asked = say(dm, "Forget what I told you about my allotment plot.")
    assert asked.reply.startswith("Do you want me to forget that your allotment plot is number 17"), asked.reply
    assert say(dm, "Yes.").intent == "forget_one_confirmed"
    assert services.explicit.list(uid) == []
    later(dm, uid)
    assert "17" not in say(dm, "What's my allotment plot number?").reply


def test_the_goodbye_a_conversation_ended_on_is_never_a_memory(maya):
    """"ok gotta run, bye" has content words besides its farewell; it is still no memory."""
    dm, _, _, uid = maya
    say(dm, "Please remember that my gym pin is 2291.")
    say(dm, "ok gotta run to the gym, bye")
    later(dm, uid)
    turn = say(dm, "what's my gym pin again?")
    assert "2291" in turn.reply and "gotta run" not in turn.reply, turn.reply
    assert all("gotta run" not in m.text for m in turn.recall.memories)


def test_a_question_about_ones_own_life_said_in_this_conversation(maya):
    dm, _, _, _ = maya
    say(dm, "My dentist appointment is on Tuesday at ten.")
    say(dm, "The weather was lovely this morning.")
    turn = say(dm, "When is my dentist appointment?")
    assert "Tuesday" in turn.reply, turn.reply


@pytest.mark.parametrize(("told", "value", "words", "questions"), [
    ("Please remember that my passport expires in March.", "March", "passport",
     ("When is my sister's wedding?", "What time does my train leave tomorrow?")),
    # general questions, not about their life at all
    ("Please remember that my bike lock code is 3321.", "3321", "lock",
     ("What's the capital of Peru?", "How long do you boil an egg?")),
])
def test_a_question_memory_cannot_answer_is_answered_as_before(maya, told, value, words, questions):
    dm, _, _, uid = maya
    say(dm, told)
    later(dm, uid)
    for question in questions:
        turn = say(dm, question)
        assert value not in turn.reply and words not in turn.reply, turn.reply
        assert turn.recall is None or turn.recall.outcome == "abstained"


# --- forgetting one memory by its topic --------------------------------------------------------------

def test_forget_finds_a_moment_by_the_topic_named(maya):
    dm, _, _, uid = maya
    when = dm.clock.now() - timedelta(days=1)
    write_scene(dm.layout, uid, "I got a new bike for my birthday!", when=when, seed=1)
    dog = write_scene(dm.layout, uid, "Our old dog Biscuit died last night and I am heartbroken.",
                      when=when + timedelta(hours=1), seed=2)
    asked = say(dm, "Forget what I told you about my dog.")
    assert asked.reply.startswith("Do you want me to forget") and "Biscuit" in asked.reply, asked.reply
    assert say(dm, "Yes.").intent == "forget_one_confirmed"
    assert dog.scene_id not in [m.scene_id for m in SceneStore(dm.layout).list(uid)]


def test_forget_finds_a_moment_named_inside_a_framing_phrase(maya):
    dm, _, _, uid = maya
    write_scene(dm.layout, uid, "Our old dog Biscuit died last night and I am heartbroken.",
                when=dm.clock.now() - timedelta(days=1))
    asked = say(dm, "Can you delete the thing about my dog?")
    assert asked.reply.startswith("Do you want me to forget") and "Biscuit" in asked.reply, asked.reply


def test_forget_finds_the_interview_told_earlier(maya):
    dm, _, _, uid = maya
    say(dm, "I had a job interview at the hospital this morning and I think it went well.")
    say(dm, "We adopted a grey cat called Pixel.")
    asked = say(dm, "Please forget the interview.")
    assert asked.reply.startswith("Do you want me to forget") and "interview" in asked.reply, asked.reply


def test_forget_says_nothing_to_forget_only_when_nothing_is_close(maya):
    dm, _, _, uid = maya
    write_scene(dm.layout, uid, "Our old dog Biscuit died last night and I am heartbroken.",
                when=dm.clock.now() - timedelta(days=1))
    asked = say(dm, "Forget what I told you about my car.")
    assert "nothing to forget" in asked.reply, asked.reply


def test_a_fact_asked_to_be_remembered_in_this_conversation_is_found_and_forgotten_as_the_memory(maya):
    dm, _, services, uid = maya
    say(dm, "Please remember that my passport expires in March.")
    asked = say(dm, "When does my passport expire?")
    assert "March" in asked.reply and [m.kind for m in asked.recall.memories] == ["explicit_memory"]
    forget = say(dm, "Forget what I told you about my passport.")
    assert forget.reply.startswith("Do you want me to forget that your passport expires in March?"), forget.reply
    assert say(dm, "Yes.").intent == "forget_one_confirmed" and services.explicit.list(uid) == []


@pytest.mark.parametrize("asked", ["what was it I do for a living again?", "what's my line of work?"])
def test_a_job_asked_in_other_words_is_answered_from_the_profile(stranger, asked):
    """"what was it I do for a living again?" a day after "i'm a pharmacist at the boots on the high
    street in Kendal" got "I don't remember you telling me about that" (tester46 s01): the retrieval
    core matches the question with the job's notion, which did not say what a job is in everyday words."""
    for said in ("hiya, Priya here", "i'm a pharmacist at the boots on the high street in Kendal", "bye for now"):
        say(stranger, said)
    stranger.clock.advance(24)
    say(stranger, "hi it's Priya again")
    reply = say(stranger, asked).reply
    assert "pharmacist" in reply, reply


def test_a_second_verb_the_parser_reads_as_a_noun_is_a_clause_of_its_own(stranger):
    """"i live in Bath and work at the Roman baths museum as a guide" kept the job with the clause "i
    live in Bath", so "where do I work?" got "You live in Bath." (tester46 s28): the small parser tags
    "work" a noun joined to "live"; it is a verb sharing its subject, and its own clause."""
    say(stranger, "hello, my name is Eleanor")
    told = say(stranger, "i live in Bath and work at the Roman baths museum as a guide").reply
    assert "guide" in told and "Bath" in told, told
    reply = say(stranger, "where do I work?").reply
    assert "Roman baths museum" in reply and "live" not in reply, reply


def test_a_clause_of_something_else_set_under_the_fact_is_not_said_back(stranger):
    """"I'm a taxi driver so this is a disaster" was said back and kept as "you're a taxi driver so this
    is a disaster" (tester46 s68): a clause set under the fact's verb with a subject of its own, not
    the speaker, tells something else; one of the speaker's ("when I was 20") stays."""
    say(stranger, "hi I'm Dave")
    assert say(stranger, "I'm a taxi driver so this is a disaster").reply == "I'll remember that you're a taxi driver."
    assert "when you were 20" in say(stranger, "I moved to Leeds when I was 20").reply


def test_a_home_told_after_a_workplace_town_in_one_breath_is_kept(stranger):
    """"I work as a sound engineer at a theatre in Bristol and live in Clifton" kept no home, and
    "where do I live?" got "You haven't told me where you live yet" (my play): the workplace's town,
    found first, held the single place a turn may set."""
    say(stranger, "hello there, I'm Rosalind")
    told = say(stranger, "I work as a sound engineer at a theatre in Bristol and live in Clifton").reply
    assert "Clifton" in told and "Bristol" in told, told
    assert say(stranger, "where do I live?").reply == "You live in Clifton."
    assert "Bristol" in say(stranger, "where do I work?").reply


def test_what_someone_not_known_yet_told_is_not_kept_once_they_ask_to_be_forgotten(stranger):
    # "forget everything about me" before a name, then the name: the discord username held for them
    # was stored under it (tester62 s87)
    say(stranger, "remember my allotment key code is 5521")
    say(stranger, "and the plot inspection is on the 3rd")
    turn = say(stranger, "forget everything about me")
    assert turn.intent == "forget_nobody_known" and "won't keep anything" in turn.reply
    say(stranger, "My name is Priya Nair.")
    for asked in ("what's my allotment key code?", "when is the plot inspection?"):
        reply = say(stranger, asked).reply
        assert "5521" not in reply and "3rd" not in reply, reply
