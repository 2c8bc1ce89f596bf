"""What a person says about themselves is said back as they said it, and a plain question about their
life is answered with its answer first. Whole turns with real memory services (the offline path); the
sentences are new: in none of the benchmark scripts, nor the verb-job model's training data.

- A job said with a verb is a job ("I repair pianos for a living"), a pastime or a belonging said the
  same way is not ("I drive a blue Volvo"); a workplace a proper name names is the employer.
- A job's town is kept as the location while no home is known, but never said as a home; a home said
  later replaces it as the location, and the job is still said with its town.
- "When is the recital?" (no "my") and "what time does my brother's train get in?" are answered with
  the value first, grounded in what was told, without "of course"; a question memory cannot answer is
  answered as before.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from common.messages import RecalledMemory, RecallReport, UserDetected
from common.store import ProfileStore
from common.store.facts import FactChange
from interaction.answer_span import answer_in
from interaction.offline.verb_jobs import load_rows
from tests.interaction import test_memory_requests
from tests.interaction.memory_fixtures import write_scene
from tests.interaction.test_memory_requests import say
from tests.interaction.test_own_words import facts_of, later

maya = test_memory_requests.maya  # Maya, known by face, with real memory services

JOBS = [
    ("I repair pianos for a living.", "repair pianos", "you repair pianos for a living"),
    ("I drive an ambulance in Glasgow.", "drive an ambulance", "you drive an ambulance in Glasgow"),
    ("We run a bed and breakfast in Cornwall.", "run a bed and breakfast", "you run a bed and breakfast in Cornwall"),
    # the comma the parser hangs in the object's subtree is no part of the job ("repair pianos ," was said
    # back as "you no longer repair pianos ,."; my play)
    ("I tune pianos for a living, mostly in Sligo", "tune pianos", "you tune pianos for a living, mostly in Sligo"),
]
NOT_JOBS = ["I drive a blue Volvo.", "I play squash on Tuesdays.", "I walk my neighbour's dog at weekends."]


def test_the_sentences_are_not_training_data():
    trained = {text for _, text in load_rows()}
    for sentence in [s for s, _, _ in JOBS] + NOT_JOBS:
        assert sentence not in trained, sentence


@pytest.mark.parametrize(("sentence", "job", "said"), JOBS)
def test_a_job_said_with_a_verb_is_stored_and_said_back_as_said(maya, sentence, job, said):
    dm, _, _, _ = maya
    turn = say(dm, sentence)
    assert facts_of(dm).get("current_position") == job, facts_of(dm)
    assert f"I'll remember that {said}." in turn.reply, turn.reply
    assert "work as" not in turn.reply and "live in" not in turn.reply


@pytest.mark.parametrize("sentence", NOT_JOBS)
def test_a_pastime_or_a_belonging_said_with_a_verb_is_no_job(maya, sentence):
    dm, _, _, _ = maya
    turn = say(dm, sentence)
    # a pastime said by its doing may be kept as one ("you play squash on Tuesdays"), never as work
    assert "current_position" not in facts_of(dm) and "work as" not in turn.reply, turn.reply


def test_a_named_workplace_and_its_town_are_said_back_as_told(maya):
    dm, _, _, _ = maya
    turn = say(dm, "I'm a paramedic at Queen Elizabeth hospital in Birmingham.")
    assert facts_of(dm) == {"current_position": "paramedic", "current_company": "Queen Elizabeth hospital",
                            "location": "Birmingham"}
    assert "you're a paramedic at Queen Elizabeth hospital in Birmingham" in turn.reply, turn.reply
    asked = say(dm, "Where do I work?")
    assert asked.reply == "You're a paramedic at Queen Elizabeth hospital in Birmingham.", asked.reply
    home = say(dm, "Where do I live?")
    assert "You haven't told me where you live" in home.reply and "Birmingham" in home.reply, home.reply
    about = say(dm, "What do you know about me?")
    assert "paramedic at Queen Elizabeth hospital in Birmingham" in about.reply and "live in" not in about.reply


def test_a_home_said_later_replaces_the_jobs_town_and_the_job_stays(maya):
    dm, _, _, _ = maya
    say(dm, "I work as a sound technician at the Apollo theatre in Manchester.")
    turn = say(dm, "I live in Stockport, actually.")
    assert facts_of(dm)["location"] == "Stockport" and "you live in Stockport" in turn.reply, turn.reply
    about = say(dm, "What do you know about me?")
    assert "you live in Stockport" in about.reply, about.reply
    assert "a sound technician at the Apollo theatre in Manchester" in about.reply  # still where the job is
    assert "live in Manchester" not in about.reply


def test_a_jobs_town_never_replaces_a_home(maya):
    dm, _, _, _ = maya
    say(dm, "I live in Bath.")
    turn = say(dm, "I repair pianos in Bristol.")
    assert facts_of(dm) == {"location": "Bath", "current_position": "repair pianos"}
    assert "you repair pianos in Bristol" in turn.reply and "live in Bristol" not in turn.reply, turn.reply
    assert say(dm, "Where do I live?").reply == "You live in Bath."


def test_a_forgotten_place_leaves_no_clause_that_says_it(maya):
    dm, _, _, uid = maya
    say(dm, "I'm a florist in Ghent.")
    store = ProfileStore(dm.layout)
    assert store.forget_fact(uid, "location", "Ghent", datetime(2026, 12, 1)) == 1
    profile = store.load(uid)
    assert not any("Ghent" in (r.clause or "") for f in ("current_position", "location") for r in profile.history(f))


def test_a_newer_wording_of_the_same_value_is_kept():
    """A town first named as a job's place, then as a home: the record keeps its time and takes the home."""
    from common.store.facts import FactSource, apply

    records: list = []
    now = datetime(2026, 12, 1)
    assert apply(records, False, FactChange(field="location", op="set", value="Ghent", clause="I'm a florist in Ghent",
                                            home=False), now, FactSource())
    assert apply(records, False, FactChange(field="location", op="set", value="Ghent", clause="I live in Ghent",
                                            home=True), now, FactSource())
    assert len(records) == 1 and records[0].home is True and records[0].clause == "I live in Ghent"


