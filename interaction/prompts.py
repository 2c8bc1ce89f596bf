"""Prompt parts: understanding, profile extraction, episode summary, response."""

from __future__ import annotations

import base64
import logging
import mimetypes
from datetime import datetime
from pathlib import Path
from typing import Any

from common.store import DataLayout, PathOutsideDataRoot
from common.store.facts import latest_ended
from common.store.profile_fields import PROFILE_FIELDS
from interaction import profile_wording
from interaction.memory.contracts import VisualMemory
from interaction.names import address
from interaction.reply_inputs import ReplyInputs
from interaction.reported_speech import said_day, told_back
from interaction.session_gist import gist
from interaction.speaker_labels import NADINE_LABEL, USER_LABEL

log = logging.getLogger("nadine.interaction.prompts")

MAX_IMAGE_BYTES = 8_000_000
# The response prompt's format: speaker labels of the transcript and section headings. A reply is cut
# where it starts to continue that format (interaction.llm.reply_text), and servers get the same as stops.
BACKGROUND_HEADING, CONVERSATION_HEADING = "BACKGROUND", "CONVERSATION"
REPLY_STOPS = [f"\n{USER_LABEL}:", f"\n{NADINE_LABEL}:", f"\n{BACKGROUND_HEADING}", f"\n{CONVERSATION_HEADING}"]

UNDERSTAND_SYSTEM = """You analyse one user turn of a spoken conversation with Nadine, a social humanoid robot.
Return one JSON object with exactly these keys:
{"intent": one of "first_greeting", "update_user_info", "end_conversation", "language_change", "continue_conversation",
 "emotion": {"label": L, "intensity": 0.0-1.0},        // Nadine's own emotional reaction to the turn
 "user_emotion": {"label": L, "intensity": 0.0-1.0},   // what the user feels NOW (not emotions they recall or mention)
 "memory_intent": M,        // what the turn asks of Nadine's memory (below)
 "memory_text": null or str, // for "remember" only: the fact to keep, in the user's own words, without the request
 "plan": [{"agent": A, "message": "what that agent should do"}],
 "language": null or the language the user asks Nadine to speak}
L is one of happy, sad, angry, fearful, disgusted, surprised, neutral.
M is one of: "recall" (the user asks about something from the past they told or showed Nadine, earlier in this
conversation included: "when is my daughter's birthday?", "what did I just say about my brother?"),
"remember" (the user asks Nadine to keep a fact: "please remember that ...", "don't forget that ..."),
"forget_one" (forget one thing: "forget what I said about my sister"), "forget_me" (forget everything about the
user), "about_me" ("what do you know / remember about me?"), "not_keep" (the user asks Nadine not to keep what
they say: "please don't remember that", "keep this to yourself", "off the record: ..."), "statement" (anything else). Statements that only
mention forgetting or remembering are statements: "I forgot my keys", "we met at a conference", "remember to call
mum". When unsure between recall and statement, answer statement.
A is one of search_agent (real-time facts: weather, news, prices), knowledge_rag_agent (questions about Nadine,
her creators and her own past), vision_agent (anything about what Nadine can see now), response_agent.
Recall of the user's own information or of moments shared with Nadine goes straight to response_agent: the
profile and any matching memory are already loaded. Greetings and goodbyes get a single response_agent step.
update_user_info: the user states their name or a currently-true fact about themselves (job, employer, where
they live now, hobbies, interests), or that such a fact changed or ended (moved, new job, quit, no longer).
Questions about Nadine are never update_user_info.
end_conversation: only when the user says goodbye."""

MEMORY_UPDATE_SYSTEM = """Extract profile facts the user states about themselves in their latest message.
Return one JSON object: {"user_name": str|null, """ + ", ".join(
    f'"{f.name}": {"[str]" if f.multi else "str|null"}' for f in PROFILE_FIELDS) + """}.
Rules: only facts that are true now. Past-tense statements ("I worked at", "I lived in", "I used to") are memories,
not profile fields: leave them out. Shared history with Nadine never fills company, position or location.
location is where the user lives now. Never guess: use null or [] for anything not stated."""

EPISODE_SYSTEM = """Summarise this conversation between a user and Nadine, a social robot, as one episode of her memory.
Return one JSON object {"observation": str, "thought": str, "action": str, "result": str}.
observation: what the user said and did, keeping every concrete claim: names, people and relations, places,
events, dates and shared history with Nadine. thought: how the user seemed to feel. action: what Nadine did.
result: what Nadine learned and should remember next time. Never add anything that was not said."""

