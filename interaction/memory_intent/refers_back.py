"""A request about what the person has just said, in a turn of its own: "forget that", "don't
remember that", "forget what I just said", "you don't have to keep what I told you".

Read from what is left of the request once its asking words are gone (phrasing.request_content) and
spaCy's parse of it, never from a phrase list: it names nothing of its own (no noun, name, number or
adjective), and any verb left is the request's own (bidding, or "you" its subject) or the person's
saying ("what I just said": a verb of talk whose subject is the first person; "forget where I live"
names the home). "Forget what I said about my dog" names a dog; "I failed again, don't write that
down" holds what it asks about in its own turn.
"""

from __future__ import annotations

from interaction.memory_intent.phrasing import CONTENT_POS, request_content

_NAMING = CONTENT_POS - {"VERB", "AUX"}
_SUBJECTS = ("nsubj", "nsubjpass")


def refers_back(text: str) -> bool:
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        parsed = load_parser()(request_content(text))
    except ParserUnavailable:
        return False
    if any(t.pos_ in _NAMING and not t.is_stop for t in parsed):
        return False
    # a verb left is the request's own (bidding, or "you" its subject) or the person's saying ("what I said");
    # a doing of the person's own names what it asks about ("forget where I live")
    return all(_own(t, "2") or (_own(t, "1") and _saying(t)) or not any(c.dep_ in _SUBJECTS for c in t.children)
               for t in parsed if t.pos_ == "VERB" and not t.is_stop)


def _own(verb, person: str) -> bool:  # noqa: ANN001 - a spaCy Token
    return any(c.dep_ in _SUBJECTS and c.morph.get("Person") == [person] for c in verb.children)


def _saying(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """A verb of talk by its most frequent WordNet sense ("say", "tell", "mention"); every verb when
    WordNet is not installed."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is None or wordnet.verb_lexical_file(verb.lemma_) == "verb.communication"