# --- the answer to a question, read off what was told --------------------------------------------

@pytest.mark.parametrize(("question", "memory", "answer"), [
    ("When does my brother's train get in?", "my brother's train gets in at a quarter past nine", "at a quarter past nine"),
    ("What's the code for my bike lock?", "the code for my bike lock is 3321", "3321"),
    ("Where did I put my spare key?", "I put my spare key under the blue flowerpot", "under the blue flowerpot"),
    ("When is the recital?", "my daughter's piano recital is on Saturday the 3rd of May", "on Saturday the 3rd of May"),
    ("Which gate does my flight leave from?", "my flight to Oslo leaves from gate 22 at noon", "gate 22"),
    ("How long is the drive to Oslo?", "my flight to Oslo leaves from gate 22 at noon", None),
    ("Do I have a dentist appointment?", "my dentist appointment is on Monday", None),
    ("What does my wife do?", "my wife Ines repairs clocks in Porto", None),  # what is done: said as told
    # two clauses: the one about what the question names answers it
    ("Where does my son work?", "my husband teaches in Bergen, and my son works at a garage in Voss", "at a garage in Voss"),
    ("Where does my husband teach?", "my husband teaches in Bergen, and my son works at a garage in Voss", "in Bergen"),
    # and never the place of the other clause when the one it names holds none
    ("do you know where I work?", "I work as a glassblower and I live in Murano.", None),
    ("where do I live?", "I work as a glassblower and I live in Murano.", "in Murano"),
    # a name asked for: the proper noun the memory gives the one named
    ("what's my grandson's name?", "my grandson Oskar turned four on Sunday", "Oskar"),
    ("What is my parrot called?", "We've had a parrot called Kiwi for twenty years.", "Kiwi"),
    ("whats my bosses name", "my boss, Mrs Okafor, gave me the afternoon off", "Mrs Okafor"),
    ("What's the name of my neighbour?", "My neighbour is Tadeusz and he fixes bikes.", "Tadeusz"),
    ("What's my sister's name?", "my brother Piet moved to Utrecht", None),
    ("what's my dog's name?", "we got a beagle called Nacho from the shelter", "Nacho"),  # a kind of dog
    ("what's my tortoise called?", "my tortoise is called Humphrey and he's older than me", "Humphrey"),
    # a whole date: an ordinal beside its month, a month the tagger does not know hung on its day
    ("When is my son's birthday?", "my son Kofi's birthday is 14th August", "14th August"),
    ("When is the party?", "the party is on the 2nd of Decmber", "on the 2nd of Decmber"),
    ("When is the form due?", "the permission form is due on Monday the 7th", "on Monday the 7th"),
    # where from: never where one lives now
    ("where is my husband from?", "my husband is from Tromsø but we live in Oslo now", "from Tromsø"),
    ("where is my husband from?", "my husband works in Oslo", None),
    # an ordinal after a preposition with no noun after it is a day
    ("When is my scan?", "they moved my scan to the 14th, same time", "the 14th"),
    ("When is my train?", "Annoyingly, my train has been moved to the 23rd, same time.", "to the 23rd"),
    # a compound the tagger splits into a noun and an apposition: its head is asked of, a name never
    ("What is my bank PIN?", "the PIN of my bank card is 4620", "4620"),
    ("What is my bank PIN?", "my bank is the one on Leith Walk", None),
])
def test_the_words_that_answer_a_question(question, memory, answer):
    found = answer_in(question, memory)
    assert (found.words(memory) if found else None) == answer


