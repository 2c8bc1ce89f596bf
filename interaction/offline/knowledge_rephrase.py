"""Turning a knowledge chunk about Nadine (third person, markdown) into two sentences she can say."""

from __future__ import annotations

import re

_SUBJECT = re.compile(r"\b(?:Nadine|She|she)\s+(\w+)")
_IRREGULAR = {"is": "am", "has": "have", "does": "do", "was": "was"}


def _first_person_verb(verb: str) -> str:
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if re.search(r"(ches|shes|sses|xes)$", verb):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def first_person(text: str) -> str:
    text = re.sub(r"\bNadine's\b", "my", text)
    text = re.sub(r"\bherself\b", "myself", text)
    # "built her at NTU" is the object, "on her own computer" the possessive
    text = re.sub(r"\bher\b(?=\s+(?:at|in|to|for|with|from|on|and|by)\b|[.,!?;]|$)", "me", text)
    text = re.sub(r"\bher\b", "my", text)
    text = _SUBJECT.sub(lambda m: "I " + _first_person_verb(m.group(1)), text)
    return re.sub(r"(^|[.!?]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)


def _body(chunk: str) -> str:
    lines = [ln for ln in chunk.strip().splitlines() if ln.strip()]
    if len(lines) > 1 and not re.search(r"[.!?]$", lines[0]):  # the "Nadine > Who created Nadine" header path
        lines = lines[1:]
    return " ".join(ln.strip("# ").strip() for ln in lines)


def spoken_knowledge(knowledge: str, sentences: int = 2) -> str:
    """The first (best-ranked) chunk's first sentences, in the first person. The knowledge base hands
    over only chunks similar enough to the question, best first, so the first one answers it."""
    chunks = [c for c in knowledge.split("\n\n") if c.strip()]
    said = re.split(r"(?<=[.!?])\s+", _body(chunks[0]))
    return first_person(" ".join(said[:sentences]))
