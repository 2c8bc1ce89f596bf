"""The question a person asks through Nadine's memory, said directly: "do you remember what I do for a
living?" asks "what do I do for a living?", "do you know where I used to live?" asks "where did I use
to live?", "can you tell me what my job is?" asks "what is my job?".

Read from spaCy's parse: when Nadine, the main verb's subject, is asked to remember, know or tell a
clause opened by a question word (question_form.asked_about), the clause is put back in a question's
word order: its auxiliary, or its "be", before its subject, else "do" in the clause's tense and person
with the verb in its base form. Whatever asks after the person's life directly is then read the same
way however it was wrapped.
"""

from __future__ import annotations

from typing import Any

from interaction.offline.question_form import WH_TAGS, asked_about

_SUBJECTS = {"nsubj", "nsubjpass"}


def direct_question(text: str) -> str | None:
    """`text`'s embedded question said directly; None when it asks none (or without the parser)."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(" ".join(text.replace("\u2019", "'").split()))
    except ParserUnavailable:
        return None
    for sentence in doc.sents:
        clause = asked_about(sentence)
        if clause is sentence or not len(clause) or clause[0].tag_ not in WH_TAGS:
            continue
        direct = _inverted(clause)
        if direct is not None:
            return direct
    return None


def _inverted(clause: Any) -> str | None:
    verb = clause.root
    subject = next((c for c in verb.children if c.dep_ in _SUBJECTS), None)
    if subject is None or subject.i <= clause.start or subject.left_edge.i <= clause.start:
        return None  # the question word is the subject ("who came"): already a question's order
    subject_words = {t.i for t in subject.subtree}
    aux = next((c for c in verb.children if c.dep_ in ("aux", "auxpass") and c.i > subject.right_edge.i), None)
    front = [t for t in clause if t.i < subject.left_edge.i]
    subject_part = [t for t in clause if t.i in subject_words]
    rest = [t for t in clause if t.i > subject.right_edge.i]
    if aux is not None:  # "what I'm working on" -> "what am I working on"
        moved, rest = aux.text, [t for t in rest if t.i != aux.i]
    elif verb.lemma_ == "be":  # "what my job is" -> "what is my job"
        moved, rest = verb.text, [t for t in rest if t.i != verb.i]
    else:  # "where I live" -> "where do I live", "what she said" -> "what did she say"
        moved = "did" if verb.tag_ == "VBD" else "does" if verb.tag_ == "VBZ" else "do"
        rest = [_Base(verb) if t.i == verb.i else t for t in rest]
    words = [t.text for t in front] + [moved] + [t.text for t in subject_part] + [t.text for t in rest]
    said = " ".join(w for w in words if w not in ("?", ".", "!"))
    return said.replace(" n't", "n't").replace(" '", "'") + "?"


class _Base:
    """A verb said in its base form after "do" ("lived" -> "live")."""

    def __init__(self, verb: Any) -> None:
        self.text = verb.lemma_ if verb.lemma_ != "-PRON-" else verb.text
        self.i = verb.i
