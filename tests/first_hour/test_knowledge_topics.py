"""Issue 16 item 3 (knowledge half): questions about Nadine get their own topic's answer, a question
the knowledge cannot answer gets "I don't know" (threshold calibrated by scripts.eval.knowledge_relevance)."""

from __future__ import annotations

import pytest

from interaction.memory.knowledge import about_nadine
from interaction.memory.local_services import LocalMemoryServices
from interaction.offline.knowledge_rephrase import spoken_knowledge
from scripts.eval.knowledge_relevance import choose_threshold, load
from tests.interaction.memory_fixtures import layout_and_clock, make_settings


@pytest.fixture(scope="module")
def services(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("knowledge")
    layout, clock = layout_and_clock(tmp)
    return LocalMemoryServices(make_settings(tmp), layout, clock, bus=None)


@pytest.mark.parametrize(("question", "section"), [
    ("Who built you?", "Who created Nadine"),
    ("How old are you?", "How old Nadine is"),
    ("How does your memory work?", "How Nadine remembers"),
])
def test_each_question_gets_its_own_topic(services, question, section):
    answer = services.knowledge(question)
    assert answer is not None and answer.split("\n", 1)[0].endswith(section)


@pytest.mark.parametrize("question", ["What is the capital of Peru?", "How do I fix a flat tyre?", ""])
def test_what_the_knowledge_cannot_answer_is_not_answered(services, question):
    assert services.knowledge(question) is None


def test_the_spoken_answer_comes_from_the_best_chunk():
    knowledge = ("Nadine > How old Nadine is\nNadine's first version was built in 2013, so she has been around "
                 "since then. More.\n\nNadine\nNadine is a humanoid social robot.")
    assert spoken_knowledge(knowledge).startswith("My first version was built in 2013")
    assert about_nadine("Who built you? Tell me about yourself and your team") == \
        "Who built Nadine? Tell me about Nadine and Nadine's team"


def test_the_threshold_is_chosen_on_the_dev_split_only():
    rows = load()
    dev = [r for r in rows if r["split"] == "dev"]
    assert {r["split"] for r in rows} == {"dev", "test"} and any(r["section"] is None for r in dev)
    # two answerable questions scoring high, one unanswerable scoring low: the cut falls between
    rows3 = [{"section": "A"}, {"section": "A"}, {"section": None}]
    tops = [("A\nx", 0.8), ("A\nx", 0.6), ("B\ny", 0.2)]
    assert 0.2 < choose_threshold(rows3, tops) < 0.6
