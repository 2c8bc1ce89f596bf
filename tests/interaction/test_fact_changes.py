"""Profile facts with history: supersede / close through the real dialogue, old files load unchanged,
and the fact-change models beat a floor on the held-out test split (figures: scripts.eval.fact_changes)."""

from __future__ import annotations

import json

from common.clock import Clock
from common.config import load_settings
from common.messages import UserInput
from common.store import DataLayout, ProfileStore, atomic
from common.store.facts import FactChange
from common.store.profiles import apply_changes
from interaction.dialogue import DialogueManager
from interaction.offline.fact_changes import FactChangeModel, decide, default_model, load_examples, warm_up
from interaction.offline.grounding import default_grounding
from interaction.prompts import background
from tests.interaction import test_memory_requests
from tests.interaction.test_dialogue_inprocess import Outbox
from tests.interaction.test_memory_requests import say as say_to_maya
from tests.interaction.test_returning_by_name import first_visit, people, say

maya = test_memory_requests.maya  # Maya, known by face, with real memory services

LEGACY = {"user_id": "250101_0001", "user_name": "Maya", "current_company": "CERN", "current_position": None,
          "location": "Paris", "hobbies": ["tennis", "chess"], "interests": [], "face_image_path": None,
          "last_updated": "2025-01-01T10:00:00", "lab_note": "kept"}


def _dm(tmp_path):
    settings = load_settings(environ={"NADINE_DATA_DIR": str(tmp_path)})
    layout = DataLayout(tmp_path)
    return DialogueManager(settings, layout, Clock(layout.runtime_dir), Outbox(), environ={}), layout


def test_moves_jobs_and_hobbies_keep_their_history(tmp_path):
    dm, layout = _dm(tmp_path)
    say = [dm.process_input(UserInput(text=x, turn_id=f"t{i}")) for i, x in enumerate([
        "Hello, my name is Maya.", "I live in Paris.", "I play tennis.", "I work at CERN.",
        "I relocated to Lyon last month.", "I don't play tennis any more.", "I started a new job at Spotify.",
        "Where did I live before?", "Where did I work before?", "Where do I live?",
    ])]
    uid = say[0].user_id
    profile = ProfileStore(layout).load(uid)
    assert profile.location == "Lyon" and profile.current_company == "Spotify" and "tennis" not in profile.hobbies
    paris, lyon = profile.history("location")
    assert (paris.value, paris.ended, lyon.value, lyon.valid_to) == ("Paris", "superseded", "Lyon", None)
    assert paris.valid_to == lyon.valid_from and lyon.source.turn_id == "t4"
    tennis = profile.history("hobbies")[0]
    assert tennis.value == "tennis" and tennis.ended == "closed" and tennis.source.turn_id == "t2"
    assert "no longer" in say[5].reply.lower() or "given up" in say[5].reply.lower()
    assert "Paris" in say[7].reply and "Lyon" in say[7].reply
    assert "CERN" in say[8].reply and "Spotify" in say[8].reply
    assert "Lyon" in say[9].reply and "Paris" not in say[9].reply
    # old tools read the plain current values beside the history
    raw = json.loads(layout.user_info_file(uid).read_text())
    assert raw["location"] == "Lyon" and raw["current_company"] == "Spotify" and raw["hobbies"] == []


