"""Where a proposed profile fact was said: the words of the utterance that hold its value, in a clause
the speaker is the subject of.

Whatever proposes a fact (the rules and the spaCy reader of extract.py, the fact-change classifier, a
model's memory update) hands its value here, and a value this module cannot point to is not stored:
- the value's words must occur in the utterance (a model's "Prague University" nobody said does not);
- in a sentence that is not a question ("What did I tell you about my paper?" states nothing);
- in a clause whose subject is the speaker, read off spaCy's dependency parse: a first-person subject
  ("I", "we", "my wife and I"), or something of the speaker's that is the field's own notion rather
  than another person ("my job is ...", "my hobbies are ..."; "my sister lives in Madrid" is her life,
  not theirs): the possessed noun's MiniLM similarity to the field's notion against that of a person
  the speaker knows (on 24 people and 33 field nouns written for this check, 12 of 120 person-field
  pairs read as the field, none of the field nouns as a person);
- a new value not negated nor wished ("I don't work at Google", "I'd love to live in Rome"), nor a
  plan: a work or place fact under another verb ("I'm going to move to Lyon", "I plan to work at
  Ikea"), a goal not reached yet ("I'm moving to Oslo": the progressive of going somewhere), or a
  clause that names a time ahead of the clock ("I start at Volvo next week");
- never the speaker's own name ("Hello! My name is Eileen" names nobody's hobby);
- in words whose kind fits the field, by the preposition that governs them and spaCy's entity labels:
  a place ("in Munich", "to Bergen") is not an employer, an employer ("at Prague University") not a
  home, a job is no place nor person ("as a nurse", not "in Sydney"), the town someone moved away
  from ("from Oslo") not where they live now, and a hobby no day, place, firm or person ("I play
  squash on Tuesdays", "I drive a blue Volvo"), and a topic of interest named as one is ("interested
  in", "into", "keen on"; not the "way" of "I'm Marta by the way");
- and one stretch of words is one fact: "Munich" in "a robotics engineer in Munich" is the location,
  so it is not also the company.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from cachetools import LRUCache

from common.store.facts import FactWords
from interaction import cues
from interaction.offline.parsing import of_feeling, subject_of
from interaction.profiles import MemoryUpdate

log = logging.getLogger("nadine.interaction.grounding")

# a possessed subject ("my N is ...") nearer the field's notion than PERSON_NOTION is the speaker's own
PERSON_NOTION = "family member or friend"
FIELD_NOTIONS = {
    "current_company": "my employer, the company I work for", "current_position": "my job, my profession, what I do for a living",
    "location": "my home, the town I live in", "hobbies": "my hobby, my pastime", "interests": "my interest, my passion",
    "hometown": "where I come from, my hometown", "age": "my age, how old I am",
    "relations": "a person in my life, my family",
}

_SUBJECTS = {"nsubj", "nsubjpass"}
_PLACE_ENTS = {"GPE", "LOC"}
_CONTENT_POS = {"NOUN", "PROPN", "NUM", "ADJ", "VERB", "X"}  # a value's words hold one of these
_EMPLOYER_PREPS = {"at", "for", "with", "by"}
_ADDRESS = frozenset({"title", "form_of_address"})  # WordNet's kinds of "Mr", "Mrs", "Miss"
_WORD = re.compile(r"\w+")
_PLACE_PREPS = {"in", "to", "from", "into", "near", "outside"}
_GOAL_PREPS = {"to", "into"}  # where a move ends: not reached while it is still going on ("I'm moving to Oslo")
# entity labels a hobby's or an interest's words never carry ("on Tuesdays", "a blue Volvo", "in Kona")
# the prepositions a topic of interest is said with ("interested in", "into", "keen on", "fond of",
# "obsessed with", "a passion for", "crazy about"); "by the way" names no topic
_TOPIC_PREPS = {"in", "into", "about", "on", "of", "with", "for"}
_WHEN = {"DATE", "TIME"}
_NOT_A_TOPIC = _WHEN | {"CARDINAL", "ORDINAL", "QUANTITY", "MONEY", "PERCENT"}
_NOT_A_PASTIME = _NOT_A_TOPIC | {"GPE", "LOC", "FAC", "ORG", "PERSON", "PRODUCT", "NORP"}
CLAUSE_FIELDS = {"current_position", "current_company", "location"}  # said back in their clause (not a hobby's list)
_LISTED = {"hobbies", "interests"}
MAX_CLAUSE_WORDS = 20  # a longer clause is said back by its fields' own words


@dataclass(frozen=True)
class Proposal:
    field: str
    value: str
    new: bool = True  # a value that becomes true (set / supersede); False: one that ends (close)


@dataclass(frozen=True)
class Grounded:
    field: str
    value: str
    start: int  # the character span of the value in the utterance
    end: int
    said: str  # the value as the person said it, with their article ("a nurse")
    home: bool = False  # a location said as where they live ("I live in"), not a job's place ("a nurse in")
    clause: str | None = None  # the clause it was said in, a work or place fact's only ("I drive a tram in Zurich")

    @property
    def words(self) -> FactWords:
        """How it was said, as the profile keeps it."""
        return FactWords(clause=self.clause, home=self.home if self.field == "location" else None)


def first_person(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    return "1" in tok.morph.get("Person")


def _value_pattern(value: str) -> re.Pattern | None:
    words = _WORD.findall(value)
    if not words:
        return None
    return re.compile(r"(?<!\w)" + r"\W*".join(re.escape(w) for w in words) + r"(?!\w)", re.IGNORECASE)


def _words(text: str) -> list[str]:
    return [w.casefold() for w in _WORD.findall(text)]


def is_name(value: str, names: Iterable[str | None]) -> bool:
    """The value is (part of) one of the speaker's names."""
    words = set(_words(value))
    return bool(words) and any(words <= set(_words(n)) for n in names if n)


