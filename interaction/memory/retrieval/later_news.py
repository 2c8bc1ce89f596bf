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

News of the speaker is a parting: "Maël and I split up" after "I got engaged to Maël", "we broke up"
after "I've been dating Corentin". The speaker and someone else part by a verb one of whose senses is
leaving an association or relation (WordNet: "break up", "split up", "divorce"), and the earlier
memory tells a bond of the speaker's by a verb whose most frequent sense is social ("engage", "marry",
"date"; "I'm married" read as the verb it is a participle of).
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
    from interaction.offline import personal_facts
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
    if _a_bond_of_the_speaker(told, wordnet) and _the_speaker_parted(nlp(later), wordnet):
        # "we broke up" after "I just got engaged"; not a parting from someone else by name ("I broke up
        # with my boyfriend Dan" is no news of "I'm married to Emma")
        others = {w.casefold() for name in personal_facts.ended_relations(later) for w in name.split()}
        if not (named and others and not named & others):
            return True
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
        # ... the name as written, whatever the tagger reads it as ("Whiskers died": a plural noun to it)
        as_named = tok.lower_ in named and (tok.pos_ == "PROPN" or tok.text[:1].isupper())
        if subject.dep_ in _SUBJECTS and as_named and verb.pos_ in ("VERB", "AUX") \
                and wordnet.verb_lexical_file(verb.lemma_) in _OF_STATE and (of_people or not _a_person(tok, wordnet)):
            return True
    return False


def _the_speaker_in(subject) -> bool:  # noqa: ANN001 - a spaCy Token
    from interaction.offline.grounding import first_person

    return any(first_person(t) for t in (subject, *subject.conjuncts))


def _the_speaker_parted(doc, wordnet) -> bool:  # noqa: ANN001 - a spaCy Doc, the WordNet lexicon
    """The speaker tells they and another parted: "we broke up", "Idris and I are getting divorced",
    "I broke up with Maël", "I divorced him"; not negated."""
    from interaction.offline.parsing import doer_of

    for verb in doc:
        subject = doer_of(verb) if verb.pos_ == "VERB" else None
        if subject is None or not _the_speaker_in(subject) or any(c.dep_ == "neg" for c in verb.children):
            continue
        # the two of them as the subject, or the other as its object or said with "with"
        two = subject.morph.get("Number") == ["Plur"] or len(subject.conjuncts) > 0 or any(
            c.dep_ == "dobj" or c.dep_ == "prep" and c.lower_ == "with" for c in verb.children)
        particle = next((c.lower_ for c in verb.children if c.dep_ == "prt"), None)
        if two and wordnet.parts_from_an_association("_".join(filter(None, (verb.lemma_.lower(), particle))),
                                                     between_the_two=True):
            return True
    return False


def _a_bond_of_the_speaker(doc, wordnet) -> bool:  # noqa: ANN001 - a spaCy Doc, the WordNet lexicon
    """The memory tells the speaker is in a bond with someone: a verb of theirs, or the participle said
    of them ("I'm engaged"), whose most frequent WordNet sense is social, and no parting itself."""
    from interaction.offline.parsing import doer_of

    for word in doc:
        lemma = word.lemma_.lower() if word.pos_ == "VERB" else \
            wordnet.verb_of_participle(word.lower_) if word.pos_ == "ADJ" and word.dep_ == "acomp" else None
        subject = doer_of(word if word.pos_ == "VERB" else word.head) if lemma else None
        if subject is not None and _the_speaker_in(subject) and wordnet.verb_lexical_file(lemma) == "verb.social" \
                and not wordnet.parts_from_an_association(lemma):
            return True
    return False
