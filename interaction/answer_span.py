"""The words of a remembered thing that answer a question about it: "When does my sister land?" over
"my sister's flight lands on Thursday at six" -> "on Thursday at six". A reply says them first, then
where they come from ("On Thursday at six — you asked me to remember that your sister's flight lands
then."), instead of reading the whole memory out as if it had only come to mind.

What the question asks is read off its question word in spaCy's parse: "when" and "what / which" with
a noun of time ("what time", "which day") ask for a time, "where" for a place, "who" for a person,
"what / which" with any other noun ("which locker", "what's my locker code?") for what that noun is in
the memory. The memory is parsed the same way: a time is its date and time entities with the
prepositions that carry them ("on Thursday at six"), a place its prepositional phrase of place on the
verb ("on level 5, space 112"), a person a person's name, a thing the value a copula gives the noun
("my locker code is 5512") or the number that names it ("platform 9"). Nothing is answered that the
question already says, and a question this cannot read (a yes / no question, "how long ...?") gets
None: the reply then says the memory as it was told.
"""

from __future__ import annotations

import functools
import itertools
import logging
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from common.messages import RecalledMemory, RecallReport
from interaction.asked_value import memory_nouns, the_same_one
from interaction.memory.retrieval.later_news import updates
from interaction.memory.retrieval.lexicon import a_kind_of
from interaction.offline.chat_spelling import lemma_meant
from interaction.offline.parsing import (
    as_capitalised,
    asked_of_the_past,
    hung_before_a_splice,
    intended_then,
    name_beside,
    of_having,
    stands_in,
    third_person,
    to_read_as_a_particle,
)
from interaction.reported_speech import dates_named, reported, said_day
from interaction.told_time import DIGITAL_CLOCK, how_long_asked, told_in

log = logging.getLogger("nadine.interaction.answer_span")

Asks = Literal["time", "place", "person", "thing", "name", "count", "object", "length"]
Found = Literal["time", "place", "person", "thing", "value", "name", "length"]  # value: what the memory says the thing is ("... is 5512")
_WH_TAGS = {"WRB", "WP", "WDT", "WP$"}
# nouns that make "what / which N" ask for a time: the units of the calendar and the clock (closed grammar)
_TIME_NOUNS = {"time", "day", "date", "month", "year", "hour", "week", "weekday", "evening", "morning", "night"}
_TIME_ENTS = {"DATE", "TIME"}
_PLACE_ENTS = {"GPE", "LOC", "FAC"}
_NAME_ENTS = {"PERSON"}  # a name in apposition calls the noun before it ("my husband Piet")
_ORDINAL = re.compile(r"\d{1,2}(?:st|nd|rd|th)")
_PLACE_PREPS = {"at", "in", "on", "near", "by", "behind", "outside", "inside", "under", "next"}
_TOWARDS = {"to", "into"}  # a place phrase on a verb of motion: where it went
_VALUE_DEPS = {"attr", "acomp", "oprd"}
# the words of a clock time besides its numbers ("at half past seven", "at a quarter to six"): closed grammar
_MERIDIEM = {"am", "pm", "a.m.", "p.m."}
_CLOCK_WORDS = {"half", "quarter", "past", "to", "a", "o'clock", *_MERIDIEM}
# a name asked of a pronoun ("her name"): of whoever the memory names
_ANYONE_NAMED = "\x01anyone named"
_NAMING = {"call", "name"}  # "what is my daughter called?", "a dog called Biscuit": closed grammar
# the light verbs, of any doing ("what did she do?", "what happened?", "what has he got?"): closed grammar,
# they ask no thing a verb was done to
_ANY_DOING = {"do", "be", "have", "happen", "get", "go"}
_COUNTING = {"many", "much"}  # "how many kittens", "how much rent": a number asked for (closed grammar)
# prepositions of a point in time or space: the phrase can stand as "then" / "there" ("lands on
# Thursday" -> "lands then"); "moved to Friday" cannot
_AT = {"on", "at", "in"}
# what hangs on a sentence's main verb as a clause or a word of its own: beside the answer unless it holds it
_BESIDE = {"ccomp", "parataxis", "conj", "cc", "intj"}
_JOINED = {"conj", "parataxis"}  # a clause of its own beside the main one (a reported one, ccomp, is not)
_TOLD_OF = {"nsubj", "nsubjpass", "dobj", "attr", "poss"}  # whom a sentence tells of: what a later "she" may stand for
_JOINING = {"to", "until", "till", "from", "for", "by", "into", "onto", "towards"}
_SPAN_END = re.compile(r"\b(?:to|until|till)\b")  # where a "from" phrase's span ends
_NUMBER = "number"  # WordNet's noun of what a numeral says
_JOB = "job"  # WordNet's noun of what one does for work: what "what does Emma do?" asks for
_KINDS = frozenset({"kind"})  # WordNet's noun a breed, a make or a type is a kind of
STANDS_FOR = {"time": "then", "place": "there"}  # the word said in the answer's place after it
ANSWER_FIRST = " — "  # between the answer said first and the memory it comes from


@dataclass(frozen=True)
class Answer:
    asks: Found
    start: int  # character span of the answer in the memory's text
    end: int

    def words(self, memory: str) -> str:
        return memory[self.start:self.end]

    def said_first(self, memory: str) -> str:
        """The answer as the reply's first words: a preposition that only joins it to the memory's verb
        is left out ("moved to Friday evenings" -> "Friday evenings"), one of time or place is kept, and
        so is the "from" of a span ("from 3 to 6")."""
        words = self.words(memory)
        first, _, rest = words.partition(" ")
        spans = first == "from" and _SPAN_END.search(rest) is not None
        return rest if rest and not self.replaceable and self.asks in ("time", "place") and first.islower() \
            and first in _JOINING and not spans else words

    def in_its_place(self, memory: str) -> str:
        """What of the memory tells the answer (`told`), with "then" / "there" where the answer was
        when it can stand there."""
        word = self.stands_for()
        pieces = []
        for a, b in self.told or ((0, len(memory)),):
            inside = word is not None and a <= self.start and self.end <= b
            piece = memory[a:self.start] + word + memory[self.end:b] if inside else memory[a:b]
            if piece.strip(" ,;-"):
                pieces.append(piece.strip(" ,;-"))
        return " ".join(pieces)

    replaceable: bool = False  # a time or place said as "on / at / in ..." or on its own ("next Friday")
    # the character spans of the memory that tell the answer: its sentence, less the clauses beside the
    # one that holds it ("Morning! I'm Tomasz, I run a bike shop in Gdansk" tells where the shop is in
    # "I run a bike shop in Gdansk"); empty: the whole memory
    told: tuple[tuple[int, int], ...] = ()

    def stands_for(self) -> str | None:
        """The word that can take the answer's place when the memory is said after it ("lands then");
        None: the memory is said whole."""
        return STANDS_FOR.get(self.asks) if self.replaceable else None


@functools.cache
def _parser():  # noqa: ANN202 - a spaCy Language or None
    from interaction.offline.self_description import ParserUnavailable, load_parser

    try:
        return load_parser()
    except ParserUnavailable as exc:
        log.error("%s; answers are said as whole memories", exc)
        return None