class FactGrounding:
    def __init__(self, nlp, embed: Callable[[list[str]], np.ndarray]) -> None:  # noqa: ANN001
        self.nlp = nlp
        self.embed = embed
        fields = list(FIELD_NOTIONS)
        vectors = embed([PERSON_NOTION, *(FIELD_NOTIONS[f] for f in fields)])
        self._towards = {f: vectors[i + 1] - vectors[0] for i, f in enumerate(fields)}
        self._own: LRUCache[tuple[str, str], bool] = LRUCache(256)
        self._lock = threading.Lock()

    def doc(self, text: str):  # noqa: ANN201 - a spaCy Doc (load_parser's pipeline remembers recent parses)
        return self.nlp(text)

    def is_own(self, noun: str, field: str) -> bool:
        """"my <noun>" names the speaker's own `field` (their job, home, hobby), not a person they know."""
        key = (noun.casefold(), field)
        with self._lock:
            known = self._own.get(key)
        if known is None:
            known = field in self._towards and float(self.embed([noun])[0] @ self._towards[field]) > 0.0
            with self._lock:
                self._own[key] = known
        return known

    def ground(self, text: str, proposals: list[Proposal], names: Iterable[str | None] = (),
               taken: Iterable[Grounded] = (), now: datetime | None = None) -> list[Grounded | None]:
        """For each proposal (in order), where the speaker said it, or None; a stretch of words
        already grounded for one field (here or in `taken`) grounds no other. `now`: when it was said
        (a time named ahead of it makes a plan); None: times named are not read."""
        names = list(names)
        doc = self.doc(text)
        taken = [(g.start, g.end, g.field) for g in taken]
        out: list[Grounded | None] = []
        for p in proposals:
            found = None if is_name(p.value, names) else self._find(doc, text, p, taken, now)
            if found is not None:
                taken.append((found.start, found.end, found.field))
            out.append(found)
        return out

    def coordinated(self, text: str, found: Grounded, taken: Iterable[Grounded] = ()) -> list[Grounded]:
        """The other values of a pastime or topic said in one breath with `found` ("I play tennis and
        the piano", "I'm into jazz, opera and folk"): the words coordinated with its head in spaCy's
        parse, each of the same kind (a noun with a noun), fitting the field and not already
        grounded, in the clause `found` was said in."""
        if found.field not in _LISTED:
            return []
        doc = self.doc(text)
        span = doc.char_span(found.start, found.end, alignment_mode="expand")
        if span is None:
            return []
        first = span.root
        while first.dep_ == "conj":
            first = first.head
        nominal = {"NOUN", "PROPN"}
        kind = nominal if span.root.pos_ in nominal else {span.root.pos_}
        spans = [(g.start, g.end) for g in (*taken, found)]
        out: list[Grounded] = []
        for member in (first, *_conjuncts(first)):
            if member.pos_ not in kind or span.start <= member.i < span.end:
                continue
            words = _own_words(member)
            if any(a < words.end_char and words.start_char < b for a, b in spans):
                continue
            if not _fits(found.field, words, True):
                continue
            words = _narrowed(words)
            before = doc[words.start - 1] if words.start else None
            article = before is not None and before.morph.get("PronType") == ["Art"]
            out.append(Grounded(found.field, words.text, words.start_char, words.end_char,
                                f"{before.lower_} {words.text}" if article else words.text, clause=found.clause))
            spans.append((words.start_char, words.end_char))
        return out

    def _find(self, doc, text: str, p: Proposal, taken: list[tuple[int, int, str]],  # noqa: ANN001
              now: datetime | None) -> Grounded | None:
        pattern = _value_pattern(p.value)
        if pattern is None:
            return None
        for match in pattern.finditer(text):
            if any(a < match.end() and match.start() < b and f != p.field for a, b, f in taken):
                continue
            span = doc.char_span(match.start(), match.end(), alignment_mode="expand")
            if span is None or cues.is_question(span.sent.text):
                continue
            span = _holding_words(span)
            if span is None:
                continue
            clause = self._speakers(span.root, p)
            if clause is not None and p.new and _planned(span.root, clause, p.field, now, _raised(span)):
                continue
            if clause is not None and _fits(p.field, span, p.new):
                if p.field in _LISTED:
                    span = _narrowed(span)
                before = doc[span.start - 1] if span.start else None
                article = before is not None and before.morph.get("PronType") == ["Art"]
                value = p.value if span.text.casefold() == match.group(0).casefold() else span.text
                said = f"{before.lower_} {value}" if article else value
                # a value said beside the name ("I'm Harold, retired engineer") is said back in the field's
                # words, a place within what is said beside it in the clause without the name ("I'm Lotte, a
                # master's student in Groningen": "I'm a master's student in Groningen"); a job said as done
                # to them in the field's words too ("promoted to ward manager today" is no job of today)
                beside = next((t for t in (span.root, *span.root.ancestors) if t.dep_ == "appos"), None)
                raised = p.field == "current_position" and any(c.dep_ == "auxpass" for c in clause.children)
                words = None if raised or beside is span.root else _clause_words(clause, p.field)
                if words is not None and beside is not None:
                    words = _without(words, beside.head)
                return Grounded(p.field, value, span.start_char, span.end_char, said,
                                p.field == "location" and said_as_home(span), words)
        return None

    def _speakers(self, tok, p: Proposal):  # noqa: ANN001, ANN202 - a spaCy Token or None
        """The nearest clause above `tok` that has a subject, when the speaker is its subject (a relative
        clause on something the speaker is passes up to it) and, for a new value, it is not negated or
        modal; its predicate, else None."""
        node, below = tok, None
        while True:
            subject = subject_of(node)
            if subject is not None and subject.tag_.startswith("W") and below is not None \
                    and below.dep_ in ("attr", "acomp"):
                return None  # "..., which is a relief": what the clause before it was, nobody's fact
            if subject is not None and subject.i != tok.i and not subject.tag_.startswith("W"):
                if p.new and any(c.dep_ == "neg" or c.tag_ == "MD" for c in node.children):
                    return None
                # a verb sharing the subject ("I left Ikea and started at Volvo") is its own clause
                own = below if below is not None and below.dep_ == "conj" and (
                    below.pos_ in ("VERB", "AUX") or verb_read_as_a_noun(below)) else node
                return own if self._is_speaker(subject, p.field) else None
            if node.head.i == node.i:
                # a clause without a subject ("Moved to Lyon last month."): only the speaker is meant,
                # unless it is an order to someone else
                return node if node.tag_ != "VB" else None
            node, below = node.head, node

    def _is_speaker(self, subject, field: str) -> bool:  # noqa: ANN001
        if first_person(subject) or any(c.dep_ == "conj" and first_person(c) for c in subject.children):
            return True
        owner = next((c for c in subject.children if c.dep_ == "poss"), None)
        return owner is not None and first_person(owner) and not _a_person(subject.lemma_) \
            and self.is_own(subject.lemma_, field)


