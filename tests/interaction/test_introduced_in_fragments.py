"""Someone new who introduces themselves without a verb ("Kemal here, 45, taxi driver in Bristol."),
as people do on the phone or in a chat: what is said in apposition to their own name is what they are,
kept as their facts and said back; another name with something said beside it is no fact of theirs.
In process, offline, real memory services; the sentences are new."""

from __future__ import annotations

import pytest

from common.store import ProfileStore
from interaction.offline.extract import extract_profile
from tests.interaction.test_returning_by_name import dm, say  # noqa: F401 - the fixture

__all__ = ["dm"]


def _held(dm, field: str):  # noqa: F811
    store = ProfileStore(dm.layout)
    (uid,) = store.user_ids()
    return getattr(store.load(uid), field)


@pytest.mark.parametrize(("text", "name", "position"), [
    ("Kemal here, 45, taxi driver in Bristol.", "Kemal", "taxi driver"),
    ("Otto Brandt here, retired plumber, 71.", "Otto Brandt", "retired plumber"),
    ("Hi, Priya Nair here, paediatric nurse, from Leicester.", "Priya Nair", "paediatric nurse"),
    ("My name is Ines Duarte, primary school teacher in Porto.", "Ines Duarte", "primary school teacher"),
])
def test_what_is_said_beside_ones_own_name_is_what_one_is(text, name, position):
    read = extract_profile(text, loose_names=True)
    assert (read.user_name, read.current_position) == (name, position)


@pytest.mark.parametrize("text", [
    "Kemal, terrible night.",  # said to someone, by name: no introduction
    "Lovely evening, Kemal, long day at the depot.",
])
def test_what_is_said_beside_someone_elses_name_is_no_fact_of_theirs(text):
    read = extract_profile(text, loose_names=False)
    assert read.current_position is None, read


def test_a_verbless_introduction_is_kept_and_said_back(dm):  # noqa: F811
    first = say(dm, "Kemal here, 45, taxi driver in Bristol.")
    assert "Kemal" in first.reply and "taxi driver" in first.reply, first.reply
    assert _held(dm, "current_position") == "taxi driver"
    assert _held(dm, "location") == "Bristol"
    assert _held(dm, "age") == "45"
    assert "taxi driver" in say(dm, "What do you know about me?").reply


@pytest.mark.parametrize("turns", [
    ["¿cómo estás?"],  # a question opening the conversation (tester25 carmen: "Nice to meet you, Cómo!")
    ["Hello there.", "¿dónde trabajo?"],  # a question back to "What's your name?"
])
def test_a_question_is_no_name(dm, turns):  # noqa: F811
    for text in turns:
        reply = say(dm, text).reply
    assert "Cómo" not in reply and "Dónde" not in reply, reply
    assert not ProfileStore(dm.layout).user_ids()


def test_a_name_said_unsure_is_still_a_name(dm):  # noqa: F811
    say(dm, "Hello there.")
    assert "Siobhan" in say(dm, "Siobhan?").reply


def test_what_is_said_beside_a_name_asked_about_goes_with_the_yes(dm):  # noqa: F811
    """"Nadia, 34, vet nurse from Cork." is asked about ("is your name Nadia?"); once she says yes, her
    job is kept with her age and where she is from (tester25 nadia: only the age and the town were)."""
    asked = say(dm, "Oyelaran, 52, ferry mechanic in Portsmouth.").reply
    assert "Oyelaran" in asked, asked
    say(dm, "yes")
    assert _held(dm, "current_position") == "ferry mechanic"
    assert "ferry mechanic" in say(dm, "What do you know about me?").reply


def test_a_people_s_adjective_is_no_job_and_leaves_the_job_said_after_it():
    """"I'm Portuguese and I work as a translator in Lyon" kept nothing but the name (tester25 ines):
    "Portuguese" was taken for the position, found no job, and the translator after it was lost."""
    read = extract_profile("Hello, I'm Lukas, I'm Austrian and I work as a piano tuner in Graz.", loose_names=True)
    assert read.current_position == "piano tuner", read


@pytest.mark.parametrize(("text", "position", "age"), [
    # a name the tagger does not know it tags a noun; the same words with "Brian" were kept (tester27 tomasz)
    ("Tomasz here, 52, electrician in York.", "electrician", "52"),
    ("Wojciech here, 38, joiner in Gdansk.", "joiner", "38"),
    # the name hung on the greeting that opens the fragment: only my play's words reproduced it
    ("Hiya, Radoslaw here, 47, bus driver in Hull.", "bus driver", "47"),
])
def test_a_name_the_tagger_calls_a_noun_is_introduced_with_what_is_said_beside_it(dm, text, position, age):  # noqa: F811
    say(dm, text)
    assert (_held(dm, "current_position"), _held(dm, "age")) == (position, age)


def test_the_town_of_a_job_told_without_a_verb_ends_with_it(dm):  # noqa: F811
    """"Hiya, Radoslaw here, 47, bus driver in Hull." then "I quit my job at the bus depot yesterday!":
    "Where do I work?" got "You work in Hull." (my play); the town and the job were told in one turn
    with no clause to tie them."""
    say(dm, "Piotr here, 39, welder in Gdynia.")
    say(dm, "I quit my job at the shipyard yesterday!")
    assert say(dm, "Where do I work?").reply.startswith("You haven't told me")


@pytest.mark.parametrize(("introduced", "said"), [
    # "Hi, I'm Lucy, a nurse in Derby." was kept as "you're Lucy, a nurse in Derby" (my play): a place
    # within what is said beside the name is said back in its field's words too
    ("Hello, I'm Ingrid, a midwife in Tromsø.", "you're a midwife in Tromsø"),
    ("Morning! Kwame here, a teacher in Kumasi.", "you work as a teacher in Kumasi"),
    # ... in the clause without the name, so what is no job stays no job ("hi, I'm Lotte, a master's student
    # in Groningen" was kept as "you work in Groningen": replay32)
    ("Hi, I'm Sanne, a PhD student in Utrecht.", "you're a PhD student in Utrecht"),
])
def test_a_job_and_its_town_said_beside_the_name_are_said_back_without_it(dm, introduced, said):  # noqa: F811
    first = say(dm, introduced).reply
    assert said in first, first
    about = say(dm, "What do you know about me?").reply
    assert said in about and not any(f"you're {n}," in about for n in ("Ingrid", "Kwame", "Sanne")), about
