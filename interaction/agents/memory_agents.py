"""Memory agents: profile update (MemoryUpdate + name logic), retrieval, and the episodic save."""

from __future__ import annotations

import json
import logging

from pydantic import ValidationError

from interaction.agents.context import AgentDeps
from interaction.agents.episode import summarize
from interaction.llm import LlmError, parse_json
from interaction.memory.contracts import RetrievalResult, TranscriptTurn
from interaction.offline.extract import extract_profile
from interaction.profiles import Identity, MemoryUpdate
from interaction.prompts import MEMORY_UPDATE_SYSTEM, history_text
from interaction.state import TurnState

log = logging.getLogger("nadine.interaction.memory_agents")

AGENT = "memory_update_agent"


def extract(deps: AgentDeps, text: str, identity: Identity, history: list[tuple[str, str]]) -> MemoryUpdate:
    known = identity.profile.model_dump(exclude={"face_image_path", "last_updated"}) if identity.profile else {}
    answer = deps.ask(AGENT, [
        {"role": "system", "content": MEMORY_UPDATE_SYSTEM},
        {"role": "user", "content": f"Known profile: {json.dumps(known)}\nConversation so far:\n"
                                    f"{history_text(history)}\n\nLatest user message: {text}"},
    ], json_mode=True)
    if answer is not None:
        try:
            update = MemoryUpdate.model_validate(parse_json(answer))
            if update.user_name and update.user_name.split()[0].casefold() not in text.casefold():
                update = update.model_copy(update={"user_name": None})  # a name nobody said is a guess
            return update
        except (LlmError, ValidationError) as exc:
            deps.fail(AGENT, LlmError(f"unusable profile extraction: {exc}"))
    return extract_profile(text)


def update_profile(deps: AgentDeps, state: TurnState) -> dict:
    if state.get("name_confirmation") or not deps.settings.interaction.enable_memory_agents:
        return {}
    identity: Identity = state["identity"]
    update = extract(deps, state["text"], identity, state.get("messages", []))
    carried = state.get("pending_facts") or {}
    outcome = deps.keeper.save_user_info(identity, update, carried)
    result: dict = {"profile_outcome": outcome, "identity": outcome.identity}
    if outcome.kind == "confirm":
        result["name_confirmation"] = outcome.confirmation
    elif outcome.kind == "pending":
        result["pending_facts"] = {**carried, **outcome.learned}
    elif outcome.kind != "none":
        result["pending_facts"] = {}
    return result


def retrieve(deps: AgentDeps, state: TurnState) -> RetrievalResult | None:
    identity: Identity = state["identity"]
    if deps.services is None or not deps.settings.interaction.enable_memory_agents or not identity.known:
        return None
    try:
        return deps.services.retrieve(identity.user_id or "", state["text"], bool(state.get("is_recall")))
    except Exception:  # memory trouble must not cost the reply
        log.exception("memory retrieval failed for %s; answering without memories", identity.user_id)
        return None


def save_episode(deps: AgentDeps, identity: Identity, transcript: list[TranscriptTurn]) -> bool:
    """Summarise the session and hand it to memory (unknown users are never saved)."""
    if deps.services is None or not identity.known or not any(t.role == "user" for t in transcript):
        return False
    if not deps.settings.interaction.enable_memory_agents:
        return False
    summary = summarize(deps, transcript, identity.name or "")
    try:
        return deps.services.save_episode(identity.user_id or "", identity.name or "", transcript, summary)
    except Exception:
        log.exception("episodic save failed for %s", identity.user_id)
        return False