PERSONA = """You are Nadine, a social humanoid robot. You talk with people face to face, remember them and the moments
you shared, and speak naturally, warmly and briefly: one to three short spoken sentences, no lists, no emojis,
no stage directions. Reply in the language with locale {language}.
Memory rule: treat memories given in the background as your own. When the person asks whether you remember
them or something from before, answer from those memories with their concrete details. If the background holds
no memory of what they ask about, say honestly that you do not remember it; never invent a memory."""

CONDITION_A = """Visual memory: you can remember scenes from past meetings. When a remembered scene is given,
recall it naturally as a moment you shared, weaving in its concrete details; it is the past, not what you see
now. Never say that you are looking at an image or a photo. When no scene is given, never invent visual details."""

CONDITION_B = """Visual memory: you have no visual memories of past meetings. Never describe or invent what a past
moment looked like. You can still recall what was talked about."""


def response_system(language: str, visual_memory_enabled: bool) -> str:
    block = CONDITION_A if visual_memory_enabled else CONDITION_B
    return PERSONA.format(language=language) + "\n\n" + block


def when(timestamp: str | None) -> str:
    try:
        return datetime.fromisoformat(timestamp or "").strftime("%A %d %B %Y, %H:%M")
    except ValueError:
        return timestamp or "an earlier day"


def scene_line(scene: VisualMemory) -> str:
    return (
        f"A scene you remember from a past meeting with this person (on {when(scene.timestamp)}): "
        f"{scene.description or 'no description'} (what was happening then: {scene.user_message or 'not recorded'})"
        " — this is a remembered PAST moment, not what you currently see; never describe it as the person's "
        "present appearance."
    )


def _profile_line(r: ReplyInputs) -> str:
    """Current facts, then the latest fact that ended per field (so "where did I live before?" has an
    answer and an old value is never taken for the current one)."""
    p = r.profile
    if p is None or not p.known:
        return "The person: not introduced yet (you do not know their name)."
    told = profile_wording.phrases(profile_wording.current(p, now=r.now))
    line = f"The person: {p.user_name} (address them as {address(p)})." + (
        " What they told you about themselves, as you say it back to them: " + "; ".join(told) + "." if told else "")
    before = []
    for spec in PROFILE_FIELDS:
        old = latest_ended(p.history(spec.name))
        if old:
            until = f" until {old.valid_to[:10]}" if old.valid_to else ""
            how = "replaced by a newer value" if old.ended == "superseded" else "no longer true"
            before.append(f"{spec.label} {old.value} ({how}{until})")
    return line + (" Before: " + "; ".join(before) + "." if before else "")


def _told_back(m, now: datetime) -> str:
    """A remembered thing as the offline reply says it (a session summary by its gist)."""
    said = said_day(m.occurred_at, now)
    return gist(m.text, said) if m.kind == "episode" else told_back(m.kind, m.text, said)


def recall_lines(r: ReplyInputs) -> list[str]:
    """What the retrieval core found for a recall question: the matching things the person said,
    quoted as said, with their dates, and how sure the decision is."""
    if r.recall is None or not r.is_recall:
        return []
    texts = [m for m in r.recall.memories if m.kind not in ("moment", "first_meeting", "observation")]
    said = [f'on {when(m.occurred_at)}: "{_told_back(m, r.now)}"' for m in texts]
    if r.answer is not None:
        m = r.answer.memory
        return [f'The answer to their question, from what they told you on {when(m.occurred_at)} '
                f'("{_told_back(m, r.now)}"): "{r.answer.said_first(r.now)}". Say the answer first, then that they told you.']
    if r.recall.outcome == "asserted" and said:
        how = ("They asked a plain question about their own life: answer it from this, without saying "
               "'of course'. " if r.own_life else "")
        return [how + "What this person told you that matches the question, as you say it back to them "
                "(reported speech, not their words quoted): " + "; ".join(said)]
    if r.recall.outcome == "offered" and r.recall.memories:
        m = r.recall.memories[0]
        return [f'You are not sure this is what they mean: on {when(m.occurred_at)}: "{_told_back(m, r.now)}". '
                "Ask whether they mean that; do not state it as fact."]
    if r.recall.outcome == "abstained":
        return ["You do not remember them telling you about this: say so honestly; do not guess or invent."]
    return []