def test_a_legacy_user_info_loads_unchanged_and_the_prompt_gets_the_old_value(tmp_path):
    layout = DataLayout(tmp_path)
    path = layout.user_info_file(LEGACY["user_id"])
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(LEGACY))
    store = ProfileStore(layout)
    profile = store.load(LEGACY["user_id"])
    assert profile.location == "Paris" and profile.hobbies == ["tennis", "chess"] and profile.lab_note == "kept"
    assert [r.source.via for r in profile.history("hobbies")] == ["legacy", "legacy"]
    from datetime import datetime

    updated, applied = store.apply(LEGACY["user_id"], [FactChange(field="location", op="supersede", value="Lyon")],
                                   datetime(2026, 3, 1, 9, 0))
    assert applied and updated.location == "Lyon"
    raw = json.loads(path.read_text())
    assert raw["lab_note"] == "kept" and raw["location"] == "Lyon" and raw["hobbies"] == ["tennis", "chess"]
    # an old tool edits the plain value by hand: taken as the newest statement, history kept
    raw["location"] = "Rome"
    path.write_text(json.dumps(raw))
    again = store.load(LEGACY["user_id"])
    assert [r.value for r in again.history("location")] == ["Paris", "Lyon", "Rome"] and again.location == "Rome"
    from interaction.reply_inputs import ReplyInputs
    from interaction.turn_understanding import Emotion

    packet = background(ReplyInputs(text="hi", intent="continue_conversation", is_recall=False,
                                    now=datetime(2026, 3, 2), language="en-US",
                                    user_emotion=Emotion(label="neutral", intensity=0.0), profile=again))
    assert "you live in Rome" in packet and "Before: lives in Lyon" in packet


def test_a_close_only_ends_a_fact_the_person_holds():
    current = {"current_company": ["Google"], "hobbies": ["tennis"]}
    assert decide("I left IBM.", {}, current) == []  # not their current employer: nothing changes
    assert decide("My sister moved to Madrid.", {}, current) == []
    closed = decide("I quit my job.", {}, current)
    assert [(c.field, c.op) for c in closed] == [("current_company", "close")]
    profile, applied = apply_changes(
        __import__("common.store.profiles", fromlist=["UserProfile"]).UserProfile(user_id="x", current_company="Google"),
        closed, __import__("datetime").datetime(2026, 1, 1))
    assert profile.current_company is None and applied[0].value == "Google"


def test_something_new_that_is_lost_or_left_ends_no_fact():
    """A firefighter's "we lost a house" is a house, not their home: a close that names no value ends
    the current one only when what it speaks of is not brought in as new."""
    current = {"location": ["Duluth"], "current_position": ["paramedic"]}
    assert decide("Tough shift yesterday, we lost a house but everyone got out.", {}, current) == []
    assert decide("Busy shift, we lost a house but everyone is fine.", {}, current) == []
    # nor does a clause that is not the speaker's ("the market was busy" ended a job at Google)
    assert decide("The market was busy, I bought cherries and bread. It was 12 degrees.", {},
                  {"current_company": ["Google"]}) == []
    assert [(c.field, c.op) for c in decide("We sold our flat and left Duluth.", {}, current)][:1] == [("location", "close")]


def test_being_back_is_a_return_never_the_end_of_a_home():
    """Being back in a place is living there again, and back from one is a trip ended: the sentences'
    embeddings sit near those of leaving (the model closes "I'm back in Tallinn"), the parse reads a
    return; moving away still ends the home."""
    current = {"location": ["Tallinn"]}
    changes = [(c.field, c.op, c.value) for c in decide("we are back in Narva these days", {}, current)]
    assert changes == [("location", "supersede", "Narva")]
    assert [(c.field, c.op, c.value) for c in decide("I'm back in Tartu now.", {}, {})] == [("location", "set", "Tartu")]
    for text in ("I am back in Tallinn.", "I'm back from Vienna.", "I was back in Tallinn for a wedding."):
        assert not [c for c in decide(text, {}, current) if c.op == "close"], text
    assert decide("I'm back home now.", {}, {**current, "current_company": ["Arup"]}) == []
    assert [(c.field, c.op, c.value) for c in decide("I moved away from Tallinn.", {}, current)] == [
        ("location", "close", "Tallinn")]


