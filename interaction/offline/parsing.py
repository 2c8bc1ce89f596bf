"""spaCy's pipeline with a memory of the texts it parsed last.

One turn's text is parsed by the profile reader (self_description.py), the fact grounding
(grounding.py), the memory-request phrasing and, on a recall, the entity reader, which also reads
the statements of this conversation that the recall weighs; each parse of the small English pipeline
costs 5-15 ms on this machine. Remembering the latest Docs makes that one parse per text. The Docs
are shared between readers, which only read them.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterable, Iterator
from typing import Any

from cachetools import LRUCache

from common.model_files import MODEL_FILES, ModelFileMismatch
from interaction.offline.chat_spelling import CHAT_SPELLINGS, read_chat_spellings

RECENT_PARSES = 512  # several turns' texts and sentences, and the memories a recall read last


class CachedParser:
    def __init__(self, nlp: Any, size: int = RECENT_PARSES) -> None:
        self.nlp = nlp
        self._docs: LRUCache[str, Any] = LRUCache(size)
        self._lock = threading.Lock()  # turns and the episode save parse on different threads

    def __call__(self, text: str) -> Any:
        with self._lock:
            doc = self._docs.get(text)
        if doc is None:
            doc = self.nlp(text)
            with self._lock:
                self._docs[text] = doc
        return doc

    def pipe(self, texts: Iterable[str]) -> Iterator[Any]:
        """The Docs of `texts` in order; the ones not parsed yet in one batch (spaCy's pipe is about
        three times faster per text than one call each)."""
        texts = list(texts)
        with self._lock:
            found = {t: d for t in texts if (d := self._docs.get(t)) is not None}
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            parsed = list(zip(missing, self.nlp.pipe(missing), strict=True))
            found.update(parsed)
            with self._lock:
                self._docs.update(parsed)
        return iter([found[t] for t in texts])

    def __getattr__(self, name: str) -> Any:  # vocab, pipe_names, ...: the pipeline's own
        if name == "nlp":  # not set yet (copy, pickle)
            raise AttributeError(name)
        return getattr(self.nlp, name)


SUBJECTS = {"nsubj", "nsubjpass"}


def third_person(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """A personal pronoun of the third person ("he", "her", "its", "them"), by spaCy's morphology."""
    return token.pos_ == "PRON" and token.morph.get("Person") == ["3"] and token.morph.get("PronType") == ["Prs"]


def subject_of(pred) -> Any:  # noqa: ANN001 - a spaCy Token
    """The subject of a predicate, or None. A sentence of two clauses joined by a comma alone ("Name's
    Ruairi, I drive a bus") is parsed with both subjects on the second verb: the nearest to it is its
    own, the other one belongs to the clause said before the comma."""
    subjects = [c for c in pred.children if c.dep_ in SUBJECTS]
    return min(subjects, key=lambda c: abs(c.i - pred.i)) if subjects else None


def subject_joined_after(token) -> Any:  # noqa: ANN001 - a spaCy Token
    """The subject said right after the token and a coordinating conjunction, where the small parser
    lost the coordination ("jake and i broke up": "jake" hung on the verb as an adverbial, or left a
    root of its own, or an aside opening the sentence); None otherwise."""
    doc = token.doc
    if token.i + 2 >= len(doc) or doc[token.i + 1].pos_ != "CCONJ":
        return None
    subject = doc[token.i + 2]
    return subject if subject.dep_ in SUBJECTS else None


def doer_of(verb) -> Any:  # noqa: ANN001 - a spaCy Token
    """Who a verb is said of: its subject, its auxiliary's (the parser may hang it there: "she just got
    engaged", "Idris and I are getting divorced"), or, for a verb that shares its subject with the one
    it hangs on, that one's ("my sister quit her job and became a teacher", "I got engaged"); None."""
    subject = subject_of(verb) or next((s for a in verb.children if a.dep_ in ("aux", "auxpass")
                                        and (s := subject_of(a)) is not None), None)
    if subject is None and verb.dep_ in ("conj", "acomp", "xcomp") and verb.head.i != verb.i:
        return doer_of(verb.head)
    return subject


