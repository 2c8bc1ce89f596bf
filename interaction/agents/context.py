"""What every agent node shares: settings, stores, memory services, the LLM registry, the affect state.

`ask` / `ask_json` are the one way a node calls a model. Each call runs inside the turn's budget for its
phase (understanding, response, episode). When the endpoint fails or times out, one line is logged and
the rest of that turn runs on the offline backends; when its circuit breaker is open no call is made
at all; an answer that is unusable (no valid JSON after one repair, nothing speakable) is replaced by
the offline backend's for that step only."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from common.clock import Clock
from common.config import NadineSettings
from common.store import DataLayout
from interaction.affect import AffectState
from interaction.llm import LlmError, LlmRegistry, LlmSkipped, LlmUnusable, TurnBudget
from interaction.llm.contracts import LlmCircuitOpen
from interaction.llm.json_answer import repair_messages, validated
from interaction.memory.contracts import MemoryServices
from interaction.profiles import ProfileKeeper
from interaction.search import WebSearch
from interaction.state import TurnState
from interaction.turn_understanding import TurnUnderstanding

log = logging.getLogger("nadine.interaction.agents")

T = TypeVar("T", bound=BaseModel)
UNDERSTANDING, RESPONSE, EPISODE = "understanding", "response", "episode"


@dataclass
class AgentDeps:
    settings: NadineSettings
    layout: DataLayout
    clock: Clock
    llm: LlmRegistry
    keeper: ProfileKeeper
    services: MemoryServices | None
    search: WebSearch
    affect: AffectState = field(default_factory=AffectState)
    # called right after understanding (the DM publishes AFFECT_STATE from it)
    on_understood: Callable[[TurnState, TurnUnderstanding], None] = lambda state, u: None
    timings: dict[str, float] = field(default_factory=dict)
    turn_offline: bool = False  # set for the rest of a turn after an endpoint failure
    budget: TurnBudget = field(init=False)

    def __post_init__(self) -> None:
        b = self.settings.interaction.llm.budget
        self.budget = TurnBudget({UNDERSTANDING: b.understanding_s, RESPONSE: b.response_s, EPISODE: b.episode_s})

    def start_turn(self) -> None:
        self.timings.clear()
        self.turn_offline = False
        self.budget.reset()

    def ask(self, agent: str, messages: list[dict[str, Any]], json_mode: bool | None = None, *,
            phase: str = UNDERSTANDING, stop: list[str] | None = None) -> str | None:
        """The model's answer, or None when this agent is offline for this step."""
        if self.turn_offline:
            return None
        model = self.llm.for_agent(agent)
        if model is None:
            return None
        try:
            return model.complete(messages, json_mode=json_mode, stop=stop, deadline=self.budget.deadline(phase))
        except LlmCircuitOpen:
            self.turn_offline = True  # the breaker logged when it opened; no line per turn
        except LlmSkipped as exc:
            log.info("LLM for %s skipped (%s); offline backend for this step", agent, exc)
        except LlmUnusable as exc:
            log.warning("LLM for %s answered nothing usable (%s); offline backend for this step", agent, exc)
        except LlmError as exc:
            self.fail(agent, exc)
        return None

    def ask_json(self, agent: str, messages: list[dict[str, Any]], schema: type[T],
                 prepare: Callable[[dict[str, Any]], dict[str, Any]] | None = None, *,
                 phase: str = UNDERSTANDING) -> T | None:
        """The answer validated as `schema` (one repair request when it does not fit), or None."""
        answer = self.ask(agent, messages, json_mode=True, phase=phase)
        if answer is None:
            return None
        try:
            return validated(answer, schema, prepare)
        except LlmUnusable as exc:
            repaired = self.ask(agent, repair_messages(messages, answer, exc), json_mode=True, phase=phase)
            try:
                return validated(repaired, schema, prepare) if repaired is not None else None
            except LlmUnusable as again:
                log.warning("LLM for %s: no valid %s after one repair (%s); offline backend for this step",
                            agent, schema.__name__, str(again)[:200])
                return None

    def fail(self, agent: str, exc: Exception) -> None:
        log.warning("LLM for %s failed (%s); this turn continues with the offline backend", agent, exc)
        self.turn_offline = True