def test_a_return_told_in_a_later_session_supersedes_the_home(tmp_path):
    talk, layout = _dm(tmp_path)
    first_visit(talk, "Hello, I'm Ilse.", "I live in Ghent.")
    say(talk, "Hello, I'm Ilse.")
    say(talk, "We're back in Tallinn.")
    assert "Tallinn" in say(talk, "where do I live?").reply
    say(talk, "I'm back from Lisbon, what a trip.")
    (uid,) = people(talk)
    history = [(r.value, r.ended) for r in ProfileStore(layout).load(uid).history("location")]
    assert history == [("Ghent", "superseded"), ("Tallinn", None)]


def test_a_value_whose_field_is_unsure_is_not_filed():
    """A pet's name said with "called" is no employer: the model sets it at 0.68 but into a field it
    is unsure of (0.38), and the extraction names no field for it."""
    assert decide("I have a cocker spaniel called Biscuit.", {}, {}) == []
    assert [(c.field, c.value) for c in decide("I work for a firm called Arup.", {}, {})] == [("current_company", "Arup")]


def test_held_out_accuracy_floor():
    model = default_model()
    test = [e for e in load_examples() if e.split == "test"]
    correct = sum(model.predict(e.text).op == e.op for e in test)
    assert correct / len(test) >= 0.75  # measured 0.87 (scripts.eval.fact_changes); chance is 0.25


def test_a_turn_that_states_facts_writes_the_profile_once(tmp_path, monkeypatch):
    dm, layout = _dm(tmp_path)
    uid = dm.process_input(UserInput(text="Hello, my name is Maya.", turn_id="t0")).user_id
    written = []
    write = atomic.atomic_write_bytes
    monkeypatch.setattr(atomic, "atomic_write_bytes", lambda path, data: written.append(path) or write(path, data))
    dm.process_input(UserInput(text="I work at CERN and I live in Paris.", turn_id="t1"))
    profile = ProfileStore(layout).load(uid)
    assert profile.current_company == "CERN" and profile.location == "Paris"
    assert written.count(layout.user_info_file(uid)) == 1


def test_the_clauses_of_a_turn_are_embedded_in_one_model_run():
    shipped = default_model()
    runs = []

    class Counted:
        name = shipped.embedder.name

        def embed(self, texts):
            runs.append(list(texts))
            return shipped.embedder.embed(texts)

    counted = FactChangeModel.load(Counted())
    text = "I left the bank and joined a startup. I moved to Oslo and I sold my car."
    assert decide(text, {}, {}, counted) == decide(text, {}, {}, shipped)
    assert len(runs) == 1 and len(runs[0]) == 4
    clauses = runs[0]
    assert counted.predict_each(clauses) == [shipped.predict(c) for c in clauses]


def test_the_warm_up_also_builds_the_fact_grounding():
    default_grounding.cache_clear()
    warm_up().join()
    assert default_grounding.cache_info().currsize == 1


def test_a_workplace_named_by_its_kind_is_where_they_work():
    """A particular place of work named by what is done there ("the corner bakery") is an employer by
    its WordNet kind, read off the object of "work at"; a kind alone, a time, a thing or a bare setting
    is none."""
    from interaction.offline.extract import extract_profile

    for text, workplace in (("I work at the animal hospital near the station.", "animal hospital"),
                            ("i work at the corner bakery in town", "corner bakery"),
                            ("I'm a receptionist at the community library.", "community library")):
        assert extract_profile(text).current_company == workplace, text
    for text in ("I work at home most days.", "I work at my desk all day.", "I work at the weekend shift.",
                 "I work at a hospital."):
        assert extract_profile(text).current_company is None, text


def test_a_workplace_ended_in_one_breath_with_another_is_superseded_by_it():
    """"I left X, I'm at Y now": being at a workplace right after ending one is the new workplace,
    not a home (the clause alone reads as a move), in lower case too."""
    current = {"current_company": ["city library"]}
    for text in ("I left the city library, I'm at the city museum now.",
                 "i quit the city library, im at the city museum now"):
        changes = sorted((c.field, c.op, c.value) for c in decide(text, {}, current))
        assert changes == [("current_company", "close", "city library"),
                           ("current_company", "supersede", "city museum")], text
    # with no workplace ended, being somewhere is where they are this minute: no employer
    assert not [c for c in decide("I'm at the city museum now.", {}, {}) if c.field == "current_company"]