@pytest.mark.parametrize(("question", "memory", "after"), [
    # a greeting and an introduction beside the clause that answers are not said after the answer
    ("Where is my bakery?", "Evening! I'm Dorota, I own a little bakery in Lublin.", "I own a little bakery there"),
    ("Where do I live?", "I live in Ostrava and I commute to Brno for work.", "I live there"),
    ("When does my niece arrive?", "Hi Nadine. My niece arrives on Sunday at noon.", "My niece arrives then"),
    # of two joined clauses, the one the answer is in
    ("Where does my son work?", "my husband teaches in Bergen, and my son works at a garage in Voss", "my son works there"),
    # a name in the subject of a saying: what was said stays, the clause before it goes
    ("what's my husband's name?", "I'm so tired, my husband Emeka says I work too hard",
     "my husband Emeka says I work too hard"),
])
def test_what_is_said_after_the_answer_is_the_clause_that_told_it(question, memory, after):
    found = answer_in(question, memory)
    assert found is not None and found.in_its_place(memory).rstrip(".") == after


def test_a_plain_question_is_answered_with_the_value_first(maya):
    dm, _, _, uid = maya
    say(dm, "Please remember that my brother's train gets in at a quarter past nine on Friday.")
    later(dm, uid)
    turn = say(dm, "What time does my brother's train get in?")
    assert turn.reply.startswith("At a quarter past nine on Friday — "), turn.reply
    assert "your brother's train gets in then" in turn.reply and "Of course" not in turn.reply


@pytest.mark.parametrize(("kept", "told_later", "question", "answer"), [
    ("Please remember that my eye test is on the 9th at 3pm.", "They moved my eye test to the 16th, same time.",
     "When is my eye test?", "The 16th — "),
    # what it changed to is what it is now
    ("Please remember that my gym locker code is 3308.", "Oh, my gym locker code changed to 8033 after the refit.",
     "What's my gym locker code?", "8033 — "),
])
def test_a_value_told_again_later_answers_in_place_of_the_first(maya, kept, told_later, question, answer):
    dm, _, _, uid = maya
    say(dm, kept)
    later(dm, uid)
    say(dm, told_later)
    later(dm, uid)
    turn = say(dm, question)
    assert turn.reply.startswith(answer), turn.reply


def test_a_name_asked_for_is_said_first(maya):
    dm, _, _, uid = maya
    say(dm, "Honestly I'm worn out, my husband Emeka says I work too hard and he's right.")
    later(dm, uid)
    turn = say(dm, "what's my husband's name?")
    assert turn.reply.startswith("Emeka — "), turn.reply


