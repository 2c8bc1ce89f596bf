"""What one of Nadine's replies said back of the person's memories (TranscriptTurn.drew_on): the
memories a recall asserted or asked about, the moment shown with the reply, and everything "what do
you know about me?" lists. Each is named by its own id and by the person's turn it was told in, the
way a forget names what it takes (Forgotten.memory_ids, turn_ids), so forgetting a memory takes the
replies that reworded it ("Biscuit — you told me ...", "the day before" for "yesterday"), which no
phrase match finds."""

from __future__ import annotations

from common.store import SceneStore, UserProfile
from interaction.agents.context import AgentDeps
from interaction.memory.contracts import RetrievalResult, TranscriptTurn

# what a recall said back: asserted as told, or asked about ("do you mean when you told me ...?")
_SAID = ("asserted", "offered")


def recalled(deps: AgentDeps, user_id: str | None, retrieval: RetrievalResult | None, is_recall: bool,
             transcript: list[TranscriptTurn]) -> frozenset[str]:
    """The memories a turn's reply was given to say back, by id and by the person's turn."""
    if retrieval is None or not user_id:
        return frozenset()
    report = retrieval.recall if is_recall else None
    memories = report.memories if report is not None and report.outcome in _SAID else []
    ids = {m.memory_id.split("~")[0] for m in memories if m.kind != "turn" or not m.memory_id.isdigit()}
    quotes = {m.text for m in memories}
    # this conversation's statements are named by their index among those the core ranked: by their words here
    ids |= {t.turn_id for t in transcript if t.role == "user" and t.turn_id and t.text in quotes}
    scene_ids = {m.memory_id for m in memories if m.kind in ("moment", "first_meeting")}
    if retrieval.scene is not None and retrieval.scene.injected:
        scene_ids.add(retrieval.scene.scene_id)
    ids |= scene_ids | _scene_turns(deps, user_id, scene_ids)
    explicit = {m.memory_id for m in memories if m.kind == "explicit_memory"}
    if explicit and deps.services is not None:
        ids |= {k.source_turn for k in deps.services.explicit.list(user_id) if k.memory_id in explicit and k.source_turn}
    return frozenset(i for i in ids if i)


def about_me(deps: AgentDeps, user_id: str | None, profile: UserProfile | None) -> frozenset[str]:
    """What "what do you know about me?" may list: the current profile facts (by the turns that told
    them), the explicit memories and the moments."""
    if not user_id:
        return frozenset()
    ids = {r.source.turn_id for records in (profile.facts.values() if profile is not None else ())
           for r in records if r.valid_to is None and r.source.turn_id}
    if deps.services is not None and deps.settings.interaction.enable_memory_agents:
        ids |= {i for k in deps.services.explicit.list(user_id) for i in (k.memory_id, k.source_turn) if i}
    ids |= {i for m in SceneStore(deps.layout).list(user_id) if m.scene_type == "moment"
            for i in (m.scene_id, m.turn_id) if i}
    return frozenset(ids)


def _scene_turns(deps: AgentDeps, user_id: str, scene_ids: set[str]) -> set[str]:
    scenes = SceneStore(deps.layout)
    return {m.turn_id for i in scene_ids if (m := scenes.get(user_id, i)) is not None and m.turn_id}