def test_a_change_of_workplace_is_taken_in_and_answered(tmp_path):
    talk, layout = _dm(tmp_path)
    first_visit(talk, "Hello, I'm Odile.", "I work at the flower market on Quay Road.")
    say(talk, "Hello, I'm Odile.")
    reply = say(talk, "I left the flower market, I'm at the county hospital now.").reply
    assert reply.startswith("So you're at the county hospital now"), reply
    assert "county hospital" in say(talk, "Where do I work?").reply
    (uid,) = people(talk)
    profile = ProfileStore(layout).load(uid)
    assert [(r.value, r.ended) for r in profile.history("current_company")] == [
        ("flower market", "superseded"), ("county hospital", None)]
    assert not profile.history("location")


def test_a_job_left_and_another_taken_up_in_one_breath_keeps_the_new_one(tmp_path):
    # only the words that name what was left are not new: the job told in the same breath is, as the
    # reply already said
    talk, layout = _dm(tmp_path)
    first_visit(talk, "Hi, it's Saoirse.", "I'm a secondary school teacher in Hull.")
    say(talk, "Hi, it's Saoirse.")
    told = say(talk, "So, loads has happened: I quit teaching and moved to Perth, where I'm now working as a "
                     "waiter while I work out what's next.").reply
    assert "waiter" in told and "no longer work as a secondary school teacher" in told, told
    reply = say(talk, "What's my job now?").reply
    assert "waiter" in reply and "haven't told me" not in reply, reply
    (uid,) = people(talk)
    history = ProfileStore(layout).load(uid).history("current_position")
    assert [r.value for r in history] == ["secondary school teacher", "waiter"] and history[0].ended and not history[1].ended


def test_a_clause_said_within_another_of_the_same_breath_is_said_back_once(tmp_path):
    talk, _ = _dm(tmp_path)
    first_visit(talk, "Hi, it's Saoirse.", "I'm a nurse in Galway.")
    say(talk, "Hi, it's Saoirse.")
    reply = say(talk, "So, big change: I quit nursing and moved to Cork, where I'm now working as a florist "
                      "while I think about what's next.").reply
    assert reply.count("florist") == 1, reply


def test_a_workplace_said_by_its_kind_is_kept_whole_and_said_back_with_its_article(tmp_path):
    # the tagger's span may stop inside a noun phrase ("a sorting" of "a sorting office"): the value is
    # the whole phrase, and said back as it was said
    talk, layout = _dm(tmp_path)
    first_visit(talk, "Hi, I'm Tadhg.", "I work at a sorting office, it's exhausting.")
    say(talk, "Hi, I'm Tadhg.")
    reply = say(talk, "I got a new job, I'm a postman now.").reply
    assert "no longer work at a sorting office" in reply, reply
    (uid,) = people(talk)
    assert [r.value for r in ProfileStore(layout).load(uid).history("current_company")] == ["sorting office"]


def test_work_ended_where_no_workplace_was_named_ends_the_job_held(maya):
    # the model reads a lay-off as the end of a workplace; a pharmacist who named none still lost the job
    dm, _, _, uid = maya
    say_to_maya(dm, "I'm a pharmacist in Derby.")
    say_to_maya(dm, "Rough week, I've been made redundant.")
    reply = say_to_maya(dm, "Am I still a pharmacist?").reply
    assert reply.startswith("Not any more"), reply
    profile = ProfileStore(dm.layout).load(uid)
    assert [r.ended for r in profile.history("current_position")] == ["closed"]
    assert not profile.history("location")[0].ended  # the town is not the job


def test_leaving_a_workplace_not_held_ends_no_job():
    current = {"current_position": ["cashier"]}
    assert not [c for c in decide("I left Tesco.", {}, current) if c.op == "close"]