def test_a_question_without_my_about_something_told_is_answered(maya):
    dm, _, _, uid = maya
    write_scene(dm.layout, uid, "My daughter's piano recital is on Saturday the 3rd of May and I'm so nervous for her!",
                when=dm.clock.now(), seed=3)
    later(dm, uid)
    turn = say(dm, "When is the recital?")
    assert turn.is_recall and turn.reply.startswith("On Saturday the 3rd of May — "), turn.reply
    assert "That reminds me" not in turn.reply


def test_a_question_about_nadines_name_is_answered_as_one(maya):
    """Her knowledge held no section on her name, so the nearest one (privacy) was read out."""
    dm, _, _, _ = maya
    turn = say(dm, "Sorry, what was your name again?")
    assert "My name is Nadine" in turn.reply and "forgotten" not in turn.reply, turn.reply


def test_who_am_i_going_to_see_is_not_who_am_i(maya):
    dm, _, _, uid = maya
    dm.on_user_detected(UserDetected(user_name="Maya", confidence=90.0, user_id=uid))
    turn = say(dm, "Who am I going to see at the station?")
    assert "You're Maya" not in turn.reply, turn.reply


def test_the_model_prompt_says_facts_as_told_and_asks_for_the_answer_first():
    from common.messages import RecalledMemory, RecallReport
    from common.store import UserProfile
    from interaction.answer_span import answered
    from interaction.prompts import background
    from interaction.reply_inputs import ReplyInputs
    from interaction.turn_understanding import Emotion

    profile = UserProfile.model_validate({
        "user_id": "261201_0001", "user_name": "Ines", "current_position": "repair pianos", "location": "Bristol",
        "facts": {"current_position": [{"value": "repair pianos", "clause": "I repair pianos in Bristol"}],
                  "location": [{"value": "Bristol", "clause": "I repair pianos in Bristol", "home": False}]}})
    report = RecallReport(outcome="asserted", memories=[RecalledMemory(
        kind="explicit_memory", memory_id="m1", text="my piano tuner comes on Monday at nine",
        occurred_at="2026-11-30T10:00:00")])
    question = "When does my piano tuner come?"
    packet = background(ReplyInputs(
        text=question, intent="continue_conversation", is_recall=True, now=datetime(2026, 12, 1),
        language="en-US", user_emotion=Emotion(label="neutral", intensity=0.0), profile=profile, recall=report,
        own_life=True, answer=answered(question, report)))
    assert "you repair pianos in Bristol" in packet and "lives in Bristol" not in packet, packet
    assert '"on Monday the 7th at nine". Say the answer first' in packet, packet


def test_a_job_told_with_its_employer_ends_with_it(maya):
    """"I stopped working at Greggs, now I ..." (a comma splice the parser hangs on the second clause): the
    employer ends, and the job told with it ends too; the same employer said again ends nothing."""
    dm, _, _, _ = maya
    say(dm, "I'm a baker at Greggs.")
    say(dm, "I work at Greggs.")
    assert facts_of(dm) == {"current_position": "baker", "current_company": "Greggs"}
    turn = say(dm, "I stopped working at Greggs, now I look for something new.")
    assert facts_of(dm) == {}, facts_of(dm)
    assert "you no longer work at Greggs" in turn.reply, turn.reply


def test_a_recall_naming_no_topic_is_said_whole_never_a_time_read_off_it_first():
    """'Remember when we ...?' asks what happened then: the reply does not open with 'All night —'."""
    from common.messages import RecalledMemory, RecallReport
    from interaction.answer_span import answered

    said = RecalledMemory(kind="moment", memory_id="s1", occurred_at="2026-11-30T10:00:00",
                          text="Our dog swallowed a sock and needed emergency surgery, I was terrified all night.")
    question = "Remember when we went to the vet?"
    assert answered(question, RecallReport(outcome="asserted", memories=[said], decided_by="probability")) is not None
    assert answered(question, RecallReport(outcome="asserted", memories=[said], decided_by="memorable")) is None


