"""News told after a memory about someone it names: "Pickle died this morning" after "I've got two
cats, Mango and Pickle", "Ruth is back home now" after "Ruth is at St. Mary's hospital". An answer read
off the earlier memory alone would say as current what the later one has changed ("you've got two
cats"), so a recall that asserts the earlier one carries the later one too, and the reply says both.

Read off spaCy's parse and WordNet, never off the words: the later memory has a clause whose subject
is a proper name the earlier memory names, and whose verb tells a state or a change of one (its most
frequent WordNet sense is of being, of change or of motion: "is back home", "died", "moved to Leeds";
not "called me", "said"). A thing said of someone by a common noun ("my car") is left alone: too
many things share one; unless the later memory gives it a new value in place of the earlier one's
("my locker code changed to 5582" after "my locker code is 4471": offline/value_changes.py), or says
again as the one spoken of ("the party", "my party") what happened to it ("the party got cancelled").
"""

from __future__ import annotations

# the WordNet verb files of a state or a change of one (lexnames, closed by WordNet's own design)
_OF_STATE = frozenset({"verb.stative", "verb.change", "verb.motion"})
_SUBJECTS = frozenset({"nsubj", "nsubjpass"})
_STATE_COMPLEMENTS = frozenset({"advmod", "acomp", "prt"})
# what is said, thought or seen of a thing changes nothing of it ("the party was discussed")
_OF_TELLING = frozenset({"verb.communication", "verb.cognition", "verb.perception"})


def _the_one_told(noun) -> bool:  # noqa: ANN001 - a spaCy Token
    """A thing said again as the one spoken of: "the party", "my party", or an activity said with no
    article at all ("tea with Petroc is off"), never "a party"."""
    dets = [c for c in noun.children if c.dep_ in ("det", "poss")]
    return any(c.dep_ == "poss" or c.lower_ in ("the", "that", "this") for c in dets) or (
        not dets and noun.tag_ == "NN")


def _a_person(name, wordnet) -> bool:  # noqa: ANN001 - a spaCy Token, the WordNet lexicon
    """A name the recogniser files as a person's, or said beside a word for one ("my brother Luis")."""
    beside = [name.head] if name.dep_ in ("appos", "compound") else []
    beside += [c for c in name.children if c.dep_ in ("appos", "compound")]
    return name.ent_type_ == "PERSON" or any(wordnet.lexical_file(w.lemma_.lower()) == "noun.person" for w in beside)


def _in_a_state(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """A copula that says its subject is in a state by a word alone ("is off", "is over"), not where or
    when it is ("is at the office": the thing as it was, placed)."""
    return verb.lemma_ == "be" and any(c.dep_ in _STATE_COMPLEMENTS for c in verb.children)


def updates(later: str, earlier: str, of_people: bool = True) -> bool:
    """`later` tells a new state of someone `earlier` names (by a proper name, or as the one spoken of:
    "my brother"; not when `of_people` is False, but for one who does what `earlier` tells: a plan made
    with someone is not changed by news of them), or a new value of what `earlier` gives one of."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.offline.parsing import ParserUnavailable, load_parser
    from interaction.offline.value_changes import changed_value

    if changed_value(later, earlier) is not None:
        return True

    wordnet = load_wordnet()
    try:
        nlp = load_parser()
    except ParserUnavailable:
        return False
    if wordnet is None:
        return False
    told = nlp(earlier)
    named = {t.lower_ for t in told if t.pos_ == "PROPN"}
    # the things it names: its nouns, and what stands where a noun does though tagged otherwise ("a stag do":
    # "do" an auxiliary to the small tagger)
    things = {t.lemma_.lower() for t in told if t.pos_ == "NOUN" or (
        t.dep_ in _SUBJECTS | {"dobj", "pobj"} and t.pos_ not in ("PRON", "PROPN", "NUM"))}
    # a person who is the plan ("the boiler man comes on Saturday"), not one it is made with ("lunch with
    # my brother Luis")
    doers = {t.lemma_.lower() for t in told if t.pos_ == "NOUN" and t.dep_ in _SUBJECTS}
    for tok in nlp(later):
        # the thing as the subject, or as the object of what was done ("the surgery called my flu jab off")
        if tok.pos_ == "NOUN" and tok.dep_ in _SUBJECTS | {"dobj"} and tok.lemma_.lower() in things and _the_one_told(tok) \
                and (of_people or tok.lemma_.lower() in doers or wordnet.lexical_file(tok.lemma_.lower()) != "noun.person") \
                and (tok.head.pos_ == "VERB" and wordnet.verb_lexical_file(tok.head.lemma_) not in _OF_TELLING
                     or _in_a_state(tok.head)):
            return True  # "the party got cancelled", "the party is off" after "my mate's birthday party is on Friday"
        if tok.pos_ == "PROPN" and tok.lower_ in named and tok.dep_ == "poss" and tok.head.dep_ in _SUBJECTS \
                and tok.head.head.pos_ == "VERB" and wordnet.verb_lexical_file(tok.head.head.lemma_) not in _OF_TELLING:
            return True  # what happened to a thing of theirs: "Vikram's trip got cancelled"
        # the name as the subject, or beside the noun that is ("my brother Tom moved to Oslo", "the
        # Saturday repair is off"); a person's only where news of people counts
        subject = tok.head if tok.dep_ in ("appos", "compound") else tok
        verb = subject.head
        if subject.dep_ in _SUBJECTS and tok.pos_ == "PROPN" and tok.lower_ in named and verb.pos_ in ("VERB", "AUX") \
                and wordnet.verb_lexical_file(verb.lemma_) in _OF_STATE and (of_people or not _a_person(tok, wordnet)):
            return True
    return False