def verb_read_as_a_noun(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """A bare noun the parser joined to a verb, with a phrase of its own under it and no article or
    owner: a verb sharing that verb's subject ("I live in Bath and work at the museum", "work" tagged a
    noun), not a thing ("I play tennis and golf at the club": "golf" is joined to "tennis")."""
    return tok.pos_ == "NOUN" and tok.dep_ == "conj" and tok.head.pos_ in ("VERB", "AUX") \
        and any(c.dep_ == "prep" for c in tok.children) and not any(c.dep_ in ("det", "poss") for c in tok.children)


def _raised(span) -> bool:  # noqa: ANN001 - a spaCy Span
    """The value is what a passive verb raises or moves them "to" ("promoted to senior engineer"); the
    small parser may read "to head chef" as an infinitive, so the "to" is the word typed before it,
    under the passive verb however the words between hang."""
    to = span.doc[span.start - 1] if span.start else None
    verb = next((a for a in to.ancestors if a.tag_ == "VBN"), None) if to is not None and to.lower_ == "to" else None
    return verb is not None and any(c.dep_ == "auxpass" for c in verb.children)


def _without(clause: str, name) -> str:  # noqa: ANN001 - a spaCy Token
    """The clause without the name a value was said beside, and the comma after it ("I'm Lotte, a
    master's student in Groningen" -> "I'm a master's student in Groningen")."""
    return re.sub(rf"\b{re.escape(name.text)}\s*,?\s*", "", clause, count=1) if name.pos_ == "PROPN" else clause


def _a_person(noun: str) -> bool:
    """A kind of person first in WordNet ("my kids sing" tells of them, never of the speaker)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and wordnet.kind_of_person(noun)


def _conjuncts(tok) -> list:  # noqa: ANN001 - a spaCy Token
    """The words coordinated with `tok`, in order ("the piano" and "chess" of "tennis, the piano and chess")."""
    out = []
    for child in tok.children:
        if child.dep_ == "conj":
            out += [child, *_conjuncts(child)]
    return out


def _own_words(tok):  # noqa: ANN001, ANN202 - a spaCy Token -> Span
    """A coordinated word's own phrase: its subtree without its conjuncts, their joints and its
    article ("the piano" of "tennis and the piano" -> "piano")."""
    inner = [t for t in tok.subtree if t.dep_ not in ("conj", "cc", "punct") or t.head.i != tok.i]
    inner = [t for t in inner if not any(a.dep_ in ("conj", "cc") and a.head.i == tok.i for a in [t, *t.ancestors]
                                         if a.i != tok.i)]
    start = min(t.i for t in inner)
    while start < tok.i and tok.doc[start].morph.get("PronType") == ["Art"]:
        start += 1
    return tok.doc[start:max(t.i for t in inner) + 1]


def _holding_words(span):  # noqa: ANN001, ANN202 - a spaCy Span or None
    """The words that hold a value: the span itself when it has a content word; the noun phrase a
    lone article or determiner opens ("the" of "at the new bakery", all a tagger may mark), without
    that article; None for other function words alone ("the" is nowhere anyone works)."""
    if any(t.pos_ in _CONTENT_POS for t in span):
        return span
    root = span.root
    if root.dep_ == "det" and root.head.pos_ in ("NOUN", "PROPN") and root.head.i > root.i and span.end == root.i + 1:
        return span.doc[root.i + 1: root.head.i + 1]
    return None


def _narrowed(span):  # noqa: ANN001, ANN202 - a spaCy Span
    """A pastime or topic with the words right before it that narrow its noun ("bonsai trees",
    "Italian cooking"): the value is what the person said they do, not its bare noun."""
    start = span.start
    for left in sorted(span.root.lefts, key=lambda t: -t.i):
        if left.i != start - 1 or left.dep_ not in ("compound", "amod") or left.ent_type_ in _WHEN:
            break
        start = left.i
    return span.doc[start:span.end]


def _planned(tok, pred, field: str, now: datetime | None, raised: bool = False) -> bool:  # noqa: ANN001 - spaCy Tokens
    """The value `tok` is said in a plan, not as what is true now: a work or place fact whose
    predicate is the complement of another verb on the way up to the speaker's clause `pred` ("I'm
    going to move to Lyon", "I hope to work at Ikea"); the goal of a move still in progress ("I'm
    moving to Oslo"); or a clause naming a time ahead of `now` ("I start at Volvo next week").
    `raised`: the value is a rank they were moved to (_raised), which the small parser may read as an
    infinitive ("promoted to head chef": "to head" a verb), so that complement is no plan."""
    from interaction.memory.time_window import names_time_ahead
    from interaction.offline.self_description import clause_text, said_as_measure

    node, top = tok, tok
    while node.i != pred.i and node.head.i != node.i:
        if node.dep_ == "xcomp" and field in CLAUSE_FIELDS and not (raised and node.i == tok.i):
            return True
        node, top = node.head, node
    if field in CLAUSE_FIELDS and top.dep_ == "dobj" and of_feeling(pred) \
            and not any(c.dep_ == "poss" and first_person(c) for c in top.children):
        return True  # "I want a job as a lifeguard" ("I love my job as a nurse" tells the one they have)
    progressive = pred.tag_ == "VBG" and any(c.dep_ == "aux" and c.lemma_ == "be" for c in pred.children)
    if progressive and top.dep_ == "prep" and top.lower_ in _GOAL_PREPS:
        return True
    if now is None or any(c.dep_ == "aux" and c.lemma_ == "have" for c in pred.children):
        # ... a clause in the perfect tells what has held up to now: a time it names is how long ("I have
        # been working for twenty years as an electrician", which the calendar reads as twenty years ahead)
        return False
    said = clause_text(pred)
    for age in (t for t in pred.subtree if t.pos_ == "ADJ" and said_as_measure(t)
                and any(w.like_num or w.pos_ == "NUM" for w in t.subtree)):
        # how old or big someone is ("78 years young") names no time ahead; "next week" still does
        said = said.replace(pred.doc[age.left_edge.i:age.right_edge.i + 1].text, "")
    return names_time_ahead(said, now)


def done_as_said(pred) -> bool:  # noqa: ANN001 - a spaCy Token
    """A pastime said by what the person does ("I sing in a choir", "I grow bonsai trees"), not by a
    verb of liking or being ("I love chess", "I'm into jazz"), which "you enjoy ..." says as well:
    by the verb's most frequent WordNet sense; never without WordNet."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return pred.pos_ == "VERB" and wordnet is not None and wordnet.verb_lexical_file(pred.lemma_) not in (
        None, "verb.emotion", "verb.stative")


