"""What the speaker says they are is a job only when it names one: not a manner said in a condition
("if I'm being official"), a quality said of something ("hopeless at ..."), an appointment they have,
or who they are to someone else ("Priya's flatmate"). Sentences written for these tests."""

from __future__ import annotations

import pytest

RETIRED = {"current_position": ["retired postman"]}


def _read(sentence: str, current: dict):
    from interaction.agents.memory_agents import decide_facts
    from interaction.offline.extract import extract_profile

    update, changes, _ = decide_facts(sentence, extract_profile(sentence), current)
    return update.current_position, [c for c in changes if c.field == "current_position"]


@pytest.mark.parametrize(("sentence", "job"), [
    ("Nic, or Nicola if I'm being official, I'm a senior paramedic in Dundee.", "senior paramedic"),
    ("I'm Rowan, Priya's flatmate. I'm a welder.", "welder"),
    # a kin word says whose the speaker is, never their work ("I'll remember that you work as a mum of two")
    ("Hi Nadine! I'm Grace Kim, mum of two, I work part time as a pharmacist.", "pharmacist"),
])
def test_the_job_told_is_kept_not_the_words_beside_it(sentence, job):
    assert _read(sentence, {})[0] == job


@pytest.mark.parametrize("sentence", [
    "I'm hopeless at remembering birthdays.",
    "I have a dentist appointment on the 4th of March.",
    "I'm Kit, Dana's lodger.",
    # seeking a job is no job done: "you work as applying" replaced a photographer (tester64 s35)
    "I have a secret: I'm applying for a job in New York and my boss doesn't know",
])
def test_no_job_is_read_and_the_known_one_stays(sentence):
    position, changes = _read(sentence, RETIRED)
    assert position is None and changes == [], (position, changes)
