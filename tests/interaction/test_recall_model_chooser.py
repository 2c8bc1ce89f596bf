"""The recall decision asked of a configured model (interaction/memory/retrieval/model_chooser.py),
against the test-only OpenAI-compatible server: its answer is a number or "none", parsed and
checked; the offline decision stands in when it does not fit, fails, or the turn's budget is spent."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from common.config import load_settings
from interaction.agents.context import UNDERSTANDING, AgentDeps
from interaction.agents.memory_agents import RECALL_CHOOSER
from interaction.llm import LlmRegistry
from interaction.memory.retrieval.model_chooser import RECALL_CHOICE_SYSTEM, ModelChooser
from tests.interaction.fake_llm_server import FakeLlmServer


@dataclass
class Memory:
    quote: str
    probability: float
    conflict: bool = False


class Offline:
    """The stand-in for the calibrated decision: says which it would have given."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, query, shortlist, top_k):
        self.calls += 1
        return "offered", [0]


SHORTLIST = [Memory("My neighbour's dog barked all night again.", 0.7, conflict=True),
             Memory("Our dog Biscuit died last week.", 0.9)]


@pytest.fixture
def server():
    s = FakeLlmServer()
    yield s
    s.close()


def _chooser(server):
    settings = load_settings(environ={"NADINE_LLM_BASE_URL": server.url})
    deps = AgentDeps(settings, None, None, LlmRegistry(settings.interaction.llm, environ={}), None, None, None)
    deps.start_turn()
    offline = Offline()
    chooser = ModelChooser(lambda messages, schema: deps.ask_json(RECALL_CHOOSER, messages, schema, phase=UNDERSTANDING),
                           offline, lambda m: m.quote)
    return chooser, offline, deps


def test_the_model_names_a_memory_by_its_number_in_the_order_shown(server):
    chooser, offline, _ = _chooser(server)
    server.recall_answer = '{"answer": 1}'
    assert chooser.choose("What happened to my pet?", SHORTLIST, 3) == ("asserted", [1])  # most probable shown first
    sent = server.bodies("whether something a person told you answers")[-1]["messages"]
    assert sent[0]["content"] == RECALL_CHOICE_SYSTEM
    assert "1. Our dog Biscuit died last week.\n2. My neighbour's dog" in sent[1]["content"]
    assert "Their question: What happened to my pet?" in sent[1]["content"]
    assert offline.calls == 0


def test_none_abstains_and_a_conflicting_memory_is_only_asked_about(server):
    chooser, _, _ = _chooser(server)
    server.recall_answer = '{"answer": "none"}'
    assert chooser.choose("What did I say about my cat?", SHORTLIST, 3) == ("abstained", [])
    server.recall_answer = '```json\n{"answer": 2}\n```'
    assert chooser.choose("What did I say about my neighbour's cat?", SHORTLIST, 3) == ("offered", [0])


@pytest.mark.parametrize("answer", ["Your dog died, I think.", '{"answer": "the second"}', '{"answer": 7}'])
def test_free_text_or_a_number_not_shown_falls_back_to_the_offline_decision(server, answer):
    chooser, offline, _ = _chooser(server)
    server.recall_answer = answer
    assert chooser.choose("What happened to my pet?", SHORTLIST, 3) == ("offered", [0])
    assert offline.calls == 1


def test_a_failing_endpoint_or_a_spent_budget_falls_back_without_waiting(server):
    chooser, offline, deps = _chooser(server)
    server.fail = True
    assert chooser.choose("What happened to my pet?", SHORTLIST, 3) == ("offered", [0])
    assert deps.turn_offline and offline.calls == 1
    server.fail = False
    chooser, offline, deps = _chooser(server)
    deps.budget.seconds[UNDERSTANDING] = 0.0  # the turn's understanding calls used it all
    before = len(server.requests)
    assert chooser.choose("What happened to my pet?", SHORTLIST, 3) == ("offered", [0])
    assert len(server.requests) == before and offline.calls == 1


def test_no_candidate_asks_nothing(server):
    chooser, offline, _ = _chooser(server)
    assert chooser.choose("What happened to my pet?", [], 3) == ("abstained", [])
    assert not server.requests and offline.calls == 0