def _clause_words(pred, field: str) -> str | None:  # noqa: ANN001
    """The clause a work or place fact, or a pastime said by its doing, was said in, when it has its
    own subject and is short enough to be said back whole."""
    from interaction.offline.self_description import clause_text

    shared = pred.dep_ == "conj" and any(c.dep_ in _SUBJECTS for c in pred.head.children)
    said_whole = field in CLAUSE_FIELDS or (field == "hobbies" and done_as_said(pred))
    if not said_whole or not (shared or any(c.dep_ in _SUBJECTS for c in pred.children)):
        return None
    text = clause_text(pred)
    return text if 0 < len(_WORD.findall(text)) <= MAX_CLAUSE_WORDS else None


def _fits(field: str, span, new: bool) -> bool:  # noqa: ANN001
    """The governing preposition fits the field, and the entity labels where it says nothing. The small
    tagger's labels err every way ("joined Spotify" a place, "to Lyon" an organisation, "for Pfizer" a
    person), so a place after "in" / "to" is a home and never an employer, an employer after "at" /
    "for" no home unless tagged a place, and a label decides only a value without a preposition."""
    root = span.root
    labels = {t.ent_type_ for t in span if t.ent_type_}
    # a value said beside another, or joined to it ("from Lyon, France", "in Paris and Berlin"), is
    # under the other's preposition
    held = root
    while held.dep_ in ("appos", "conj") and held.head.i != held.i:
        held = held.head
    prep = held.head.lower_ if held.dep_ == "pobj" else None
    if labels & _WHEN or (root.dep_ == "npadvmod" and _a_time(root)):
        return False  # "this morning", "every morning" say when: nobody works for, lives in or enjoys a time
    if field == "current_company":
        if prep is None:  # a value that ends is one they have: the tagger's person there ("I left Spar") is that
            return not new or "PERSON" not in labels
        return prep in _EMPLOYER_PREPS and not ("PERSON" in labels and _addressed_as_a_person(span[0]))
    if field == "location":
        if prep is None:  # with no preposition to say so, a place by its name ("'s neighbour" is none)
            return not labels & {"PERSON", "ORG"} and (bool(labels & _PLACE_ENTS) or root.pos_ == "PROPN")
        if prep == "from":
            return not new  # where they came from is not where they live now
        return prep in _PLACE_PREPS or (prep in _EMPLOYER_PREPS and bool(labels & _PLACE_ENTS))
    if field == "current_position":
        # ... or the rank they were raised to ("I've been promoted to senior engineer")
        return (prep in (None, "as") or (new and _raised(span))) and not labels & {"PERSON", *_PLACE_ENTS}
    if field == "hobbies":  # a pastime is done: never a day, an amount, a place, a firm or a person
        # a name after a preposition of place is where something is done, whatever the tagger labels it
        named_place = prep in _PLACE_PREPS and root.pos_ == "PROPN"
        # ... and a phrase beside the thing a verb is done to says where it is done ("I keep pigeons
        # at the back of the yard": the pigeons are the pastime, never "back")
        beside_object = prep is not None and any(c.dep_ == "dobj" for c in _phrase_governor(root).children)
        return not labels & _NOT_A_PASTIME and not named_place and not beside_object
    if field == "interests":  # a topic may be a band or a country, never a day or an amount
        # ... nor a word said of another ("a big fan of jazz": "big" is how much of a fan)
        # ... nor a clause ("I love when my kids sing": what happens, told with its own subject)
        return (prep is None or prep in _TOPIC_PREPS) and not labels & _NOT_A_TOPIC and root.pos_ != "ADJ" \
            and not any(c.dep_ in _SUBJECTS for c in root.children)
    return True