def answer_in(question: str, memory: str) -> Answer | None:
    """The span of `memory` that answers `question`, or None."""
    nlp = _parser()
    if nlp is None or not question.strip() or not memory.strip():
        return None
    q, m = nlp(as_capitalised(question)), nlp(as_capitalised(memory))
    asked = _what_is_asked(q)
    if asked is None:
        return _done_in(q, m) or _age_in(q, m)
    asks, noun = asked
    said = {t.lower_ for t in q if not t.is_punct}
    named = {t.lemma_.lower() for t in q if t.pos_ in ("NOUN", "PROPN", "VERB") and not t.is_stop}
    # a memory of several clauses: the answer in the clause about what the question names first ("where
    # does my daughter study?" over "my wife is a pharmacist in York, and my daughter studies in Edinburgh")
    stranded = _stranded_preposition(q) if asks == "place" else None
    # ... and, within it, the one said of a thing the question names ("when is the optician?" over "two
    # appointments next week: the optician on Monday at 9 and ..."), not of the whole clause
    # a place said of a thing the question names ("where's the party?": "the party at the Crown"), never
    # of a noun that is only its verb's lemma ("where do I work?" over "looking for work in marketing")
    things = {t.lemma_.lower() for t in q if t.pos_ in ("NOUN", "PROPN") and not t.is_stop}
    # "who's my wife?": the name said of that word, never another person the memory names ("we have two
    # kids, Pablo and Inés")
    theirs = _person_word_asked(q) if asks == "person" and noun is None else None
    candidates = [("person", span) for _, span in _name_of(m, theirs)] if theirs is not None else \
        _candidates(m, asks, noun, stranded, things)
    found_spans = sorted(candidates or _number_of_its_owner(q, m, asks, noun)
                         or _work_of_its_owner(q, m, asks, noun) or _kind_of_its_owner(q, m, asks, noun)
                         or _named_in_its_place(q, m, asks),
                         key=lambda c: (-len(named & _clause_lemmas(c[1][0])), not _said_of_named(c[1][0], named),
                                        _done_by_someone_else(q, c[1][0])))
    # and never from a clause about something else when one is about it: "where do I work?" over "I work
    # as a piano tuner and I live in Haarlem" has no place of work to answer with
    # ("... due in april!! first baby": a sentence with no verb tells nothing about what it names)
    # a name is only ever found said of the noun asked about, whichever clause says it ("a new puppy! her
    # name is Mila")
    about = max((len(named & _clause_lemmas(t)) for t in m if t.sent.root.pos_ in ("VERB", "AUX")), default=0)
    found_spans = [c for c in found_spans if asks == "name" or len(named & _clause_lemmas(c[1][0])) >= about]
    # how long something lasts is said of it: "how long is my flight?" is no question of "staying for
    # two weeks"
    if asks == "length" and things:  # (a verb asked, "married", the tagger may read as an adjective told)
        found_spans = [c for c in found_spans if things & _clause_lemmas(c[1][0])]
    # what is asked of the speaker is never answered by what someone else does ("where do I work?" over
    # "my brother works at Airbus in Toulouse")
    found_spans = [c for c in found_spans if not _done_by_another(q, c[1][0])]
    # a time said of what does not happen ("he can't come on Sunday after all, he'll come on Saturday
    # instead") is no answer to when it does
    if asks == "time":
        found_spans = [c for c in found_spans if not _negated(c[1][0])]
    # a plan told as one that was ("I was going to Japan in April but the trip got cancelled, so I'm
    # going to Portugal in May instead", "I was meant to go to Lisbon but that's off now") answers only
    # a question of the past ("where was I going?")
    if not asked_of_the_past(q):
        found_spans = [c for c in found_spans if not intended_then(c[1][0])]
    if stranded is not None:
        # "where am I from?" is answered by where from, never by where one lives now ("I am from Osaka,
        # but now I live in Manchester"); where one goes to by a "to" phrase when one is said, else by
        # where the thing they go for is ("which town is he going to?" over "he starts an apprenticeship
        # in Dundee")
        by_it = [c for c in found_spans if c[1][0].lower_ == stranded]
        found_spans = by_it if by_it or stranded == "from" else found_spans
    for found, span in found_spans:
        # a number is news however common its word ("four" is a stop word), and so is a name the
        # recogniser marks ("May" is the modal's stop word too)
        if any(t.lower_ not in said for t in span if not t.is_punct and (not t.is_stop or t.like_num or t.ent_type_)):
            first = span[0]
            before = m[first.i - 1] if first.i > 0 else None
            # "then" / "there" stand for the phrase with its own preposition, never after another one
            # ("they moved the MRI to then")
            # ... nor for a place said by an adverb ("Ruth is back home now" is no "Ruth is there now")
            replaceable = found in ("time", "place") and (first.lower_ in _AT or not _a_preposition(first)) \
                and not (before is not None and before.pos_ == "ADP" and before.lower_ not in _AT) \
                and not (found == "place" and first.pos_ == "ADV")
            # a name stands in the subject of what it tells ("my wife Claire says ..."): what is said after stays
            beside = _BESIDE - {"ccomp"} if asks == "name" else _BESIDE
            return Answer(found, first.idx, _word_end(span[-1]), replaceable, _telling(span, beside))
    return None


def _done_in(q, m) -> Answer | None:  # noqa: ANN001 - spaCy Docs
    """What a "what" question asks a verb was done to or by ("what is Amy expecting?", "what broke?"):
    the object or subject the memory gives the same verb, not negated, done by the one the question
    names ("my daughter Amy is expecting twins": "twins"; "the boiler broke again": "the boiler"). None
    for the verbs of any doing ("what did she do?", "what happened?") and for what was said to Nadine
    ("what did I tell you?")."""
    from interaction.offline.grounding import first_person
    from interaction.offline.parsing import subject_of

    wh = next((t for t in q if t.lower_ == "what" and t.dep_ in ("dobj", "nsubj", "attr")), None)
    # the tagger may hang the "what" on the "is" of a progressive as a second subject ("what is Amy
    # expecting?"): it is the object of the verb that has a subject of its own
    verb = (wh.head.head if wh.head.dep_ == "aux" else wh.head) if wh is not None else None
    if wh is not None and wh.dep_ == "attr" and verb is wh.head:
        return None  # "what is it?": what a thing is, not what was done
    if verb is None or verb.pos_ != "VERB" or verb.lemma_ in _ANY_DOING or any(c.lower_ in ("you", "u") for c in verb.children):
        return None
    role = "dobj" if wh.dep_ == "dobj" or any(c.dep_ == "nsubj" and c.i != wh.i for c in verb.children) else "nsubj"
    asker = subject_of(verb) if role == "dobj" else None
    asked_of = {t.lemma_.lower() for t in asker.subtree if t.pos_ in ("NOUN", "PROPN")} if asker is not None else set()
    for told in (t for t in m if t.pos_ == "VERB" and lemma_meant(t) == lemma_meant(verb) and not _negated(t)):
        doer = subject_of(told)
        if role == "dobj" and not (doer is not None and (
                first_person(doer) and asker is not None and first_person(asker)
                or asked_of & {t.lemma_.lower() for t in doer.subtree})):
            continue
        thing = next((c for c in told.children if c.dep_ == role
                      and c.pos_ in ("NOUN", "PROPN")), None)
        if thing is not None:
            span = [t for t in thing.subtree if t.i <= thing.i and t.dep_ != "poss"]
            return Answer("thing", span[0].idx, _word_end(span[-1]), False, _telling(span))
    return None


def _age_in(q, m) -> Answer | None:  # noqa: ANN001 - spaCy Docs
    """How old someone is ("how old is my mum?"): the number the memory says the same one is ("my
    mother is 79"; WordNet's same person: "mum" is a "mother"), or the speaker is ("I'm 45")."""
    from interaction.offline.grounding import first_person
    from interaction.offline.parsing import subject_of

    old = next((t for t in q if t.lemma_ == "old" and any(c.lower_ == "how" for c in t.children)), None)
    asked_of = subject_of(old.head) if old is not None else None
    if asked_of is None:
        return None
    for age in (t for t in m if t.pos_ == "NUM" and t.dep_ in ("attr", "acomp")):
        told_of = subject_of(age.head)
        if told_of is not None and (first_person(told_of) if first_person(asked_of)
                                    else not first_person(told_of) and the_same_one(asked_of, told_of)):
            return Answer("thing", age.idx, _word_end(age), False, _telling([age]))
    return None


def _word_end(token) -> int:  # noqa: ANN001 - a spaCy Token
    """Where the word the token ends in ends as written: a word joined by hyphens ("my mother-in-law")
    is one word, however the tokenizer splits it."""
    doc, k = token.doc, token.i
    while k + 2 < len(doc) and not doc[k].whitespace_ and doc[k + 1].text == "-" and not doc[k + 1].whitespace_ \
            and doc[k + 2].is_alpha:
        k += 2
    return doc[k].idx + len(doc[k].text)


def _person_word_asked(q) -> str | None:  # noqa: ANN001 - a spaCy Doc
    """The person word of the speaker's a "who" question asks who is ("who's my wife?": "wife"; WordNet's
    noun.person, its two most frequent senses), as its lemma; None for any other."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return next((lemma_meant(t) for t in q if t.pos_ == "NOUN" and t.dep_ in ("nsubj", "attr")
                 and any(c.dep_ == "poss" and "1" in c.morph.get("Person") for c in t.children)
                 and wordnet is not None and wordnet.kind_of_person(lemma_meant(t), senses=2)), None)


def _a_preposition(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """A preposition however the tagger tagged it: "to" may be an infinitive's particle to it while the
    parse makes it the preposition it is ("moved to hall 3"), or a particle on a noun (parsing)."""
    return tok.pos_ == "ADP" or tok.dep_ == "prep" or to_read_as_a_particle(tok)


def _asked_of_the_speaker(q, pos: tuple[str, ...] = ("VERB",)):  # noqa: ANN001, ANN202 - a spaCy Doc -> Token
    """The question's main verb when its subject is the speaker ("where do I work?"), else None."""
    from interaction.offline.parsing import subject_of

    asked = next((t for t in q if t.dep_ == "ROOT" and t.pos_ in pos), None)
    asker = subject_of(asked) if asked is not None else None
    return asked if asker is not None and "1" in asker.morph.get("Person") else None


def _done_by_another(q, token) -> bool:  # noqa: ANN001 - a spaCy Doc and Token
    """The question asks what the speaker does ("where do I work?") and the answer's word hangs on the
    same verb done by someone else ("my brother works at Airbus")."""
    from interaction.offline.parsing import subject_of, verb_of

    asked = _asked_of_the_speaker(q)
    if asked is None:
        return False
    verb = verb_of(token)
    doer = subject_of(verb)
    # "my wife Edna and I have been married 68 years": the speaker is one of its doers
    doers = [doer, *(c for c in doer.children if c.dep_ == "conj")] if doer is not None else []
    return verb.lemma_.lower() == asked.lemma_.lower() and bool(doers) and not any("1" in d.morph.get("Person") for d in doers)


def _done_by_someone_else(q, token) -> bool:  # noqa: ANN001 - a spaCy Doc and Token
    """The question asks what the speaker does ("when do I have the kids?") and the answer's clause has
    a subject of its own that is not the speaker ("the kids are staying with her during the week", not
    "I get them on weekends"): of two clauses about what is asked, the speaker's own answers first."""
    from interaction.offline.parsing import subject_of, verb_of

    doer = subject_of(verb_of(token))
    return _asked_of_the_speaker(q, ("VERB", "AUX")) is not None and doer is not None and "1" not in doer.morph.get("Person")