def test_a_moment_of_this_conversation_reminds_of_nothing_on_an_ordinary_turn(maya):
    """What was said a minute ago is in the conversation already: "That reminds me — earlier today you
    told me <it>" repeats the person back to themselves. A moment of an earlier conversation still reminds."""
    dm, _, services, uid = maya
    told = "My allotment flooded again last night and every one of my leeks is ruined!"
    say(dm, told)
    write_scene(dm.layout, uid, told, when=dm.clock.now(), seed=4)  # as perception keeps it
    services.scene_index.on_scene_stored(uid)
    turn = say(dm, "The leeks at my allotment took me all summer to grow.")
    assert "That reminds me" not in turn.reply, turn.reply
    later(dm, uid)
    turn = say(dm, "The leeks at my allotment took me all summer to grow.")
    assert "That reminds me" in turn.reply and "leeks" in turn.reply, turn.reply


@pytest.mark.parametrize(("moment", "news", "first"), [
    ("I'm so worried, my dad has been told his kidneys are failing.",
     "Wonderful news today, my dad's kidneys are working properly again, I'm overjoyed!", "That's wonderful"),
    # news of a thing a moment kept as still to come: what it said may no longer hold
    ("I'm so excited, our street party is on the 7th and the whole road is coming!",
     "Our street party got postponed, the council wants the road open that weekend.", ""),
    # bad news, and a moment told calmly of what it is about: no reminder of it now (tester29 beatriz:
    # "my dog Mel died this morning" met with "... she's the love of your life")
    ("I've got a tortoise called Shelly and she's the love of my life.",
     "My tortoise Shelly died this morning. I'm heartbroken.", ""),
])
def test_news_of_what_a_moment_kept_is_met_as_news_not_with_the_moment(maya, moment, news, first):
    """An ordinary turn that recalls an earlier moment still answers what is said now: the joy of the
    news, and not the worry it settles ("That reminds me — you're so worried ..." answers the joy with
    the worry, as if the news were not heard); nor the plan it puts off ("That reminds me — ... on the
    7th" would say the old day back)."""
    dm, _, services, uid = maya
    write_scene(dm.layout, uid, moment, when=dm.clock.now(), seed=5)
    services.scene_index.on_scene_stored(uid)
    later(dm, uid)
    turn = say(dm, news)
    assert "That reminds me" not in turn.reply and turn.reply.startswith(first), turn.reply


def test_a_question_after_the_good_news_gets_the_good_news_only(maya):
    """"What good news did I share?" names no topic but a kind: the happy thing told, never the grief
    told beside it."""
    dm, _, _, uid = maya
    say(dm, "Our old tortoise Humphrey died this week and the children are devastated.")
    say(dm, "My brother is finally coming home from Australia, I can't wait!")
    later(dm, uid)
    good = say(dm, "What good news did I share with you?").reply
    assert "Australia" in good and "Humphrey" not in good, good
    sad = say(dm, "And what sad news did I tell you?").reply
    assert "Humphrey" in sad and "Australia" not in sad, sad


@pytest.mark.parametrize(("told", "question", "said"), [
    ("Please remember that my bike shed key is the one with the green tag.",
     "Did I tell you when the bike shed gets repainted?", "green tag"),
    # the one asked of named, and no one's name
    ("I was married for thirty-one years, my late husband was a fisherman.", "What's my husband's name?", "fisherman"),
])
def test_a_memory_holding_no_answer_of_what_is_asked_is_said_as_told_never_as_a_yes(maya, told, question, said):
    """"Did I tell you when ...?" over a memory of the same thing holding no time was answered "Yes —"."""
    dm, _, _, uid = maya
    say(dm, told)
    later(dm, uid)
    turn = say(dm, question)
    assert turn.reply.startswith("I don't think you told me that — ") and said in turn.reply, turn.reply


@pytest.mark.parametrize(("told", "question", "said"), [
    ("i have a hamster his name is nugget", "whats my hamster called", "nugget"),  # tester23 tom
    ("We got a tortoise last spring, the kids named him Sir Crawly.", "What's my tortoise called?", "Sir Crawly"),
])
def test_a_memory_saying_what_the_one_asked_of_is_called_is_never_denied(maya, told, question, said):
    """"whats my hamster called" over "i have a hamster his name is nugget" got "I don't think you told
    me that — ... his name is nugget": the name was told, though it was not read off the memory."""
    dm, _, _, uid = maya
    say(dm, told)
    later(dm, uid)
    turn = say(dm, question)
    assert "don't think" not in turn.reply and said in turn.reply, turn.reply