def _a_time(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """A noun whose most frequent WordNet sense is a time ("morning", "week"); the small parser also
    files a job listed beside a name as an adverbial noun ("Kemal here, 45, taxi driver"). Without
    WordNet, any adverbial noun says when."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is None or wordnet.names_a_time(tok.lemma_.lower())


def _addressed_as_a_person(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """The first word of a name is a form of address or a kind of person ("Mr Okoye", "Professor Lee",
    "Aunt May"): the tagger's person is one then, met or seen, never an employer ("a meeting with Mr
    Okoye"); a firm it labels a person ("for Pfizer") has no such word."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and (wordnet.kind_of(tok.text, _ADDRESS) or wordnet.kind_of_person(tok.text))


def _phrase_governor(tok):  # noqa: ANN001, ANN202 - a spaCy Token
    """The word a chain of prepositional phrases hangs from: "verb" of "verb at the back of the yard"
    for "yard"."""
    while tok.dep_ in ("pobj", "prep") and tok.head.i != tok.i:
        tok = tok.head
    return tok


def said_as_home(span) -> bool:  # noqa: ANN001 - a spaCy Span
    """The place is where the speaker lives by the predicate that governs it: a residence verb ("I live
    in a flat in Porto", "we moved to Cardiff") or being there or from there ("I'm from Porto"), not
    the place of a job or a workplace ("I'm a nurse in Porto", "I work at a law firm in Porto", "I
    drive a tram in Zurich")."""
    from interaction.offline.self_description import RESIDE, homes_told_beside

    node, through_noun, path = span.root, False, set()
    while node.head.i != node.i and node.head.pos_ not in {"VERB", "AUX"}:
        node = node.head
        through_noun = through_noun or node.pos_ in {"NOUN", "PROPN"}
        path.add(node.i)
    verb = node.head
    lemma = verb.lemma_.lower()
    # ... or the town of a home taken in a clause joined to a move ("I'm moving again, got a flat in Sopot")
    moves = [m for m in (verb.head, *verb.children) if m.i != verb.i and m.lemma_.lower() in RESIDE]
    return lemma in RESIDE or (lemma == "be" and not through_noun) or any(
        home.i in path or home.head.i == verb.i for move in moves for home in homes_told_beside(move))


@functools.cache
def default_grounding() -> FactGrounding | None:
    """The parser and the offline text embedder, or None when either cannot load (the caller then
    keeps only values that occur in the utterance's statements)."""
    from common.embedding.registry import offline_text_embedder
    from common.vision.base import BackendUnavailable
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return FactGrounding(load_parser(), offline_text_embedder().embed)
    except (ParserUnavailable, BackendUnavailable):
        return None


def ground(text: str, proposals: list[Proposal], names: Iterable[str | None] = (),
           taken: Iterable[Grounded] = (), now: datetime | None = None) -> list[Grounded | None]:
    grounding = default_grounding()
    if grounding is not None:
        return grounding.ground(text, proposals, names, taken, now)
    names = list(names)
    statements, at = [], 0
    for sentence in cues.sentences(text):
        at = text.find(sentence, at)
        if not cues.is_question(sentence):
            statements.append((at, sentence))
    out: list[Grounded | None] = []
    for p in proposals:  # without the parser: the value said in a statement, and not the name
        pattern = _value_pattern(p.value)
        found = None if pattern is None or is_name(p.value, names) else next(
            ((at, m) for at, sentence in statements if (m := pattern.search(sentence))), None)
        out.append(None if found is None else Grounded(
            p.field, p.value, found[0] + found[1].start(), found[0] + found[1].end(), p.value))
    return out


def coordinated(text: str, found: list[Grounded]) -> list[Grounded]:
    """The values said in one breath with the pastimes and topics `found` (FactGrounding.coordinated);
    none without the parser."""
    grounding = default_grounding()
    out: list[Grounded] = []
    if grounding is not None:
        for g in found:
            out += grounding.coordinated(text, g, [*found, *out])
    return out


def grounded_update(text: str, update: MemoryUpdate, names: Iterable[str | None] = (), now: datetime | None = None
                    ) -> tuple[MemoryUpdate, list[Grounded]]:
    """The extraction's facts that the speaker said about themselves (at `now`), and where each was said."""
    facts = update.facts()
    proposals = [Proposal(k, v) for k, values in facts.items() for v in (values if isinstance(values, list) else [values])]
    found = ground(text, proposals, names, now=now)
    kept = [g for g in found if g is not None]
    data = {**update.model_dump(), **{k: [] if isinstance(v, list) else None for k, v in facts.items()}}
    for g in kept:
        data[g.field] = [*data[g.field], g.value] if isinstance(data[g.field], list) else data[g.field] or g.value
    for p, g in zip(proposals, found, strict=True):
        if g is None:
            # the value stays out of the log: it is the person's words (a name, a place), erased by a forget
            log.info("not stored: %s: not said by the speaker about themselves", p.field)
    return MemoryUpdate.model_validate(data), kept
