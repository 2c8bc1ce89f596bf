"""Tool agents (search, vision, knowledge): each takes its step from the plan, writes its result."""

from __future__ import annotations

import logging

from interaction.agents.context import AgentDeps
from interaction.state import TurnState
from interaction.turn_understanding import PlanStep

log = logging.getLogger("nadine.interaction.tools")

VISION_OFF = "My camera answers are switched off right now, so I cannot say what I see."


def take_step(state: TurnState, agent: str) -> tuple[str, list[PlanStep]]:
    """The query of this agent's step and the plan without it."""
    plan = list(state.get("plan_steps") or [])
    for i, step in enumerate(plan):
        if step.agent == agent:
            return step.message or state["text"], plan[:i] + plan[i + 1:]
    return state["text"], plan


def search(deps: AgentDeps, state: TurnState) -> dict:
    query, rest = take_step(state, "search_agent")
    return {"search_results": deps.search.search(query), "plan_steps": rest}


def knowledge(deps: AgentDeps, state: TurnState) -> dict:
    query, rest = take_step(state, "knowledge_rag_agent")
    found = None
    if deps.services is not None:
        try:
            found = deps.services.knowledge(query)
        except Exception:
            log.exception("knowledge retrieval failed")
    return {"knowledge_retrieval": found, "plan_steps": rest}


def vision(deps: AgentDeps, state: TurnState) -> dict:
    query, rest = take_step(state, "vision_agent")
    if not deps.settings.interaction.enable_vision_agent or deps.services is None:
        return {"vision_results": VISION_OFF, "plan_steps": rest}
    identity = state["identity"]
    try:
        answer = deps.services.look(query, identity.user_id if identity.known else None, bool(state.get("is_recall")))
    except Exception:
        log.exception("vision agent failed")
        answer = "Sorry, I cannot see anything right now."
    return {"vision_results": answer, "plan_steps": rest}
