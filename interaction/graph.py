"""The LangGraph turn graph (one merged understand step, then the agents it plans):

    START -> understand -> memory_update_agent | memory_retrieve_agent -> tool agents by plan
          -> response_agent -> END
    A memory request (remember, forget one, forget me, what do you know about me) goes from
    understanding to memory_request_agent, which answers it, then ends the turn as response_agent.
The farewell's episodic save is no node: the dialogue manager runs it once the turn's reply and
TurnResult are out (interaction/dialogue.py), so nobody waits for it.

The reference's legacy wiring (intention_classifier / affective_appraisal / orchestrator) is not built:
here those three roles are one understanding call, so its extra nodes could only pass the state on,
and the reference's affective_update is a pass-through in both wirings; the affect is updated where
the understanding is made.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from langgraph.graph import END, START, StateGraph

from interaction import memory_requests
from interaction.agents import memory_agents, tools
from interaction.agents.context import AgentDeps
from interaction.agents.response import respond
from interaction.agents.understand_agent import understand
from interaction.state import TurnState
from interaction.turn_understanding import TOOL_AGENTS

Node = Callable[[TurnState], dict[str, Any]]


class TurnGraph:
    def __init__(self, deps: AgentDeps) -> None:
        self.deps = deps
        self._graph = self._build().compile()

    def run(self, state: TurnState, on_reply: Callable[[TurnState], None]) -> TurnState:
        """Run one turn; `on_reply(state)` fires as soon as the reply text exists, before what follows
        it, so speech never waits for it."""
        final: TurnState = state
        replied = False
        for final in self._graph.stream(state, stream_mode="values"):
            if not replied and final.get("final_message") is not None:
                replied = True
                on_reply(final)
        return final

    # --- nodes -----------------------------------------------------------------------------------

    def _timed(self, name: str, fn: Node) -> Node:
        def node(state: TurnState) -> dict[str, Any]:
            start = time.perf_counter()
            try:
                return fn(state)
            finally:
                self.deps.timings[name] = self.deps.timings.get(name, 0.0) + time.perf_counter() - start
        return node

    def _understood(self, state: TurnState) -> dict[str, Any]:
        u = understand(self.deps, state)
        self.deps.affect.update(u.emotion)  # the reference's affective appraisal, from the same call
        update = {"understanding": u, "intent": u.intent, "is_recall": u.is_recall, "plan_steps": u.plan,
                  "memory_intent": u.memory_intent, "language": u.language or state.get("language")}
        update.update(memory_agents.correction_of(self.deps, state, u) or memory_agents.kept_value_changed(self.deps, state, u))
        if update["memory_intent"] == "statement" and memory_requests.answers_what_to_keep(state):
            update["memory_intent"] = "remember"  # the something a remember request announced, told now
        if memory_requests.takes_back_nothing({**state, **update}):
            update["memory_intent"] = "statement"  # "scratch that" with nothing said before it
        if update.get("correction") is not None:
            update["intent"] = "update_user_info"  # the corrected statement is read for profile facts
            update["memory_intent"] = "statement"  # a value put right asks nothing of memory
        update["named_with_request"] = update["memory_intent"] in memory_requests.MEMORY_REQUESTS \
            and memory_agents.names_a_stranger(self.deps, {**state, **update})
        if self._after_understanding({**state, **update}) != "memory_update_agent":
            self.deps.on_understood(state, u)  # else once the profile update knows who is speaking
        return update

    def _memory_update(self, state: TurnState) -> dict[str, Any]:
        update = memory_agents.update_profile(self.deps, state)
        self.deps.on_understood({**state, **update}, state["understanding"])
        return update

    def _nodes(self) -> dict[str, Node]:
        d = self.deps
        return {
            "understand": self._understood,
            "memory_update_agent": self._memory_update,
            "memory_retrieve_agent": lambda s: memory_agents.retrieval_step(d, s),
            "memory_request_agent": lambda s: memory_requests.handle(d, s),
            "search_agent": lambda s: tools.search(d, s),
            "vision_agent": lambda s: tools.vision(d, s),
            "knowledge_rag_agent": lambda s: tools.knowledge(d, s),
            "response_agent": lambda s: {**respond(d, s), "plan_steps": []},
        }

    # --- routing ---------------------------------------------------------------------------------

    def _after_understanding(self, state: TurnState) -> str:
        if (state.get("memory_intent") in memory_requests.MEMORY_REQUESTS and state["intent"] != "end_conversation"
                and not state.get("name_confirmation") and not memory_agents.gives_another_name(self.deps, state)
                and not state.get("named_with_request")):
            return "memory_request_agent"  # remember / forget one / forget me / what do you know about me
        return "memory_update_agent" if state["intent"] == "update_user_info" else "memory_retrieve_agent"

    @staticmethod
    def _after_memory_update(state: TurnState) -> str:
        if state["intent"] == "end_conversation":
            return END
        if state.get("name_confirmation"):
            return "response_agent"
        if state.get("named_with_request") and state["identity"].known:
            # "Hi, I'm Lucy, please remember my locker is 12": who she is settled, the request is hers
            return "memory_request_agent"
        return "memory_retrieve_agent"

    @staticmethod
    def _route_by_plan(state: TurnState) -> str:
        if state.get("name_confirmation"):
            return "response_agent"
        for step in state.get("plan_steps") or []:
            if step.agent in TOOL_AGENTS:
                return step.agent
        return "response_agent"

    def _build(self) -> StateGraph:
        graph = StateGraph(TurnState)
        for name, fn in self._nodes().items():
            graph.add_node(name, self._timed(name, fn))
        graph.add_edge(START, "understand")
        graph.add_conditional_edges("understand", self._after_understanding)
        graph.add_conditional_edges("memory_update_agent", self._after_memory_update)
        graph.add_conditional_edges("memory_retrieve_agent", self._route_by_plan)
        for tool in TOOL_AGENTS:
            graph.add_conditional_edges(tool, self._route_by_plan)
        graph.add_edge("response_agent", END)
        graph.add_edge("memory_request_agent", END)
        return graph
