"""What every agent node shares: settings, stores, memory services, the LLM registry, the affect state.

`ask` is the one way a node calls a model: when the configured endpoint fails, it logs one line and
the rest of that turn runs on the offline backends."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from common.clock import Clock
from common.config import NadineSettings
from common.store import DataLayout
from interaction.affect import AffectState
from interaction.llm import LlmError, LlmRegistry
from interaction.memory.contracts import MemoryServices
from interaction.profiles import ProfileKeeper
from interaction.search import WebSearch
from interaction.state import TurnState
from interaction.turn_understanding import TurnUnderstanding

log = logging.getLogger("nadine.interaction.agents")


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

    def start_turn(self) -> None:
        self.timings.clear()
        self.turn_offline = False

    def ask(self, agent: str, messages: list[dict[str, Any]], json_mode: bool | None = None) -> str | None:
        """The model's answer, or None when this agent is offline for this turn."""
        if self.turn_offline:
            return None
        model = self.llm.for_agent(agent)
        if model is None:
            return None
        try:
            return model.complete(messages, json_mode=json_mode)
        except LlmError as exc:
            self.fail(agent, exc)
            return None

    def fail(self, agent: str, exc: Exception) -> None:
        log.warning("LLM for %s failed (%s); this turn continues with the offline backend", agent, exc)
        self.turn_offline = True
