"""A request about what the person has just said, in a turn of its own: "forget that", "don't
remember that", "forget what I just said", "you don't have to keep what I told you".

Read from what is left of the request once its asking words are gone (phrasing.request_content) and
spaCy's parse of it, never from a phrase list: it names nothing of its own (no noun, name, number or
adjective), and any verb left is the request's own (bidding, or "you" its subject) or the person's
saying ("what I just said": a verb of talk whose subject is the first person; "forget where I live"
names the home). A word the tagger calls a noun but that takes an object is read as the verb it
is ("scratch that"), and a portion of talk pointed at names what was just said ("that last bit").
"Forget what I said about my dog" names a dog; "I failed again, don't write that
down" holds what it asks about in its own turn.
"""

from __future__ import annotations

from interaction.memory_intent.phrasing import CONTENT_POS, request_content

_NAMING = CONTENT_POS - {"VERB", "AUX"}
_SUBJECTS = ("nsubj", "nsubjpass")
_DEMONSTRATIVES = ("that", "this")
_OF_TALK = ("noun.quantity", "noun.relation", "noun.communication")  # a bit, a part, a sentence of what was said


def refers_back(text: str) -> bool:
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return False
    parsed = nlp(request_content(text))
    # the request's content has lost its demonstrative ("forget that last bit" -> "last bit"): read it in the turn
    pointed = {t.lower_ for t in nlp(" ".join(text.split())) if _points_back(t)}
    if any(t.pos_ in _NAMING and not t.is_stop and not _acts_as_verb(t) and t.lower_ not in pointed for t in parsed):
        return False
    # a verb left is the request's own (bidding, or "you" its subject) or the person's saying ("what I said");
    # a doing of the person's own names what it asks about ("forget where I live")
    return all(_own(t, "2") or (_own(t, "1") and _saying(t)) or not any(c.dep_ in _SUBJECTS for c in t.children)
               for t in parsed if _acts_as_verb(t) and not t.is_stop)


def _acts_as_verb(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """A verb, or a word the tagger took for a noun that governs a direct object as only a verb does
    ("scratch that": the small model tags "scratch" a noun and "that" its object)."""
    return token.pos_ == "VERB" or any(c.dep_ == "dobj" for c in token.children)


def _points_back(noun) -> bool:  # noqa: ANN001 - a spaCy Token
    """A noun of a portion or of talk by its most frequent WordNet sense ("bit", "sentence", "remark")
    after a demonstrative, with only stop words between ("that last bit", "this sentence"): it names
    what was just said, however the parse hangs the words ("that" is the object in "forget that last
    bit"). "That dog" names a dog."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    if noun.pos_ != "NOUN" or wordnet is None or wordnet.lexical_file(noun.lemma_) not in _OF_TALK:
        return False
    before = noun.i - 1
    while before >= 0 and noun.doc[before].is_stop and noun.doc[before].lower_ not in _DEMONSTRATIVES:
        before -= 1
    return before >= 0 and noun.doc[before].lower_ in _DEMONSTRATIVES


def _own(verb, person: str) -> bool:  # noqa: ANN001 - a spaCy Token
    return any(c.dep_ in _SUBJECTS and c.morph.get("Person") == [person] for c in verb.children)


def _saying(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """A verb of talk by its most frequent WordNet sense ("say", "tell", "mention"); every verb when
    WordNet is not installed."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is None or wordnet.verb_lexical_file(verb.lemma_) == "verb.communication"
