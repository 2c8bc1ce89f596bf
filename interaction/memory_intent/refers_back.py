"""A request about what the person has just said, in a turn of its own: "forget that", "don't
remember that", "forget what I just said", "you don't have to keep what I told you".

Read from what is left of the request once its asking words are gone (phrasing.request_content) and
spaCy's parse of it, never from a phrase list: it names nothing of its own (no noun, name, number or
adjective), and any verb left is the person's own saying ("what I just said": a verb whose subject is
the first person). "Forget what I said about my dog" names a dog; "I failed again, don't write that
down" holds what it asks about in its own turn.
"""

from __future__ import annotations

from interaction.memory_intent.phrasing import CONTENT_POS, names_something, request_content

_NAMING = CONTENT_POS - {"VERB", "AUX"}


def refers_back(text: str) -> bool:
    from interaction.offline.self_description import ParserUnavailable, load_parser

    content = request_content(text)
    if not names_something(content):
        return True
    try:
        parsed = load_parser()(content)
    except ParserUnavailable:
        return False
    if any(t.pos_ in _NAMING and not t.is_stop for t in parsed):
        return False
    return all(any(c.dep_ in ("nsubj", "nsubjpass") and "1" in c.morph.get("Person") for c in t.children)
               for t in parsed if t.pos_ == "VERB" and not t.is_stop)
