"""Fail fast (issue 15 item 1): turn budgets and the circuit breaker, against an endpoint that accepts
connections and never answers, in process and through `python -m interaction`."""

from __future__ import annotations

import logging
import time

import pytest

from common.config import load_settings
from common.config.interaction_settings import CircuitBreakerSettings
from interaction.llm import Deadline, LlmRegistry, LlmTimeout
from interaction.llm.breaker import CircuitBreaker
from interaction.llm.contracts import LlmCircuitOpen
from tests.interaction.dialogue_harness import Interaction
from tests.interaction.llm_servers import SilentServer

SLACK_S = 3.0  # scheduling on a loaded 2-core machine; the budgets below are what is asserted


@pytest.fixture
def silent():
    server = SilentServer()
    yield server
    server.close()


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_breaker_opens_on_consecutive_failures_or_one_timeout_and_probes_after_the_cooldown(caplog):
    clock = FakeClock()
    breaker = CircuitBreaker("http://x/v1", CircuitBreakerSettings(failures_to_open=3, timeouts_to_open=1,
                                                                    cooldown_s=30), clock)
    with caplog.at_level(logging.INFO, logger="nadine.interaction.llm"):
        breaker.failure(timeout=False)
        breaker.failure(timeout=False)
        breaker.success()  # not consecutive any more
        breaker.failure(timeout=False)
        breaker.failure(timeout=False)
        assert breaker.allow() and not breaker.is_open
        breaker.failure(timeout=False)
        assert breaker.is_open and not breaker.allow()
        clock.now = 29.0
        assert not breaker.allow()
        clock.now = 30.5
        assert breaker.allow() and not breaker.allow()  # one probe at a time
        breaker.failure(timeout=True)  # the probe failed: another cool-down
        assert not breaker.allow()
        clock.now = 61.0
        assert breaker.allow()
        breaker.success()
        assert not breaker.is_open and breaker.allow()
        breaker.failure(timeout=True)  # a single timeout opens it
        assert breaker.is_open
    opened = [r for r in caplog.records if "circuit open" in r.getMessage()]
    closed = [r for r in caplog.records if "circuit closed" in r.getMessage()]
    assert len(opened) == 2 and len(closed) == 1


def test_a_silent_endpoint_costs_one_budget_then_no_call_until_the_probe(silent):
    settings = load_settings(environ={}, overrides=[f"interaction.llm.base_url={silent.url}",
                                                   "interaction.llm.breaker.cooldown_s=1.0"]).interaction.llm
    model = LlmRegistry(settings, environ={}).for_agent("turn_understanding")
    began = time.monotonic()
    with pytest.raises(LlmTimeout):
        model.complete([{"role": "user", "content": "hi"}], deadline=Deadline(0.8))
    assert time.monotonic() - began < 0.8 + SLACK_S
    assert len(silent.connections) == 1  # no retry after the budget was spent
    with pytest.raises(LlmCircuitOpen):
        model.complete([{"role": "user", "content": "hi"}], deadline=Deadline(0.8))
    assert len(silent.connections) == 1
    time.sleep(1.2)
    with pytest.raises(LlmTimeout):  # the probe after the cool-down
        model.complete([{"role": "user", "content": "hi"}], deadline=Deadline(0.5))
    assert len(silent.connections) == 2


@pytest.mark.slow
def test_a_silent_endpoint_sends_the_first_turn_offline_at_its_budget_and_later_turns_without_a_call(
        broker, tmp_path, silent):
    """The first turn's one call ends at its understanding budget and the turn is answered as offline
    Nadine answers it; the circuit the timeout opened sends the later turns offline without a call.
    How long the first turn takes beside its budget is a benchmark's figure (scripts.bench.fail_fast):
    a loaded machine moves it, the behaviour here does not."""
    said = ("Hello, I'm Ines and I restore old boats in Porto.", "The weather has been lovely this week.",
            "What is my name?")
    # started one after the other from this thread: a child is stopped when the thread that started it ends
    offline = Interaction(broker, tmp_path / "offline", online_s=300.0)
    nadine = Interaction(broker, tmp_path / "silent", args=[
        "--config-override", "interaction.llm.budget.understanding_s=1.0",
        "--config-override", "interaction.llm.breaker.cooldown_s=600"], online_s=300.0, NADINE_LLM_BASE_URL=silent.url)
    try:
        expected = [offline.say(text, timeout=120.0).reply for text in said]
        first = nadine.say(said[0], timeout=120.0)
        assert first.extra["offline"] and first.reply == expected[0]
        assert len(silent.connections) == 1  # no retry once the budget was spent
        log = nadine.proc.log_text()
        assert "LLM for turn_understanding failed" in log and "no answer within" in log  # the budget ended it
        later = [nadine.say(text, timeout=120.0) for text in said[1:]]
        assert [t.reply for t in later] == expected[1:] and all(t.extra["offline"] for t in later)
        assert all(t.extra["llm_circuits_open"] for t in later)
        assert len(silent.connections) == 1  # the open circuit sends turns offline without a call
        assert later[-1].user_name == "Ines"  # the offline backends kept the turn's facts
        assert nadine.proc.log_text().count("circuit open") == 1
    finally:
        offline.stop()
        nadine.stop()