DISTRIBUTIVE = ("every", "each")  # determiners of a thing that recurs (closed grammar)


class ParserUnavailable(RuntimeError):
    pass


# prepositions before a time that a thing is moved or put off to: it lies ahead of the telling whatever
# the verb's tense ("the vaccination moved to the 14th")
AHEAD = frozenset({"to", "until", "till", "before", "by"})


def ahead_of_telling(time) -> bool:  # noqa: ANN001 - a spaCy Span or Token
    return preposition_of(time) in AHEAD


def behind_telling(time) -> bool:  # noqa: ANN001 - a spaCy Span or Token
    """A time that something has gone on "since": before the telling whatever the verb's tense ("in
    hospital since Monday")."""
    return preposition_of(time) == "since"


def preposition_of(time) -> str | None:  # noqa: ANN001 - a spaCy Span or Token
    """The preposition a time is the object of, through the noun the parse may hang it on as a
    modifier ("moved to the 12th, same time": "12th" a modifier of "time")."""
    node = getattr(time, "root", time)
    while node.dep_ in ("amod", "compound", "nummod", "det") and node.head.i != node.i:
        node = node.head
    return node.head.lower_ if node.dep_ == "pobj" else None


def verb_of(token) -> Any:  # noqa: ANN001 - a spaCy Token
    """The verb (or auxiliary) a word hangs on, up the parse; the root when none. A gerund with a
    determiner or a possessor names a thing, not a doing ("is my viewing on Tuesday?"), whatever tag
    the parser gives it, and is passed."""
    node = token
    while (node.pos_ not in ("VERB", "AUX") or _a_thing(node)) and node.head.i != node.i:
        node = node.head
    return node


def _a_thing(token) -> bool:  # noqa: ANN001 - a spaCy Token
    return token.tag_ == "VBG" and any(c.dep_ in ("det", "poss") for c in token.children)