def _negated(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """The verb the word hangs on is negated ("can't come on Sunday")."""
    from interaction.offline.parsing import verb_of

    return any(c.dep_ == "neg" for c in verb_of(token).children)


def _said_of_named(token, named: set[str]) -> bool:  # noqa: ANN001 - a spaCy Token
    """The nearest noun the token hangs from is one the question names."""
    noun = next((a for a in token.ancestors if a.pos_ in ("NOUN", "PROPN")), None)
    return noun is not None and noun.lemma_.lower() in named


def _stranded_preposition(q) -> str | None:  # noqa: ANN001 - a spaCy Doc
    """The preposition a where-question leaves without its object ("where am I from?", "where did
    she move to?"), lower case; None."""
    return next((t.lower_ for t in q if t.dep_ == "prep" and not any(c.dep_ == "pobj" for c in t.children)), None)


def _telling(span: list, beside_deps: set[str] = _BESIDE) -> tuple[tuple[int, int], ...]:
    """The character spans of the answer's sentence without the clauses, greetings and joints that
    hang beside the one holding the answer ("I'm Tomasz," before "I run a bike shop in Gdansk"; "and
    I work in Braga" after "I live in Porto")."""
    answer = {t.i for t in span}
    clause = span[0].sent.root
    # the answer in a clause joined to another ("..., and my son works in Voss"): that clause tells it,
    # when it says its own subject ("we'll fly to Vienna and then drive to Graz" is told whole)
    while (joined := next((c for c in clause.children if c.dep_ in _JOINED and answer <= {t.i for t in c.subtree}
                           and (c.pos_ not in ("VERB", "AUX") or any(d.dep_ in ("nsubj", "nsubjpass", "expl")
                                                                     for d in c.children))), None)) is not None:
        clause = joined
    pronoun = next((c for c in clause.children if c.dep_ in ("nsubj", "nsubjpass", "dobj") and third_person(c)), None)
    if pronoun is not None:
        # "..., she's flying in from Delhi": the clause names its subject (or object) only by a pronoun,
        # so the sentence that names who it is tells it whole, or with the sentence before when it names
        # no one before the pronoun ("My boyfriend's name is Anselm. he's a glassblower")
        sentence = span[0].sent
        named = any(t.pos_ in ("NOUN", "PROPN") for t in span[0].doc[sentence.start:pronoun.i])
        before = span[0].doc[sentence.start - 1].sent if sentence.start > 0 and not named else sentence
        return ((before.start_char, sentence.end_char),)
    if any(c.dep_ in ("nsubj", "nsubjpass") and _said_of_by_pronoun(c) for c in clause.children):
        # "a new puppy! her name is Mila": whose it is was said in the sentence before
        sentence = span[0].sent
        before = span[0].doc[sentence.start - 1].sent if sentence.start > 0 else sentence
        return ((before.start_char, sentence.end_char),)
    # what is reported before the clause is beside it even when a reported clause after it is kept
    beside = {t.i for c in clause.children if c.dep_ in beside_deps or (c.i < clause.i and c.dep_ in _BESIDE)
              for t in [*c.subtree] if not answer & {u.i for u in c.subtree}}
    kept = [t for t in clause.subtree if t.i not in beside]
    runs: list[list] = []
    for t in kept:
        if runs and runs[-1][-1].i == t.i - 1:
            runs[-1].append(t)
        else:
            runs.append([t])
    return tuple((run[0].idx, run[-1].idx + len(run[-1].text)) for run in runs)


def _said_of_by_pronoun(noun) -> bool:  # noqa: ANN001 - a spaCy Token
    """The noun's possessor is a third-person pronoun ("her name")."""
    return any(c.dep_ == "poss" and c.pos_ == "PRON" and c.morph.get("Person") == ["3"] for c in noun.children)


def _clause_lemmas(tok) -> set[str]:  # noqa: ANN001 - a spaCy Token
    """The lemmas of the clause a word stands in: the nearest verb above it with a subject, or joined
    by "and" to one whose subject it shares ("end" of "we'll start in Tokyo and end in Kyoto"), or the
    root; without the clauses joined to it by "and"."""
    head = tok
    while head.head.i != head.i and not (head.pos_ in ("VERB", "AUX") and (
            any(c.dep_ in ("nsubj", "nsubjpass") for c in head.children)
            or head.dep_ == "conj" and head.head.pos_ in ("VERB", "AUX")) and not hung_before_a_splice(tok, head)):
        head = head.head
    joined = {t.i for c in head.children if c.dep_ == "conj" and c.pos_ in ("VERB", "AUX") for t in c.subtree}
    # ... whose shared subject is its own too ("Jordan" of "works as a barista" in "Jordan is ... and works as ...")
    shared = [t for s in head.head.children if head.dep_ == "conj" and s.dep_ in ("nsubj", "nsubjpass")
              for t in s.subtree] if not any(c.dep_ in ("nsubj", "nsubjpass") for c in head.children) else []
    # a clause whose subject or object is a "she" or "them" of a sentence after the first is about what the
    # sentences before told of ("I adopted a dog. She is a greyhound.", "... I get them on weekends.")
    meant = [t for c in head.subtree if c.dep_ in ("nsubj", "nsubjpass", "dobj") and _a_pronoun_of_one_before(c)
             for t in head.doc[:head.sent.start] if t.pos_ in ("NOUN", "PROPN") and t.dep_ in _TOLD_OF]
    return {t.lemma_.lower() for t in [*head.subtree, *shared] if t.i not in joined} | {t.lemma_.lower() for t in meant}


def _a_pronoun_of_one_before(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """A third-person "he", "she", "it" or "they" in a sentence after the memory's first: whom a sentence
    before told of."""
    return third_person(token) and token.sent.start > 0


def _what_is_asked(q) -> tuple[Asks, str | None] | None:  # noqa: ANN001 - a spaCy Doc
    wh = next((t for t in q if t.tag_ in _WH_TAGS), None)
    if wh is None:
        return None
    word = wh.lower_
    if word == "when":
        return "time", None
    if word == "where":
        return "place", None
    if word in ("who", "whom"):
        # with what is done by or with whom it asks ("who is coming to stay?", "who did I have lunch
        # with?"), never what is ("who is Ines?" asks what was told of her)
        verb = wh.head.head if wh.head.dep_ == "prep" else wh.head
        return "person", verb.lemma_.lower() if verb.pos_ == "VERB" and verb.lemma_ != "be" else None
    if word == "how" and how_long_asked(q.text) is not None:
        return "time", None  # "how many days until the christening?": when it is, counted from now
    if word == "how" and wh.head.lower_ == "long":
        return "length", None  # "how long am I staying?": a stretch of time ("for two weeks")
    if word == "how" and wh.head.tag_ == "JJ" and wh.head.dep_ == "amod" and wh.head.head.pos_ == "NOUN" \
            and wh.head.lemma_.lower() in _COUNTING:
        return "count", wh.head.head.lemma_.lower()  # "how many kittens ...?": the number the memory gives them
    if word not in ("what", "which"):
        return None  # "how long is the flight?", "why ...?": not a value a memory names
    if (owner := _name_asked_of(q)) is not None:
        return "name", owner
    # "what am I allergic to?": what the adjective's preposition, left without its object, governs in
    # the memory
    stranded = next((t for t in q if t.dep_ == "prep" and t.head.pos_ == "ADJ" and not any(
        c.dep_ == "pobj" for c in t.children)), None)
    if word == "what" and stranded is not None:
        return "object", f"{stranded.head.lemma_.lower()} {stranded.lower_}"
    if _work_asked(wh):
        return "thing", _JOB
    if wh.dep_ in ("dobj", "pobj", "dative") and wh.head.lemma_ != "be":
        # "what does my husband do on Saturdays?" asks for what is done, not for what a thing is; "what did my nan
        # teach me?": the tagger may call the "what" of a verb with two objects its dative
        return None
    # ... and so does a "what" the tagger hung on the "is" of a progressive ("what is my sister going to
    # study?"): that "is" is an auxiliary, never the copula of a thing asked
    if wh.head.lemma_ == "be" and (wh.head.dep_ in ("aux", "auxpass") or any(
            c.tag_ == "VBG" and c.dep_ in ("advcl", "xcomp", "ccomp") for c in wh.head.children)):
        return None
    # "what's Ada's wifi password?": the tagger may give the copula two attributes and no subject
    noun = wh.head if wh.dep_ == "det" else next(
        (t for t in q if t.dep_ in ("nsubj", "nsubjpass") and t.pos_ in ("NOUN", "PROPN") and t.i != wh.i), None) \
        or next((t for t in wh.head.children if t.dep_ == "attr" and t.pos_ in ("NOUN", "PROPN") and t.i != wh.i), None)
    if noun is None:
        return None
    noun = _of_its_kind(_compound_head(noun))
    if noun.lemma_.lower() in _TIME_NOUNS or _of_time(noun.lemma_.lower()):
        return "time", None
    # "which city ...?", "what town ...?" ask where, by the kind of place they name
    if wh.dep_ == "det" and wh.head.i == noun.i and _a_location(noun.lemma_.lower()):
        return "place", None
    return "thing", lemma_meant(noun)


def _work_asked(wh) -> bool:  # noqa: ANN001 - a spaCy Token
    """"What does Emma do?", "what does your brother do?": the bare "do" of someone else, its object
    the "what", asks what they do for work. With anything beside it ("on Saturdays", "after school")
    it asks what they do then; of the speaker, their profile answers."""
    from interaction.offline.grounding import first_person

    verb = wh.head
    subject = next((c for c in verb.children if c.dep_ == "nsubj"), None)
    return wh.dep_ == "dobj" and verb.lemma_ == "do" and subject is not None and not first_person(subject) \
        and subject.pos_ in ("NOUN", "PROPN") and all(c.dep_ in ("nsubj", "aux", "dobj", "punct") for c in verb.children)


def _of_time(lemma: str) -> bool:
    """A noun whose most frequent WordNet sense is a time ("deadline", "birthday", "curfew"): asking
    what it is asks when."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and wordnet.names_a_time(lemma)


def _of_its_kind(noun):  # noqa: ANN001, ANN202 - a spaCy Token
    """The thing a noun of its kind is of ("what kind of ring ...?", "which type of cake ...?": a ring, a
    cake, whose kind the memory says): a noun whose most frequent WordNet sense is a notion
    (noun.cognition) with an "of" phrase naming a thing; else the noun itself."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    of = next((p for p in noun.children if p.dep_ == "prep" and p.lower_ == "of"), None)
    thing = next((c for c in of.children if c.dep_ == "pobj" and c.pos_ == "NOUN"), None) if of is not None else None
    if thing is None or wordnet is None or wordnet.lexical_file(noun.lemma_.lower()) != "noun.cognition":
        return noun
    return thing


def _compound_head(noun):  # noqa: ANN001, ANN202 - a spaCy Token
    """The head of the compound a noun starts: the tagger reads a compound whose head it takes for a
    name as an apposition ("my garage PIN": "PIN" beside "garage"), where an apposition calls one thing
    two ways and is a name or set off by a comma ("my husband Piet", "my boss, Ruth"). The noun right
    after, no name, that WordNet knows as a common noun, is what is asked of."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    after = next((c for c in noun.children if c.dep_ == "appos" and c.i == noun.i + 1), None)
    wordnet = load_wordnet()
    if after is None or wordnet is None or after.ent_type_ in _NAME_ENTS or wordnet.lexical_file(after.lower_) is None:
        return noun
    return after


def _name_asked_of(q) -> str | None:  # noqa: ANN001 - a spaCy Doc
    """Whose name a "what" question asks: "what's my wife's name?", "the name of my cat", "whats my dogs
    name", "what is my daughter called?" -> the noun's lemma; None for any other question."""
    for tok in q:
        if tok.lemma_.lower() == "name" and tok.pos_ == "NOUN":
            # "my wife's name", and typed without the apostrophe "my bosses name"
            owner = next((c for c in tok.children if c.dep_ in ("poss", "compound") and c.pos_ in ("NOUN", "PROPN")),
                         None)
            of = next((c for c in tok.children if c.dep_ == "prep" and c.lower_ == "of"), None)
            owner = owner or (next((c for c in of.children if c.dep_ == "pobj"), None) if of is not None else None)
            if owner is None and tok.dep_ == "appos" and tok.head.pos_ == "NOUN":
                owner = tok.head  # "whats my dogs name": the tagger hangs "name" beside the noun
            before = q[tok.i - 1] if tok.i > 0 else None
            if owner is None and before is not None and before.pos_ == "NOUN":
                owner = before  # "what is my sisters name": the possessive typed without its apostrophe
            if owner is not None and owner.pos_ == "PROPN":
                # "my daughter Zoe's name" (a pronoun read as whom it stands for): the name of the daughter
                owner = next((c for c in owner.children if c.dep_ in ("compound", "appos") and c.pos_ == "NOUN"), owner)
            if owner is None and _said_of_by_pronoun(tok):
                return _ANYONE_NAMED  # "what's her name again?": whom "her" stands for, the memory says
            if owner is not None:
                from interaction.memory.retrieval.lexicon import load_wordnet

                wordnet = load_wordnet()
                return wordnet.noun_base(owner.lemma_) if wordnet is not None else owner.lemma_.lower()
        if tok.dep_ == "ROOT" and tok.lemma_ in _NAMING:
            subject = next((c for c in tok.children if c.dep_ in ("nsubj", "nsubjpass") and c.pos_ == "NOUN"), None)
            if subject is not None:
                return subject.lemma_.lower()
    return None


def _name_of(m, owner: str) -> list[tuple[Found, list]]:  # noqa: ANN001 - a spaCy Doc
    """The proper name the memory gives the noun: "my wife Claire", "my daughter, Ellie,", "a dog
    called Biscuit", "my cat is Mochi", "my cat is called Marmalade"."""
    out: list[tuple[Found, list]] = []
    for tok in m:
        if tok.lemma_.lower() != owner and not (tok.pos_ == "NOUN" and _names_the_same(tok.lemma_.lower(), owner)):
            continue
        names = [c for c in tok.children if c.dep_ == "appos" and c.pos_ == "PROPN"]
        if (beside := name_beside(tok)) is not None:
            names.append(beside)  # the parser may hang both on the verb, two subjects: "my cat Miso knocked ..."
        # "my cat Pickles": a name the tagger may take for a plural noun, its capital mid-sentence says otherwise
        if tok.dep_ == "compound" and (tok.head.pos_ == "PROPN" or (
                tok.head.pos_ == "NOUN" and tok.head.text[:1].isupper() and not tok.head.is_sent_start)):
            names.append(tok.head)
        if tok.tag_ == "NNS":  # "two guinea pigs, Salt and Pepper": the names listed beside the plural
            out += [("name", sorted((t for t in c.subtree if t.pos_ in ("PROPN", "CCONJ")), key=lambda t: t.i))
                    for c in tok.children if c.dep_ == "conj" and c.pos_ == "PROPN"]
        for acl in (c for c in tok.children if c.dep_ == "acl" and c.lemma_ in _NAMING):
            names += [c for c in acl.children if c.dep_ in ("oprd", "attr", "dobj") and c.pos_ == "PROPN"]
            # what a thing is called is its name, typed in lower case too ("a band called the static moths")
            out += [("name", [t for t in sorted(c.subtree, key=lambda t: t.i) if t.dep_ != "det"])
                    for c in acl.children if c.dep_ == "oprd" and c.pos_ == "NOUN"]
        if tok.dep_ in ("nsubj", "nsubjpass") and (tok.head.lemma_ == "be" or tok.head.lemma_ in _NAMING):
            # "my cat is Mochi", "my cat is called Marmalade"; a name the recogniser marks whatever the
            # tagger calls it ("my favourite author is Calvino": an adjective)
            names += [c for c in tok.head.children if c.dep_ in _VALUE_DEPS and (c.pos_ == "PROPN" or c.ent_type_ == "PERSON")]
        # "my puppy's name is Mila", or said on by a pronoun of the noun ("we got a new puppy! her name is
        # Mila": "her" with no one named between)
        names += [c for n in _names_said_of(tok) for c in n.head.children if c.dep_ in _VALUE_DEPS and c.pos_ == "PROPN"]
        if tok.dep_ == "poss" and tok.head.lemma_.lower() == "name":
            # "I always forget my neighbour's name, it's Bridget": the "it" of the clause after it
            names += [c for t in m[tok.head.i + 1:] if t.lemma_ == "be" and any(
                s.dep_ == "nsubj" and (s.morph.get("Gender") == ["Neut"] or s.morph.get("PronType") == ["Dem"])
                for s in t.children) for c in t.children if c.dep_ in _VALUE_DEPS and c.pos_ == "PROPN"][:1]
        # "my dog's called biscuit he's a lab": typed on without a stop, the parse loses the naming verb;
        # the word after it, right after the noun (or its "'s" / "is"), is the name
        after = [t for t in m[tok.i + 1:tok.i + 4] if not (t.lower_ in ("'s", "is", "was") and t.pos_ in ("AUX", "PART"))]
        if not names and len(after) > 1 and after[0].lemma_ in _NAMING and after[0].i <= tok.i + 2 \
                and after[1].is_alpha and not after[1].is_stop:
            out.append(("name", [after[1]]))
        for name in names:
            out.append(("name", sorted((t for t in name.subtree if t.pos_ in ("PROPN", "PART") or t.i == name.i),
                                        key=lambda t: t.i)))
    return out


def _names_the_same(word: str, owner: str) -> bool:
    """The noun names what the question asks the name of, a kind of it, or what it is a kind of ("a wee
    boy called Callum" for "what's my lad's name?": WordNet has a lad as a kind of boy)."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and wordnet.relation(owner, word)[0].agrees


def _names_said_of(noun) -> list:  # noqa: ANN001 - a spaCy Token
    """The word "name" the subject of a copula, whose possessor is the noun ("my puppy's name is ...")
    or a third-person pronoun after it with no one else named between, person or animal ("a new puppy
    at the weekend! her name is ...")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    doc = noun.doc

    def someone(t) -> bool:  # noqa: ANN001 - a spaCy Token
        return t.ent_type_ == "PERSON" or t.pos_ == "NOUN" and wordnet is not None and wordnet.a_being(t.lemma_.lower())

    out = []
    for name in doc:
        if name.lemma_.lower() != "name" or name.dep_ != "nsubj" or name.head.lemma_ != "be":
            continue
        owner = next((c for c in name.children if c.dep_ == "poss"), None)
        if owner is None:
            continue
        if owner.i == noun.i or owner.i > noun.i and _said_of_by_pronoun(name) \
                and not any(someone(t) for t in doc[noun.i + 1:owner.i]):
            out.append(name)
    return out


def _of_change(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """A verb of change by its most frequent WordNet sense ("change", "switch", "update")."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return verb.pos_ == "VERB" and wordnet is not None and wordnet.verb_lexical_file(verb.lemma_) == "verb.change"


def _candidates(m, asks: Asks, noun: str | None,  # noqa: ANN001 - a spaCy Doc
                stranded: str | None = None, named: frozenset[str] | set[str] = frozenset()) -> list[tuple[Found, list]]:
    if asks == "name" and noun == _ANYONE_NAMED:
        # the one name the memory gives anyone or anything ("my daughter Zoe"); of two, whose "her" means
        # is not read off the words
        found = [c for t in m if t.pos_ == "NOUN" for c in _name_of(m, t.lemma_.lower())]
        return found if len({" ".join(w.text for w in span) for _, span in found}) == 1 else []
    if asks == "name":
        return _name_of(m, noun or "")
    if asks == "time":
        return [("time", span) for span in _time(m)]
    if asks == "length":
        # (read without the preposition that joins it to its verb, "for two weeks", unless that makes
        # it a point in time: "in two weeks")
        return [("length", span) for span in _time_phrases(m) if _a_length([t for t in span if t.pos_ != "ADP"])
                and _a_length(span, roots_only=False)]
    if asks == "place":
        return [("place", span) for span in _place(m, _PLACE_PREPS | {stranded} if stranded else _PLACE_PREPS, named)]
    if asks == "person":
        from interaction.offline.personal_facts import people_named

        # a name beside a person word is a person's whatever the recogniser calls it ("my cousin Dara": GPE)
        found = [list(e) for e in m.ents if e.label_ == "PERSON"]
        found += [[t] for t in people_named(m) if not any(t in f for f in found)]
        return [("person", span) for span in found + _people_of_theirs(m, found, noun)]
    if asks == "object":  # "allergic to": the same adjective with the same preposition, and what it governs
        from interaction.memory.retrieval.lexicon import load_wordnet

        adjective, preposition = (noun or " ").split(" ", 1)
        # ... or the noun WordNet derives from it ("I have an allergy to shellfish")
        wordnet = load_wordnet()
        heads = {adjective, *(wordnet.nouns_of_adjective(adjective) if wordnet is not None else ())}
        # ... whose preposition the parse may hang on the verb that has it ("has an allergy to peanuts");
        # the adjective's the tagger may read as an infinitive ("allergic to shellfish": "to" a particle)
        return [("thing", list(itertools.takewhile(lambda t: not t.is_punct, sorted(prep.subtree, key=lambda t: t.i))))
                for t in m if t.lemma_.lower() in heads
                for prep in [*t.children, *(t.head.children if t.dep_ == "dobj" else ())]
                if (prep.dep_ == "prep" and prep.lower_ == preposition)
                or (prep.dep_ in ("xcomp", "relcl") and any(c.dep_ == "aux" and c.lower_ == preposition for c in prep.children))]
    if asks == "count":  # a number, never the name beside the noun ("my granddaughter Lina" has no count)
        return [(found, span) for found, span in _thing(m, noun or "") if any(t.like_num for t in span)]
    return _thing(m, noun or "")


def _people_of_theirs(m, named: list[list], done: str | None) -> list[list]:  # noqa: ANN001 - a spaCy Doc
    """A person of the speaker's told by how they are theirs, with no name said, as the one who does
    what the question asks, or with whom it is done (`done`, a verb's lemma: "my mum is coming to stay"
    for "who is coming?"): a word the speaker owns one of whose two most frequent senses is a person
    (WordNet's noun.person: owned, "mum" is no flower), said as a phrase of its own, not a compound
    ("my dentist appointment") nor one whose name is already an answer."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    if wordnet is None or done is None:
        return []
    inside = {t.i for span in named for t in span}
    return [[w for w in t.subtree if w.i <= t.i] for t in m
            if t.pos_ == "NOUN" and t.dep_ != "compound" and t.i not in inside
            and (t.head.head if t.head.dep_ == "prep" else t.head).lemma_.lower() == done
            and not any(c.i in inside for c in t.children)
            and any(c.dep_ == "poss" and "1" in c.morph.get("Person") for c in t.children)
            and wordnet.kind_of_person(lemma_meant(t), senses=2)]


def _with_preposition(tokens: list) -> list:
    """An entity's noun phrase with the preposition whose object it is ("Friday" -> "to Friday evenings",
    "Thursday" -> "on Thursday")."""
    inside = {t.i for t in tokens}
    head = next((t for t in tokens if t.head.i not in inside or t.head.i == t.i), tokens[0])
    while head.dep_ == "compound" and head.head.i != head.i:
        head = head.head
    phrase = sorted({t.i: t for t in [*tokens, head, *(t for t in head.lefts for t in t.subtree)]}.values(),
                    key=lambda t: t.i)
    if head.dep_ == "pobj" and head.head.i < phrase[0].i:
        return [head.head, *phrase]
    return phrase


def _clock_times(m) -> list[list]:  # noqa: ANN001
    """ "at six", "at half past seven": "at" and the clock words after it, with a number among them; and
    a time of day in digits after whatever preposition it is the object of ("moved to 9:15")."""
    out = []
    for at in (t for t in m if t.lower_ == "at"):
        words = []
        for t in m[at.i + 1:]:
            if not (t.like_num or DIGITAL_CLOCK.fullmatch(t.text) or t.lower_ in _CLOCK_WORDS):
                break
            words.append(t)
        if any(t.like_num or DIGITAL_CLOCK.fullmatch(t.text) for t in words):
            out.append([at, *words])
    said = {t.i for p in out for t in p}
    out += [_with_preposition([t]) for t in m if t.i not in said and DIGITAL_CLOCK.fullmatch(t.text)]
    return out


def _time(m) -> list[list]:  # noqa: ANN001
    """Date and time phrases, those next to each other joined: "on Thursday at six", "30th November"
    (an ordinal counts beside a date), each with what its head governs after it ("the 22nd of
    Feburary": the tagger knows no misspelt month, the parse still hangs it on the day); no stretch
    of time ("for two weeks")."""
    return [p for p in _time_phrases(m, points=True) if (any(t.ent_type_ in _TIME_ENTS or _a_day(t) or _said_as_a_time(t)
                                                             for t in p) and not _a_length(p))
            or p in _clock_times(m) or p in _times_a_time_is(m)[1]]


def _a_things_length(piece: list) -> bool:
    """A time that only says how long the thing it is said of lasts ("for a three-week trip", "a two-day
    course"): it modifies a noun that is no time."""
    return any(t.dep_ in ("compound", "amod") and t.ent_type_ in _TIME_ENTS and t.head.pos_ == "NOUN"
               and not t.head.ent_type_ and not _of_time(t.head.lemma_.lower())
               and t.head.lemma_.lower() not in _TIME_NOUNS for t in piece)


def _said_as_a_time(t) -> bool:  # noqa: ANN001 - a spaCy Token
    """A noun whose most frequent sense is a time, no date to the recogniser, said after "on", "at",
    "in" or "during" ("I get them on weekends"), or said as when, with no preposition ("a gig at the
    Blue Room next Saturday": the parse hangs the day on the room)."""
    return t.pos_ in ("NOUN", "PROPN") and not t.ent_type_ and (
        t.dep_ == "pobj" and t.head.lower_ in (*_AT, "during") or t.dep_ == "npadvmod") and _of_time(t.lemma_.lower())


def _time_phrases(m, points: bool = False) -> list[list]:  # noqa: ANN001
    """Every phrase of time, points and stretches, joined as `_time` says; `points`: without the times
    that only say how long a thing lasts (`_a_things_length`), which name no point in time."""
    pieces = [_with_preposition(_with_what_it_governs(list(e))) for e in m.ents if e.label_ in _TIME_ENTS]
    pieces += _clock_times(m) + [_with_preposition(_with_what_it_governs(list(e))) for e in m.ents if e.label_ == "ORDINAL"]
    # an ordinal the recogniser missed ("moved to the 22nd, same time": a noun to the tagger)
    pieces += [_with_preposition([t]) for t in m if not t.ent_type_ and _ORDINAL.fullmatch(t.lower_)]
    # a noun of time the recogniser left out, said as when ("on weekends", "at lunchtime")
    pieces += [_with_preposition(sorted([t, *(c for c in t.lefts if c.dep_ in ("det", "amod"))], key=lambda w: w.i))
               for t in m if _said_as_a_time(t)]
    # the day's number a month is "of" ("on 2 of August": the recogniser reads the month alone)
    pieces = [[*_with_preposition([p[0].head]), *p] if p[0].lower_ == "of" and p[0].head.like_num
              and p[0].head.i == p[0].i - 1 else p for p in pieces]
    # a date's own article, when the tagger left it out of the entity ("to the 16th, same time")
    pieces = [[m[p[0].i - 1], *p] if p[0].i > 0 and m[p[0].i - 1].lower_ == "the" else p for p in pieces]
    # ... and the "pm" after its hour ("next Wednesday 3pm": the entity ends at "3")
    pieces = [[*p, m[p[-1].i + 1]] if p[-1].like_num and p[-1].i + 1 < len(m) and m[p[-1].i + 1].lower_ in _MERIDIEM
              else p for p in pieces]
    # a time noun a copula gives its time is what is asked of, never an answer ("visiting hours")
    subjects, valued = _times_a_time_is(m)
    pieces = [p for p in pieces if not any(t.i in subjects for t in p) and not (points and _a_things_length(p))] + valued
    pieces.sort(key=lambda p: p[0].i)
    joined: list[list] = []
    for piece in pieces:
        if joined and piece[0].i <= joined[-1][-1].i + 1:
            joined[-1] = sorted({t.i: t for t in [*joined[-1], *piece]}.values(), key=lambda t: t.i)
        else:
            joined.append(piece)
    return joined


def _times_a_time_is(m) -> tuple[set[int], list[list]]:  # noqa: ANN001 - a spaCy Doc
    """What a copula says a time is, in numbers the recogniser takes for counts ("visiting hours at her
    ward are from 3 to 6", "my slot is at 4"): the time nouns' token indices, and each preposition's
    phrase with a number in it."""
    subjects: set[int] = set()
    valued: list[list] = []
    for verb in (t for t in m if t.lemma_ == "be"):
        # the subject, or the noun the tagger made its gerund's object ("Visiting hours are ...")
        times = [t for s in verb.children if s.dep_ in ("nsubj", "nsubjpass", "csubj")
                 for t in (s, *(c for c in s.children if c.dep_ == "dobj"))
                 if t.pos_ == "NOUN" and (t.lemma_.lower() in _TIME_NOUNS or _of_time(t.lemma_.lower()))]
        values = [sorted(c.subtree, key=lambda t: t.i) for c in verb.children
                  if c.dep_ == "prep" and any(t.like_num for t in c.subtree)]
        if times and values:
            subjects |= {t.i for s in times for t in s.subtree if t.i <= s.i}
            valued += values
    return subjects, valued


def _a_length(piece: list, roots_only: bool = True) -> bool:
    """A stretch of time, not a time: a count of its units that names no point in time ("after waiting
    two years", "for three weeks"; "in two years" and "two years ago" do). `roots_only`: the count is
    the piece's root, else anywhere in it."""
    roots = [t for t in piece if not roots_only or not any(t.head.i == o.i for o in piece) or t.head.i == t.i]
    told = " ".join(t.text for t in piece)
    return any(r.tag_ == "NNS" and any(c.like_num for c in r.children) for r in roots) \
        and told_in(told, datetime(2000, 1, 1)) is None


def _a_day(t) -> bool:  # noqa: ANN001 - a spaCy Token
    """An ordinal after a preposition that no noun follows is a day ("moved to the 11th, same time");
    one before a noun counts it ("my 2nd child")."""
    after = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
    return ((t.ent_type_ == "ORDINAL" or _ORDINAL.fullmatch(t.lower_)) and (after is None or after.pos_ not in ("NOUN", "PROPN"))
            and any(a.pos_ == "ADP" for a in t.doc[max(0, t.i - 2):t.i]))


def _with_what_it_governs(tokens: list) -> list:
    """An entity with the "of ..." its last word governs right after it ("the 22nd" + "of Feburary")."""
    last = tokens[-1]
    after = [t for c in last.rights if c.dep_ == "prep" and c.lower_ == "of" and c.i == last.i + 1
             for t in c.subtree]
    return sorted({t.i: t for t in [*tokens, *after]}.values(), key=lambda t: t.i)


def _place(m, preps: set[str] = _PLACE_PREPS, named: frozenset[str] | set[str] = frozenset()) -> list[list]:  # noqa: ANN001
    """A place phrase on a verb ("parked on level 5, space 112", "lives in Leeds") or on a noun the
    question names ("where's the party?": "the party at the Crown"), then place names. `preps`: the
    prepositions of a place phrase ("from" too where the question asks where from)."""
    out = []
    clock = {span[0].i for span in _clock_times(m)}  # "at quarter past eleven" is when, never where
    for prep in m:
        if prep.i in clock:
            continue
        # "to" the small parser read as an infinitive's on the noun after it ("moved to room 12"): the
        # preposition of a verb, the noun its object
        particle = to_read_as_a_particle(prep)
        head = prep.head.head if particle else prep.head
        # ... or on a time said of the verb, where the parse may hang it ("every Tuesday evening at the church
        # hall"), or on the verb's object, where it hangs the place of the doing ("I teach guitar at the
        # community centre")
        on = head.pos_ in ("VERB", "AUX") or (head.pos_ == "NOUN" and head.lemma_.lower() in named) \
            or ((head.ent_type_ in _TIME_ENTS or head.dep_ == "dobj") and head.head.pos_ in ("VERB", "AUX"))
        if (prep.dep_ == "prep" or particle) and on and (
                prep.lower_ in preps or prep.lower_ in _TOWARDS and _of_motion(head.lemma_.lower())):
            obj = prep.head if particle else next((c for c in prep.children if c.dep_ == "pobj"), None)
            if obj is not None and obj.ent_type_ not in _TIME_ENTS and not obj.like_num:
                cut = _subjects_taken_for_conjuncts(obj)
                if particle:  # what hangs on the noun read as a verb is the verb's ("on Wednesday at 9")
                    cut |= {t.i for c in obj.children if c.dep_ in ("prep", "npadvmod", "advmod") for t in c.subtree}
                # ... and a time the parse hung on the place is when, not where ("moved to hall 3 on Thursday")
                cut |= {t.i for c in obj.children if c.dep_ == "prep" and any(
                    o.dep_ == "pobj" and o.ent_type_ in _TIME_ENTS for o in c.children) for t in c.subtree}
                phrase = sorted((t for t in (obj if particle else prep).subtree if t.i not in cut), key=lambda t: t.i)
                after = phrase[-1].i + 1  # ", space 112": a closer naming of the same place, after a comma
                if after + 1 < len(m) and m[after].text == "," and m[after + 1].dep_ in ("npadvmod", "appos"):
                    phrase += [m[after], *sorted(m[after + 1].subtree, key=lambda t: t.i)]
                out.append(phrase)
    out += [_with_preposition(list(e)) for e in m.ents if e.label_ in _PLACE_ENTS]
    # a place said by an adverb of a verb ("is back home now", "went home"): a word whose most frequent
    # sense as a noun WordNet files as a location, with its own modifiers; never a pro-form ("there")
    out += [sorted(t.subtree, key=lambda u: u.i) for t in m if t.dep_ == "advmod" and t.pos_ == "ADV"
            and t.head.pos_ in ("VERB", "AUX") and not t.morph.get("PronType") and _a_location(t.lemma_.lower())]
    return out


def _subjects_taken_for_conjuncts(noun) -> set[int]:  # noqa: ANN001 - a spaCy Token
    """The tokens of a conjunct the parse joined to the noun that is the subject of the verb right
    after it, which has no subject of its own ("lives in Dakar and my sister Awa lives in Lyon": "my
    sister Awa" joined to "Dakar"), with the "and" before it: no part of the place."""
    cut: set[int] = set()
    for conj in (c for c in noun.children if c.dep_ == "conj"):
        after = conj.right_edge.i + 1
        verb = noun.doc[after] if after < len(noun.doc) else None
        if verb is not None and verb.pos_ == "VERB" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children):
            cut |= {t.i for t in conj.subtree} | {c.i for c in noun.children if c.dep_ == "cc" and c.i < conj.i}
    return cut


def _of_motion(verb: str) -> bool:
    """A verb whose most frequent sense WordNet files as one of motion ("moved to Bristol", "flew to
    Oslo"): where it went to is its place."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and wordnet.verb_lexical_file(verb) == "verb.motion"


def _a_location(word: str) -> bool:
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and wordnet.lexical_file(word) == "noun.location"


def _thing(m, noun: str) -> list[tuple[Found, list]]:  # noqa: ANN001
    """What the memory says the asked-about noun is: the value a copula gives it ("my locker code is
    5512" -> "5512"), or the number that names it ("platform 9")."""
    out: list[tuple[Found, list]] = []
    for tok in m:
        if lemma_meant(tok) != noun:
            continue
        # said again in its sentence by a pro-form: "we changed the alarm code, the new one is 1357"; the
        # tagger may hang a compound's head beside the word before it ("my wifi pw is ...": "pw" an
        # apposition of "wifi", the subject), as _compound_head reads in a question
        beside = [tok.head] if tok.dep_ == "appos" and tok.head.i == tok.i - 1 else []
        subjects = [tok, *beside, *(t for t in tok.sent if t.i != tok.i and stands_in(t))]
        for subject in subjects:
            if subject.dep_ in ("nsubj", "nsubjpass") and subject.head.lemma_ == "be":
                value = next((c for c in subject.head.children if c.dep_ in _VALUE_DEPS), None)
                if value is not None:
                    out.append(("value", sorted(value.subtree, key=lambda t: t.i)))
            # ... or the word the parser took the copula for the passive auxiliary of ("my wifi password is
            # sunflower77": "sunflower77" an adjective, "is" its auxiliary), no verb
            elif subject.dep_ == "nsubjpass" and subject.head.pos_ != "VERB" and any(
                    c.dep_ == "auxpass" and c.lemma_ == "be" for c in subject.head.children):
                out.append(("value", [subject.head]))
        if tok.dep_ in ("nsubj", "nsubjpass") and _of_change(tok.head):
            # "my locker code changed to 5582": what it became is what it is
            to = next((c for c in tok.head.children if c.dep_ == "prep" and c.lower_ == "to"), None)
            value = next((c for c in to.children if c.dep_ == "pobj"), None) if to is not None else None
            if value is not None:
                out.append(("thing", sorted(value.subtree, key=lambda t: t.i)))
        numbers = [c for c in tok.children if c.like_num or c.dep_ in ("nummod", "appos")]
        if numbers:
            out.append(("thing", sorted([tok, *(t for c in numbers for t in c.subtree)], key=lambda t: t.i)))
    return out


def _number_of_its_owner(q, m, asks: Asks, noun: str | None) -> list[tuple[Found, list]]:  # noqa: ANN001 - spaCy Docs
    """A number the memory gives a thing of what the question's noun belongs to, when it names the
    noun otherwise ("the number for my locker" of "my locker code ... is 4471"): the value of the
    phrase the owner's word starts, with a digit in it; nothing for any other question."""
    if asks != "thing" or not noun:
        return []
    owners = _owners(q, noun)
    # the owner's word starting the phrase ("my locker code"), or what the phrase is for ("the code for my shed")
    heads = {lemma_meant(t.head) for t in m if lemma_meant(t) in owners and t.dep_ == "compound"} | {
        lemma_meant(t.head.head) for t in m if lemma_meant(t) in owners and t.dep_ == "pobj" and t.head.lower_ in ("for", "of")}
    return [(found, span) for head in heads for found, span in _thing(m, head)
            if any(ch.isdigit() for t in span for ch in t.text)]


def _work_of_its_owner(q, m, asks: Asks, noun: str | None) -> list[tuple[Found, list]]:  # noqa: ANN001 - spaCy Docs
    """What the one whose job is asked is ("what's my wife's job?" over "my wife Sian is a paramedic"):
    when the asked noun is first an occupation in WordNet, the occupation (by the profile reader's
    occupation score: "a vegan" is none) the memory says its owner (the word whose it is, by lemma) is,
    or works as; nothing for any other question."""
    from interaction.offline.extract import names_an_occupation
    from interaction.offline.self_description import an_occupation

    if asks != "thing" or not noun or not an_occupation(noun):
        return []
    out: list[tuple[Found, list]] = []
    for verb in _said_of(_workers(q, m, noun)):
        said = [c for c in verb.children if c.dep_ == "attr"] if verb.lemma_ == "be" else [
            g for c in verb.children if c.dep_ == "prep" and c.lower_ == "as" for g in c.children if g.dep_ == "pobj"]
        # a noun, or a word with an article the small tagger calls an adjective ("is a paramedic")
        spans = [sorted((t for t in w.subtree if t.dep_ not in ("relcl", "punct")), key=lambda t: t.i)
                 for w in said if w.pos_ == "NOUN" or any(c.dep_ == "det" for c in w.children)]
        out += [("thing", span) for span in spans if names_an_occupation(" ".join(t.text for t in span))]
    return out


def _kind_of_its_owner(q, m, asks: Asks, noun: str | None) -> list[tuple[Found, list]]:  # noqa: ANN001 - spaCy Docs
    """The kind the memory names of what the question asks the kind of ("what breed is my dog?" over
    "my dog Rex is a border collie", "what kind of car do I drive?"): when the asked noun is a kind by
    WordNet (a breed, a make, a type), each noun phrase of the memory that is a kind of a thing the
    question names besides it; nothing for any other question."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    if asks != "thing" or not noun or wordnet is None or not wordnet.kind_of(noun, _KINDS, senses=2):
        return []
    from interaction.offline.grounding import first_person

    owners = {lemma_meant(t) for t in q if t.pos_ == "NOUN" and lemma_meant(t) != noun}

    def theirs(t) -> bool:  # noqa: ANN001 - a spaCy Token
        # said to be what the thing asked of is ("my dog Rex is a border collie"), or the speaker's own
        # ("my labrador", "we got a beagle"), never someone else's ("my neighbour has a beagle")
        subject = next((c for c in t.head.children if c.dep_ == "nsubj"), None) if t.dep_ == "attr" else None
        whose = next((c for c in subject.children if c.dep_ == "poss"), None) if subject is not None else None
        if whose is not None and not first_person(whose) and lemma_meant(whose) not in owners:
            return False  # "my sister's dog is a poodle" is no answer about "my dog"
        # (the parse may hang the kind before a name on the verb beside it: "my cat Pippin is ...")
        before = subject.doc[subject.i - 1] if subject is not None and subject.i > 0 else None
        beside = [before] if before is not None and before.pos_ == "NOUN" and before.head.i == subject.head.i else []
        return (subject is not None and (any(lemma_meant(w) in owners for w in (subject, *beside, *(
            c for c in subject.children if c.dep_ in ("appos", "compound")))) or any(
                theirs(r) for r in _said_on_by_pronoun(subject, owners)))) or any(
            c.dep_ == "poss" and first_person(c) for c in t.children) or (t.dep_ == "dobj" and any(
                c.dep_ == "nsubj" and first_person(c) for c in t.head.children))

    out: list[tuple[Found, list]] = []
    for t in m:
        if t.pos_ != "NOUN" or t.dep_ == "compound" or not theirs(t):
            continue
        words = sorted([t, *(c for c in t.lefts if c.dep_ in ("compound", "amod"))], key=lambda w: w.i)
        phrase = " ".join(w.lower_ for w in words if w.dep_ == "compound" or w is t)
        if any(o != lemma_meant(t) and (a_kind_of(phrase, o) or a_kind_of(lemma_meant(t), o)) for o in owners):
            out.append(("thing", words))
    # what the thing is said to be ("..., he's a border collie") is its kind, never the word it was
    # named by when it came ("I got a puppy": a puppy is a dog by WordNet, by its age)
    said_to_be = [found for found in out if found[1][-1].dep_ == "attr"]
    return said_to_be or out


def _said_on_by_pronoun(subject, owners: set[str]) -> list:  # noqa: ANN001 - a spaCy Token -> Tokens
    """What a third-person "he", "she" or "it" subject of a sentence after the memory's first stands for:
    the last noun of the sentences before that is one of `owners` or a kind of one ("I got a puppy
    last week! he's a border collie" of "dog"); nothing for any other subject."""
    if not _a_pronoun_of_one_before(subject):
        return []
    before = [t for t in subject.doc[:subject.sent.start] if t.pos_ == "NOUN"
              and any(lemma_meant(t) == o or a_kind_of(lemma_meant(t), o) for o in owners)]
    return before[-1:]


def _workers(q, m, noun: str) -> list:  # noqa: ANN001 - spaCy Docs -> Tokens
    """The memory's subjects that are the one whose job is asked: its owner ("what's my wife's job?") or
    whoever "what does X do?" asks of, by lemma, as the subject or the name said with it ("my wife
    Sian is a paramedic" of Sian)."""
    owners = {lemma_meant(c) for t in q if lemma_meant(t) == noun for c in t.children
              if c.dep_ == "poss" and c.pos_ in ("NOUN", "PROPN")}
    owners |= {lemma_meant(c) for t in q if t.dep_ == "dobj" and _work_asked(t) for c in t.head.children if c.dep_ == "nsubj"}
    # ... or "she" or "he" after them ("my best friend is Anouk, she's a lawyer")
    # (the parse may hang the kind of person before a name on the verb: "my boyfriend Kristoff is ...")
    return [t for t in m if t.dep_ in ("nsubj", "nsubjpass") and (lemma_meant(t) in owners or any(
        c.dep_ in ("appos", "compound") and lemma_meant(c) in owners for c in t.children) or (
        t.i > 0 and m[t.i - 1].pos_ == "NOUN" and m[t.i - 1].head.i == t.head.i and lemma_meant(m[t.i - 1]) in owners) or (
        t.pos_ == "PRON" and t.morph.get("Gender") in (["Fem"], ["Masc"]) and t.morph.get("Number") == ["Sing"]
        and any(lemma_meant(b) in owners for b in m[:t.i])))]


def _said_of(subjects: list) -> list:
    """The verbs the subjects are said to do or be, with those that share their subject ("lives in
    Houston and works for NASA")."""
    heads = [s.head for s in subjects]
    return [v for h in heads for v in (h, *(c for c in h.children if c.dep_ == "conj" and not any(
        g.dep_ in ("nsubj", "nsubjpass") for g in c.children)))]


def _tells_work_of(q, m, noun: str) -> bool:  # noqa: ANN001 - spaCy Docs
    """The memory tells what the one whose job is asked does for work, by a verb of theirs whose noun
    (WordNet's derived nouns) is the kind of thing a job is ("my brother works at a bank": "work"), though
    no job is named to answer with."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    doings = [v for v in _said_of(_workers(q, m, noun)) if v.pos_ == "VERB"]
    # ... or, asked "what does Ciaran do?", by what they do as a habit, a present doing of something
    # ("my husband Ciaran drives a bus"), which is what the question asks in so many words
    habit = any(t.dep_ == "dobj" and _work_asked(t) for t in q) and any(
        d.tag_ in ("VBZ", "VBP") and not of_having(d) and any(c.dep_ == "dobj" for c in d.children) for d in doings)
    return wordnet is not None and (habit or any(
        a_kind_of(noun, derived) or derived == noun for d in doings for derived in wordnet.nouns_of_verb(d.lemma_.lower())))


def _owners(q, noun: str) -> set[str]:  # noqa: ANN001 - a spaCy Doc
    """What the question's asked noun belongs to, by lemma: its compound's modifiers and what it is
    "for" or "of" ("my locker number", "the number for my locker": "locker"), or what it is said to
    work on as its verb's subject ("what number opens the gate?", "which number gets me through the
    gate?": "gate")."""
    def worked_on(verb) -> list:  # noqa: ANN001 - a spaCy Token
        return [*(c for c in verb.children if c.dep_ == "dobj"),
                *(g for c in verb.children if c.dep_ == "prep" for g in c.children if g.dep_ == "pobj")]

    return {lemma_meant(c) for t in q if lemma_meant(t) == noun for c in [
        *(c for c in t.children if c.dep_ == "compound"),
        *(g for c in t.children if c.dep_ == "prep" and c.lower_ in ("for", "of") for g in c.children if g.dep_ == "pobj"),
        *(worked_on(t.head) if t.dep_ == "nsubj" and t.head.pos_ == "VERB" else ())]}


# what the person said or asked to keep, in their words: a summary or what Nadine saw is not searched
_SAID_KINDS = {"moment", "turn", "explicit_memory"}


@dataclass(frozen=True)
class Answered:
    """A recall's asserted memory and the answer to the question in it."""

    memory: RecalledMemory
    answer: Answer

    @property
    def first(self) -> str:
        return self.answer.said_first(self.memory.text)

    def said_first(self, now: datetime) -> str:
        """The answer's words as Nadine says them on `now` ("on your birthday", "the day before")."""
        said, text = said_day(self.memory.occurred_at, now), self.memory.text
        return reported(dates_named(text, said, self.answer.end - len(self.first), self.answer.end), said=said)

    @property
    def rest(self) -> str:
        """The memory as said after the answer ("your sister's flight lands then")."""
        return self.answer.in_its_place(self.memory.text)


def answered(question: str, report: RecallReport | None) -> Answered | None:
    """The answer to `question` in the best memory a recall asserted, or None."""
    if report is None or report.outcome != "asserted" or not report.memories:
        return None
    # "remember when we first ...?", "what do I have on today?" name no slot: what was told is the answer
    # ("who am I meeting on Thursday?" asks a person of the day's plan)
    if report.decided_by == "memorable" or (report.decided_by == "planned" and slot_asked(question) is None):
        return None
    best = report.memories[0]
    found = answer_in(question, best.text) if best.kind in _SAID_KINDS else None
    if found is None:
        # another memory asserted with it may hold the answer ("I've been anxious about the root canal"
        # first, "I have a root canal on Thursday at the Bryggen clinic" after it, for "where is it?")
        best, found = next(((m, a) for m in report.memories[1:] if m.kind in _SAID_KINDS
                            and (a := answer_in(question, m.text)) is not None), (best, None))
    if found is None:
        return None
    # a value told again later puts right the one told before ("they moved the MRI to the 11th"): of
    # the memories asserted that answer the question the same way, the latest told answers it
    # ... and names all the best one names of what is asked ("the code for the garage": the alarm code
    # told after the garage's is no new garage code)
    later = [(m, a) for m in report.memories[1:] if m.kind in _SAID_KINDS and (m.occurred_at or "") > (best.occurred_at or "")
             and _names_as_much(question, best.text, m.text)
             and (a := answer_in(question, m.text)) is not None and _same_kind(a.asks, found.asks)]
    if later:
        return Answered(*max(later, key=lambda pair: pair[0].occurred_at or ""))
    # ... or gives the best one a new value in other words ("Meera's dentist got moved to the 12th at
    # 9am" of "Meera has a dentist appointment on the 11th at 3:15pm"): the best one as it holds now,
    # told when the change was, answers
    from interaction.offline.value_changes import changed_value

    changed = [(m, now) for m in report.memories[1:] if m.kind in _SAID_KINDS
               and (m.occurred_at or "") > (best.occurred_at or "") and (now := changed_value(m.text, best.text)) is not None]
    if changed:
        m, now = max(changed, key=lambda pair: pair[0].occurred_at or "")
        if (held := answer_in(question, now)) is not None:
            return Answered(m.model_copy(update={"text": now}), held)
    # news told since about someone it names ("Pickle died" after "two cats, Mango and Pickle"): what
    # the first memory answers may no longer hold, so the reply says both as told
    if any(updates(m.text, best.text) for m in report.memories[1:] if (m.occurred_at or "") > (best.occurred_at or "")):
        return None
    return Answered(best, found)


def _names_as_much(question: str, best: str, later: str) -> bool:
    """`later` holds each word of the question's that `best` holds (by lemma, as meant)."""
    nlp = _parser()
    if nlp is None:
        return True
    question_doc = nlp(question)
    asked = {lemma_meant(t) for t in question_doc if t.pos_ in ("NOUN", "PROPN", "VERB", "ADJ") and not t.is_stop}
    def lemmas(text: str) -> set[str]:
        return {lemma_meant(t) for t in nlp(as_capitalised(text))}
    told = nlp(as_capitalised(later))
    held = {lemma_meant(t) for t in told}
    if not any(t.pos_ == "PROPN" for t in told) and any(
            t.morph.get("Person") == ["3"] and t.morph.get("Gender") in (["Fem"], ["Masc"]) for t in told):
        # "she leaves on the 23rd now" names no one but by "she": the person the question names
        held |= {lemma_meant(t) for t in question_doc if t.pos_ == "PROPN"}
    return asked & lemmas(best) <= held


def _same_kind(a: Found, b: Found) -> bool:
    """Two answers of the same question: what a thing is, whether a copula gives it ("my locker code
    is 4471") or what it changed to ("my locker code changed to 5582"), is one kind."""
    return a == b or {a, b} <= {"value", "thing"}


def slot_asked(question: str) -> Found | None:
    """What kind of answer the question asks for (a time, a place, a person, a name, a thing); None
    when it asks for none ("what did I tell you about Felix?")."""
    nlp = _parser()
    asked = _what_is_asked(nlp(question)) if nlp is not None and question.strip() else None
    return asked[0] if asked is not None else None


def names_what_is_asked(question: str, memory: str) -> bool:
    """The memory names what the question asks for: the noun whose value is asked, or a kind of it
    ("my PIN for the garage door" for "my garage PIN"), or a phrase of the time, place, person or name
    asked (a name, not its owner: "my wife is a nurse" names no wife's name; but a person's name beside
    the one asked of may be theirs: "I was married to Tobias, my husband ..."). Saying "I don't think
    you told me that" before such a memory would contradict what it says, though no answer was read
    off it."""
    nlp = _parser()
    if nlp is None or not question.strip() or not memory.strip():
        return False
    asked = _what_is_asked(nlp(question))
    if asked is None:
        return False
    asks, noun = asked
    if asks == "length":  # a stretch of time names what is asked only when said of it
        return answer_in(question, memory) is not None
    q, m = nlp(question), nlp(as_capitalised(memory))
    named = any(word == noun or a_kind_of(word, noun or "") for word in memory_nouns(m))
    # a number asked for ("what's my locker number?", "my PIN": a kind of one) is named by a numeral
    named = named or (bool(noun) and (noun == _NUMBER or a_kind_of(noun, _NUMBER)) and any(t.like_num for t in m))
    if asks == "thing" and not named and noun:
        # "my security word" of "my bank's security answer": the thing of what it belongs to, named otherwise
        owners = _owners(q, noun)
        named = any(t.dep_ == "compound" and lemma_meant(t) in owners for t in m)
    if asks == "thing" and not named and _named_in_its_place(q, m, asks):
        return True
    if asks == "thing" and noun == _JOB and _tells_work_of(q, m, noun):
        return True
    if _kind_of_its_owner(q, m, asks, noun):
        return True
    if asks in ("thing", "count"):
        return named
    # ... or says what the one asked of is called, in words the answer is not read off ("i have a
    # hamster his name is nugget")
    if asks == "name" and named and (any(e.label_ == "PERSON" for e in m.ents)
                                     or any(t.lemma_.lower() in _NAMING for t in m)):
        return True
    if asks == "name" and any(_called_but_of_no_known_kind(t) for t in m):
        return True  # "a Westie called Hamish": whether a Westie is the dog asked of cannot be read
    # "who's Zoe?" over "my bff is called zoe": who they are is what is told of them (a name by its
    # capital, as typed or as it would be written: the tagger may call it a noun)
    if asks == "person" and {t.lower_ for t in nlp(as_capitalised(question)) if t.text[:1].isupper()
                             and not t.is_sent_start and t.lower_ != "i"} & {t.lower_ for t in m}:
        return True
    return any(not _done_by_another(q, span[0]) for _, span in _candidates(m, asks, noun))


def _named_in_its_place(q, m, asks: Asks) -> list[tuple[Found, list]]:  # noqa: ANN001 - spaCy Docs
    """Which one of a kind is asked as what a verb is done to ("which team do I support?") and the
    memory names one by its name as what the speaker does it to ("I support Arsenal"): that name.
    Whether it is of the kind asked is the entity reader's to weigh; nothing else in that place is."""
    if asks != "thing":
        return []
    asked = next((t for t in q if t.dep_ == "det" and t.tag_ == "WDT" and t.head.dep_ == "dobj"), None)
    if asked is None or asked.head.head.lemma_ == "be":
        return []
    verb = asked.head.head.lemma_.lower()
    return [("thing", sorted((t for t in o.subtree if t.pos_ in ("PROPN", "PART")), key=lambda t: t.i))
            for t in m if t.lemma_.lower() == verb and any(c.dep_ == "nsubj" and c.lower_ in ("i", "we") for c in t.children)
            for o in t.children if o.dep_ == "dobj" and o.pos_ == "PROPN"]


def _called_but_of_no_known_kind(thing) -> bool:  # noqa: ANN001 - a spaCy Token
    """The word is said to be called something ("a Westie called Hamish", "a Cockapoo named Bramble") and
    WordNet knows no word like it, so of what kind it is cannot be read."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    if thing.pos_ not in ("NOUN", "PROPN") or not any(c.dep_ == "acl" and c.lemma_ in _NAMING for c in thing.children):
        return False
    wordnet = load_wordnet()
    return wordnet is not None and not wordnet.knows(thing.lemma_)


def holds_no_answer(question: str, report: RecallReport, outcome: str = "offered") -> bool:
    """A recall offered ("do you mean ...?") of memories none of which holds what the question asks
    for (a time, a place, a name, a value): "did I tell you when the plot inspection is?" over "my
    plot number is 27B" is a neighbour, not a memory of it. `outcome` "asserted": of a question after
    a value that no one's in particular ("how many people live in Vietnam?" over "I come from
    Vietnam"); who someone is ("who is Idris?") is what was told of them, answer or not."""
    asked = slot_asked(question)
    if report.outcome != outcome or asked is None or (outcome == "asserted" and asked == "person"):
        return False
    if how_long_asked(question) is not None:  # counted to a day a memory tells ("all week" tells none)
        def holds(m: RecalledMemory) -> bool:
            return told_in(m.text, m.told_on()) is not None
    else:
        def holds(m: RecalledMemory) -> bool:
            return answer_in(question, m.text) is not None
    return not any(holds(m) for m in report.memories if m.kind in _SAID_KINDS) \
        and all(m.kind in _SAID_KINDS for m in report.memories)
