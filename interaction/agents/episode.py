"""The episodic summary of a whole session (EpisodicSave): the model when configured, else a
deterministic summary that quotes what the user said, so names and claims survive verbatim."""

from __future__ import annotations

import contextlib
from collections import Counter

from pydantic import Field

from common.embedding.registry import offline_text_embedder
from common.vision.base import BackendUnavailable
from interaction.agents.context import EPISODE, AgentDeps
from interaction.memory.contracts import EpisodicSave, TranscriptTurn
from interaction.names import given_name
from interaction.offline.extract import extract_profile, parse_ahead
from interaction.offline.grounding import grounded_update
from interaction.offline.understand_rules import felt_parts, user_emotion
from interaction.prompts import EPISODE_SYSTEM

AGENT = "memory_update_agent"
MAX_QUOTES_CHARS = 3000


def _transcript_text(transcript: list[TranscriptTurn], user_name: str) -> str:
    return "\n".join(f"{user_name if t.role == 'user' else 'Nadine'}: {t.text}" for t in transcript)


def _embed_felt(said: list[str]) -> None:
    """The emotion reading embeds a turn's felt parts and their sentences as it reads the turn: one
    batched call for all of a session's turns instead (a replayed session, such as LoCoMo's, was never
    embedded turn by turn; a conversation's turns were, as they were said)."""
    felt = [text for s in said for part, sentence in felt_parts(s).items() for text in (part, sentence)]
    with contextlib.suppress(BackendUnavailable):  # the emotion reading says so itself when it cannot load
        offline_text_embedder().embed(list(dict.fromkeys(felt)))


def offline_summary(transcript: list[TranscriptTurn], user_name: str, replies: int | None = None) -> EpisodicSave:
    """`replies`: how many times Nadine replied in the session (default: her turns in the transcript,
    which leaves out turns taken away by a forget)."""
    said = [t for t in transcript if t.tells]  # a yes / no and a goodbye tell nothing
    first = transcript[0].at if transcript else None
    day = f"{first:%A} {first.day} {first:%B %Y}" if first else "an unknown day"
    quotes, used = [], 0
    for turn in said:
        quote = " ".join(turn.text.split())
        if used + len(quote) > MAX_QUOTES_CHARS:
            break
        quotes.append(f'"{quote}"')
        used += len(quote)
    parse_ahead([t.text for t in said])  # the emotion and profile readers below parse each turn
    _embed_felt([t.text for t in said])
    feelings = Counter(e.label for e in (user_emotion(t.text) for t in said) if e.label != "neutral")
    learned: dict[str, object] = {}
    for turn in said:
        update, _ = grounded_update(turn.text, extract_profile(turn.text), (user_name,), turn.at)
        learned.update({k: v for k, v in update.model_dump().items() if v not in (None, [], "")})
    if learned.get("user_name") and given_name(str(learned["user_name"])) == given_name(user_name):
        del learned["user_name"]  # the name the session was held under, said again: nothing learned
    facts = "; ".join(f"{k.replace('_', ' ')}: {v if not isinstance(v, list) else ', '.join(v)}" for k, v in learned.items())
    return EpisodicSave(
        observation=f"On {day}, {user_name} talked with Nadine and said: " + " ".join(quotes) if quotes
        else f"On {day}, {user_name} met Nadine but said nothing memorable.",
        thought=f"{user_name} seemed mostly {feelings.most_common(1)[0][0]}." if feelings
        else f"{user_name} seemed calm.",
        action=f"Nadine listened and replied "
               f"{replies if replies is not None else sum(t.role == 'nadine' for t in transcript)} times.",
        result=f"Nadine learned about {user_name}: {facts}." if facts
        else f"Nadine learned nothing new about who {user_name} is.",
    )


class ModelEpisode(EpisodicSave):
    """What a model's summary must hold to be kept: every part said (small models leave parts empty)."""

    observation: str = Field(min_length=1)
    thought: str = Field(min_length=1)
    action: str = Field(min_length=1)
    result: str = Field(min_length=1)


def summarize(deps: AgentDeps, transcript: list[TranscriptTurn], user_name: str,
              replies: int | None = None) -> EpisodicSave:
    summary = deps.ask_json(AGENT, [
        {"role": "system", "content": EPISODE_SYSTEM},
        {"role": "user", "content": _transcript_text(transcript, user_name)},
    ], ModelEpisode, phase=EPISODE)
    if summary is not None:
        return EpisodicSave(**summary.model_dump())
    return offline_summary(transcript, user_name, replies)
