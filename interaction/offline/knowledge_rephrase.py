"""Turning a knowledge chunk about Nadine (third person, markdown) into two sentences she can say."""

from __future__ import annotations

import re

import numpy as np

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
    text = _shared_subject_verbs(text)
    return re.sub(r"(^|[.!?]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)


def _shared_subject_verbs(text: str) -> str:
    """A verb that shares "I" with the one before it ("I ask first, and deletes nothing") in the first
    person too, by spaCy's parse: a conjunct with no subject of its own; as it is without the parser."""
    from interaction.offline.parsing import ParserUnavailable, load_parser

    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return text

    def of_mine(verb) -> bool:  # noqa: ANN001 - a spaCy Token
        return any(c.dep_ == "nsubj" and c.text == "I" for c in verb.children)

    return "".join(_first_person_verb(t.text) + t.whitespace_ if t.tag_ == "VBZ" and t.dep_ == "conj"
                   and not any(c.dep_ in ("nsubj", "nsubjpass") for c in t.children) and of_mine(t.head)
                   else t.text_with_ws for t in doc)


def _body(chunk: str) -> str:
    lines = [ln for ln in chunk.strip().splitlines() if ln.strip()]
    if len(lines) > 1 and not re.search(r"[.!?]$", lines[0]):  # the "Nadine > Who created Nadine" header path
        lines = lines[1:]
    return " ".join(ln.strip("# ").strip() for ln in lines)


def spoken_knowledge(knowledge: str, question: str = "", sentences: int = 2) -> str:
    """The first (best-ranked) chunk's first sentences, in the first person, and after them the one of
    its other sentences closest to the question by the offline embedder when it is closer than all of
    them but the first, which says what the topic is ("can you delete it all if I ask?" is answered
    by the privacy section's sentence on forgetting too). The knowledge base hands over only chunks
    similar enough to the question, best first, so the first one answers it. Without a question or
    the embedder, its first sentences."""
    chunks = [c for c in knowledge.split("\n\n") if c.strip()]
    said = re.split(r"(?<=[.!?])\s+", _body(chunks[0]))
    chosen = list(range(min(sentences, len(said))))
    if question.strip() and len(said) > sentences:
        ranked = _closest(question, said[1:], len(said) - 1)
        if ranked is not None and ranked[0] + 1 >= sentences:
            chosen.append(ranked[0] + 1)
    return first_person(" ".join(said[i] for i in chosen))


def _closest(question: str, sentences: list[str], k: int) -> list[int] | None:
    """The indices of the `k` sentences closest to `question`; None when the embedder cannot load."""
    from common.embedding.base import EmbeddingFailed
    from common.embedding.registry import offline_text_embedder
    from common.vision.base import BackendUnavailable

    try:
        vectors = offline_text_embedder().embed([question, *sentences])
    except (BackendUnavailable, EmbeddingFailed, OSError):
        return None
    return [int(i) for i in np.argsort(-(vectors[1:] @ vectors[0]))[:k]]
