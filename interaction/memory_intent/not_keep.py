"""A turn that asks Nadine not to keep what it says: "please don't remember that one", "don't write
that down", "you don't need to remember this".

Read from spaCy's parse and the memory-intent classifier, never from a phrase list: some sentence
holds a verb that is negated and addressed to Nadine (an imperative, or "you" its subject) and that
the classifier reads as a request to remember once the negation is taken out ("please remember that
one", "write that down"), or whose own clause, negation and all, the reader of such pleas
(not_keep_reader.py) takes for one ("dont save it"); or a turn that reader takes whole for one ("no need
to remember this but ..."). "Don't forget that my dentist is on Friday" is no such turn: WordNet gives
"forget" as remembering's opposite, so its negation asks to keep. "I don't remember that one" is not addressed to her. Nor is a negation on
what she would let the person do ("don't let me forget", "never allow me to forget"): the clause it
governs has the person doing it, so it bids about the person's own mind, and the classifier's reading
of the whole turn stands ("my locker code is 4471, don't let me forget" asks her to keep it).
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

from interaction import cues
from interaction.memory_intent.classifier import classify
from interaction.memory_intent.refers_back import lasts_from_a_point_on
from interaction.memory_intent.verb_frames import mood, needed_by_no_one

NOT_KEEP = "not_keep"
# what a turn may be read as before it is checked for a negated request: a "don't remember that" reads
# as a remember request to the classifier, which sees its words more than its negation, and one the
# classifier reads as not to keep may name a thing she holds ("do not remember my previous PIN")
_CHECKED = ("remember", "statement", NOT_KEEP)
_PAST = {"VBD", "VBN"}
_CLAUSES = {"ccomp", "xcomp"}
_SUBJECTS = {"nsubj", "nsubjpass"}
_OBJECTS = {"dobj", "dative"}
_JOINED = {"conj", "cc", "parataxis", "advcl", "punct", "ccomp"}  # clauses beside a verb's own


def _addressed(verb: Any) -> bool:
    """An imperative, or "you" the subject of a present clause ("you don't need to ..."; "you didn't
    remember my birthday" tells what she did)."""
    past = (verb.tag_ in _PAST or any(c.dep_ in ("aux", "auxpass") and c.tag_ in _PAST for c in verb.children)) \
        and not _wished(verb)
    # "don't" before a bare verb without a subject bids, wherever the parser hangs it ("Please don't
    # remember this: I failed ..." makes it a complement of "failed")
    bare_negated = verb.tag_ == "VB" and not any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in verb.children) \
        and any(c.dep_ == "aux" and c.lemma_ == "do" for c in verb.children)
    return mood(verb) == "bid" or bare_negated or (not past and any(c.dep_ == "nsubj" and c.lower_ in ("you", "u")
                                                                    for c in verb.children))


def _wished(verb: Any) -> bool:
    """The verb's clause is the complement of a modal ("I'd rather you didn't remember any of this", "I
    would prefer you didn't keep it"): its past tense is the irrealis of a wish, not a report of what
    was done."""
    head = verb.head
    return verb.dep_ == "ccomp" and (head.tag_ == "MD" or any(c.dep_ == "aux" and c.tag_ == "MD" for c in head.children))


def _the_persons_doing(verb: Any) -> bool:
    """The verb governs a clause whose doer is the person ("let me forget", "allow me to forget"):
    its subject, or the verb's object when the clause has none, is in the first person (by the
    parse's morphology). A clause said before the verb ("I owe my brother 200, you don't need to
    remember that") or one a "that" opens ("don't remember that I said ...") is what is told, not
    something the verb lets them do."""
    for clause in (c for c in verb.children if c.dep_ in _CLAUSES and c.i > verb.i
                   and not any(m.dep_ == "mark" for m in c.children)):
        doer = next((c for c in clause.children if c.dep_ in _SUBJECTS), None) or \
            next((c for c in verb.children if c.dep_ in _OBJECTS), None)
        if doer is not None and doer.morph.get("Person") == ["1"]:
            return True
    return False


def _without_negation(verb: Any, own_clause: bool = False) -> str:
    """The verb's sentence, or with `own_clause` its own clause (without the clauses joined to it or set
    beside it: "this is between us, don't keep it: I've got an interview", "don't remember this but I
    cried at a film"), with its negation and the "do" that carries it taken out."""
    dropped = {c.i for c in verb.children if c.dep_ == "neg" or (c.dep_ == "aux" and c.lemma_ == "do")}
    if needed_by_no_one(verb):
        dropped |= {c.i for c in verb.head.children if c.dep_ == "det"}
    return _clause_text(verb, dropped, own_clause)


def _clause_text(verb: Any, dropped: set[int], own_clause: bool = True) -> str:
    if own_clause:
        dropped = dropped | {t.i for c in verb.children if c.dep_ in _JOINED for t in c.subtree}
    kept = [t for t in (verb.subtree if own_clause else verb.doc) if t.i not in dropped]
    text = kept[0].text if kept else ""
    for before, t in itertools.pairwise(kept):
        # words either side of a dropped one stay apart ("Oh, don't ..." without its comma: "Oh don't ...")
        text += (before.whitespace_ or (" " if t.i != before.i + 1 else "")) + t.text
    return text.strip(" ,.;:-")