def background(r: ReplyInputs) -> str:
    """The lines that hold for the whole conversation (who the person is) come before those of this
    turn (the time, the affect, what was just learned or recalled): a server that keeps the previous
    prompt's evaluation (llama.cpp's prefix cache) reads again only what follows the first difference."""
    lines = [_profile_line(r)]
    if r.identity_event == "linked" and r.name:
        lines.append(f"The person just confirmed they are {r.name}, whom you have met before.")
    elif r.met_before is False:
        lines.append("You met this person for the first time in this conversation.")
    elif r.met_before is None:
        lines.append("You do not know who this person is yet.")
    # the minute changes less often than the affect, which moves with every turn
    lines += [f"Now: {r.now.strftime('%A %d %B %Y, %H:%M')}.", f"Your affect: {r.affect}." if r.affect else ""]
    if r.outcome and r.outcome.learned:
        learned = profile_wording.phrases(profile_wording.heard(r.outcome.learned, r.fact_wording, r.profile))
        lines.append("You just learned (say it back only as it is written here): " + "; ".join(learned) + ".")
    ended = [c for c in r.fact_changes if c.op == "close"]
    if ended:
        lines.append("The person just told you this stopped being true: "
                     + "; ".join(f"{c.field} {c.value or ''}".strip() for c in ended) + ".")
    lines += [f"{label}: {value}" for label, value in (
        ("Web search results", r.search), ("What you see right now", r.vision), ("Your own knowledge", r.knowledge),
    ) if value]
    lines += recall_lines(r)
    if r.scene:
        lines.append(scene_line(r.scene))
    if r.knowledge and (r.recall and r.recall.memories or r.scene):
        lines.append("Answer with your own facts first; use the shared memory only if it relates.")
    return f"{BACKGROUND_HEADING}\n" + "\n".join(f"- {line}" for line in lines if line)


def conversation(r: ReplyInputs) -> str:
    turns = [f"{USER_LABEL if role == 'user' else NADINE_LABEL}: {text}" for role, text in r.history]
    return f"{CONVERSATION_HEADING}\n" + "\n".join([*turns, f"{USER_LABEL}: {r.text}"]) + f"\n{NADINE_LABEL}:"


def image_data_url(layout: DataLayout, image_path: str) -> str | None:
    """The scene image as a data URL, read only from inside the data root."""
    try:
        path = layout.inside(image_path)
        if path.stat().st_size > MAX_IMAGE_BYTES:
            log.warning("scene image %s is larger than %d bytes; not attached", path, MAX_IMAGE_BYTES)
            return None
        data = Path(path).read_bytes()
    except (OSError, PathOutsideDataRoot) as exc:
        log.warning("scene image %s not attached: %s", image_path, exc)
        return None
    mime = mimetypes.guess_type(path.name)[0] or "image/jpeg"
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def response_messages(r: ReplyInputs, image_url: str | None) -> list[dict[str, Any]]:
    packet = background(r) + "\n\n" + conversation(r)
    content: Any = packet
    if image_url:
        # "caption" stands in for the image when the server takes text only (never sent on the wire)
        content = [{"type": "text", "text": packet},
                   {"type": "image_url", "image_url": {"url": image_url, "detail": "high"},
                    "caption": (r.scene.description if r.scene else None) or "a remembered scene"}]
    return [{"role": "system", "content": response_system(r.language, r.visual_memory_enabled)},
            {"role": "user", "content": content}]


def history_text(messages: list[tuple[str, str]], limit: int = 12) -> str:
    return "\n".join(f"{USER_LABEL if role == 'user' else NADINE_LABEL}: {text}"
                     for role, text in messages[-limit:]) or "(none)"


ABOUT_ME_HEADING = "WHAT YOU KNOW"
ABOUT_ME_SYSTEM = PERSONA + """

The person asks what you know or remember about them. Answer only from the facts listed below, in a warm
spoken summary; never add anything that is not listed and never say you know nothing when facts are listed."""


def about_me_messages(
    name: str, facts: list[str], explicit: list[str], moments: list[str], text: str, language: str
) -> list[dict[str, Any]]:
    lines = [f"Their name: {name}."]
    lines += [f"Profile: {fact}." for fact in facts]
    lines += [f"They asked you to remember: {fact}." for fact in explicit]
    lines += [f"A moment they shared with you, in their words: \"{said}\"" for said in moments]
    return [{"role": "system", "content": ABOUT_ME_SYSTEM.format(language=language)},
            {"role": "user", "content": f"{ABOUT_ME_HEADING}\n" + "\n".join(f"- {line}" for line in lines)
                                        + f"\n\n{USER_LABEL}: {text}\n{NADINE_LABEL}:"}]