@pytest.mark.parametrize(("question", "offered", "holds_none"), [
    ("Did I tell you when the plot inspection is?", "my allotment plot number is 27B", True),
    ("Where does my cousin work?", "my cousin Ada just got engaged", True),
    ("When is the plot inspection?", "the plot inspection is on the 4th", False),
    ("What did I tell you about my plot?", "my allotment plot number is 27B", False),  # asks for no slot
])
def test_an_offer_holding_no_answer_of_what_is_asked_is_no_offer(question, offered, holds_none):
    from common.turn_notes import recall_note
    from interaction.answer_span import holds_no_answer

    report = RecallReport(outcome="offered", memories=[RecalledMemory(kind="explicit_memory", memory_id="m", text=offered)])
    assert holds_no_answer(question, report) is holds_none
    abstained = report.model_copy(update={"outcome": "abstained", "memories": [], "decided_by": "no_answer"})
    assert "holds no answer" in recall_note(abstained)[0]


@pytest.mark.parametrize(("told", "question", "answer"), [
    # asked in other words than told: the compound for what a preposition says it is for
    ("Please remember that the PIN for my bank card is 4620.", "What is my bank PIN?", "4620"),
    # an event asked of by its noun, its doer by name where the memory also calls them by kinship
    ("My granddaughter Amira is getting baptised on Sunday, the whole family is coming!", "When is Amira's baptism?",
     "Sunday"),
])
def test_a_thing_asked_in_other_words_than_told_is_answered_without_doubt(maya, told, question, answer):
    dm, _, _, uid = maya
    say(dm, told)
    later(dm, uid)
    turn = say(dm, question)
    assert turn.reply.split(" — ")[0].count(answer) == 1, turn.reply
    assert "don't think" not in turn.reply and "not sure" not in turn.reply, turn.reply


@pytest.mark.parametrize(("told", "question", "said"), [
    ("Please remember that my locker combination is written inside my blue diary.", "What's my locker combination?",
     "blue diary"),
    # a name beside the one asked of, which may be theirs
    ("I was married to Tobias for years, my husband always made the tea.", "What's my husband's name?", "Tobias"),
])
def test_a_memory_naming_what_is_asked_is_never_said_after_a_doubt(maya, told, question, said):
    """What was told of the very thing asked, with no value read off it, is said as told: "I don't
    think you told me that — you asked me to remember your locker combination ..." contradicts itself."""
    dm, _, _, uid = maya
    say(dm, told)
    later(dm, uid)
    turn = say(dm, question)
    assert said in turn.reply and "don't think" not in turn.reply, turn.reply


def test_an_earlier_turn_holding_nothing_of_what_is_asked_is_not_offered(maya):
    """A statement of this conversation naming someone the question names, but holding nothing of what
    it asks for, is no "do you mean ...?": the question is said to be unanswered."""
    dm, _, _, _ = maya
    say(dm, "I'm staying at my friend Ada's flat this week.")
    turn = say(dm, "What's Ada's wifi password?")
    assert "do you mean" not in turn.reply and "staying" not in turn.reply, turn.reply


@pytest.mark.parametrize(("moment", "said"), [
    ("I ran the London marathon last sunday, I'm so proud of myself", "I went for a run this morning, it felt great"),
])
def test_an_event_of_the_same_kind_reminds_of_nothing_on_an_ordinary_turn(maya, moment, said):
    """"I went for a run this morning, just 5k" a day after the Lisbon marathon was told got "That
    reminds me — ... you ran the Lisbon marathon" (tester46 s12): another event of the same kind, which
    only the moment's verb names, is not what the turn tells of."""
    dm, _, services, uid = maya
    write_scene(dm.layout, uid, moment, when=dm.clock.now(), seed=6)
    services.scene_index.on_scene_stored(uid)
    later(dm, uid)
    turn = say(dm, said)
    assert "That reminds me" not in turn.reply, turn.reply