@functools.lru_cache(maxsize=64)  # a plea's turn is read for it by its intent, its scope and what it tells beside
def _negated_requests(text: str) -> tuple[tuple[Any, ...], tuple[Any, ...], bool]:
    """The negated verbs of `text` addressed to Nadine, those of them that ask her not to keep
    something, and whether one of them is remembering's opposite (WordNet's antonym: "don't forget
    that the plumber comes on Thursday" asks to keep it, whatever the rest of its words are near)."""
    from interaction.memory.retrieval.lexicon import load_wordnet
    from interaction.memory_intent.not_keep_reader import asks_not_to_keep
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return (), (), False
    wordnet = load_wordnet()
    negated, asked, forbids_forgetting = [], [], False
    for doc in nlp.pipe(cues.sentences(text)):
        for verb in doc:
            if not ((any(c.dep_ == "neg" for c in verb.children) and _addressed(verb) or needed_by_no_one(verb))
                    and not _the_persons_doing(verb)):
                continue
            negated.append(verb)
            opposite = wordnet.verb_antonyms(verb.lemma_) if wordnet is not None else frozenset()
            if "remember" in opposite:  # remembering's opposite negated asks to keep
                forbids_forgetting = True
            elif _remembering_bid(verb, opposite) \
                    or any(classify(_without_negation(verb, own)).intent == "remember" for own in (False, True)) \
                    or (not _tells_someone(verb, wordnet) and _done_to_something(verb)
                        and asks_not_to_keep(_clause_text(verb, set()))):
                # ... or the plea's own clause, negation and all, reads as one to the reader of such pleas
                # ("dont save it": "save it" is too few words for the intent classifier to read as a request);
                # one not to tell someone ("don't tell anyone yet, but ...") keeps it between them instead,
                # and one done to nothing is no keeping ("don't laugh, but ...", "don't panic")
                asked.append(verb)
    return tuple(negated), tuple(asked), forbids_forgetting


def _remembering_bid(verb: Any, opposite: frozenset[str]) -> bool:
    """Remembering itself (WordNet gives "forget" as its opposite), negated as a bid ("please don't
    remember anything else I tell you today"): a plea, whatever the classifier makes of its object; one
    a modal negates says what cannot be ("cant remember what that film was called")."""
    return "forget" in opposite and not any(c.dep_ == "aux" and c.tag_ == "MD" for c in verb.children)


def bids_not_to_keep(text: str) -> bool:
    """Some verb of `text` bids Nadine not to keep something ("..., so don't keep this, okay?"): said
    with a question mark, it asks to be obeyed, not what was kept."""
    return bool(_negated_requests(text)[1])


def not_keep_intent(text: str) -> str | None:
    """not_keep when `text` asks Nadine not to keep what it says (a negated request to keep, or what the
    reader of such pleas takes the whole turn for: "no need to remember this but ...", "dont log it");
    forget_one when what it asks her not to remember is a thing it names ("don't remember my blood type
    anymore") and it tells nothing besides; remember when all it asks is not to forget; None when it
    asks neither."""
    from interaction.memory_intent.not_keep_reader import asks_not_to_keep

    negated, asked, forbids_forgetting = _negated_requests(text)
    if not asked:
        if forbids_forgetting:
            return "remember"
        if not asks_not_to_keep(text):
            return None
        asked = negated
    if asked and len(cues.sentences(text)) == 1 and all(_names_a_thing_held(v) for v in asked):
        return "forget_one"
    return NOT_KEEP


# the pronouns that stand for people (a closed class of English grammar)
_PEOPLE_PRONOUNS = frozenset({"anyone", "anybody", "everyone", "everybody", "someone", "somebody", "nobody",
                              "him", "her", "them", "us"})


def _tells_someone(verb: Any, wordnet: Any) -> bool:
    """The verb has someone it would be done to: a dative, or an object or a "to" phrase that is a person
    ("don't tell anyone", "don't mention it to my sister"), by the pronoun or by WordNet."""
    def person(t: Any) -> bool:
        return t.lower_ in _PEOPLE_PRONOUNS or (wordnet is not None and t.pos_ in ("NOUN", "PROPN")
                                                and (t.pos_ == "PROPN" or wordnet.kind_of_person(t.lemma_.lower())))

    to = [g for c in verb.children if c.dep_ == "prep" and c.lower_ == "to" for g in c.children if g.dep_ == "pobj"]
    return any(c.dep_ == "dative" for c in verb.children) or any(
        person(t) for t in [*(c for c in verb.children if c.dep_ == "dobj"), *to])


def _done_to_something(verb: Any) -> bool:
    """The verb has an object, with its particle or not ("save it", "write that down"): keeping is done
    to what is kept."""
    return any(c.dep_ in ("dobj", "dative") for c in verb.children)


