"""What every agent node shares: settings, stores, memory services, the LLM registry, the affect state.

`ask` / `ask_json` / `ask_spoken` (a streamed reply, handed on sentence by sentence) are the one way a
node calls a model. Each call runs inside the turn's budget for its phase (understanding, response,
episode). When the endpoint fails or times out, one line is logged and the rest of that turn runs on
the offline backends; when its circuit breaker is open no call is made at all; an answer that is
unusable (no valid JSON after one repair, nothing speakable) is replaced by the offline backend's for
that step only."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pydantic import BaseModel

from common.clock import Clock
from common.config import NadineSettings
from common.store import DataLayout
from interaction.affect import AffectState
from interaction.llm import ChatModel, LlmError, LlmRegistry, LlmSkipped, LlmUnusable, TurnBudget
from interaction.llm.contracts import LlmCircuitOpen
from interaction.llm.json_answer import repair_messages, validated
from interaction.llm.reply_text import ReplyCheck
from interaction.llm.sentences import spoken_sentences
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
    # called with each sentence of a streamed reply as soon as it may be spoken (the DM hands it to
    # control); None: replies are produced whole
    on_sentence: Callable[[TurnState, str], None] | None = None
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
        model = self._model(agent)
        if model is None:
            return None
        with self._offline_on_failure(agent):
            return model.complete(messages, json_mode=json_mode, stop=stop, deadline=self.budget.deadline(phase))
        return None

    def streams(self, agent: str) -> bool:
        """The agent's reply can be spoken while it is generated: its model streams and a sentence has
        somewhere to go."""
        model = self._model(agent)
        return model is not None and model.profile.stream and self.on_sentence is not None

    def ask_spoken(self, agent: str, messages: list[dict[str, Any]], check: ReplyCheck, state: TurnState, *,
                   phase: str = RESPONSE, stop: list[str] | None = None) -> list[str]:
        """A streamed reply: each sentence that passes `check` goes to `on_sentence` as soon as it is
        complete. The sentences handed on; a stream that fails part-way ends with those (the failure
        counts as in `ask`), and none at all means the offline backend answers."""
        model = self._model(agent)
        assert model is not None and self.on_sentence is not None, "ask_spoken without streams(agent)"
        spoken: list[str] = []
        with self._offline_on_failure(agent):
            for sentence in spoken_sentences(model.stream(messages, stop=stop, deadline=self.budget.deadline(phase)),
                                             check):
                spoken.append(sentence)
                self.on_sentence(state, sentence)
        return spoken

    def _model(self, agent: str) -> ChatModel | None:
        return None if self.turn_offline else self.llm.for_agent(agent)

    @contextmanager
    def _offline_on_failure(self, agent: str) -> Iterator[None]:
        """Whatever a model call raises ends in one log line: an outage sends the rest of the turn
        offline, a skipped or unusable answer only this step."""
        try:
            yield
        except LlmCircuitOpen:
            self.turn_offline = True  # the breaker logged when it opened; no line per turn
        except LlmSkipped as exc:
            log.info("LLM for %s skipped (%s); offline backend for this step", agent, exc)
        except LlmUnusable as exc:
            log.warning("LLM for %s answered nothing usable (%s); offline backend for this step", agent, exc)
        except LlmError as exc:
            self.fail(agent, exc)

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
