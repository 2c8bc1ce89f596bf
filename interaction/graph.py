"""The LangGraph turn graph (reference §4.4), merged ([P], default) or legacy wiring.

merged:  START -> understand -> memory_update_agent | memory_retrieve_agent -> tool agents by plan
         -> response_agent -> affective_update -> (end_conversation: memory_update_agent) -> END
         A memory request (remember, forget one, forget me, what do you know about me) goes from
         understanding to memory_request_agent, which answers it, then to affective_update.
legacy:  the same agents behind intention_classifier / affective_appraisal / orchestrator nodes; all
         three reuse the one understanding call, so legacy differs in topology only.
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
from interaction.memory.contracts import TranscriptTurn
from interaction.state import TurnState
from interaction.turn_understanding import TOOL_AGENTS

Node = Callable[[dict], dict]


class TurnGraph:
    def __init__(self, deps: AgentDeps, mode: str = "merged") -> None:
        self.deps = deps
        self.mode = mode
        self._graph = (self._merged() if mode == "merged" else self._legacy()).compile()

    def run(self, state: dict, on_reply: Callable[[dict], None]) -> dict[str, Any]:
        """Run one turn; `on_reply(state)` fires as soon as the reply text exists, before what follows
        it (the farewell's episodic save), so speech never waits for memory writes."""
        final: dict[str, Any] = state
        replied = False
        for final in self._graph.stream(state, stream_mode="values"):
            if not replied and final.get("final_message") is not None:
                replied = True
                on_reply(final)
        return final

    # --- nodes -----------------------------------------------------------------------------------

    def _timed(self, name: str, fn: Node) -> Node:
        def node(state: dict) -> dict:
            # memory_update_agent runs twice in meaning: profile update, or the farewell's episodic save
            label = f"{name} (episode)" if name == "memory_update_agent" and state.get("final_message") else name
            start = time.perf_counter()
            try:
                return fn(state)
            finally:
                self.deps.timings[label] = self.deps.timings.get(label, 0.0) + time.perf_counter() - start
        return node

    def _understood(self, state: dict, appraise: bool) -> dict:
        u = understand(self.deps, state)
        if appraise:
            self._appraise(u, state)
        return {"understanding": u, "intent": u.intent, "is_recall": u.is_recall, "plan_steps": u.plan,
                "memory_intent": u.memory_intent, "language": u.language or state.get("language")}

    def _appraise(self, u: Any, state: dict) -> None:
        self.deps.affect.update(u.emotion)
        self.deps.on_understood(state, u)

    def _memory_update(self, state: dict) -> dict:
        if state.get("final_message") is not None:  # after the farewell reply: the episodic save
            closing = TranscriptTurn("nadine", state["final_message"], self.deps.clock.now())
            saved = memory_agents.save_episode(self.deps, state["identity"], [*state.get("transcript", []), closing])
            return {"episodic_saved": saved}
        return memory_agents.update_profile(self.deps, state)

    def _nodes(self) -> dict[str, Node]:
        d = self.deps
        return {
            "memory_update_agent": self._memory_update,
            "memory_retrieve_agent": lambda s: {"retrieval": memory_agents.retrieve(d, s)},
            "memory_request_agent": lambda s: memory_requests.handle(d, s),
            "search_agent": lambda s: tools.search(d, s),
            "vision_agent": lambda s: tools.vision(d, s),
            "knowledge_rag_agent": lambda s: tools.knowledge(d, s),
            "response_agent": lambda s: {"final_message": respond(d, s), "plan_steps": []},
            "affective_update": lambda s: {},  # the state set by understanding is kept ([P])
        }

    # --- routing ---------------------------------------------------------------------------------

    @staticmethod
    def _after_understanding(state: dict) -> str:
        if (state.get("memory_intent") in memory_requests.MEMORY_REQUESTS and state["intent"] != "end_conversation"
                and not state.get("name_confirmation")):
            return "memory_request_agent"  # remember / forget one / forget me / what do you know about me
        return "memory_update_agent" if state["intent"] == "update_user_info" else "memory_retrieve_agent"

    @staticmethod
    def _after_memory_update(state: dict) -> str:
        if state.get("final_message") is not None or state["intent"] == "end_conversation":
            return END
        if state.get("name_confirmation"):
            return "response_agent"
        return "memory_retrieve_agent"

    @staticmethod
    def _route_by_plan(state: dict) -> str:
        if state.get("name_confirmation"):
            return "response_agent"
        for step in state.get("plan_steps") or []:
            if step.agent in TOOL_AGENTS:
                return step.agent
        return "response_agent"

    @staticmethod
    def _after_response(state: dict) -> str:
        return "memory_update_agent" if state["intent"] == "end_conversation" else END

    def _common(self, graph: StateGraph, first: str, after_tool: Callable[[dict], str]) -> None:
        for name, fn in self._nodes().items():
            graph.add_node(name, self._timed(name, fn))
        graph.add_conditional_edges(first, self._after_understanding)
        graph.add_conditional_edges("memory_update_agent", self._after_memory_update)
        for tool in TOOL_AGENTS:
            graph.add_conditional_edges(tool, after_tool)
        graph.add_edge("response_agent", "affective_update")
        graph.add_edge("memory_request_agent", "affective_update")
        graph.add_conditional_edges("affective_update", self._after_response)

    def _merged(self) -> StateGraph:
        graph = StateGraph(TurnState)
        graph.add_node("understand", self._timed("understand", lambda s: self._understood(s, appraise=True)))
        graph.add_edge(START, "understand")
        self._common(graph, "understand", self._route_by_plan)
        graph.add_conditional_edges("memory_retrieve_agent", self._route_by_plan)
        return graph

    def _legacy(self) -> StateGraph:
        graph = StateGraph(TurnState)
        graph.add_node("intention_classifier", self._timed(
            "intention_classifier", lambda s: self._understood(s, appraise=False)))
        graph.add_node("affective_appraisal", self._timed(
            "affective_appraisal", lambda s: self._appraise(s["understanding"], s) or {}))
        graph.add_node("orchestrator", self._timed("orchestrator", lambda s: {}))
        graph.add_edge(START, "intention_classifier")
        self._common(graph, "intention_classifier", lambda s: "orchestrator")
        graph.add_edge("memory_retrieve_agent", "affective_appraisal")
        graph.add_edge("affective_appraisal", "orchestrator")
        graph.add_conditional_edges("orchestrator", self._route_by_plan)
        return graph