def tells_beside_the_plea(text: str) -> bool:
    """Something of the turn besides its pleas not to keep has a verb with a subject of its own (the news
    the plea is about: "Between you and me, I'm leaving my job. Please don't write that down."); not a
    plea alone ("please don't save anything I say today, ok?"), nor a question beside it. A plea read
    whole ("... not one for your memory") is about its own turn unless it lasts from a point on and
    no verb has a subject news is told of. True without the parser."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        nlp = load_parser()
    except ParserUnavailable:
        return True
    negated, _, _ = _negated_requests(text)
    if not negated:
        # a plea read whole, by the reader of such pleas alone, is taken for one about its own turn
        # ("Watch this space." reads to it as one), but for one bounded from a point on that tells
        # nothing beside: news told with it has someone or something it is told of
        return not lasts_from_a_point_on(text) or any(
            t.pos_ in ("VERB", "AUX") and any(c.dep_ in _SUBJECTS and _told_of(c) for c in t.children)
            for doc in nlp.pipe(s for s in cues.sentences(text) if not cues.is_question(s)) for t in doc)
    # a plea said as a wish ("I'd rather you didn't ...") is the whole sentence that wishes it
    plea = set()
    for verb in negated:
        top = verb.head if _wished(verb) else verb
        plea |= {(verb.doc.text, t.i) for t in top.subtree if not any(
            a.dep_ in _JOINED and a.head in (top, verb) and a.i != verb.i for a in [t, *t.ancestors] if a.i != top.i)}
    # a question beside the plea tells nothing ("Can we keep everything from now on between us? Don't save it.")
    return any((doc.text, t.i) not in plea and t.pos_ in ("VERB", "AUX") and any(c.dep_ in _SUBJECTS for c in t.children)
               for doc in nlp.pipe(s for s in cues.sentences(text) if not cues.is_question(s)) for t in doc)


def points_before_the_turn(text: str) -> bool:
    """A plea whose object points back ("that", "it") said before anything the turn tells ("Oh, don't
    write that down, she hasn't told anyone."): what it points at was said before the turn, and what
    follows it says why."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    negated, _, _ = _negated_requests(text)
    if not negated or not any(c.dep_ in _OBJECTS and c.lower_ in ("that", "it") for c in negated[0].children):
        return False
    plea, said = negated[0], cues.sentences(text)
    try:
        before = [t for doc in load_parser().pipe(said[:said.index(plea.doc.text)]) for t in doc]
    except (ParserUnavailable, ValueError):
        return False
    return not any(t.pos_ in ("VERB", "AUX") and any(c.dep_ in _SUBJECTS for c in t.children)
                   for t in [*before, *plea.doc[:plea.i]])


def _told_of(subject: Any) -> bool:
    """A subject news is told of: someone by a personal pronoun ("I", "we", "it"), or a word of content
    ("my mum", "Paul"); not a quantifier or a demonstrative that stands for the talk ("none of this goes
    into your memory", "that's not one for your records")."""
    return "Prs" in subject.morph.get("PronType") or not subject.is_stop


def _names_a_thing_held(verb: Any) -> bool:
    """What Nadine is asked not to remember is a thing by its noun ("don't remember my blood type
    anymore"), not the words around the request ("don't remember this", "don't write that down"): a
    thing she may hold from before, so the request is to forget it, as is one the object is about
    ("don't remember anything about Kevin"); not one an indefinite article brings in anew ("don't make a
    note of this")."""
    return any(c.dep_ in _OBJECTS and (c.pos_ in ("NOUN", "PROPN") and not c.is_stop and not any(
        d.dep_ == "det" and "Ind" in d.morph.get("Definite") for d in c.children) or _about_a_thing(c)) for c in verb.children)


def _about_a_thing(word: Any) -> bool:
    """The object says what it is about by a noun or a name ("anything about Kevin", "nothing about my
    health"): that thing, held from before, is what is not to be kept."""
    return any(p.dep_ == "prep" and p.lower_ == "about" and any(o.dep_ == "pobj" and o.pos_ in ("NOUN", "PROPN")
                                                                for o in p.children) for p in word.children)


def _negated(text: str) -> bool:
    """Some word of the turn is negated (spaCy's "neg": "don't", "never", "not")."""
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return any(t.dep_ == "neg" for doc in load_parser().pipe(cues.sentences(text)) for t in doc)
    except ParserUnavailable:
        return False


def memory_intent(text: str) -> str:
    """The classifier's memory intent of `text`, or what a request not to keep asks (not_keep_intent)."""
    intent = classify(text).intent
    if intent == "forget_one" and _negated(text):
        # a negated request to keep reads to the classifier much as one to forget ("for the rest of this
        # chat please don't store anything"); a request to forget negates nothing, and is never checked
        # by the reader of whole pleas, which would take forgetting for one
        return not_keep_intent(text) or intent
    return (not_keep_intent(text) or intent) if intent in _CHECKED else intent
