"""A request about what the person has just said, in a turn of its own: "forget that", "don't
remember that", "forget what I just said", "you don't have to keep what I told you".

Read from what is left of the request once its asking words are gone (phrasing.request_content) and
spaCy's parse of it, never from a phrase list: it names nothing of its own (no noun, name, number or
adjective), and any verb left is the request's own (bidding, or "you" its subject) or the person's
saying ("what I just said": a verb of talk whose subject is the first person; "forget where I live"
names the home). A word the tagger calls a noun but that takes an object is read as the verb it
is ("scratch that"), and a portion of talk pointed at names what was just said ("that last bit"), as
does a noun that is what the person's saying said ("the last thing I said").
"Forget what I said about my dog" names a dog; "I failed again, don't write that
down" holds what it asks about in its own turn.
"""

from __future__ import annotations

from interaction.memory_intent.phrasing import CONTENT_POS, opening_bidding, request_content
from interaction.memory_intent.verb_frames import needed_by_no_one

_NAMING = CONTENT_POS - {"VERB", "AUX"}
_TIMES = {"DATE", "TIME"}
_SUBJECTS = ("nsubj", "nsubjpass")
_DEMONSTRATIVES = ("that", "this")
_OF_TALK = ("noun.quantity", "noun.relation", "noun.communication")  # a bit, a part, a sentence of what was said
GENERAL_DEPTH = 5  # as deep as "thing" lies: the upper levels, where "person" and "artifact" are 4
# the files of words that hold no thing of their own: talk, a portion, a state, a stuff ("a party", "a
# meeting" are groups; "a concert" is talk but 7 deep)
_EMPTY = (*_OF_TALK, "noun.state", "noun.substance", "noun.Tops")


def refers_back(text: str) -> bool:
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return False
    # the request's content is read in the turn's own parse: cut out, it may lose its article and its
    # noun with it ("kitten I told you about" tags "kitten" an adverb) or its demonstrative ("forget
    # that last bit" -> "last bit"); a request that opens the turn and then says why ("forget my pension
    # number, I shouldn't have told you that") is read alone
    if lasts_from_a_point_on(text):
        return False
    whole = " ".join((opening_bidding(text) or text).split())
    content = request_content(whole)
    doc = nlp(whole)
    start = whole.rfind(content) if content else -1
    parsed = [t for t in doc if start <= t.idx < start + len(content)] if start >= 0 else list(nlp(content))
    pointed = {t.lower_ for t in doc if _points_back(t) or _what_was_said(t)}
    if denied := [v for v in doc if needed_by_no_one(v)]:
        # "no need to remember that": what the denied doing is done to is the request's content
        parsed = [t for v in denied for t in v.subtree if t.i != v.i and t.dep_ not in ("aux", "mark", *_SUBJECTS)]
    if any((t.pos_ in _NAMING or _a_name(t)) and not t.is_stop and not _acts_as_verb(t) and t.lower_ not in pointed
           for t in parsed):
        return False
    # a verb left is the request's own (bidding, or "you" its subject) or the person's saying ("what I said");
    # a doing of the person's own names what it asks about ("forget where I live")
    # ... and a doing a preposition governs names what was told of it ("what I told you about coming out")
    return all(_own(t, "2") or (_own(t, "1") and _saying(t) and _said_already(t))
               or not (any(c.dep_ in _SUBJECTS for c in t.children) or t.dep_ == "pcomp")
               for t in parsed if _acts_as_verb(t) and not t.is_stop)


def lasts_from_a_point_on(text: str) -> bool:
    """A "from" that opens a span the adverb "on" leaves open ("from now on", "from here on", "from this
    point on"): what it is said of lasts from then, so a request it bounds is about what is still to
    be said, whatever its pronoun points at ("... from now on between us? Don't save it.")."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return False
    return any(token.lower_ == "from" and token.dep_ == "prep" and any(
        t.lower_ in ("on", "onward", "onwards") and not any(c.dep_ == "pobj" for c in t.children)
        for t in doc[token.i + 2:token.i + 5]) for token in doc)


def _a_name(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """A name the recogniser marks, whatever its tag ("forget about Femke": the small tagger knows no
    Femke and tags it an adverb); a time is no thing of its own ("what I said yesterday")."""
    return bool(token.ent_type_) and token.ent_type_ not in _TIMES and token.text[:1].isupper()


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


def _what_was_said(noun) -> bool:  # noqa: ANN001 - a spaCy Token
    """A word that names nothing but what the person's saying said: a noun of talk, a portion, a
    state or a stuff among WordNet's most general (its most frequent sense at most GENERAL_DEPTH
    kind-of links below the root: "thing" 5, "stuff" 4, "story" 4; "trip" 10, "dog" 8), the object
    its relative clause of saying leaves out, no preposition stranded ("the last thing I said", "the
    thing I just told you"); "the dog I told you about" and "the trip I mentioned" name a dog and a
    trip. GENERAL_DEPTH and the files were read off these few words, not fitted on a split."""
    from interaction.memory.retrieval.lexicon import KIND_OF, load_wordnet

    wordnet = load_wordnet()
    senses = wordnet.senses(noun.lemma_) if wordnet is not None and noun.pos_ == "NOUN" else ()
    if not senses or wordnet.lexical_file(noun.lemma_) not in _EMPTY \
            or max(wordnet.ancestors(senses[0], KIND_OF).values(), default=0) > GENERAL_DEPTH:
        return False
    return any(
        c.dep_ == "relcl" and _own(c, "1") and _saying(c)
        and not any(p.dep_ == "prep" and not any(o.dep_ == "pobj" for o in p.children) for p in c.children)
        for c in noun.children)


def _own(verb, person: str) -> bool:  # noqa: ANN001 - a spaCy Token
    return any(c.dep_ in _SUBJECTS and c.morph.get("Person") == [person] for c in verb.children)


def _said_already(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """The saying is past ("what I told you", "what I've just said"), not what is still to be said
    ("anything I tell you from now on")."""
    return verb.tag_ in ("VBD", "VBN") or any(c.dep_ == "aux" and c.tag_ in ("VBD", "VBZ", "VBP") and c.lemma_ == "have"
                                             for c in verb.children)


def _saying(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """A verb of talk by its most frequent WordNet sense ("say", "tell", "mention"); every verb when
    WordNet is not installed."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is None or wordnet.verb_lexical_file(verb.lemma_) == "verb.communication"