def told_as_past(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """The verb's clause tells of the past: a past form ("went", "was"), or a participle whose finite
    auxiliary is past ("was serviced", "got stolen") or a perfect's have ("have been invited"). A
    participle after a present or modal auxiliary is not ("is getting baptised on Sunday", "will be
    fixed on Monday"): its tag alone (VBN) says nothing of when. A past form with an auxiliary is a
    participle the tagger took for one ("Have I got anything on Tuesday?": "got" VBD)."""
    if verb.tag_ == "VBD" and not any(a.dep_ in ("aux", "auxpass") for a in verb.children):
        return True
    if verb.tag_ not in ("VBN", "VBD"):
        return False
    # the finite one may hang on another auxiliary ("are getting married": "are" on "getting")
    auxiliaries = [a for a in verb.children if a.dep_ in ("aux", "auxpass")]
    auxiliaries += [b for a in auxiliaries for b in a.children if b.dep_ in ("aux", "auxpass")]
    finite = next((a for a in auxiliaries if a.tag_ in ("VBD", "VBZ", "VBP", "MD")), None)
    if not auxiliaries and verb.dep_ in ("ccomp", "xcomp", "oprd") and verb.head.i != verb.i:
        return told_as_past(verb.head)  # "I'm getting my hair cut on the 20th": the tense of "getting"
    if finite is not None and finite.tag_ in ("VBZ", "VBP") and finite.lemma_.lower() == "have" and verb.lemma_ == "get" \
            and any(c.dep_ == "dobj" or c.tag_ in ("WP", "WDT") for c in verb.subtree):
        # "I've got a check-up on Tuesday": "have got" is "have", now; its object may be what is asked
        # ("what have I got on today?", where the parse hangs "what" on the particle)
        return False
    return finite is None or finite.tag_ == "VBD" or finite.lemma_.lower() == "have"


def asked_of_the_past(doc) -> bool:  # noqa: ANN001 - a spaCy Doc
    """The question asks of a time gone by ("when did I get my keys?", "where was I going?"): its verb,
    or the auxiliary on it, is past."""
    return any(t.tag_ == "VBD" and t.pos_ in ("VERB", "AUX") for t in doc)


def intended_then(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """The word is said of a plan as it stood in the past: its verb in progress after a past "be" ("I
    was going to Japan"), or what a past "be" with a participle meant to be done ("I was meant to go
    to Lisbon", "we were supposed to fly on Monday"). "I was born in Leeds" tells no plan."""
    verb = verb_of(token)
    if verb.tag_ == "VBG" and any(a.dep_ == "aux" and a.lemma_ == "be" and a.tag_ == "VBD" for a in verb.children):
        return True
    meant = verb.head if verb.dep_ == "xcomp" else None
    return meant is not None and meant.tag_ == "VBN" and any(
        a.dep_ in ("aux", "auxpass") and a.lemma_ == "be" and a.tag_ == "VBD" for a in meant.children)


def told_as_present(clause: str) -> bool:
    """The clause's main verb tells of now: a present form ("I work as a nurse", "I'm a nurse"), or a
    participle in progress after a present "be" ("I'm retraining as a nurse"); never a past or a perfect
    ("I got a job as a nurse", "I've started at the bakery")."""
    try:
        doc = load_parser()(clause)
    except ParserUnavailable:
        return False
    root = next(iter(doc.sents)).root
    auxiliaries = [a for a in root.children if a.dep_ in ("aux", "auxpass")]
    if root.tag_ in ("VBZ", "VBP"):
        return not auxiliaries
    return root.tag_ == "VBG" and any(a.tag_ in ("VBZ", "VBP") and a.lemma_.lower() == "be" for a in auxiliaries)


def an_aside(prep) -> bool:  # noqa: ANN001 - a spaCy Token
    """A prepositional phrase that is an adverb of the telling, not part of what is told ("by the
    way", "in fact"): WordNet knows its words as one entry, and no noun by them."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    if prep.dep_ != "prep" or not any(c.dep_ == "pobj" for c in prep.children):
        return False
    wordnet = load_wordnet()
    entry = "_".join(t.lower_ for t in prep.subtree)
    return wordnet is not None and "_" in entry and wordnet.knows(entry) and not wordnet.lexical_files(entry)


def name_beside(noun):  # noqa: ANN001, ANN202 - a spaCy Token -> Token or None
    """The proper name right after a noun that the parser hangs on the same word as a second subject
    or object ("my cat Miso knocked ...": "cat" and "Miso" both subjects): the noun's own name."""
    beside = noun.doc[noun.i + 1] if noun.i + 1 < len(noun.doc) else None
    if beside is not None and beside.pos_ == "PROPN" and beside.dep_ == noun.dep_ and beside.head.i == noun.head.i != noun.i:
        return beside
    return None


def noun_named(name):  # noqa: ANN001, ANN202 - a spaCy Token -> Token or None
    """The noun a name is set beside: in apposition ("my dog Pip"), or by a participle of naming the
    parser hangs on the noun ("a lizard called Boris": "Boris" the participle's predicate)."""
    if name.dep_ == "appos":
        return name.head
    verb = name.head
    if name.dep_ in ("oprd", "attr", "dobj") and verb.tag_ == "VBN" and verb.dep_ in ("acl", "amod"):
        return verb.head
    return None


def with_appositions(noun) -> str:  # noqa: ANN001 - a spaCy Token
    """The noun with the words before it and a name set right beside it ("my dog Pip"), never a
    clause or a list after it."""
    end = hyphenated_end(noun)
    words = [w for left in noun.lefts for w in left.subtree] + list(noun.doc[noun.i:end + 1])
    words += [c for c in noun.rights if c.dep_ in ("appos", "compound") and c.pos_ == "PROPN" and c.i == end + 1]
    return "".join(w.text_with_ws for w in sorted(words, key=lambda w: w.i)).strip()


def hyphenated_end(noun) -> int:  # noqa: ANN001 - a spaCy Token
    """The index of the last token of the word a noun is, with the parts the tokeniser split off a
    hyphenated one ("sister-in-law")."""
    doc, end = noun.doc, noun.i
    while end + 1 < len(doc) and not doc[end].whitespace_ and (doc[end + 1].tag_ == "HYPH" or doc[end].tag_ == "HYPH"):
        end += 1
    return end


def spliced(tok, root) -> bool:  # noqa: ANN001 - spaCy Tokens
    """A clause with its own subject before the root and a comma between ("I left Spar in the summer,
    now I drive a bus"), which the parser hangs on the root as its complement; a complement after the
    root is one ("I hope I get the job")."""
    return (tok.dep_ in {"ccomp", "parataxis"} and tok.i < root.i and tok.pos_ in {"VERB", "AUX"}
            and any(c.dep_ in {"nsubj", "nsubjpass"} for c in tok.children)
            and any(t.text in {",", ";"} for t in root.doc[tok.right_edge.i + 1:root.i]))


def of_feeling(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """A verb whose most frequent WordNet sense is a feeling ("want", "wish", "love"): what it is done to
    is wished for or felt about, not had or done."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return verb.pos_ == "VERB" and wordnet is not None and wordnet.verb_lexical_file(verb.lemma_.lower()) == "verb.emotion"


def hung_before_a_splice(tok, clause) -> bool:  # noqa: ANN001 - spaCy Tokens
    """`tok` ends the clause before `clause`, which the parser gave it: `clause` is spliced on after
    another with a comma and no conjunction, and `tok` comes before that comma and the clause's
    subject ("My sister's wedding is on the 14th of June in Krakow, I'm the maid of honour": "in
    Krakow" hung on "I'm")."""
    subject = next((c for c in clause.children if c.dep_ in {"nsubj", "nsubjpass"}), None)
    return (subject is not None and clause.head.i < tok.i < subject.i and clause.dep_ in {"advcl", "ccomp", "parataxis"}
            and not any(c.dep_ in {"mark", "cc"} or c.tag_.startswith("W") for c in clause.children)
            and any(t.text in {",", ";"} for t in clause.doc[tok.i + 1:subject.i]))


def to_read_as_a_particle(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """"to" that the small parser made an infinitive's particle on a noun: one it tags a noun, or a
    verb far more often a noun whose object has no determiner of its own ("moved to room 12", "promoted
    to head chef"; "to head the team" is a verb's): a preposition, the noun its object."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    if not (tok.lower_ == "to" and tok.dep_ == "aux" and tok.head.i > tok.i):
        return False
    word = tok.head
    if word.pos_ in {"NOUN", "PROPN"}:
        return True
    wordnet = load_wordnet()
    return word.tag_ == "VB" and wordnet is not None and wordnet.mostly_a_noun(word.lower_) and not any(
        d.dep_ in {"det", "poss"} for c in word.children if c.dep_ == "dobj" for d in c.children)


def comes_round(day) -> bool:  # noqa: ANN001 - a spaCy Token
    """A day of the week said as one that comes round, naming no single date: with "every" or "each"
    ("every Tuesday morning"), on a plural ("Wednesday evenings"), as one of a month's ("the first
    Saturday of the month", "the last Sunday of every month"), or as any one of them ("a meeting at 4:45
    on a Friday")."""
    phrase = day.head if day.dep_ == "compound" else day
    return any(c.dep_ == "det" and c.lower_ in (*DISTRIBUTIVE, "a", "an") for c in phrase.children) \
        or phrase.tag_ == "NNS" \
        or any(c.dep_ == "prep" and c.lower_ == "of" for c in day.children)


def of_having(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    """The verb of possession, "have" or "have got" (closed grammar, not a topic: "do I have a
    granddaughter?", "have I got a dog?": the "got" of a present "have" is that "have" again)."""
    return verb.lemma_ == "have" or (
        verb.lemma_ == "get" and any(c.dep_ == "aux" and c.lemma_ == "have" for c in verb.children))


@functools.cache
def load_parser() -> CachedParser:
    try:
        import spacy

        return CachedParser(read_chat_spellings(spacy.load(MODEL_FILES.folder("spacy_en"))))
    except ModelFileMismatch:
        raise  # a changed model file stops the process: never parse with it, never fall back silently
    except Exception as exc:  # noqa: BLE001 - any other failure to load means: use the rules
        raise ParserUnavailable(f"spaCy pipeline en_core_web_sm cannot load ({exc}); "
                                "install it with: ./scripts/bootstrap.sh") from exc



def without_opening(text: str) -> str:
    """`text` without the words that open it before what it says (`opening_aside`: "oh and the padlock
    on my shed is 8802", "And what did I ask you to remember?", "wait actually my PIN is 7731"), by
    spaCy's parse; unchanged without the parser."""
    try:
        parsed = load_parser()(text)
    except ParserUnavailable:
        return text
    first = next((t.idx for t in parsed if not opening_aside(t)), None)
    return text[first:] if first is not None else text


def opening_aside(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """A word ahead of its clause's subject that speaks of the telling, not of what is told: an
    interjection or a conjunction ("um", "oh and", "oh dear,"), an adverb on its own on the clause's verb ("also",
    "so", "honestly", "actually": how frank, how sure, how it ties on to the talk before), or a bare
    imperative that only asks for attention before the clause it introduces ("wait, my PIN is 7731",
    "look, ..."); a verb of thinking or saying there takes the clause as its object ("guess my PIN is
    7731") and stays."""
    if token.pos_ in ("INTJ", "CCONJ", "PUNCT") or token.dep_ == "intj":
        return True
    doc = token.doc
    if 0 < token.i < len(doc) - 1 and doc[token.i - 1].pos_ == "INTJ" and doc[token.i + 1].text == ",":
        return True  # the word an interjection opens before its comma ("Oh dear, ...", "Oh boy, ...")
    if token.tag_ == "VB" and not any(c.dep_ not in ("ccomp", "punct", "advmod") for c in token.children):
        clause = next((c for c in (*token.children, token.head) if c.i > token.i and c.pos_ in ("VERB", "AUX")
                       and _has_subject(c)), None)
        return clause is not None and _attention_verb(token.lemma_)
    # the subject may hang on an auxiliary of the verb ("Also my brother is getting married": on "getting")
    verbs = [token.head, *(c for c in token.head.children if c.dep_ in ("aux", "auxpass"))]
    return token.pos_ == "ADV" and token.dep_ == "advmod" and not list(token.children) \
        and any(c.dep_ in ("nsubj", "nsubjpass") and c.i > token.i for v in verbs for c in v.children)


def _has_subject(verb) -> bool:  # noqa: ANN001 - a spaCy Token
    return any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children)


def _attention_verb(lemma: str) -> bool:
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    return wordnet is not None and wordnet.verb_lexical_file(lemma) not in (None, "verb.cognition", "verb.communication")


def politeness(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """"please": the politeness of a request wherever it stands, whatever the tagger calls it ("the van
    please" is read as a compound noun); it tells, asks and answers nothing of its own."""
    return token.lower_ == "please"


def without_politeness(text: str) -> str:
    """`text` without the politeness that closes it ("my locker code is 2291 please"), by the parse;
    unchanged without the parser."""
    try:
        parsed = load_parser()(text)
    except ParserUnavailable:
        return text
    last = next((t for t in reversed(parsed) if not (politeness(t) or t.is_punct)), None)
    said = [t for t in parsed if last is not None and t.i > last.i]
    return text[:last.idx + len(last)] if last is not None and any(politeness(t) for t in said) else text


def without_closing(text: str) -> str:
    """`text` without the interjections, conjunctions, stop-word adverbs, auxiliaries and negations
    after its last word of content, which led on to words cut after it ("the plumber comes on the
    14th so", "... on Sunday please", "dentist wed 3pm dont" before "let me forget"), by spaCy's
    tags; unchanged without the parser."""
    try:
        parsed = load_parser()(text)
    except ParserUnavailable:
        return text
    def leads_on(t) -> bool:  # noqa: ANN001 - a spaCy Token
        negated = t.i + 1 < len(parsed) and parsed[t.i + 1].dep_ == "neg"  # "do" of "dont", tagged a verb
        return (t.pos_ in ("INTJ", "CCONJ", "SCONJ", "PUNCT", "AUX") or t.dep_ == "neg" or politeness(t)
                or (t.is_stop and (t.pos_ in ("ADV", "PART") or negated)))

    last = next((t for t in reversed(parsed) if not leads_on(t)), None)
    return text[:last.idx + len(last)] if last is not None else text


def stands_in(tok) -> bool:  # noqa: ANN001 - a spaCy Token
    """A pro-form that says again a thing named before it: "it", or "one" with a determiner ("the new
    one"), which as a number would count something and take none."""
    if tok.pos_ == "PRON":
        return tok.morph.get("Gender") == ["Neut"] and tok.morph.get("Number") == ["Sing"]
    return tok.pos_ == "NOUN" and tok.like_num and any(c.dep_ == "det" for c in tok.children)


def as_capitalised(text: str) -> str:
    """A text typed without a single capital as it would be written with them, for the tagger, which
    reads a name by its capital: its first letter, "I", and each word that is no English word WordNet
    knows by its lemma, or one WordNet writes only with a capital ("my brother arjun is moving to
    bangalore" -> "My brother Arjun ... Bangalore"); never a stop word or a chat spelling ("u", "pls").
    The same length, so a span read off it is the same span of the text as typed."""
    from interaction.memory.retrieval.lexicon import load_wordnet

    wordnet = load_wordnet()
    if wordnet is None or any(c.isupper() for c in text):
        return text
    try:
        nlp = load_parser()
    except ParserUnavailable:
        return text
    chars = list(text)
    doc = nlp(text)
    for t in doc:
        # a word typed onto the one before it ("pm" of "2pm", "km" of "5km") is part of that word
        joined = t.i > 0 and not doc[t.i - 1].whitespace_
        if t.lower_ == "i" or (t.is_alpha and len(t) > 1 and not t.is_stop and not joined and t.lower_ not in CHAT_SPELLINGS and (
                not wordnet.knows(t.lemma_) or all(wordnet.capitalised_senses(t.lower_) or (False,)))):
            chars[t.idx] = chars[t.idx].upper()
    chars[:1] = [c.upper() for c in chars[:1]]
    return "".join(chars)


def leans_on_the_turn_before(text: str) -> bool:
    """The first sentence of `text` speaks of a third person or thing by a pronoun ("he", "her", "its",
    "them") before it names anyone or anything; False without the parser. A "they" its subject is most
    often no one told of ("they reset the locker code"), and so is an "it" ("it's been a rough year")."""
    try:
        doc = load_parser()(text)
    except ParserUnavailable:
        return False
    for token in next(iter(doc.sents), []):
        if token.pos_ in ("NOUN", "PROPN"):
            return False
        if (third_person(token) and not _of_nothing_told(token)
                and (token.morph.get("Number") == ["Sing"] or token.dep_ not in ("nsubj", "nsubjpass"))):
            return True
    return False


def _of_nothing_told(token) -> bool:  # noqa: ANN001 - a spaCy Token
    """An "it" that is no possessor: most often it stands for the time or the weather ("it's been a rough
    year", "it's raining"), which the parser does not tell from a thing's "it"."""
    return token.lower_ == "it" or token.dep_ == "expl"
