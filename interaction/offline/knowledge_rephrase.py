"""Turning a knowledge chunk about Nadine (third person, markdown) into two sentences she can say."""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z]{4,}")
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


def spoken_knowledge(knowledge: str, question: str, sentences: int = 2) -> str:
    """The chunk sharing most words with the question, else the introduction (the chunk without a
    sub-header), else the first retrieved; its first sentences in the first person."""
    chunks = [c for c in knowledge.split("\n\n") if c.strip()]
    asked = set(_WORD.findall(question.lower()))

    def score(c: str) -> tuple[int, bool, int]:
        return len(asked & set(_WORD.findall(c.lower()))), " > " not in c.split("\n", 1)[0], -chunks.index(c)

    best = max(chunks, key=score)
    said = re.split(r"(?<=[.!?])\s+", _body(best))
    return first_person(" ".join(said[:sentences]))
